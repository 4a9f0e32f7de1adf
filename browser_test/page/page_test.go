//go:build !js

// Package page tests the playground page (static/) in headless Chromium: it
// clicks through the page the way a learner does and reads what the page
// shows. Screenshots of the main views go to out/ (ignored by git).
package page

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
)

// site serves the playground (static/ with a fresh wasm build) and returns
// its base URL.
func site(t *testing.T) string {
	t.Helper()
	return chrome.Serve(t, chrome.Mounts{
		"/":      chrome.Static(t),
		"/test/": "testdata",
	}, nil).URL
}

// open opens the page at url in a fresh browser, with a viewport of w×h.
func open(t *testing.T, url string, w, h int64) *chrome.Page {
	t.Helper()
	p := chrome.Launch(t).Open(t, "about:blank")
	do(t, p, chromedp.EmulateViewport(w, h))
	p.Navigate(t, url)
	return p
}

// do runs chromedp actions in the tab.
func do(t *testing.T, p *chrome.Page, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("chromedp: %v", err)
	}
}

// noDialogs fails the test if the page ever opens a JavaScript dialog
// (alert, confirm, prompt). Call it before the page loads.
func noDialogs(t *testing.T, p *chrome.Page) {
	t.Helper()
	var opened atomic.Value
	go func() {
		for ev, err := range chromedp.Events(p.Context(), cdppage.JavascriptDialogOpening) {
			if err != nil {
				return
			}
			opened.Store(ev.Message)
			ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
			_, _ = chromedp.Call(ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: false})
			cancel()
		}
	}()
	t.Cleanup(func() {
		if m := opened.Load(); m != nil {
			t.Errorf("the page opened a JavaScript dialog: %q", m)
		}
	})
}

func waitReady(t *testing.T, p *chrome.Page) {
	t.Helper()
	p.WaitFor(t, `document.body.dataset.ready === "true" && !document.body.classList.contains("busy")`)
}

// historyLen is the number of entries in the page's history log.
func historyLen(t *testing.T, p *chrome.Page) int {
	t.Helper()
	return chrome.Eval[int](t, p, `return document.querySelectorAll("#history > li").length`)
}

// act runs UI actions that perform exactly one logged operation and waits
// until the page has logged it and is idle again.
func act(t *testing.T, p *chrome.Page, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	n := historyLen(t, p)
	do(t, p, actions...)
	p.WaitFor(t, `document.querySelectorAll("#history > li").length > `+strconv.Itoa(n)+` && !document.body.classList.contains("busy")`)
}

// typeInto replaces the value of the input sel by typing text, so that the
// page sees real input events (typing and erasing a character when text is
// empty).
func typeInto(sel, text string) chromedp.Action[chromedp.Void] {
	if text == "" {
		text = "x" + kb.Backspace
	}
	clear := chromedp.Evaluate[bool](`(() => { document.querySelector(` + quote(sel) + `).value = ""; return true; })()`)
	return chromedp.Steps(
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := clear(ctx, t)
			return err
		}),
		chromedp.SendKeys(sel, text))
}

func click(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(sel, chromedp.NodeVisible)
}

// entry is one row of a version stack as the page shows it.
type entry struct {
	VersionID string
	Kind      string // "data" or "marker"
	Current   bool
	Expiring  string // the preview mark, if any
	Text      string
}

// stacks reads the version stacks the page shows, by key.
func stacks(t *testing.T, p *chrome.Page) map[string][]entry {
	t.Helper()
	return chrome.Eval[map[string][]entry](t, p, `
		const out = {};
		for (const a of document.querySelectorAll("#stacks .stack")) {
			out[a.dataset.key] = [...a.querySelectorAll("li.entry")].map((li) => ({
				VersionID: li.dataset.versionId,
				Kind: li.classList.contains("marker") ? "marker" : "data",
				Current: li.classList.contains("current"),
				Expiring: li.querySelector(".expire-mark")?.textContent ?? "",
				Text: li.textContent,
			}));
		}
		return out;`)
}

func text(t *testing.T, p *chrome.Page, sel string) string {
	t.Helper()
	return chrome.Eval[string](t, p, `return document.querySelector(`+quote(sel)+`)?.textContent ?? ""`)
}

func quote(s string) string {
	return "`" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "`", "\\`") + "`"
}

// shot writes a screenshot of the whole page to out/name.png.
func shot(t *testing.T, p *chrome.Page, name string) {
	t.Helper()
	if err := os.MkdirAll("out", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("out", name+".png"), p.Screenshot(t), 0o644); err != nil {
		t.Fatal(err)
	}
}

// noCSPViolations fails the test if the console reports a blocked resource
// or script: the page must run under its own Content-Security-Policy.
func noCSPViolations(t *testing.T, p *chrome.Page) {
	t.Helper()
	for _, line := range p.Console() {
		if strings.Contains(line, "Content Security Policy") || strings.Contains(line, "Content-Security-Policy") {
			t.Errorf("console: %s", line)
		}
	}
}

func setClock(t *testing.T, p *chrome.Page, now string) {
	t.Helper()
	act(t, p, typeInto("#clock-input", now), click("#clock-set-form button[type=submit]"))
	if got := text(t, p, "#clock-now"); got != now {
		t.Fatalf("clock shows %q, want %q", got, now)
	}
}

func wantStack(t *testing.T, got map[string][]entry, key string, want []entry) {
	t.Helper()
	es := got[key]
	if len(es) != len(want) {
		t.Fatalf("stack %s has %d entries %+v, want %d", key, len(es), es, len(want))
	}
	for i, w := range want {
		g := es[i]
		if g.VersionID != w.VersionID || g.Kind != w.Kind || g.Current != w.Current {
			t.Errorf("stack %s entry %d = %s %s current=%v, want %s %s current=%v", key, i, g.VersionID, g.Kind, g.Current, w.VersionID, w.Kind, w.Current)
		}
		if w.Expiring != "" && !strings.Contains(g.Expiring, w.Expiring) {
			t.Errorf("stack %s entry %d preview mark %q, want it to contain %q", key, i, g.Expiring, w.Expiring)
		}
		if w.Expiring == "" && g.Expiring != "" {
			t.Errorf("stack %s entry %d has preview mark %q, want none", key, i, g.Expiring)
		}
	}
}

// TestWorkedExampleByHand clicks through the chapter's worked example using
// only the controls of the page, and checks the stacks after every tick.
func TestWorkedExampleByHand(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	if got := text(t, p, "#storage-mode"); !strings.Contains(got, "IndexedDB") {
		t.Errorf("storage mode %q, want IndexedDB", got)
	}

	act(t, p, typeInto("#new-bucket", "demo"), click("#create-bucket-form button[type=submit]"))
	act(t, p, click("#enable-btn"))
	if got := text(t, p, "#versioning-state"); got != "enabled" {
		t.Fatalf("versioning shows %q, want enabled", got)
	}
	if got := chrome.Eval[bool](t, p, `return document.getElementById("enable-btn").disabled && !document.getElementById("suspend-btn").disabled`); !got {
		t.Error("an enabled bucket must offer suspend only (never back to unversioned)")
	}
	act(t, p, typeInto("#obj-key", "logs/app.log"), typeInto("#obj-body", "old"), click("#put-btn"))
	setClock(t, p, "5")
	act(t, p, typeInto("#obj-body", "current"), click("#put-btn"))
	wantStack(t, stacks(t, p), "logs/app.log", []entry{
		{VersionID: "v00000002", Kind: "data", Current: true},
		{VersionID: "v00000001", Kind: "data"},
	})

	do(t, p, click("#add-rule-btn"),
		typeInto("#rule-0-id", "logs"), typeInto("#rule-0-prefix", "logs/"),
		typeInto("#rule-0-current", "10"), typeInto("#rule-0-noncurrent", "12"))
	p.WaitFor(t, `!document.getElementById("tick-btn").disabled`)
	setClock(t, p, "12")
	// Moving the clock updates every age shown (the stack views themselves
	// are kept across renders).
	for _, e := range stacks(t, p)["logs/app.log"] {
		want := map[string]string{"v00000002": "created 5 · age 7", "v00000001": "created 0 · age 12"}[e.VersionID]
		if !strings.Contains(e.Text, want) {
			t.Errorf("entry %s reads %q, want it to contain %q", e.VersionID, e.Text, want)
		}
	}

	// Preview marks what the tick would expire and changes nothing.
	act(t, p, click("#preview-btn"))
	wantStack(t, stacks(t, p), "logs/app.log", []entry{
		{VersionID: "v00000002", Kind: "data", Current: true},
		{VersionID: "v00000001", Kind: "data", Expiring: "expire noncurrent (rule \u2068logs\u2069)"},
	})
	if got := text(t, p, "#timeline"); !strings.Contains(got, "≥ 15") || !strings.Contains(got, "≥ 12") {
		t.Errorf("time axis %q should mark the thresholds ≥ 15 (current) and ≥ 12 (noncurrent)", got)
	}
	shot(t, p, "preview")

	act(t, p, click("#tick-btn"))
	wantStack(t, stacks(t, p), "logs/app.log", []entry{
		{VersionID: "v00000002", Kind: "data", Current: true},
	})
	if got := text(t, p, "#lifecycle-out"); !strings.Contains(got, "Removed noncurrent versions") || !strings.Contains(got, "v00000001") {
		t.Errorf("tick diff %q should list v00000001 as a removed noncurrent version", got)
	}

	// 12 → 15 with the step buttons.
	for range 3 {
		act(t, p, click(`button.step-btn[data-step="1"]`))
	}
	if got := text(t, p, "#clock-now"); got != "15" {
		t.Fatalf("clock %q after three +1, want 15", got)
	}
	act(t, p, click("#tick-btn"))
	got := stacks(t, p)
	wantStack(t, got, "logs/app.log", []entry{
		{VersionID: "v00000003", Kind: "marker", Current: true},
		{VersionID: "v00000002", Kind: "data"},
	})
	if !strings.Contains(got["logs/app.log"][0].Text, "delete marker") {
		t.Errorf("a delete marker must say so in words, got %q", got["logs/app.log"][0].Text)
	}
	out := text(t, p, "#lifecycle-out")
	for _, want := range []string{"expire current", "v00000002", "rule logs", "New delete markers", "v00000003"} {
		if !strings.Contains(out, want) {
			t.Errorf("tick output %q lacks %q", out, want)
		}
	}

	act(t, p, typeInto("#obj-version", ""), click("#get-btn"))
	if got := text(t, p, "#result"); !strings.Contains(got, "NoSuchKey") || !strings.Contains(got, "delete marker") {
		t.Errorf("GET result %q should be NoSuchKey, explained", got)
	}
	http := text(t, p, "#http")
	for _, want := range []string{"GET /demo/logs/app.log", "404", "<Code>NoSuchKey</Code>"} {
		if !strings.Contains(http, want) {
			t.Errorf("HTTP panel %q lacks %q", http, want)
		}
	}
	shot(t, p, "worked-example")
	if w := chrome.Eval[[]int](t, p, `return [document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
		t.Errorf("the page is %d px wide in a %d px window", w[0], w[1])
	}

	// Deleting the marker by its ID brings v00000002 back, current again
	// and 10 old: the preview marks it for the next tick at once.
	act(t, p, click(`#stacks button[data-act="delete"][data-version-id="v00000003"]`))
	wantStack(t, stacks(t, p), "logs/app.log", []entry{{VersionID: "v00000002", Kind: "data", Current: true, Expiring: "expire current (rule \u2068logs\u2069)"}})
	noCSPViolations(t, p)

	// A reload keeps the store (IndexedDB), the clock, the rules and the
	// history.
	n := historyLen(t, p)
	p.Reload(t)
	waitReady(t, p)
	wantStack(t, stacks(t, p), "logs/app.log", []entry{{VersionID: "v00000002", Kind: "data", Current: true, Expiring: "expire current (rule \u2068logs\u2069)"}})
	if got := text(t, p, "#clock-now"); got != "15" {
		t.Errorf("clock after reload %q, want 15", got)
	}
	if got := historyLen(t, p); got != n {
		t.Errorf("history after reload has %d entries, want %d", got, n)
	}
	if got := chrome.Eval[string](t, p, `return document.getElementById("rule-0-noncurrent")?.value ?? ""`); got != "12" {
		t.Errorf("rule after reload %q, want 12", got)
	}
}

// runScenario loads a built-in scenario, runs all its steps, and returns the
// summary line.
func runScenario(t *testing.T, p *chrome.Page, name string) string {
	t.Helper()
	showScenarios(t, p)
	do(t, p, chromedp.SetValue("#scenario-select", name), click("#scenario-load-btn"))
	// Loading over existing buckets asks first.
	p.WaitFor(t, `document.getElementById("confirm-dialog").open || document.getElementById("scenario-summary").textContent.includes(" 0 of ")`)
	if chrome.Eval[bool](t, p, `return document.getElementById("confirm-dialog").open`) {
		do(t, p, click("#confirm-ok"))
	}
	p.WaitFor(t, `document.getElementById("scenario-summary").textContent.includes(" 0 of ") && !document.getElementById("scenario-run-btn").disabled`)
	showScenarios(t, p)
	do(t, p, click("#scenario-run-btn"))
	p.WaitFor(t, `(() => { const m = document.getElementById("scenario-summary").textContent.match(/(\d+) of (\d+) steps run/); return m && m[1] === m[2] && !document.body.classList.contains("busy"); })()`)
	return text(t, p, "#scenario-summary")
}

// TestScenariosPass runs, with the page's Run all, every built-in scenario
// that is not an exercise (TestExercisesSolvable runs those), S3's
// lifecycle among them, and requires every acceptance check to pass.
// make check-scenarios plays every one of them under Node besides.
func TestScenariosPass(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	waitReady(t, p)
	names := chrome.Eval[[]string](t, p, `const { loadScenarios } = await import("./app/scenarios.js");
		return (await loadScenarios()).scenarios.filter((s) => !s.task).map((s) => s.name);`)
	for _, want := range []string{"worked-example", "worked-example-terminal", "suspended-expiry", "unversioned-expiry", "overlapping-rules",
		"chapter-vs-s3", "s3-days-midnight", "s3-noncurrent-days", "s3-newer-noncurrent", "s3-abort-upload", "s3-transitions", "s3-filters",
		"s3-expiration-date", "s3-precedence", "s3-validation"} {
		if !slices.Contains(names, want) {
			t.Fatalf("scenarios %v lack %s", names, want)
		}
	}
	for _, name := range names {
		summary := runScenario(t, p, name)
		if !strings.Contains(summary, "the store did what each step expects") || strings.Contains(summary, "not met") {
			t.Errorf("scenario %s: %q", name, summary)
			t.Logf("steps: %s", text(t, p, "#scenario-steps"))
		}
		if n := chrome.Eval[int](t, p, `return document.querySelectorAll("#scenario-steps .checks li.fail").length`); n != 0 {
			t.Errorf("scenario %s: %d failed checks", name, n)
		}
		shot(t, p, "scenario-"+name)
	}
	noCSPViolations(t, p)
}

// TestShareLinkRoundTrip checks that a share link restores the stacks, the
// clock, the rules and the history exactly, in a fresh in-memory store.
func TestShareLinkRoundTrip(t *testing.T) {
	t.Parallel()
	base := site(t)
	p := open(t, base+"/", 1280, 800)
	waitReady(t, p)
	runScenario(t, p, "overlapping-rules")
	act(t, p, typeInto("#obj-key", "notes/a b.txt"), typeInto("#obj-body", "ünïcödé ✓"), click("#put-btn"))
	setClock(t, p, "14.999")
	do(t, p, click("#add-rule-btn"), typeInto("#rule-2-id", "edited"), typeInto("#rule-2-noncurrent", "0"))
	// The preview follows the rules once the store has answered.
	p.WaitFor(t, `!document.body.classList.contains("busy")`)

	type view struct {
		Stacks  string
		Clock   string
		Rules   []string
		History int
		Bucket  string
	}
	read := func(p *chrome.Page) view {
		return chrome.Eval[view](t, p, `return {
			Stacks: [...document.querySelectorAll("#stacks li.entry")].map((li) => li.dataset.key + " " + li.className + " " + li.querySelector(".entry-meta").textContent).join("\n"),
			Clock: document.getElementById("clock-now").textContent,
			Rules: [...document.querySelectorAll("#rules input")].map((i) => i.id + "=" + i.value),
			History: document.querySelectorAll("#history > li").length,
			Bucket: document.getElementById("bucket-select").value,
		}`)
	}
	before := read(p)
	do(t, p, click("#share-btn"))
	p.WaitFor(t, `document.getElementById("share-dialog").open`)
	link := chrome.Eval[string](t, p, `return document.getElementById("share-url").value`)
	if !strings.HasPrefix(link, base+"/#s=") {
		t.Fatalf("share link %q", link)
	}
	do(t, p, click(`#share-dialog button[value="close"]`))

	q := open(t, link, 1024, 768)
	waitReady(t, q)
	q.WaitFor(t, `document.getElementById("status").textContent.startsWith("Restored")`)
	after := read(q)
	if after.Stacks != before.Stacks || after.Clock != before.Clock || after.History != before.History || after.Bucket != before.Bucket {
		t.Errorf("restored view differs:\nbefore %+v\nafter  %+v", before, after)
	}
	if strings.Join(after.Rules, ",") != strings.Join(before.Rules, ",") {
		t.Errorf("restored rules %v, want %v", after.Rules, before.Rules)
	}
	if got := text(t, q, "#storage-mode"); !strings.Contains(got, "memory") {
		t.Errorf("a share link must open in memory, storage says %q", got)
	}
	shot(t, q, "share-restored")

	// Reset asks first, then empties the playground.
	do(t, q, click("#reset-btn"))
	q.WaitFor(t, `document.getElementById("confirm-dialog").open`)
	do(t, q, click("#confirm-ok"))
	q.WaitFor(t, `document.getElementById("status").textContent.includes("empty again")`)
	if n := len(stacks(t, q)); n != 0 || text(t, q, "#clock-now") != "0" {
		t.Errorf("after reset: %d stacks, clock %s", n, text(t, q, "#clock-now"))
	}
}

// TestStoreDownloadStartsEarlyAndOnce checks that the playground starts the
// store from the document's head (app/preload.js imports minis3.js) before
// main.js's own imports have loaded, rather than when main.js runs after
// them, and that minis3.wasm's body is then fetched once, by minis3.js. (TestEmbed
// checks that an embed does not start it.)
func TestStoreDownloadStartsEarlyAndOnce(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/index.html", 1280, 800)
	waitReady(t, p)
	modules := appModules(t)
	got := chrome.Eval[struct {
		Wasm          []string
		Imports       int
		Loader        float64
		ImportsLoaded float64
	}](t, p, `const res = performance.getEntriesByType("resource");
		const imports = res.filter((r) => /\/app\/.+\.js$/.test(r.name) && !/\/app\/(preload|main)\.js$/.test(r.name));
		// The offline worker's registration also asks for the wasm's
		// validator with a HEAD, which has no body.
		return { Wasm: res.filter((r) => r.name.endsWith("/minis3.wasm") && r.decodedBodySize > 0).map((r) => r.initiatorType),
			Imports: imports.length, Loader: res.find((r) => r.name.endsWith("/minis3.js")).startTime,
			ImportsLoaded: Math.max(...imports.map((r) => r.responseEnd)) };`)
	if len(got.Wasm) != 1 || got.Wasm[0] != "fetch" {
		t.Errorf("minis3.wasm requests by initiator: %q, want one, from minis3.js's fetch", got.Wasm)
	}
	if got.Imports != len(modules)-2 || got.Loader >= got.ImportsLoaded {
		t.Errorf("minis3.js requested at %.0f ms, main.js's %d imports loaded at %.0f ms: want it requested before", got.Loader, got.Imports, got.ImportsLoaded)
	}
}

// appModules lists the page's modules: the files under static/app/.
func appModules(t *testing.T) []string {
	t.Helper()
	app := filepath.Join(chrome.RepoRoot(t), "static", "app")
	var modules []string
	err := filepath.WalkDir(app, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".js") {
			modules = append(modules, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return modules
}

// TestIndexedDBWarmedWhileWasmLoads checks that app/preload.js asks
// IndexedDB for its databases (which sets up the profile's IndexedDB
// storage and creates nothing) before minis3.wasm has arrived, and before
// the store opens its database: on a first visit that takes the setting up
// of IndexedDB off the time to open the store.
func TestIndexedDBWarmedWhileWasmLoads(t *testing.T) {
	t.Parallel()
	p := chrome.Launch(t).Open(t, "about:blank")
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	const watch = `(() => {
		const calls = [];
		Object.defineProperty(window, "__idbCalls", { value: calls });
		for (const name of ["databases", "open"]) {
			const original = IDBFactory.prototype[name];
			IDBFactory.prototype[name] = function (...args) {
				calls.push({ name, at: performance.now() });
				return original.apply(this, args);
			};
		}
	})();`
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: watch}); err != nil {
		t.Fatalf("installing the watcher: %v", err)
	}
	p.Navigate(t, site(t)+"/index.html")
	waitReady(t, p)
	got := chrome.Eval[struct {
		Calls []struct {
			Name string
			At   float64
		}
		WasmEnd float64
	}](t, p, `return { Calls: window.__idbCalls,
		WasmEnd: performance.getEntriesByType("resource").find((r) => r.name.endsWith("/minis3.wasm")).responseEnd };`)
	if len(got.Calls) == 0 || got.Calls[0].Name != "databases" || got.Calls[0].At >= got.WasmEnd {
		t.Fatalf("IndexedDB calls %+v, minis3.wasm received at %.0f ms: want databases() first, before the wasm arrived", got.Calls, got.WasmEnd)
	}
	if dbs := chrome.Eval[[]string](t, p, `return (await indexedDB.databases()).map((d) => d.name);`); len(dbs) != 1 || dbs[0] != "playground" {
		t.Errorf("databases after the load: %q, want only the playground's", dbs)
	}
}

// TestAppShownWithItsFirstRender checks that the playground shows its app
// in the same task as its first render, with what the store holds: shown
// before the store was read, the browser laid out and painted an empty app
// while it waited (and a reader saw it), then did it all again with the
// data. A watcher installed before the page's scripts records what the
// page held when #app was first shown.
func TestAppShownWithItsFirstRender(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/index.html", 1280, 800)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "kept"), click("#create-bucket-form button[type=submit]"))
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	const watch = `(() => {
		new MutationObserver((records, observer) => {
			const app = document.getElementById("app");
			if (!app || app.hidden) return;
			observer.disconnect();
			window.__shown = { renders: performance.getEntriesByName("minis3:render", "measure").length,
				loaderHidden: document.getElementById("loader").hidden,
				buckets: document.getElementById("bucket-select").value };
		}).observe(document, { subtree: true, attributes: true, attributeFilter: ["hidden"] });
	})();`
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: watch}); err != nil {
		t.Fatalf("installing the watcher: %v", err)
	}
	p.Reload(t)
	waitReady(t, p)
	got := chrome.Eval[*struct {
		Renders      int
		LoaderHidden bool
		Buckets      string
	}](t, p, `return window.__shown ?? null;`)
	if got == nil {
		t.Fatal("the watcher never saw #app shown")
	}
	if got.Renders != 1 || !got.LoaderHidden || got.Buckets != "kept" {
		t.Errorf("when #app was shown: %d renders, loader hidden %t, selected bucket %q; want the first render done, the loader hidden and bucket kept selected",
			got.Renders, got.LoaderHidden, got.Buckets)
	}
}

// TestChosenBucketKeptAcrossReload chooses a bucket in the Selected menu
// alone, without a step on it, and reloads: the playground shows that
// bucket again, not the one its last step used.
func TestChosenBucketKeptAcrossReload(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	for _, b := range []string{"first", "second"} {
		act(t, p, typeInto("#new-bucket", b), click("#create-bucket-form button[type=submit]"))
	}
	if got := chrome.Eval[string](t, p, `return document.getElementById("bucket-select").value`); got != "second" {
		t.Fatalf("after creating it the page selects %q, want second", got)
	}
	do(t, p, chromedp.Focus("#bucket-select"), chromedp.KeyEvent(kb.ArrowUp))
	p.WaitFor(t, `document.getElementById("stacks").textContent.includes("Bucket first holds") && !document.body.classList.contains("busy")`)
	p.Reload(t)
	waitReady(t, p)
	if got := chrome.Eval[string](t, p, `return document.getElementById("bucket-select").value`); got != "first" {
		t.Errorf("after a reload the page selects %q, want first, the bucket chosen in the menu", got)
	}
}

// TestEmbed checks embed mode: nothing loads before the click, the scenario
// loads after it, hidden panels stay hidden, and two embeds on one page keep
// separate stores.
func TestEmbed(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/test/embed.html", 1280, 900)
	noDialogs(t, p)
	frame := func(id string) string { return `document.getElementById("` + id + `").contentDocument` }
	for _, id := range []string{"a", "b"} {
		p.WaitFor(t, frame(id)+`?.getElementById("load-btn") && !`+frame(id)+`.getElementById("load-btn").hidden`)
	}
	if got := chrome.Eval[bool](t, p, `return [...document.querySelectorAll("iframe")].some((f) =>
		f.contentWindow.minis3 !== undefined ||
		f.contentWindow.performance.getEntriesByType("resource").some((r) => r.name.endsWith(".wasm")))`); got {
		t.Fatal("an embed fetched or started the wasm before the click")
	}
	shot(t, p, "embed-click-to-load")

	clickIn := func(id, sel string) {
		t.Helper()
		chrome.Eval[bool](t, p, ``+frame(id)+`.querySelector(`+quote(sel)+`).click(); return true`)
	}
	clickIn("a", "#load-btn")
	p.WaitFor(t, frame("a")+`.body.dataset.ready === "true"`)
	p.WaitFor(t, frame("a")+`.getElementById("scenario-summary").textContent.includes("0 of ")`)
	if got := chrome.Eval[string](t, p, `return `+frame("a")+`.getElementById("scenario-summary").textContent`); !strings.Contains(got, "inclusive boundary") {
		t.Errorf("embed a shows scenario %q, want the boundary exercise", got)
	}
	if got := chrome.Eval[bool](t, p, `const d = `+frame("a")+`; return d.getElementById("http-panel").hidden && d.getElementById("history-panel").hidden`); !got {
		t.Error("hide=http,history must hide those panels")
	}
	clickIn("a", "#scenario-run-btn")
	p.WaitFor(t, `(() => { const m = `+frame("a")+`.getElementById("scenario-summary").textContent.match(/(\d+) of (\d+) steps run/); return m && m[1] === m[2]; })()`)
	if got := chrome.Eval[string](t, p, `return `+frame("a")+`.getElementById("scenario-summary").textContent`); !strings.Contains(got, "the store did what each step expects") {
		t.Errorf("embed a: %q", got)
	}

	clickIn("b", "#load-btn")
	p.WaitFor(t, frame("b")+`.body.dataset.ready === "true" && !`+frame("b")+`.body.classList.contains("busy")`)
	got := chrome.Eval[string](t, p, `const d = `+frame("b")+`; return d.getElementById("scenario-summary").textContent + " | " + d.getElementById("stacks").textContent`)
	if !strings.Contains(got, "0 of ") || strings.Contains(got, "logs/app.log") {
		t.Errorf("embed b sees embed a's data: %q", got)
	}
	shot(t, p, "embed-loaded")
}

// TestTimeAxisDrawnWhenInView loads a bucket whose stacks push the time
// axis out of view: the first render leaves the axis undrawn, and scrolling
// to it, printing, or the placeholder's "Draw it now" (by Enter, or by
// tabbing onto it) draws a row for every version. With the page short
// enough, the axis is drawn without scrolling (TestWorkedExampleByHand
// reads it).
func TestTimeAxisDrawnWhenInView(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 600)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "demo"), click("#create-bucket-form button[type=submit]"))
	const keys = 12
	for i := range keys {
		act(t, p, typeInto("#obj-key", fmt.Sprintf("k/%02d", i)), typeInto("#obj-body", "x"), click("#put-btn"))
	}
	rows := func() int {
		return chrome.Eval[int](t, p, `return document.querySelectorAll("#timeline .tl-group .tl-row").length`)
	}
	// Drawn while the page was short, and kept up to date since.
	if n := rows(); n != keys {
		t.Fatalf("before the reload the time axis shows %d rows, want %d", n, keys)
	}

	p.Reload(t)
	waitReady(t, p)
	if n := chrome.Eval[int](t, p, `return document.querySelectorAll("#stacks li.entry").length`); n != keys {
		t.Fatalf("after the reload the stacks show %d versions, want %d", n, keys)
	}
	if below := chrome.Eval[bool](t, p, `return document.getElementById("timeline-panel").getBoundingClientRect().top > 1.5 * innerHeight`); !below {
		t.Fatal("the time axis is not out of view after the reload: the test needs more keys")
	}
	if n, got := rows(), text(t, p, "#timeline"); n != 0 || !strings.Contains(got, "drawn when it scrolls into view") {
		t.Errorf("out of view, the time axis shows %d rows and %q; want none and the placeholder", n, got)
	}
	do(t, p, chromedp.ScrollIntoView("#timeline-panel"))
	p.WaitFor(t, `document.querySelectorAll("#timeline .tl-group .tl-row").length === `+strconv.Itoa(keys))
	shot(t, p, "time-axis-in-view")

	// Printing draws it too, without scrolling.
	p.Reload(t)
	waitReady(t, p)
	if n := rows(); n != 0 {
		t.Fatalf("after another reload the time axis shows %d rows out of view, want none", n)
	}
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, cdppage.PrintToPDF, cdppage.PrintToPDFParams{}); err != nil {
		t.Fatalf("print to PDF: %v", err)
	}
	if n := rows(); n != keys {
		t.Errorf("printing drew %d time axis rows, want %d", n, keys)
	}

	// Whoever reaches the placeholder without scrolling (a screen reader's
	// cursor) has a button that draws the axis and takes them to it.
	p.Reload(t)
	waitReady(t, p)
	if n := rows(); n != 0 {
		t.Fatalf("after a third reload the time axis shows %d rows out of view, want none", n)
	}
	chrome.Eval[bool](t, p, `document.getElementById("timeline-draw").focus({ preventScroll: true }); return true`)
	do(t, p, chromedp.KeyEvent(kb.Enter))
	p.WaitFor(t, `document.querySelectorAll("#timeline .tl-group .tl-row").length === `+strconv.Itoa(keys))
	if got := chrome.Eval[string](t, p, `return document.activeElement.id`); got != "timeline" {
		t.Errorf("after Draw it now, focus is on %q, want the time axis", got)
	}

	// Tabbing onto the button scrolls it into view, which draws the axis
	// and removes the button: focus must go to the axis, not be lost.
	p.Reload(t)
	waitReady(t, p)
	chrome.Eval[bool](t, p, `const all = [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")]
		.filter((e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0);
		all[all.indexOf(document.getElementById("timeline-draw")) - 1].focus({ preventScroll: true });
		return true`)
	do(t, p, chromedp.KeyEvent(kb.Tab))
	p.WaitFor(t, `document.querySelectorAll("#timeline .tl-group .tl-row").length === `+strconv.Itoa(keys))
	if got := chrome.Eval[string](t, p, `return document.activeElement.id`); got != "timeline" {
		t.Errorf("after tabbing onto Draw it now, focus is on %q, want the time axis", got)
	}
}

// TestSizeAndETagOnOpen opens a version's "size and ETag" (built only when
// first opened) with the mouse and with the keyboard, and checks what it
// shows: the body's size and MD5, also when a re-render builds it again;
// the button says whether it is expanded and which list it controls, and
// closes its list again.
func TestSizeAndETagOnOpen(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "demo"), click("#create-bucket-form button[type=submit]"))
	act(t, p, typeInto("#obj-key", "a.txt"), typeInto("#obj-body", "hello"), click("#put-btn"))
	act(t, p, typeInto("#obj-key", "b.txt"), typeInto("#obj-body", "hello, world"), click("#put-btn"))
	toggle := func(key string) string { return `#stacks li.entry[data-key="` + key + `"] button.disclose` }
	shown := func(key string) string {
		return chrome.Eval[string](t, p, `const b = document.querySelector(`+quote(toggle(key))+`);
			const list = document.getElementById(b.getAttribute("aria-controls") || "");
			const expanded = b.getAttribute("aria-expanded");
			if (!list) return expanded === "false" ? "closed " : "expanded " + expanded + " without a list";
			if (list.previousElementSibling !== b) return "the list is not after its button";
			return (expanded === "true" && !list.hidden ? "open " : expanded === "false" && list.hidden ? "closed " : "expanded " + expanded + ", hidden " + list.hidden + " ") +
				(list.hidden ? "" : [...list.querySelectorAll("dd")].map((x) => x.textContent).join(" "));`)
	}
	if got := shown("a.txt"); got != "closed " {
		t.Fatalf("before opening, a.txt's details show %q", got)
	}
	do(t, p, click(toggle("a.txt")))
	if got, want := shown("a.txt"), "open 5 bytes 5d41402abc4b2a76b9719d911017c592"; got != want {
		t.Errorf("after a click: %q, want %q", got, want)
	}
	do(t, p, chromedp.Focus(toggle("b.txt")), chromedp.KeyEvent(kb.Enter))
	p.WaitFor(t, `document.querySelector(`+quote(toggle("b.txt"))+`).getAttribute("aria-expanded") === "true"`)
	if got, want := shown("b.txt"), "open 12 bytes e4d7f1b4ed2e42d15898f4b27b019da4"; got != want {
		t.Errorf("after Enter: %q, want %q", got, want)
	}
	do(t, p, chromedp.KeyEvent(" "))
	p.WaitFor(t, `document.querySelector(`+quote(toggle("b.txt"))+`).getAttribute("aria-expanded") === "false"`)
	if got := shown("b.txt"); got != "closed " {
		t.Errorf("after Space: %q, want it closed", got)
	}
	// A new PUT replaces a.txt's null version: its view is built again,
	// still open, with the new body's size and ETag.
	act(t, p, typeInto("#obj-key", "a.txt"), typeInto("#obj-body", "hello!!"), click("#put-btn"))
	if got, want := shown("a.txt"), "open 7 bytes 81d95db337a18c65384d35ba7ea2efda"; got != want {
		t.Errorf("after the view was built again: %q, want %q", got, want)
	}
	shot(t, p, "size-and-etag")
	do(t, p, click(toggle("a.txt")))
	act(t, p, typeInto("#obj-key", "a.txt"), typeInto("#obj-body", "hello?"), click("#put-btn"))
	if got := shown("a.txt"); got != "closed " {
		t.Errorf("closed, then built again: %q, want it closed", got)
	}
	noCSPViolations(t, p)
}

// TestHostileKeyIsText puts a key and a body made of HTML and checks that
// the page shows their characters and never interprets them.
func TestHostileKeyIsText(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	const key = `<img src=x onerror=alert(1)>`
	const body = `<script>alert(2)</script><b>bold</b>`
	act(t, p, typeInto("#new-bucket", "xss"), click("#create-bucket-form button[type=submit]"))
	act(t, p, typeInto("#obj-key", key), typeInto("#obj-body", body), click("#put-btn"))
	act(t, p, click("#get-btn"))
	if got := chrome.Eval[string](t, p, `return document.querySelector("#stacks .stack-key code").textContent`); got != key {
		t.Errorf("stack key shows %q, want %q", got, key)
	}
	if got := chrome.Eval[string](t, p, `return document.querySelector("#result pre.body").textContent`); got != body {
		t.Errorf("GET body shows %q, want %q", got, body)
	}
	if n := chrome.Eval[int](t, p, `return document.querySelectorAll("#app img, #app script, #app b").length`); n != 0 {
		t.Errorf("%d elements were made from data", n)
	}
	if got := text(t, p, "#history"); !strings.Contains(got, key) {
		t.Errorf("history %q should show the key as text", got)
	}
	shot(t, p, "hostile-key")
	noCSPViolations(t, p)
}

// TestErrorsExplained checks that invalid rules are explained inline and
// that an S3 error shows its code with a plain-words meaning.
func TestErrorsExplained(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "errs"), click("#create-bucket-form button[type=submit]"))
	do(t, p, click("#add-rule-btn"), typeInto("#rule-0-current", "-1"))
	p.WaitFor(t, `!document.getElementById("rule-0-current-error").hidden`)
	if got := text(t, p, "#rule-0-current-error"); !strings.Contains(got, "negative") {
		t.Errorf("negative threshold explained as %q", got)
	}
	if !chrome.Eval[bool](t, p, `return document.getElementById("tick-btn").disabled`) {
		t.Error("tick must be disabled while a rule is invalid")
	}
	do(t, p, typeInto("#rule-0-current", ""))
	p.WaitFor(t, `!document.getElementById("rule-0-rule-error").hidden`)
	if got := text(t, p, "#rule-0-rule-error"); !strings.Contains(got, "at least one threshold") {
		t.Errorf("rule without thresholds explained as %q", got)
	}
	// 0 is a valid threshold, unlike empty.
	do(t, p, typeInto("#rule-0-noncurrent", "0"))
	p.WaitFor(t, `!document.getElementById("tick-btn").disabled`)

	act(t, p, typeInto("#obj-key", "k"), typeInto("#obj-version", "v00000009"), click("#get-btn"))
	if got := text(t, p, "#result"); !strings.Contains(got, "NoSuchVersion") && !strings.Contains(got, "InvalidArgument") {
		t.Errorf("GET of a version in an unversioned bucket: %q", got)
	}
	// Multipart: every part but the last must reach the page's 5-byte minimum.
	act(t, p, typeInto("#mp-key", "big/file"), typeInto("#mp-parts", "hello\nworld\n!"), click("#multipart-form button[type=submit]"))
	if got := text(t, p, "#result"); !strings.Contains(got, "stored as version \u2068null\u2069") {
		t.Errorf("multipart result %q", got)
	}
	if got := text(t, p, "#http"); strings.Count(got, "partNumber=") != 3 || !strings.Contains(got, "CompleteMultipartUpload") {
		t.Errorf("multipart HTTP %q should show three parts and the completion", got)
	}
	act(t, p, typeInto("#mp-parts", "hi\nthere"), click("#multipart-form button[type=submit]"))
	if got := text(t, p, "#result"); !strings.Contains(got, "EntityTooSmall") || !strings.Contains(got, "minimum part size") {
		t.Errorf("too-small multipart result %q", got)
	}
	act(t, p, typeInto("#obj-key", "big/file"), typeInto("#obj-version", ""), click("#get-btn"))
	if got := text(t, p, "#result pre.body"); got != "helloworld!" {
		t.Errorf("multipart object body %q, want helloworld!", got)
	}

	// Keyboard only: type a bucket name and press Enter.
	do(t, p, chromedp.Focus("#new-bucket"), typeInto("#new-bucket", "Bad_Name"), chromedp.KeyEvent("\r"))
	p.WaitFor(t, `document.getElementById("bucket-result").textContent.includes("InvalidBucketName")`)
	if got := text(t, p, "#bucket-result"); !strings.Contains(got, "lowercase") {
		t.Errorf("InvalidBucketName explained as %q", got)
	}
}

// TestViews screenshots the page narrow and in the dark theme.
func TestViews(t *testing.T) {
	t.Parallel()
	base := site(t)
	p := open(t, base+"/", 390, 844)
	waitReady(t, p)
	runScenario(t, p, "worked-example")
	if w := chrome.Eval[int](t, p, `return document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen", w)
	}
	shot(t, p, "narrow")

	d := open(t, base+"/", 1280, 800)
	ctx, cancel := context.WithTimeout(d.Context(), chrome.EvalTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	}); err != nil {
		t.Fatal(err)
	}
	waitReady(t, d)
	runScenario(t, d, "suspended-expiry")
	if bg := chrome.Eval[string](t, d, `return getComputedStyle(document.body).backgroundColor`); bg == "rgb(246, 247, 249)" {
		t.Errorf("dark theme not applied: body background %s", bg)
	}
	shot(t, d, "dark")
}
