//go:build !js

package page

import (
	"slices"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
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

// TestOneLifecycleAtATime reads the two lifecycle panels as a student
// meets them: their headings differ and say which lifecycle each is, their
// colours differ in the light and the dark theme, and no button of one has
// the name of a button of the other. With nothing stored the S3 editor's
// form, JSON and XML are empty, so that no rule runs at the next midnight
// unless the student stores one; Insert example puts AWS's example rule
// into each, and says why it cannot into a JSON or XML text that is not a
// configuration, leaving that text as it was. After a tick, the chapter's
// panel shows what the tick did before the preview of the next one.
func TestOneLifecycleAtATime(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "demo"), click("#create-bucket-form button[type=submit]"))
	act(t, p, click("#enable-btn"))
	act(t, p, typeInto("#obj-key", "logs/app.log"), typeInto("#obj-body", "a"), click("#put-btn"))

	type panel struct {
		Heading, Colour string
		Buttons         []string
	}
	read := func(id string) panel {
		return chrome.Eval[panel](t, p, `const el = document.getElementById(`+quote(id)+`); return {
			Heading: el.querySelector("h2").textContent, Colour: getComputedStyle(el).borderTopColor,
			Buttons: [...el.querySelectorAll("button")].map((b) => b.textContent.trim()) }`)
	}
	for _, theme := range []string{"light", "dark"} {
		if theme == "dark" {
			darkTheme(t, p)
		}
		chapter, s3 := read("lifecycle-panel"), read("s3-panel")
		if !strings.Contains(chapter.Heading, "chapter") || !strings.Contains(s3.Heading, "S3") || chapter.Heading == s3.Heading {
			t.Errorf("headings %q and %q: want the chapter's and S3's, told apart", chapter.Heading, s3.Heading)
		}
		if chapter.Colour == s3.Colour {
			t.Errorf("%s theme: both panels are marked %s", theme, chapter.Colour)
		}
		for _, b := range chapter.Buttons {
			if slices.Contains(s3.Buttons, b) {
				t.Errorf("both panels have a button %q (chapter: %q, S3: %q)", b, chapter.Buttons, s3.Buttons)
			}
		}
	}

	// The S3 editor starts empty, and days pass with nothing stored.
	storedLine(t, p, "Nothing stored on "+isolated("demo"))
	rows := func() int {
		return chrome.Eval[int](t, p, `return document.querySelectorAll("#s3-rules fieldset.s3-rule").length`)
	}
	if n := rows(); n != 0 || value(t, p, "#s3-json") != "" || value(t, p, "#s3-xml") != "" {
		t.Errorf("with nothing stored: %d rules in the form, JSON %q, XML %q; want all empty", n, value(t, p, "#s3-json"), value(t, p, "#s3-xml"))
	}
	act(t, p, click(`.day-btn[data-days="7"]`))
	wantStack(t, stacks(t, p), "logs/app.log", []entry{{VersionID: "v00000001", Kind: "data", Current: true}})

	do(t, p, click("#s3-example-btn"))
	if got := value(t, p, "#s3r-0-id"); rows() != 1 || got != "expire-logs" {
		t.Errorf("after Insert example: %d rules, the first %q; want AWS's example expire-logs", rows(), got)
	}
	do(t, p, click(`input[name="s3-mode"][value="json"]`))
	typeText(t, p, "#s3-json", `{"Rules": [`)
	do(t, p, click("#s3-example-btn"))
	wantContains(t, "Insert example into broken JSON", text(t, p, "#s3-example-error"), "not a configuration")
	if got := value(t, p, "#s3-json"); got != `{"Rules": [` {
		t.Errorf("the broken JSON became %q", got)
	}
	typeText(t, p, "#s3-json", "")
	do(t, p, click("#s3-example-btn"))
	if !chrome.Eval[bool](t, p, `return document.getElementById("s3-example-error").hidden`) {
		t.Errorf("after emptying the JSON, Insert example still says %q", text(t, p, "#s3-example-error"))
	}
	wantContains(t, "the JSON example", value(t, p, "#s3-json"), `"ID": "expire-logs"`, `"Prefix": "logs/"`)
	do(t, p, click(`input[name="s3-mode"][value="xml"]`))
	typeText(t, p, "#s3-xml", "<LifecycleConfiguration>")
	do(t, p, click("#s3-example-btn"))
	wantContains(t, "Insert example into XML without its end", text(t, p, "#s3-example-error"), "</LifecycleConfiguration>")
	typeText(t, p, "#s3-xml", "")
	do(t, p, click("#s3-example-btn"))
	wantContains(t, "the XML example", value(t, p, "#s3-xml"), "<ID>expire-logs</ID>", "</LifecycleConfiguration>")
	act(t, p, click("#s3-save-btn"))
	storedLine(t, p, "Stored on "+isolated("demo")+": 1 rule ("+isolated("expire-logs")+" Enabled)")

	// A chapter rule, a tick, then a preview: the tick's result first.
	do(t, p, click("#add-rule-btn"), typeInto("#rule-0-id", "logs"), typeInto("#rule-0-prefix", "logs/"), typeInto("#rule-0-current", "0"))
	act(t, p, click("#tick-btn"))
	act(t, p, click("#preview-btn"))
	got := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#lifecycle-out > section")].map((s) => s.className)`)
	if !slices.Equal(got, []string{"tick-out", "preview-out"}) {
		t.Errorf("the chapter's panel shows %v, want the last tick, then the preview", got)
	}
}

// TestFinishedDemoSummaryIsNoVerdict runs the chapter's worked example to
// its end: its summary says that the store did what each step expects, in
// the colour of the page's text, not in the green of an exercise solved.
func TestFinishedDemoSummaryIsNoVerdict(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	summary := runScenario(t, p, "worked-example")
	if !strings.Contains(summary, "the store did what each step expects") || strings.Contains(summary, "passed") {
		t.Errorf("summary %q: want what the store did, not a check passed", summary)
	}
	colours := chrome.Eval[[]string](t, p, `return [getComputedStyle(document.getElementById("scenario-summary")).color, getComputedStyle(document.body).color]`)
	if colours[0] != colours[1] {
		t.Errorf("the summary is in %s, want the page's text colour %s", colours[0], colours[1])
	}
}
