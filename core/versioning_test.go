package core

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestVersioningScripts runs every script in testdata/versioning. Each file
// pins one versioning rule of S3 (reference §1) and is named after it. A
// script is a list of operations, one per line:
//
//	at 5                           set the clock
//	create demo                    create a bucket
//	versioning demo enabled        enable or suspend versioning
//	put demo key body              PUT; "-> ID" expects the version ID
//	del demo key [versionId]       DELETE; "-> ID marker", "-> ID data" or "-> -"
//	get demo key [versionId]       GET; "-> body ID"
//	head demo key [versionId]      HEAD; "-> ID size"
//	stack demo key                 the version stack: "-> v00000002:data null:marker"
//	list demo                      ListObjectVersions: "-> key@ID:kind:latest ..."
//	objects demo                   ListObjectsV2 keys: "-> a b"
//
// A line may end in "-> expectation"; an error is expected as
// "-> error Code", followed by " marker=ID" when S3 reports that a delete
// marker was hit. A line without "->" must succeed.
func TestVersioningScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/versioning/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) { runScript(t, file) })
	}
}

func runScript(t *testing.T, file string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts := newTestStore(t)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		op, want, hasWant := strings.Cut(line, "->")
		got := runOp(ts, strings.Fields(op))
		want = strings.TrimSpace(want)
		if !hasWant {
			if strings.HasPrefix(got, "error ") || strings.HasPrefix(got, "bad script") {
				t.Fatalf("%s:%d: %s: %s", file, n, op, got)
			}
			continue
		}
		if got != want {
			t.Errorf("%s:%d: %s\n got: %s\nwant: %s", file, n, strings.TrimSpace(op), got, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func runOp(ts *testStore, f []string) string {
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	switch f[0] {
	case "at":
		v, err := strconv.ParseFloat(arg(1), 64)
		if err != nil {
			return "bad script: " + err.Error()
		}
		ts.at(v)
		return ""
	case "create":
		return errText(ts.CreateBucket(arg(1)))
	case "versioning":
		return errText(ts.SetBucketVersioning(arg(1), VersioningState(arg(2))))
	case "put":
		res, err := ts.PutObject(arg(1), arg(2), []byte(arg(3)), PutOptions{})
		if err != nil {
			return errText(err)
		}
		return res.VersionID
	case "del":
		res, err := ts.DeleteObject(arg(1), arg(2), DeleteOptions{VersionID: arg(3)})
		switch {
		case err != nil:
			return errText(err)
		case res.VersionID == "":
			return "-"
		case res.DeleteMarker:
			return res.VersionID + " marker"
		}
		return res.VersionID + " data"
	case "get":
		obj, err := ts.GetObject(arg(1), arg(2), GetOptions{VersionID: arg(3)})
		if err != nil {
			return errText(err)
		}
		return string(obj.Body) + " " + obj.Version.VersionID
	case "head":
		obj, err := ts.HeadObject(arg(1), arg(2), GetOptions{VersionID: arg(3)})
		if err != nil {
			return errText(err)
		}
		return fmt.Sprintf("%s %d", obj.Version.VersionID, obj.Version.Size)
	case "stack":
		s := ts.stack(arg(1), arg(2))
		if s == "" {
			return "(none)"
		}
		return s
	case "list":
		res, err := ts.ListObjectVersions(arg(1), ListVersionsOptions{})
		if err != nil {
			return errText(err)
		}
		var out []string
		for _, v := range res.Versions {
			kind := "data"
			if v.IsDeleteMarker {
				kind = "marker"
			}
			e := v.Key + "@" + v.VersionID + ":" + kind
			if v.IsLatest {
				e += ":latest"
			}
			out = append(out, e)
		}
		return strings.Join(out, " ")
	case "objects":
		res, err := ts.ListObjectsV2(arg(1), ListObjectsOptions{})
		if err != nil {
			return errText(err)
		}
		var out []string
		for _, o := range res.Objects {
			out = append(out, o.Key)
		}
		return strings.Join(out, " ")
	}
	return "bad script: unknown operation " + f[0]
}

// errText renders an error as a script expects it: "", or "error Code",
// plus " marker=ID" when a delete marker was hit.
func errText(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if !errors.As(err, &e) {
		return "error (not a core.Error) " + err.Error()
	}
	s := "error " + string(e.Code)
	if e.DeleteMarker {
		s += " marker=" + e.VersionID
	}
	return s
}
