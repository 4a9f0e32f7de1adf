package core

// The bucket state machine: the versioning-aware transitions every write goes
// through. PUT, multipart completion, DELETE, DeleteObjects and lifecycle
// expiration all use these and nothing else, so they cannot disagree.

import (
	"cmp"
	"slices"
)

// DeleteResult is what a DELETE did.
type DeleteResult struct {
	// VersionID is the version ID S3 reports: the new delete marker's in
	// enabled and suspended buckets, the addressed version's for a delete by
	// version ID, and "" for an unversioned delete.
	VersionID string
	// DeleteMarker is true when a delete marker was created, or when the
	// entry removed by version ID was a delete marker.
	DeleteMarker bool
}

// putEntry makes e the key's current entry. An entry with the null version
// ID replaces the key's previous null entry, wherever it is in the stack.
func (t *tx) putEntry(key string, e Entry) {
	t.added = append(t.added, addedEntry{key, e.Seq(), e})
	r := t.record(key)
	var old []Entry
	if r != nil {
		old = r.Versions
	}
	null := e.ID() == NullVersionID
	if len(old) == 0 || (len(old) == 1 && null && old[0].ID() == NullVersionID) {
		// A new key, or an unversioned overwrite: a stack of one.
		for _, o := range old {
			t.forget(o)
		}
		t.records.set(key, newSingleRecord(key, e))
		return
	}
	if !null && r.scannable() {
		// A new version ID on top of a stack: everything below stays.
		t.records.set(key, newRecordOnto(e, r))
		return
	}
	versions := make([]Entry, 0, len(old)+1)
	versions = append(versions, e)
	for _, o := range old {
		if null && o.ID() == NullVersionID {
			t.forget(o)
			continue
		}
		versions = append(versions, o)
	}
	t.setRecord(key, versions)
}

// forget removes the stored item of an entry that leaves its stack, and
// a data version's body. An entry stored before this transaction is noted
// by its sequence number (a tick may drop thousands); one this
// transaction put is taken back out of what it adds.
func (t *tx) forget(e Entry) {
	v, isVersion := e.(*Version)
	seq := e.Seq()
	if seq < t.firstSeq {
		d := seq << 1
		if isVersion {
			d |= 1
		}
		t.dropped = append(t.dropped, d)
		return
	}
	// added is in sequence order: every new entry is put as soon as
	// nextSeq numbers it.
	if i, ok := slices.BinarySearchFunc(t.added, seq, func(a addedEntry, seq uint64) int {
		return cmp.Compare(a.seq, seq)
	}); ok {
		t.added[i].e = nil
	}
	if isVersion {
		t.dropBody(bodyRef(t.meta.Name, v.seq))
	}
}

// deleteCurrent is DELETE without a version ID: unversioned buckets remove
// the key's object; enabled buckets add a delete marker with a new ID;
// suspended buckets replace the key's null entry with a null delete marker.
// Markers stack, and a delete of a missing key still adds one.
func (t *tx) deleteCurrent(key string) DeleteResult {
	if t.meta.Versioning == Unversioned {
		if r := t.record(key); r != nil {
			for _, e := range r.Versions {
				t.forget(e)
			}
			t.setRecord(key, nil)
		}
		return DeleteResult{}
	}
	m := &DeleteMarker{VersionID: t.newVersionID(), CreatedAt: t.now, seq: t.nextSeq()}
	t.putEntry(key, m)
	return DeleteResult{VersionID: m.VersionID, DeleteMarker: true}
}

// deleteVersion is DELETE with a version ID: it removes exactly that entry,
// so the next one down (possibly a marker) becomes current. found is false
// when the key has no such entry; that is not an error.
func (t *tx) deleteVersion(key, id string) (res DeleteResult, found bool) {
	res.VersionID = id
	r := t.record(key)
	if r == nil {
		return res, false
	}
	i := r.find(id)
	if i < 0 {
		return res, false
	}
	return t.removeAt(r, i), true
}

// removeNoncurrent removes the targets from key's noncurrent entries at
// once, as a DELETE of each one's version ID would; a target that is not a
// noncurrent entry of the key is skipped. The targets of one lifecycle rule
// come in stack order, so the search for each goes on from where the last
// one was found and wraps around at most once per rule. gone is scratch
// space, returned for reuse.
func (t *tx) removeNoncurrent(key string, targets []Entry, gone []bool) []bool {
	r := t.record(key)
	if r == nil || len(r.Versions) < 2 {
		return gone
	}
	n := len(r.Versions)
	gone = slices.Grow(gone[:0], n)[:n]
	clear(gone)
	removed, at := 0, 1
	for _, target := range targets {
		for range n - 1 {
			if r.Versions[at] == target {
				break
			}
			if at++; at == n {
				at = 1
			}
		}
		if r.Versions[at] == target && !gone[at] {
			gone[at] = true
			removed++
		}
	}
	if removed == 0 {
		return gone
	}
	for i, e := range r.Versions {
		if gone[i] {
			t.forget(e)
		}
	}
	t.records.set(key, r.without(gone, n-removed))
	return gone
}

// removeAt removes the i-th entry of r.
func (t *tx) removeAt(r *ObjectRecord, i int) DeleteResult {
	e := r.Versions[i]
	t.forget(e)
	if len(r.Versions) > 1 && t.made(r) && r.room == nil {
		// Not published yet, so nobody else sees it, and its stack is its
		// own: a DeleteObjects that removes several versions of a key
		// copies its stack once.
		r.Versions = slices.Delete(r.Versions, i, i+1)
		r.created = slices.Delete(r.created, i, i+1)
		r.ids = slices.Delete(r.ids, i, i+1)
	} else {
		versions := make([]Entry, 0, len(r.Versions)-1)
		versions = append(versions, r.Versions[:i]...)
		versions = append(versions, r.Versions[i+1:]...)
		t.setRecord(r.Key, versions)
	}
	_, isMarker := e.(*DeleteMarker)
	return DeleteResult{VersionID: e.ID(), DeleteMarker: isMarker}
}

// issued reports whether the bucket ever handed out version ID id: "null"
// names the key's null slot, a number one the counter has passed.
func (t *tx) issued(id string) bool {
	if id == NullVersionID {
		return true
	}
	n, ok := parseVersionID(id)
	return ok && n < t.meta.NextVersion
}

// checkVersionID rejects a version ID that cannot exist in the bucket: a
// malformed one, or any but "null" in a bucket that was never versioned.
func checkVersionID(state VersioningState, id string) error {
	if id == NullVersionID {
		return nil
	}
	if _, ok := parseVersionID(id); !ok || state == Unversioned {
		return errInvalidVersionID(id)
	}
	return nil
}
