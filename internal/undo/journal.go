// Package undo records how to undo what a store commits, so that the
// terminal's undo can put the store back as it was before a command.
//
// A Journal is a core.Storage over another one. Until it is first asked
// for what it recorded (Take), it only passes everything on; from then
// on, it keeps a copy of every stored item but the bodies (what the store
// loads when it opens), and turns each commit into its inverse: for every item
// the commit writes or removes, the change that puts back the item it
// replaced, reading a replaced body from the storage before the commit
// removes it. Committing the inverses, newest first, and opening the store
// again gives the store as it was.
//
// Its fingerprint, a hash of every item it holds, tells whether the store
// is still the one the recorded inverses apply to: a commit the journal
// did not see (another tab's, or one made before a reload of the page)
// changes it.
package undo

import (
	"errors"
	"hash/fnv"
	"sync"

	"minis3/core"
)

// Journal is a core.Storage that records the inverse of its commits.
type Journal struct {
	inner core.Storage

	mu        sync.Mutex
	recording bool               // since the first Take
	items     map[itemKey][]byte // while recording: every item but bodies
	sum       uint64             // while recording, the fingerprint: items' hashes, XORed
	pending   [][]core.Change    // the inverse of each commit since Take, oldest first
}

type itemKey struct {
	kind core.Kind
	key  string
}

// New returns a Journal over inner. It records from its first Take on.
func New(inner core.Storage) *Journal {
	return &Journal{inner: inner}
}

func itemHash(k itemKey, value []byte) uint64 {
	h := fnv.New64a()
	h.Write([]byte{byte(k.kind)})
	h.Write([]byte(k.key))
	h.Write([]byte{0})
	h.Write(value)
	return h.Sum64()
}

// Load implements core.Storage. While the journal records, the items it
// loads start it again: inverses recorded before are dropped (and the
// fingerprint tells whether those given out earlier still apply).
func (j *Journal) Load(visit func(kind core.Kind, key string, value []byte) error) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.recording {
		return j.inner.Load(visit)
	}
	return j.load(visit)
}

// load reads every item into the copy, passing each to visit.
func (j *Journal) load(visit func(kind core.Kind, key string, value []byte) error) error {
	items := map[itemKey][]byte{}
	var sum uint64
	err := j.inner.Load(func(kind core.Kind, key string, value []byte) error {
		k := itemKey{kind, key}
		items[k] = append([]byte(nil), value...)
		sum ^= itemHash(k, value)
		return visit(kind, key, value)
	})
	if err != nil {
		return err
	}
	j.items, j.sum = items, sum
	j.pending = nil
	return nil
}

// Commit implements core.Storage: it commits changes and, while the
// journal records, keeps their inverse.
func (j *Journal) Commit(changes core.ChangeSet) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	var inverse []core.Change
	if j.recording {
		seen := map[itemKey]bool{}
		for _, c := range changes {
			k := itemKey{c.Kind, c.Key}
			if seen[k] {
				continue
			}
			seen[k] = true
			before, ok, err := j.current(k)
			if err != nil {
				return err
			}
			if ok {
				inverse = append(inverse, core.Change{Kind: c.Kind, Key: c.Key, Value: before})
			} else {
				inverse = append(inverse, core.Change{Kind: c.Kind, Key: c.Key, Delete: true})
			}
		}
	}
	if err := j.inner.Commit(changes); err != nil {
		return err
	}
	if j.recording {
		j.apply(changes)
		j.pending = append(j.pending, inverse)
	}
	return nil
}

// current is the item k as stored now.
func (j *Journal) current(k itemKey) ([]byte, bool, error) {
	if k.kind != core.KindBody {
		v, ok := j.items[k]
		return v, ok, nil
	}
	body, err := j.inner.ReadBody(k.key)
	if errors.Is(err, core.ErrBodyNotFound) {
		return nil, false, nil
	}
	return body, err == nil, err
}

// apply updates the copy of the items and the fingerprint.
func (j *Journal) apply(changes core.ChangeSet) {
	for _, c := range changes {
		if c.Kind == core.KindBody {
			continue
		}
		k := itemKey{c.Kind, c.Key}
		if old, ok := j.items[k]; ok {
			j.sum ^= itemHash(k, old)
			delete(j.items, k)
		}
		if !c.Delete {
			j.items[k] = c.Value
			j.sum ^= itemHash(k, c.Value)
		}
	}
}

// ReadBody implements core.Storage.
func (j *Journal) ReadBody(ref string) ([]byte, error) { return j.inner.ReadBody(ref) }

// Close implements core.Storage.
func (j *Journal) Close() error { return j.inner.Close() }

// Inner is the storage the journal is over.
func (j *Journal) Inner() core.Storage { return j.inner }

// Take returns the changes that undo every commit since the last Take
// (nil when there were none) and forgets them, with the fingerprint of
// the store they lead from. The first Take starts the recording: it reads
// every item from the storage. A failed read is the storage's error, and
// the journal does not record yet.
func (j *Journal) Take() (undo []core.Change, fingerprint uint64, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.recording {
		if err := j.load(func(core.Kind, string, []byte) error { return nil }); err != nil {
			return nil, 0, err
		}
		j.recording = true
		return nil, j.sum, nil
	}
	undo = Merge(j.pending...)
	j.pending = nil
	return undo, j.sum, nil
}

// Fingerprint is a hash of every item the store holds but the bodies, as
// of the last Take and the commits since.
func (j *Journal) Fingerprint() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.sum
}

// Merge joins inverses recorded oldest first into one set of changes
// that undoes them all: for each item, the change of the oldest.
func Merge(inverses ...[]core.Change) []core.Change {
	var out []core.Change
	at := map[itemKey]int{}
	for _, inv := range inverses {
		for _, c := range inv {
			k := itemKey{c.Kind, c.Key}
			if _, ok := at[k]; ok {
				continue
			}
			at[k] = len(out)
			out = append(out, c)
		}
	}
	return out
}
