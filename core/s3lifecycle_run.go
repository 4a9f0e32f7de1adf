package core

import (
	"maps"
	"math"
	"slices"
	"strings"
)

// Running S3's lifecycle on a bucket: at a daily run (clock.go), or now,
// on request. A run evaluates the bucket's stored configuration
// (evaluateLifecycle, s3lifecycle.go) and applies each action it selects
// (lifecycle_apply.go) in one transaction.

// RunLifecycle runs the bucket's stored configuration now, as the daily
// run would at this instant, in one commit, and returns what it did.
func (s *Store) RunLifecycle(bucket string) ([]LifecycleAction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	b := s.buckets[bucket]
	if b == nil {
		return nil, errNoSuchBucket(bucket)
	}
	now, err := s.sampleClock()
	if err != nil {
		return nil, err
	}
	return s.runLifecycle(b, now, nil)
}

// PreviewLifecycle is what RunLifecycle would do now; it changes nothing.
func (s *Store) PreviewLifecycle(bucket string) ([]LifecycleAction, error) {
	var actions []LifecycleAction
	err := s.view(bucket, func(b *bucketState) error {
		now, err := s.sampleClock()
		if err != nil {
			return err
		}
		if b.lifecycle != nil {
			evaluateLifecycle(b.lifecycle, b.records, b.sortedKeys(), b.openUploads(), b.meta.Versioning, s.origin, now, func(a LifecycleAction, _ Entry) {
				actions = append(actions, a)
			})
		}
		return nil
	})
	return actions, err
}

// runLifecycle evaluates the bucket's configuration at now and applies
// each action through the bucket's transitions, in one transaction
// committed with extra. It needs the lock.
func (s *Store) runLifecycle(b *bucketState, now float64, extra ChangeSet) ([]LifecycleAction, error) {
	if b.lifecycle == nil {
		return nil, nil
	}
	var actions []LifecycleAction
	err := s.transaction(b, now, extra, func(t *tx) error {
		actions = t.applyAll(func(pick func(LifecycleAction, Entry)) {
			evaluateLifecycle(b.lifecycle, b.records, b.sortedKeys(), b.openUploads(), t.meta.Versioning, s.origin, now, pick)
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return actions, nil
}

// sortedKeys is every key of the bucket in order.
func (b *bucketState) sortedKeys() []string {
	keys := make([]string, 0, b.index.len())
	b.index.ascend("", func(k string) bool {
		keys = append(keys, k)
		return true
	})
	return keys
}

// openUploads are the uploads in progress, by key, then by initiation.
func (b *bucketState) openUploads() []*upload {
	out := slices.Collect(maps.Values(b.uploads))
	slices.SortFunc(out, func(x, y *upload) int {
		if c := strings.Compare(x.Key, y.Key); c != 0 {
			return c
		}
		if x.Initiated != y.Initiated {
			return int(math.Copysign(1, x.Initiated-y.Initiated))
		}
		return strings.Compare(x.ID, y.ID)
	})
	return out
}
