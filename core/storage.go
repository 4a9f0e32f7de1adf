package core

import "errors"

// Kind says what a stored item is.
type Kind uint8

// The kinds of stored items. Every item but a body is loaded when a store
// opens; bodies are read on demand.
const (
	KindMeta   Kind = 1 // store-wide metadata (the manual clock), key "store"
	KindBucket Kind = 2 // a bucket's metadata, keyed by bucket name
	KindRecord Kind = 3 // an entry of a version stack, keyed by entryRef
	KindUpload Kind = 4 // a multipart upload, keyed by bucket + "/" + upload ID
	KindBody   Kind = 5 // the bytes of a version or part, keyed by a body ref
)

func (k Kind) String() string {
	switch k {
	case KindMeta:
		return "meta"
	case KindBucket:
		return "bucket"
	case KindRecord:
		return "record"
	case KindUpload:
		return "upload"
	case KindBody:
		return "body"
	}
	return "unknown"
}

// Change is one item a commit writes or removes.
type Change struct {
	Key    string
	Value  []byte // the new value; ignored when Delete is set
	Kind   Kind
	Delete bool
}

// ChangeSet is everything one mutation changes. A Storage commits it
// all-or-nothing.
type ChangeSet []Change

// Count is the number of changes of kind k.
func (cs ChangeSet) Count(k Kind) int {
	n := 0
	for _, c := range cs {
		if c.Kind == k {
			n++
		}
	}
	return n
}

// Storage keeps a store's state durably. Implementations: MemoryStorage,
// boltstore (native) and the IndexedDB storage of the wasm build. A Storage
// must be safe for concurrent use (the store calls it under its own lock,
// but tests and tools may not), and the bytes it returns belong to the
// caller. Package storagetest checks all of this for any implementation.
type Storage interface {
	// Load calls visit for every stored item except bodies, in any order,
	// and stops with visit's error if it returns one.
	Load(visit func(kind Kind, key string, value []byte) error) error
	// Commit applies every change or none of them. A committed Value
	// belongs to the storage, which may keep it: the store hands over
	// bytes it never changes again (a caller's body is copied before it
	// gets here). A failed Commit keeps nothing.
	Commit(changes ChangeSet) error
	// ReadBody returns the body stored under ref, or ErrBodyNotFound.
	ReadBody(ref string) ([]byte, error)
	// Close releases the storage.
	Close() error
}

// ErrBodyNotFound is returned by Storage.ReadBody for a ref it does not hold.
var ErrBodyNotFound = errors.New("minis3: body not found in storage")
