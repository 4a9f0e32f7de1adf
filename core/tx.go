package core

import (
	"slices"
	"sort"
	"strings"
)

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
	records     overlay[*ObjectRecord] // key → new record; nil: removed
	uploads     overlay[*upload]       // upload ID → new upload; nil: removed
	bodies      overlay[[]byte]        // ref → new body; nil: removed
	// added holds the entries this transaction put (putEntry), in the
	// order of their sequence numbers; one it removed again is nil.
	added []addedEntry
	// dropped notes each entry stored before this transaction that it
	// removed (forget), as its sequence number shifted left by one, plus 1
	// for a data version, whose body goes with it. They need no overlay:
	// each is removed once and never read again. changeSet turns them into
	// refs.
	dropped    []uint64
	droppedBuf [1]uint64 // dropped's first array: most writes drop one entry at most
	firstSeq   uint64    // the first sequence number this transaction hands out
}

// addedEntry is an entry a transaction put, its key and its sequence
// number, which stays when the entry is removed again (e nil).
type addedEntry struct {
	key string
	seq uint64
	e   Entry
}

// begin starts a transaction on b at now in t, the memory of an ended one,
// or in a new one when t is nil.
func (t *tx) begin(b *bucketState, now float64) *tx {
	if t == nil {
		t = new(tx)
	}
	t.b, t.now, t.meta, t.lifecycle, t.firstSeq = b, now, b.meta, b.lifecycle, b.meta.NextSeq
	t.dropped = t.droppedBuf[:0]
	return t
}

// spareCap is the most items an overlay of an ended transaction keeps room
// for: a tick's thousands are not held until the next tick.
const spareCap = 16

// end empties t for the next begin, keeping the overlays' room unless it
// is large, and returns it. Nothing of t's is referenced after it ends: the
// storage and the live bucket hold the keys, records and bodies, not the
// overlays that listed them.
func (t *tx) end() *tx {
	records, uploads, bodies := t.records.emptied(), t.uploads.emptied(), t.bodies.emptied()
	added := t.added
	if cap(added) > spareCap {
		added = nil
	}
	clear(added)
	*t = tx{records: records, uploads: uploads, bodies: bodies, added: added[:0]}
	return t
}

// record is the key's record as this transaction sees it, or nil.
func (t *tx) record(key string) *ObjectRecord {
	if r, ok := t.records.get(key); ok {
		return r
	}
	return t.b.records[key]
}

// setRecord replaces the key's record; an empty version stack removes it.
func (t *tx) setRecord(key string, versions []Entry) {
	if len(versions) == 0 {
		t.records.set(key, nil)
		return
	}
	t.records.set(key, newRecord(key, versions))
}

// made reports whether r is a record this transaction made (setRecord),
// which it may still change in place until publish.
func (t *tx) made(r *ObjectRecord) bool {
	cur, ok := t.records.get(r.Key)
	return ok && cur == r
}

// upload is the upload as this transaction sees it, or nil.
func (t *tx) upload(id string) *upload {
	if u, ok := t.uploads.get(id); ok {
		return u
	}
	return t.b.uploads[id]
}

// setUpload replaces an upload; nil removes it.
func (t *tx) setUpload(id string, u *upload) { t.uploads.set(id, u) }

// putBody stores body under ref. A nil body is stored as an empty one: nil
// in the overlay means removal.
func (t *tx) putBody(ref string, body []byte) {
	if body == nil {
		body = []byte{}
	}
	t.bodies.set(ref, body)
}

func (t *tx) dropBody(ref string) { t.bodies.set(ref, nil) }

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
	return t.metaChanged || t.lcChanged || len(t.records.items) > 0 || len(t.added) > 0 || len(t.uploads.items) > 0 ||
		len(t.bodies.items) > 0 || len(t.dropped) > 0
}

// changeSet is what the transaction changed, in a deterministic order:
// metadata; the entries it removed, then those it added, by sequence
// number; uploads by ID; removed bodies, then new ones, by ref.
func (t *tx) changeSet() ChangeSet {
	name := t.meta.Name
	cs := make(ChangeSet, 0, 2+2*len(t.dropped)+len(t.added)+len(t.uploads.items)+len(t.bodies.items))
	if t.metaChanged {
		cs.add(KindBucket, name, appendBucketMeta(make([]byte, 0, 128), t.meta), false)
	}
	if t.lcChanged {
		if t.lifecycle == nil {
			cs.add(KindBucket, lifecycleKey(name), nil, true)
		} else {
			cs.add(KindBucket, lifecycleKey(name), appendLifecycle(nil, t.lifecycle), false)
		}
	}
	dropped, size := t.droppedRefs(), bodyRefLen(name)
	for refs := dropped; len(refs) > 0; refs = refs[size:] {
		cs.add(KindRecord, refs[:size], nil, true)
	}
	t.addEntries(&cs)
	for _, i := range t.uploads.inOrder() {
		it := t.uploads.items[i]
		if u := it.v; u != nil {
			cs.add(KindUpload, name+"/"+it.key, appendUpload(nil, u), false)
		} else {
			cs.add(KindUpload, name+"/"+it.key, nil, true)
		}
	}
	// The removed bodies are the overlay's and those of the dropped data
	// versions, each sorted, merged.
	bodies := t.bodies.inOrder()
	gone := droppedBodies{refs: dropped, seqs: t.dropped, size: size}
	for _, i := range bodies {
		if it := t.bodies.items[i]; it.v == nil {
			for ref := gone.peek(); ref != "" && ref < it.key; ref = gone.peek() {
				cs.add(KindBody, ref, nil, true)
				gone.pop()
			}
			cs.add(KindBody, it.key, nil, true)
		}
	}
	for ref := gone.peek(); ref != ""; ref = gone.peek() {
		cs.add(KindBody, ref, nil, true)
		gone.pop()
	}
	for _, i := range bodies {
		if it := t.bodies.items[i]; it.v != nil {
			cs.add(KindBody, it.key, it.v, false)
		}
	}
	return cs
}

// droppedBodies walks the refs of the dropped entries (droppedRefs) and
// yields those of data versions, whose bodies go with them.
type droppedBodies struct {
	refs string   // droppedRefs
	seqs []uint64 // t.dropped, sorted
	size int      // the length of a ref
}

// peek is the next dropped body's ref, or "" when there is none.
func (d *droppedBodies) peek() string {
	for len(d.seqs) > 0 && d.seqs[0]&1 == 0 {
		d.pop()
	}
	if len(d.seqs) == 0 {
		return ""
	}
	return d.refs[:d.size]
}

func (d *droppedBodies) pop() { d.refs, d.seqs = d.refs[d.size:], d.seqs[1:] }

// addEntries adds the items of the entries the transaction put to cs: their
// refs end to end in one string, their encodings in one buffer.
func (t *tx) addEntries(cs *ChangeSet) {
	n, size := 0, 0
	for _, a := range t.added {
		if a.e != nil {
			n++
			size += 64 + len(a.key)
		}
	}
	if n == 0 {
		return
	}
	name, refLen := t.meta.Name, bodyRefLen(t.meta.Name)
	var refs strings.Builder
	refs.Grow(n * refLen)
	var ref [63 + 17]byte // the longest bucket name's
	for _, a := range t.added {
		if a.e != nil {
			refs.Write(appendBodyRef(ref[:0], name, a.seq))
		}
	}
	all, buf := refs.String(), make([]byte, 0, size)
	for _, a := range t.added {
		if a.e == nil {
			continue
		}
		start := len(buf)
		buf = appendEntryItem(buf, a.key, a.e)
		// Each value gets its own capacity, so that no append to one can
		// reach into the next.
		cs.add(KindRecord, all[:refLen], buf[start:len(buf):len(buf)], false)
		all = all[refLen:]
	}
}

// add appends a change (see push).
func (cs *ChangeSet) add(kind Kind, key string, value []byte, del bool) {
	var c *Change
	*cs, c = push(*cs)
	c.Kind, c.Key, c.Value, c.Delete = kind, key, value, del
}

// push extends s by one element, for the caller to set field by field
// through the pointer it returns. Appending a struct that holds pointers
// whole is a typed memmove, whose bulk write barrier is dear in wasm while
// the collector runs: a tenth of a tick's changeSet, and a sixth of an
// evaluation, in wasm profiles. The caller sets every field: the element
// may hold an earlier value.
func push[T any](s []T) ([]T, *T) {
	n := len(s)
	if n == cap(s) {
		s = slices.Grow(s, 1)
	}
	s = s[:n+1]
	return s, &s[n]
}

// droppedRefs sorts t.dropped and returns the refs of the dropped entries
// in that order, end to end in one string: each is bodyRefLen long. A ref
// spells its sequence number in a fixed number of hex digits, so sorting
// the numbers sorts the refs.
func (t *tx) droppedRefs() string {
	if len(t.dropped) == 0 {
		return ""
	}
	sortSeqs(t.dropped)
	var refs strings.Builder
	refs.Grow(len(t.dropped) * bodyRefLen(t.meta.Name))
	var ref [63 + 17]byte // the longest bucket name's
	for _, d := range t.dropped {
		refs.Write(appendBodyRef(ref[:0], t.meta.Name, d>>1))
	}
	return refs.String()
}

// radixMin is the fewest sequence numbers sortSeqs sorts by radix: below
// it, the scratch buffer and the passes cost more than an insertion sort.
const radixMin = 16

// sortSeqs sorts sequence numbers in ascending order. A tick drops
// thousands, and a radix sort over the bytes their largest one needs (two
// or three: sequence numbers count a bucket's writes) takes a few simple
// passes where pdqsort compares and swaps, which wasm does slowly: over
// the 9,000 of a 10k tick, about 0.8 ms less there. A write drops one or
// a few, sorted in place. (No generic sort over []uint64: it would cost the
// wasm 12 KB of code for nothing the two do not do.)
func sortSeqs(seqs []uint64) {
	if len(seqs) < radixMin {
		for i := 1; i < len(seqs); i++ {
			for j := i; j > 0 && seqs[j] < seqs[j-1]; j-- {
				seqs[j], seqs[j-1] = seqs[j-1], seqs[j]
			}
		}
		return
	}
	top := slices.Max(seqs)
	src, dst := seqs, make([]uint64, len(seqs))
	for shift := uint(0); shift < 64 && top>>shift != 0; shift += 8 {
		var count [256]int
		for _, v := range src {
			count[byte(v>>shift)]++
		}
		at := 0
		for i, c := range count {
			count[i] = at
			at += c
		}
		for _, v := range src {
			d := byte(v >> shift)
			dst[count[d]] = v
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &seqs[0] {
		copy(seqs, src)
	}
}

// publish makes the committed changes live.
func (t *tx) publish() {
	b := t.b
	b.meta = t.meta
	b.lifecycle = t.lifecycle
	for _, it := range t.records.items {
		key, r := it.key, it.v
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
	for _, it := range t.uploads.items {
		if it.v == nil {
			delete(b.uploads, it.key)
		} else {
			b.uploads[it.key] = it.v
		}
	}
}

// overlay is what a transaction changed of one kind of item, by key. Most
// transactions change one or two items, so it is a slice, searched in
// place; a map indexes it once it grows past a few items.
type overlay[V any] struct {
	items []overlayItem[V]
	index map[string]int // nil while items is short
}

type overlayItem[V any] struct {
	key string
	v   V
}

const overlayScan = 8 // the longest overlay searched without the index

func (o *overlay[V]) find(key string) (int, bool) {
	if o.index != nil {
		i, ok := o.index[key]
		return i, ok
	}
	for i := range o.items {
		if o.items[i].key == key {
			return i, true
		}
	}
	return 0, false
}

func (o *overlay[V]) get(key string) (V, bool) {
	if i, ok := o.find(key); ok {
		return o.items[i].v, true
	}
	var zero V
	return zero, false
}

func (o *overlay[V]) set(key string, v V) {
	if i, ok := o.find(key); ok {
		o.items[i].v = v
		return
	}
	o.items = append(o.items, overlayItem[V]{key, v})
	switch {
	case o.index != nil:
		o.index[key] = len(o.items) - 1
	case len(o.items) > overlayScan:
		o.reindex()
	}
}

// reserve makes room for n more items, so that a transaction that knows
// how much it will change (a tick: its actions) grows the items and the
// index once instead of by doubling.
func (o *overlay[V]) reserve(n int) {
	o.items = slices.Grow(o.items, n)
	if o.index == nil && len(o.items)+n > overlayScan {
		o.index = make(map[string]int, len(o.items)+n)
		for i, it := range o.items {
			o.index[it.key] = i
		}
	}
}

// emptied is o with no items, keeping the room of a short one.
func (o *overlay[V]) emptied() overlay[V] {
	if cap(o.items) > spareCap {
		return overlay[V]{}
	}
	clear(o.items)
	return overlay[V]{items: o.items[:0]}
}

func (o *overlay[V]) reindex() {
	o.index = make(map[string]int, len(o.items))
	for i, it := range o.items {
		o.index[it.key] = i
	}
}

// inOrder returns the positions of the items in ascending key order. The
// items stay where they are, so the index stays valid. The positions are
// sorted by package sort's one implementation, which the wasm links anyway,
// rather than a generic sort of their own per item type: overlays are
// short (a PUT's one body, a completion's parts), and a tick's records,
// its long overlay, are never sorted (they are committed as entries).
func (o *overlay[V]) inOrder() []int32 {
	n := len(o.items)
	if n <= 1 {
		return identity[:n]
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	sort.Sort(overlayOrder[V]{o, order})
	return order
}

// overlayOrder sorts positions of an overlay's items by key.
type overlayOrder[V any] struct {
	o     *overlay[V]
	order []int32
}

func (x overlayOrder[V]) Len() int { return len(x.order) }
func (x overlayOrder[V]) Less(i, j int) bool {
	return x.o.items[x.order[i]].key < x.o.items[x.order[j]].key
}
func (x overlayOrder[V]) Swap(i, j int) { x.order[i], x.order[j] = x.order[j], x.order[i] }

// identity is the order of an overlay of at most one item, shared: callers
// only read it.
var identity = [1]int32{0}

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

// under is the bucket's records under the rules' prefixes, in ascending
// key order: all an evaluation of the rules reads, found in the sorted key
// index by binary search.
func (b *bucketState) under(rules []ExpirationRule) []*ObjectRecord {
	keys := b.index.keys(b.records)
	ranges := candidates(len(keys), func(i int) string { return keys[i] }, rules)
	n := 0
	for _, rg := range ranges {
		n += rg[1] - rg[0]
	}
	out := make([]*ObjectRecord, 0, n)
	for _, rg := range ranges {
		for _, key := range keys[rg[0]:rg[1]] {
			out = append(out, b.records[key])
		}
	}
	return out
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
