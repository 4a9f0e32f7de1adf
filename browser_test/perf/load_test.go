//go:build !js

package perf

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"minis3/browser_test/chrome"
)

// betweenVisits is how long a first visit stays open after it has worked
// the store: V8 writes compiled wasm code to its cache only once the hot
// functions are optimised and a short timer has run out, which a real first
// visit, minutes long, always allows.
const betweenVisits = 3 * time.Second

// served runs minis3 serve (the real server: its validators, no
// Cache-Control, the wasm in brotli) over static/ with a fresh wasm build
// and the benchmark's pages under /perf/.
func served(b *testing.B) (url string) {
	b.Helper()
	dir := chrome.Static(b)
	chrome.Precompress(b, dir)
	if err := os.MkdirAll(filepath.Join(dir, "perf"), 0o755); err != nil {
		b.Fatal(err)
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("testdata", e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "perf", e.Name()), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return chrome.ServeMinis3(b, dir).URL
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
			page := url + "/perf/compile.html?path=" + path
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
