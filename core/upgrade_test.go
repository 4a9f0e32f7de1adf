package core

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The upgrade from formats 1 and 2, whose records held a key's whole
// version stack in one item, to format 3's entry items.
//
// testdata/format2/store.txt holds every item a store of format 2 kept
// after formatScenario (written by commit 686837c, the last of format 2):
// a line per item, its kind, then its key and value quoted as Go strings.

// formatScenario writes, through the store's API only, one of everything a
// store keeps: an unversioned bucket with an overwritten and a deleted key
// and object metadata; a versioned bucket with deep stacks, delete markers,
// a suspended period's null versions and null delete marker, a key that is
// spelled like a sequence number, a key with control and non-ASCII
// characters, a completed multipart object and one in progress; a lifecycle
// configuration and the manual clock.
func formatScenario(s *Store) error {
	var err error
	step := func(e error) {
		if err == nil && e != nil {
			err = e
		}
	}
	put := func(bucket, key, body string, meta ObjectMeta) {
		_, e := s.PutObject(bucket, key, []byte(body), PutOptions{Meta: meta})
		step(e)
	}
	del := func(bucket, key, id string) {
		_, e := s.DeleteObject(bucket, key, DeleteOptions{VersionID: id})
		step(e)
	}
	step(s.SetClock(0))
	step(s.CreateBucket("plain"))
	put("plain", "a.txt", "hello", ObjectMeta{ContentType: "text/plain"})
	put("plain", "a.txt", "hello again", ObjectMeta{CacheControl: "no-cache", Expires: "Thu, 01 Dec 1994 16:00:00 GMT", User: map[string]string{"who": "me", "a": "1"}})
	put("plain", "b", "gone soon", ObjectMeta{})
	del("plain", "b", "")
	step(s.CreateBucket("demo"))
	step(s.SetBucketVersioning("demo", Enabled))
	for i := range 5 {
		step(s.SetClock(float64(i) + 0.5))
		put("demo", "logs/x", fmt.Sprint("x", i), ObjectMeta{})
		put("demo", "0000000000000005", fmt.Sprint("seq-like ", i), ObjectMeta{})
	}
	step(s.SetClock(6))
	del("demo", "logs/x", "")
	del("demo", "logs/x", "v00000003")
	put("demo", "k", "k1", ObjectMeta{})
	put("demo", "dir/ünïcode key\x01", "", ObjectMeta{ContentLanguage: "fr"})
	step(s.SetBucketVersioning("demo", Suspended))
	step(s.SetClock(7.25))
	put("demo", "k", "null-1", ObjectMeta{})
	put("demo", "k", "null-2", ObjectMeta{ContentEncoding: "gzip"})
	del("demo", "m", "")
	step(s.SetBucketVersioning("demo", Enabled))
	step(s.SetClock(8))
	put("demo", "k", "k3", ObjectMeta{})
	up, e := s.CreateMultipartUpload("demo", "mp", PutOptions{Meta: ObjectMeta{ContentType: "application/octet-stream"}})
	step(e)
	p1, e := s.UploadPart("demo", "mp", up.UploadID, 1, []byte("part one "))
	step(e)
	p2, e := s.UploadPart("demo", "mp", up.UploadID, 2, []byte("part two"))
	step(e)
	_, e = s.CompleteMultipartUpload("demo", "mp", up.UploadID, []CompletedPart{{1, p1.ETag}, {2, p2.ETag}})
	step(e)
	open, e := s.CreateMultipartUpload("demo", "pending", PutOptions{})
	step(e)
	_, e = s.UploadPart("demo", "pending", open.UploadID, 1, []byte("half"))
	step(e)
	step(s.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{{ID: "logs", Enabled: true, Prefix: "logs/", NoncurrentDays: 1}}}))
	step(s.SetClock(9))
	return err
}

// scenarioOptions are the options formatScenario's stores are opened with.
var scenarioOptions = Options{ManualClock: true, MinPartSize: 1}

// loadFixture reads a file of stored items into a MemoryStorage.
func loadFixture(t *testing.T, path string) *MemoryStorage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kinds := make(map[string]Kind)
	for _, k := range []Kind{KindMeta, KindBucket, KindRecord, KindUpload, KindBody} {
		kinds[k.String()] = k
	}
	var cs ChangeSet
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		kind, rest, _ := strings.Cut(lines.Text(), " ")
		quotedKey, err := strconv.QuotedPrefix(rest)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, lines.Text(), err)
		}
		key, _ := strconv.Unquote(quotedKey)
		value, err := strconv.Unquote(strings.TrimPrefix(rest[len(quotedKey):], " "))
		if _, known := kinds[kind]; !known || err != nil {
			t.Fatalf("%s: %q is not a stored item", path, lines.Text())
		}
		cs = append(cs, Change{Kind: kinds[kind], Key: key, Value: []byte(value)})
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	mem := NewMemoryStorage()
	if err := mem.Commit(cs); err != nil {
		t.Fatal(err)
	}
	return mem
}

// itemsOf is a copy of everything mem holds.
func itemsOf(mem *MemoryStorage) map[Kind]map[string]string {
	mem.mu.Lock()
	defer mem.mu.Unlock()
	out := make(map[Kind]map[string]string)
	for kind, items := range mem.items {
		out[kind] = make(map[string]string)
		for key, value := range items {
			out[kind][key] = string(value)
		}
	}
	return out
}

// diffItems describes how two storages' items differ, or is "".
func diffItems(got, want map[Kind]map[string]string) string {
	var out []string
	for _, kind := range []Kind{KindMeta, KindBucket, KindRecord, KindUpload, KindBody} {
		for _, key := range slices.Sorted(maps.Keys(got[kind])) {
			if w, ok := want[kind][key]; !ok || w != got[kind][key] {
				out = append(out, fmt.Sprintf("%v %q: %q, want %q", kind, key, got[kind][key], w))
			}
		}
		for _, key := range slices.Sorted(maps.Keys(want[kind])) {
			if _, ok := got[kind][key]; !ok {
				out = append(out, fmt.Sprintf("%v %q is missing", kind, key))
			}
		}
	}
	return strings.Join(out, "\n")
}

// A store of format 2 opens upgraded, in one commit, to exactly the items
// the same operations store in format 3, and opens again with no commit.
func TestOpenUpgradesFormat2Stores(t *testing.T) {
	mem := loadFixture(t, "testdata/format2/store.txt")
	faults := NewFaultStorage(mem)
	s, err := Open(faults, scenarioOptions)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if n := faults.Commits(); n != 1 {
		t.Errorf("the upgrade made %d commits, want 1", n)
	}
	if err := s.Check(); err != nil {
		t.Errorf("the upgraded store: %v", err)
	}

	fresh := NewMemoryStorage()
	replayed, err := Open(fresh, scenarioOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := formatScenario(replayed); err != nil {
		t.Fatal(err)
	}
	if diff := diffItems(itemsOf(mem), itemsOf(fresh)); diff != "" {
		t.Errorf("the upgraded storage differs from the one format 3 writes:\n%s", diff)
	}

	again, err := Open(faults, scenarioOptions)
	if err != nil {
		t.Fatalf("reopening the upgraded store: %v", err)
	}
	if n := faults.Commits(); n != 1 {
		t.Errorf("reopening an upgraded store committed %d times", n-1)
	}
	if err := again.Check(); err != nil {
		t.Errorf("the reopened store: %v", err)
	}
	if got, want := again.Now(), replayed.Now(); got != want {
		t.Errorf("the upgraded clock reads %v, want %v", got, want)
	}
}

// A failed upgrade fails Open and leaves the storage as it was, for the
// next Open to try again.
func TestAFailedUpgradeChangesNothing(t *testing.T) {
	mem := loadFixture(t, "testdata/format2/store.txt")
	before := itemsOf(mem)
	faults := NewFaultStorage(mem)
	faults.FailCommits(nil)
	if _, err := Open(faults, scenarioOptions); err == nil || !strings.Contains(err.Error(), ErrInjected.Error()) {
		t.Fatalf("Open with failing commits = %v, want the injected failure", err)
	}
	if diff := diffItems(itemsOf(mem), before); diff != "" {
		t.Fatalf("the failed upgrade changed the storage:\n%s", diff)
	}
	faults.ClearFaults()
	s, err := Open(faults, scenarioOptions)
	if err != nil {
		t.Fatalf("Open after the fault: %v", err)
	}
	if err := s.Check(); err != nil {
		t.Error(err)
	}
}

// A record stored as format 1's JSON is upgraded like one of format 2.
func TestOpenUpgradesFormat1Records(t *testing.T) {
	mem := NewMemoryStorage()
	old := recordJSON{Key: "k", Versions: []entryJSON{
		{ID: "v00000002", Created: 5, Seq: 2, ETag: "e2", Size: 1},
		{ID: "v00000001", Created: 0, Seq: 1, ETag: "e1", Size: 1},
	}}
	if err := mem.Commit(ChangeSet{
		{Kind: KindMeta, Key: "store", Value: []byte(`{"format":1,"clock":0}`)},
		{Kind: KindBucket, Key: "demo", Value: appendBucketMeta(nil, bucketMeta{Name: "demo", Versioning: Enabled, NextVersion: 3, NextSeq: 3, NextUpload: 1})},
		{Kind: KindRecord, Key: "demo/k", Value: mustJSON(old)},
		{Kind: KindBody, Key: bodyRef("demo", 1), Value: []byte("1")},
		{Kind: KindBody, Key: bodyRef("demo", 2), Value: []byte("2")},
	}); err != nil {
		t.Fatal(err)
	}
	ts := openTestStore(t, mem, Options{})
	if got := ts.stack("demo", "k"); got != "v00000002:data v00000001:data" {
		t.Errorf("the upgraded stack is %q", got)
	}
	items := itemsOf(mem)[KindRecord]
	if _, ok := items["demo/k"]; ok || len(items) != 2 {
		t.Errorf("the upgraded storage holds the entry items %q, want two and not the record", slices.Sorted(maps.Keys(items)))
	}
	if got := itemsOf(mem)[KindMeta]["store"]; got != `{"format":3,"clock":0}` {
		t.Errorf("the upgraded store metadata is %s", got)
	}
}

// Open refuses what no store of any format wrote, rather than guess which
// item to keep.
func TestUpgradeRefusesConflictingItems(t *testing.T) {
	first, second := &Version{VersionID: "v00000001", seq: 1}, &Version{VersionID: "v00000002", seq: 2}
	for _, tc := range []struct {
		name  string
		items ChangeSet
	}{
		{"a key stored as a record and as entries", ChangeSet{
			{Kind: KindRecord, Key: "demo/k", Value: encodeFormat2Record(rec("k", first))},
			{Kind: KindRecord, Key: bodyRef("demo", 2), Value: appendEntryItem(nil, "k", second)},
		}},
		{"a sequence number in two records", ChangeSet{
			{Kind: KindRecord, Key: "demo/a", Value: encodeFormat2Record(rec("a", first))},
			{Kind: KindRecord, Key: "demo/b", Value: encodeFormat2Record(rec("b", &Version{VersionID: "v00000002", seq: 1}))},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := NewMemoryStorage()
			m := bucketMeta{Name: "demo", Versioning: Enabled, NextVersion: 3, NextSeq: 3, NextUpload: 1}
			if err := mem.Commit(append(ChangeSet{{Kind: KindBucket, Key: "demo", Value: appendBucketMeta(nil, m)}}, tc.items...)); err != nil {
				t.Fatal(err)
			}
			before := itemsOf(mem)
			if _, err := Open(mem, Options{}); err == nil {
				t.Fatal("Open accepted them")
			}
			if diff := diffItems(itemsOf(mem), before); diff != "" {
				t.Errorf("the refused Open changed the storage:\n%s", diff)
			}
		})
	}
}

// A PUT stores its entry, its body and the bucket's counters, whatever the
// depth of the stack it goes on; so does a delete marker. (The keys have
// one length, and the counters as many digits, in every write compared.)
func TestWritesDoNotGrowWithTheStack(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	written := func() int {
		n := 0
		for _, c := range ts.faults.LastCommit() {
			n += len(c.Key) + len(c.Value)
		}
		return n
	}
	for range 1000 {
		ts.put("demo", "deep", "body")
	}
	ts.put("demo", "none", "body")
	onto0 := written()
	ts.put("demo", "deep", "body")
	if got := written(); got != onto0 {
		t.Errorf("a PUT onto 1,000 entries wrote %d bytes, onto none %d", got, onto0)
	}
	ts.del("demo", "gone", "")
	marker0 := written()
	ts.del("demo", "deep", "")
	if got := written(); got != marker0 {
		t.Errorf("a delete marker onto 1,001 entries wrote %d bytes, onto none %d", got, marker0)
	}
	cs := ts.faults.LastCommit()
	if len(cs) != 2 || cs[1].Kind != KindRecord || !bytes.HasPrefix(cs[1].Value, []byte{itemEntry}) {
		t.Errorf("the delete marker's commit is %v, want the bucket's counters and the marker's entry", cs)
	}
}
