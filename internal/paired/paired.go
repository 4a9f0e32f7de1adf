// Package paired times alternatives of one operation in pairs, for
// benchmarks on a machine whose speed drifts: the storages of two bucket
// sizes (core/storagetest), MiniS3 and a peer server (web). Every iteration
// runs each alternative once, in an order that rotates from one iteration
// to the next, so that a slow spell falls on all of them alike; sequential
// benchmarks, which run all of one alternative before the next, charge it
// to one.
package paired

import (
	"slices"
	"testing"
	"time"
)

// Medians runs b's loop. In iteration i (from 0) it calls op(j, i) for each
// of the n alternatives j, starting with j = i mod n, and times each call.
// It returns each alternative's median time in microseconds.
func Medians(b *testing.B, n int, op func(j, i int)) []float64 {
	times := make([][]time.Duration, n)
	i := 0
	for b.Loop() {
		for k := range n {
			j := (k + i) % n
			start := time.Now()
			op(j, i)
			times[j] = append(times[j], time.Since(start))
		}
		i++
	}
	medians := make([]float64, n)
	for j := range n {
		slices.Sort(times[j])
		medians[j] = float64(times[j][len(times[j])/2].Nanoseconds()) / 1e3
	}
	return medians
}
