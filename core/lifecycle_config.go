package core

import (
	"fmt"
	"slices"
)

// MaxLifecycleRules is the most rules one configuration may hold.
const MaxLifecycleRules = 1000

// SecondsPerDay is the length of a lifecycle day.
const SecondsPerDay = 86400

// LifecycleConfiguration is a bucket's stored S3 lifecycle configuration,
// executed with S3's semantics (s3lifecycle.go). It has the shape of S3's:
// a field is nil or empty when the configuration does not give it, so that
// it reads back as it was written.
type LifecycleConfiguration struct {
	Rules []LifecycleRule
}

// LifecycleRule is one rule. It selects objects by its Prefix (the old,
// legacy form) or its Filter, never both, and has at least one action.
type LifecycleRule struct {
	ID      string
	Enabled bool // Status Enabled; false is Disabled
	Prefix  *string
	Filter  *LifecycleFilter

	Expiration                     *LifecycleExpiration
	NoncurrentVersionExpiration    *NoncurrentVersionExpiration
	AbortIncompleteMultipartUpload *AbortIncompleteMultipartUpload
	Transitions                    []LifecycleTransition
	NoncurrentVersionTransitions   []NoncurrentVersionTransition
}

// LifecycleFilter selects objects by one predicate, or by several in And.
// An empty filter selects every object.
type LifecycleFilter struct {
	Prefix                *string
	Tag                   *Tag
	ObjectSizeGreaterThan *int64
	ObjectSizeLessThan    *int64
	And                   *LifecycleAnd
}

// LifecycleAnd is two or more predicates that must all hold.
type LifecycleAnd struct {
	Prefix                *string
	Tags                  []Tag
	ObjectSizeGreaterThan *int64
	ObjectSizeLessThan    *int64
}

// LifecycleExpiration expires current versions Days after their creation
// or from Date on, or (ExpiredObjectDeleteMarker) removes delete markers
// left alone: exactly one of the three.
type LifecycleExpiration struct {
	Days                      *int
	Date                      *float64 // seconds since the Unix epoch, at a midnight UTC
	ExpiredObjectDeleteMarker *bool
}

// NoncurrentVersionExpiration deletes a noncurrent version NoncurrentDays
// after it became noncurrent, keeping the NewerNoncurrentVersions newest.
type NoncurrentVersionExpiration struct {
	NoncurrentDays          *int
	NewerNoncurrentVersions *int
}

// AbortIncompleteMultipartUpload aborts an upload still in progress
// DaysAfterInitiation after it was started.
type AbortIncompleteMultipartUpload struct {
	DaysAfterInitiation int
}

// LifecycleTransition moves current versions to StorageClass Days after
// their creation or from Date on.
type LifecycleTransition struct {
	Days         *int
	Date         *float64
	StorageClass string
}

// NoncurrentVersionTransition moves a noncurrent version to StorageClass
// NoncurrentDays after it became noncurrent, keeping the
// NewerNoncurrentVersions newest where they are.
type NoncurrentVersionTransition struct {
	NoncurrentDays          int
	StorageClass            string
	NewerNoncurrentVersions *int
}

// prefix is the key prefix the rule selects by, "" for none.
func (r *LifecycleRule) prefix() string {
	switch {
	case r.Prefix != nil:
		return *r.Prefix
	case r.Filter == nil:
		return ""
	case r.Filter.Prefix != nil:
		return *r.Filter.Prefix
	case r.Filter.And != nil && r.Filter.And.Prefix != nil:
		return *r.Filter.And.Prefix
	}
	return ""
}

// clone is a copy of c that shares nothing with it.
func (c LifecycleConfiguration) clone() LifecycleConfiguration {
	out := LifecycleConfiguration{Rules: make([]LifecycleRule, len(c.Rules))}
	for i, r := range c.Rules {
		r.Prefix = clonePtr(r.Prefix)
		if f := r.Filter; f != nil {
			g := *f
			g.Prefix, g.Tag = clonePtr(f.Prefix), clonePtr(f.Tag)
			g.ObjectSizeGreaterThan, g.ObjectSizeLessThan = clonePtr(f.ObjectSizeGreaterThan), clonePtr(f.ObjectSizeLessThan)
			if a := f.And; a != nil {
				b := *a
				b.Prefix, b.Tags = clonePtr(a.Prefix), slices.Clone(a.Tags)
				b.ObjectSizeGreaterThan, b.ObjectSizeLessThan = clonePtr(a.ObjectSizeGreaterThan), clonePtr(a.ObjectSizeLessThan)
				g.And = &b
			}
			r.Filter = &g
		}
		if e := r.Expiration; e != nil {
			r.Expiration = &LifecycleExpiration{Days: clonePtr(e.Days), Date: clonePtr(e.Date), ExpiredObjectDeleteMarker: clonePtr(e.ExpiredObjectDeleteMarker)}
		}
		if n := r.NoncurrentVersionExpiration; n != nil {
			r.NoncurrentVersionExpiration = &NoncurrentVersionExpiration{NoncurrentDays: clonePtr(n.NoncurrentDays), NewerNoncurrentVersions: clonePtr(n.NewerNoncurrentVersions)}
		}
		r.AbortIncompleteMultipartUpload = clonePtr(r.AbortIncompleteMultipartUpload)
		r.Transitions = slices.Clone(r.Transitions)
		for j, t := range r.Transitions {
			r.Transitions[j].Days, r.Transitions[j].Date = clonePtr(t.Days), clonePtr(t.Date)
		}
		r.NoncurrentVersionTransitions = slices.Clone(r.NoncurrentVersionTransitions)
		for j, t := range r.NoncurrentVersionTransitions {
			r.NoncurrentVersionTransitions[j].NewerNoncurrentVersions = clonePtr(t.NewerNoncurrentVersions)
		}
		out.Rules[i] = r
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// PutBucketLifecycle validates cfg and stores it on the bucket, replacing
// any earlier configuration. Rules without an ID get "rule-N", the first N
// no other rule has.
func (s *Store) PutBucketLifecycle(bucket string, cfg LifecycleConfiguration) error {
	return s.update(bucket, func(t *tx) error {
		if err := cfg.Validate(); err != nil {
			return err
		}
		stored := cfg.clone()
		used := make(map[string]bool)
		for _, r := range stored.Rules {
			used[r.ID] = true
		}
		n := 0
		for i := range stored.Rules {
			for stored.Rules[i].ID == "" {
				n++
				if id := fmt.Sprintf("rule-%d", n); !used[id] {
					stored.Rules[i].ID, used[id] = id, true
				}
			}
		}
		t.lifecycle, t.lcChanged = &stored, true
		return nil
	})
}

// BucketLifecycle is the bucket's stored configuration, or
// NoSuchLifecycleConfiguration.
func (s *Store) BucketLifecycle(bucket string) (LifecycleConfiguration, error) {
	var cfg LifecycleConfiguration
	err := s.view(bucket, func(b *bucketState) error {
		if b.lifecycle == nil {
			e := newError(NoSuchLifecycleConfiguration, "")
			e.BucketName = bucket
			return e
		}
		cfg = b.lifecycle.clone()
		return nil
	})
	return cfg, err
}

// DeleteBucketLifecycle removes the bucket's configuration; removing none is
// no error.
func (s *Store) DeleteBucketLifecycle(bucket string) error {
	return s.update(bucket, func(t *tx) error {
		if t.lifecycle != nil {
			t.lifecycle, t.lcChanged = nil, true
		}
		return nil
	})
}
