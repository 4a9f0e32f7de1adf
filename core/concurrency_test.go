package core

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentWritesTicksAndReads runs writers, tickers and readers at
// once (meant for -race). Afterwards no write is lost and the invariants
// hold: one null entry per key at most, newest first, no reused IDs.
func TestConcurrentWritesTicksAndReads(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.bucket("susp", Suspended)
	const writers, puts = 4, 40
	rule := []ExpirationRule{{ID: "t", Prefix: "t/", ExpireCurrentAfter: Seconds(0), ExpireNoncurrentAfter: Seconds(0)}}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := fmt.Sprintf("w/%d", w)
			for i := range puts {
				if _, err := ts.PutObject("demo", key, []byte(fmt.Sprint(i)), PutOptions{}); err != nil {
					errs <- err
				}
				if _, err := ts.PutObject("demo", fmt.Sprintf("t/%d/%d", w, i%3), []byte("x"), PutOptions{}); err != nil {
					errs <- err
				}
				if _, err := ts.PutObject("susp", key, []byte("n"), PutOptions{}); err != nil {
					errs <- err
				}
				if i%10 == 9 {
					if _, err := ts.DeleteObject("demo", key, DeleteOptions{}); err != nil {
						errs <- err
					}
					if _, err := ts.DeleteObject("susp", key, DeleteOptions{}); err != nil {
						errs <- err
					}
				}
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := ts.LifecycleTick("demo", rule); err != nil {
					errs <- err
				}
				if _, err := ts.LifecycleTick("susp", []ExpirationRule{{ID: "s", ExpireCurrentAfter: Seconds(0)}}); err != nil {
					errs <- err
				}
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := ts.ListObjectVersions("demo", ListVersionsOptions{MaxKeys: -1}); err != nil {
					errs <- err
				}
				if _, err := ts.ListObjectsV2("demo", ListObjectsOptions{}); err != nil {
					errs <- err
				}
				if _, err := ts.PreviewExpiration("demo", rule); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	ts.must(ts.Check())
	recs, err := ts.Snapshot("demo")
	ts.must(err)
	for _, r := range recs {
		if len(r.Key) > 2 && r.Key[:2] == "w/" && len(r.Versions) != puts+puts/10 {
			t.Errorf("%s has %d entries, want %d: a write was lost", r.Key, len(r.Versions), puts+puts/10)
		}
	}
}

// A snapshot is read without the store's lock while PUTs go onto the same
// stack: the new records share the array behind the snapshot's record
// (newRecordOnto) and must only write slots it cannot see, which the race
// detector checks, and the snapshot must keep its entries.
func TestSnapshotsReadWhilePutsShareTheirStack(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.put("demo", "k", "first")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 300 {
			if _, err := ts.PutObject("demo", "k", []byte("x"), PutOptions{}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for reading := true; reading; {
		select {
		case <-done:
			reading = false
		default:
		}
		recs, err := ts.Snapshot("demo")
		if err != nil {
			t.Fatal(err)
		}
		r := recs[0]
		want := renderStack(r)
		if len(r.Versions) != int(r.Versions[0].Seq()) {
			t.Fatalf("a snapshot of %d entries has %s on top", len(r.Versions), r.Versions[0].ID())
		}
		for range 3 {
			if got := renderStack(r); got != want {
				t.Fatalf("a snapshot's stack changed under its reader")
			}
		}
	}
}
