package core

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
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

// StorageClasses are the storage classes a transition may go to, warmest
// first: a transition only ever moves an object to a colder one.
var StorageClasses = []string{"STANDARD_IA", "INTELLIGENT_TIERING", "ONEZONE_IA", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"}

// coldness is the place of a storage class among STANDARD (0) and
// StorageClasses, or -1 for an unknown class.
func coldness(class string) int {
	if class == "" || class == "STANDARD" {
		return 0
	}
	if i := slices.Index(StorageClasses, class); i >= 0 {
		return i + 1
	}
	return -1
}

// Validate checks a configuration as S3 checks one, with S3's codes: a
// document of the wrong shape is MalformedXML, a value out of range
// InvalidArgument, a combination S3 forbids InvalidRequest [ref §5.3].
func (c LifecycleConfiguration) Validate() error {
	if len(c.Rules) == 0 || len(c.Rules) > MaxLifecycleRules {
		return errInvalidArgument("Rule", strconv.Itoa(len(c.Rules)), "a lifecycle configuration holds 1 to %d rules, not %d", MaxLifecycleRules, len(c.Rules))
	}
	ids := make(map[string]bool, len(c.Rules))
	for _, r := range c.Rules {
		if !r.validUTF8() {
			return newError(MalformedXML, "lifecycle rule %q: the configuration is not valid UTF-8 text", r.ID)
		}
		if utf8.RuneCountInString(r.ID) > 255 {
			return errInvalidArgument("ID", r.ID, "The ID of a lifecycle rule must not be longer than 255 characters")
		}
		if r.ID != "" && ids[r.ID] {
			return errInvalidArgument("ID", r.ID, "Rule ID must be unique. Found same ID for more than one rule")
		}
		ids[r.ID] = true
		if err := r.validate(); err != nil {
			return err
		}
	}
	return nil
}

func (r LifecycleRule) validate() error {
	malformed := func(why string) error { return newError(MalformedXML, "lifecycle rule %q: %s", r.ID, why) }
	switch {
	case r.Prefix != nil && r.Filter != nil:
		return malformed("a rule has a Prefix or a Filter, not both")
	case r.Prefix == nil && r.Filter == nil:
		return malformed("a rule needs a Filter (it may be empty) or a Prefix")
	}
	if err := r.Filter.validate(r.ID); err != nil {
		return err
	}
	if r.Expiration == nil && r.NoncurrentVersionExpiration == nil && r.AbortIncompleteMultipartUpload == nil &&
		len(r.Transitions) == 0 && len(r.NoncurrentVersionTransitions) == 0 {
		return errInvalidArgument("Rule", r.ID, "At least one action needs to be specified in a rule")
	}
	tags, sizes := r.Filter.hasTags(), r.Filter.hasSizes()
	if e := r.Expiration; e != nil {
		given := 0
		for _, set := range []bool{e.Days != nil, e.Date != nil, e.ExpiredObjectDeleteMarker != nil} {
			if set {
				given++
			}
		}
		switch {
		case given != 1:
			return malformed("an Expiration has one of Days, Date and ExpiredObjectDeleteMarker")
		case e.Days != nil && *e.Days <= 0:
			return errInvalidArgument("Days", strconv.Itoa(*e.Days), "'Days' for Expiration action must be a positive integer")
		case e.Date != nil && !validDate(*e.Date):
			return errInvalidArgument("Date", fmt.Sprint(*e.Date), "'Date' must be at midnight GMT")
		case e.ExpiredObjectDeleteMarker != nil && *e.ExpiredObjectDeleteMarker && tags:
			return newError(InvalidRequest, "ExpiredObjectDeleteMarker cannot be specified with Tags.")
		}
	}
	if n := r.NoncurrentVersionExpiration; n != nil {
		switch {
		case n.NoncurrentDays == nil && n.NewerNoncurrentVersions == nil:
			return malformed("a NoncurrentVersionExpiration has NoncurrentDays, NewerNoncurrentVersions or both")
		case n.NoncurrentDays != nil && *n.NoncurrentDays <= 0:
			return errInvalidArgument("NoncurrentDays", strconv.Itoa(*n.NoncurrentDays), "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer")
		}
		if err := checkNewer(r, n.NewerNoncurrentVersions); err != nil {
			return err
		}
	}
	if a := r.AbortIncompleteMultipartUpload; a != nil {
		switch {
		case a.DaysAfterInitiation <= 0:
			return errInvalidArgument("DaysAfterInitiation", strconv.Itoa(a.DaysAfterInitiation), "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer")
		case tags:
			return newError(InvalidRequest, "AbortIncompleteMultipartUpload cannot be specified with Tags.")
		case sizes:
			return newError(InvalidRequest, "AbortIncompleteMultipartUpload cannot be specified with Object Size.")
		}
	}
	for _, t := range r.Transitions {
		switch {
		case (t.Days == nil) == (t.Date == nil):
			return malformed("a Transition has Days or Date")
		case t.Days != nil && *t.Days < 0:
			return errInvalidArgument("Days", strconv.Itoa(*t.Days), "'Days' for Transition action must be a nonnegative integer")
		case t.Date != nil && !validDate(*t.Date):
			return errInvalidArgument("Date", fmt.Sprint(*t.Date), "'Date' must be at midnight GMT")
		}
		days := -1
		if t.Days != nil {
			days = *t.Days
		}
		if err := checkTransitionClass(t.StorageClass, days, "Days", "Transition"); err != nil {
			return err
		}
	}
	for _, t := range r.NoncurrentVersionTransitions {
		if t.NoncurrentDays < 0 {
			return errInvalidArgument("NoncurrentDays", strconv.Itoa(t.NoncurrentDays), "'NoncurrentDays' for NoncurrentVersionTransition action must be a nonnegative integer")
		}
		if err := checkTransitionClass(t.StorageClass, t.NoncurrentDays, "NoncurrentDays", "NoncurrentVersionTransition"); err != nil {
			return err
		}
		if err := checkNewer(r, t.NewerNoncurrentVersions); err != nil {
			return err
		}
	}
	return nil
}

// checkNewer checks a NewerNoncurrentVersions: 1 to 100, and only in a rule
// with a Filter.
func checkNewer(r LifecycleRule, newer *int) error {
	switch {
	case newer == nil:
		return nil
	case *newer < 1 || *newer > 100:
		return errInvalidArgument("NewerNoncurrentVersions", strconv.Itoa(*newer), "'NewerNoncurrentVersions' must be an integer from 1 to 100")
	case r.Prefix != nil:
		return newError(InvalidRequest, "NewerNoncurrentVersions cannot be specified with a rule's Prefix: use a Filter")
	}
	return nil
}

// checkTransitionClass checks a transition's storage class, and the 30 days
// an object must have spent where it was before S3 moves it to an
// infrequent-access class (days < 0: a transition on a Date).
func checkTransitionClass(class string, days int, field, action string) error {
	if coldness(class) <= 0 {
		return errInvalidArgument("StorageClass", class, "The storage class you specified in %s is not valid: use one of %v", action, StorageClasses)
	}
	if (class == "STANDARD_IA" || class == "ONEZONE_IA") && days >= 0 && days < 30 {
		return errInvalidArgument(field, strconv.Itoa(days), "'%s' in %s action must be greater than or equal to 30 for storageClass '%s'", field, action, class)
	}
	return nil
}

// validDate reports whether t is a lifecycle Date: a midnight UTC in the
// years 1 to 9999 [ref §5.3; DESIGN, "Clock"].
func validDate(t float64) bool {
	return inYears(t) && math.Mod(t, SecondsPerDay) == 0
}

// validUTF8 reports whether the rule's ID, prefixes and tags are UTF-8, as
// the XML and JSON it comes in and is stored as must be. (Its storage
// classes are checked against StorageClasses.)
func (r LifecycleRule) validUTF8() bool {
	text := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	texts := []string{r.ID, text(r.Prefix)}
	if f := r.Filter; f != nil {
		texts = append(texts, text(f.Prefix))
		if f.And != nil {
			texts = append(texts, text(f.And.Prefix))
		}
		for _, t := range f.Tags() {
			texts = append(texts, t.Key, t.Value)
		}
	}
	return !slices.ContainsFunc(texts, func(s string) bool { return !utf8.ValidString(s) })
}

// validate checks a filter's shape: at most one predicate outside And, two
// or more inside it, distinct tag keys, sizes that leave room.
func (f *LifecycleFilter) validate(rule string) error {
	if f == nil {
		return nil
	}
	malformed := func(why string) error { return newError(MalformedXML, "lifecycle rule %q: %s", rule, why) }
	given := 0
	for _, set := range []bool{f.Prefix != nil, f.Tag != nil, f.ObjectSizeGreaterThan != nil, f.ObjectSizeLessThan != nil, f.And != nil} {
		if set {
			given++
		}
	}
	if given > 1 {
		return malformed("a Filter has one predicate; combine several in And")
	}
	sizes := []*int64{f.ObjectSizeGreaterThan, f.ObjectSizeLessThan}
	if a := f.And; a != nil {
		n := len(a.Tags)
		for _, set := range []bool{a.Prefix != nil, a.ObjectSizeGreaterThan != nil, a.ObjectSizeLessThan != nil} {
			if set {
				n++
			}
		}
		if n < 2 {
			return malformed("an And has two or more predicates")
		}
		keys := map[string]bool{}
		for _, t := range a.Tags {
			if keys[t.Key] {
				return newError(InvalidRequest, "Duplicate Tag Keys are not allowed.")
			}
			keys[t.Key] = true
		}
		if gt, lt := a.ObjectSizeGreaterThan, a.ObjectSizeLessThan; gt != nil && lt != nil && *gt >= *lt {
			return errInvalidArgument("ObjectSizeLessThan", strconv.FormatInt(*lt, 10), "ObjectSizeGreaterThan must be less than ObjectSizeLessThan")
		}
		sizes = append(sizes, a.ObjectSizeGreaterThan, a.ObjectSizeLessThan)
	}
	for _, s := range sizes {
		if s != nil && *s < 0 {
			return errInvalidArgument("ObjectSize", strconv.FormatInt(*s, 10), "an object size must not be negative")
		}
	}
	return nil
}

func (f *LifecycleFilter) hasTags() bool {
	return f != nil && (f.Tag != nil || f.And != nil && len(f.And.Tags) > 0)
}

func (f *LifecycleFilter) hasSizes() bool {
	return f != nil && (f.ObjectSizeGreaterThan != nil || f.ObjectSizeLessThan != nil ||
		f.And != nil && (f.And.ObjectSizeGreaterThan != nil || f.And.ObjectSizeLessThan != nil))
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
