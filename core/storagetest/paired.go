package storagetest

import (
	"bytes"
	"fmt"
	"testing"

	"minis3/core"
	"minis3/internal/paired"
)

// DurablePaired benchmarks a PUT of 1 KiB under a new key and a DELETE
// without a version ID (a delete marker) in two stores that Prefill filled
// with the bucket "bench" of different sizes, in pairs (package paired):
// every iteration runs the operation in both, in an order that swaps each
// time, and times each. Work a storage does in the background (compaction,
// the disk syncing someone else's writes) then falls on both sizes alike.
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
			ids := make([][]string, len(stores))
			medians := paired.Medians(b, len(stores), func(j, i int) {
				id, err := op.do(stores[j], sizes[j], i)
				if err != nil {
					b.Fatal(err)
				}
				ids[j] = append(ids[j], id)
			})
			for j := range stores {
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
