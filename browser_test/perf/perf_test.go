//go:build !js

// Package perf benchmarks the playground page (static/) in headless
// Chromium: cold load to interactive, a render of a bucket of 1,000
// versions, and a lifecycle preview plus tick with the re-render after each;
// and (load_test.go) a course page of five embeds and the two ways of
// compiling the wasm, each as a reader's first and second visit.
//
// The figures are the page's own performance measures (static/app/: main.js,
// view.js, runner.js): "minis3:load" from navigation start to the first
// render with every control wired, "minis3:render" for one renderAll,
// "minis3:preview" and "minis3:tick" for those steps including the refresh
// after them. Each benchmark also reports a "frame" figure: the same work
// until the next frame after it, so that style, layout and paint count too.
// They are benchmarks, never tests with timing assertions: run them with
//
//	go test -run '^$' -bench . -benchtime 5x ./browser_test/perf/
package perf

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"minis3/browser_test/chrome"
)

// Shape of the seeded bucket: keys × versions data versions.
const (
	seedKeys     = 100
	seedVersions = 10
)

// bench is a served playground and a browser to load it in.
type bench struct {
	url  string
	root *chrome.Page // a blank tab: new browser contexts are made from it
}

// setup serves static/ (with a fresh wasm build) and the seed page over
// loopback, and starts Chromium.
func setup(b *testing.B) *bench {
	b.Helper()
	url := chrome.Serve(b, chrome.Mounts{
		"/":      chrome.Static(b),
		"/perf/": "testdata",
	}, nil).URL
	return &bench{url: url, root: chrome.Launch(b).Open(b, "about:blank")}
}

// freshTab opens a tab in a new browser context: its own empty HTTP cache,
// code cache and IndexedDB, as for a first visit. cancel closes the tab and
// disposes of the context.
func (s *bench) freshTab(b *testing.B) (ctx context.Context, cancel func()) {
	b.Helper()
	ctx, cancel = chromedp.NewContext(s.root.Context(), chromedp.WithNewBrowserContext())
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		b.Fatalf("new browser context: %v", err)
	}
	return ctx, cancel
}

// navigate loads path of the served site in the tab and waits for the load
// event.
func (s *bench) navigate(b *testing.B, ctx context.Context, path string) {
	b.Helper()
	tctx, cancel := context.WithTimeout(ctx, chrome.EvalTimeout)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(s.url+path)); err != nil {
		b.Fatalf("navigate to %s: %v", path, err)
	}
}

// eval runs body as an async function in the tab and decodes its JSON
// result into a T.
func eval[T any](b *testing.B, ctx context.Context, body string) T {
	b.Helper()
	tctx, cancel := context.WithTimeout(ctx, chrome.EvalTimeout)
	defer cancel()
	expr := "(async () => JSON.stringify(await (async () => {\n" + body + "\n})()))()"
	raw, err := chromedp.Run(tctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatalf("javascript: %v\n%s", err, body)
	}
	var out T
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		b.Fatalf("decoding %s: %v", raw, err)
	}
	return out
}

// Helpers the page-side scripts share: waitFor polls a condition every
// macrotask; settled waits for the page's job queue to be idle;
// nextFrame resolves after the next frame has been produced.
const helpers = `
const waitFor = (cond) => new Promise((resolve, reject) => {
  const until = performance.now() + 60000;
  const poll = () => cond() ? resolve() : performance.now() > until ? reject(new Error("timed out")) : setTimeout(poll, 0);
  poll();
});
const idle = () => document.body.dataset.ready === "true" && !document.body.classList.contains("busy");
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const measured = (name) => performance.getEntriesByName(name, "measure").length > 0;
const duration = (name) => performance.getEntriesByName(name, "measure").at(-1).duration;
`

// waitReady waits until the playground has started and is idle.
func waitReady(b *testing.B, ctx context.Context) {
	b.Helper()
	eval[bool](b, ctx, helpers+`await waitFor(idle); return true;`)
}

// seeded opens a fresh tab whose playground database holds bucket "bench"
// of seedKeys×seedVersions versions, and loads the playground in it.
func (s *bench) seeded(b *testing.B) (ctx context.Context, cancel func()) {
	b.Helper()
	ctx, cancel = s.freshTab(b)
	s.navigate(b, ctx, "/perf/seed.html")
	n := eval[int](b, ctx, fmt.Sprintf(`
		const until = performance.now() + 60000;
		while (typeof seed !== "function" && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
		return await seed(%d, %d);`, seedKeys, seedVersions))
	if n != seedKeys*seedVersions {
		cancel()
		b.Fatalf("seeded %d versions, want %d", n, seedKeys*seedVersions)
	}
	s.navigate(b, ctx, "/index.html")
	waitReady(b, ctx)
	if rows := eval[int](b, ctx, `return document.querySelectorAll("#stacks li.entry").length;`); rows != n {
		cancel()
		b.Fatalf("the page shows %d versions, want %d", rows, n)
	}
	return ctx, cancel
}

// BenchmarkPageColdLoad loads the empty playground in a new browser context
// (empty HTTP cache, code cache and IndexedDB) over loopback HTTP, until it
// is interactive. Budget: load-ms ≤ 1,000. The other metrics are the page's
// marks, in ms from navigation start: the wasm requested and received
// (resource timing), fetched and compiled, the Go program started, the
// IndexedDB store open.
func BenchmarkPageColdLoad(b *testing.B) {
	s := setup(b)
	type marks struct{ Load, Requested, Received, Compiled, GoReady, StoreOpen float64 }
	var sum marks
	for b.Loop() {
		ctx, cancel := s.freshTab(b)
		s.navigate(b, ctx, "/index.html")
		waitReady(b, ctx)
		m := eval[marks](b, ctx, helpers+`
			const mark = (name) => performance.getEntriesByName(name, "mark")[0].startTime;
			const wasm = performance.getEntriesByName(new URL("minis3.wasm", location.href).href, "resource")[0];
			return { Load: duration("minis3:load"), Requested: wasm.startTime, Received: wasm.responseEnd,
				Compiled: mark("minis3:wasm-compiled"),
				GoReady: mark("minis3:go-ready"), StoreOpen: mark("minis3:store-open") };`)
		cancel()
		sum.Load += m.Load
		sum.Requested += m.Requested
		sum.Received += m.Received
		sum.Compiled += m.Compiled
		sum.GoReady += m.GoReady
		sum.StoreOpen += m.StoreOpen
	}
	n := float64(b.N)
	b.ReportMetric(sum.Load/n, "load-ms")
	b.ReportMetric(sum.Requested/n, "wasm-requested-ms")
	b.ReportMetric(sum.Received/n, "wasm-received-ms")
	b.ReportMetric(sum.Compiled/n, "compiled-ms")
	b.ReportMetric(sum.GoReady/n, "go-ready-ms")
	b.ReportMetric(sum.StoreOpen/n, "store-open-ms")
}

// BenchmarkRender1000Versions renders a bucket of 1,000 versions (100 keys
// × 10 versions, stacks and timeline). Every iteration reloads the page:
// its first render builds every view in view from nothing (render-ms, the
// budget figure: ≤ 100, the page's renderAll). The time axis, out of view
// below the stacks, is not drawn then (checked); timeline-ms is its first
// drawing once scrolled into view (1,000 rows, checked). Then it advances the clock by one
// second (the "+1" button), which changes the age shown on every version
// and the time axis's scale: clock-render-ms is that render (the stacks'
// views are kept and only their ages rewritten, the time axis is drawn
// again), step-frame-ms the whole step (the clock request through the
// in-page S3 API, listVersions, the render) until the next frame after it.
func BenchmarkRender1000Versions(b *testing.B) {
	s := setup(b)
	ctx, cancel := s.seeded(b)
	defer cancel()
	var full, timeline, render, frame float64
	for b.Loop() {
		s.navigate(b, ctx, "/index.html")
		waitReady(b, ctx)
		m := eval[struct{ Full, Timeline, Render, Frame float64 }](b, ctx, helpers+`
			const first = performance.getEntriesByName("minis3:render", "measure");
			if (first.length !== 1 || document.querySelectorAll("#stacks li.entry").length !== 1000) {
				throw new Error("after a reload the page rendered " + first.length + " times");
			}
			if (measured("minis3:timeline")) throw new Error("the time axis, out of view, was drawn at load");
			const full = first[0].duration;
			performance.clearMeasures("minis3:render");
			document.getElementById("timeline-panel").scrollIntoView();
			await waitFor(() => measured("minis3:timeline"));
			const rows = document.querySelectorAll("#timeline .tl-group .tl-row").length;
			if (rows !== 1000) throw new Error("the time axis shows " + rows + " version rows, want 1000");
			const timeline = duration("minis3:timeline");
			const start = performance.now();
			document.querySelector(".step-btn[data-step='1']").click();
			await waitFor(() => measured("minis3:render") && idle());
			await nextFrame();
			return { Full: full, Timeline: timeline, Render: duration("minis3:render"), Frame: performance.now() - start };`)
		full += m.Full
		timeline += m.Timeline
		render += m.Render
		frame += m.Frame
	}
	n := float64(b.N)
	b.ReportMetric(full/n, "render-ms")
	b.ReportMetric(timeline/n, "timeline-ms")
	b.ReportMetric(render/n, "clock-render-ms")
	b.ReportMetric(frame/n, "step-frame-ms")
}

// BenchmarkPreviewTickRerender runs a lifecycle preview and then a tick on
// a bucket of 1,000 versions, each with the refresh and re-render after it.
// The rule (noncurrent after 0 s) takes one key's 9 noncurrent versions, a
// different key every iteration, so the bucket shrinks by 9 versions per
// iteration (-benchtime 5x, as make bench runs it: 1,000 to 955 versions;
// at most 100 iterations, one per key). Budget:
// preview-tick-ms ≤ 150 (the page's "minis3:preview" plus "minis3:tick");
// frame-ms is from the preview click until the next frame after the tick.
func BenchmarkPreviewTickRerender(b *testing.B) {
	s := setup(b)
	ctx, cancel := s.seeded(b)
	defer cancel()
	eval[bool](b, ctx, helpers+`
		document.getElementById("add-rule-btn").click();
		const set = (id, value) => {
			const input = document.getElementById(id);
			input.value = value;
			input.dispatchEvent(new Event("input", { bubbles: true }));
		};
		set("rule-0-id", "bench");
		set("rule-0-noncurrent", "0");
		await waitFor(idle);
		// The time axis is drawn once in view; from then on every render
		// redraws it. Scroll to it and back to the stacks, the view the
		// benchmark has always measured from, so that the re-renders
		// include the axis as they did before it was drawn lazily.
		document.getElementById("timeline-panel").scrollIntoView();
		await waitFor(() => measured("minis3:timeline"));
		window.scrollTo(0, 0);
		await nextFrame();
		return true;`)
	var preview, tick, frame float64
	i := 0
	for b.Loop() {
		b.StopTimer()
		key := fmt.Sprintf("k/%03d", i%seedKeys)
		eval[bool](b, ctx, helpers+`
			const input = document.getElementById("rule-0-prefix");
			input.value = `+fmt.Sprintf("%q", key)+`;
			input.dispatchEvent(new Event("input", { bubbles: true }));
			await waitFor(idle);
			await nextFrame();
			performance.clearMeasures();
			return true;`)
		b.StartTimer()
		m := eval[struct {
			Preview, Tick, Frame float64
			Expired              int
		}](b, ctx, helpers+`
			const start = performance.now();
			const before = document.querySelectorAll("#stacks li.entry").length;
			document.getElementById("preview-btn").click();
			await waitFor(() => measured("minis3:preview") && idle());
			document.getElementById("tick-btn").click();
			await waitFor(() => measured("minis3:tick") && idle());
			await nextFrame();
			return { Preview: duration("minis3:preview"), Tick: duration("minis3:tick"), Frame: performance.now() - start,
				Expired: before - document.querySelectorAll("#stacks li.entry").length };`)
		if m.Expired != seedVersions-1 {
			b.Fatalf("iteration %d: the tick removed %d versions, want %d", i, m.Expired, seedVersions-1)
		}
		preview += m.Preview
		tick += m.Tick
		frame += m.Frame
		i++
	}
	n := float64(b.N)
	b.ReportMetric(preview/n, "preview-ms")
	b.ReportMetric(tick/n, "tick-ms")
	b.ReportMetric((preview+tick)/n, "preview-tick-ms")
	b.ReportMetric(frame/n, "frame-ms")
}
