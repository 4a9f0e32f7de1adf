package core

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

// Write conditions (S3's If-None-Match: * and If-Match on PutObject and
// CompleteMultipartUpload) are checked inside the write's transaction.

func TestPutIfNoneMatchWritesOnlyAKeyWithoutAnObject(t *testing.T) {
	for _, state := range []VersioningState{Unversioned, Enabled, Suspended} {
		t.Run(string(state), func(t *testing.T) {
			ts := newTestStore(t)
			ts.bucket(mpBucket, state)
			ifNone := PutOptions{WriteConditions: WriteConditions{IfNoneMatch: true}}

			if _, err := ts.PutObject(mpBucket, "k", []byte("first"), ifNone); err != nil {
				t.Fatalf("a new key: %v", err)
			}
			before := ts.stack(mpBucket, "k")
			_, err := ts.PutObject(mpBucket, "k", []byte("second"), ifNone)
			if e := wantCode(t, err, PreconditionFailed); e.Condition != "If-None-Match" || e.Key != "k" {
				t.Errorf("error names condition %q, key %q", e.Condition, e.Key)
			}
			if got := ts.stack(mpBucket, "k"); got != before {
				t.Errorf("a failed condition changed the key: %s, was %s", got, before)
			}
			if ts.mpBody("k") != "first" {
				t.Error("a failed condition replaced the object")
			}

			ts.del(mpBucket, "k", "")
			if _, err := ts.PutObject(mpBucket, "k", []byte("third"), ifNone); err != nil {
				t.Errorf("a key whose object was deleted (current entry %s): %v", ts.stack(mpBucket, "k"), err)
			}
		})
	}
}

func TestPutIfMatchComparesTheCurrentETag(t *testing.T) {
	for _, state := range []VersioningState{Unversioned, Enabled} {
		t.Run(string(state), func(t *testing.T) {
			ts := newTestStore(t)
			ts.bucket(mpBucket, state)
			ifMatch := func(etag string) PutOptions { return PutOptions{WriteConditions: WriteConditions{IfMatch: etag}} }

			_, err := ts.PutObject(mpBucket, "k", []byte("x"), ifMatch(mpMD5("x")))
			if e := wantCode(t, err, NoSuchKey); e.Key != "k" {
				t.Errorf("NoSuchKey names key %q", e.Key)
			}
			first := ts.put(mpBucket, "k", "one")
			_, err = ts.PutObject(mpBucket, "k", []byte("two"), ifMatch(mpMD5("other")))
			if e := wantCode(t, err, PreconditionFailed); e.Condition != "If-Match" {
				t.Errorf("error names condition %q", e.Condition)
			}
			if _, err := ts.PutObject(mpBucket, "k", []byte("two"), ifMatch(`"`+first.ETag+`"`)); err != nil {
				t.Fatalf("the current ETag, quoted: %v", err)
			}
			if _, err := ts.PutObject(mpBucket, "k", []byte("three"), ifMatch(mpMD5("two"))); err != nil {
				t.Fatalf("the current ETag, unquoted: %v", err)
			}
			_, err = ts.PutObject(mpBucket, "k", []byte("four"), ifMatch(first.ETag))
			wantCode(t, err, PreconditionFailed)
			if got := ts.mpBody("k"); got != "three" {
				t.Errorf("body %q, want three", got)
			}
			if state == Enabled {
				ts.del(mpBucket, "k", "")
				_, err = ts.PutObject(mpBucket, "k", []byte("five"), ifMatch(mpMD5("three")))
				wantCode(t, err, NoSuchKey)
			}
		})
	}
}

// Of puts racing with If-None-Match on one key, exactly one writes.
func TestPutIfNoneMatchIsAtomicWithTheWrite(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket(mpBucket, Enabled)
	const writers = 16
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			_, errs[i] = ts.PutObject(mpBucket, "lock", []byte{byte(i)}, PutOptions{WriteConditions: WriteConditions{IfNoneMatch: true}})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, PreconditionFailed):
			t.Errorf("a losing writer got %v, want PreconditionFailed", err)
		}
	}
	if won != 1 || ts.stack(mpBucket, "lock") != "v00000001:data" {
		t.Errorf("%d writers won, stack %s; want exactly one version", won, ts.stack(mpBucket, "lock"))
	}
}

func TestCreateMultipartUploadTakesNoWriteConditions(t *testing.T) {
	ts := mpStore(t, 1, Unversioned)
	_, err := ts.CreateMultipartUpload(mpBucket, "k", PutOptions{WriteConditions: WriteConditions{IfNoneMatch: true}})
	wantCode(t, err, InvalidRequest)
}

// mpCompleteIf completes an upload of one part "data" with cond.
func (ts *testStore) mpCompleteIf(key, id string, cond WriteConditions) (PutResult, error) {
	return ts.CompleteMultipartUploadIf(mpBucket, key, id, []CompletedPart{mpCP(1, mpMD5("data"))}, cond)
}

// mpStart creates an upload of one part "data".
func (ts *testStore) mpStart(key string) string {
	id := ts.mpCreate(key)
	ts.mpPart(key, id, 1, "data")
	return id
}

func TestCompleteIfNoneMatch(t *testing.T) {
	ifNone := WriteConditions{IfNoneMatch: true}
	t.Run("a key without an object is written", func(t *testing.T) {
		ts := mpStore(t, 1, Unversioned)
		if _, err := ts.mpCompleteIf("k", ts.mpStart("k"), ifNone); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a key written before the upload began is PreconditionFailed", func(t *testing.T) {
		ts := mpStore(t, 1, Unversioned)
		ts.put(mpBucket, "k", "old")
		_, err := ts.mpCompleteIf("k", ts.mpStart("k"), ifNone)
		if e := wantCode(t, err, PreconditionFailed); e.Condition != "If-None-Match" {
			t.Errorf("condition %q", e.Condition)
		}
	})
	t.Run("a key written during the upload is PreconditionFailed", func(t *testing.T) {
		ts := mpStore(t, 1, Enabled)
		id := ts.mpStart("k")
		ts.put(mpBucket, "k", "meanwhile")
		_, err := ts.mpCompleteIf("k", id, ifNone)
		wantCode(t, err, PreconditionFailed)
	})
	// S3 answers ConditionalRequestConflict when the key was deleted
	// between the upload's start and its conditional completion; the
	// upload must be started again.
	for _, state := range []VersioningState{Unversioned, Enabled, Suspended} {
		t.Run("a key deleted during the upload is ConditionalRequestConflict, "+string(state), func(t *testing.T) {
			ts := mpStore(t, 1, state)
			ts.put(mpBucket, "k", "old")
			id := ts.mpStart("k")
			_, err := ts.mpCompleteIf("k", id, ifNone)
			wantCode(t, err, PreconditionFailed)
			ts.del(mpBucket, "k", "")
			_, err = ts.mpCompleteIf("k", id, ifNone)
			if e := wantCode(t, err, ConditionalRequestConflict); e.Condition != "If-None-Match" || e.Key != "k" {
				t.Errorf("condition %q, key %q", e.Condition, e.Key)
			}
			if _, err := ts.mpCompleteIf("k", ts.mpStart("k"), ifNone); err != nil {
				t.Errorf("a new upload after the delete: %v", err)
			}
		})
	}
	t.Run("an upload whose key changed completes without conditions", func(t *testing.T) {
		ts := mpStore(t, 1, Unversioned)
		id := ts.mpStart("k")
		ts.put(mpBucket, "k", "meanwhile")
		ts.del(mpBucket, "k", "")
		if _, err := ts.mpCompleteIf("k", id, WriteConditions{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a repeated Complete answers as before", func(t *testing.T) {
		ts := mpStore(t, 1, Enabled)
		id := ts.mpStart("k")
		first, err := ts.mpCompleteIf("k", id, ifNone)
		ts.must(err)
		again, err := ts.mpCompleteIf("k", id, ifNone)
		if err != nil || again != first {
			t.Errorf("repeat: %+v %v, want %+v", again, err, first)
		}
	})
}

func TestCompleteIfMatch(t *testing.T) {
	ifMatch := func(body string) WriteConditions { return WriteConditions{IfMatch: mpMD5(body)} }
	t.Run("the ETag of the object the upload began with", func(t *testing.T) {
		ts := mpStore(t, 1, Enabled)
		ts.put(mpBucket, "k", "old")
		if _, err := ts.mpCompleteIf("k", ts.mpStart("k"), ifMatch("old")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("another ETag is PreconditionFailed", func(t *testing.T) {
		ts := mpStore(t, 1, Enabled)
		ts.put(mpBucket, "k", "old")
		id := ts.mpStart("k")
		ts.put(mpBucket, "k", "new")
		_, err := ts.mpCompleteIf("k", id, ifMatch("old"))
		if e := wantCode(t, err, PreconditionFailed); e.Condition != "If-Match" {
			t.Errorf("condition %q", e.Condition)
		}
	})
	t.Run("no object is NoSuchKey", func(t *testing.T) {
		ts := mpStore(t, 1, Enabled)
		_, err := ts.mpCompleteIf("k", ts.mpStart("k"), ifMatch("old"))
		wantCode(t, err, NoSuchKey)
	})
	t.Run("the ETag of an object written during the upload is ConditionalRequestConflict", func(t *testing.T) {
		ts := mpStore(t, 1, Unversioned)
		ts.put(mpBucket, "k", "old")
		id := ts.mpStart("k")
		ts.put(mpBucket, "k", "new")
		_, err := ts.mpCompleteIf("k", id, ifMatch("new"))
		if e := wantCode(t, err, ConditionalRequestConflict); e.Condition != "If-Match" {
			t.Errorf("condition %q", e.Condition)
		}
	})
	t.Run("changes to other keys and noncurrent versions are no conflict", func(t *testing.T) {
		ts := mpStore(t, 1, Enabled)
		first := ts.put(mpBucket, "k", "first")
		ts.put(mpBucket, "k", "old")
		id := ts.mpStart("k")
		ts.put(mpBucket, "other", "x")
		ts.del(mpBucket, "k", first.VersionID)
		if _, err := ts.mpCompleteIf("k", id, ifMatch("old")); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCompletedUploadKeepsItsPartSizes(t *testing.T) {
	ts := mpStore(t, 5, Enabled)
	id := ts.mpCreate("k")
	ts.mpPart("k", id, 2, "hello ")
	ts.mpPart("k", id, 3, "unused")
	ts.mpPart("k", id, 7, "world")
	ts.mpComplete("k", id, mpCP(2, mpMD5("hello ")), mpCP(7, mpMD5("world")))
	obj, err := ts.GetObject(mpBucket, "k", GetOptions{})
	ts.must(err)
	if v := obj.Version; v.Parts != 2 || !slices.Equal(v.PartSizes, []int64{6, 5}) {
		t.Fatalf("Parts %d, PartSizes %v; want 2 parts of 6 and 5 bytes", v.Parts, v.PartSizes)
	}
	tests := []struct {
		n          int
		start, end int64
		ok         bool
	}{{1, 0, 6, true}, {2, 6, 11, true}, {3, 0, 0, false}, {0, 0, 0, false}}
	for _, tt := range tests {
		start, end, ok := obj.Version.PartRange(tt.n)
		if start != tt.start || end != tt.end || ok != tt.ok {
			t.Errorf("PartRange(%d) = %d, %d, %v; want %d, %d, %v", tt.n, start, end, ok, tt.start, tt.end, tt.ok)
		}
		if ok && string(obj.Body[start:end]) != []string{"hello ", "world"}[tt.n-1] {
			t.Errorf("part %d is %q", tt.n, obj.Body[start:end])
		}
	}
}

func TestPartRangeOfAVersionInOnePieceOrOfUnknownParts(t *testing.T) {
	plain := &Version{Size: 7}
	if start, end, ok := plain.PartRange(1); start != 0 || end != 7 || !ok {
		t.Errorf("a plain PUT's part 1 = %d, %d, %v; want the whole object", start, end, ok)
	}
	if _, _, ok := plain.PartRange(2); ok {
		t.Error("a plain PUT has a part 2")
	}
	old := &Version{Size: 7, Parts: 2} // completed before MiniS3 kept part sizes
	if _, _, ok := old.PartRange(1); ok {
		t.Error("a multipart version of unknown part sizes has a part range")
	}
}
