package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseResultsDropsTheProcessorSuffixAndKeepsRunOrder(t *testing.T) {
	const out = `goos: linux
goarch: amd64
pkg: minis3/core
cpu: Intel(R) Xeon(R) Processor
BenchmarkPutObjectMemory/new-key-2   	  300000	      7280 ns/op	 140.66 MB/s	    137361 puts/s
BenchmarkPutObjectMemory/new-key-2   	  300000	      7000 ns/op	 146.00 MB/s	    142857 puts/s
BenchmarkPeerPaired/PUT-server-2    	   10	     20000 ns/op	 0.63 minis3/gofakes3
PASS
goos: js
goarch: wasm
BenchmarkPutObjectMemory/new-key     	  100000	     12000 ns/op
BenchmarkPutObjectMemory/enabled-1000keys   	  100000	     9000 ns/op
BenchmarkPeer/GET/server=minis3-2                  	
BenchmarkBroken-2  	 many	 12 ns/op
BenchmarkOdd-2  	 10	 12 ns/op	 7
ok  	minis3/core	5.207s
`
	got, err := parseResults(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := results{
		"PutObjectMemory/new-key": {
			"ns/op":  {7280, 7000, 12000},
			"MB/s":   {140.66, 146.00},
			"puts/s": {137361, 142857},
		},
		"PeerPaired/PUT-server":            {"ns/op": {20000}, "minis3/gofakes3": {0.63}},
		"PutObjectMemory/enabled-1000keys": {"ns/op": {9000}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestTrimProcs(t *testing.T) {
	for in, want := range map[string]string{
		"BenchmarkLoad/items=1000-2":                "BenchmarkLoad/items=1000",
		"BenchmarkLoad/items=1000":                  "BenchmarkLoad/items=1000",
		"BenchmarkPutObjectMemory/enabled-1000keys": "BenchmarkPutObjectMemory/enabled-1000keys",
		"BenchmarkPeerPaired/PUT-server-16":         "BenchmarkPeerPaired/PUT-server",
		"BenchmarkPeerPaired/PUT-server":            "BenchmarkPeerPaired/PUT-server",
		"Benchmark":                                 "Benchmark",
	} {
		if got := trimProcs(in); got != want {
			t.Errorf("trimProcs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
		ok   bool
	}{
		{nil, 0, false},
		{[]float64{3}, 3, true},
		{[]float64{5, 1, 3}, 3, true},
		{[]float64{4, 1, 3, 2}, 2.5, true},
	} {
		got, ok := median(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("median(%v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	in := []float64{5, 1, 3}
	median(in)
	if !reflect.DeepEqual(in, []float64{5, 1, 3}) {
		t.Errorf("median reordered its input: %v", in)
	}
}
