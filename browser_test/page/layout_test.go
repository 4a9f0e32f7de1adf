//go:build !js

package page

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
)

// These tests pin where the playground puts its panels, in the full page
// and in embeds of every width a course page gives them, and what a
// screen reader and a keyboard find there.

// viewShot scrolls the page to its top and writes what the viewport shows
// (not the whole page) to out/name.png.
func viewShot(t *testing.T, p *chrome.Page, name string) {
	t.Helper()
	chrome.Eval[bool](t, p, `document.activeElement?.blur(); scrollTo(0, 0); return true`)
	viewportShot(t, p, name)
}

// darkTheme makes the page prefer the dark color scheme.
func darkTheme(t *testing.T, p *chrome.Page) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	}); err != nil {
		t.Fatal(err)
	}
}

// box is an element's place in the viewport, in CSS pixels.
type box struct{ Left, Top, Right, Bottom, Width float64 }

// boxes reads the boxes of the first element each selector matches, by
// selector; a missing or undisplayed element has none.
func boxes(t *testing.T, p *chrome.Page, sels ...string) map[string]box {
	t.Helper()
	list, err := json.Marshal(sels)
	if err != nil {
		t.Fatal(err)
	}
	return chrome.Eval[map[string]box](t, p, `const out = {};
		for (const s of `+string(list)+`) {
			const el = document.querySelector(s);
			if (!el || el.getClientRects().length === 0) continue;
			const r = el.getBoundingClientRect();
			out[s] = { Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom, Width: r.width };
		}
		return out;`)
}

// viewport is the width and height the page lays out in (without a
// scroll bar), and how far it is scrolled.
type viewport struct{ Width, Height, ScrollX, ScrollY, ScrollWidth float64 }

func readViewport(t *testing.T, p *chrome.Page) viewport {
	t.Helper()
	return chrome.Eval[viewport](t, p, `const d = document.documentElement;
		return { Width: d.clientWidth, Height: d.clientHeight, ScrollX: scrollX, ScrollY: scrollY, ScrollWidth: d.scrollWidth }`)
}

// inView fails the test unless every selector's element is wholly inside
// the viewport.
func inView(t *testing.T, p *chrome.Page, what string, sels ...string) {
	t.Helper()
	v := readViewport(t, p)
	got := boxes(t, p, sels...)
	for _, s := range sels {
		b, ok := got[s]
		if !ok {
			t.Errorf("%s: %s is not shown", what, s)
			continue
		}
		if b.Top < 0 || b.Left < 0 || b.Bottom > v.Height || b.Right > v.Width {
			t.Errorf("%s: %s is at %+v, outside the %gx%g viewport", what, s, b, v.Width, v.Height)
		}
	}
}

// TestEmbedUsesItsWidth puts an embed in an iframe of each width a course
// page may give it and measures what the embed draws: nothing wider than
// the frame, panels from edge to edge, the stacks beside the rules once
// there is room for both, and a stack alone using its panel's width; with
// the object controls hidden, the stacks take their room.
func TestEmbedUsesItsWidth(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/test/embed.html", 1280, 900)
	for _, c := range []struct {
		width     int
		hide      string // panels hidden besides the history and the HTTP
		minStacks float64
	}{
		{360, "", 0},
		{800, "", 450},
		{1100, "", 600},
		{1200, "", 500},
		{1200, ",bucket,actions", 800},
	} {
		width := c.width
		t.Run(fmt.Sprint(width, c.hide), func(t *testing.T) {
			frame := fmt.Sprintf("w%d%s", width, strings.ReplaceAll(c.hide, ",", "-"))
			chrome.Eval[bool](t, p, `document.body.replaceChildren(Object.assign(document.createElement("iframe"), {
					id: "`+frame+`", title: "MiniS3 embed", width: `+fmt.Sprint(width)+`, height: 600, src: "`+workedEmbed+c.hide+`&frame=`+frame+`" }));
				document.getElementById("`+frame+`").style.border = "0";
				return true`)
			doc := `document.getElementById("` + frame + `").contentDocument`
			p.WaitFor(t, doc+`?.getElementById("load-btn") && !`+doc+`.getElementById("load-btn").hidden`)
			chrome.Eval[bool](t, p, doc+`.getElementById("load-btn").click(); return true`)
			p.WaitFor(t, doc+`.body.dataset.ready === "true" && `+doc+`.getElementById("scenario-summary").textContent.includes(" 0 of ")`)
			chrome.Eval[bool](t, p, doc+`.getElementById("scenario-run-btn").click(); return true`)
			p.WaitFor(t, `(() => { const m = `+doc+`.getElementById("scenario-summary").textContent.match(/(\d+) of (\d+) steps run/); return m && m[1] === m[2] && !`+doc+`.body.classList.contains("busy"); })()`)
			got := chrome.Eval[struct {
				Client, Scroll   float64
				Panels           []box
				Stacks, Rules    box
				Stack, StackList box
			}](t, p, `const d = `+doc+`;
				d.defaultView.scrollTo(0, 0);
				const b = (el) => { const r = el.getBoundingClientRect(); return { Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom, Width: r.width }; };
				const first = [...d.querySelectorAll("#app .panel")].filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().top < d.documentElement.clientHeight);
				return { Client: d.documentElement.clientWidth, Scroll: d.documentElement.scrollWidth, Panels: first.map(b),
					Stacks: b(d.getElementById("stacks-panel")), Rules: b(d.getElementById("lifecycle-panel")),
					Stack: b(d.querySelector("#stacks .stack")), StackList: b(d.querySelector("#stacks .stack-list")) };`)
			if got.Scroll > got.Client {
				t.Errorf("the embed is %g px wide in a frame of %g", got.Scroll, got.Client)
			}
			left, right := got.Client, 0.0
			for _, b := range got.Panels {
				left, right = min(left, b.Left), max(right, b.Right)
			}
			if left > 12 || right < got.Client-12 {
				t.Errorf("the panels on the first screen span %g to %g of %g px: want them from edge to edge", left, right, got.Client)
			}
			if got.Stack.Width < 0.95*got.StackList.Width {
				t.Errorf("the one stack is %g px wide in a list of %g: want it to use the width", got.Stack.Width, got.StackList.Width)
			}
			if width >= 720 {
				if got.Stacks.Left < got.Rules.Right || got.Stacks.Top > got.Rules.Bottom {
					t.Errorf("the stacks %+v are not beside the rules %+v", got.Stacks, got.Rules)
				}
				if got.Stacks.Width < c.minStacks {
					t.Errorf("the stacks take %g of %g px: want at least %g", got.Stacks.Width, got.Client, c.minStacks)
				}
			} else if got.Stacks.Width < got.Client-20 {
				t.Errorf("in one column the stacks take %g of %g px", got.Stacks.Width, got.Client)
			}
		})
	}
	shot(t, p, "embed-width-1200")
}

// TestStacksClockRulesVisibleAt800x600 sets the stage of the worked
// example's exercise in an embed of 800x600 and moves the clock to 12 as a
// student would, so that the preview marks a version: the task with its
// Check button, the clock's controls (its day steps folded away: the
// exercise does not use them), the rule and Tick, and the whole stack are
// on the first screen, in the light and the dark theme.
func TestStacksClockRulesVisibleAt800x600(t *testing.T) {
	t.Parallel()
	base := site(t)
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			p := open(t, base+"/?embed=1&scenario=exercise-worked&hide=http,history", 800, 600)
			if theme == "dark" {
				darkTheme(t, p)
			}
			noDialogs(t, p)
			startEmbed(t, p)
			do(t, p, click("#task-stage-btn"))
			waitReady(t, p)
			do(t, p, typeInto("#clock-input", "12"), click(`#clock-set-form button[type="submit"]`))
			p.WaitFor(t, `document.getElementById("clock-now").textContent.includes("12") && !document.body.classList.contains("busy")`)
			chrome.Eval[bool](t, p, `document.activeElement?.blur(); scrollTo(0, 0); return true`)
			if got := stacks(t, p)["logs/app.log"]; len(got) != 2 || got[1].Expiring == "" {
				t.Fatalf("stacks %+v: want v00000001 marked by the preview", got)
			}
			inView(t, p, "embed at 800x600", "#task-prompt", "#task-check-btn", "#clock-now", "#clock-set-form", `.step-btn[data-step="1"]`,
				"#rules fieldset.rule", "#tick-btn", "#stacks .stack", "#stacks .expire-mark")
			viewShot(t, p, "embed-800x600-"+theme)
		})
	}
}

// TestObjectControlsBesideStacksAt1280x800 checks the full page at
// 1280x800: the Objects form is on the first screen, to the right of the
// stacks, and using it keeps the stacks in view.
func TestObjectControlsBesideStacksAt1280x800(t *testing.T) {
	t.Parallel()
	base := site(t)
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			p := open(t, base+"/", 1280, 800)
			if theme == "dark" {
				darkTheme(t, p)
			}
			waitReady(t, p)
			runScenario(t, p, "worked-example")
			chrome.Eval[bool](t, p, `scrollTo(0, 0); return true`)
			form := []string{"#obj-key", "#obj-body", "#obj-version", "#put-btn", "#get-btn", "#delete-btn", "#bucket-select", "#clock-now", "#tick-btn"}
			inView(t, p, "full page at 1280x800", append(form, "#stacks .stack")...)
			b := boxes(t, p, "#stacks-panel", "#actions-panel")
			if b["#actions-panel"].Left < b["#stacks-panel"].Right || b["#actions-panel"].Top > b["#stacks-panel"].Bottom {
				t.Errorf("the Objects panel %+v is not beside the stacks %+v", b["#actions-panel"], b["#stacks-panel"])
			}
			act(t, p, typeInto("#obj-key", "logs/app.log"), typeInto("#obj-body", "newer"), click("#put-btn"))
			if v := readViewport(t, p); v.ScrollY != 0 {
				t.Errorf("a PUT from the form scrolled the page by %g px", v.ScrollY)
			}
			inView(t, p, "after a PUT", "#stacks .stack", "#put-btn")
			viewShot(t, p, "full-1280x800-"+theme)
		})
	}
}

// axNode is a node of the accessibility tree: its role, its name and its
// text (the names of the text nodes under it).
type axNode struct {
	Role, Name, Text string
	Children         []*axNode
}

// accessibilityTree reads the page's accessibility tree as a screen reader
// gets it, without the nodes it ignores.
func accessibilityTree(t *testing.T, p *chrome.Page) *axNode {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	res, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatal(err)
	}
	str := func(v *accessibility.Value) string {
		var s string
		if v != nil {
			_ = json.Unmarshal(v.Value, &s)
		}
		return s
	}
	byID := map[accessibility.NodeID]*accessibility.Node{}
	for _, n := range res.Nodes {
		byID[n.NodeID] = n
	}
	var build func(n *accessibility.Node) []*axNode
	build = func(n *accessibility.Node) []*axNode {
		var kids []*axNode
		for _, id := range n.ChildIDs {
			if c := byID[id]; c != nil {
				kids = append(kids, build(c)...)
			}
		}
		if n.Ignored {
			return kids
		}
		a := &axNode{Role: str(n.Role), Name: str(n.Name), Children: kids}
		if a.Role == "StaticText" {
			a.Text = a.Name
		}
		var texts []string
		for _, k := range kids {
			if k.Text != "" {
				texts = append(texts, k.Text)
			}
		}
		if a.Role != "StaticText" {
			a.Text = strings.Join(texts, " ")
		}
		return []*axNode{a}
	}
	return build(res.Nodes[0])[0]
}

// find is the first node under n (n included) that match accepts.
func (n *axNode) find(match func(*axNode) bool) *axNode {
	if match(n) {
		return n
	}
	for _, c := range n.Children {
		if f := c.find(match); f != nil {
			return f
		}
	}
	return nil
}

// children are the nodes of role role directly under n.
func (n *axNode) children(role string) []*axNode {
	var out []*axNode
	for _, c := range n.Children {
		if c.Role == role {
			out = append(out, c)
		}
	}
	return out
}

// TestVersionStacksAreListsForScreenReaders reads the stacks of the worked
// example at the clock of 12 as a screen reader does: a list of stacks,
// each with its key as a heading and a list of its versions, newest first,
// each saying what it is (data or delete marker), its state, its version
// ID and, when the preview marks it, what the next tick does to it.
func TestVersionStacksAreListsForScreenReaders(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+workedEmbed, 1100, 700)
	startEmbed(t, p)
	stepScenario(t, p, 8)
	act(t, p, typeInto("#obj-key", "keep/item"), typeInto("#obj-body", "x"), click("#put-btn"))
	// Chromium updates its accessibility tree after the DOM: read it until
	// both stacks have their headings, or until the deadline.
	isStackList := func(n *axNode) bool { return n.Role == "list" && n.Name == "Version stacks of bucket demo" }
	settled := func(tree *axNode) bool {
		list := tree.find(isStackList)
		if list == nil || len(list.children("listitem")) != 2 {
			return false
		}
		for _, item := range list.children("listitem") {
			if item.find(func(n *axNode) bool { return n.Role == "heading" }) == nil {
				return false
			}
		}
		return true
	}
	tree := accessibilityTree(t, p)
	for deadline := time.Now().Add(10 * time.Second); !settled(tree) && time.Now().Before(deadline); {
		tree = accessibilityTree(t, p)
	}
	stackList := tree.find(isStackList)
	if stackList == nil {
		t.Fatal(`no list named "Version stacks of bucket demo"`)
	}
	items := stackList.children("listitem")
	if len(items) != 2 {
		t.Fatalf("the list of stacks has %d items, want 2 (keep/item, logs/app.log)", len(items))
	}
	want := map[string][][]string{
		"keep/item":    {{"data", "current", "v00000003"}},
		"logs/app.log": {{"data", "current", "v00000002"}, {"data", "noncurrent", "v00000001", "next tick: expire noncurrent (rule \u2068logs\u2069)"}},
	}
	for _, item := range items {
		heading := item.find(func(n *axNode) bool { return n.Role == "heading" })
		if heading == nil {
			t.Fatalf("a stack has no heading: %q", item.Text)
		}
		key := heading.Text[:strings.Index(heading.Text+" ", " ")]
		versions := item.find(func(n *axNode) bool { return n.Role == "list" })
		if versions == nil || versions.Name != "Versions of "+key+", newest first" {
			t.Fatalf("stack %s: its versions are not a list named for the key: %+v", key, versions)
		}
		entries := versions.children("listitem")
		if len(entries) != len(want[key]) {
			t.Fatalf("stack %s reads %d versions, want %d", key, len(entries), len(want[key]))
		}
		for i, e := range entries {
			for _, w := range want[key][i] {
				if !strings.Contains(strings.ToLower(e.Text), strings.ToLower(w)) {
					t.Errorf("stack %s version %d reads %q, want it to say %q", key, i, e.Text, w)
				}
			}
			if strings.ContainsAny(e.Text, "▮✕") {
				t.Errorf("stack %s version %d reads the badge's glyph: %q", key, i, e.Text)
			}
			if i == 0 && strings.Contains(e.Text, "noncurrent") {
				t.Errorf("the newest version of %s reads %q", key, e.Text)
			}
		}
	}
}

// panelBox is a panel's box in the page (not the viewport), in CSS pixels.
type panelBox struct{ Left, Top, Right, Bottom float64 }

// TestTabFollowsTheColumns tabs through the whole playground at each
// width where its layout changes (three columns from 1,200 px, two from
// 720, one below; the page opens at 1,280 px and the window is then made
// narrower) and checks that focus goes from panel to panel as the eye
// reads them: down a column, on to a column on its right, or to a row
// below every panel that starts above it; never up or back to the left.
func TestTabFollowsTheColumns(t *testing.T) {
	t.Parallel()
	base := site(t)
	for _, width := range []int64{1280, 1000, 600} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			p := open(t, base+"/?scenario=worked-example", 1280, 800)
			noDialogs(t, p)
			waitReady(t, p)
			chrome.Eval[bool](t, p, `document.getElementById("scenario-run-btn").click(); return true`)
			p.WaitFor(t, `(() => { const m = document.getElementById("scenario-summary").textContent.match(/(\d+) of (\d+) steps run/); return m && m[1] === m[2] && !document.body.classList.contains("busy"); })()`)
			do(t, p, chromedp.EmulateViewport(width, 800))
			// The page hears of the new width with the next frame.
			p.WaitFor(t, `document.documentElement.clientWidth <= `+fmt.Sprint(width))
			chrome.Eval[bool](t, p, `await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))); return true`)
			// From the skip link, the first stop in the page, each focus
			// stop is recorded as the panel it is in ("" outside the
			// panels: the header, and the skip link again).
			do(t, p, chromedp.Focus(".skip"))
			chrome.Eval[bool](t, p, `window.__stops = [];
				document.addEventListener("focusin", (ev) => window.__stops.push(ev.target.closest("#app .panel")?.id ?? ""));
				return true`)
			stops := 0
			for {
				for range 20 {
					do(t, p, chromedp.KeyEvent(kb.Tab))
				}
				// Focus has gone through the page once it is back on the
				// first stop (the skip link).
				n := chrome.Eval[int](t, p, `return window.__stops.indexOf("", window.__stops.findIndex((id) => id !== ""))`)
				if n > 0 {
					stops = n
					break
				}
				if presses := chrome.Eval[int](t, p, `return window.__stops.length`); presses > 1000 {
					t.Fatalf("%d presses of Tab never came back to the top of the page", presses)
				}
			}
			got := chrome.Eval[struct {
				Stops []string
				Boxes map[string]panelBox
			}](t, p, `const boxes = {};
				for (const el of document.querySelectorAll("#app .panel")) {
					const r = el.getBoundingClientRect();
					boxes[el.id] = { Left: r.left + scrollX, Top: r.top + scrollY, Right: r.right + scrollX, Bottom: r.bottom + scrollY };
				}
				return { Stops: window.__stops.slice(0, `+fmt.Sprint(stops)+`), Boxes: boxes };`)
			var order []string
			for _, id := range got.Stops {
				if id != "" && (len(order) == 0 || order[len(order)-1] != id) {
					order = append(order, id)
				}
			}
			// rowBelow: no panel that starts above b reaches down beside it.
			rowBelow := func(b panelBox) bool {
				for _, p := range got.Boxes {
					if p.Top < b.Top && p.Bottom > b.Top+1 {
						return false
					}
				}
				return true
			}
			visited := map[string]bool{}
			for i, id := range order {
				if visited[id] {
					t.Errorf("Tab comes back to #%s after leaving it: %v", id, order)
				}
				visited[id] = true
				if i == 0 {
					continue
				}
				a, b := got.Boxes[order[i-1]], got.Boxes[id]
				down := math.Abs(b.Left-a.Left) < 2 && b.Top >= a.Bottom-1
				right := b.Left >= a.Right-1
				if !down && !right && !rowBelow(b) {
					t.Errorf("Tab goes from #%s %+v to #%s %+v: up or back to the left, not down its column, to a column on its right, or to a row below (order %v)", order[i-1], a, id, b, order)
				}
			}
			for _, id := range []string{"lifecycle-panel", "clock-panel", "stacks-panel", "bucket-panel", "actions-panel", "s3-panel", "scenarios-panel", "history-panel"} {
				if !visited[id] {
					t.Errorf("Tab never reaches #%s: %v", id, order)
				}
			}
		})
	}
}

// TestKeyboardOnlyEmbed starts an embed and works the exercise with the
// keyboard alone: Tab to Load, then from the rules Tab goes down the side
// column (the bucket and object controls below them) and on to the clock
// above the stacks, the clock moves with Enter, and the skip link takes
// focus to the stacks, whose version buttons follow.
func TestKeyboardOnlyEmbed(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+workedEmbed, 800, 600)
	noDialogs(t, p)
	p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
	focused := func() string {
		return chrome.Eval[string](t, p, `const a = document.activeElement; return a.id || a.className || a.tagName`)
	}
	tabTo := func(id string, limit int) {
		t.Helper()
		for range limit {
			do(t, p, chromedp.KeyEvent(kb.Tab))
			if focused() == id {
				return
			}
		}
		t.Fatalf("%d presses of Tab never reached #%s (focus on %s)", limit, id, focused())
	}
	tabTo("load-btn", 5)
	do(t, p, chromedp.KeyEvent(kb.Enter))
	waitReady(t, p)
	p.WaitFor(t, `document.getElementById("scenario-summary").textContent.includes(" 0 of ")`)
	stepScenario(t, p, 7)

	// After the rule editor, below Tick, Tab goes down the side column,
	// then on to the clock.
	do(t, p, chromedp.Focus(`#rules button[data-rule-act="remove"]`))
	tabTo("bucket-select", 1)
	tabTo("clock-input", 40)
	do(t, p, typeInto("#clock-input", "12"), chromedp.KeyEvent(kb.Enter))
	p.WaitFor(t, `document.getElementById("clock-now").textContent === "12" && !document.body.classList.contains("busy")`)
	if got := stacks(t, p)["logs/app.log"]; len(got) != 2 || got[1].Expiring == "" {
		t.Errorf("after setting the clock by the keyboard the stacks read %+v, want v00000001 marked", got)
	}

	// The skip link, first in the page, takes focus to the stacks.
	do(t, p, chromedp.Focus(".skip"), chromedp.KeyEvent(kb.Enter))
	p.WaitFor(t, `document.activeElement.id === "stacks-panel"`)
	do(t, p, chromedp.KeyEvent(kb.Tab))
	if got := chrome.Eval[string](t, p, `const a = document.activeElement; return (a.closest(".stack")?.dataset.key ?? "") + " " + a.className`); got != "logs/app.log disclose" {
		t.Errorf("Tab from the stacks panel goes to %q, want the first version's size and ETag", got)
	}
}
