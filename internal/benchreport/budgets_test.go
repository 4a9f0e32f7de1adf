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

func TestBudgetsAtTheirLimits(t *testing.T) {
	durable := func(r float64) results {
		return merge(res("DurablePaired/PUT", "100k/1k", r), res("DurablePaired/DELETE", "100k/1k", 1))
	}
	puts := func(n float64) results {
		return merge(res("PutObjectMemory/overwrite", "puts/s", n), res("PutObjectMemory/new-key", "puts/s", 400e3),
			res("PutObjectMemory/enabled-1000keys", "puts/s", 400e3))
	}
	ticks := func(ms100k, ms1M float64) results {
		return merge(res("LifecycleTick/10k", "ns/op", 1e6), res("LifecycleTick/100k", "ns/op", ms100k*1e6), res("LifecycleTick/1M", "ns/op", ms1M*1e6))
	}
	for _, tt := range []struct {
		name string
		row  row
		want verdict
	}{
		// "few" scans a quarter of the bucket: 12.5 ns per version in it
		// is 50 per version scanned.
		{"evaluation few at 50 per scanned", evaluationRow(evaluation(12.5, 10)), met},
		{"evaluation few over", evaluationRow(evaluation(12.6, 10)), notMet},
		{"evaluation half at 50", evaluationRow(evaluation(1, 50)), met},
		{"evaluation half over", evaluationRow(evaluation(1, 50.1)), notMet},
		{"evaluation not run", evaluationRow(results{}), notMeasured},
		{"tick grows with the scan", tickRow(ticks(5, 6)), met},
		{"tick copies the bucket", tickRow(ticks(5, 50)), notMet},
		{"wasm at 3", wasmRatioRow(res("LifecycleTick/10k", "ns/op", 1, 2, 1), res("LifecycleTick/10k", "ns/op", 3, 6.2, 2.5)), met},
		{"wasm over 3", wasmRatioRow(res("LifecycleTick/10k", "ns/op", 1, 2, 1), res("LifecycleTick/10k", "ns/op", 3.1, 6.2, 2.5)), notMet},
		{"wasm not run", wasmRatioRow(res("LifecycleTick/10k", "ns/op", 1), results{}), notMeasured},
		{"durable at 1.3", durableRow(durable(1.3), durable(1.0)), met},
		{"durable over", durableRow(durable(1.0), durable(1.31)), notMet},
		{"durable without IndexedDB", durableRow(durable(1.0), results{}), notMeasured},
		{"puts at 300k", memoryPutRow(puts(300e3), results{}), met},
		{"puts under", memoryPutRow(puts(299e3), results{}), notMet},
		{"load at 1 s", pageRow("", res("PageColdLoad", "load-ms", 900, 1000, 1100), "PageColdLoad", "load-ms", maxColdLoadMs), met},
		{"load over", pageRow("", res("PageColdLoad", "load-ms", 1001), "PageColdLoad", "load-ms", maxColdLoadMs), notMet},
		{"size at 1.8 MB", sizeRow(wasmSize{raw: 7e6, gzip: 1_800_000}), met},
		{"size over", sizeRow(wasmSize{raw: 7e6, gzip: 1_800_001, brotli: 1e6}), notMet},
		{"size not built", sizeRow(wasmSize{}), notMeasured},
		{"peer ahead", peerRow(merge(res("PeerPaired/PUT", "minis3/gofakes3", 0.99), res("PeerPaired/GET", "minis3/gofakes3", 0.5))), met},
		{"peer level", peerRow(merge(res("PeerPaired/PUT", "minis3/gofakes3", 1.0), res("PeerPaired/GET", "minis3/gofakes3", 0.5))), notMet},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.row.result != tt.want {
				t.Errorf("%s: %v (figure %q), want %v", tt.row.budget, tt.row.result, tt.row.figure, tt.want)
			}
		})
	}
}

// TestReportOfAMakeBenchRun reads testdata/run, part of the output of one
// make bench (three runs of each file, the wasm file sizes of that build),
// and compares the table with testdata/run.md.
func TestReportOfAMakeBenchRun(t *testing.T) {
	static := t.TempDir()
	for name, size := range map[string]int64{"minis3.wasm": 7357640, "minis3.wasm.gz": 2000754, "minis3.wasm.br": 1685090} {
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
	}{{2.5, "2.50"}, {2.999, "3.00"}, {3, "3.00"}, {3.001, "3.001"}, {3.0004, "3.000"}, {3.5, "3.50"}} {
		if got := againstLimit(tt.v, 3); got != tt.want {
			t.Errorf("againstLimit(%v, 3) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
