package core

import (
	"errors"
	"testing"
)

// testStore is a store on fault-injecting memory storage with a manual
// clock the test moves, checked for invariants when the test ends.
type testStore struct {
	*Store
	t       *testing.T
	faults  *faultStorage
	memory  *MemoryStorage
	clockAt float64
	// retired is set when another store took over the same storage: this
	// one is stale and its final Check would see the other's changes.
	retired bool
}

func newTestStore(t *testing.T) *testStore {
	t.Helper()
	return openTestStore(t, NewMemoryStorage(), Options{})
}

func openTestStore(t *testing.T, mem *MemoryStorage, opts Options) *testStore {
	t.Helper()
	ts := &testStore{t: t, memory: mem, faults: &faultStorage{Storage: mem}}
	opts.Clock = func() float64 { return ts.clockAt }
	s, err := Open(ts.faults, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	ts.Store = s
	t.Cleanup(func() {
		if ts.retired {
			return
		}
		if err := s.Check(); err != nil {
			t.Errorf("store invariants: %v", err)
		}
		if n, want := mem.Len(KindBody), ts.liveBodies(); n != want {
			t.Errorf("store invariants: %d bodies stored, %d belong to a data version or a part", n, want)
		}
	})
	return ts
}

// liveBodies is the number of bodies the store's state refers to: one per
// data version and per part of an upload in progress. Check proves each is
// stored; comparing the count with the storage's proves no other is, so a
// removal that forgets a body fails every test that makes one.
func (ts *testStore) liveBodies() int {
	ts.Store.mu.Lock()
	defer ts.Store.mu.Unlock()
	n := 0
	for _, b := range ts.Store.buckets {
		for _, r := range b.records {
			for _, e := range r.Versions {
				if _, ok := e.(*Version); ok {
					n++
				}
			}
		}
		for _, u := range b.uploads {
			if u.Completed == nil {
				n += len(u.Parts)
			}
		}
	}
	return n
}

// retire checks the store now and hands its storage over to another store.
func (ts *testStore) retire() {
	ts.t.Helper()
	if err := ts.Check(); err != nil {
		ts.t.Errorf("store invariants: %v", err)
	}
	ts.retired = true
}

// at sets the clock.
func (ts *testStore) at(now float64) *testStore {
	ts.clockAt = now
	return ts
}

// bucket creates a bucket in the given versioning state.
func (ts *testStore) bucket(name string, state VersioningState) {
	ts.t.Helper()
	ts.must(ts.CreateBucket(name))
	if state != Unversioned {
		ts.must(ts.SetBucketVersioning(name, state))
	}
}

func (ts *testStore) put(bucket, key, body string) PutResult {
	ts.t.Helper()
	res, err := ts.PutObject(bucket, key, []byte(body), PutOptions{})
	ts.must(err)
	return res
}

func (ts *testStore) del(bucket, key, versionID string) DeleteResult {
	ts.t.Helper()
	res, err := ts.DeleteObject(bucket, key, DeleteOptions{VersionID: versionID})
	ts.must(err)
	return res
}

func (ts *testStore) must(err error) {
	ts.t.Helper()
	if err != nil {
		ts.t.Fatal(err)
	}
}

// stack renders a key's version stack as "id:kind" entries, newest first:
// "v00000003:marker v00000002:data".
func (ts *testStore) stack(bucket, key string) string {
	ts.t.Helper()
	recs, err := ts.Snapshot(bucket)
	ts.must(err)
	for _, r := range recs {
		if r.Key == key {
			return renderStack(r)
		}
	}
	return ""
}

func renderStack(r *ObjectRecord) string {
	out := ""
	for i, e := range r.Versions {
		if i > 0 {
			out += " "
		}
		kind := "data"
		if _, ok := e.(*DeleteMarker); ok {
			kind = "marker"
		}
		out += e.ID() + ":" + kind
	}
	return out
}

// wantCode fails the test unless err carries code.
func wantCode(t *testing.T, err error, code Code) *Error {
	t.Helper()
	if !errors.Is(err, code) {
		t.Fatalf("got error %v, want %s", err, code)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not a *core.Error", err)
	}
	return e
}

func ptr[T any](v T) *T { return &v }

// expireAfter is an S3 rule that expires current versions under prefix
// days after their creation.
func expireAfter(id, prefix string, days int) LifecycleRule {
	return LifecycleRule{ID: id, Enabled: true, Filter: &LifecycleFilter{Prefix: ptr(prefix)}, Expiration: &LifecycleExpiration{Days: ptr(days)}}
}
