//go:build !js

package page

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
)

// TestHostRequests pins which messages an embed follows (host.js): only
// from its parent window at the allowed origin, MiniS3's own types in
// version 1, and a scenario name that can be one.
func TestHostRequests(t *testing.T) {
	t.Parallel()
	p := modulePage(t)
	const course = "https://course.example.org"
	tests := []struct {
		name       string
		data       string
		origin     string
		fromParent bool
		allowed    string
		want       string // "ignore", "error: …" (a part of it), or the request as JSON
	}{
		{"load", `{ "type": "minis3:load", "version": 1, "scenario": "exercise-keep" }`, course, true, course, `{"type":"load","scenario":"exercise-keep"}`},
		{"reset", `{ "type": "minis3:reset", "version": 1 }`, course, true, course, `{"type":"reset"}`},
		{"another origin", `{ "type": "minis3:reset", "version": 1 }`, "https://evil.example", true, course, "ignore"},
		{"not the parent window", `{ "type": "minis3:reset", "version": 1 }`, course, false, course, "ignore"},
		{"any origin when allowed", `{ "type": "minis3:reset", "version": 1 }`, "https://other.example", true, "*", `{"type":"reset"}`},
		{"someone else's message", `{ "type": "resize", "version": 1 }`, course, true, course, "ignore"},
		{"not an object", `"minis3:reset"`, course, true, course, "ignore"},
		{"another version", `{ "type": "minis3:reset", "version": 2 }`, course, true, course, "error: version must be 1"},
		{"no version", `{ "type": "minis3:reset" }`, course, true, course, "error: version must be 1"},
		{"an unknown request", `{ "type": "minis3:solve", "version": 1 }`, course, true, course, "error: not a request this embed accepts"},
		{"a scenario that is a path", `{ "type": "minis3:load", "version": 1, "scenario": "../secret" }`, course, true, course, "error: scenario must be the name"},
		{"no scenario", `{ "type": "minis3:load", "version": 1 }`, course, true, course, "error: scenario must be the name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := chrome.Eval[string](t, p, `const { readRequest } = await import("./app/host.js");
				const r = readRequest(`+tt.data+`, `+strconv.Quote(tt.origin)+`, `+strconv.FormatBool(tt.fromParent)+`, `+strconv.Quote(tt.allowed)+`);
				return r.ignore ? "ignore" : r.error ? "error: " + r.error : JSON.stringify(r.request);`)
			if got != tt.want && !(strings.HasPrefix(tt.want, "error: ") && strings.HasPrefix(got, "error: ") && strings.Contains(got, strings.TrimPrefix(tt.want, "error: "))) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}

	origins := []struct{ param, want string }{
		{"", "http://own.test"},
		{"*", "*"},
		{"https://course.example.org", "https://course.example.org"},
		{"https://course.example.org/", "https://course.example.org"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"https://course.example.org/ch8.html", "error"},
		{"course.example.org", "error"},
		{"javascript:alert(1)", "error"},
	}
	for _, o := range origins {
		got := chrome.Eval[string](t, p, `const { allowedOrigin } = await import("./app/host.js");
			const r = allowedOrigin(`+strconv.Quote(o.param)+`, "http://own.test"); return r.error ? "error" : r.origin;`)
		if got != o.want {
			t.Errorf("allowedOrigin(%q) = %s, want %s", o.param, got, o.want)
		}
	}
}

// message is one message the example course page received and logged.
type message struct {
	Frame, Type string
	Data        map[string]any
}

// received reads the course page's log of messages.
func received(t *testing.T, p *chrome.Page) []message {
	t.Helper()
	raw := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#log li")].map((li) => li.dataset.frame + "\n" + li.dataset.type + "\n" + li.textContent.slice(li.dataset.frame.length + li.dataset.type.length + 2))`)
	out := make([]message, 0, len(raw))
	for _, r := range raw {
		parts := strings.SplitN(r, "\n", 3)
		m := message{Frame: parts[0], Type: parts[1]}
		if err := json.Unmarshal([]byte(parts[2]), &m.Data); err != nil {
			t.Fatalf("log line %q: %v", r, err)
		}
		out = append(out, m)
	}
	return out
}

// frameNode is the iframe element id of the page, for queries inside its
// document.
func frameNode(t *testing.T, p *chrome.Page, id string) *chromedp.Node {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe#"+id)))
	if err != nil || len(nodes) != 1 {
		t.Fatalf("iframe %s: %v (%d nodes)", id, err, len(nodes))
	}
	return nodes[0]
}

// pressIn focuses the element sel (in the iframe frame, or in the page when
// frame is nil) and presses Enter: a keyboard user's activation.
func pressIn(t *testing.T, p *chrome.Page, frame *chromedp.Node, sel string) {
	t.Helper()
	do(t, p, chromedp.Focus(chromedp.CSS(sel), chromedp.FromNode(frame)), chromedp.KeyEvent(kb.Enter))
}

// typeAndEnter focuses the field sel in frame, selects what it holds,
// types text over it and presses Enter.
func typeAndEnter(t *testing.T, p *chrome.Page, frame *chromedp.Node, sel, text string) {
	t.Helper()
	do(t, p, chromedp.Focus(chromedp.CSS(sel), chromedp.FromNode(frame)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(text), chromedp.KeyEvent(kb.Enter))
}

// logged is a JavaScript expression: the number of messages of type from
// frame in the course page's log.
func logged(frame, typ string) string {
	return `document.querySelectorAll('#log li[data-frame="` + frame + `"][data-type="` + typ + `"]').length`
}

// last is the last message of type from frame the course page received.
func last(t *testing.T, p *chrome.Page, frame, typ string) message {
	t.Helper()
	var found *message
	for _, m := range received(t, p) {
		if m.Frame == frame && m.Type == typ {
			found = &m
		}
	}
	if found == nil {
		t.Fatalf("no %s from %s", typ, frame)
	}
	return *found
}

// wantPath checks what the course page's path shows: its summary, and
// the state of each exercise named, by scenario.
func wantPath(t *testing.T, p *chrome.Page, summary string, states map[string]string) {
	t.Helper()
	if got := text(t, p, "#path-summary"); got != summary {
		t.Errorf("the course page's path says %q, want %q", got, summary)
	}
	for name, want := range states {
		if got := text(t, p, `#path li[data-scenario="`+name+`"] .path-state`); got != want {
			t.Errorf("the course page's path shows %s as %q, want %q", name, got, want)
		}
	}
}

// TestCoursePage drives the example course page (static/examples/) as a
// student does, with the keyboard only, with the playground on another
// origin: the embeds report their height before anything loads, say when
// they are ready and what they loaded, report each step, a failed and a
// solved attempt (with the answer), and follow the course page's requests
// to start again and to load another exercise, before and after they are
// started.
func TestCoursePage(t *testing.T) {
	t.Parallel()
	playground := chrome.Serve(t, chrome.Mounts{"/": chrome.Static(t)}, nil).URL
	course := chrome.Serve(t, chrome.Mounts{"/": filepath.Join(chrome.RepoRoot(t), "static")}, nil).URL
	p := open(t, course+"/examples/course.html?playground="+playground+"/", 1280, 900)
	noDialogs(t, p)
	for _, id := range []string{"ex1", "ex2"} {
		p.WaitFor(t, logged(id, "minis3:height")+` > 0`)
	}
	if got := chrome.Eval[int](t, p, `return document.querySelectorAll('#log li[data-type="minis3:ready"]').length`); got != 0 {
		t.Fatalf("%d embeds ready before anyone started one", got)
	}
	ex1, ex2 := frameNode(t, p, "ex1"), frameNode(t, p, "ex2")

	// Exercise 1: started, staged, failed, solved.
	pressIn(t, p, ex1, "#load-btn")
	p.WaitFor(t, logged("ex1", "minis3:ready")+` === 1 && `+logged("ex1", "minis3:loaded")+` === 1`)
	if m := last(t, p, "ex1", "minis3:loaded"); m.Data["scenario"] != "exercise-boundary" || m.Data["exercise"] != true {
		t.Errorf("loaded: %+v", m.Data)
	}
	pressIn(t, p, ex1, "#task-stage-btn")
	p.WaitFor(t, logged("ex1", "minis3:step")+` === 7`)
	if m := last(t, p, "ex1", "minis3:step"); m.Data["index"] != 7.0 || m.Data["op"] != "rules" || m.Data["ok"] != true {
		t.Errorf("the stage's last step: %+v", m.Data)
	}
	pressIn(t, p, ex1, "#task-check-btn")
	p.WaitFor(t, logged("ex1", "minis3:failed")+` === 1`)
	failed := last(t, p, "ex1", "minis3:failed")
	if failed.Data["attempts"] != 1.0 || failed.Data["scenario"] != "exercise-boundary" {
		t.Errorf("failed: %+v", failed.Data)
	}
	typeAndEnter(t, p, ex1, "#clock-input", "14.999")
	p.WaitFor(t, logged("ex1", "minis3:step")+` === 8`)
	pressIn(t, p, ex1, "#tick-btn")
	p.WaitFor(t, logged("ex1", "minis3:step")+` === 9`)
	typeAndEnter(t, p, ex1, "#clock-input", "15")
	p.WaitFor(t, logged("ex1", "minis3:step")+` === 10`)
	pressIn(t, p, ex1, "#tick-btn")
	p.WaitFor(t, logged("ex1", "minis3:step")+` === 11`)
	pressIn(t, p, ex1, "#task-check-btn")
	p.WaitFor(t, logged("ex1", "minis3:solved")+` === 1`)
	solved := last(t, p, "ex1", "minis3:solved")
	if solved.Data["attempts"] != 2.0 {
		t.Errorf("solved: %+v", solved.Data)
	}
	for _, c := range solved.Data["checks"].([]any) {
		if c.(map[string]any)["pass"] != true {
			t.Errorf("solved with a failed check: %+v", c)
		}
	}
	if got := text(t, p, "#ex1-progress"); !strings.Contains(got, "Solved after 2 attempt(s)") {
		t.Errorf("the course page shows %q", got)
	}
	wantPath(t, p, "1 of 3 exercises solved.", map[string]string{
		"exercise-boundary": "✓ solved after 2 attempt(s)", "exercise-one-rule": "not started", "exercise-worked": "not started",
	})
	shot(t, p, "course-solved")

	// The course page starts exercise 1 again.
	pressIn(t, p, nil, `button[data-reset="ex1"]`)
	p.WaitFor(t, logged("ex1", "minis3:reset")+` === 1 && `+logged("ex1", "minis3:loaded")+` === 2`)
	pressIn(t, p, ex1, "#task-stage-btn")
	p.WaitFor(t, logged("ex1", "minis3:step")+` === 18`)
	if m := last(t, p, "ex1", "minis3:step"); m.Data["index"] != 7.0 {
		t.Errorf("the stage set again ends at step %v, want 7: a fresh store", m.Data["index"])
	}

	// Exercise 2: the course page switches it before it is started; the
	// student answers wrong, then right.
	pressIn(t, p, nil, `button[data-load="ex2"]`)
	pressIn(t, p, ex2, "#load-btn")
	p.WaitFor(t, logged("ex2", "minis3:ready")+` === 1`)
	if m := last(t, p, "ex2", "minis3:loaded"); m.Data["scenario"] != "exercise-worked" {
		t.Errorf("ex2 loaded %+v, want the scenario the course page asked for", m.Data)
	}
	pressIn(t, p, ex2, "#task-stage-btn")
	p.WaitFor(t, logged("ex2", "minis3:step")+` === 7`)
	typeAndEnter(t, p, ex2, "#task-answer-text", "14.999")
	p.WaitFor(t, logged("ex2", "minis3:failed")+` === 1`)
	if m := last(t, p, "ex2", "minis3:failed"); m.Data["answer"] != "14.999" {
		t.Errorf("failed: %+v, want the answer 14.999", m.Data)
	}
	wantPath(t, p, "1 of 3 exercises solved.", map[string]string{"exercise-worked": "attempt 1: 3 check(s) to go"})
	typeAndEnter(t, p, ex2, "#clock-input", "15")
	p.WaitFor(t, logged("ex2", "minis3:step")+` === 8`)
	pressIn(t, p, ex2, "#tick-btn")
	p.WaitFor(t, logged("ex2", "minis3:step")+` === 9`)
	typeAndEnter(t, p, ex2, "#task-answer-text", "15")
	p.WaitFor(t, logged("ex2", "minis3:solved")+` === 1`)
	if m := last(t, p, "ex2", "minis3:solved"); m.Data["answer"] != "15" || m.Data["attempts"] != 2.0 {
		t.Errorf("solved: %+v", m.Data)
	}
	// Exercise 1, started again since it was solved, stays solved.
	wantPath(t, p, "2 of 3 exercises solved.", map[string]string{
		"exercise-boundary": "✓ solved after 2 attempt(s)", "exercise-one-rule": "not started", "exercise-worked": "✓ solved after 2 attempt(s)",
	})

	// Each iframe takes the height its embed reports.
	for _, id := range []string{"ex1", "ex2"} {
		h := last(t, p, id, "minis3:height").Data["height"].(float64)
		if got := chrome.Eval[string](t, p, `return document.getElementById("`+id+`").height`); got != strconv.Itoa(max(200, int(h))) {
			t.Errorf("iframe %s is %s high, its embed reported %v", id, got, h)
		}
	}
	for _, m := range received(t, p) {
		if m.Type == "minis3:error" {
			t.Errorf("an embed refused a request: %+v", m.Data)
		}
	}
	shot(t, p, "course-page")
}

// TestEmbedTalksOnlyToItsOrigin checks the origin rules on a host page of
// the playground's own origin: an embed without an origin parameter talks
// to it, answers a request it cannot follow with minis3:error, and an
// embed told another origin neither tells this page anything nor follows
// its requests (it says so in the console).
func TestEmbedTalksOnlyToItsOrigin(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/test/host.html", 1280, 800)
	frame := func(id string) string { return `document.getElementById("` + id + `").contentWindow` }
	from := func(id, typ string) string {
		return `window.received.filter((m) => m.data.frame === "` + id + `" && m.data.type === "` + typ + `")`
	}
	p.WaitFor(t, from("own", "minis3:height")+`.length > 0`)
	for _, id := range []string{"own", "other"} {
		p.WaitFor(t, frame(id)+`.document.getElementById("load-btn") && !`+frame(id)+`.document.getElementById("load-btn").hidden`)
	}
	origin := chrome.Eval[string](t, p, `return location.origin`)
	if got := chrome.Eval[string](t, p, `return `+from("own", "minis3:height")+`[0].origin`); got != origin {
		t.Errorf("height came from %q, want %q", got, origin)
	}

	// Requests it cannot follow are answered.
	chrome.Eval[bool](t, p, frame("own")+`.postMessage({ type: "minis3:reset", version: 2 }, location.origin); return true`)
	p.WaitFor(t, from("own", "minis3:error")+`.length === 1`)
	chrome.Eval[bool](t, p, frame("own")+`.postMessage({ type: "minis3:reset", version: 1 }, location.origin); return true`)
	p.WaitFor(t, from("own", "minis3:error")+`.length === 2`)
	errs := chrome.Eval[[]string](t, p, `return `+from("own", "minis3:error")+`.map((m) => m.data.message)`)
	if !strings.Contains(errs[0], "version must be 1") || !strings.Contains(errs[1], "has not started") {
		t.Errorf("errors %q", errs)
	}

	// The embed told another origin ignores this page's requests.
	chrome.Eval[bool](t, p, `const w = `+frame("other")+`; w.warned = []; w.console.warn = (m) => w.warned.push(m);
		w.postMessage({ type: "minis3:load", version: 1, scenario: "exercise-keep" }, location.origin); return true`)
	p.WaitFor(t, frame("other")+`.warned.length === 1`)
	warned := chrome.Eval[string](t, p, `return `+frame("other")+`.warned[0]`)
	if !strings.Contains(warned, "ignored minis3:load: it comes from "+origin+", and this embed listens only to http://course.invalid") {
		t.Errorf("warning %q", warned)
	}
	if got := chrome.Eval[string](t, p, `return `+frame("other")+`.document.getElementById("status").textContent`); got != "Click to load." {
		t.Errorf("the other embed's status is %q after an ignored load", got)
	}
	if n := chrome.Eval[int](t, p, `return window.received.filter((m) => m.data.frame === "other").length`); n != 0 {
		t.Errorf("the embed told another origin sent this page %d messages", n)
	}
}
