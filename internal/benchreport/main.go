// Command benchreport reads what make bench wrote and prints the budgets
// as a Markdown table: each budget, its figures (medians of the runs, and
// for the peer rows the median and range of the paired ratios) and whether
// they meet it. make bench runs it last; BENCHMARKS.md's table is its
// output.
//
//	go run ./internal/benchreport -static static   # reads bin/bench*.txt
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// files are the output files of make bench (the Makefile's BENCH_*_OUT).
type files struct{ native, idb, page string }

// filesIn are the files under their default names in dir.
func filesIn(dir string) files {
	return files{
		native: filepath.Join(dir, "bench.txt"), idb: filepath.Join(dir, "bench-idb.txt"),
		page: filepath.Join(dir, "bench-page.txt"),
	}
}

func main() {
	f := filesIn("bin")
	flag.StringVar(&f.native, "native", f.native, "bench-native's output: core, storages and web")
	flag.StringVar(&f.idb, "idb", f.idb, "the IndexedDB storage's benchmarks")
	flag.StringVar(&f.page, "page", f.page, "the page's benchmarks (browser_test/perf)")
	static := flag.String("static", "static", "directory of minis3.wasm and its compressed copies")
	flag.Parse()
	in, err := load(f, *static)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	write(os.Stdout, report(in))
}

// load reads make bench's files (a missing one: that part was not run) and
// the sizes of the wasm files in static.
func load(f files, static string) (inputs, error) {
	var in inputs
	for _, src := range []struct {
		path string
		dst  *results
	}{{f.native, &in.native}, {f.idb, &in.idb}, {f.page, &in.page}} {
		r, err := readResults(src.path)
		if err != nil {
			return in, err
		}
		*src.dst = r
	}
	for _, w := range []struct {
		name string
		dst  *int64
	}{{"minis3.wasm", &in.size.raw}, {"minis3.wasm.gz", &in.size.gzip}, {"minis3.wasm.br", &in.size.brotli}} {
		if st, err := os.Stat(filepath.Join(static, w.name)); err == nil {
			*w.dst = st.Size()
		}
	}
	return in, nil
}

// write prints rows as a Markdown table and a count of the budgets met.
func write(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| budget | figure, median of the runs | result |")
	fmt.Fprintln(w, "|---|---|---|")
	n, budgets := 0, 0
	for _, r := range rows {
		figure := r.figure
		if figure == "" {
			figure = "—"
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", cell(r.budget), cell(figure), r.result)
		if r.result == met {
			n++
		}
		if r.result != reported {
			budgets++
		}
	}
	fmt.Fprintf(w, "\n%d of %d budgets met.\n", n, budgets)
}

// cell escapes the table's separator in text.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
