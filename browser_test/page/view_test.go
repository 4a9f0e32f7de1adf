//go:build !js

package page

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
)

// These tests pin that the view keeps up with the store: the preview's
// marks follow the clock and the rules, the time axis reads well, and a
// version's own buttons act on it alone.

const workedEmbed = "/?embed=1&scenario=worked-example&hide=http,history"

// startEmbed clicks an embed's Load button and waits until its scenario is
// loaded and the page is idle.
func startEmbed(t *testing.T, p *chrome.Page) {
	t.Helper()
	p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
	do(t, p, click("#load-btn"))
	waitReady(t, p)
	p.WaitFor(t, `document.getElementById("scenario-summary").textContent.includes(" 0 of ")`)
}

// stepScenario runs the loaded scenario's next n steps, without scrolling
// to the Next step button: the page stays at its top, where a learner
// watches the stacks.
func stepScenario(t *testing.T, p *chrome.Page, n int) {
	t.Helper()
	for range n {
		act(t, p, chromedp.Func(func(ctx context.Context, tgt *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`(() => { document.getElementById("scenario-step-btn").click(); return true; })()`)(ctx, tgt)
			return err
		}))
	}
}

// TestPreviewFollowsTheClock moves the clock through the worked example
// without pressing Preview: the marks always say what the next tick would
// do at the clock's now, and a tick then takes exactly the marked versions.
func TestPreviewFollowsTheClock(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+workedEmbed, 1100, 800)
	noDialogs(t, p)
	startEmbed(t, p)
	stepScenario(t, p, 7) // the rule logs/ is set and the clock is at 5
	marks := func() []string {
		var out []string
		for _, e := range stacks(t, p)["logs/app.log"] {
			if e.Expiring != "" {
				out = append(out, e.VersionID+" "+strings.TrimPrefix(e.Expiring, "⚠ "))
			}
		}
		return out
	}
	for _, c := range []struct {
		now  string
		want []string
	}{
		{"5", nil},
		{"11.999", nil},
		{"12", []string{"v00000001 next tick: expire noncurrent (rule \u2068logs\u2069)"}},
		{"15", []string{"v00000002 next tick: expire current (rule \u2068logs\u2069)", "v00000001 next tick: expire noncurrent (rule \u2068logs\u2069)"}},
		{"14.999", []string{"v00000001 next tick: expire noncurrent (rule \u2068logs\u2069)"}},
	} {
		setClock(t, p, c.now)
		if got := marks(); !slices.Equal(got, c.want) {
			t.Errorf("at %s the stacks mark %q, want %q", c.now, got, c.want)
		}
		if got := text(t, p, "#lifecycle-out"); !strings.Contains(got, "The next tick at now = "+c.now) {
			t.Errorf("at %s the rules panel says %q", c.now, got)
		}
	}
	if got := text(t, p, "#history"); strings.Contains(got, "Preview lifecycle") {
		t.Errorf("the marks came from a logged Preview step: %q", got)
	}
	setClock(t, p, "15")
	act(t, p, click("#tick-btn"))
	if got := text(t, p, "#lifecycle-out"); !strings.Contains(got, "expire current logs/app.log v00000002") || !strings.Contains(got, "expire noncurrent logs/app.log v00000001") {
		t.Errorf("the tick at 15 did %q, want the two marked versions taken", got)
	}
	if got := marks(); len(got) != 0 {
		t.Errorf("after the tick the stacks mark %q, want nothing", got)
	}
}

// TestPreviewFollowsTheRules edits the rule at the clock of 15 and checks
// that the marks follow each edit, go while the rule is not valid, and
// that a Preview of S3's configuration marks until the rules change again.
func TestPreviewFollowsTheRules(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+workedEmbed, 1100, 800)
	noDialogs(t, p)
	startEmbed(t, p)
	stepScenario(t, p, 7)
	setClock(t, p, "15")
	marked := func() string {
		var out []string
		for _, e := range stacks(t, p)["logs/app.log"] {
			if e.Expiring != "" {
				out = append(out, e.VersionID)
			}
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		field, value, want string
	}{
		{"#rule-0-noncurrent", "16", "v00000002"},
		{"#rule-0-current", "11", ""},
		{"#rule-0-noncurrent", "15", "v00000001"},
		{"#rule-0-current", "-1", ""}, // not valid: no preview
		{"#rule-0-current", "10", "v00000002 v00000001"},
		{"#rule-0-prefix", "keep/", ""},
	} {
		do(t, p, typeInto(c.field, c.value))
		p.WaitFor(t, `!document.body.classList.contains("busy")`)
		p.WaitFor(t, `[...document.querySelectorAll('#stacks li.entry')].filter((li) => li.querySelector(".expire-mark")).map((li) => li.dataset.versionId).join(" ") === `+quote(c.want))
		if got := marked(); got != c.want {
			t.Errorf("with %s = %s the stacks mark %q, want %q", c.field, c.value, got, c.want)
		}
	}
}

// TestTimeAxisIsReadableAtTimeZero reads the time axis's scale: at t = 0
// with one version it counts 0 to 10 s in round steps, and it keeps round
// steps in the unit of the span as the clock moves on.
func TestTimeAxisIsReadableAtTimeZero(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "demo"), click("#create-bucket-form button[type=submit]"))
	act(t, p, typeInto("#obj-key", "a"), typeInto("#obj-body", "x"), click("#put-btn"))
	type tick struct {
		Label string
		Left  float64 // percent of the axis, to a tenth
	}
	axis := func() []tick {
		return chrome.Eval[[]tick](t, p, `return [...document.querySelectorAll("#timeline .tl-axis .tl-tick")].map((e) => ({ Label: e.textContent, Left: Math.round(parseFloat(e.style.left) * 10) / 10 }))`)
	}
	for _, c := range []struct {
		name string
		move func()
		want []tick
	}{
		{"t = 0", func() {}, []tick{{"2 s", 20}, {"4 s", 40}, {"6 s", 60}, {"8 s", 80}, {"10 s", 100}, {"now 0 s", 0}}},
		{"t = 12", func() { setClock(t, p, "12") }, []tick{{"0 s", 0}, {"5 s", 33.3}, {"10 s", 66.7}, {"15 s", 100}, {"now 12 s", 80}}},
		{"30 days on", func() { act(t, p, click(`.day-btn[data-days="30"]`)) }, []tick{{"0 d", 0}, {"10 d", 25}, {"20 d", 50}, {"40 d", 100}, {"now 2592012 s", 75}}},
	} {
		c.move()
		do(t, p, chromedp.ScrollIntoView("#timeline-panel"))
		p.WaitFor(t, `document.querySelector("#timeline .tl-axis") !== null`)
		if got := axis(); !slices.Equal(got, c.want) {
			t.Errorf("%s: the axis reads %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestVersionButtonsDoNotArmTheForm uses a version's own GET and DELETE
// (with the mouse and with the keyboard) and checks that they act on that
// version and leave the Objects form as it was: a plain DELETE from the
// form afterwards adds a delete marker and deletes no version for good.
func TestVersionButtonsDoNotArmTheForm(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "demo"), click("#create-bucket-form button[type=submit]"))
	act(t, p, click("#enable-btn"))
	for _, body := range []string{"one", "two", "three"} {
		act(t, p, typeInto("#obj-key", "k"), typeInto("#obj-body", body), click("#put-btn"))
	}
	act(t, p, typeInto("#obj-key", "other"), typeInto("#obj-body", "o"), click("#put-btn"))
	form := func() string {
		return chrome.Eval[string](t, p, `return document.getElementById("obj-key").value + "|" + document.getElementById("obj-version").value`)
	}
	button := func(act, id string) string {
		return `#stacks button[data-act="` + act + `"][data-key="k"][data-version-id="` + id + `"]`
	}

	act(t, p, click(button("get", "v00000001")))
	if got := text(t, p, "#stacks-result pre.body"); got != "one" {
		t.Errorf("GET of v00000001 by its button shows %q, want one", got)
	}
	if got := form(); got != "other|" {
		t.Errorf("after a version's GET the form holds %q, want it as it was (other|)", got)
	}

	// By the keyboard: focus the DELETE of v00000002 and press Enter.
	do(t, p, chromedp.Focus(button("delete", "v00000002")), chromedp.KeyEvent(kb.Enter))
	p.WaitFor(t, `document.querySelector(`+quote(button("delete", "v00000002"))+`) === null && !document.body.classList.contains("busy")`)
	wantStack(t, stacks(t, p), "k", []entry{{VersionID: "v00000003", Kind: "data", Current: true}, {VersionID: "v00000001", Kind: "data"}})
	if got := chrome.Eval[string](t, p, `const a = document.activeElement; return a.closest(".stack")?.dataset.key + " " + a.dataset.act`); got != "k get" {
		t.Errorf("after deleting a version by its button, focus is on %q, want the stack's first version button", got)
	}
	if got := form(); got != "other|" {
		t.Errorf("after a version's DELETE the form holds %q, want it as it was", got)
	}

	// A plain DELETE of k from the form now adds a delete marker.
	act(t, p, typeInto("#obj-key", "k"), click("#delete-btn"))
	wantStack(t, stacks(t, p), "k", []entry{
		{VersionID: "v00000005", Kind: "marker", Current: true},
		{VersionID: "v00000003", Kind: "data"},
		{VersionID: "v00000001", Kind: "data"},
	})
}
