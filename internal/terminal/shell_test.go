package terminal_test

import (
	"encoding/json"
	"strings"
	"testing"

	"minis3/core"
	"minis3/internal/terminal"
)

// testOrigin is 2025-12-04T00:00:00Z, a midnight.
const testOrigin = 1764806400

func newShell(t *testing.T) (*terminal.Shell, *terminal.LocalStore) {
	t.Helper()
	store, err := terminal.OpenStore(core.NewMemoryStorage(), core.Options{ManualClock: true, Origin: testOrigin})
	if err != nil {
		t.Fatal(err)
	}
	return terminal.New(store, nil), store
}

// run runs lines and fails the test when one ends with another status
// than want (the last line's).
func run(t *testing.T, sh *terminal.Shell, lines ...string) terminal.Result {
	t.Helper()
	var res terminal.Result
	for _, l := range lines {
		res = sh.Run(l, terminal.Options{})
	}
	return res
}

func TestShellWords(t *testing.T) {
	sh, _ := newShell(t)
	for _, c := range []struct{ line, out string }{
		{`echo a   b`, "a b\n"},
		{`echo "a   b" 'c  d'`, "a   b c  d\n"},
		{`echo 'it''s'`, "its\n"},
		{`echo "say \"hi\" \$x"`, "say \"hi\" $x\n"},
		{`echo back\ slash`, "back slash\n"},
		{`echo '$?' "$?" $?`, "$? 0 0\n"},
		{`echo a # comment`, "a\n"},
		{`echo a#b`, "a#b\n"},
		{`echo -n x`, "x"},
		{`echo -e 'a\tb'`, "a\tb\n"},
		{`echo -x`, "-x\n"},
	} {
		if res := run(t, sh, c.line); res.Stdout != c.out || res.Status != 0 {
			t.Errorf("%s: %q (status %d), want %q", c.line, res.Stdout, res.Status, c.out)
		}
	}
}

func TestShellRefusesWhatItHasNot(t *testing.T) {
	sh, _ := newShell(t)
	for _, line := range []string{`echo a | cat`, `echo a; echo b`, `echo a && echo b`, `echo $HOME`, "echo `date`", `echo 'open`, `cat < f`, `echo a 2> err`, `echo >`} {
		res := run(t, sh, line)
		if res.Status == 0 || res.Stderr == "" || res.Stdout != "" {
			t.Errorf("%s: status %d, stdout %q, stderr %q", line, res.Status, res.Stdout, res.Stderr)
		}
	}
}

func TestUnknownCommandIs127(t *testing.T) {
	sh, _ := newShell(t)
	res := run(t, sh, "frobnicate x")
	if res.Status != 127 || res.Stderr != "bash: frobnicate: command not found\n" {
		t.Fatalf("%+v", res)
	}
	if res := run(t, sh, "echo $?"); res.Stdout != "127\n" {
		t.Fatalf("echo $?: %q", res.Stdout)
	}
}

func TestRedirectionWritesAndAppends(t *testing.T) {
	sh, _ := newShell(t)
	run(t, sh, "echo one > f.txt", "echo two >> f.txt", "echo three >>f.txt")
	if res := run(t, sh, "cat f.txt"); res.Stdout != "one\ntwo\nthree\n" {
		t.Fatalf("cat: %q", res.Stdout)
	}
	if res := run(t, sh, "echo x > nodir/f"); res.Status != 1 || res.Stderr != "bash: nodir/f: No such file or directory\n" {
		t.Fatalf("into a missing directory: %+v", res)
	}
	run(t, sh, "mkdir d")
	if res := run(t, sh, "echo x > d"); res.Status != 1 || res.Stderr != "bash: d: Is a directory\n" {
		t.Fatalf("onto a directory: %+v", res)
	}
}

func TestHistoryListsTheLinesTyped(t *testing.T) {
	sh, _ := newShell(t)
	run(t, sh, "echo a", "", "ls")
	if res := run(t, sh, "history"); res.Stdout != "    1  echo a\n    2  ls\n    3  history\n" {
		t.Fatalf("history: %q", res.Stdout)
	}
}

func TestClearAsksThePageToClear(t *testing.T) {
	sh, _ := newShell(t)
	if res := run(t, sh, "clear"); !res.Clear || res.Status != 0 {
		t.Fatalf("%+v", res)
	}
}

// listing is the store's versions, as text.
func listing(t *testing.T, sh *terminal.Shell) string {
	t.Helper()
	res := run(t, sh, "aws s3api list-buckets --query Buckets[].Name --output text")
	out := res.Stdout
	for _, b := range strings.Fields(res.Stdout) {
		out += run(t, sh, "aws s3api list-object-versions --bucket "+b+" --output text").Stdout
	}
	return out + run(t, sh, "minis3 clock").Stdout
}

func TestUndoPutsBackTheStoreBeforeTheLastCommandThatChangedIt(t *testing.T) {
	sh, _ := newShell(t)
	run(t, sh, "aws s3api create-bucket --bucket demo",
		"aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Enabled",
		"echo old > old.txt", "aws s3api put-object --bucket demo --key k --body old.txt")
	before := listing(t, sh)

	res := run(t, sh, "aws s3api delete-object --bucket demo --key k --version-id v00000001")
	if !res.Changed {
		t.Fatal("deleting a version did not report a change")
	}
	run(t, sh, "minis3 clock +1d", "aws s3api list-buckets")
	if listing(t, sh) == before {
		t.Fatal("the commands changed nothing")
	}
	if res := run(t, sh, "undo"); res.Status != 0 || res.Stdout != "undone: minis3 clock +1d\n" {
		t.Fatalf("undo: %+v", res)
	}
	if res := run(t, sh, "undo"); res.Status != 0 || !res.Changed {
		t.Fatalf("second undo: %+v", res)
	}
	if got := listing(t, sh); got != before {
		t.Fatalf("after undo:\n%s\nwant:\n%s", got, before)
	}
	if res := run(t, sh, "aws s3api get-object --bucket demo --key k back.txt", "cat back.txt"); res.Stdout != "old\n" {
		t.Fatalf("the deleted version's body: %q", res.Stdout)
	}
}

func TestUndoWithNothingToUndo(t *testing.T) {
	sh, _ := newShell(t)
	run(t, sh, "aws s3api list-buckets")
	if res := run(t, sh, "undo"); res.Status != 1 || res.Stderr != "undo: nothing to undo\n" {
		t.Fatalf("%+v", res)
	}
}

func TestUndoTakesBackWhatThePageDidAfterTheCommand(t *testing.T) {
	sh, store := newShell(t)
	run(t, sh, "aws s3api create-bucket --bucket demo")
	before := listing(t, sh)
	run(t, sh, "aws s3api put-object --bucket demo --key k")
	if _, err := store.Core().PutObject("demo", "from-the-page", []byte("x"), core.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	run(t, sh, "undo")
	if got := listing(t, sh); got != before {
		t.Fatalf("after undo:\n%s\nwant:\n%s", got, before)
	}
}

func TestUndoRefusesAStoreChangedUnseen(t *testing.T) {
	sh, store := newShell(t)
	run(t, sh, "aws s3api create-bucket --bucket demo")
	saved := sh.State()
	// Another terminal on the same store (another tab) changes it.
	other := terminal.New(store, nil)
	run(t, other, "aws s3api create-bucket --bucket other")
	again := terminal.New(store, &saved)
	if res := run(t, again, "undo"); res.Status != 1 || !strings.Contains(res.Stderr, "nothing to undo") {
		t.Fatalf("%+v", res)
	}
}

func TestResetEmptiesTheStoreAndUndoBringsItBack(t *testing.T) {
	sh, _ := newShell(t)
	run(t, sh, "aws s3api create-bucket --bucket demo",
		"aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Enabled",
		"aws s3api put-object --bucket demo --key a", "aws s3api delete-object --bucket demo --key a",
		"aws s3api create-multipart-upload --bucket demo --key big", "minis3 clock +15")
	before := listing(t, sh)
	res := run(t, sh, "reset")
	if res.Status != 0 || len(res.Exchanges) == 0 {
		t.Fatalf("reset: %+v", res)
	}
	if got := listing(t, sh); got != "clock: 0 s  (2025-12-04T00:00:00Z)\n" {
		t.Fatalf("after reset: %q", got)
	}
	run(t, sh, "undo")
	if got := listing(t, sh); got != before {
		t.Fatalf("after undo:\n%s\nwant:\n%s", got, before)
	}
}

func TestStateRoundTripsThroughJSON(t *testing.T) {
	sh, store := newShell(t)
	if data, _ := json.Marshal(sh.State()); string(data) != `{"files":[],"dirs":[],"history":[],"status":0,"undo":[]}` {
		t.Fatalf("a new state: %s", data)
	}
	run(t, sh, "mkdir d", "echo hi > d/f.txt", "aws s3api create-bucket --bucket demo", "frobnicate")
	data, err := json.Marshal(sh.State())
	if err != nil {
		t.Fatal(err)
	}
	var st terminal.State
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	again := terminal.New(store, &st)
	if res := run(t, again, "cat d/f.txt"); res.Stdout != "hi\n" {
		t.Fatalf("file: %q", res.Stdout)
	}
	if res := run(t, again, "history"); !strings.Contains(res.Stdout, "frobnicate") {
		t.Fatalf("history: %q", res.Stdout)
	}
	if res := run(t, again, "undo"); res.Status != 0 {
		t.Fatalf("undo after the round trip: %+v", res)
	}
}

func TestEveryRequestIsReported(t *testing.T) {
	sh, _ := newShell(t)
	if data, _ := json.Marshal(run(t, sh, "echo hi")); !strings.Contains(string(data), `"exchanges":[]`) {
		t.Fatalf("a command without requests: %s", data)
	}
	res := run(t, sh, "aws s3api create-bucket --bucket demo")
	if len(res.Exchanges) != 1 {
		t.Fatalf("exchanges: %+v", res.Exchanges)
	}
	e := res.Exchanges[0]
	if e.Method != "PUT" || e.Path != "/demo" || e.Status != 200 || e.StatusText != "OK" {
		t.Fatalf("exchange: %+v", e)
	}
	res = run(t, sh, "aws s3 cp s3://demo/nothing here.txt")
	if len(res.Exchanges) != 1 || res.Exchanges[0].Method != "HEAD" || res.Exchanges[0].Status != 404 {
		t.Fatalf("exchanges: %+v", res.Exchanges)
	}
}

func TestMinis3Commands(t *testing.T) {
	sh, _ := newShell(t)
	for _, c := range []struct {
		line, out string
		status    int
	}{
		{"minis3 clock", "clock: 0 s  (2025-12-04T00:00:00Z)\n", 0},
		{"minis3 clock +15", "clock: 15 s  (2025-12-04T00:00:15Z)\n", 0},
		{"minis3 clock +1d", "clock: 86415 s  (2025-12-05T00:00:15Z)\n", 0},
		{"minis3 clock 14.999", "clock: 14.999 s  (2025-12-04T00:00:14.999Z)\n", 0},
		{"minis3 clock 2025-12-06T00:00:00Z", "clock: 172800 s  (2025-12-06T00:00:00Z)\n", 0},
		{"minis3 clock 2025-12-07", "clock: 259200 s  (2025-12-07T00:00:00Z)\n", 0},
		{"aws s3api create-bucket --bucket demo", "{\n    \"Location\": \"/demo\"\n}\n", 0},
		{"minis3 preview demo --rules '[]'", "no actions\n", 0},
		{"minis3 run demo", "no actions\n", 0},
	} {
		res := run(t, sh, c.line)
		if res.Stdout != c.out || res.Status != c.status {
			t.Errorf("%s: %q %q (status %d), want %q (%d)", c.line, res.Stdout, res.Stderr, res.Status, c.out, c.status)
		}
	}
	for _, line := range []string{"minis3", "minis3 fly", "minis3 clock yesterday", "minis3 tick", "minis3 tick demo", "minis3 tick nope --rules '[]'", "minis3 run nope", "minis3 tick demo --rules '[{\"id\":\"x\"}]'"} {
		if res := run(t, sh, line); res.Status == 0 || res.Stderr == "" {
			t.Errorf("%s: %+v", line, res)
		}
	}
}

func TestTickUsesTheEditorsRules(t *testing.T) {
	sh, _ := newShell(t)
	run(t, sh, "aws s3api create-bucket --bucket demo", "aws s3api put-object --bucket demo --key logs/a", "minis3 clock +10")
	res := sh.Run("minis3 tick demo", terminal.Options{EditorRules: []byte(`[{"id": "logs", "prefix": "logs/", "expireCurrentAfter": 10}]`)})
	if res.Stdout != "expire_current  logs/a  null  (rule logs)\n" || res.Status != 0 {
		t.Fatalf("%+v", res)
	}
}

func TestDescribeReadsWhatALineAsksForWhateverItsSpelling(t *testing.T) {
	want := `{"name":"aws","args":["--output","text","s3api","list-object-versions","--buck=demo","--prefix","logs/"],"aws":{"command":"s3api","operation":"list-object-versions","options":{"bucket":"demo","prefix":"logs/"},"globals":{"output":"text"}}}`
	sh, _ := newShell(t)
	c, err := terminal.Describe("aws --output text s3api list-object-versions --buck=demo --prefix logs/", sh.Folder())
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := json.Marshal(c); string(data) != want {
		t.Fatalf("%s", data)
	}
	for _, c := range []struct{ line, want string }{
		{"aws s3api list-object-versions --prefix logs/ --bucket demo", `{"bucket":"demo","prefix":"logs/"}`},
		{"aws s3api put-object --bucket b --key k --no-bucket-key-enabled", `{"bucket":"b","bucket-key-enabled":false,"key":"k"}`},
		{"aws s3api get-object --bucket b --key k out.txt", `{"bucket":"b","key":"k","outfile":"out.txt"}`},
		{"aws s3 cp f.txt s3://b/ --recursive", `{"paths":["f.txt","s3://b/"],"recursive":true}`},
		{"aws s3 rm s3://b/k --exclude '*' --include '*.txt'", `{"filters":[["--exclude","*"],["--include","*.txt"]],"paths":["s3://b/k"]}`},
	} {
		got, err := terminal.Describe(c.line, sh.Folder())
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if data, _ := json.Marshal(got.AWS.Options); string(data) != c.want {
			t.Errorf("%s: %s, want %s", c.line, data, c.want)
		}
	}
	for _, line := range []string{"", "aws s3api nope", "aws s3api list-buckets --nope", "echo 'open", "aws s3 nope"} {
		if _, err := terminal.Describe(line, sh.Folder()); err == nil {
			t.Errorf("%q read", line)
		}
	}
	if c, err := terminal.Describe("minis3 clock +1d", sh.Folder()); err != nil || c.Name != "minis3" || len(c.Args) != 2 {
		t.Fatalf("minis3 clock: %+v %v", c, err)
	}
}
