package boltstore

import (
	"bytes"
	"fmt"
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
)

// prefilled opens a durable store in a temporary directory whose enabled
// bucket "bench" holds records objects of 100 bytes. The objects are put
// into a memory store and copied into bolt in one commit: a durable PUT
// each would take minutes for 100,000 records.
func prefilled(b *testing.B, records int) *core.Store {
	b.Helper()
	rec, err := storagetest.Prefill("bench", records)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	storage, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	if err := storage.Commit(rec.Changes()); err != nil {
		b.Fatal(err)
	}
	s, err := core.Open(storage, core.Options{ManualClock: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if snap, err := s.Snapshot("bench"); err != nil || len(snap) != records {
		b.Fatalf("prefilled bucket holds %d records (%v), want %d", len(snap), err, records)
	}
	return s
}

// BenchmarkPutDurable is one PUT of a 1 KiB body into an enabled bucket of
// 1,000 or 100,000 records, synced to disk: its cost should not grow with
// the bucket.
func BenchmarkPutDurable(b *testing.B) {
	for _, records := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("records=%d", records), func(b *testing.B) {
			s := prefilled(b, records)
			body := bytes.Repeat([]byte("b"), 1024)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := s.PutObject("bench", fmt.Sprintf("new/%08d", i), body, core.PutOptions{}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkDeleteDurable is one DELETE without a version ID of an existing
// key of an enabled bucket of 1,000 or 100,000 records, synced to disk: it
// adds a delete marker, so it writes one entry and the bucket's metadata.
// Its cost should not grow with the bucket either.
func BenchmarkDeleteDurable(b *testing.B) {
	for _, records := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("records=%d", records), func(b *testing.B) {
			s := prefilled(b, records)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				res, err := s.DeleteObject("bench", fmt.Sprintf("prefill/%08d", i%records), core.DeleteOptions{})
				if err != nil || !res.DeleteMarker {
					b.Fatalf("DELETE: %+v, %v", res, err)
				}
				i++
			}
		})
	}
}

// BenchmarkDurablePaired measures BenchmarkPutDurable's PUT and
// BenchmarkDeleteDurable's DELETE in pairs, in the 1,000-record and the
// 100,000-record store, the order swapping each iteration
// (storagetest.DurablePaired). Every commit waits for fsync, whose time
// follows whatever else the disk is doing; run one size after the other, a
// slow stretch of the disk lands on one size only (one make bench measured
// the sequential PUT 100k/1k at 1.44 that way), paired it lands on both.
func BenchmarkDurablePaired(b *testing.B) {
	storagetest.DurablePaired(b, prefilled(b, 1000), prefilled(b, 100000))
}

// BenchmarkCommit is the cost of one bolt commit shaped like a PUT: the
// bucket's metadata, one entry item and one body of the given size.
func BenchmarkCommit(b *testing.B) {
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("body=%dKiB", size>>10), func(b *testing.B) {
			s, err := Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			meta := bytes.Repeat([]byte("m"), 150)
			record := bytes.Repeat([]byte("r"), 150)
			body := bytes.Repeat([]byte("b"), size)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := s.Commit(core.ChangeSet{
					{Kind: core.KindBucket, Key: "bench", Value: meta},
					{Kind: core.KindRecord, Key: fmt.Sprintf("bench/%08d", i), Value: record},
					{Kind: core.KindBody, Key: fmt.Sprintf("bench/%016x", i), Value: body},
				}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
