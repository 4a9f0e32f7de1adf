package undo_test

import (
	"bytes"
	"fmt"
	"sort"
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
	"minis3/internal/undo"
)

func TestJournalIsAStorage(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storagetest.Opener {
		j := undo.New(core.NewMemoryStorage())
		if _, _, err := j.Take(); err != nil {
			t.Fatal(err)
		}
		return func() (core.Storage, error) { return j, nil }
	})
}

// dump is every item of a memory storage, bodies included, as text.
func dump(t *testing.T, m *core.MemoryStorage, store *core.Store) string {
	t.Helper()
	var lines []string
	err := m.Load(func(kind core.Kind, key string, value []byte) error {
		lines = append(lines, fmt.Sprintf("%v %q %x", kind, key, value))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range store.ListBuckets() {
		records, err := store.Snapshot(b.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range records {
			for _, e := range r.Versions {
				if v, ok := e.(*core.Version); ok {
					obj, err := store.GetObject(b.Name, r.Key, core.GetOptions{VersionID: v.VersionID})
					if err != nil {
						t.Fatal(err)
					}
					lines = append(lines, fmt.Sprintf("body %s/%s %s %q", b.Name, r.Key, v.VersionID, obj.Body))
				}
			}
		}
	}
	sort.Strings(lines)
	return fmt.Sprint(lines)
}

// opened is a store over a journal over memory, at a manual clock.
type opened struct {
	mem     *core.MemoryStorage
	journal *undo.Journal
	store   *core.Store
}

func open(t *testing.T) *opened {
	t.Helper()
	o := &opened{mem: core.NewMemoryStorage()}
	o.journal = undo.New(o.mem)
	o.reopen(t)
	return o
}

func (o *opened) reopen(t *testing.T) {
	t.Helper()
	s, err := core.Open(o.journal, core.Options{ManualClock: true, Origin: 1764806400, MinPartSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	o.store = s
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestUndoPutsBackWhatCommitsReplaced runs operations of every kind after
// a Take, commits what the next Take gives, and finds the store as it was,
// bodies of deleted versions included.
func TestUndoPutsBackWhatCommitsReplaced(t *testing.T) {
	o := open(t)
	noErr(t, o.store.CreateBucket("demo"))
	noErr(t, o.store.SetBucketVersioning("demo", core.Enabled))
	must[core.PutResult](t)(o.store.PutObject("demo", "logs/app.log", []byte("old"), core.PutOptions{}))
	up := must[core.UploadInfo](t)(o.store.CreateMultipartUpload("demo", "big", core.PutOptions{}))
	must[core.PartInfo](t)(o.store.UploadPart("demo", "big", up.UploadID, 1, []byte("part one")))
	if _, _, err := o.journal.Take(); err != nil {
		t.Fatal(err)
	}
	before := dump(t, o.mem, o.store)
	fp := o.journal.Fingerprint()

	must[[]core.LifecycleRun](t)(o.store.SetClock(5))
	must[core.PutResult](t)(o.store.PutObject("demo", "logs/app.log", []byte("current"), core.PutOptions{}))
	must[core.DeleteResult](t)(o.store.DeleteObject("demo", "logs/app.log", core.DeleteOptions{VersionID: "v00000001"}))
	must[core.DeleteResult](t)(o.store.DeleteObject("demo", "logs/app.log", core.DeleteOptions{}))
	must[core.PartInfo](t)(o.store.UploadPart("demo", "big", up.UploadID, 1, []byte("part one, again")))
	noErr(t, o.store.CreateBucket("other"))
	noErr(t, o.store.PutBucketTagging("demo", []core.Tag{{Key: "team", Value: "a"}}))
	if dump(t, o.mem, o.store) == before {
		t.Fatal("the operations changed nothing")
	}

	changes, after, err := o.journal.Take()
	if err != nil {
		t.Fatal(err)
	}
	if after == fp {
		t.Fatal("the fingerprint did not change")
	}
	noErr(t, o.journal.Commit(changes))
	o.reopen(t)
	if got := dump(t, o.mem, o.store); got != before {
		t.Fatalf("after undo:\n%s\nwant:\n%s", got, before)
	}
	if o.journal.Fingerprint() != fp {
		t.Fatal("the fingerprint is not the one before the operations")
	}
}

func TestNothingIsRecordedBeforeTheFirstTake(t *testing.T) {
	o := open(t)
	noErr(t, o.store.CreateBucket("demo"))
	if changes, _, _ := o.journal.Take(); changes != nil {
		t.Fatalf("changes before the first Take: %v", changes)
	}
	noErr(t, o.store.CreateBucket("two"))
	if changes, _, _ := o.journal.Take(); len(changes) == 0 {
		t.Fatal("no changes recorded after the first Take")
	}
}

func TestLoadDropsWhatWasRecorded(t *testing.T) {
	o := open(t)
	o.journal.Take()
	noErr(t, o.store.CreateBucket("demo"))
	o.reopen(t)
	if changes, _, _ := o.journal.Take(); changes != nil {
		t.Fatalf("changes kept across a load: %v", changes)
	}
}

func TestMergeKeepsTheOldestChangeOfAnItem(t *testing.T) {
	older := []core.Change{{Kind: core.KindBucket, Key: "a", Value: []byte("1")}}
	newer := []core.Change{{Kind: core.KindBucket, Key: "a", Value: []byte("2")}, {Kind: core.KindBody, Key: "a", Delete: true}}
	got := undo.Merge(older, newer)
	if len(got) != 2 || !bytes.Equal(got[0].Value, []byte("1")) || got[1].Kind != core.KindBody {
		t.Fatalf("Merge: %+v", got)
	}
}

func TestTheFirstTakeFingerprintsTheStoreAsItIs(t *testing.T) {
	o := open(t)
	noErr(t, o.store.CreateBucket("demo"))
	_, fp, err := o.journal.Take()
	if err != nil {
		t.Fatal(err)
	}
	other := undo.New(o.mem)
	if _, fp2, _ := other.Take(); fp2 != fp {
		t.Fatalf("two journals over one storage: fingerprints %x and %x", fp, fp2)
	}
	noErr(t, o.store.CreateBucket("two"))
	if o.journal.Fingerprint() == fp {
		t.Fatal("a commit after the first Take left the fingerprint as it was")
	}
}
