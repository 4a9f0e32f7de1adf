//go:build !js

package page

import (
	"strings"
	"testing"
)

// The forms of a check's detail that speak code, not the chapter.
var codeWords = []string{"op=", "kind=", "got [", "got []", "expire_current", "expire_noncurrent", "want "}

// TestFailedCheckSaysWhatIsWrongInTheStudentsWords evaluates each kind of
// check over a student's wrong work (exercise.js): what a failed check says
// names what the student did or has, in the chapter's words (a tick at an
// instant, a version that should or should not be there), never the value
// the check asks for and never the code's own words.
func TestFailedCheckSaysWhatIsWrongInTheStudentsWords(t *testing.T) {
	t.Parallel()
	p := modulePage(t)
	const solution = `"solution": { "text": "s" }`
	const withAnswer = `"answer": { "label": "t =" }, "solution": { "text": "s", "answer": "15" }`
	tick := func(at, actions string) string {
		return `[{ "op": "tick", "bucket": "demo" }, { "ok": true, "actions": ` + actions + ` }, ` + at + `]`
	}
	const v1Noncurrent = `[{ "kind": "expire_noncurrent", "key": "logs/app.log", "versionId": "v00000001", "ruleId": "logs" }]`
	tests := []struct {
		name, task, facts string
		// says: what the detail and its lines say, in order; secret: what
		// they must not say.
		says   []string
		secret string
	}{
		{"an answer off by a little", `{ "prompt": "p", "checks": [{ "label": "l", "answer": 15 }], ` + withAnswer + ` }`,
			`{ "answer": "14.999" }`, []string{"you wrote 14.999"}, "15"},
		{"no tick yet", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick", "at": 15 } }], ` + solution + ` }`,
			`{}`, []string{"you have not ticked yet"}, "15"},
		{"a tick at another instant", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick", "at": 15 } }], ` + solution + ` }`,
			`{ "taken": [` + tick("14", `[]`) + `] }`, []string{"not yet: you ticked at 14"}, "15"},
		{"a tick that took the wrong version", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "expect": { "include": [{ "kind": "expire_current", "versionId": "v00000002" }] } }], ` + solution + ` }`,
			`{ "taken": [` + tick("12", v1Noncurrent) + `] }`, []string{"you ticked at 12, and it took", "logs/app.log", "v00000001", "(expire noncurrent)"}, "v00000002"},
		{"a tick where none was asked", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "count": 0 }], ` + solution + ` }`,
			`{ "taken": [` + tick("13", v1Noncurrent) + `] }`, []string{"you ticked at 13"}, ""},
		{"a GET that failed", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "get", "key": "keep/item", "ok": true } }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "get", "bucket": "demo", "key": "keep/item" }, { "ok": false, "code": "NoSuchKey" }, 15]] }`,
			[]string{"not yet: you sent GET", "keep/item", "at 15, which failed with NoSuchKey"}, ""},
		{"another choice", `{ "prompt": "p", "answer": { "label": "why?", "choices": ["a", "b"] }, "checks": [{ "label": "l", "choice": 2 }], "solution": { "text": "s", "answer": "2" } }`,
			`{ "answer": "1" }`, []string{"you chose answer 1"}, "answer 2"},
		{"two rules for one", `{ "prompt": "p", "checks": [{ "label": "l", "rules": [{}] }], ` + solution + ` }`,
			`{ "rules": [{ "id": "a", "prefix": "", "expireCurrentAfter": 1 }, { "id": "b", "prefix": "", "expireCurrentAfter": 2 }] }`, []string{"your rule editor holds 2 rules"}, ""},
		{"a rule's prefix", `{ "prompt": "p", "checks": [{ "label": "l", "rules": [{ "prefix": "logs/" }] }], ` + solution + ` }`,
			`{ "rules": [{ "id": "r", "prefix": "", "expireNoncurrentAfter": 0 }] }`, []string{"your rule 1", "r", "its prefix is not what is asked"}, "logs/"},
		{"a version expired too soon", `{ "prompt": "p", "checks": [{ "label": "l", "versions": [{ "key": "logs/app.log", "versionId": "v00000002", "isDeleteMarker": false, "isLatest": true }] }], ` + solution + ` }`,
			`{ "versions": [{ "key": "logs/app.log", "versionId": "v00000003", "isDeleteMarker": true, "isLatest": true }, { "key": "logs/app.log", "versionId": "v00000002", "isDeleteMarker": false, "isLatest": false }] }`,
			[]string{"not yet as asked:", "logs/app.log", "v00000002", "should be current, on top", "logs/app.log", "delete marker", "v00000003", "(current, on top) should not be there"}, ""},
		{"a version removed", `{ "prompt": "p", "checks": [{ "label": "l", "versions": [{ "key": "logs/app.log", "versionId": "v00000002", "isLatest": true }, { "key": "logs/app.log", "versionId": "v00000001", "isDeleteMarker": false, "isLatest": false }] }], ` + solution + ` }`,
			`{ "versions": [{ "key": "logs/app.log", "versionId": "v00000002", "isDeleteMarker": false, "isLatest": true }] }`,
			[]string{"logs/app.log", "data version", "v00000001", "(noncurrent) should be there"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := evaluate(t, p, tt.task, tt.facts)
			if got.Error != "" {
				t.Fatalf("checkTask: %s", got.Error)
			}
			if len(got.Checks) != 1 || got.Checks[0].Pass {
				t.Fatalf("got %+v, want one failed check", got)
			}
			said := got.Checks[0].Detail + "\n" + strings.Join(got.Checks[0].Lines, "\n")
			at := 0
			for _, want := range tt.says {
				i := strings.Index(said[at:], want)
				if i < 0 {
					t.Fatalf("the check says %q: want %q (in order %q)", said, want, tt.says)
				}
				at += i + len(want)
			}
			if tt.secret != "" && strings.Contains(said, tt.secret) {
				t.Errorf("the check says %q: it gives away %q", said, tt.secret)
			}
			for _, w := range codeWords {
				if strings.Contains(said, w) {
					t.Errorf("the check says %q: it speaks code (%q)", said, w)
				}
			}
		})
	}
}
