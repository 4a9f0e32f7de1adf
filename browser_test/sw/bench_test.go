//go:build !js

package sw_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"minis3/browser_test/chrome"
)

// The service worker's benchmarks (make bench): its cold start, its first
// answer after the browser stopped it, and a small PUT and GET through it
// beside the same through store.fetch in the page. They use plain fetch,
// not the AWS SDK, so that they time MiniS3 alone. Run them with
//
//	go test -run '^$' -bench . -benchtime 5x ./browser_test/sw/

// benchSite serves static/ (with a fresh wasm build) and testdata/, and
// starts Chromium with a blank tab.
func benchSite(b *testing.B) (url string, root *chrome.Page) {
	b.Helper()
	url = chrome.Serve(b, chrome.Mounts{"/": chrome.Static(b), "/test/": "testdata"}, nil).URL
	return url, chrome.Launch(b).Open(b, "about:blank")
}

// run evaluates body as an async function in the tab of ctx and decodes
// its result into a T.
func run[T any](b *testing.B, ctx context.Context, body string) T {
	b.Helper()
	tctx, cancel := context.WithTimeout(ctx, chrome.EvalTimeout)
	defer cancel()
	out, err := chromedp.Run(tctx, chromedp.Evaluate[T]("(async () => {\n"+body+"\n})()", chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatalf("javascript: %v\n%s", err, body)
	}
	return out
}

// register registers the worker with the default endpoint (/s3/) and
// database, and waits until it controls the page.
const register = `
	await navigator.serviceWorker.register("/minis3-sw.js", { type: "module" });
	await navigator.serviceWorker.ready;
	if (!navigator.serviceWorker.controller) {
		await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
	}`

// BenchmarkServiceWorkerColdStart opens a page in a new browser context
// (empty HTTP cache, code cache and IndexedDB; no worker registered) and
// times, in the page, from the call to register to the first S3 answer
// through the worker (ListBuckets). Budget: first-answer-ms ≤ 300.
// controlling-ms is the part until the worker controls the page.
func BenchmarkServiceWorkerColdStart(b *testing.B) {
	url, root := benchSite(b)
	var first, controlling float64
	for b.Loop() {
		ctx, cancel := chromedp.NewContext(root.Context(), chromedp.WithNewBrowserContext())
		if err := chromedp.Do(ctx, chromedp.Navigate(url+"/test/bench.html")); err != nil {
			cancel()
			b.Fatalf("opening the page: %v", err)
		}
		m := run[struct{ First, Controlling float64 }](b, ctx, `
			const start = performance.now();`+register+`
			const controlling = performance.now() - start;
			const res = await fetch("/s3/");
			const body = await res.text();
			if (res.status !== 200 || !body.includes("ListAllMyBucketsResult")) throw new Error("ListBuckets: " + res.status + " " + body);
			return { First: performance.now() - start, Controlling: controlling };`)
		cancel()
		first += m.First
		controlling += m.Controlling
	}
	n := float64(b.N)
	b.ReportMetric(first/n, "first-answer-ms")
	b.ReportMetric(controlling/n, "controlling-ms")
}

// BenchmarkServiceWorkerIdleRestart stops the worker as the browser stops
// an idle one (the DevTools protocol's ServiceWorker.stopAllWorkers, outside
// the timing), then times the first S3 answer (a GET of a 1 KiB object),
// which starts the worker again and reopens its store in IndexedDB.
func BenchmarkServiceWorkerIdleRestart(b *testing.B) {
	url, root := benchSite(b)
	root.Navigate(b, url+"/test/bench.html")
	w := watchWorkers(b, root)
	run[bool](b, root.Context(), register+`
		await fetch("/s3/bench", { method: "PUT" });
		const res = await fetch("/s3/bench/k", { method: "PUT", body: "x".repeat(1024) });
		if (res.status !== 200) throw new Error("PUT: " + res.status + " " + await res.text());
		return true;`)
	var total float64
	for b.Loop() {
		b.StopTimer()
		w.stopAll(b)
		starts, _ := w.state()
		b.StartTimer()
		ms := run[float64](b, root.Context(), `
			const start = performance.now();
			const res = await fetch("/s3/bench/k");
			const body = await res.text();
			if (res.status !== 200 || body.length !== 1024) throw new Error("GET: " + res.status + " " + body);
			return performance.now() - start;`)
		if again, _ := w.state(); again <= starts {
			b.Fatal("the worker answered without being started again")
		}
		total += ms
	}
	b.ReportMetric(total/float64(b.N), "restart-answer-ms")
}

// BenchmarkPutGet1KiB times a PUT and a GET of a 1 KiB object through the
// worker (fetch under /s3/) and through store.fetch of a store opened in
// the page, both over IndexedDB, taking turns: rounds pairs of each per
// iteration. sw-ms and page-ms are per PUT+GET; sw/page is their ratio.
func BenchmarkPutGet1KiB(b *testing.B) {
	const rounds = 20
	url, root := benchSite(b)
	root.Navigate(b, url+"/test/bench.html")
	run[bool](b, root.Context(), register+`
		const minis3 = await (await import("/minis3.js")).default;
		globalThis.store = await minis3.open({ db: "page-bench" });
		await (await fetch("/s3/bench", { method: "PUT" })).text();
		await (await store.fetch("/bench", { method: "PUT" })).text();
		globalThis.putGet = async (f, prefix, i) => {
			const put = await f(prefix + "/bench/k" + i, { method: "PUT", body: "x".repeat(1024) });
			await put.text();
			const get = await f(prefix + "/bench/k" + i);
			const body = await get.text();
			if (put.status !== 200 || get.status !== 200 || body.length !== 1024) throw new Error("PUT " + put.status + ", GET " + get.status);
		};
		return true;`)
	var sw, page float64
	for b.Loop() {
		m := run[struct{ SW, Page float64 }](b, root.Context(), `
			let sw = 0, page = 0;
			for (let i = 0; i < `+strconv.Itoa(rounds)+`; i++) {
				let start = performance.now();
				await putGet(fetch, "/s3", i);
				sw += performance.now() - start;
				start = performance.now();
				await putGet(store.fetch, "", i);
				page += performance.now() - start;
			}
			return { SW: sw, Page: page };`)
		sw += m.SW
		page += m.Page
	}
	n := float64(b.N * rounds)
	b.ReportMetric(sw/n, "sw-ms")
	b.ReportMetric(page/n, "page-ms")
	b.ReportMetric(sw/page, "sw/page")
}
