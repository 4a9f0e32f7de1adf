package core

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// The upgrade from formats 1 and 2, whose records held a key's whole
// version stack in one item, to format 3's entry items. The upgrade of a
// whole store of format 2 is checked on every storage by package
// storagetest (AStoreOfFormat2OpensUpgraded).

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
