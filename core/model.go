package core

import (
	"maps"
	"slices"
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
	// Seq is the entry's place in its bucket's write order: every new
	// entry has a larger Seq than every entry before it. It names the
	// entry's stored item (and a version's body).
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
	// StorageClass is where the bytes are kept: "" is STANDARD. A
	// lifecycle transition changes it.
	StorageClass string `json:"sc,omitempty"`
	// Tags are the object's tags, in the order given; a PUT of the
	// object's tagging replaces them.
	Tags []Tag `json:"tg,omitempty"`
}

// Tag is one of an object's tags.
type Tag struct {
	Key   string `json:"k"`
	Value string `json:"v"`
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
	// PartSizes are the sizes of a multipart object's parts, in part order:
	// where each part lies in the body (PartRange). Nil for a plain PUT, and
	// for a multipart object completed before MiniS3 kept them.
	PartSizes []int64
	seq       uint64
}

// PartRange is where part n of v lies in its body, [start, end): the bytes
// a GET with partNumber=n reads. A version written in one piece is one
// part. ok is false when v has no part n, or when v's part sizes are not
// known (PartSizes is nil).
func (v *Version) PartRange(n int) (start, end int64, ok bool) {
	if v.Parts == 0 {
		if n != 1 {
			return 0, 0, false
		}
		return 0, v.Size, true
	}
	if n < 1 || n > len(v.PartSizes) {
		return 0, 0, false
	}
	for _, size := range v.PartSizes[:n-1] {
		start += size
	}
	return start, start + v.PartSizes[n-1], true
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

// ObjectRecord is everything stored under one key, newest entry first:
// Versions[0] is the current entry.
type ObjectRecord struct {
	Key      string
	Versions []Entry
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

// clone is a copy of r that shares nothing with it: the store hands out
// copies, so that nothing a caller does to one changes the store.
func (r *ObjectRecord) clone() *ObjectRecord {
	c := &ObjectRecord{Key: r.Key, Versions: make([]Entry, len(r.Versions))}
	for i, e := range r.Versions {
		c.Versions[i] = cloneEntry(e)
	}
	return c
}

// cloneEntry is a copy of e that shares nothing with it.
func cloneEntry(e Entry) Entry {
	switch e := e.(type) {
	case *Version:
		return e.clone()
	case *DeleteMarker:
		m := *e
		return &m
	}
	return e
}

func (v *Version) clone() *Version {
	c := *v
	c.Meta = v.Meta.clone()
	c.PartSizes = slices.Clone(v.PartSizes)
	return &c
}

// clone copies m, so that neither the caller's map nor the store's can
// change the other. An empty map becomes nil, as it reads back from
// storage.
func (m ObjectMeta) clone() ObjectMeta {
	if len(m.User) == 0 {
		m.User = nil
	} else {
		m.User = maps.Clone(m.User)
	}
	if len(m.Tags) == 0 {
		m.Tags = nil
	} else {
		m.Tags = slices.Clone(m.Tags)
	}
	return m
}

// headersZero reports whether m has none of the HTTP headers and user
// metadata a client sends with an object.
func (m ObjectMeta) headersZero() bool {
	return m.ContentType == "" && m.ContentDisposition == "" && m.ContentEncoding == "" && m.CacheControl == "" &&
		m.ContentLanguage == "" && m.Expires == "" && len(m.User) == 0
}

// BucketInfo describes a bucket.
type BucketInfo struct {
	Name       string
	CreatedAt  float64
	Versioning VersioningState
}
