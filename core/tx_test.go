package core

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"
)

func TestOverlayInOrder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reserve int      // overlay.reserve before the first set
		keys    []string // set in this order, value = position
	}{
		{"empty", 0, nil},
		{"one", 0, []string{"a"}},
		{"short, scanned", 0, []string{"c", "a", "b"}},
		{"long, indexed", 0, []string{"k09", "k03", "k11", "k00", "k07", "k01", "k10", "k05", "k02", "k08", "k04", "k06"}},
		{"shared prefixes", 0, []string{"b/0000000000000010", "b/000000000000000f", "b/0000000000000100", "b/0000000000000001", "a", "b"}},
		{"reserved, indexed from the start", 20, []string{"c", "a", "b"}},
		{"ties beyond 8 bytes past the shared prefix", 0, []string{"p/aaaaaaaaz", "p/aaaaaaaab", "p/aaaaaaaa", "p/aaaaaaab", "p/aaaaaaaaa", "p/", "p/a", "p/aaaaaaaa\x00", "p/aaaaaaaa\x00\x00b", "p/aaaaaaaa\x00a"}},
		{"zero bytes and prefixes of each other", 0, []string{"k\x00", "k", "k\x00\x00", "k\x00\x01", "k\x01", "k\xff", "k\xff\x00", "k\x00\xff", "j", "l"}},
		{"all keys equal up to one", 0, []string{"same-prefix/0001", "same-prefix/0003", "same-prefix/0002", "same-prefix/0000", "same-prefix/0009", "same-prefix/0005", "same-prefix/0004", "same-prefix/0008", "same-prefix/0007", "same-prefix/0006"}},
		{"reserved short", 2, []string{"c", "a", "b"}},
		{"reserved, indexed, left empty", 20, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o overlay[int]
			o.reserve(tc.reserve)
			for i, k := range tc.keys {
				o.set(k, i)
			}
			var got []string
			for _, i := range o.inOrder() {
				got = append(got, o.items[i].key)
			}
			want := slices.Sorted(slices.Values(tc.keys))
			if !slices.Equal(got, want) {
				t.Fatalf("inOrder visits %q, want %q", got, want)
			}
			// Ordering keeps every key finding its own value.
			for i, k := range tc.keys {
				if v, ok := o.get(k); !ok || v != i {
					t.Errorf("after inOrder, get(%q) = %d, %v; want %d", k, v, ok, i)
				}
			}
		})
	}
}

// A commit lists metadata, then entries, uploads, removed bodies and new
// bodies, each in ascending key order, whatever order the transaction
// touched them in.
func TestChangeSetIsInKeyOrder(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	// Keys written in descending order, so that body refs (by sequence
	// number) and record keys run in opposite directions.
	for round := range 2 {
		for i := 19; i >= 0; i-- {
			ts.put("demo", fmt.Sprintf("k/%02d", i), fmt.Sprint(round))
		}
	}
	rule := ExpirationRule{ID: "r", ExpireCurrentAfter: Seconds(0), ExpireNoncurrentAfter: Seconds(0)}
	if got := ts.tick("demo", 1, rule); len(got) != 40 {
		t.Fatalf("tick selected %d actions, want 40", len(got))
	}
	cs := ts.faults.LastCommit()
	checkChangeOrder(t, cs)
	// 20 markers added, 20 versions removed with their bodies.
	if cs.Count(KindBucket) != 1 || cs.Count(KindRecord) != 40 || cs.Count(KindBody) != 20 {
		t.Errorf("the commit changes %d bucket items, %d entries, %d bodies; want 1, 40, 20",
			cs.Count(KindBucket), cs.Count(KindRecord), cs.Count(KindBody))
	}
}

// A multipart completion over an unversioned object removes the old body,
// which the transaction notes by sequence number, and the parts, which it
// keeps in its overlay: the commit lists both kinds in one key order.
func TestChangeSetMergesRemovedBodiesInKeyOrder(t *testing.T) {
	ts := mpStore(t, 1, Unversioned)
	ts.put(mpBucket, "k", "old")
	id := ts.mpCreate("k")
	p1, p2 := ts.mpPart("k", id, 1, "a"), ts.mpPart("k", id, 2, "b")
	ts.mpComplete("k", id, CompletedPart{1, p1.ETag}, CompletedPart{2, p2.ETag})
	cs := ts.faults.LastCommit()
	checkChangeOrder(t, cs)
	var removed []string
	for _, c := range cs {
		if c.Kind == KindBody && c.Delete {
			removed = append(removed, c.Key)
		}
	}
	want := []string{bodyRef(mpBucket, 1), partRef(mpBucket, id, 1), partRef(mpBucket, id, 2)}
	if !slices.Equal(removed, want) {
		t.Errorf("removed bodies %q, want %q", removed, want)
	}
	if n := ts.memory.Len(KindBody); n != 1 {
		t.Errorf("%d bodies stored after the completion, want 1", n)
	}
}

// checkChangeOrder fails t unless cs lists the bucket's metadata, entries,
// uploads, removed bodies and new bodies, in that order, each by key.
func checkChangeOrder(t *testing.T, cs ChangeSet) {
	t.Helper()
	group := func(c Change) int {
		switch {
		case c.Kind == KindBucket:
			return 0
		case c.Kind == KindRecord:
			return 1
		case c.Kind == KindUpload:
			return 2
		case c.Kind == KindBody && c.Delete:
			return 3
		}
		return 4
	}
	var summary []string
	for i, c := range cs {
		summary = append(summary, fmt.Sprintf("%d:%s", group(c), c.Key))
		if i == 0 {
			continue
		}
		p := cs[i-1]
		if group(p) > group(c) || group(p) == group(c) && strings.Compare(p.Key, c.Key) >= 0 {
			t.Fatalf("change %d (%s) comes after %s; the commit is\n%s", i, c.Key, p.Key, strings.Join(summary, "\n"))
		}
	}
}

// Every transaction reuses the memory of the one before it (update): what
// an ended transaction changed, committed or not, must not reach the next
// one's change set.
func TestATransactionStartsEmptyAfterTheLastOne(t *testing.T) {
	failed := fmt.Errorf("fn failed")
	for _, tc := range []struct {
		name string
		last func(ts *testStore) error
	}{
		{"a PUT", func(ts *testStore) error {
			_, err := ts.PutObject("demo", "last", []byte("x"), PutOptions{})
			return err
		}},
		{"fn failed after changes", func(ts *testStore) error {
			return ts.update("demo", func(tx *tx) error {
				v := &Version{VersionID: tx.newVersionID(), ETag: "e", Size: 1, CreatedAt: tx.now, seq: tx.nextSeq()}
				tx.putBody(bodyRef("demo", v.seq), []byte("x"))
				tx.putEntry("ghost", v)
				tx.putEntry("k", &DeleteMarker{VersionID: tx.newVersionID(), CreatedAt: tx.now, seq: tx.nextSeq()})
				return failed
			})
		}},
		{"commit failed", func(ts *testStore) error {
			ts.faults.FailCommits(failed)
			defer ts.faults.ClearFaults()
			_, err := ts.DeleteObject("demo", "k", DeleteOptions{VersionID: "v00000001"})
			return err
		}},
		{"a tick of more items than an ended overlay keeps", func(ts *testStore) error {
			for i := range spareCap + 1 {
				ts.put("demo", fmt.Sprintf("old/%02d", i), "x")
			}
			_, err := ts.LifecycleTick("demo", []ExpirationRule{{ID: "all", Prefix: "old/", ExpireCurrentAfter: Seconds(0)}})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestStore(t)
			ts.bucket("demo", Enabled)
			ts.put("demo", "k", "1")
			if err := tc.last(ts); err != nil && err != failed && !strings.Contains(err.Error(), failed.Error()) {
				t.Fatalf("the last transaction: %v", err)
			}
			res := ts.put("demo", "next", "n")
			var got []string
			for _, c := range ts.faults.LastCommit() {
				got = append(got, fmt.Sprintf("%v %s delete=%v", c.Kind, c.Key, c.Delete))
			}
			ref := bodyRef("demo", ts.Store.buckets["demo"].records["next"].Versions[0].Seq())
			want := []string{"bucket demo delete=false", "record " + ref + " delete=false", "body " + ref + " delete=false"}
			if !slices.Equal(got, want) {
				t.Errorf("the PUT after it (%s) committed %q, want %q", res.VersionID, got, want)
			}
			if got := ts.stack("demo", "ghost"); got != "" {
				t.Errorf("a key of the failed transaction has the stack %q", got)
			}
		})
	}
}

// An ended transaction keeps no record or body alive: once a DELETE has
// removed a version, its body is garbage although the transaction that
// put it left its memory to the next.
func TestAnEndedTransactionHoldsNoBody(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	res := ts.put("demo", "k", strings.Repeat("b", 1024))
	seq := ts.Store.buckets["demo"].records["k"].Versions[0].Seq()
	stored := ts.memory.items[KindBody][bodyRef("demo", seq)]
	body, record := weak.Make(&stored[0]), weak.Make(ts.Store.buckets["demo"].records["k"])
	stored = nil
	ts.del("demo", "k", res.VersionID)
	runtime.GC()
	if body.Value() != nil || record.Value() != nil {
		t.Errorf("after the DELETE and a collection, the body is alive: %v, the record: %v", body.Value() != nil, record.Value() != nil)
	}
}

// TestSortSeqs compares sortSeqs with slices.Sort on sequence numbers of
// every size class: below radixMin (insertion sort), and from it on with an
// odd and an even number of radix passes, duplicates and the largest
// values.
func TestSortSeqs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		n    int
		max  uint64 // values in [0, max]
	}{
		{"empty", 0, 10},
		{"short", radixMin - 1, 1 << 20},
		{"the shortest sorted by radix", radixMin, 1 << 20},
		{"a few hundred", 300, 1 << 40},
		{"one byte, one pass", 1000, 255},
		{"two bytes, two passes", 9000, 1<<16 - 1},
		{"three bytes, three passes", 9000, 1<<24 - 1},
		{"many duplicates", 5000, 7},
		{"all zero", 300, 0},
		{"eight bytes", 2000, math.MaxUint64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seqs := make([]uint64, tc.n)
			for i := range seqs {
				if tc.max == math.MaxUint64 {
					seqs[i] = rng.Uint64()
				} else {
					seqs[i] = rng.Uint64N(tc.max + 1)
				}
			}
			want := slices.Sorted(slices.Values(seqs))
			sortSeqs(seqs)
			if !slices.Equal(seqs, want) {
				t.Errorf("sortSeqs of %d values up to %d differs from slices.Sort", tc.n, tc.max)
			}
		})
	}
}

// An entry a transaction adds and removes again (a DeleteObjects that
// deletes a key twice) is not stored; Check compares every stored entry
// item with the live entries.
func TestEntriesAddedAndRemovedInOneTransactionAreNotStored(t *testing.T) {
	for _, tc := range []struct {
		name    string
		state   VersioningState
		objects []ObjectIdentifier
		want    string
	}{
		{"a null marker replaced by the next", Suspended, []ObjectIdentifier{{Key: "k"}, {Key: "k"}}, "null:marker v00000001:data"},
		{"a marker deleted by its version ID", Enabled, []ObjectIdentifier{{Key: "k"}, {Key: "k", VersionID: "v00000002"}}, "v00000001:data"},
		{"a marker and the version under it", Enabled, []ObjectIdentifier{{Key: "k"}, {Key: "k", VersionID: "v00000002"}, {Key: "k", VersionID: "v00000001"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestStore(t)
			ts.bucket("demo", Enabled)
			ts.put("demo", "k", "1")
			ts.must(ts.SetBucketVersioning("demo", tc.state))
			res, err := ts.DeleteObjects("demo", tc.objects)
			ts.must(err)
			if len(res.Errors) > 0 {
				t.Fatalf("DeleteObjects errors: %+v", res.Errors)
			}
			if got := ts.stack("demo", "k"); got != tc.want {
				t.Errorf("stack %q, want %q", got, tc.want)
			}
			if n, want := ts.memory.Len(KindRecord), strings.Count(tc.want, ":"); n != want {
				t.Errorf("%d entry items stored, want %d", n, want)
			}
		})
	}
}

// newRecordOnto shares one array between a chain of records, each one
// entry deeper: no record may see another's entries change, whether the
// chain grows in place, forks (a record built and then dropped, as by a
// failed commit, and another built onto the same record), or outgrows its
// array.
func TestNewRecordOntoKeepsEveryEarlierRecord(t *testing.T) {
	seq := uint64(0)
	entry := func() Entry {
		seq++
		if seq%3 == 0 {
			return &DeleteMarker{VersionID: formatVersionID(seq), seq: seq}
		}
		return &Version{VersionID: formatVersionID(seq), CreatedAt: float64(seq), seq: seq}
	}
	type kept struct {
		r    *ObjectRecord
		want string
	}
	var all []kept
	keep := func(r *ObjectRecord) *ObjectRecord {
		all = append(all, kept{r, renderStack(r)})
		return r
	}
	r := keep(newSingleRecord("k", entry()))
	for i := range 40 {
		next := keep(newRecordOnto(entry(), r))
		if i%7 == 3 {
			// A fork: a second record onto r, after next claimed the slot
			// in front of r's entries.
			keep(newRecordOnto(entry(), r))
		}
		r = next
	}
	for i, k := range all {
		if got := renderStack(k.r); got != k.want {
			t.Fatalf("record %d changed from %q to %q", i, k.want, got)
		}
		if !sameRecord(k.r, newRecord(k.r.Key, k.r.Versions)) {
			t.Fatalf("record %d: its creation times or IDs are not its entries'", i)
		}
		for j := 1; j < len(k.r.Versions); j++ {
			if k.r.Versions[j].Seq() >= k.r.Versions[j-1].Seq() {
				t.Fatalf("record %d is not newest first: %q", i, k.want)
			}
		}
	}
	if len(all[len(all)-1].r.Versions) != 41 {
		t.Errorf("the last record holds %d entries, want 41", len(all[len(all)-1].r.Versions))
	}
}

// Load gives a key's entries in any order: oldest first from storages that
// iterate by key (bbolt, IndexedDB), shuffled from MemoryStorage.
func TestOrderStackPutsNewestFirst(t *testing.T) {
	stack := func(seqs ...uint64) []Entry {
		out := make([]Entry, len(seqs))
		for i, seq := range seqs {
			out[i] = &DeleteMarker{VersionID: formatVersionID(seq), seq: seq}
		}
		return out
	}
	shuffled := make([]uint64, 300)
	for i := range shuffled {
		shuffled[i] = uint64(i*7919%300) + 1
	}
	for _, tc := range []struct {
		name string
		in   []Entry
	}{
		{"empty", stack()},
		{"one", stack(5)},
		{"oldest first", stack(1, 4, 9, 10)},
		{"newest first", stack(10, 9, 4, 1)},
		{"shuffled", stack(4, 10, 1, 9)},
		{"300 shuffled", stack(shuffled...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := slices.Clone(tc.in)
			slices.SortFunc(want, func(a, b Entry) int { return cmp.Compare(b.Seq(), a.Seq()) })
			orderStack(tc.in)
			if !slices.Equal(tc.in, want) {
				t.Errorf("orderStack gives %q, want %q", renderStack(rec("k", tc.in...)), renderStack(rec("k", want...)))
			}
		})
	}
}
