package main

import (
	"fmt"
	"slices"
	"strings"
)

// inputs are what one make bench wrote.
type inputs struct {
	native results // core, storages and web, natively
	idb    results // IndexedDB storage in Chromium
	page   results // the playground page in Chromium
	size   wasmSize
}

// wasmSize is the byte size of static/minis3.wasm and of the compressed
// copies make wasm writes beside it (0: absent).
type wasmSize struct{ raw, gzip, brotli int64 }

// row is one budget: what it asks, the figures, and whether they meet it.
// A row with info set has no limit: it reports its figures beside the
// budgets.
type row struct {
	budget, figure string
	result         verdict
	info           bool
}

type verdict int

const (
	notMeasured verdict = iota
	met
	notMet
	reported // an info row's figures were measured
)

func (v verdict) String() string {
	switch v {
	case met:
		return "met"
	case notMet:
		return "**not met**"
	case reported:
		return "reported"
	}
	return "not measured"
}

// The budgets' limits: where users feel MiniS3's speed and size.
const (
	maxEvalNsPerVersion = 150
	maxTickGrowth       = 4
	maxDurableRatio     = 1.3
	maxUploadsRatio     = 1.2
	maxColdLoadMs       = 1000
	maxEmbedColdMs      = 1000
	maxEmbedRepeatMs    = 400
	maxRenderMs         = 100
	maxPreviewTickMs    = 150
	maxWasmBrotli       = 1_700_000
	maxTerminalMs       = 50
	maxSWColdStartMs    = 300
)

// report is the budget table of one make bench.
func report(in inputs) []row {
	return []row{
		pageRow("playground cold load to interactive ≤ 1.0 s", in.page, "PageColdLoad", "load-ms", maxColdLoadMs),
		pageRow("first render of a 1,000-version bucket ≤ 100 ms", in.page, "Render1000Versions", "render-ms", maxRenderMs),
		pageRow("preview + tick + re-render on it ≤ 150 ms", in.page, "PreviewTickRerender", "preview-tick-ms", maxPreviewTickMs),
		noWasmRow(in.page),
		pageRow("course page of five embeds: the first started interactive, cold ≤ 1.0 s", in.page, "CourseEmbeds", "cold-interactive-ms", maxEmbedColdMs),
		pageRow("course page of five embeds: the first started interactive, second visit ≤ 0.4 s", in.page, "CourseEmbeds", "repeat-interactive-ms", maxEmbedRepeatMs),
		embedMemoryRow(in.page),
		tickRow(in.native),
		durableRow(in.native, in.idb),
		uploadsRow(in.native),
		peerRow(in.native),
		evaluationRow(in.native),
		terminalRow(in.native, in.idb),
		sizeRow(in.size),
		pageRow("service worker registered to first S3 answer ≤ 300 ms, cold", in.page, "ServiceWorkerColdStart", "first-answer-ms", maxSWColdStartMs),
		infoRow("service worker: first S3 answer after an idle restart", in.page, "ServiceWorkerIdleRestart", "restart-answer-ms"),
		putGetRow(in.page),
	}
}

// infoRow: a figure of a page benchmark, reported without a limit.
func infoRow(what string, page results, name, unit string) row {
	r := row{budget: what, info: true}
	m, ok := median(page.values(name, unit))
	if !ok {
		return r
	}
	r.figure = fmt.Sprintf("%s %.1f", unit, m)
	r.result = reported
	return r
}

// putGetRow reports a 1 KiB PUT and GET through the service worker beside
// the same through store.fetch in the page (BenchmarkPutGet1KiB, which
// takes turns between the two), with the range of their ratio.
func putGetRow(page results) row {
	r := row{budget: "1 KiB PUT+GET through the service worker, beside store.fetch in the page", info: true}
	sw, okSW := median(page.values("PutGet1KiB", "sw-ms"))
	inPage, okPage := median(page.values("PutGet1KiB", "page-ms"))
	ratios := page.values("PutGet1KiB", "sw/page")
	ratio, okRatio := median(ratios)
	if !okSW || !okPage || !okRatio {
		return r
	}
	r.figure = fmt.Sprintf("sw-ms %.1f, page-ms %.1f; sw/page %.2f (%.2f–%.2f)", sw, inPage, ratio, slices.Min(ratios), slices.Max(ratios))
	r.result = reported
	return r
}

// evaluationRow: natively, EvaluateExpiration costs at most 150 ns per
// version scanned. The benchmark reports ns per version in the records;
// the "few" rule scans one prefix of four, so its cost per version scanned
// is four times that.
func evaluationRow(native results) row {
	r := row{budget: "EvaluateExpiration ≤ 150 ns per version scanned, natively"}
	var parts []string
	worst := 0.0
	for _, size := range []string{"10k", "100k", "1M"} {
		few, okFew := median(native.values("EvaluateExpiration/"+size+"/few", "ns/version"))
		half, okHalf := median(native.values("EvaluateExpiration/"+size+"/half", "ns/version"))
		if !okFew || !okHalf {
			return r
		}
		parts = append(parts, fmt.Sprintf("%s: %.1f (few) / %.1f (half)", size, few, half))
		worst = max(worst, 4*few, half)
	}
	r.figure = strings.Join(parts, "; ") + fmt.Sprintf(" ns per version in the records; at most %.1f per version scanned", worst)
	r.result = check(worst <= maxEvalNsPerVersion)
	return r
}

// tickRow: a tick's cost grows with the versions under its prefixes and
// the actions it applies, never with the bucket. BenchmarkLifecycleTick
// takes the same 1,000 actions, just after writing their keys, in buckets
// of 10k and 1M versions, its commit included.
func tickRow(native results) row {
	r := row{budget: "a tick of 1,000 actions: 1M / 10k versions ≤ 4"}
	small, ok10k := median(native.values("LifecycleTick/10k", "ns/op"))
	large, ok1M := median(native.values("LifecycleTick/1M", "ns/op"))
	if !ok10k || !ok1M {
		return r
	}
	r.figure = fmt.Sprintf("LifecycleTick 10k / 1M: %.2f / %.2f ms; 1M / 10k = %s", small/1e6, large/1e6, againstLimit(large/small, maxTickGrowth))
	r.result = check(large/small <= maxTickGrowth)
	return r
}

// durableRow: a durable PUT or DELETE in a bucket of 100k records costs at
// most 1.3 times one in a bucket of 1k, on bbolt and on IndexedDB (the
// paired benchmarks, which time both buckets in every iteration).
func durableRow(native, idb results) row {
	r := row{budget: "durable PUT/DELETE, 100k / 1k records ≤ 1.3 (bbolt; IndexedDB)"}
	var parts []string
	ok := true
	for _, st := range []struct {
		name string
		res  results
	}{{"bbolt", native}, {"IndexedDB", idb}} {
		for _, op := range []string{"PUT", "DELETE"} {
			m, found := median(st.res.values("DurablePaired/"+op, "100k/1k"))
			if !found {
				return r
			}
			parts = append(parts, fmt.Sprintf("%s %s %.2f", st.name, op, m))
			ok = ok && m <= maxDurableRatio
		}
	}
	r.figure = "paired: " + strings.Join(parts, ", ")
	r.result = check(ok)
	return r
}

// uploadsRow: a PUT and DELETE in a bucket that completed 10,000
// multipart uploads costs at most 1.2 times one in a bucket that completed
// 10 (BenchmarkWriteBesideUploads, paired).
func uploadsRow(native results) row {
	r := row{budget: "PUT+DELETE beside 10,000 / 10 completed uploads ≤ 1.2"}
	vs := native.values("WriteBesideUploads", "10k/10")
	m, ok := median(vs)
	if !ok {
		return r
	}
	r.figure = fmt.Sprintf("paired: %s (%.2f–%.2f)", againstLimit(m, maxUploadsRatio), slices.Min(vs), slices.Max(vs))
	r.result = check(m <= maxUploadsRatio)
	return r
}

// pageRow: a figure of the page's own performance marks within its limit.
func pageRow(budget string, page results, name, unit string, limit float64) row {
	r := row{budget: budget}
	m, ok := median(page.values(name, unit))
	if !ok {
		return r
	}
	r.figure = fmt.Sprintf("%s %.1f", unit, m)
	r.result = check(m <= limit)
	return r
}

// noWasmRow: on a course page of five embeds, no embed requests the wasm
// before a click, in any run, first visit or second.
func noWasmRow(page results) row {
	r := row{budget: "course page of five embeds: no wasm requested before a click"}
	vs := page.values("CourseEmbeds", "wasm-before-click")
	if len(vs) == 0 {
		return r
	}
	most := slices.Max(vs)
	r.figure = fmt.Sprintf("wasm-before-click %g in every run", most)
	if most > 0 {
		r.figure = fmt.Sprintf("wasm-before-click up to %g", most)
	}
	r.result = check(most == 0)
	return r
}

// embedMemoryRow reports the wasm memory of each started embed of the
// course page, and the page's JavaScript heap with all five started.
func embedMemoryRow(page results) row {
	r := row{budget: "course page of five embeds: memory of each started embed", info: true}
	mean, ok1 := median(page.values("CourseEmbeds", "embed-memory-MB"))
	most, ok2 := median(page.values("CourseEmbeds", "embed-memory-max-MB"))
	heap, ok3 := median(page.values("CourseEmbeds", "js-heap-MB"))
	if !ok1 || !ok2 || !ok3 {
		return r
	}
	r.figure = fmt.Sprintf("wasm memory %.1f MB per embed (largest %.1f MB); the page's JavaScript heap with five started %.1f MB", mean, most, heap)
	r.result = reported
	return r
}

// terminalCommands are the commands BenchmarkTerminalCommand1000Versions
// times, natively (internal/terminal) and in the browser over IndexedDB
// (browser_test/wasm).
var terminalCommands = []string{"ListObjectVersions", "ListObjectVersionsText", "ListObjectVersionsQuery", "S3Ls", "PutObject"}

// terminalRow: a terminal command on a bucket of 1,000 versions prints
// within 50 ms, natively and in the wasm; the row gives the slowest
// command of each.
func terminalRow(native, idb results) row {
	r := row{budget: "a terminal command on a bucket of 1,000 versions ≤ 50 ms (native; wasm over IndexedDB)"}
	var parts []string
	ok := true
	for _, side := range []struct {
		name string
		res  results
	}{{"native", native}, {"wasm", idb}} {
		slowest, which := 0.0, ""
		for _, c := range terminalCommands {
			m, found := median(side.res.values("TerminalCommand1000Versions/"+c, "ms/command"))
			if !found {
				return r
			}
			if m >= slowest {
				slowest, which = m, c
			}
		}
		parts = append(parts, fmt.Sprintf("%s %.1f ms (%s)", side.name, slowest, which))
		ok = ok && slowest <= maxTerminalMs
	}
	r.figure = "slowest: " + strings.Join(parts, "; ")
	r.result = check(ok)
	return r
}

// sizeRow: the wasm as minis3 serve sends it, in brotli, is at most
// 1.7 MB; gzip is reported beside it.
func sizeRow(s wasmSize) row {
	r := row{budget: "wasm as served (brotli) ≤ 1.7 MB"}
	if s.raw == 0 || s.brotli == 0 {
		return r
	}
	r.figure = fmt.Sprintf("%s brotli -q 11 (%s raw, %s gzip -9)", commas(s.brotli), commas(s.raw), commas(s.gzip))
	r.result = check(s.brotli <= maxWasmBrotli)
	return r
}

// peerRow: MiniS3 is ahead of gofakes3 on every row of the side-by-side
// workload, in the paired runs (minis3/gofakes3 below 1).
func peerRow(native results) row {
	r := row{budget: "ahead of gofakes3 on every row (paired, minis3/gofakes3 < 1)"}
	var names []string
	for name := range native {
		if strings.HasPrefix(name, "PeerPaired/") {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return r
	}
	slices.Sort(names)
	ok := true
	var parts []string
	for _, name := range names {
		vs := native.values(name, "minis3/gofakes3")
		m, found := median(vs)
		if !found {
			return r
		}
		parts = append(parts, fmt.Sprintf("%s %.2f (%.2f–%.2f)", strings.TrimPrefix(name, "PeerPaired/"), m, slices.Min(vs), slices.Max(vs)))
		ok = ok && m < 1
	}
	r.figure = strings.Join(parts, ", ")
	r.result = check(ok)
	return r
}

// againstLimit writes v to two decimals, or three where two would round a
// value over limit down to it.
func againstLimit(v, limit float64) string {
	s := fmt.Sprintf("%.2f", v)
	if v > limit && s == fmt.Sprintf("%.2f", limit) {
		s = fmt.Sprintf("%.3f", v)
	}
	return s
}

func check(ok bool) verdict {
	if ok {
		return met
	}
	return notMet
}

// commas writes n with thousands separators.
func commas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
