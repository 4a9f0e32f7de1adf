package core

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// dump renders everything a client can observe in the store, and what the
// storage holds, so that two dumps differ iff anything changed.
func dump(ts *testStore) string {
	ts.t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "clock %v\n", ts.Now())
	for _, info := range ts.ListBuckets() {
		fmt.Fprintf(&b, "bucket %s %s %v\n", info.Name, info.Versioning, info.CreatedAt)
		if cfg, err := ts.BucketLifecycle(info.Name); err == nil {
			fmt.Fprintf(&b, "  lifecycle %s\n", mustJSON(cfg))
		}
		recs, err := ts.Snapshot(info.Name)
		ts.must(err)
		for _, r := range recs {
			fmt.Fprintf(&b, "  %s: %s\n", r.Key, renderStack(r))
			for _, e := range r.Versions {
				if v, ok := e.(*Version); ok {
					obj, err := ts.GetObject(info.Name, r.Key, GetOptions{VersionID: v.VersionID})
					ts.must(err)
					fmt.Fprintf(&b, "    %s %s %d %v %q\n", v.VersionID, v.ETag, v.Size, v.CreatedAt, obj.Body)
				}
			}
		}
		ups, err := ts.ListMultipartUploads(info.Name, ListUploadsOptions{})
		ts.must(err)
		for _, u := range ups.Uploads {
			parts, err := ts.ListParts(info.Name, u.Key, u.UploadID, ListPartsOptions{})
			ts.must(err)
			fmt.Fprintf(&b, "  upload %s %s %+v\n", u.UploadID, u.Key, parts.Parts)
		}
	}
	for _, k := range []Kind{KindMeta, KindBucket, KindRecord, KindUpload, KindBody} {
		fmt.Fprintf(&b, "stored %v: %d\n", k, ts.memory.Len(k))
	}
	return b.String()
}

// TestFailedCommitChangesNothing fails the storage commit of every kind of
// mutation and checks that the call reports the failure, that nothing
// observable changed, and that the same call succeeds once the fault is
// cleared.
func TestFailedCommitChangesNothing(t *testing.T) {
	rule := []ExpirationRule{{ID: "r", Prefix: "logs/", ExpireCurrentAfter: Seconds(1), ExpireNoncurrentAfter: Seconds(1)}}
	tests := []struct {
		name string
		op   func(ts *testStore) error
	}{
		{"put a new version", func(ts *testStore) error {
			_, err := ts.PutObject("demo", "logs/a", []byte("new"), PutOptions{})
			return err
		}},
		{"put into a suspended bucket replacing a null version", func(ts *testStore) error {
			_, err := ts.PutObject("susp", "k", []byte("replacement"), PutOptions{})
			return err
		}},
		{"delete adding a marker", func(ts *testStore) error {
			_, err := ts.DeleteObject("demo", "logs/a", DeleteOptions{})
			return err
		}},
		{"delete a version by ID", func(ts *testStore) error {
			_, err := ts.DeleteObject("demo", "logs/a", DeleteOptions{VersionID: "v00000001"})
			return err
		}},
		{"delete an unversioned object", func(ts *testStore) error {
			_, err := ts.DeleteObject("plain", "k", DeleteOptions{})
			return err
		}},
		{"delete many objects", func(ts *testStore) error {
			_, err := ts.DeleteObjects("demo", []ObjectIdentifier{{Key: "logs/a"}, {Key: "logs/b", VersionID: "v00000003"}})
			return err
		}},
		{"lifecycle tick", func(ts *testStore) error {
			_, err := ts.LifecycleTick("demo", rule)
			return err
		}},
		{"suspended lifecycle tick", func(ts *testStore) error {
			_, err := ts.LifecycleTick("susp", []ExpirationRule{{ID: "all", ExpireCurrentAfter: Seconds(0)}})
			return err
		}},
		{"create multipart upload", func(ts *testStore) error {
			_, err := ts.CreateMultipartUpload("demo", "big", PutOptions{})
			return err
		}},
		{"upload part", func(ts *testStore) error {
			_, err := ts.UploadPart("demo", "mp", "u00000001", 2, []byte("part two"))
			return err
		}},
		{"complete multipart upload", func(ts *testStore) error {
			sum := md5.Sum([]byte("part one"))
			_, err := ts.CompleteMultipartUpload("demo", "mp", "u00000001", []CompletedPart{{1, hex.EncodeToString(sum[:])}})
			return err
		}},
		{"abort multipart upload", func(ts *testStore) error {
			return ts.AbortMultipartUpload("demo", "mp", "u00000001")
		}},
		{"create bucket", func(ts *testStore) error { return ts.CreateBucket("another") }},
		{"delete bucket", func(ts *testStore) error { return ts.DeleteBucket("empty") }},
		{"set versioning", func(ts *testStore) error { return ts.SetBucketVersioning("plain", Enabled) }},
		{"put lifecycle configuration", func(ts *testStore) error {
			return ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{expireAfter("x", "", 1)}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := openTestStore(t, NewMemoryStorage(), Options{MinPartSize: 1})
			ts.bucket("demo", Enabled)
			ts.bucket("susp", Suspended)
			ts.bucket("plain", Unversioned)
			ts.bucket("empty", Unversioned)
			ts.at(0).put("demo", "logs/a", "one")
			ts.put("demo", "logs/a", "two")
			ts.put("demo", "logs/b", "three")
			// A tick expires several versions of logs/c in one transaction.
			ts.put("demo", "logs/c", "c1")
			ts.put("demo", "logs/c", "c2")
			ts.put("demo", "logs/c", "c3")
			ts.put("susp", "k", "null body")
			ts.put("plain", "k", "plain body")
			_, err := ts.CreateMultipartUpload("demo", "mp", PutOptions{})
			ts.must(err)
			_, err = ts.UploadPart("demo", "mp", "u00000001", 1, []byte("part one"))
			ts.must(err)
			ts.at(10)

			before := dump(ts)
			ts.faults.FailCommits()
			err = tt.op(ts)
			if !errors.Is(err, errInjected) || !errors.Is(err, InternalError) {
				t.Fatalf("with a failing commit: err = %v, want InternalError wrapping the storage error", err)
			}
			if after := dump(ts); after != before {
				t.Fatalf("a failed commit changed the store:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			ts.faults.ClearFaults()
			if err := tt.op(ts); err != nil {
				t.Fatalf("after clearing the fault: %v", err)
			}
			if dump(ts) == before {
				t.Fatalf("the retried operation changed nothing")
			}
		})
	}
}

func TestFailedBodyReadIsAnInternalError(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.put("demo", "k", "x")
	ts.faults.FailReads()
	_, err := ts.GetObject("demo", "k", GetOptions{})
	if !errors.Is(err, InternalError) || !errors.Is(err, errInjected) {
		t.Fatalf("GET with a failing storage: %v", err)
	}
	ts.faults.ClearFaults()
}

// TestPutWritesOnlyWhatChanged pins the cost of a write: a PUT into a
// bucket of 100,000 records commits one entry, one body and the bucket's
// metadata, not the bucket.
func TestPutWritesOnlyWhatChanged(t *testing.T) {
	mem := NewMemoryStorage()
	const n = 100_000
	m := bucketMeta{Name: "big", Versioning: Enabled, NextVersion: n + 1, NextSeq: n + 1, NextUpload: 1}
	cs := ChangeSet{{Kind: KindBucket, Key: "big", Value: encodeItem(m)}}
	for i := 1; i <= n; i++ {
		v := &Version{VersionID: formatVersionID(uint64(i)), ETag: "d41d8cd98f00b204e9800998ecf8427e", seq: uint64(i)}
		cs = append(cs, Change{Kind: KindRecord, Key: entryRef("big", uint64(i)), Value: appendEntryItem(nil, fmt.Sprintf("key-%06d", i), v)},
			Change{Kind: KindBody, Key: entryRef("big", uint64(i)), Value: []byte{}})
	}
	if err := mem.Commit(cs); err != nil {
		t.Fatal(err)
	}
	ts := openTestStore(t, mem, Options{})
	tests := []struct {
		name    string
		op      func() error
		records int
		bodies  int
	}{
		{"put", func() error { _, err := ts.PutObject("big", "key-050000", []byte("x"), PutOptions{}); return err }, 1, 1},
		{"delete marker", func() error { _, err := ts.DeleteObject("big", "key-000001", DeleteOptions{}); return err }, 1, 0},
		{"delete version", func() error {
			_, err := ts.DeleteObject("big", "key-000002", DeleteOptions{VersionID: "v00000002"})
			return err
		}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts.must(tt.op())
			cs := ts.faults.LastCommit()
			if cs.Count(KindRecord) != tt.records || cs.Count(KindBody) != tt.bodies || cs.Count(KindBucket) > 1 || len(cs) > tt.records+tt.bodies+1 {
				t.Errorf("commit wrote %d changes (%d records, %d bodies), want %d records and %d bodies plus the bucket metadata",
					len(cs), cs.Count(KindRecord), cs.Count(KindBody), tt.records, tt.bodies)
			}
		})
	}
}

// TestReopenRestoresEverything closes nothing but opens a second store on
// the same storage, which must see exactly what the first one had.
func TestReopenRestoresEverything(t *testing.T) {
	mem := NewMemoryStorage()
	first := openTestStore(t, mem, Options{MinPartSize: 1})
	first.bucket("demo", Enabled)
	first.bucket("susp", Suspended)
	first.at(3).put("demo", "logs/a", "one")
	first.at(4).put("demo", "logs/a", "two")
	first.del("demo", "logs/a", "")
	first.put("susp", "k", "null")
	up, err := first.CreateMultipartUpload("demo", "mp", PutOptions{Meta: ObjectMeta{ContentType: "text/plain"}})
	first.must(err)
	_, err = first.UploadPart("demo", "mp", up.UploadID, 1, []byte("p1"))
	first.must(err)
	first.must(first.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{{ID: "r", Enabled: true, Filter: &LifecycleFilter{Prefix: ptr("logs/")},
		NoncurrentVersionExpiration: &NoncurrentVersionExpiration{NoncurrentDays: ptr(2)}}}}))
	// The newest version is deleted: its ID must still not be handed out again.
	first.put("demo", "gone", "x")
	first.del("demo", "gone", "v00000004")
	want := dump(first)
	first.retire()

	second := openTestStore(t, mem, Options{MinPartSize: 1}).at(4)
	if got := dump(second); got != want {
		t.Fatalf("reopened store differs:\n got:\n%s\nwant:\n%s", got, want)
	}
	if res := second.put("demo", "new", "x"); res.VersionID != "v00000005" {
		t.Errorf("after reopen a PUT got %s, want v00000005 (counters continue)", res.VersionID)
	}
	if up, err := second.CreateMultipartUpload("demo", "mp2", PutOptions{}); err != nil || up.UploadID != "u00000002" {
		t.Errorf("after reopen CreateMultipartUpload got %v, %v; want u00000002", up.UploadID, err)
	}
	// Ages keep counting from the original creation time.
	got := second.tick("demo", 4+10, ExpirationRule{ID: "age", Prefix: "logs/", ExpireNoncurrentAfter: Seconds(11)})
	if want := []string{"age logs/a v00000001 expire_noncurrent"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tick after reopen: %q, want %q", got, want)
	}
}

func TestManualClockIsPersisted(t *testing.T) {
	mem := NewMemoryStorage()
	s, err := Open(mem, Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Now() != 0 {
		t.Fatalf("a new manual clock reads %v, want 0", s.Now())
	}
	if _, err := s.SetClock(14.999); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(mem, Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	if s2.Now() != 14.999 {
		t.Errorf("reopened manual clock reads %v, want 14.999", s2.Now())
	}
	for _, bad := range []float64{math.NaN(), math.Inf(-1)} {
		if _, err := s2.SetClock(bad); !errors.Is(err, InvalidArgument) {
			t.Errorf("SetClock(%v) = %v, want InvalidArgument", bad, err)
		}
	}
	faults := &faultStorage{Storage: mem}
	s3, err := Open(faults, Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	faults.FailCommits()
	if _, err := s3.SetClock(20); !errors.Is(err, errInjected) {
		t.Errorf("SetClock with a failing commit = %v, want the storage error", err)
	}
	if s3.Now() != 14.999 {
		t.Errorf("a failed SetClock moved the clock to %v", s3.Now())
	}
	wall, err := Open(NewMemoryStorage(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wall.SetClock(1); !errors.Is(err, InvalidRequest) {
		t.Errorf("SetClock on a wall clock = %v, want InvalidRequest", err)
	}
}

func TestOpenRejectsCorruptStorage(t *testing.T) {
	first := &Version{VersionID: "null", seq: 1}
	tests := []struct {
		name   string
		change Change
	}{
		{"entry of a missing bucket", Change{Kind: KindRecord, Key: entryRef("nobucket", 1), Value: appendEntryItem(nil, "k", first)}},
		{"entry filed under another sequence number", Change{Kind: KindRecord, Key: entryRef("demo", 2), Value: appendEntryItem(nil, "k", first)}},
		{"entry filed under another bucket's ref", Change{Kind: KindRecord, Key: "demo/k", Value: appendEntryItem(nil, "k", first)}},
		{"undecodable entry", Change{Kind: KindRecord, Key: entryRef("demo", 1), Value: []byte{itemEntry, 1, 'k'}}},
		{"undecodable record", Change{Kind: KindRecord, Key: "demo/k", Value: []byte("{")}},
		{"newer format", Change{Kind: KindMeta, Key: "store", Value: []byte(`{"format":99}`)}},
		{"older format", Change{Kind: KindMeta, Key: "store", Value: []byte(`{"format":2}`)}},
		{"undecodable bucket", Change{Kind: KindBucket, Key: "other", Value: []byte("nope")}},
		{"bucket counter that is not a number", Change{Kind: KindBucket, Key: "other", Value: []byte(`{"name":"other","nextSeq":"1"}`)}},
		{"undecodable store metadata", Change{Kind: KindMeta, Key: "store", Value: []byte(`{"format":2,"clock":1e999}`)}},
		{"undecodable lifecycle configuration", Change{Kind: KindBucket, Key: lifecycleKey("demo"), Value: []byte(`{"rules":[{"id":"r"`)}},
		{"lifecycle configuration of the wrong shape", Change{Kind: KindBucket, Key: lifecycleKey("demo"), Value: []byte(`{"rules":{"id":"r"}}`)}},
		{"undecodable upload", Change{Kind: KindUpload, Key: "demo/u00000001", Value: []byte(`{"id":"u00000001","parts":[{"n":1.5}]}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := NewMemoryStorage()
			m := bucketMeta{Name: "demo", Versioning: Unversioned, NextVersion: 1, NextSeq: 1, NextUpload: 1}
			if err := mem.Commit(ChangeSet{{Kind: KindBucket, Key: "demo", Value: encodeItem(m)}, tt.change}); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(mem, Options{}); err == nil {
				t.Fatal("Open accepted corrupt storage")
			}
		})
	}
}

// Data of another storage format is refused with an error that names the
// format: format 3 is the only one.
func TestOpenNamesTheFormatOfOtherData(t *testing.T) {
	for name, item := range map[string]Change{
		"store metadata of format 2":      {Kind: KindMeta, Key: "store", Value: []byte(`{"format":2,"clock":0}`)},
		"a whole stack in one record (2)": {Kind: KindRecord, Key: "demo/k", Value: []byte{0x02, 1, 'k', 0}},
		"a record of JSON (format 1)":     {Kind: KindRecord, Key: "demo/k", Value: []byte(`{"k":"k","v":[]}`)},
	} {
		mem := NewMemoryStorage()
		m := bucketMeta{Name: "demo", Versioning: Unversioned, NextVersion: 1, NextSeq: 1, NextUpload: 1}
		if err := mem.Commit(ChangeSet{{Kind: KindBucket, Key: "demo", Value: encodeItem(m)}, item}); err != nil {
			t.Fatal(err)
		}
		_, err := Open(mem, Options{})
		if err == nil || !strings.Contains(err.Error(), "format 3 only") {
			t.Errorf("%s: Open = %v, want an error saying that format 3 is the only one read", name, err)
		}
	}
}
