//go:build js && wasm

package wasm_test

import (
	"fmt"
	"strings"
	"syscall/js"
	"testing"
	"time"
)

// runLine types one line into a terminal and returns its result.
func runLine(t *testing.T, term js.Value, line string, options ...any) js.Value {
	t.Helper()
	return call(t, term, "run", append([]any{line}, options...)...)
}

// TestTerminalRunsTheWorkedExample runs the chapter's worked example in
// the terminal over IndexedDB, the clock included, and checks what it
// prints, the requests it reports and that the state survives a new
// terminal.
func TestTerminalRunsTheWorkedExample(t *testing.T) {
	db := freshDB(t)
	store := openStore(t, newAPI().Value(), fmt.Sprintf(`{"db": %q}`, db))
	term := call(t, store, "terminal")
	for _, line := range []string{
		"aws s3api create-bucket --bucket demo",
		"aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Enabled",
		"echo old > old.txt",
		"aws s3api put-object --bucket demo --key logs/app.log --body old.txt",
		"minis3 clock +5",
		"echo current > current.txt",
		"aws s3api put-object --bucket demo --key logs/app.log --body current.txt",
		"minis3 clock 12",
	} {
		if res := runLine(t, term, line); res.Get("status").Int() != 0 {
			t.Fatalf("%s: %s", line, jsonOf(res))
		}
	}
	rules := object(`{"rules": [{"id": "logs", "prefix": "logs/", "expireCurrentAfter": 10, "expireNoncurrentAfter": 12}]}`)
	if res := runLine(t, term, "minis3 tick demo", rules); res.Get("stdout").String() != "expire_noncurrent  logs/app.log  v00000001  (rule logs)\n" {
		t.Fatalf("tick at 12: %s", jsonOf(res))
	}
	runLine(t, term, "minis3 clock 15")
	if res := runLine(t, term, "minis3 tick demo", rules); res.Get("stdout").String() != "expire_current  logs/app.log  v00000002  (rule logs)\n" {
		t.Fatalf("tick at 15: %s", jsonOf(res))
	}
	res := runLine(t, term, "aws s3api list-object-versions --bucket demo --query 'DeleteMarkers[].[VersionId, IsLatest]' --output text")
	if got := res.Get("stdout").String(); got != "v00000003\tTrue\n" {
		t.Fatalf("delete markers: %q", got)
	}
	ex := res.Get("exchanges")
	if ex.Length() != 1 || ex.Index(0).Get("method").String() != "GET" || ex.Index(0).Get("path").String() != "/demo?versions&encoding-type=url" ||
		ex.Index(0).Get("status").Int() != 200 || !strings.Contains(ex.Index(0).Get("responseBody").String(), "<DeleteMarker>") {
		t.Fatalf("exchanges: %s", jsonOf(ex))
	}

	// The state, saved as JSON by the page, brings back the files and the
	// history in a new terminal.
	saved := js.Global().Get("JSON").Call("parse", js.Global().Get("JSON").Call("stringify", term.Call("state")))
	again := call(t, store, "terminal", saved)
	if res := runLine(t, again, "cat current.txt"); res.Get("stdout").String() != "current\n" {
		t.Fatalf("a file after the state's round trip: %s", jsonOf(res))
	}
	if got := jsonOf(again.Call("complete", "aws s3api list-object-v")); got != `["list-object-versions"]` {
		t.Fatalf("complete: %s", got)
	}
	if got := jsonOf(again.Call("describe", "aws s3api list-object-versions --buck=demo").Get("aws").Get("options")); got != `{"bucket":"demo"}` {
		t.Fatalf("describe: %s", got)
	}
	if got := again.Call("describe", "aws s3api nope"); !got.IsNull() {
		t.Fatalf("describe of a line the CLI refuses: %s", jsonOf(got))
	}
}

// TestTerminalUndoRestoresTheStore undoes a command over IndexedDB: the
// store object's own methods see the store as it was.
func TestTerminalUndoRestoresTheStore(t *testing.T) {
	db := freshDB(t)
	store := openStore(t, newAPI().Value(), fmt.Sprintf(`{"db": %q}`, db))
	term := call(t, store, "terminal")
	runLine(t, term, "aws s3api create-bucket --bucket demo")
	runLine(t, term, "aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Enabled")
	runLine(t, term, "aws s3api put-object --bucket demo --key k")
	res := runLine(t, term, "aws s3api delete-object --bucket demo --key k --version-id v00000001")
	if !res.Get("changed").Bool() {
		t.Fatalf("delete: %s", jsonOf(res))
	}
	if n := call(t, store, "listVersions", "demo").Length(); n != 0 {
		t.Fatalf("%d versions after the delete", n)
	}
	if res := runLine(t, term, "undo"); res.Get("status").Int() != 0 || !res.Get("changed").Bool() {
		t.Fatalf("undo: %s", jsonOf(res))
	}
	versions := call(t, store, "listVersions", "demo")
	if versions.Length() != 1 || versions.Index(0).Get("versionId").String() != "v00000001" {
		t.Fatalf("versions after undo: %s", jsonOf(versions))
	}
	if res := runLine(t, term, "aws s3api put-object --bucket demo --key k2"); !strings.Contains(res.Get("stdout").String(), "v00000002") {
		t.Fatalf("the version counter after undo: %s", jsonOf(res))
	}
}

func TestTerminalArgumentsAreChecked(t *testing.T) {
	store := openStore(t, newAPI().Value(), `{"memory": true}`)
	if e := fail(t, store, "terminal", object(`{"files": 3}`)); e.Get("code").String() != "InvalidArgument" {
		t.Errorf("a bad state: %s", e.Get("code"))
	}
	term := call(t, store, "terminal")
	if e := fail(t, term, "run", 3); e.Get("code").String() != "InvalidArgument" {
		t.Errorf("a line that is not a string: %s", e.Get("code"))
	}
	if e := fail(t, term, "run", "ls", object(`{"rulez": []}`)); e.Get("code").String() != "InvalidArgument" {
		t.Errorf("an unknown option: %s", e.Get("code"))
	}
}

// BenchmarkTerminalCommand1000Versions times a command on a bucket of
// 1,000 versions (100 keys of 10 versions) over IndexedDB, as the page
// runs it: the line in, the output and the requests out, through the
// JavaScript API, against its budget in BENCHMARKS.md.
func BenchmarkTerminalCommand1000Versions(b *testing.B) {
	t := b
	db := fmt.Sprintf("terminal-bench-%d", dbCounter.Add(1))
	minis3 := newAPI().Value()
	store, rejected := settle(t, minis3.Call("open", object(fmt.Sprintf(`{"db": %q}`, db))))
	if rejected {
		b.Fatalf("open: %s", jsonOf(store))
	}
	defer func() {
		settle(t, store.Call("close"))
		settle(t, minis3.Call("deleteDatabase", db))
	}()
	settle(t, store.Call("createBucket", "big"))
	settle(t, store.Call("setBucketVersioning", "big", "enabled"))
	for v := 0; v < 10; v++ {
		for k := 0; k < 100; k++ {
			if res, rejected := settle(t, store.Call("put", "big", fmt.Sprintf("logs/%03d.log", k), "version")); rejected {
				b.Fatalf("put: %s", jsonOf(res))
			}
		}
	}
	term, _ := settle(t, store.Call("terminal"))
	for _, c := range []struct{ name, line string }{
		{"ListObjectVersions", "aws s3api list-object-versions --bucket big"},
		{"ListObjectVersionsText", "aws s3api list-object-versions --bucket big --output text"},
		{"ListObjectVersionsQuery", "aws s3api list-object-versions --bucket big --query 'Versions[?IsLatest].{Key: Key, Id: VersionId}'"},
		{"S3Ls", "aws s3 ls s3://big --recursive"},
		{"PutObject", "aws s3api put-object --bucket big --key logs/000.log"},
	} {
		b.Run(c.name, func(b *testing.B) {
			start := time.Now()
			for b.Loop() {
				res, rejected := settle(t, term.Call("run", c.line))
				if rejected || res.Get("status").Int() != 0 {
					b.Fatalf("%s: %s", c.line, jsonOf(res))
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/command")
		})
	}
}
