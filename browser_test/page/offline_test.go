//go:build !js

package page

import (
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"minis3/browser_test/chrome"
)

// courseSite serves the playground (static/ with a fresh wasm build) as
// minis3 serve sends it, and the course page of five embeds that the load
// benchmarks use (browser_test/perf/testdata/course.html) at /course/, on
// one origin. It returns the site and the playground's directory, which a
// test may change as a new build would.
func courseSite(t *testing.T) (*chrome.Site, string) {
	t.Helper()
	dir := chrome.Static(t)
	return chrome.ServeMinis3(t, dir).CourseSite(t, filepath.Join("..", "perf", "testdata")), dir
}

// untilJS runs body (an async function body returning a truthy value when
// done) again and again until it returns one, and returns it; it gives up
// with an error as a WaitFor would. Page.WaitFor polls a plain expression,
// and body needs to await (the worker's registration, its caches).
func untilJS(body string) string {
	return `const until = performance.now() + 30000;
	for (;;) {
		const got = await (async () => {` + body + `})();
		if (got) return got;
		if (performance.now() > until) throw new Error("timed out waiting");
		await new Promise((resolve) => setTimeout(resolve, 50));
	}`
}

// offlineCaches lists the offline worker's caches with the files each
// holds, as paths relative to the site.
const offlineCaches = `
	const out = {};
	for (const name of await caches.keys()) {
		if (!name.startsWith("minis3-offline-")) continue;
		const keys = await (await caches.open(name)).keys();
		out[name] = keys.map((r) => new URL(r.url).pathname);
	}
	return out;`

// waitOffline waits until the offline worker is active and its cache holds
// the wasm, and returns the offline caches.
func waitOffline(t *testing.T, p *chrome.Page) map[string][]string {
	t.Helper()
	return chrome.Eval[map[string][]string](t, p, untilJS(`
		const reg = await navigator.serviceWorker.getRegistration();
		if (!reg || !reg.active) return null;
		const out = await (async () => {`+offlineCaches+`})();
		const names = Object.keys(out);
		return names.length === 1 && out[names[0]].includes("/minis3.wasm") ? out : null;`))
}

// embedFetched lists, for each embed of the course page, the loader files
// (minis3.js, wasm_exec.js, minis3.wasm) its document has requested, each
// once: a started embed also asks for the wasm's validator (a HEAD, for
// the offline worker's build), at a moment of its own.
const embedFetched = fetchedBy + `return fetchedBy((p) => ["/minis3.js", "/wasm_exec.js", "/minis3.wasm"].includes(p));`

// embedScenariosFetched lists, for each embed, the scenario files and the
// scenarios' index its document has requested.
const embedScenariosFetched = fetchedBy + `return fetchedBy((p) => p.startsWith("/scenarios/"));`

// fetchedBy defines fetchedBy(filter), which lists for each embed of the
// course page the paths its document has requested that pass filter.
const fetchedBy = `const fetchedBy = (filter) => {
	const out = {};
	for (const frame of document.querySelectorAll("iframe")) {
		out[frame.id] = [...new Set(frame.contentWindow.performance.getEntriesByType("resource")
			.map((e) => new URL(e.name).pathname).filter(filter))];
	}
	return out;
};`

// waitEmbedsShown waits until every embed of the course page offers its
// load button.
func waitEmbedsShown(t *testing.T, p *chrome.Page) {
	t.Helper()
	p.WaitFor(t, `[...document.querySelectorAll("iframe")].every((f) => {
		const b = f.contentDocument && f.contentDocument.getElementById("load-btn");
		return b && !b.hidden;
	})`)
}

// TestEmbedsLoadNoWasmUntilClicked opens a course page with five embeds and
// checks that none of them fetches the loader or the wasm, or registers a
// worker that would, until its load button is clicked, and that each
// fetches only its own scenario (for its title); that a click loads that
// embed alone, which then lists every scenario; and that on the next visit,
// with the offline worker in charge, the embeds again fetch nothing until
// clicked.
func TestEmbedsLoadNoWasmUntilClicked(t *testing.T) {
	t.Parallel()
	s, _ := courseSite(t)
	p := open(t, s.URL+"/course/course.html", 1280, 800)
	waitEmbedsShown(t, p)
	none := map[string][]string{"e1": {}, "e2": {}, "e3": {}, "e4": {}, "e5": {}}
	if got := chrome.Eval[map[string][]string](t, p, embedFetched); !equalFetched(got, none) {
		t.Errorf("before any click the embeds fetched %v, want nothing", got)
	}
	own := map[string][]string{"e1": {"/scenarios/worked-example.json"}, "e2": {"/scenarios/exercise-boundary.json"},
		"e3": {"/scenarios/exercise-keep.json"}, "e4": {"/scenarios/suspended-expiry.json"}, "e5": {"/scenarios/overlapping-rules.json"}}
	p.WaitFor(t, `[...document.querySelectorAll("iframe")].every((f) => f.contentDocument.getElementById("loader-title").textContent !== "MiniS3 runs in your browser")`)
	if got := chrome.Eval[map[string][]string](t, p, embedScenariosFetched); !equalFetched(got, own) {
		t.Errorf("before any click the embeds fetched scenarios %v, want each its own alone: %v", got, own)
	}
	if n := chrome.Eval[int](t, p, `return (await navigator.serviceWorker.getRegistrations()).length`); n != 0 {
		t.Errorf("before any click %d service workers are registered, want none", n)
	}

	chrome.Eval[bool](t, p, `document.getElementById("e2").contentDocument.getElementById("load-btn").click(); return true`)
	p.WaitFor(t, `document.getElementById("e2").contentDocument.body.dataset.ready === "true"`)
	want := map[string][]string{"e1": {}, "e2": {"/minis3.js", "/wasm_exec.js", "/minis3.wasm"}, "e3": {}, "e4": {}, "e5": {}}
	if got := chrome.Eval[map[string][]string](t, p, embedFetched); !equalFetched(got, want) {
		t.Errorf("after clicking e2 the embeds fetched %v, want %v", got, want)
	}
	// Once started, the embed lists every scenario in its Scenarios panel.
	p.WaitFor(t, `document.getElementById("e2").contentDocument.getElementById("scenario-select").options.length > 1`)
	listed := chrome.Eval[[]string](t, p, `return [...document.getElementById("e2").contentDocument.querySelectorAll("#scenario-select option")].map((o) => o.value)`)
	index := chrome.Eval[[]string](t, p, `return (await (await fetch("/scenarios/index.json")).json()).scenarios`)
	if !slices.Equal(listed, index) {
		t.Errorf("the started embed lists scenarios %q, want those of scenarios/index.json %q", listed, index)
	}
	if v := chrome.Eval[string](t, p, `return document.getElementById("e2").contentDocument.getElementById("scenario-select").value`); v != "exercise-boundary" {
		t.Errorf("the started embed's Scenarios panel shows %q, want its own scenario exercise-boundary", v)
	}

	waitOffline(t, p)
	p.Reload(t)
	waitEmbedsShown(t, p)
	if !chrome.Eval[bool](t, p, `return [...document.querySelectorAll("iframe")].every((f) => f.contentWindow.navigator.serviceWorker.controller !== null)`) {
		t.Fatal("on the second visit the offline worker does not control the embeds")
	}
	if got := chrome.Eval[map[string][]string](t, p, embedFetched); !equalFetched(got, none) {
		t.Errorf("on the second visit, before any click, the embeds fetched %v, want nothing", got)
	}
}

// TestWasmDownloadedOnceOnNoStoreHost serves the playground as a host
// that forbids caching does (Cache-Control: no-store, so the HTTP cache
// keeps nothing for the offline worker to revalidate) and starts it, as
// an embed with one click and as the playground: the server is asked for
// minis3.wasm once, by the page, and the offline worker's cache holds it
// all the same.
func TestWasmDownloadedOnceOnNoStoreHost(t *testing.T) {
	t.Parallel()
	dir := chrome.Static(t)
	for _, c := range []struct{ name, path string }{
		{"embed", "/?embed=1&scenario=worked-example&frame=once"},
		{"playground", "/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var gets atomic.Int32
			files := http.FileServer(http.Dir(dir))
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Cache-Control", "no-store")
				if r.Method == http.MethodGet && r.URL.Path == "/minis3.wasm" {
					gets.Add(1)
				}
				files.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			p := open(t, srv.URL+c.path, 1280, 800)
			if strings.Contains(c.path, "embed=1") {
				p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
				do(t, p, click("#load-btn"))
			}
			waitReady(t, p)
			waitOffline(t, p)
			if n := gets.Load(); n != 1 {
				t.Errorf("the server was asked for minis3.wasm %d times, want once", n)
			}
		})
	}
}

// keys lists the names of the caches in m.
func keys(m map[string][]string) []string { return slices.Collect(maps.Keys(m)) }

// equalFetched compares what embeds fetched, in any order per embed.
func equalFetched(got, want map[string][]string) bool {
	if len(got) != len(want) {
		return false
	}
	for id, files := range want {
		g := append([]string(nil), got[id]...)
		if len(g) != len(files) {
			return false
		}
		for _, f := range files {
			found := false
			for i, x := range g {
				if x == f {
					g = append(g[:i], g[i+1:]...)
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
	}
	return true
}

// TestOfflineAfterFirstVisit visits the playground once, takes the site
// offline, and checks that the playground reloads with its stored buckets
// and works, and that an embed opens and loads its scenario.
func TestOfflineAfterFirstVisit(t *testing.T) {
	t.Parallel()
	s, _ := courseSite(t)
	p := open(t, s.URL+"/", 1280, 800)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "kept"), click("#create-bucket-form button[type=submit]"))
	caches := waitOffline(t, p)
	for _, files := range caches {
		for _, want := range []string{"/", "/app/main.js", "/app/offline.js", "/style.css", "/minis3.js", "/wasm_exec.js", "/minis3.wasm", "/scenarios/index.json", "/scenarios/worked-example.json"} {
			if !slices.Contains(files, want) {
				t.Errorf("the offline cache lacks %s: %v", want, files)
			}
		}
	}

	s.Close()
	p.Reload(t)
	waitReady(t, p)
	if got := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#bucket-select option")].map((o) => o.value)`); !slices.Contains(got, "kept") {
		t.Errorf("offline, the playground shows buckets %v, want kept among them", got)
	}
	act(t, p, typeInto("#new-bucket", "offline"), click("#create-bucket-form button[type=submit]"))

	p.Navigate(t, s.URL+"/?embed=1&scenario=worked-example&frame=offline")
	p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
	do(t, p, click("#load-btn"))
	waitReady(t, p)
	if n := chrome.Eval[int](t, p, `return document.querySelectorAll("#scenario-steps li").length`); n == 0 {
		t.Error("offline, the embed shows no steps of the worked example")
	}
}

// TestOfflineCacheReplacedOnNewBuild visits the playground, then changes
// the site as a new build does (a new minis3.wasm, a changed style.css) and
// visits again: the offline cache of the new build holds the new files and
// the old build's cache is gone.
func TestOfflineCacheReplacedOnNewBuild(t *testing.T) {
	t.Parallel()
	s, dir := courseSite(t)
	p := open(t, s.URL+"/", 1280, 800)
	waitReady(t, p)
	first := waitOffline(t, p)

	css := filepath.Join(dir, "style.css")
	style, err := os.ReadFile(css)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(css, append(style, "\n/* the second build */\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	for _, f := range []string{css, filepath.Join(dir, "minis3.wasm")} {
		if err := os.Chtimes(f, later, later); err != nil {
			t.Fatal(err)
		}
	}

	p.Reload(t)
	waitReady(t, p)
	second := chrome.Eval[map[string][]string](t, p, untilJS(`
		const out = await (async () => {`+offlineCaches+`})();
		const names = Object.keys(out);
		return names.length === 1 && !`+quote(strings.Join(keys(first), "\n"))+`.split("\n").includes(names[0]) && out[names[0]].includes("/minis3.wasm") ? out : null;`))
	for name := range second {
		text := chrome.Eval[string](t, p, `return await (await (await caches.open(`+quote(name)+`)).match("/style.css")).text()`)
		if !strings.Contains(text, "the second build") {
			t.Errorf("the new build's cache %s holds the old style.css", name)
		}
	}
}

// TestOfflineShellListsEveryFile checks the offline worker's list of the
// app shell (SHELL in static/offline-sw.js) against the playground's
// files: every file the page may load is listed, and every listed file
// exists (one missing file fails the worker's install). Scenarios come
// from scenarios/index.json; index.html is kept as "./"; the precompressed
// copies of the wasm are the same file to the worker; the workers
// themselves are not part of the page.
func TestOfflineShellListsEveryFile(t *testing.T) {
	t.Parallel()
	dir := chrome.Static(t)
	worker, err := os.ReadFile(filepath.Join(dir, "offline-sw.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)const SHELL = \[(.*?)\];`).FindSubmatch(worker)
	if m == nil {
		t.Fatal("no SHELL list in offline-sw.js")
	}
	var listed []string
	for _, q := range regexp.MustCompile(`"([^"]*)"`).FindAllSubmatch(m[1], -1) {
		listed = append(listed, string(q[1]))
	}
	var files []string
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		// The example course pages (examples/) are the host's, not the
		// playground's: a course site keeps its own pages offline. The
		// Node scripts (scenario-check.mjs) run beside the page, not in it.
		case rel == "index.html", rel == "offline-sw.js", rel == "minis3-sw.js",
			strings.HasPrefix(rel, "examples/"), strings.HasSuffix(rel, ".mjs"),
			strings.HasSuffix(rel, ".br"), strings.HasSuffix(rel, ".gz"),
			strings.HasPrefix(rel, "scenarios/") && rel != "scenarios/index.json":
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !slices.Contains(listed, f) {
			t.Errorf("static/%s is not in the offline shell: add it to SHELL in static/offline-sw.js", f)
		}
	}
	for _, f := range listed {
		if f != "./" && !slices.Contains(files, f) {
			t.Errorf("the offline shell lists %s, which static/ does not have: the worker could not install", f)
		}
	}
}

// TestOfflineWorkerLeavesAnotherWorkersScope registers another service
// worker for the playground's directory first, as a web app's tests do
// with minis3-sw.js, and then starts the playground: the playground leaves
// that registration alone (registering its own would replace it), says so
// on the console, and keeps no offline cache.
func TestOfflineWorkerLeavesAnotherWorkersScope(t *testing.T) {
	t.Parallel()
	s, dir := courseSite(t)
	if err := os.WriteFile(filepath.Join(dir, "other-sw.js"), []byte(`self.addEventListener("fetch", () => {});`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := open(t, s.URL+"/course/course.html", 1280, 800)
	chrome.Eval[bool](t, p, `await navigator.serviceWorker.register("/other-sw.js", { scope: "/" }); await navigator.serviceWorker.ready; return true`)

	p.Navigate(t, s.URL+"/")
	waitReady(t, p)
	const notice = "another service worker holds " // offline.js's console message
	deadline := time.Now().Add(chrome.WaitTimeout)
	for !slices.ContainsFunc(p.Console(), func(line string) bool { return strings.Contains(line, notice) }) {
		if time.Now().After(deadline) {
			t.Fatalf("no console notice %q; console: %v", notice, p.Console())
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := chrome.Eval[struct {
		Scripts []string
		Caches  []string
	}](t, p, `const regs = await navigator.serviceWorker.getRegistrations();
		return { Scripts: regs.map((r) => new URL((r.active ?? r.waiting ?? r.installing).scriptURL).pathname),
			Caches: (await caches.keys()).filter((n) => n.startsWith("minis3-offline-")) };`)
	if !slices.Equal(got.Scripts, []string{"/other-sw.js"}) || len(got.Caches) != 0 {
		t.Errorf("registered workers %v and offline caches %v, want only /other-sw.js and no cache", got.Scripts, got.Caches)
	}
}
