package core

import (
	"bytes"
	"fmt"
	"slices"
)

// Check verifies the store's invariants and returns the first violation:
// every record has at least one entry and is filed under its own key; a
// key has at most one null entry; entries are newest first (strictly
// decreasing Seq); no version ID, sequence or upload number is at or above
// its bucket's counter (so none can be handed out again); non-null IDs
// appear only in buckets that were versioned; every stored data version
// and in-progress part has its body; and the sorted key index lists
// exactly the records; and the storage holds an item for every entry,
// equal to it, and no other entry item. Tests run it on every store they
// open.
func (s *Store) Check() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, b := range s.buckets {
		if err := s.checkBucket(name, b); err != nil {
			return fmt.Errorf("bucket %q: %w", name, err)
		}
	}
	return s.checkStoredEntries()
}

// checkStoredEntries compares the entry items of the storage with the
// entries of the live state.
func (s *Store) checkStoredEntries() error {
	stored := make(map[string][]byte)
	err := s.storage.Load(func(kind Kind, key string, value []byte) error {
		if kind == KindRecord {
			stored[key] = value
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("loading the storage: %w", err)
	}
	n := 0
	for name, b := range s.buckets {
		for key, r := range b.records {
			for _, e := range r.Versions {
				ref := entryRef(name, e.Seq())
				if !bytes.Equal(stored[ref], appendEntryItem(nil, key, e)) {
					return fmt.Errorf("bucket %q key %q: entry %s is stored as %q", name, key, e.ID(), stored[ref])
				}
				n++
			}
		}
	}
	if n != len(stored) {
		return fmt.Errorf("the storage holds %d entry items for %d entries", len(stored), n)
	}
	return nil
}

func (s *Store) checkBucket(name string, b *bucketState) error {
	m := b.meta
	if m.Name != name {
		return fmt.Errorf("metadata names bucket %q", m.Name)
	}
	ids := make(map[string]string)
	for key, r := range b.records {
		if r == nil || r.Key != key || len(r.Versions) == 0 {
			return fmt.Errorf("record %q is empty or misfiled", key)
		}
		nulls := 0
		for i, e := range r.Versions {
			if i > 0 && e.Seq() >= r.Versions[i-1].Seq() {
				return fmt.Errorf("key %q: entry %d (%s) is not older than the one above it", key, i, e.ID())
			}
			if e.Seq() == 0 || e.Seq() >= m.NextSeq {
				return fmt.Errorf("key %q: entry %s has sequence %d, counter is at %d", key, e.ID(), e.Seq(), m.NextSeq)
			}
			if e.ID() == NullVersionID {
				nulls++
			} else {
				n, ok := parseVersionID(e.ID())
				if !ok || n >= m.NextVersion || m.Versioning == Unversioned {
					return fmt.Errorf("key %q: version ID %q is malformed or not yet handed out", key, e.ID())
				}
				if other, dup := ids[e.ID()]; dup {
					return fmt.Errorf("version ID %s is used by keys %q and %q", e.ID(), other, key)
				}
				ids[e.ID()] = key
			}
			if v, ok := e.(*Version); ok {
				if _, err := s.storage.ReadBody(entryRef(name, v.seq)); err != nil {
					return fmt.Errorf("key %q version %s: body: %w", key, v.VersionID, err)
				}
			}
		}
		if nulls > 1 {
			return fmt.Errorf("key %q has %d null entries", key, nulls)
		}
	}
	var keys []string
	b.index.ascend("", func(key string) bool {
		keys = append(keys, key)
		return true
	})
	if !slices.IsSorted(keys) || len(keys) != len(b.records) || slices.ContainsFunc(keys, func(k string) bool { return b.records[k] == nil }) {
		return fmt.Errorf("key index is out of step: %d keys for %d records", len(keys), len(b.records))
	}
	for id, u := range b.completed {
		if err := checkUploadID(id, u, m); err != nil {
			return err
		}
		if u.Completed == nil || b.uploads[id] != nil {
			return fmt.Errorf("upload %s is filed as completed but is in progress", id)
		}
	}
	for id, u := range b.uploads {
		if err := checkUploadID(id, u, m); err != nil {
			return err
		}
		if u.Completed != nil {
			return fmt.Errorf("upload %s is filed as in progress but is completed", id)
		}
		for _, p := range u.Parts {
			if _, err := s.storage.ReadBody(partRef(name, id, p.Number)); err != nil {
				return fmt.Errorf("upload %s part %d: body: %w", id, p.Number, err)
			}
		}
	}
	return nil
}

// checkUploadID checks that upload u is filed under its own ID, one the
// bucket has handed out.
func checkUploadID(id string, u *upload, m bucketMeta) error {
	var n uint64
	if _, err := fmt.Sscanf(id, "u%d", &n); err != nil || n == 0 || n >= m.NextUpload || u.ID != id {
		return fmt.Errorf("upload %q is malformed or not yet handed out", id)
	}
	return nil
}
