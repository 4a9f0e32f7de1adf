package main

import (
	"fmt"
	"slices"
	"strings"
)

// inputs are what one make bench wrote.
type inputs struct {
	native results // bench-native: core, storages and web, both processors
	cpu1   results // the core benchmarks natively on one processor
	wasm   results // the same in headless Chromium, each run after its cpu1 partner
	idb    results // IndexedDB storage in Chromium
	page   results // the playground page in Chromium
	size   wasmSize
}

// wasmSize is the byte size of static/minis3.wasm and of the compressed
// copies make wasm writes beside it (0: absent).
type wasmSize struct{ raw, gzip, brotli int64 }

// row is one budget of issue 6: what it asks, the figures, and whether
// they meet it.
type row struct {
	budget, figure string
	result         verdict
}

type verdict int

const (
	notMeasured verdict = iota
	met
	notMet
)

func (v verdict) String() string {
	switch v {
	case met:
		return "met"
	case notMet:
		return "**not met**"
	}
	return "not measured"
}

// budget limits of issue 6.
const (
	maxEvalNsPerVersion = 50
	maxWasmRatio        = 3
	maxDurableRatio     = 1.3
	minPutsPerSecond    = 300_000
	maxColdLoadMs       = 1000
	maxWasmGzip         = 1_800_000
	maxRenderMs         = 100
	maxPreviewTickMs    = 150
)

// report is the budget table of one make bench.
func report(in inputs) []row {
	return []row{
		evaluationRow(in.native),
		tickRow(in.native),
		wasmRatioRow(in.cpu1, in.wasm),
		durableRow(in.native, in.idb),
		memoryPutRow(in.cpu1, in.native),
		pageRow("cold load to interactive ≤ 1.0 s", in.page, "PageColdLoad", "load-ms", maxColdLoadMs),
		sizeRow(in.size),
		pageRow("first render of 1,000 versions ≤ 100 ms", in.page, "Render1000Versions", "render-ms", maxRenderMs),
		pageRow("preview + tick + re-render ≤ 150 ms", in.page, "PreviewTickRerender", "preview-tick-ms", maxPreviewTickMs),
		peerRow(in.native),
	}
}

// evaluationRow: natively, EvaluateExpiration costs at most 50 ns per
// version scanned. The benchmark reports ns per version in the bucket; the
// "few" rule scans one prefix of four, so its cost per version scanned is
// four times that.
func evaluationRow(native results) row {
	r := row{budget: "EvaluateExpiration ≤ 50 ns per version scanned, natively"}
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
	r.figure = strings.Join(parts, "; ") + fmt.Sprintf(" ns per version in the bucket; at most %.1f per version scanned", worst)
	r.result = check(worst <= maxEvalNsPerVersion)
	return r
}

// tickRow: a tick's cost grows with the versions it scans and the actions
// it applies, never with a copy of the whole bucket. BenchmarkLifecycleTick's
// 100k and 1M ticks scan the same 2,500 keys and take the same 10,000
// actions in buckets of 10,000 and 100,000 keys: a tick whose cost followed
// the bucket would cost about ten times as much in the larger; the budget
// reads it as met below half that.
func tickRow(native results) row {
	r := row{budget: "a tick's cost follows versions scanned + actions applied"}
	var ms []float64
	for _, size := range []string{"10k", "100k", "1M"} {
		m, ok := median(native.values("LifecycleTick/"+size, "ns/op"))
		if !ok {
			return r
		}
		ms = append(ms, m/1e6)
	}
	growth := ms[2] / ms[1]
	r.figure = fmt.Sprintf("LifecycleTick 10k / 100k / 1M: %.1f / %.1f / %.1f ms; 1M / 100k = %.2f (the bucket ×10; the keys scanned and the actions the same)",
		ms[0], ms[1], ms[2], growth)
	r.result = check(growth < 5)
	return r
}

// wasmRatioRow: the wasm build runs the core benchmarks within 3× of
// native on one processor. Each wasm run is divided by the native run made
// just before it; a row is within when the median of those ratios is.
func wasmRatioRow(cpu1, wasm results) row {
	r := row{budget: "wasm within 3× of native (the core benchmarks, one processor, runs paired)"}
	var names []string
	for name := range wasm {
		if len(cpu1.values(name, "ns/op")) > 0 && len(wasm.values(name, "ns/op")) > 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return r
	}
	slices.Sort(names)
	within := 0
	var parts []string
	for _, name := range names {
		ratios := pairedRatios(wasm.values(name, "ns/op"), cpu1.values(name, "ns/op"))
		m, _ := median(ratios)
		mark := ""
		if m <= maxWasmRatio {
			within++
		} else {
			mark = "**"
		}
		parts = append(parts, fmt.Sprintf("%s %s%s%s (%.2f–%.2f)", name, mark, againstLimit(m, maxWasmRatio), mark, slices.Min(ratios), slices.Max(ratios)))
	}
	r.figure = fmt.Sprintf("%d of %d rows within: ", within, len(names)) + strings.Join(parts, ", ")
	r.result = check(within == len(names))
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

// memoryPutRow: an in-memory PUT of 1 KiB runs at 300k/s or more, in each
// shape of BenchmarkPutObjectMemory, on one processor.
func memoryPutRow(cpu1, native results) row {
	r := row{budget: "in-memory PUT of 1 KiB ≥ 300k/s"}
	shapes := []string{"overwrite", "new-key", "enabled-1000keys"}
	var one, both []string
	ok := true
	for _, shape := range shapes {
		m, found := median(cpu1.values("PutObjectMemory/"+shape, "puts/s"))
		if !found {
			return r
		}
		one = append(one, fmt.Sprintf("%s %.0fk", shape, m/1e3))
		ok = ok && m >= minPutsPerSecond
		if m2, found := median(native.values("PutObjectMemory/"+shape, "puts/s")); found {
			both = append(both, fmt.Sprintf("%.0fk", m2/1e3))
		}
	}
	r.figure = "one processor: " + strings.Join(one, ", ") + "/s"
	if len(both) == len(shapes) {
		r.figure += "; both processors: " + strings.Join(both, ", ")
	}
	r.result = check(ok)
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

// sizeRow: the wasm is at most 1.8 MB (1,800,000 bytes) gzipped.
func sizeRow(s wasmSize) row {
	r := row{budget: "wasm ≤ 1.8 MB gzip (raw, gzip -9, brotli as served)"}
	if s.raw == 0 || s.gzip == 0 {
		return r
	}
	r.figure = fmt.Sprintf("%s raw / %s gzip -9", commas(s.raw), commas(s.gzip))
	if s.brotli > 0 {
		r.figure += fmt.Sprintf(" / %s brotli -q 9", commas(s.brotli))
	}
	r.result = check(s.gzip <= maxWasmGzip)
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
