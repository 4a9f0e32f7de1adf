//go:build !js

package perf

import (
	"context"
	"slices"
	"testing"
	"time"

	"minis3/browser_test/chrome"
)

// betweenVisits is how long a first visit stays open after it has worked
// the store: V8 writes compiled wasm code to its cache only once the hot
// functions are optimised and a short timer has run out, which a real first
// visit, minutes long, always allows.
const betweenVisits = 3 * time.Second

// served runs minis3 serve (the real server: its validators and
// Cache-Control, the wasm in brotli) over static/ with a fresh wasm build,
// behind a course site that serves testdata/ at /course/ on the same
// origin, and returns the site's URL.
func served(b *testing.B) string {
	b.Helper()
	dir := chrome.Static(b)
	chrome.Precompress(b, dir)
	return chrome.ServeMinis3(b, dir).CourseSite(b, "testdata").URL
}

// reader is one reader's browser profile on disk. A visit launches
// Chromium on it and opens url; closing the visit stops the browser, so the
// next visit finds only what the browser kept on disk: its HTTP cache, its
// code cache, IndexedDB and service workers. (A browser context made
// through the DevTools protocol is off the record: V8 keeps no code cache
// for it.)
type reader struct{ profile string }

func newReader(b *testing.B) *reader { return &reader{profile: b.TempDir()} }

func (r *reader) visit(b *testing.B, url string) (ctx context.Context, close func()) {
	b.Helper()
	browser := chrome.LaunchProfile(b, r.profile)
	page := browser.Open(b, url)
	return page.Context(), browser.Close
}

// BenchmarkWasmCompilePaths compares the two ways of compiling minis3.wasm
// (testdata/compile.js) on a first visit and on a second one, as a fresh
// tab of the same browser profile after the first has worked the store:
// from its bytes (WebAssembly.compile) and from the response as it streams
// in (WebAssembly.compileStreaming), which V8's code cache serves on a
// later visit. Metrics in ms from navigation start to the module compiled
// and to the Go program ready, per path and visit. The two paths alternate
// within every iteration, so that a slow moment of the machine falls on
// both.
func BenchmarkWasmCompilePaths(b *testing.B) {
	url := served(b)
	type marks struct{ Compiled, Ready float64 }
	sum := map[string]float64{}
	start := func(ctx context.Context) marks {
		return eval[marks](b, ctx, `return await globalThis.started;`)
	}
	for b.Loop() {
		for _, path := range []string{"bytes", "streaming"} {
			r := newReader(b)
			page := url + "/course/compile.html?path=" + path
			ctx, cancel := r.visit(b, page)
			cold := start(ctx)
			eval[int](b, ctx, `return await globalThis.use();`)
			time.Sleep(betweenVisits)
			cancel()
			ctx, cancel = r.visit(b, page)
			repeat := start(ctx)
			cancel()
			sum["cold-"+path+"-compiled-ms"] += cold.Compiled
			sum["cold-"+path+"-ready-ms"] += cold.Ready
			sum["repeat-"+path+"-compiled-ms"] += repeat.Compiled
			sum["repeat-"+path+"-ready-ms"] += repeat.Ready
		}
	}
	for unit, v := range sum {
		b.ReportMetric(v/float64(b.N), unit)
	}
}

// Page-side helpers of the course benchmark. frames are the embeds of
// course.html; fetched(w) lists the loader files a frame requested;
// capture(w) keeps the wasm instance a frame makes, to read its memory.
const courseHelpers = helpers + `
const frames = () => [...document.querySelectorAll("iframe")].map((f) => f.contentWindow);
const shown = () => frames().every((w) => { const b = w.document.getElementById("load-btn"); return b && !b.hidden; });
const fetched = (w) => w.performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
	.filter((p) => p === "/minis3.wasm");
const capture = (w) => {
	const instantiate = w.WebAssembly.instantiate;
	w.WebAssembly.instantiate = async (...args) => {
		const made = await instantiate.apply(w.WebAssembly, args);
		w.__instance = made.instance ?? made;
		return made;
	};
};
const ready = (w) => w.document.body.dataset.ready === "true" && !w.document.body.classList.contains("busy");
const mark = (w, name) => w.performance.getEntriesByName(name, "mark")[0].startTime;
const state = () => frames().map((w) => w.location.href + " " + w.document.readyState + " status: " +
	(w.document.getElementById("status")?.textContent ?? "none") + " " + (w.document.getElementById("loader-error")?.textContent ?? "") +
	" marks: " + w.performance.getEntriesByType("mark").map((m) => m.name).join(",") +
	" fetched: " + w.performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname + "@" + Math.round(e.responseEnd)).join(",")).join("; ");
const until = (cond, what) => new Promise((resolve, reject) => {
	const end = performance.now() + 25000;
	const poll = () => cond() ? resolve() : performance.now() > end ? reject(new Error(what + " timed out; embeds: " + state())) : setTimeout(poll, 0);
	poll();
});
const start = async (w) => {
	const clicked = w.performance.now();
	w.document.getElementById("load-btn").click();
	await until(() => ready(w), "starting an embed");
	return { interactive: mark(w, "minis3:interactive") - clicked,
		goStart: mark(w, "minis3:go-ready") - mark(w, "minis3:wasm-compiled"),
		memory: w.__instance.exports.mem.buffer.byteLength };
};
`

// BenchmarkCourseEmbeds opens a course page with five embeds
// (testdata/course.html) as one reader's first and second visit: each
// visit a new browser on the same profile, served by minis3 serve. On each
// visit it checks that no embed has fetched the wasm before a click
// (wasm-before-click counts the requests: budget 0), then clicks the first
// embed and times it from the click to the embed's "minis3:interactive"
// mark (budgets: cold-interactive-ms <= 1,000, repeat-interactive-ms <=
// 400). go-start-ms is the Go program's start after the module compiled,
// which V8's code cache would shorten. On the first visit it then starts
// the other four embeds and reports the wasm memory of each started embed
// (embed-memory-MB, the mean; embed-memory-max-MB) and the page's
// JavaScript heap with five started (js-heap-MB).
func BenchmarkCourseEmbeds(b *testing.B) {
	url := served(b) + "/course/course.html"
	type started struct{ Interactive, GoStart, Memory float64 }
	type visit struct {
		Before int
		First  started
		Others []started
		JSHeap float64
	}
	sum := map[string]float64{}
	var memories []float64
	for b.Loop() {
		r := newReader(b)
		ctx, closeFirst := r.visit(b, url)
		cold := eval[visit](b, ctx, courseHelpers+`
			await until(shown, "the embeds' load buttons");
			const before = frames().reduce((n, w) => n + fetched(w).length, 0);
			frames().forEach(capture);
			const [first, ...rest] = frames();
			const out = { Before: before, First: await start(first), Others: [] };
			for (const w of rest) out.Others.push(await start(w));
			await first.navigator.serviceWorker.ready;
			out.JSHeap = performance.memory.usedJSHeapSize;
			return out;`)
		time.Sleep(betweenVisits)
		closeFirst()
		ctx, closeSecond := r.visit(b, url)
		repeat := eval[visit](b, ctx, courseHelpers+`
			await until(shown, "the embeds' load buttons");
			const before = frames().reduce((n, w) => n + fetched(w).length, 0);
			frames().forEach(capture);
			return { Before: before, First: await start(frames()[0]), Others: [] };`)
		closeSecond()
		sum["wasm-before-click"] += float64(cold.Before + repeat.Before)
		sum["cold-interactive-ms"] += cold.First.Interactive
		sum["cold-go-start-ms"] += cold.First.GoStart
		sum["repeat-interactive-ms"] += repeat.First.Interactive
		sum["repeat-go-start-ms"] += repeat.First.GoStart
		sum["js-heap-MB"] += cold.JSHeap / 1e6
		for _, s := range append([]started{cold.First}, cold.Others...) {
			memories = append(memories, s.Memory/1e6)
		}
	}
	n := float64(b.N)
	for unit, v := range sum {
		b.ReportMetric(v/n, unit)
	}
	var total float64
	for _, m := range memories {
		total += m
	}
	b.ReportMetric(total/float64(len(memories)), "embed-memory-MB")
	b.ReportMetric(slices.Max(memories), "embed-memory-max-MB")
}
