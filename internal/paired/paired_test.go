package paired

import (
	"slices"
	"testing"
)

// TestMediansRotatesTheOrder checks that every iteration runs each
// alternative once, starting with a different one each time, and that
// there is a median for each.
func TestMediansRotatesTheOrder(t *testing.T) {
	var calls [][2]int
	var medians []float64
	testing.Benchmark(func(b *testing.B) {
		calls = calls[:0]
		medians = Medians(b, 3, func(j, i int) { calls = append(calls, [2]int{i, j}) })
	})
	if len(calls) < 3 || len(calls)%3 != 0 {
		t.Fatalf("%d calls, want a positive multiple of 3", len(calls))
	}
	for n, c := range calls {
		i, k := n/3, n%3
		if want := [2]int{i, (k + i) % 3}; c != want {
			t.Fatalf("call %d was (iteration, alternative) %v, want %v", n, c, want)
		}
	}
	if len(medians) != 3 || slices.ContainsFunc(medians, func(m float64) bool { return m < 0 }) {
		t.Errorf("medians %v, want 3, none negative", medians)
	}
}
