package core

// Versioning: a bucket's state (unversioned, enabled, suspended) and the
// state machine every write goes through, the versioning-aware transitions
// of a key's stack. PUT, multipart completion, DELETE, DeleteObjects and
// both lifecycles (lifecycle_apply.go) use these and nothing else, so they
// cannot disagree.

import "slices"

// SetBucketVersioning enables or suspends versioning. A bucket can never go
// back to Unversioned: asking for it is InvalidArgument.
func (s *Store) SetBucketVersioning(name string, state VersioningState) error {
	return s.update(name, func(t *tx) error {
		if state != Enabled && state != Suspended {
			return errInvalidArgument("Status", string(state), "versioning can only be enabled or suspended, not %q", state)
		}
		if t.meta.Versioning != state {
			t.meta.Versioning = state
			t.metaChanged = true
		}
		return nil
	})
}

// BucketVersioning is the named bucket's versioning state.
func (s *Store) BucketVersioning(name string) (VersioningState, error) {
	info, err := s.HeadBucket(name)
	return info.Versioning, err
}

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
// ID replaces the key's previous null entry, wherever it is in the stack:
// a key holds at most one.
func (t *tx) putEntry(key string, e Entry) {
	t.keyChanged(key)
	r := t.edit(key)
	if e.ID() == NullVersionID {
		if i := r.find(NullVersionID); i >= 0 {
			t.removeAt(r, i)
		}
	}
	r.Versions = slices.Insert(r.Versions, 0, e)
	t.records[key] = r
	t.store(key, e)
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
			t.records[key] = nil
			t.keyChanged(key)
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
	if r == nil || r.find(id) < 0 {
		return res, false
	}
	r = t.edit(key)
	e := t.removeAt(r, r.find(id))
	_, res.DeleteMarker = e.(*DeleteMarker)
	return res, true
}

// removeAt removes the i-th entry of r, a record this transaction edits,
// and returns it. Removing the current entry (i 0) changes the key.
func (t *tx) removeAt(r *ObjectRecord, i int) Entry {
	if i == 0 {
		t.keyChanged(r.Key)
	}
	e := r.Versions[i]
	r.Versions = slices.Delete(r.Versions, i, i+1)
	if len(r.Versions) == 0 {
		t.records[r.Key] = nil
	}
	t.forget(e)
	return e
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
