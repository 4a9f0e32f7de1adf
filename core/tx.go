package core

import "slices"

// tx is one mutation of one bucket in progress. It reads the live bucket
// and changes only its own copies: the records, uploads, entries and
// bodies it changes are kept here until the storage has committed them
// (changeSet), and only then made live (publish). A transaction that fails
// is dropped, and the live bucket is as it was.
type tx struct {
	b           *bucketState
	now         float64
	meta        bucketMeta // the bucket's metadata as this transaction leaves it
	metaChanged bool
	lifecycle   *LifecycleConfiguration
	lcChanged   bool
	tags        []Tag // the bucket's tags; nil: none
	tagsChanged bool
	records     map[string]*ObjectRecord // key → this transaction's record; nil: removed
	uploads     map[string]*upload       // upload ID → new upload; nil: removed
	bodies      map[string][]byte        // ref → new body; nil: removed
	entries     map[string]storedEntry   // ref → entry to store; e nil: removed
	firstSeq    uint64                   // the first sequence number this transaction hands out
}

// storedEntry is an entry item a transaction writes (e set) or removes.
type storedEntry struct {
	key string
	e   Entry
}

func newTx(b *bucketState, now float64) *tx {
	return &tx{b: b, now: now, meta: b.meta, lifecycle: b.lifecycle, tags: b.tags, firstSeq: b.meta.NextSeq,
		records: map[string]*ObjectRecord{}, uploads: map[string]*upload{},
		bodies: map[string][]byte{}, entries: map[string]storedEntry{}}
}

// record is the key's record as this transaction sees it, or nil. The
// caller must not change it: see edit.
func (t *tx) record(key string) *ObjectRecord {
	if r, ok := t.records[key]; ok {
		return r
	}
	return t.b.records[key]
}

// edit is the key's record for this transaction to change: a copy of the
// live one, made the first time, or a new empty record.
func (t *tx) edit(key string) *ObjectRecord {
	if r := t.records[key]; r != nil {
		return r
	}
	r := &ObjectRecord{Key: key}
	if live := t.b.records[key]; live != nil && !t.removedRecord(key) {
		r.Versions = slices.Clone(live.Versions)
	}
	t.records[key] = r
	return r
}

// removedRecord reports whether this transaction removed the key's record.
func (t *tx) removedRecord(key string) bool {
	r, ok := t.records[key]
	return ok && r == nil
}

// store notes that entry e of key is to be stored.
func (t *tx) store(key string, e Entry) {
	t.entries[entryRef(t.meta.Name, e.Seq())] = storedEntry{key: key, e: e}
}

// forget notes that entry e leaves its stack: its item goes, and a data
// version's body with it. An entry this transaction stored is simply not
// stored.
func (t *tx) forget(e Entry) {
	ref := entryRef(t.meta.Name, e.Seq())
	_, isVersion := e.(*Version)
	if e.Seq() >= t.firstSeq {
		delete(t.entries, ref)
		delete(t.bodies, ref)
		return
	}
	t.entries[ref] = storedEntry{}
	if isVersion {
		t.bodies[ref] = nil
	}
}

// upload is the upload as this transaction sees it, or nil.
func (t *tx) upload(id string) *upload {
	if u, ok := t.uploads[id]; ok {
		return u
	}
	if u := t.b.uploads[id]; u != nil {
		return u
	}
	return t.b.completed[id]
}

// setUpload replaces an upload; nil removes it.
func (t *tx) setUpload(id string, u *upload) { t.uploads[id] = u }

// putBody stores body under ref. A nil body is stored as an empty one:
// nil means removal.
func (t *tx) putBody(ref string, body []byte) {
	if body == nil {
		body = []byte{}
	}
	t.bodies[ref] = body
}

func (t *tx) dropBody(ref string) { t.bodies[ref] = nil }

// nextSeq hands out the next entry sequence number.
func (t *tx) nextSeq() uint64 {
	n := t.meta.NextSeq
	t.meta.NextSeq++
	t.metaChanged = true
	return n
}

// newVersionID is the ID of a new entry: the next counter value in an
// enabled bucket, "null" otherwise.
func (t *tx) newVersionID() string {
	if t.meta.Versioning != Enabled {
		return NullVersionID
	}
	n := t.meta.NextVersion
	t.meta.NextVersion++
	t.metaChanged = true
	return formatVersionID(n)
}

// changeSet is everything the transaction changed, in a fixed order:
// metadata, entries, uploads and bodies, each by key.
func (t *tx) changeSet() ChangeSet {
	var cs ChangeSet
	name := t.meta.Name
	if t.metaChanged {
		cs = append(cs, Change{Kind: KindBucket, Key: name, Value: itemJSON(t.meta)})
	}
	if t.lcChanged {
		c := Change{Kind: KindBucket, Key: lifecycleKey(name), Delete: t.lifecycle == nil}
		if t.lifecycle != nil {
			c.Value = itemJSON(t.lifecycle)
		}
		cs = append(cs, c)
	}
	if t.tagsChanged {
		c := Change{Kind: KindBucket, Key: taggingKey(name), Delete: t.tags == nil}
		if t.tags != nil {
			c.Value = itemJSON(t.tags)
		}
		cs = append(cs, c)
	}
	for _, ref := range sortedKeys(t.entries) {
		if se := t.entries[ref]; se.e != nil {
			cs = append(cs, Change{Kind: KindRecord, Key: ref, Value: appendEntryItem(nil, se.key, se.e)})
		} else {
			cs = append(cs, Change{Kind: KindRecord, Key: ref, Delete: true})
		}
	}
	for _, id := range sortedKeys(t.uploads) {
		if u := t.uploads[id]; u != nil {
			cs = append(cs, Change{Kind: KindUpload, Key: name + "/" + id, Value: itemJSON(u)})
		} else {
			cs = append(cs, Change{Kind: KindUpload, Key: name + "/" + id, Delete: true})
		}
	}
	for _, ref := range sortedKeys(t.bodies) {
		cs = append(cs, Change{Kind: KindBody, Key: ref, Value: t.bodies[ref], Delete: t.bodies[ref] == nil})
	}
	return cs
}

// publish makes the committed changes live.
func (t *tx) publish() {
	b := t.b
	b.meta, b.lifecycle, b.tags = t.meta, t.lifecycle, t.tags
	for key, r := range t.records {
		_, existed := b.records[key]
		switch {
		case r == nil || len(r.Versions) == 0:
			if existed {
				delete(b.records, key)
				b.index.remove(key)
			}
		default:
			b.records[key] = r
			if !existed {
				b.index.add(key)
			}
		}
	}
	for id, u := range t.uploads {
		b.setUpload(id, u)
	}
}
