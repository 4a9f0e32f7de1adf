package model

import (
	"maps"
	"slices"
)

// Versioning is a bucket's versioning state [ref §1.1].
type Versioning string

// A bucket starts Unversioned and, once Enabled, can only be Suspended,
// never Unversioned again [ref §1.1].
const (
	Unversioned Versioning = "unversioned"
	Enabled     Versioning = "enabled"
	Suspended   Versioning = "suspended"
)

// NullVersionID is the ID of the one entry per key written while its
// bucket was unversioned or suspended [ref §1.1].
const NullVersionID = "null"

// Store is a set of buckets and one manual clock.
type Store struct {
	// Now is the clock, in seconds. Every write stamps its entries with it
	// [chapter: "Creation time comes from the injected service clock"].
	Now float64
	// Origin is the time of the clock's 0, in seconds since the Unix
	// epoch: S3's lifecycle counts its days in the absolute time Origin +
	// Now, whose days end at midnight UTC [DESIGN: "a manual clock has an
	// origin"; ref §5.5].
	Origin float64
	// MinPartSize is the smallest multipart part but the last [ref §3.1:
	// 5 MiB; DESIGN: configurable, the playground lowers it].
	MinPartSize int64
	Buckets     map[string]*Bucket
	// serials numbers every entry ever written, so that a tick can tell
	// an entry from a later one with the same version ID.
	serials int
}

// Bucket is one bucket: its versioning state, its keys' version stacks,
// its multipart uploads and its stored lifecycle configuration.
type Bucket struct {
	Name       string
	CreatedAt  float64
	Versioning Versioning
	// Stacks holds each key's entries, newest first: Stacks[key][0] is
	// the current entry [chapter: "versions[0] is current"]. A key whose
	// stack is empty is not in the map.
	Stacks map[string][]Entry
	// VersionsIssued counts the version IDs handed out: the next is
	// VersionsIssued+1 [DESIGN: a per-bucket counter, v00000001, ...].
	VersionsIssued int
	// Uploads holds the multipart uploads, in progress and completed
	// (a completed one answers a repeated Complete [ref §3.2]).
	Uploads       map[string]*Upload
	UploadsIssued int
	Lifecycle     *LifecycleConfiguration // nil: none stored
	// Tags are the bucket's own tags, in the order given; nil: none.
	Tags []Tag
}

// Entry is one entry of a version stack: a data version, or a delete
// marker, which has no data [ref §1.2].
type Entry struct {
	VersionID    string
	DeleteMarker bool
	CreatedAt    float64
	// A data version's bytes and what describes them.
	Body        string
	ETag        string
	ContentType string
	Parts       int // the number of parts of a multipart object, else 0
	// Tags are the version's tags, in the order given; a tagging request
	// replaces them [S3 UG object-tagging].
	Tags []Tag
	// StorageClass is where the version's bytes are kept: "" is STANDARD,
	// and only S3's lifecycle transitions change it [ref §5.2].
	StorageClass string
	serial       int
}

// New is an empty store whose clock reads 0 at origin (seconds since the
// Unix epoch).
func New(minPartSize int64, origin float64) *Store {
	return &Store{MinPartSize: minPartSize, Origin: origin, Buckets: make(map[string]*Bucket)}
}

// The times a clock may show: the years 1 to 9999 [DESIGN: "Times outside
// the years 1–9999 are refused"].
const (
	firstTime = -62135596800 // 0001-01-01T00:00:00Z
	lastTime  = 253402300799 // 9999-12-31T23:59:59Z
)

// Clone is a deep copy of s: changing one never changes the other. (An
// entry's tags and a stored rule's parts are replaced whole, never
// changed in place, so the copy may share them.)
func (s *Store) Clone() *Store {
	c := *s
	c.Buckets = maps.Clone(s.Buckets)
	for name, b := range c.Buckets {
		c.Buckets[name] = b.clone()
	}
	return &c
}

func (b *Bucket) clone() *Bucket {
	c := *b
	c.Stacks = maps.Clone(b.Stacks)
	for key, stack := range c.Stacks {
		c.Stacks[key] = slices.Clone(stack)
	}
	c.Uploads = maps.Clone(b.Uploads)
	for id, u := range c.Uploads {
		c.Uploads[id] = u.clone()
	}
	if b.Lifecycle != nil {
		c.Lifecycle = &LifecycleConfiguration{Rules: slices.Clone(b.Lifecycle.Rules)}
	}
	return &c
}

// bucket is the named bucket, or NoSuchBucket.
func (s *Store) bucket(name string) (*Bucket, error) {
	b := s.Buckets[name]
	if b == nil {
		return nil, &Error{Code: "NoSuchBucket"}
	}
	return b, nil
}

// newEntry stamps an entry with the clock and a serial of its own.
func (s *Store) newEntry(e Entry) Entry {
	s.serials++
	e.CreatedAt, e.serial = s.Now, s.serials
	return e
}

// sortedKeys are the keys of m in ascending byte order [ref §2.1].
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
