package core

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultMinPartSize is S3's minimum size of every multipart part but the
// last: 5 MiB.
const DefaultMinPartSize = 5 << 20

// Options configure a Store.
type Options struct {
	// Clock returns the time in seconds since the Unix epoch. Nil means the
	// wall clock, unless ManualClock is set.
	Clock func() float64
	// ManualClock makes the store keep its own clock, which only SetClock
	// moves. Its value is persisted with the data, starting at 0: seconds
	// after the clock's origin.
	ManualClock bool
	// Origin is the time (seconds since the Unix epoch) of a new store's
	// manual clock at 0, kept with the store; 0 means the last midnight UTC
	// before the store was made. Times S3 shows, and S3's lifecycle, are
	// the origin plus the clock.
	Origin float64
	// MinPartSize is the minimum size of every multipart part but the last;
	// 0 means DefaultMinPartSize. The playground lowers it for teaching.
	MinPartSize int64
}

// Store is a MiniS3 object store over a Storage. It is safe for concurrent
// use; every mutation is one critical section that commits atomically.
type Store struct {
	mu          sync.Mutex
	storage     Storage
	clock       func() float64
	manual      bool
	manualNow   float64
	origin      float64 // the Unix time of a manual clock's 0; 0 for a wall clock
	lastRun     float64 // the midnight of the last daily lifecycle run
	minPartSize int64
	buckets     map[string]*bucketState
	closed      bool
}

// bucketState is the live state of one bucket. Its records and uploads are
// never changed in place: a transaction builds new ones and publishes them.
type bucketState struct {
	meta      bucketMeta
	lifecycle *LifecycleConfiguration // nil: none
	tags      []Tag                   // nil: none
	records   map[string]*ObjectRecord
	index     keyIndex           // the keys of records, in order
	uploads   map[string]*upload // the uploads in progress, by ID
	// completed are the completed uploads, by ID, each holding only what a
	// repeated Complete answers with. They are kept apart from the uploads
	// in progress so that what walks those never walks the bucket's
	// multipart history.
	completed map[string]*upload
}

func newBucketState(m bucketMeta) *bucketState {
	return &bucketState{meta: m, records: make(map[string]*ObjectRecord), index: newKeyIndex(),
		uploads: make(map[string]*upload), completed: make(map[string]*upload)}
}

// setUpload files u under its ID, among the uploads in progress or the
// completed ones; nil removes the upload id.
func (b *bucketState) setUpload(id string, u *upload) {
	delete(b.uploads, id)
	delete(b.completed, id)
	switch {
	case u == nil:
	case u.Completed != nil:
		b.completed[id] = u
	default:
		b.uploads[id] = u
	}
}

func wallClock() float64 {
	return float64(time.Now().UnixNano()) / 1e9
}

// Open loads a store from storage. The store owns storage from then on and
// closes it in Close.
func Open(storage Storage, opts Options) (*Store, error) {
	if !inYears(opts.Origin) {
		return nil, errInvalidArgument("Origin", fmt.Sprint(opts.Origin), "a clock's origin must be a time in the years 1 to 9999")
	}
	s := &Store{
		storage:     storage,
		clock:       opts.Clock,
		manual:      opts.ManualClock,
		minPartSize: opts.MinPartSize,
		buckets:     make(map[string]*bucketState),
	}
	if s.minPartSize <= 0 {
		s.minPartSize = DefaultMinPartSize
	}
	if s.manual {
		s.clock = func() float64 { return s.manualNow }
	} else if s.clock == nil {
		s.clock = wallClock
	}
	fresh, err := s.load()
	if err != nil {
		return nil, fmt.Errorf("minis3: loading store: %w", err)
	}
	if fresh && s.manual {
		// A new store keeps the origin of its clock from the start.
		s.origin = opts.Origin
		if s.origin == 0 {
			s.origin = midnightBefore(wallClock())
		}
		if err := s.storage.Commit(ChangeSet{s.metaChange()}); err != nil {
			return nil, fmt.Errorf("minis3: creating store: %w", err)
		}
	}
	return s, nil
}

// metaChange is the store-wide item as it is now.
func (s *Store) metaChange() Change {
	m := storeMeta{Format: formatVersion, Clock: s.manualNow, Origin: s.origin, LifecycleRun: s.lastRun}
	return Change{Kind: KindMeta, Key: "store", Value: itemJSON(m)}
}

// load reads every item but the bodies into the live state. fresh reports
// that the storage held nothing at all.
func (s *Store) load() (fresh bool, err error) {
	var (
		items      int
		meta       storeMeta
		entries    []loadedEntry
		uploads    = make(map[string]*upload)
		lifecycles = make(map[string]*LifecycleConfiguration)
		tags       = make(map[string][]Tag)
	)
	err = s.storage.Load(func(kind Kind, key string, value []byte) error {
		items++
		switch kind {
		case KindMeta:
			if err := json.Unmarshal(value, &meta); err != nil {
				return fmt.Errorf("store metadata: %w", err)
			}
			if meta.Format != formatVersion {
				return fmt.Errorf("the data is of storage format %d; this MiniS3 reads format %d only", meta.Format, formatVersion)
			}
		case KindBucket:
			if name, ok := strings.CutSuffix(key, "/lifecycle"); ok {
				c, err := readLifecycleItem(value)
				if err != nil {
					return fmt.Errorf("lifecycle of bucket %q: %w", name, err)
				}
				lifecycles[name] = &c
				return nil
			}
			if name, ok := strings.CutSuffix(key, "/tagging"); ok {
				var t []Tag
				if err := json.Unmarshal(value, &t); err != nil {
					return fmt.Errorf("tags of bucket %q: %w", name, err)
				}
				tags[name] = t
				return nil
			}
			var m bucketMeta
			if err := json.Unmarshal(value, &m); err != nil {
				return fmt.Errorf("bucket %q: %w", key, err)
			}
			s.buckets[key] = newBucketState(m)
		case KindRecord:
			objectKey, e, err := decodeEntryItem(value)
			if err != nil {
				return fmt.Errorf("item %q: %w (this MiniS3 reads storage format %d only)", key, err, formatVersion)
			}
			bucket, _, _ := strings.Cut(key, "/")
			if key != entryRef(bucket, e.Seq()) {
				return fmt.Errorf("entry %s of key %q is filed under %q", e.ID(), objectKey, key)
			}
			entries = append(entries, loadedEntry{bucket: bucket, key: objectKey, e: e})
		case KindUpload:
			var u upload
			if err := json.Unmarshal(value, &u); err != nil {
				return fmt.Errorf("upload %q: %w", key, err)
			}
			uploads[key] = &u
		default:
			return fmt.Errorf("unexpected item of kind %v", kind)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	if s.manual {
		s.manualNow, s.origin = meta.Clock, meta.Origin
	}
	s.lastRun = meta.LifecycleRun
	for _, le := range entries {
		b := s.buckets[le.bucket]
		if b == nil {
			return false, fmt.Errorf("entry %s of key %q belongs to no bucket", le.e.ID(), le.key)
		}
		r := b.records[le.key]
		if r == nil {
			r = &ObjectRecord{Key: le.key}
			b.records[le.key] = r
			b.index.add(le.key)
		}
		r.Versions = append(r.Versions, le.e)
	}
	for _, b := range s.buckets {
		for _, r := range b.records {
			// Newest first: the entry written last has the largest Seq.
			slices.SortFunc(r.Versions, func(x, y Entry) int { return cmp.Compare(y.Seq(), x.Seq()) })
		}
	}
	for name, c := range lifecycles {
		b := s.buckets[name]
		if b == nil {
			return false, fmt.Errorf("lifecycle configuration of %q belongs to no bucket", name)
		}
		b.lifecycle = c
	}
	for name, t := range tags {
		b := s.buckets[name]
		if b == nil {
			return false, fmt.Errorf("tags of %q belong to no bucket", name)
		}
		b.tags = t
	}
	for key, u := range uploads {
		name, _, _ := strings.Cut(key, "/")
		b := s.buckets[name]
		if b == nil || key != name+"/"+u.ID {
			return false, fmt.Errorf("upload %q belongs to no bucket", key)
		}
		b.setUpload(u.ID, u)
	}
	return items == 0, nil
}

// loadedEntry is an entry item as Load gave it.
type loadedEntry struct {
	bucket, key string
	e           Entry
}

// Close closes the store and its storage. Later calls fail.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.storage.Close()
}

var errClosed = &Error{Code: InternalError, Message: "the store is closed"}

// Now samples the store's clock.
func (s *Store) Now() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clock()
}

// ManualClock reports whether the store keeps its own clock (see SetClock).
func (s *Store) ManualClock() bool { return s.manual }

// MinPartSize is the minimum size of a multipart part other than the last.
func (s *Store) MinPartSize() int64 { return s.minPartSize }

// sampleClock reads the clock once for an operation.
func (s *Store) sampleClock() (float64, error) {
	now := s.clock()
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return 0, newError(InternalError, "the clock returned %v, not a finite time", now)
	}
	return now, nil
}

// storageError reports a failed commit or read as an S3 InternalError that
// still wraps the storage's error.
func storageError(err error) error {
	return &Error{Code: InternalError, Message: "storage failure: " + err.Error(), Err: err}
}

// view runs fn with the lock held on the named bucket's live state.
func (s *Store) view(name string, fn func(b *bucketState) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	b := s.buckets[name]
	if b == nil {
		return errNoSuchBucket(name)
	}
	return fn(b)
}

// update runs fn as one transaction on the named bucket: under the lock,
// with the clock sampled once. When fn succeeds, everything it changed is
// committed in one ChangeSet and only then published to the live state.
// When fn or the commit fails, the live state is untouched.
func (s *Store) update(name string, fn func(t *tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	b := s.buckets[name]
	if b == nil {
		return errNoSuchBucket(name)
	}
	now, err := s.sampleClock()
	if err != nil {
		return err
	}
	return s.transaction(b, now, nil, fn)
}

// transaction runs fn as one transaction on b at now, under the lock the
// caller holds, and commits what it changed together with extra, when it
// changed anything; then publishes it.
func (s *Store) transaction(b *bucketState, now float64, extra ChangeSet, fn func(t *tx) error) error {
	t := newTx(b, now)
	if err := fn(t); err != nil {
		return err
	}
	if cs := t.changeSet(); len(cs) > 0 {
		if err := s.storage.Commit(append(cs, extra...)); err != nil {
			return storageError(err)
		}
	}
	t.publish()
	return nil
}
