//go:build !js

package page

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
)

// The page's side of S3's lifecycle: the stored configuration edited as a
// form, as JSON and as XML, the clock's days and dates, the daily runs, tags
// and storage classes on versions, and the chapter's rules and S3's side
// by side on the same versions.

// press focuses sel and presses key there, as a keyboard user does.
func press(sel, key string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.Focus(sel), chromedp.KeyEvent(key))
}

// dateOf is the Unix time t as the page writes a date.
func dateOf(t int64) string {
	return time.Unix(t, 0).UTC().Format("2006-01-02 15:04:05") + " UTC"
}

// pageOrigin is the Unix time of the page's clock 0, read from what the
// clock panel shows: the date beside now.
func pageOrigin(t *testing.T, p *chrome.Page) int64 {
	t.Helper()
	date, err := time.Parse("2006-01-02 15:04:05 UTC", text(t, p, "#clock-date"))
	if err != nil {
		t.Fatalf("the clock's date: %v", err)
	}
	now, err := strconv.ParseFloat(text(t, p, "#clock-now"), 64)
	if err != nil {
		t.Fatalf("the clock's reading: %v", err)
	}
	return date.Unix() - int64(now)
}

// cmpRow is one version of the side-by-side view as the page shows it.
type cmpRow struct {
	What, Chapter, S3 string
	Notes             []string
}

// compared reads the side-by-side view's rows of key, by version or upload
// ID.
func compared(t *testing.T, p *chrome.Page, key string) map[string]cmpRow {
	t.Helper()
	return chrome.Eval[map[string]cmpRow](t, p, `const out = {};
		for (const li of document.querySelectorAll("#compare li.cmp-row")) {
			if (li.dataset.key !== `+quote(key)+`) continue;
			const dd = [...li.querySelectorAll("dl > dd")];
			out[li.dataset.id] = { What: li.querySelector(".cmp-what").textContent, Chapter: dd[0].textContent, S3: dd[1].textContent,
				Notes: [...li.querySelectorAll(".cmp-notes li")].map((n) => n.textContent) };
		}
		return out;`)
}

func wantContains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s %q lacks %q", what, got, w)
		}
	}
}

func wantNote(t *testing.T, version string, notes []string, want string) {
	t.Helper()
	for _, n := range notes {
		if strings.Contains(n, want) {
			return
		}
	}
	t.Errorf("%s: no note says %q; notes %q", version, want, notes)
}

// TestSideBySideSaysWhyTheyDiffer steps through the chapter-vs-s3 scenario
// with the keyboard, up to the point where both lifecycles are set on the
// worked example's two versions, and reads the side-by-side view: when each
// version is due under the chapter's rules (t in seconds) and under S3's
// (a date at midnight UTC), and the notes that explain the difference. The
// chapter's own views (stacks, rule editor, time axis) still speak in
// seconds.
func TestSideBySideSaysWhyTheyDiffer(t *testing.T) {
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	do(t, p, chromedp.SetValue("#scenario-select", "chapter-vs-s3"), press("#scenario-load-btn", kb.Enter))
	p.WaitFor(t, `document.getElementById("scenario-summary").textContent.includes(" 0 of ") && !document.body.classList.contains("busy")`)
	// Through the schedule step: both lifecycles are set, the clock at 37800.
	for i := 1; i <= 9; i++ {
		act(t, p, press("#scenario-step-btn", kb.Enter))
	}
	if got := text(t, p, "#scenario-summary"); !strings.Contains(got, "9 of 16 steps run") || strings.Contains(got, "failed") {
		t.Fatalf("scenario summary %q", got)
	}
	origin := pageOrigin(t, p)
	if origin%86400 != 0 {
		t.Fatalf("the playground's clock 0 is %s, not a midnight UTC: the scenario's days assume one", dateOf(origin))
	}
	wantContains(t, "clock", text(t, p, "#clock-panel"), "now = 37800 s", dateOf(origin+37800))

	do(t, p, chromedp.ScrollIntoView("#compare-panel"))
	p.WaitFor(t, `document.querySelectorAll("#compare li.cmp-row").length === 2`)
	rows := compared(t, p, "logs/app.log")
	cur, old := rows["v00000002"], rows["v00000001"]
	wantContains(t, "v00000002", cur.What, "current data, created t = 37800 s", dateOf(origin+37800))
	wantContains(t, "v00000002 under the chapter", cur.Chapter, "expire current at t = 124200 s", "rule \u2068logs\u2069")
	wantContains(t, "v00000002 under S3", cur.S3, "expire current at "+dateOf(origin+172800)+" (t = 172800 s)")
	wantNote(t, "v00000002", cur.Notes, "Midnight rounding: S3 counts whole days: "+dateOf(origin+37800)+" + 1 d = "+dateOf(origin+124200)+", and acts at the next midnight UTC after that, "+dateOf(origin+172800))
	wantContains(t, "v00000001 under the chapter", old.Chapter, "expire noncurrent at t = 86400 s")
	wantContains(t, "v00000001 under S3", old.S3, "expire noncurrent at "+dateOf(origin+172800)+" (t = 172800 s)")
	wantNote(t, "v00000001", old.Notes, "Noncurrent age: the chapter counts from this version's own creation (t = 0 s); S3 counts from when v00000002 replaced it (t = 37800 s")
	wantNote(t, "v00000001", old.Notes, "Midnight rounding")

	// The chapter's views are as they were: seconds, ages, thresholds.
	for _, e := range stacks(t, p)["logs/app.log"] {
		want := map[string]string{"v00000002": "created 37800 · age 0", "v00000001": "created 0 · age 37800"}[e.VersionID]
		wantContains(t, "entry "+e.VersionID, e.Text, want)
	}
	if got := chrome.Eval[string](t, p, `return document.getElementById("rule-0-noncurrent").value`); got != "86400" {
		t.Errorf("the chapter's rule editor holds %q, want 86400", got)
	}
	do(t, p, chromedp.ScrollIntoView("#timeline-panel"))
	p.WaitFor(t, `document.querySelectorAll("#timeline .tl-group .tl-row").length === 2`)
	wantContains(t, "time axis", text(t, p, "#timeline"), "≥ 124200", "≥ 86400", "now 37800")
	shot(t, p, "side-by-side")

	// At t = 86400 the chapter's preview takes the old version; S3's does not.
	for range 3 {
		act(t, p, press("#scenario-step-btn", kb.Enter))
	}
	wantStack(t, stacks(t, p), "logs/app.log", []entry{
		{VersionID: "v00000002", Kind: "data", Current: true},
		{VersionID: "v00000001", Kind: "data"},
	})
	wantContains(t, "S3 panel", text(t, p, "#s3-out"), "Preview of a run at "+dateOf(origin+86400), "No actions: nothing is due.")
	old = compared(t, p, "logs/app.log")["v00000001"]
	wantContains(t, "v00000001 under the chapter at 86400", old.Chapter, "due now: the next tick takes it")
	if strings.Contains(old.S3, "due now") {
		t.Errorf("v00000001 under S3 at 86400 %q: want it not yet due", old.S3)
	}

	// The rest of the scenario: the daily run at the second midnight.
	act(t, p, press("#scenario-run-btn", kb.Enter))
	p.WaitFor(t, `document.getElementById("scenario-summary").textContent.includes("16 of 16 steps run") && !document.body.classList.contains("busy")`)
	if got := text(t, p, "#scenario-summary"); !strings.Contains(got, "all 11 checks passed") {
		t.Errorf("scenario summary %q", got)
	}
	wantContains(t, "S3 panel", text(t, p, "#s3-out"), "Daily runs as the clock moved to "+dateOf(origin+172800), "expire current", "New delete markers", "v00000003")
	wantContains(t, "history", text(t, p, "#history"), "daily run at "+dateOf(origin+172800)+" on \u2068demo\u2069: expire_current")
	noCSPViolations(t, p)
}

// storedLine waits until the S3 panel's line about what is stored contains
// want, and returns it.
func storedLine(t *testing.T, p *chrome.Page, want string) string {
	t.Helper()
	p.WaitFor(t, `document.getElementById("s3-stored").textContent.includes(`+quote(want)+`) && !document.body.classList.contains("busy")`)
	return text(t, p, "#s3-stored")
}

// openGroup is the summary of the part name of the form's rule row: Enter
// or a click there opens it.
func openGroup(row int, name string) string {
	return fmt.Sprintf(`#s3-rules fieldset[data-row="%d"] details[data-group="%s"] > summary`, row, name)
}

func value(t *testing.T, p *chrome.Page, sel string) string {
	t.Helper()
	return chrome.Eval[string](t, p, `return document.querySelector(`+quote(sel)+`).value`)
}

func activeID(t *testing.T, p *chrome.Page) string {
	t.Helper()
	return chrome.Eval[string](t, p, `return document.activeElement?.id ?? ""`)
}

// TestS3ConfigurationEditors edits a bucket's S3 lifecycle configuration
// with the keyboard as a form, as JSON and as XML: each save stores it
// (the S3 panel and the XML behind it say what), each view then shows the
// stored configuration, S3's refusals show their code and message as text
// and store nothing, and a form field that must be a number says so before
// anything is sent.
func TestS3ConfigurationEditors(t *testing.T) {
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, chromedp.Focus("#new-bucket"), typeInto("#new-bucket", "cfg"), chromedp.KeyEvent(kb.Enter))
	storedLine(t, p, "Nothing stored on "+isolated("cfg"))
	if got := value(t, p, "#s3r-0-id"); got != "expire-logs" {
		t.Fatalf("with nothing stored the form holds rule %q, want the example expire-logs", got)
	}

	// The form: a second rule, filled in with the keyboard.
	do(t, p, press("#s3-add-rule-btn", kb.Enter))
	if got := activeID(t, p); got != "s3r-1-prefix" {
		t.Errorf("after Add rule, focus is on %q, want the new rule's prefix", got)
	}
	// A new rule shows its filter; the other parts open on Enter.
	if got := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll('#s3-rules fieldset[data-row="1"] details[open]')].map((d) => d.dataset.group)`); strings.Join(got, ",") != "filter" {
		t.Errorf("a new rule shows the parts %q, want the filter only", got)
	}
	do(t, p, typeInto("#s3r-1-prefix", "tmp/"), press(openGroup(1, "expiration"), kb.Enter), typeInto("#s3r-1-days", "2"))
	typeText(t, p, "#s3r-1-tags", "team=web\nstage=test")
	do(t, p, typeInto("#s3r-1-greaterThan", "ten"))
	p.WaitFor(t, `!document.getElementById("s3r-1-greaterThan-error").hidden`)
	wantContains(t, "size error", text(t, p, "#s3r-1-greaterThan-error"), "must be a whole number")
	n := historyLen(t, p)
	do(t, p, press("#s3-save-btn", kb.Enter))
	if got := historyLen(t, p); got != n || activeID(t, p) != "s3r-1-greaterThan" {
		t.Errorf("saving a form with a bad size: %d history entries (want %d), focus on %q (want the size)", got, n, activeID(t, p))
	}
	do(t, p, typeInto("#s3r-1-greaterThan", "10"))
	do(t, p, press(openGroup(0, "noncurrentTransitions"), kb.Enter),
		press(`#s3-rules button[data-s3-act="add-transition"][data-kind="nt"][data-row="0"]`, kb.Enter))
	if got := activeID(t, p); got != "s3r-0-nt0-days" {
		t.Errorf("after Add noncurrent transition, focus is on %q", got)
	}
	do(t, p, typeInto("#s3r-0-nt0-days", "0")) // before the rule's NoncurrentDays 1, as S3 requires
	act(t, p, press("#s3-save-btn", kb.Enter))
	storedLine(t, p, "Stored on "+isolated("cfg")+": 2 rules ("+isolated("expire-logs")+" Enabled, "+isolated("rule-2")+" Enabled)")
	wantContains(t, "the XML behind the save", text(t, p, "#http"), "GET /cfg?lifecycle", "<And>", "<Key>team</Key>", "<ObjectSizeGreaterThan>10</ObjectSizeGreaterThan>",
		"<NoncurrentVersionTransition>", "<StorageClass>GLACIER</StorageClass>")

	// JSON: the stored configuration, and S3's answer to a misspelt member.
	do(t, p, press(`input[name="s3-mode"][value="form"]`, kb.ArrowRight))
	p.WaitFor(t, `!document.getElementById("s3-json-view").hidden && document.getElementById("s3-form-view").hidden`)
	wantContains(t, "JSON view", value(t, p, "#s3-json"), `"ID": "rule-2"`, `"ObjectSizeGreaterThan": 10`, `"Key": "team"`)
	typeText(t, p, "#s3-json", `{"Rules": [{"ID": "r", "Status": "Enabled", "Filtre": {}, "Expiration": {"Days": 1}}]}`)
	act(t, p, press("#s3-save-btn", kb.Enter))
	p.WaitFor(t, `document.querySelector("#s3-error .error-box") !== null`)
	wantContains(t, "S3 error", text(t, p, "#s3-error"), "InvalidArgument", "Filtre")
	storedLine(t, p, "2 rules")

	// XML: S3's body, its MalformedXML, then a configuration with
	// transitions and an upload abort.
	do(t, p, press(`input[name="s3-mode"][value="json"]`, kb.ArrowRight))
	p.WaitFor(t, `!document.getElementById("s3-xml-view").hidden`)
	wantContains(t, "XML view", value(t, p, "#s3-xml"), "<ID>rule-2</ID>", "<Prefix>tmp/</Prefix>")
	typeText(t, p, "#s3-xml", `<LifecycleConfiguration><Rule><ID>r</ID><Status>enabled</Status><Filter/><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>`)
	act(t, p, press("#s3-save-btn", kb.Enter))
	p.WaitFor(t, `document.getElementById("s3-error").textContent.includes("MalformedXML")`)
	if n := chrome.Eval[int](t, p, `return document.querySelectorAll("#s3-error *").length - document.querySelectorAll("#s3-error .error-box, #s3-error strong, #s3-error p").length`); n != 0 {
		t.Errorf("the error box holds %d elements besides its own", n)
	}
	typeText(t, p, "#s3-xml", `<LifecycleConfiguration><Rule><ID>archive</ID><Status>Enabled</Status><Filter><Prefix>logs/</Prefix></Filter>`+
		`<Transition><Days>30</Days><StorageClass>STANDARD_IA</StorageClass></Transition>`+
		`<NoncurrentVersionExpiration><NoncurrentDays>5</NoncurrentDays><NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>`+
		`<AbortIncompleteMultipartUpload><DaysAfterInitiation>7</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule></LifecycleConfiguration>`)
	act(t, p, press("#s3-save-btn", kb.Enter))
	storedLine(t, p, "Stored on "+isolated("cfg")+": 1 rule ("+isolated("archive")+" Enabled)")
	if got := text(t, p, "#s3-error"); got != "" {
		t.Errorf("after a save that worked the S3 panel still shows %q", got)
	}

	// Back to the form: the XML's rule, field by field.
	do(t, p, press(`input[name="s3-mode"][value="xml"]`, kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft))
	p.WaitFor(t, `!document.getElementById("s3-form-view").hidden`)
	for sel, want := range map[string]string{"#s3r-0-id": "archive", "#s3r-0-prefix": "logs/", "#s3r-0-t0-days": "30", "#s3r-0-t0-class": "STANDARD_IA",
		"#s3r-0-noncurrentDays": "5", "#s3r-0-newer": "2", "#s3r-0-abortDays": "7", "#s3r-0-days": ""} {
		if got := value(t, p, sel); got != want {
			t.Errorf("form field %s holds %q, want %q", sel, got, want)
		}
	}
	// Revert takes back what was typed and not saved.
	do(t, p, typeInto("#s3r-0-prefix", "other/"))
	logged := historyLen(t, p)
	do(t, p, press("#s3-revert-btn", kb.Enter))
	p.WaitFor(t, `document.getElementById("s3r-0-prefix").value === "logs/" && !document.body.classList.contains("busy")`)
	if historyLen(t, p) != logged {
		t.Error("Revert logged an operation; it only reads")
	}
	shot(t, p, "s3-editor")

	act(t, p, press("#s3-delete-btn", kb.Enter))
	storedLine(t, p, "Nothing stored on "+isolated("cfg"))
	if !chrome.Eval[bool](t, p, `return document.getElementById("s3-delete-btn").disabled`) {
		t.Error("with nothing stored, Delete configuration must be disabled")
	}
	noCSPViolations(t, p)
}

// TestClockDaysAndDailyRuns moves the clock by days, to the next midnight
// and to a date, and checks the date shown beside the seconds, the daily
// S3 lifecycle runs the moves passed (in the history and the S3 panel, with
// what they changed), and a run of the stored configuration now with its
// preview marked on the stacks.
func TestClockDaysAndDailyRuns(t *testing.T) {
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "days"), click("#create-bucket-form button[type=submit]"))
	origin := pageOrigin(t, p)
	if got := text(t, p, "#clock-date"); got != dateOf(origin) {
		t.Fatalf("at now = 0 the clock shows the date %q, want %q", got, dateOf(origin))
	}
	act(t, p, typeInto("#obj-key", "logs/a"), typeInto("#obj-body", "a"), click("#put-btn"))
	do(t, p, click(`input[name="s3-mode"][value="json"]`))
	typeText(t, p, "#s3-json", `{"Rules": [{"ID": "one-day", "Status": "Enabled", "Filter": {"Prefix": "logs/"}, "Expiration": {"Days": 1}}]}`)
	act(t, p, click("#s3-save-btn"))
	storedLine(t, p, "1 rule ("+isolated("one-day")+" Enabled)")

	act(t, p, press(`.day-btn[data-days="1"]`, kb.Enter))
	wantContains(t, "clock", text(t, p, "#clock-panel"), "now = 86400 s", dateOf(origin+86400))
	if got := newestHistory(t, p); got != "Advance the clock 1 day" {
		t.Errorf("newest history entry %q", got)
	}
	wantContains(t, "history", text(t, p, "#history > li:first-child"), "now = 86400 ("+dateOf(origin+86400)+")")
	if strings.Contains(text(t, p, "#history > li:first-child"), "daily run") {
		t.Error("the first midnight has nothing due, but the history shows a daily run")
	}

	act(t, p, press("#midnight-btn", kb.Enter))
	if got := text(t, p, "#clock-now"); got != "172800" {
		t.Fatalf("after Next midnight the clock shows %s, want 172800", got)
	}
	wantContains(t, "history", text(t, p, "#history > li:first-child"), "daily run at "+dateOf(origin+172800)+" on \u2068days\u2069: expire_current \u2068logs/a\u2069 \u2068null\u2069 (rule \u2068one-day\u2069)")
	wantContains(t, "S3 panel", text(t, p, "#s3-out"), "Daily runs as the clock moved to "+dateOf(origin+172800), "expire current", "What changed in days", "Removed null versions")
	if n := len(stacks(t, p)); n != 0 {
		t.Errorf("after the daily run %d stacks are left, want none", n)
	}

	// Set to a date: 10:30 on the third day.
	at := time.Unix(origin+3*86400+37800, 0).UTC().Format(time.RFC3339)
	act(t, p, chromedp.Focus("#clock-input"), typeInto("#clock-input", at), chromedp.KeyEvent(kb.Enter))
	if got := text(t, p, "#clock-now"); got != "297000" {
		t.Errorf("after setting the clock to %s it shows %s, want 297000", at, got)
	}

	// Run now, with its preview: an Expiration Date in the past covers a
	// new object at once.
	act(t, p, typeInto("#obj-key", "logs/b"), typeInto("#obj-body", "b"), click("#put-btn"))
	typeText(t, p, "#s3-json", `{"Rules": [{"ID": "cutoff", "Status": "Enabled", "Filter": {"Prefix": "logs/"}, "Expiration": {"Date": "`+time.Unix(origin, 0).UTC().Format(time.RFC3339)+`"}}]}`)
	act(t, p, click("#s3-save-btn"))
	storedLine(t, p, "1 rule ("+isolated("cutoff")+" Enabled)")
	act(t, p, press("#s3-preview-btn", kb.Enter))
	wantStack(t, stacks(t, p), "logs/b", []entry{{VersionID: "null", Kind: "data", Current: true, Expiring: "next S3 run: expire current (rule \u2068cutoff\u2069)"}})
	wantContains(t, "S3 panel", text(t, p, "#s3-out"), "Preview of a run at "+dateOf(origin+297000)+" (t = 297000 s) (nothing changed)")
	act(t, p, press("#s3-run-btn", kb.Enter))
	wantContains(t, "S3 panel", text(t, p, "#s3-out"), "Run now at "+dateOf(origin+297000), "expire current", "logs/b")
	if n := len(stacks(t, p)); n != 0 {
		t.Errorf("after the run %d stacks are left, want none", n)
	}

	act(t, p, press(`.day-btn[data-days="7"]`, kb.Enter))
	act(t, p, press(`.day-btn[data-days="30"]`, kb.Enter))
	if got, want := text(t, p, "#clock-now"), strconv.Itoa(297000+37*86400); got != want {
		t.Errorf("after +7 and +30 days the clock shows %s, want %s", got, want)
	}
	noCSPViolations(t, p)

	// A share link replays it all, the configurations and the date-set
	// clock included, in a fresh store.
	read := func(p *chrome.Page) string {
		return chrome.Eval[string](t, p, `return [document.getElementById("clock-now").textContent, document.getElementById("s3-stored").textContent,
			document.querySelectorAll("#history > li").length, document.querySelectorAll("#stacks li.entry").length].join(" | ")`)
	}
	before := read(p)
	do(t, p, click("#share-btn"))
	p.WaitFor(t, `document.getElementById("share-dialog").open`)
	link := chrome.Eval[string](t, p, `return document.getElementById("share-url").value`)
	q := open(t, link, 1280, 800)
	waitReady(t, q)
	q.WaitFor(t, `document.getElementById("status").textContent.startsWith("Restored")`)
	if after := read(q); after != before {
		t.Errorf("the share link restored %q, want %q", after, before)
	}
}

// TestTagsAndStorageClassesOnVersions sets tags and a storage class with
// the PUT form (keyboard only for the class), replaces and reads tags, and
// checks that each version shows its class and tags; a GLACIER version
// cannot be read, and an upload left in progress is listed.
func TestTagsAndStorageClassesOnVersions(t *testing.T) {
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "tagged"), click("#create-bucket-form button[type=submit]"))
	act(t, p, click("#enable-btn"))
	do(t, p, typeInto("#obj-key", "docs/a.txt"), typeInto("#obj-body", "hello"))
	typeText(t, p, "#obj-tags", "team=web\nstage=test")
	do(t, p, chromedp.Focus("#obj-class"), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	if got := value(t, p, "#obj-class"); got != "STANDARD_IA" {
		t.Fatalf("two arrows down the storage class is %q, want STANDARD_IA", got)
	}
	act(t, p, click("#put-btn"))
	entryText := func(versionID string) string {
		for _, e := range stacks(t, p)["docs/a.txt"] {
			if e.VersionID == versionID {
				return e.Text
			}
		}
		return ""
	}
	wantContains(t, "v00000001", entryText("v00000001"), "STANDARD_IA", "tags team=web, stage=test")
	wantContains(t, "the PUT request", text(t, p, "#http"), "x-amz-tagging: team=web&stage=test", "x-amz-storage-class: STANDARD_IA")

	typeText(t, p, "#obj-tags", "team=data")
	act(t, p, press("#tags-put-btn", kb.Enter))
	wantContains(t, "v00000001", entryText("v00000001"), "tags team=data")
	if strings.Contains(entryText("v00000001"), "stage=test") {
		t.Error("PUT tags must replace the tags, not add to them")
	}
	act(t, p, press("#tags-get-btn", kb.Enter))
	wantContains(t, "GET tags result", text(t, p, "#result"), "team=data")

	// A line that is not key=value is explained, and nothing is sent.
	typeText(t, p, "#obj-tags", "oops")
	n := historyLen(t, p)
	do(t, p, click("#put-btn"))
	p.WaitFor(t, `!document.getElementById("obj-tags-error").hidden`)
	wantContains(t, "tags error", text(t, p, "#obj-tags-error"), `"oops" is not key=value`)
	if historyLen(t, p) != n {
		t.Error("a PUT with a bad tags line was sent")
	}

	typeText(t, p, "#obj-tags", "")
	do(t, p, chromedp.SetValue("#obj-class", "GLACIER"), typeInto("#obj-key", "docs/cold.txt"), typeInto("#obj-body", "brr"))
	act(t, p, click("#put-btn"))
	act(t, p, click("#get-btn"))
	wantContains(t, "GET of a GLACIER version", text(t, p, "#result"), "InvalidObjectState", "restore")
	for _, e := range stacks(t, p)["docs/cold.txt"] {
		wantContains(t, "docs/cold.txt", e.Text, "GLACIER")
	}

	act(t, p, typeInto("#mp-key", "big/file"), press("#mp-start-btn", kb.Enter))
	wantContains(t, "uploads", text(t, p, "#uploads"), "Multipart uploads in progress", "big/file", "upload")
	shot(t, p, "tags-and-classes")
	noCSPViolations(t, p)
}

// viewportShot writes what the window shows (not the whole page) to
// out/name.png.
func viewportShot(t *testing.T, p *chrome.Page, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	res, err := chromedp.Call(ctx, cdppage.CaptureScreenshot, cdppage.CaptureScreenshotParams{Format: cdppage.CaptureScreenshotFormatPng})
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.MkdirAll("out", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("out", name+".png"), res.Data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestS3Screenshots takes screenshots of the new parts at 800×600 (the
// embed a course page shows) and 1280×800, in the light and dark themes,
// after a scenario where the two lifecycles differ, and checks that
// nothing is wider than the window.
func TestS3Screenshots(t *testing.T) {
	base := site(t)
	for _, c := range []struct {
		name string
		url  string
		w, h int64
	}{
		{"embed-800", "/?embed=1&scenario=chapter-vs-s3&hide=http", 800, 600},
		{"page-1280", "/?scenario=chapter-vs-s3", 1280, 800},
	} {
		for _, theme := range []string{"light", "dark"} {
			name := fmt.Sprintf("s3-%s-%s", c.name, theme)
			t.Run(name, func(t *testing.T) {
				p := chrome.Launch(t).Open(t, "about:blank")
				do(t, p, chromedp.EmulateViewport(c.w, c.h))
				ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
				defer cancel()
				if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
				}); err != nil {
					t.Fatal(err)
				}
				p.Navigate(t, base+c.url)
				if strings.Contains(c.url, "embed=1") {
					p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
					do(t, p, press("#load-btn", kb.Enter))
				}
				waitReady(t, p)
				p.WaitFor(t, `document.getElementById("scenario-summary").textContent.includes(" 0 of ") && !document.getElementById("scenario-run-btn").disabled`)
				// Up to the point where both lifecycles are set.
				for range 9 {
					act(t, p, press("#scenario-step-btn", kb.Enter))
				}
				if w := chrome.Eval[[]int](t, p, `return [document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
					t.Errorf("the page is %d px wide in a %d px window", w[0], w[1])
				}
				chrome.Eval[bool](t, p, `scrollTo(0, 0); return true`)
				viewportShot(t, p, name+"-top")
				for _, panel := range []string{"compare-panel", "s3-panel"} {
					do(t, p, chromedp.ScrollIntoView("#"+panel))
					p.WaitFor(t, `document.querySelector("#compare li.cmp-row") !== null`)
					viewportShot(t, p, name+"-"+strings.TrimSuffix(panel, "-panel"))
				}
				// The whole page in one window, so that every part of it is drawn.
				fullHeight(t, p, c.w)
				shot(t, p, name+"-full")
			})
		}
	}
}

// TestHostileStringsInS3PartsAreText puts each hostile string where the S3
// parts of the page show data: an object key and tag (S3 refuses most of
// these tags, and says so), an S3 rule's ID and prefix typed into the
// form (stored, or refused by S3 when too long), the side-by-side view and
// a preview of a run. Each is shown as text, and nothing runs.
func TestHostileStringsInS3PartsAreText(t *testing.T) {
	p := openWatched(t, site(t)+"/", 1280, 900)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "hostile"), click("#create-bucket-form button[type=submit]"))
	do(t, p, chromedp.ScrollIntoView("#compare-panel"))
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			s := h.s
			typeText(t, p, "#obj-key", s)
			typeText(t, p, "#obj-body", "x")
			typeText(t, p, "#obj-tags", "k="+s)
			act(t, p, click("#put-btn"))
			wantContains(t, "history", newestHistory(t, p), "tagged "+isolated("k")+"="+isolated(s))
			typeText(t, p, "#obj-tags", "k=v")
			act(t, p, click("#put-btn"))

			typeText(t, p, "#s3r-0-id", s)
			typeText(t, p, "#s3r-0-prefix", s)
			act(t, p, click("#s3-save-btn"))
			if len(s) > 255 {
				p.WaitFor(t, `document.getElementById("s3-error").textContent.includes("InvalidArgument")`)
				return
			}
			storedLine(t, p, "Stored on "+isolated("hostile")+": 1 rule ("+isolated(s)+" Enabled)")
			p.WaitFor(t, `[...document.querySelectorAll("#compare li.cmp-row")].some((li) => li.dataset.key === `+quote(s)+`)`)
			for id, row := range compared(t, p, s) {
				wantContains(t, "side by side "+id, row.S3, "rule "+isolated(s))
			}
			act(t, p, click("#s3-preview-btn"))
			wantSafe(t, p)
		})
	}
	wantSafe(t, p)
}
