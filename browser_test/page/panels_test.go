//go:build !js

package page

import (
	"strings"
	"testing"
)

// TestStepOutcomeShowsWhereItWasTaken takes a step in the bucket panel,
// one with a version's own button under the stacks and one with the
// Objects form: each outcome shows in the panel the step was taken in, and
// only there, so the reader sees it where they acted.
func TestStepOutcomeShowsWhereItWasTaken(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	results := func() map[string]string {
		out := map[string]string{}
		for _, id := range []string{"bucket-result", "stacks-result", "result", "clock-result", "lifecycle-result"} {
			out[id] = text(t, p, "#"+id)
		}
		return out
	}
	only := func(when, id, want string) {
		t.Helper()
		for other, got := range results() {
			if other == id && !strings.Contains(got, want) {
				t.Errorf("%s: #%s shows %q, want %q", when, id, got, want)
			}
			if other != id && got != "" {
				t.Errorf("%s: #%s shows %q, want nothing there", when, other, got)
			}
		}
	}

	act(t, p, typeInto("#new-bucket", "Bad_Name"), click("#create-bucket-form button[type=submit]"))
	only("a bucket refused", "bucket-result", "InvalidBucketName")

	act(t, p, typeInto("#new-bucket", "demo"), click("#create-bucket-form button[type=submit]"))
	act(t, p, click("#enable-btn"))
	act(t, p, typeInto("#obj-key", "k"), typeInto("#obj-body", "one"), click("#put-btn"))
	only("a PUT from the Objects form", "result", "v00000001")

	act(t, p, click(`#stacks button[data-act="get"][data-version-id="v00000001"]`))
	only("a version's own GET", "stacks-result", "one")
}
