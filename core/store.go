package core

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"minis3/internal/jsonv"
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
	// moves. Its value is persisted with the data, starting at 0.
	ManualClock bool
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
	minPartSize int64
	buckets     map[string]*bucketState
	closed      bool
	spare       *tx // the last transaction, emptied for the next (update)
}

// bucketState is the live state of one bucket.
type bucketState struct {
	meta      bucketMeta
	lifecycle *LifecycleConfiguration // nil: none
	records   map[string]*ObjectRecord
	index     keyIndex
	uploads   map[string]*upload
}

// wallClock is the default clock.
func wallClock() float64 {
	return float64(time.Now().UnixNano()) / 1e9
}

// Open loads a store from storage. The store owns storage from then on and
// closes it in Close.
func Open(storage Storage, opts Options) (*Store, error) {
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
	if err := s.load(); err != nil {
		return nil, fmt.Errorf("minis3: loading store: %w", err)
	}
	return s, nil
}

func (s *Store) load() error {
	var (
		meta       storeMeta
		entries    []loadedEntry
		legacy     = make(map[string]*ObjectRecord) // storage key → record of format 1 or 2
		uploads    = make(map[string]*upload)
		lifecycles = make(map[string]*LifecycleConfiguration)
	)
	err := s.storage.Load(func(kind Kind, key string, value []byte) error {
		switch kind {
		case KindMeta:
			if err := jsonv.Unmarshal(value, &meta, readStoreMeta); err != nil {
				return fmt.Errorf("store metadata: %w", err)
			}
			if meta.Format > formatVersion {
				return fmt.Errorf("data has format %d; this MiniS3 reads up to %d", meta.Format, formatVersion)
			}
		case KindBucket:
			if name, ok := strings.CutSuffix(key, "/lifecycle"); ok {
				var c LifecycleConfiguration
				if err := jsonv.Unmarshal(value, &c, readLifecycle); err != nil {
					return fmt.Errorf("lifecycle of bucket %q: %w", name, err)
				}
				lifecycles[name] = &c
				return nil
			}
			var m bucketMeta
			if err := jsonv.Unmarshal(value, &m, readBucketMeta); err != nil {
				return fmt.Errorf("bucket %q: %w", key, err)
			}
			s.buckets[key] = &bucketState{meta: m, records: make(map[string]*ObjectRecord), uploads: make(map[string]*upload)}
		case KindRecord:
			if len(value) > 0 && value[0] == itemEntry {
				objectKey, e, err := decodeEntryItem(value)
				if err != nil {
					return fmt.Errorf("item %q: %w", key, err)
				}
				bucket, _, _ := strings.Cut(key, "/")
				if !isBodyRef(key, bucket, e.Seq()) {
					return fmt.Errorf("entry %s of key %q is filed under %q", e.ID(), objectKey, key)
				}
				entries = append(entries, loadedEntry{bucket: bucket, key: objectKey, e: e})
				return nil
			}
			r, err := decodeRecord(value)
			if err != nil {
				return fmt.Errorf("record %q: %w", key, err)
			}
			legacy[key] = r
		case KindUpload:
			var u upload
			if err := jsonv.Unmarshal(value, &u, readUpload); err != nil {
				return fmt.Errorf("upload %q: %w", key, err)
			}
			uploads[key] = &u
		default:
			return fmt.Errorf("unexpected item of kind %v", kind)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if s.manual {
		s.manualNow = meta.Clock
	}
	if err := s.loadEntries(entries); err != nil {
		return err
	}
	if err := s.upgrade(legacy, meta); err != nil {
		return err
	}
	for name, c := range lifecycles {
		b := s.buckets[name]
		if b == nil {
			return fmt.Errorf("lifecycle configuration of %q belongs to no bucket", name)
		}
		b.lifecycle = c
	}
	for key, u := range uploads {
		name, _, _ := strings.Cut(key, "/")
		b := s.buckets[name]
		if b == nil || key != name+"/"+u.ID {
			return fmt.Errorf("upload %q belongs to no bucket", key)
		}
		b.uploads[u.ID] = u
	}
	return nil
}

// loadedEntry is an entry item as Load gave it.
type loadedEntry struct {
	bucket, key string
	e           Entry
}

// loadEntries files the loaded entries under their keys' records and puts
// each stack newest (highest sequence number) first.
func (s *Store) loadEntries(entries []loadedEntry) error {
	for _, le := range entries {
		b := s.buckets[le.bucket]
		if b == nil {
			return fmt.Errorf("entry %s of key %q belongs to no bucket", le.e.ID(), le.key)
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
			orderStack(r.Versions)
			r.fillScan()
		}
	}
	return nil
}

// orderStack puts a loaded stack newest first. Storages that load in key
// order give it oldest first; others in any order.
func orderStack(versions []Entry) {
	n := len(versions)
	for i := range n / 2 {
		versions[i], versions[n-1-i] = versions[n-1-i], versions[i]
	}
	for i := 1; i < n; i++ {
		if versions[i].Seq() >= versions[i-1].Seq() {
			bySeq := make(map[uint64]Entry, n)
			seqs := make([]uint64, n)
			for j, e := range versions {
				bySeq[e.Seq()], seqs[j] = e, e.Seq()
			}
			sortSeqs(seqs)
			for j, seq := range seqs {
				versions[n-1-j] = bySeq[seq]
			}
			return
		}
	}
}

// upgrade stores the records of formats 1 and 2 as entry items (format 3)
// in one commit, which also records the format, and adds them to their
// buckets. When the commit fails, Open fails and the storage is as it was.
func (s *Store) upgrade(legacy map[string]*ObjectRecord, meta storeMeta) error {
	if len(legacy) == 0 {
		return nil
	}
	meta.Format = formatVersion
	cs := ChangeSet{{Kind: KindMeta, Key: "store", Value: appendStoreMeta(nil, meta)}}
	written := make(map[string]bool)
	keys := sortedKeys(legacy)
	for _, key := range keys {
		r := legacy[key]
		name, _, _ := strings.Cut(key, "/")
		b := s.buckets[name]
		switch {
		case b == nil || key != name+"/"+r.Key:
			return fmt.Errorf("record %q belongs to no bucket", key)
		case b.records[r.Key] != nil:
			return fmt.Errorf("key %q of bucket %q is stored both as a record and as entries", r.Key, name)
		}
		b.records[r.Key] = r
		b.index.add(r.Key)
		for _, e := range r.Versions {
			ref := bodyRef(name, e.Seq())
			if written[ref] {
				return fmt.Errorf("sequence number %d is used twice in bucket %q", e.Seq(), name)
			}
			written[ref] = true
			cs = append(cs, Change{Kind: KindRecord, Key: ref, Value: appendEntryItem(nil, r.Key, e)})
		}
	}
	// A record's key may be spelled like the ref of an entry: that entry's
	// item then replaces it, whatever order a storage applies changes in.
	for _, key := range keys {
		if !written[key] {
			cs = append(cs, Change{Kind: KindRecord, Key: key, Delete: true})
		}
	}
	if err := s.storage.Commit(cs); err != nil {
		return fmt.Errorf("upgrading %d records to format %d: %w", len(legacy), formatVersion, err)
	}
	return nil
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

// SetClock sets a manual clock to now seconds and persists it. It fails with
// InvalidRequest when the store was not opened with ManualClock, and with
// InvalidArgument for a value that is not a finite number.
func (s *Store) SetClock(now float64) error {
	if !s.manual {
		return newError(InvalidRequest, "the store's clock is not manual")
	}
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return errInvalidArgument("now", fmt.Sprint(now), "the clock must be a finite number of seconds")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	cs := ChangeSet{{Kind: KindMeta, Key: "store", Value: appendStoreMeta(nil, storeMeta{Format: formatVersion, Clock: now})}}
	if err := s.storage.Commit(cs); err != nil {
		return storageError(err)
	}
	s.manualNow = now
	return nil
}

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
	// Transactions run one at a time, under the lock, and nothing keeps a
	// reference to one after it ends, so each reuses the last one's memory.
	t := s.spare
	s.spare = nil
	t = t.begin(b, now)
	defer func() { s.spare = t.end() }()
	if err := fn(t); err != nil {
		return err
	}
	if !t.changed() {
		return nil
	}
	if err := s.storage.Commit(t.changeSet()); err != nil {
		return storageError(err)
	}
	t.publish()
	return nil
}

// CreateBucket creates an empty, unversioned bucket.
func (s *Store) CreateBucket(name string) error {
	if err := ValidateBucketName(name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.buckets[name] != nil {
		e := newError(BucketAlreadyOwnedByYou, "")
		e.BucketName = name
		return e
	}
	now, err := s.sampleClock()
	if err != nil {
		return err
	}
	m := bucketMeta{Name: name, CreatedAt: now, Versioning: Unversioned, NextVersion: 1, NextSeq: 1, NextUpload: 1}
	if err := s.storage.Commit(ChangeSet{{Kind: KindBucket, Key: name, Value: appendBucketMeta(nil, m)}}); err != nil {
		return storageError(err)
	}
	s.buckets[name] = &bucketState{meta: m, records: make(map[string]*ObjectRecord), uploads: make(map[string]*upload)}
	return nil
}

// DeleteBucket deletes an empty bucket. A bucket holding any version or
// delete marker is not empty. Multipart uploads still in progress are
// aborted with it.
func (s *Store) DeleteBucket(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	b := s.buckets[name]
	if b == nil {
		return errNoSuchBucket(name)
	}
	if len(b.records) > 0 {
		e := newError(BucketNotEmpty, "")
		e.BucketName = name
		return e
	}
	cs := ChangeSet{{Kind: KindBucket, Key: name, Delete: true}}
	if b.lifecycle != nil {
		cs = append(cs, Change{Kind: KindBucket, Key: lifecycleKey(name), Delete: true})
	}
	for _, id := range sortedKeys(b.uploads) {
		u := b.uploads[id]
		cs = append(cs, Change{Kind: KindUpload, Key: name + "/" + id, Delete: true})
		for _, n := range u.partNumbers() {
			cs = append(cs, Change{Kind: KindBody, Key: partRef(name, id, n), Delete: true})
		}
	}
	if err := s.storage.Commit(cs); err != nil {
		return storageError(err)
	}
	delete(s.buckets, name)
	return nil
}

// ListBuckets lists the buckets by name.
func (s *Store) ListBuckets() []BucketInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]BucketInfo, 0, len(s.buckets))
	for _, name := range sortedKeys(s.buckets) {
		out = append(out, s.buckets[name].info())
	}
	return out
}

// HeadBucket describes the named bucket, or fails with NoSuchBucket.
func (s *Store) HeadBucket(name string) (BucketInfo, error) {
	var info BucketInfo
	err := s.view(name, func(b *bucketState) error {
		info = b.info()
		return nil
	})
	return info, err
}

func (b *bucketState) info() BucketInfo {
	return BucketInfo{Name: b.meta.Name, CreatedAt: b.meta.CreatedAt, Versioning: b.meta.Versioning}
}

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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
