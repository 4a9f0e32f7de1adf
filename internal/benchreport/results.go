package main

import (
	"bufio"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// results are the values of a benchmark output file, per benchmark and
// unit, in the order the runs printed them.
type results map[string]map[string][]float64

// readResults reads a file of `go test -bench` output. A file that does not
// exist reads as no results: that part of make bench was not run.
func readResults(path string) (results, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return results{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseResults(f)
}

// parseResults reads benchmark lines ("BenchmarkName-2  N  v unit  v unit…")
// and ignores every other line. The name loses its -GOMAXPROCS suffix, so
// that native and wasm runs of a benchmark share a name.
func parseResults(r io.Reader) (results, error) {
	res := results{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || len(fields)%2 != 0 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(fields[1]); err != nil {
			continue
		}
		name := strings.TrimPrefix(trimProcs(fields[0]), "Benchmark")
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			if res[name] == nil {
				res[name] = map[string][]float64{}
			}
			res[name][fields[i+1]] = append(res[name][fields[i+1]], v)
		}
	}
	return res, sc.Err()
}

// trimProcs drops a trailing -N (GOMAXPROCS) from a benchmark name.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}

// values are the runs' values of a benchmark's unit; none if it was not run.
func (r results) values(name, unit string) []float64 { return r[name][unit] }

// median is the median of vs, and false when there are none.
func median(vs []float64) (float64, bool) {
	if len(vs) == 0 {
		return 0, false
	}
	s := slices.Sorted(slices.Values(vs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2], true
	}
	return (s[n/2-1] + s[n/2]) / 2, true
}
