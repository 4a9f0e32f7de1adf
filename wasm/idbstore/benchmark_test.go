//go:build js && wasm

package idbstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"minis3/core"
	"minis3/core/storagetest"
)

// prefillChunk is the number of changes per prefill commit: a few large
// IndexedDB transactions instead of one per object.
const prefillChunk = 25_000

// benchStores are the prefilled stores by record count, shared by every
// benchmark and every -count run of one test binary: filling IndexedDB with
// 100,000 records takes tens of seconds. Each benchmark undoes its writes
// after its timed loop, so every run starts from the same bucket.
var benchStores = map[int]*core.Store{}

// prefilled returns a core store over an IndexedDB database whose enabled
// bucket "bench" holds records objects of 100 bytes. The first call for a
// count fills it: the objects are put into a memory store and copied into
// IndexedDB in commits of prefillChunk changes, and the store is reopened so
// that it loads the records from IndexedDB as the page does. All of it runs
// before the benchmark's timer starts.
func prefilled(b *testing.B, records int) *core.Store {
	b.Helper()
	if s, ok := benchStores[records]; ok {
		return s
	}
	start := time.Now()
	rec, err := storagetest.Prefill("bench", records)
	if err != nil {
		b.Fatal(err)
	}
	name := fmt.Sprintf("idbstore-bench-%d", records)
	storage, err := Open(context.Background(), name)
	if err != nil {
		b.Fatal(err)
	}
	for cs := range slices.Chunk(rec.Changes(), prefillChunk) {
		if err := storage.Commit(cs); err != nil {
			b.Fatal(err)
		}
	}
	if err := storage.Close(); err != nil {
		b.Fatal(err)
	}
	if storage, err = Open(context.Background(), name); err != nil {
		b.Fatal(err)
	}
	s, err := core.Open(storage, core.Options{ManualClock: true})
	if err != nil {
		b.Fatal(err)
	}
	checkRecords(b, s, records)
	b.Logf("prefilled %d records in %v", records, time.Since(start).Round(time.Millisecond))
	benchStores[records] = s
	return s
}

// checkRecords fails the benchmark unless bucket "bench" of s holds exactly
// want records.
func checkRecords(b *testing.B, s *core.Store, want int) {
	b.Helper()
	if snap, err := s.Snapshot("bench"); err != nil || len(snap) != want {
		b.Fatalf("bucket bench holds %d records (%v), want %d", len(snap), err, want)
	}
}

// BenchmarkPutDurable is one PUT of a 1 KiB body under a new key into an
// enabled bucket of 1,000 or 100,000 records in IndexedDB, through a
// core.Store: one readwrite transaction that writes the bucket's metadata,
// one entry and one body. Its cost should not grow with the bucket.
func BenchmarkPutDurable(b *testing.B) {
	for _, records := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("records=%d", records), func(b *testing.B) {
			s := prefilled(b, records)
			body := bytes.Repeat([]byte("b"), 1024)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			var versions []string
			for b.Loop() {
				res, err := s.PutObject("bench", fmt.Sprintf("new/%08d", len(versions)), body, core.PutOptions{})
				if err != nil {
					b.Fatal(err)
				}
				versions = append(versions, res.VersionID)
			}
			// Outside the timer: remove the new versions (and so their
			// records) again.
			for i, v := range versions {
				if _, err := s.DeleteObject("bench", fmt.Sprintf("new/%08d", i), core.DeleteOptions{VersionID: v}); err != nil {
					b.Fatal(err)
				}
			}
			checkRecords(b, s, records)
		})
	}
}

// BenchmarkDeleteDurable is one DELETE without a version ID of an existing
// key of an enabled bucket of 1,000 or 100,000 records in IndexedDB: it adds
// a delete marker, so its transaction writes one entry and the bucket's
// metadata. Its cost should not grow with the bucket either.
func BenchmarkDeleteDurable(b *testing.B) {
	for _, records := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("records=%d", records), func(b *testing.B) {
			s := prefilled(b, records)
			b.ReportAllocs()
			var markers []string
			for b.Loop() {
				res, err := s.DeleteObject("bench", fmt.Sprintf("prefill/%08d", len(markers)%records), core.DeleteOptions{})
				if err != nil || !res.DeleteMarker {
					b.Fatalf("DELETE: %+v, %v", res, err)
				}
				markers = append(markers, res.VersionID)
			}
			// Outside the timer: remove the markers again, newest first,
			// so that every key's data version is current again.
			for i := len(markers) - 1; i >= 0; i-- {
				if _, err := s.DeleteObject("bench", fmt.Sprintf("prefill/%08d", i%records), core.DeleteOptions{VersionID: markers[i]}); err != nil {
					b.Fatal(err)
				}
			}
			checkRecords(b, s, records)
		})
	}
}

// BenchmarkDurablePaired measures BenchmarkPutDurable's PUT and
// BenchmarkDeleteDurable's DELETE in pairs: every iteration runs the
// operation in the 1,000-record and in the 100,000-record store, in an
// order that swaps each time, and times each. IndexedDB works in the
// background (Chromium's LevelDB compacts after the 100,000-record
// prefill), and the sequential benchmarks run all of one size's counts
// before the other's, so such work falls on one size only; paired, it
// falls on both. Each row reports both medians and their ratio, 100k/1k.
// Chromium's clock in a page that is not cross-origin isolated moves in
// coarse steps (see BENCHMARKS.md for what that means for these medians).
func BenchmarkDurablePaired(b *testing.B) {
	storagetest.DurablePaired(b, prefilled(b, 1000), prefilled(b, 100000))
}

// BenchmarkLoad is Load over a database of items entry items of 60 bytes,
// what core's Open reads from IndexedDB when the page starts: one per
// version since core's format 3. Load reads each object store with one
// getAll (readAll); the library's cursor took a round trip through Go per
// item.
func BenchmarkLoad(b *testing.B) {
	for _, items := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("items=%d", items), func(b *testing.B) {
			// A fresh database for every -count run: a storage that has
			// not loaded may not commit over another's writes.
			name := fmt.Sprintf("idbstore-bench-load-%d", items)
			if err := DeleteDatabase(context.Background(), name); err != nil {
				b.Fatal(err)
			}
			s, err := Open(context.Background(), name)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			cs := make(core.ChangeSet, items)
			for i := range cs {
				cs[i] = core.Change{Kind: core.KindRecord, Key: fmt.Sprintf("bench/%016x", i+1), Value: bytes.Repeat([]byte{3}, 60)}
			}
			if err := s.Commit(cs); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				n := 0
				if err := s.Load(func(core.Kind, string, []byte) error { n++; return nil }); err != nil {
					b.Fatal(err)
				}
				if n != items {
					b.Fatalf("Load visited %d items, want %d", n, items)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(items), "µs/item")
		})
	}
}
