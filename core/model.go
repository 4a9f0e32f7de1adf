package core

import (
	"fmt"
	"math"
)

// NullVersionID is the version ID of the single entry a key may have that was
// written while its bucket was unversioned or suspended.
const NullVersionID = "null"

// VersioningState is a bucket's versioning state.
type VersioningState string

// The three versioning states. A bucket starts Unversioned and can never
// return to it once Enabled or Suspended.
const (
	Unversioned VersioningState = "unversioned"
	Enabled     VersioningState = "enabled"
	Suspended   VersioningState = "suspended"
)

// Entry is one entry of a key's version stack: a *Version or a *DeleteMarker.
type Entry interface {
	// ID is the entry's version ID: "null" or v00000001, v00000002, ...
	ID() string
	// Created is the entry's creation time in clock seconds.
	Created() float64
	// Seq is the entry's position in its bucket's write order: every new
	// entry gets a larger Seq than any entry before it.
	Seq() uint64
	isEntry()
}

// ObjectMeta is what a client may attach to an object when it writes it, and
// gets back when it reads it.
type ObjectMeta struct {
	ContentType        string            `json:"ct,omitempty"`
	ContentDisposition string            `json:"cd,omitempty"`
	ContentEncoding    string            `json:"ce,omitempty"`
	CacheControl       string            `json:"cc,omitempty"`
	ContentLanguage    string            `json:"cl,omitempty"`
	Expires            string            `json:"ex,omitempty"` // the HTTP date as given
	User               map[string]string `json:"um,omitempty"` // x-amz-meta-*, names lower-case
}

// Version is a data version: bytes stored under a key.
type Version struct {
	VersionID string
	ETag      string // hex MD5 of the body, or md5-of-part-md5s-N for multipart
	Size      int64
	CreatedAt float64
	Meta      ObjectMeta
	// Parts is the number of parts of a multipart object, 0 for a plain PUT.
	Parts int
	seq   uint64
}

// DeleteMarker is a placeholder that hides the versions below it.
type DeleteMarker struct {
	VersionID string
	CreatedAt float64
	seq       uint64
}

func (v *Version) ID() string            { return v.VersionID }
func (v *Version) Created() float64      { return v.CreatedAt }
func (v *Version) Seq() uint64           { return v.seq }
func (*Version) isEntry()                {}
func (m *DeleteMarker) ID() string       { return m.VersionID }
func (m *DeleteMarker) Created() float64 { return m.CreatedAt }
func (m *DeleteMarker) Seq() uint64      { return m.seq }
func (*DeleteMarker) isEntry()           {}

// ObjectRecord is everything stored under one key, newest entry first.
// Records are immutable once a store publishes them.
type ObjectRecord struct {
	Key      string
	Versions []Entry
	// created is each entry's CreatedAt, NaN for a delete marker, which no
	// age test selects, and ids each entry's version ID, which an action
	// copies. Lifecycle evaluation reads these instead of following a
	// pointer per version: over 1M versions, reading the ID of each
	// selected entry through its pointer took a quarter of the time.
	// Every record a store builds has them (newRecord; Check verifies
	// them); EvaluateExpiration gives a record built elsewhere a copy that
	// has them (withScan). filledFor is &Versions[0] of the stack they
	// were filled from: a copy of a record whose Versions a caller
	// replaced has other entries, and scannable refuses its columns.
	created   []float64
	ids       []string
	filledFor *Entry
	// room is the arrays behind Versions, created and ids when
	// newRecordOnto built the record (or nil): they may be shared with
	// other records, and must not be changed in place.
	room *stackRoom
}

// newRecord is the record of key with the version stack versions.
func newRecord(key string, versions []Entry) *ObjectRecord {
	r := &ObjectRecord{Key: key, Versions: versions}
	r.fillScan()
	return r
}

// fillScan gives r the creation times and version IDs of its entries.
func (r *ObjectRecord) fillScan() {
	r.created = make([]float64, len(r.Versions))
	r.ids = make([]string, len(r.Versions))
	for i, e := range r.Versions {
		r.created[i], r.ids[i] = createdOf(e), e.ID()
	}
	r.filledFor = firstOf(r.Versions)
}

// firstOf is &versions[0], nil for an empty stack.
func firstOf(versions []Entry) *Entry {
	if len(versions) == 0 {
		return nil
	}
	return &versions[0]
}

// singleRecord is a record of one entry with its stack, creation time and
// version ID, in one allocation.
type singleRecord struct {
	r       ObjectRecord
	entry   [1]Entry
	created [1]float64
	id      [1]string
}

// newRecordOnto is newRecord(below.Key, e followed by below's entries),
// in O(1) time when it can. A record's stack may be the tail of a longer
// array with room in front (stackRoom), shared with the records below it in
// time: when no record has claimed the slot in front of below's entries,
// the new record claims it and shares the rest with below, which does not
// see the slot (records are immutable; only the slot is written). Otherwise
// the entries are copied into a new array with as much room again in
// front, so a stack of n PUTs copies O(n) entries in all. below must carry
// its creation times and IDs (scannable).
func newRecordOnto(e Entry, below *ObjectRecord) *ObjectRecord {
	n := len(below.Versions)
	room := below.room
	start := 0
	if room != nil {
		start = len(room.versions) - cap(below.Versions)
	}
	if room == nil || start != room.front || start == 0 {
		size := 2*n + 2
		room = &stackRoom{versions: make([]Entry, size), created: make([]float64, size), ids: make([]string, size), front: size - n}
		copy(room.versions[room.front:], below.Versions)
		copy(room.created[room.front:], below.created)
		copy(room.ids[room.front:], below.ids)
		start = room.front
	}
	start--
	room.front = start
	room.versions[start], room.created[start], room.ids[start] = e, createdOf(e), e.ID()
	end := start + 1 + n
	return &ObjectRecord{Key: below.Key, Versions: room.versions[start:end:len(room.versions)],
		created: room.created[start:end:len(room.created)], ids: room.ids[start:end:len(room.ids)],
		filledFor: &room.versions[start], room: room}
}

// stackRoom is the array behind the stacks of a chain of records, each one
// entry more than the one before it, that newRecordOnto built; their
// entries fill it from front to the end. Only the store's writer, under
// its lock, reads or moves front.
type stackRoom struct {
	versions []Entry
	created  []float64
	ids      []string
	front    int // the first slot a record holds
}

// without is the record of r's entries but those gone marks, left of them
// (at least one), with the creation times and IDs copied from r's rather
// than read again through each entry. A tick that expires every noncurrent
// version of a key leaves it its current entry alone: that record is
// allocated once (newSingleRecord), not as a record and three arrays.
func (r *ObjectRecord) without(gone []bool, left int) *ObjectRecord {
	if left == 1 && !gone[0] {
		return newSingleRecord(r.Key, r.Versions[0])
	}
	versions := make([]Entry, 0, left)
	created := make([]float64, 0, left)
	ids := make([]string, 0, left)
	for i, e := range r.Versions {
		if !gone[i] {
			versions = append(versions, e)
			created = append(created, r.created[i])
			ids = append(ids, r.ids[i])
		}
	}
	return &ObjectRecord{Key: r.Key, Versions: versions, created: created, ids: ids, filledFor: &versions[0]}
}

// newSingleRecord is newRecord(key, []Entry{e}), allocated once.
func newSingleRecord(key string, e Entry) *ObjectRecord {
	s := &singleRecord{entry: [1]Entry{e}, created: [1]float64{createdOf(e)}, id: [1]string{e.ID()}}
	s.r = ObjectRecord{Key: key, Versions: s.entry[:], created: s.created[:], ids: s.id[:], filledFor: &s.entry[0]}
	return &s.r
}

// createdOf is what ObjectRecord.created holds for e.
func createdOf(e Entry) float64 {
	if v, ok := e.(*Version); ok {
		return v.CreatedAt
	}
	return math.NaN()
}

// scannable reports whether r.created and r.ids can stand for r.Versions:
// filled from this stack, and as long.
func (r *ObjectRecord) scannable() bool {
	return len(r.created) == len(r.Versions) && len(r.ids) == len(r.Versions) && r.filledFor == firstOf(r.Versions)
}

// checkScan reports the first entry whose creation time or version ID
// r.created or r.ids does not hold.
func (r *ObjectRecord) checkScan() error {
	if !r.scannable() {
		return fmt.Errorf("key %q: %d creation times and %d IDs for %d entries, filled from this stack: %t",
			r.Key, len(r.created), len(r.ids), len(r.Versions), r.filledFor == firstOf(r.Versions))
	}
	for i, e := range r.Versions {
		if c := createdOf(e); c != r.created[i] && !(math.IsNaN(c) && math.IsNaN(r.created[i])) {
			return fmt.Errorf("key %q: entry %s was created at %v, its record says %v", r.Key, e.ID(), c, r.created[i])
		}
		if e.ID() != r.ids[i] {
			return fmt.Errorf("key %q: entry %d is %s, its record says %s", r.Key, i, e.ID(), r.ids[i])
		}
	}
	return nil
}

// Current is the key's current entry, Versions[0].
func (r *ObjectRecord) Current() Entry { return r.Versions[0] }

// find returns the index of the entry with version ID id, or -1.
func (r *ObjectRecord) find(id string) int {
	for i, e := range r.Versions {
		if e.ID() == id {
			return i
		}
	}
	return -1
}

// BucketInfo describes a bucket.
type BucketInfo struct {
	Name       string
	CreatedAt  float64
	Versioning VersioningState
}

// bodyRef names the stored body of the data version with sequence seq, and
// the stored item of the entry with sequence seq (the two are items of
// different kinds).
func bodyRef(bucket string, seq uint64) string {
	return string(appendBodyRef(make([]byte, 0, bodyRefLen(bucket)), bucket, seq))
}

// appendBodyRef appends the body ref to b.
func appendBodyRef(b []byte, bucket string, seq uint64) []byte {
	b = append(b, bucket...)
	b = append(b, '/')
	return appendSeq(b, seq)
}

// isBodyRef reports whether ref is bodyRef(bucket, seq).
func isBodyRef(ref, bucket string, seq uint64) bool {
	var b [63 + 17]byte // the longest bucket name's
	return len(ref) == bodyRefLen(bucket) && string(appendBodyRef(b[:0], bucket, seq)) == ref
}

// bodyRefLen is the length of every body ref of the bucket.
func bodyRefLen(bucket string) int { return len(bucket) + 1 + 16 }
