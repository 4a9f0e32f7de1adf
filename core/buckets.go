package core

import (
	"maps"
	"slices"
)

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
	if err := s.storage.Commit(ChangeSet{{Kind: KindBucket, Key: name, Value: itemJSON(m)}}); err != nil {
		return storageError(err)
	}
	s.buckets[name] = newBucketState(m)
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
	if b.tags != nil {
		cs = append(cs, Change{Kind: KindBucket, Key: taggingKey(name), Delete: true})
	}
	for _, id := range sortedKeys(b.uploads) {
		cs = append(cs, Change{Kind: KindUpload, Key: name + "/" + id, Delete: true})
		for _, p := range b.uploads[id].Parts {
			cs = append(cs, Change{Kind: KindBody, Key: partRef(name, id, p.Number), Delete: true})
		}
	}
	for _, id := range sortedKeys(b.completed) {
		cs = append(cs, Change{Kind: KindUpload, Key: name + "/" + id, Delete: true})
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

// MaxBucketTags is the most tags a bucket may have.
const MaxBucketTags = 50

// PutBucketTagging replaces the bucket's tags, durably. The tags follow
// the rules of object tags (ValidateTags) but their number: a bucket may
// have 50; more is BadRequest. An empty set removes the tags, as
// DeleteBucketTagging does.
func (s *Store) PutBucketTagging(bucket string, tags []Tag) error {
	tags = slices.Clone(tags)
	return s.update(bucket, func(t *tx) error {
		if len(tags) > MaxBucketTags {
			return newError(BadRequest, "Bucket tag count cannot be greater than %d", MaxBucketTags)
		}
		if err := checkTagSet(tags); err != nil {
			return err
		}
		if len(tags) == 0 {
			tags = nil
		}
		if tags != nil || t.tags != nil {
			t.tags, t.tagsChanged = tags, true
		}
		return nil
	})
}

// BucketTagging is the bucket's tags, in the order they were given, or
// NoSuchTagSet when it has none.
func (s *Store) BucketTagging(bucket string) ([]Tag, error) {
	var tags []Tag
	err := s.view(bucket, func(b *bucketState) error {
		if b.tags == nil {
			e := newError(NoSuchTagSet, "")
			e.BucketName = bucket
			return e
		}
		tags = slices.Clone(b.tags)
		return nil
	})
	return tags, err
}

// DeleteBucketTagging removes the bucket's tags; removing none is no
// error.
func (s *Store) DeleteBucketTagging(bucket string) error {
	return s.update(bucket, func(t *tx) error {
		if t.tags != nil {
			t.tags, t.tagsChanged = nil, true
		}
		return nil
	})
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
