package storagetest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"minis3/core"
)

// DurablePaired benchmarks a PUT of 1 KiB under a new key and a DELETE
// without a version ID (a delete marker) in two stores that Prefill filled
// with the bucket "bench" of different sizes, in pairs: every iteration runs
// the operation in both, in an order that swaps each time, and times each.
// Work a storage does in the background (compaction, the disk syncing
// someone else's writes) then falls on both sizes alike, where sequential
// benchmarks, which run all of one size before the other, charge it to one.
// Each sub-benchmark reports the median time in each store ("1k-µs",
// "100k-µs" for 1,000 and 100,000 records) and their ratio ("100k/1k").
// After its timed loop it undoes every change, newest first, so that every
// run starts from the same buckets.
func DurablePaired(b *testing.B, small, large *core.Store) {
	stores := []*core.Store{small, large}
	sizes := make([]int, len(stores))
	for j, s := range stores {
		snap, err := s.Snapshot("bench")
		if err != nil {
			b.Fatal(err)
		}
		sizes[j] = len(snap)
	}
	body := bytes.Repeat([]byte("b"), 1024)
	for _, op := range []struct {
		name string
		do   func(s *core.Store, records, i int) (string, error)
		undo func(s *core.Store, records, i int, id string) error
	}{
		{"PUT", func(s *core.Store, _, i int) (string, error) {
			res, err := s.PutObject("bench", fmt.Sprintf("new/%08d", i), body, core.PutOptions{})
			return res.VersionID, err
		}, func(s *core.Store, _, i int, id string) error {
			_, err := s.DeleteObject("bench", fmt.Sprintf("new/%08d", i), core.DeleteOptions{VersionID: id})
			return err
		}},
		{"DELETE", func(s *core.Store, records, i int) (string, error) {
			res, err := s.DeleteObject("bench", fmt.Sprintf("prefill/%08d", i%records), core.DeleteOptions{})
			if err == nil && !res.DeleteMarker {
				err = fmt.Errorf("DELETE added no marker: %+v", res)
			}
			return res.VersionID, err
		}, func(s *core.Store, records, i int, id string) error {
			_, err := s.DeleteObject("bench", fmt.Sprintf("prefill/%08d", i%records), core.DeleteOptions{VersionID: id})
			return err
		}},
	} {
		b.Run(op.name, func(b *testing.B) {
			times := make([][]time.Duration, len(stores))
			ids := make([][]string, len(stores))
			i := 0
			for b.Loop() {
				for k := range stores {
					j := (k + i) % len(stores)
					start := time.Now()
					id, err := op.do(stores[j], sizes[j], i)
					times[j] = append(times[j], time.Since(start))
					if err != nil {
						b.Fatal(err)
					}
					ids[j] = append(ids[j], id)
				}
				i++
			}
			medians := make([]float64, len(stores))
			for j := range stores {
				slices.Sort(times[j])
				medians[j] = float64(times[j][len(times[j])/2].Nanoseconds()) / 1e3
				b.ReportMetric(medians[j], sizeName(sizes[j])+"-µs")
			}
			b.ReportMetric(medians[1]/medians[0], sizeName(sizes[1])+"/"+sizeName(sizes[0]))
			for j, s := range stores {
				for n := len(ids[j]) - 1; n >= 0; n-- {
					if err := op.undo(s, sizes[j], n, ids[j][n]); err != nil {
						b.Fatal(err)
					}
				}
				if snap, err := s.Snapshot("bench"); err != nil || len(snap) != sizes[j] {
					b.Fatalf("after undoing, bucket bench holds %d records (%v), want %d", len(snap), err, sizes[j])
				}
			}
		})
	}
}

// sizeName is "1k" for 1,000 records, "100k" for 100,000, the count itself
// otherwise.
func sizeName(records int) string {
	if records%1000 == 0 {
		return fmt.Sprintf("%dk", records/1000)
	}
	return fmt.Sprint(records)
}
