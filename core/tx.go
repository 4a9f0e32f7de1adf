package core

import "slices"

// tx is one mutation of one bucket in progress. It reads through an overlay
// of what it has changed so far and never touches the live bucket until
// publish, which runs only after the storage committed changeSet.
type tx struct {
	b           *bucketState
	now         float64
	meta        bucketMeta
	metaChanged bool
	lifecycle   *LifecycleConfiguration
	lcChanged   bool
	records     map[string]*ObjectRecord // key → new record; nil: removed
	uploads     map[string]*upload       // upload ID → new upload; nil: removed
	newBodies   map[string][]byte
	dropBodies  map[string]bool
}

func newTx(b *bucketState, now float64) *tx {
	return &tx{b: b, now: now, meta: b.meta, lifecycle: b.lifecycle}
}

// record is the key's record as this transaction sees it, or nil.
func (t *tx) record(key string) *ObjectRecord {
	if r, ok := t.records[key]; ok {
		return r
	}
	return t.b.records[key]
}

// setRecord replaces the key's record; an empty version stack removes it.
func (t *tx) setRecord(key string, versions []Entry) {
	if t.records == nil {
		t.records = make(map[string]*ObjectRecord)
	}
	if len(versions) == 0 {
		t.records[key] = nil
		return
	}
	t.records[key] = &ObjectRecord{Key: key, Versions: versions}
}

// upload is the upload as this transaction sees it, or nil.
func (t *tx) upload(id string) *upload {
	if u, ok := t.uploads[id]; ok {
		return u
	}
	return t.b.uploads[id]
}

// setUpload replaces an upload; nil removes it.
func (t *tx) setUpload(id string, u *upload) {
	if t.uploads == nil {
		t.uploads = make(map[string]*upload)
	}
	t.uploads[id] = u
}

func (t *tx) putBody(ref string, body []byte) {
	if t.newBodies == nil {
		t.newBodies = make(map[string][]byte)
	}
	delete(t.dropBodies, ref)
	t.newBodies[ref] = body
}

func (t *tx) dropBody(ref string) {
	if t.dropBodies == nil {
		t.dropBodies = make(map[string]bool)
	}
	delete(t.newBodies, ref)
	t.dropBodies[ref] = true
}

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

func (t *tx) changed() bool {
	return t.metaChanged || t.lcChanged || len(t.records) > 0 || len(t.uploads) > 0 || len(t.newBodies) > 0 || len(t.dropBodies) > 0
}

// changeSet is what the transaction changed, in a deterministic order:
// metadata, records, uploads, removed bodies, new bodies.
func (t *tx) changeSet() ChangeSet {
	name := t.meta.Name
	cs := make(ChangeSet, 0, 1+len(t.records)+len(t.uploads)+len(t.dropBodies)+len(t.newBodies))
	if t.metaChanged {
		cs = append(cs, Change{Kind: KindBucket, Key: name, Value: mustJSON(t.meta)})
	}
	if t.lcChanged {
		if t.lifecycle == nil {
			cs = append(cs, Change{Kind: KindBucket, Key: lifecycleKey(name), Delete: true})
		} else {
			cs = append(cs, Change{Kind: KindBucket, Key: lifecycleKey(name), Value: mustJSON(t.lifecycle)})
		}
	}
	for _, key := range sortedKeys(t.records) {
		if r := t.records[key]; r != nil {
			cs = append(cs, Change{Kind: KindRecord, Key: name + "/" + key, Value: encodeRecord(r)})
		} else if t.b.records[key] != nil {
			cs = append(cs, Change{Kind: KindRecord, Key: name + "/" + key, Delete: true})
		}
	}
	for _, id := range sortedKeys(t.uploads) {
		if u := t.uploads[id]; u != nil {
			cs = append(cs, Change{Kind: KindUpload, Key: name + "/" + id, Value: mustJSON(u)})
		} else {
			cs = append(cs, Change{Kind: KindUpload, Key: name + "/" + id, Delete: true})
		}
	}
	for _, ref := range sortedKeys(t.dropBodies) {
		cs = append(cs, Change{Kind: KindBody, Key: ref, Delete: true})
	}
	for _, ref := range sortedKeys(t.newBodies) {
		cs = append(cs, Change{Kind: KindBody, Key: ref, Value: t.newBodies[ref]})
	}
	return cs
}

// publish makes the committed changes live.
func (t *tx) publish() {
	b := t.b
	b.meta = t.meta
	b.lifecycle = t.lifecycle
	for key, r := range t.records {
		_, existed := b.records[key]
		switch {
		case r == nil && existed:
			delete(b.records, key)
			b.index.remove()
		case r != nil:
			b.records[key] = r
			if !existed {
				b.index.add(key)
			}
		}
	}
	for id, u := range t.uploads {
		if u == nil {
			delete(b.uploads, id)
		} else {
			b.uploads[id] = u
		}
	}
}

// keyIndex keeps a bucket's keys in ascending byte order. New keys are
// appended and merged in lazily, and removed keys are dropped at the next
// merge, so writes stay O(1) and listings pay only for what changed.
type keyIndex struct {
	sorted  []string
	added   []string
	removed int
}

func (x *keyIndex) add(key string) { x.added = append(x.added, key) }
func (x *keyIndex) remove()        { x.removed++ }

// keys returns every key of live in ascending order. The slice is shared:
// callers must not modify it.
func (x *keyIndex) keys(live map[string]*ObjectRecord) []string {
	if len(x.added) == 0 && x.removed == 0 {
		return x.sorted
	}
	slices.Sort(x.added)
	merged := make([]string, 0, len(live))
	i, j := 0, 0
	last := ""
	for i < len(x.sorted) || j < len(x.added) {
		var k string
		if j >= len(x.added) || (i < len(x.sorted) && x.sorted[i] <= x.added[j]) {
			k = x.sorted[i]
			i++
		} else {
			k = x.added[j]
			j++
		}
		if (len(merged) > 0 && k == last) || live[k] == nil {
			continue
		}
		merged = append(merged, k)
		last = k
	}
	x.sorted, x.added, x.removed = merged, nil, 0
	return x.sorted
}

// snapshot is the bucket's records in ascending key order.
func (b *bucketState) snapshot() []*ObjectRecord {
	keys := b.index.keys(b.records)
	out := make([]*ObjectRecord, len(keys))
	for i, k := range keys {
		out[i] = b.records[k]
	}
	return out
}
