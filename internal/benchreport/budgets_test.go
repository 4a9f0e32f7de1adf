package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// res builds results of one benchmark and unit from the runs' values.
func res(name, unit string, vs ...float64) results {
	return results{name: {unit: vs}}
}

// merge puts several results together.
func merge(rs ...results) results {
	out := results{}
	for _, r := range rs {
		for name, units := range r {
			if out[name] == nil {
				out[name] = map[string][]float64{}
			}
			for unit, vs := range units {
				out[name][unit] = append(out[name][unit], vs...)
			}
		}
	}
	return out
}

func evaluation(few, half float64) results {
	var rs []results
	for _, size := range []string{"10k", "100k", "1M"} {
		rs = append(rs, res("EvaluateExpiration/"+size+"/few", "ns/version", few), res("EvaluateExpiration/"+size+"/half", "ns/version", half))
	}
	return merge(rs...)
}

// terminal is a run of the terminal benchmark whose commands take ms
// milliseconds, one of them slowest.
func terminal(slowest, others float64) results {
	var rs []results
	for i, c := range terminalCommands {
		v := others
		if i == 0 {
			v = slowest
		}
		rs = append(rs, res("TerminalCommand1000Versions/"+c, "ms/command", v))
	}
	return merge(rs...)
}

func TestBudgetsAtTheirLimits(t *testing.T) {
	durable := func(r float64) results {
		return merge(res("DurablePaired/PUT", "100k/1k", r), res("DurablePaired/DELETE", "100k/1k", 1))
	}
	ticks := func(ms10k, ms1M float64) results {
		return merge(res("LifecycleTick/10k", "ns/op", ms10k*1e6), res("LifecycleTick/1M", "ns/op", ms1M*1e6))
	}
	for _, tt := range []struct {
		name string
		row  row
		want verdict
	}{
		// "few" scans a quarter of the records: 37.5 ns per version in
		// them is 150 per version scanned.
		{"evaluation few at 150 per scanned", evaluationRow(evaluation(37.5, 10)), met},
		{"evaluation few over", evaluationRow(evaluation(37.6, 10)), notMet},
		{"evaluation half at 150", evaluationRow(evaluation(1, 150)), met},
		{"evaluation half over", evaluationRow(evaluation(1, 150.1)), notMet},
		{"evaluation not run", evaluationRow(results{}), notMeasured},
		{"tick at 4", tickRow(ticks(1, 4)), met},
		{"tick grows with the bucket", tickRow(ticks(1, 4.01)), notMet},
		{"tick not run", tickRow(res("LifecycleTick/10k", "ns/op", 1)), notMeasured},
		{"durable at 1.3", durableRow(durable(1.3), durable(1.0)), met},
		{"durable over", durableRow(durable(1.0), durable(1.31)), notMet},
		{"uploads at 1.2", uploadsRow(res("WriteBesideUploads", "10k/10", 1.0, 1.2, 1.3)), met},
		{"uploads over", uploadsRow(res("WriteBesideUploads", "10k/10", 1.21)), notMet},
		{"uploads not run", uploadsRow(results{}), notMeasured},
		{"durable without IndexedDB", durableRow(durable(1.0), results{}), notMeasured},
		{"load at 1 s", pageRow("", res("PageColdLoad", "load-ms", 900, 1000, 1100), "PageColdLoad", "load-ms", maxColdLoadMs), met},
		{"load over", pageRow("", res("PageColdLoad", "load-ms", 1001), "PageColdLoad", "load-ms", maxColdLoadMs), notMet},
		{"embed cold at 1 s", pageRow("", res("CourseEmbeds", "cold-interactive-ms", 1000), "CourseEmbeds", "cold-interactive-ms", maxEmbedColdMs), met},
		{"embed repeat over", pageRow("", res("CourseEmbeds", "repeat-interactive-ms", 401), "CourseEmbeds", "repeat-interactive-ms", maxEmbedRepeatMs), notMet},
		{"no wasm before a click", noWasmRow(res("CourseEmbeds", "wasm-before-click", 0, 0, 0)), met},
		{"wasm before a click in one run", noWasmRow(res("CourseEmbeds", "wasm-before-click", 0, 0.2, 0)), notMet},
		{"wasm before a click not run", noWasmRow(results{}), notMeasured},
		{"embed memory", embedMemoryRow(merge(res("CourseEmbeds", "embed-memory-MB", 40), res("CourseEmbeds", "embed-memory-max-MB", 41), res("CourseEmbeds", "js-heap-MB", 9))), reported},
		{"embed memory not run", embedMemoryRow(results{}), notMeasured},
		{"size at 1.7 MB", sizeRow(wasmSize{raw: 7e6, gzip: 2e6, brotli: 1_700_000}), met},
		{"size over", sizeRow(wasmSize{raw: 7e6, gzip: 1e6, brotli: 1_700_001}), notMet},
		{"terminal at 50 ms", terminalRow(terminal(50, 10), terminal(20, 50)), met},
		{"terminal over natively", terminalRow(terminal(50.1, 10), terminal(20, 30)), notMet},
		{"terminal over in the wasm", terminalRow(terminal(1, 1), terminal(1, 50.1)), notMet},
		{"terminal not run in the browser", terminalRow(terminal(1, 1), results{}), notMeasured},
		{"size without brotli", sizeRow(wasmSize{raw: 7e6, gzip: 1e6}), notMeasured},
		{"peer ahead", peerRow(merge(res("PeerPaired/PUT", "minis3/gofakes3", 0.99), res("PeerPaired/GET", "minis3/gofakes3", 0.5))), met},
		{"service worker cold start at 300 ms", pageRow("", res("ServiceWorkerColdStart", "first-answer-ms", 250, 300, 350), "ServiceWorkerColdStart", "first-answer-ms", maxSWColdStartMs), met},
		{"service worker cold start over", pageRow("", res("ServiceWorkerColdStart", "first-answer-ms", 300.1), "ServiceWorkerColdStart", "first-answer-ms", maxSWColdStartMs), notMet},
		{"idle restart reported", infoRow("", res("ServiceWorkerIdleRestart", "restart-answer-ms", 900), "ServiceWorkerIdleRestart", "restart-answer-ms"), reported},
		{"idle restart not run", infoRow("", results{}, "ServiceWorkerIdleRestart", "restart-answer-ms"), notMeasured},
		{"PUT+GET reported", putGetRow(merge(res("PutGet1KiB", "sw-ms", 9), res("PutGet1KiB", "page-ms", 6), res("PutGet1KiB", "sw/page", 1.5))), reported},
		{"PUT+GET without its ratio", putGetRow(merge(res("PutGet1KiB", "sw-ms", 9), res("PutGet1KiB", "page-ms", 6))), notMeasured},
		{"peer level", peerRow(merge(res("PeerPaired/PUT", "minis3/gofakes3", 1.0), res("PeerPaired/GET", "minis3/gofakes3", 0.5))), notMet},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.row.result != tt.want {
				t.Errorf("%s: %v (figure %q), want %v", tt.row.budget, tt.row.result, tt.row.figure, tt.want)
			}
		})
	}
}

// TestReportOfAMakeBenchRun reads testdata/run, the output of make bench
// (bench.txt and bench-idb.txt of the run of issue 25, with the wasm file
// sizes of that build; bench-page.txt of a later run of the page's
// benchmarks, with the course page's), and compares the table with
// testdata/run.md, the table they make, with the service worker's rows
// added since (not measured in it).
func TestReportOfAMakeBenchRun(t *testing.T) {
	static := t.TempDir()
	for name, size := range map[string]int64{"minis3.wasm": 7771952, "minis3.wasm.gz": 2088591, "minis3.wasm.br": 1748435} {
		f, err := os.Create(filepath.Join(static, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	in, err := load(filesIn(filepath.Join("testdata", "run")), static)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	write(&got, report(in))
	want, err := os.ReadFile(filepath.Join("testdata", "run.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
			}
		}
	}
}

func TestReportWithoutARunMeasuresNothing(t *testing.T) {
	in, err := load(filesIn(t.TempDir()), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range report(in) {
		if r.result != notMeasured || r.figure != "" {
			t.Errorf("%s: %v %q, want not measured and no figure", r.budget, r.result, r.figure)
		}
	}
}

func TestAgainstLimitNeverRoundsAMissOntoTheLimit(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{{2.5, "2.50"}, {3.999, "4.00"}, {4, "4.00"}, {4.001, "4.001"}, {4.0004, "4.000"}, {4.5, "4.50"}} {
		if got := againstLimit(tt.v, 4); got != tt.want {
			t.Errorf("againstLimit(%v, 4) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
