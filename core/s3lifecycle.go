package core

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// S3's lifecycle: what a bucket's stored configuration does to each entry
// and upload at a given time, decided as S3 decides it [ref §5], beside the
// chapter's rules (lifecycle.go) and never mixed with them. Its days end at
// midnight UTC of the clock's time (the origin plus the clock). This file
// evaluates and changes nothing; s3lifecycle_run.go runs the evaluation on
// a bucket, and clock.go runs it once a day.

// The action kinds of S3's lifecycle beyond the chapter's two.
const (
	// ExpireDeleteMarker removes a delete marker left alone: the only
	// entry of its key.
	ExpireDeleteMarker ActionKind = iota + ExpireNoncurrent + 1
	// AbortMultipartUpload aborts an upload in progress.
	AbortMultipartUpload
	// Transition moves a key's current version to another storage class.
	Transition
	// TransitionNoncurrent moves a noncurrent version to another storage
	// class.
	TransitionNoncurrent
)

// midnightBefore is the midnight UTC at or before t (seconds since the
// Unix epoch).
func midnightBefore(t float64) float64 {
	return math.Floor(t/SecondsPerDay) * SecondsPerDay
}

// midnightAfter is when an action of days days is due for an object of
// time t: t plus days, rounded up to the next midnight UTC. An object made
// at a midnight still gets the extra day [ref §5.5]. (The sum is a float,
// so that no number of days wraps around.)
func midnightAfter(t float64, days int) float64 {
	return midnightBefore(t) + (float64(days)+1)*SecondsPerDay
}

// EvaluateLifecycle is S3's lifecycle as a pure function: the actions a
// run of c at now would take on the records and uploads of a bucket in the
// given versioning state, changing nothing. Times are seconds of a clock
// whose 0 is origin (seconds since the Unix epoch), as a store's are. An
// invalid configuration or versioning state, a time outside the years 1 to
// 9999, and records that are missing, empty or hold the same key twice are
// InvalidArgument.
func EvaluateLifecycle(c LifecycleConfiguration, records []*ObjectRecord, uploads []UploadInfo, versioning VersioningState, origin, now float64) ([]LifecycleAction, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if versioning != Unversioned && versioning != Enabled && versioning != Suspended {
		return nil, errInvalidArgument("versioning", string(versioning), "a bucket is unversioned, enabled or suspended, not %q", versioning)
	}
	if !inYears(origin + now) {
		return nil, errInvalidArgument("now", fmt.Sprint(now), "the time must be in the years 1 to 9999")
	}
	byKey := make(map[string]*ObjectRecord, len(records))
	for i, r := range records {
		if r == nil || len(r.Versions) == 0 {
			return nil, errInvalidArgument("records", fmt.Sprint(i), "record %d has no versions", i)
		}
		if byKey[r.Key] != nil {
			return nil, errInvalidArgument("records", r.Key, "two records hold key %q", r.Key)
		}
		byKey[r.Key] = r
	}
	open := make([]*upload, len(uploads))
	for i, u := range uploads {
		open[i] = &upload{ID: u.UploadID, Key: u.Key, Initiated: u.Initiated}
	}
	var actions []LifecycleAction
	evaluateLifecycle(&c, byKey, sortedKeys(byKey), open, versioning, origin, now, func(a LifecycleAction, _ Entry) { actions = append(actions, a) })
	return actions, nil
}

// candidate is an action a rule would take on an entry, and when.
type candidate struct {
	rule   int     // the rule's place in the configuration
	delete bool    // an expiration; else a transition
	marker bool    // an expiration that adds a delete marker, not a deletion for good
	class  string  // a transition's storage class
	due    float64 // seconds since the Unix epoch
}

// action is the action x takes on key's entry e, its current entry or not.
func (x candidate) action(c *LifecycleConfiguration, key string, e Entry, current bool) LifecycleAction {
	a := LifecycleAction{RuleID: c.Rules[x.rule].ID, Key: key, VersionID: e.ID()}
	switch {
	case x.delete && !current:
		a.Kind = ExpireNoncurrent
	case x.delete:
		a.Kind = ExpireCurrent
		if _, isMarker := e.(*DeleteMarker); isMarker {
			a.Kind = ExpireDeleteMarker
		}
	case current:
		a.Kind, a.StorageClass = Transition, x.class
	default:
		a.Kind, a.StorageClass = TransitionNoncurrent, x.class
	}
	return a
}

// rank orders the kinds of action [ref §5.7]: a deletion for good wins
// over a transition, and a transition over an expiration that adds a
// delete marker.
func (x candidate) rank() int {
	switch {
	case x.delete && !x.marker:
		return 2
	case !x.delete:
		return 1
	}
	return 0
}

// better reports whether x wins over y [ref §5.7]: the higher rank; of two
// expirations the earlier due; of two transitions the class S3 prefers,
// then the earlier due; then the rule written first.
func (x candidate) better(y candidate) bool {
	switch {
	case x.rank() != y.rank():
		return x.rank() > y.rank()
	case !x.delete && x.class != y.class:
		return preference(x.class) > preference(y.class)
	case x.due != y.due:
		return x.due < y.due
	}
	return x.rule < y.rule
}

// evaluateLifecycle is the run of c at now (seconds after origin) over the
// records of keys, in order, then over the uploads, in a bucket in the
// given versioning state: for each key its current entry, then its
// noncurrent entries newest first. It calls pick with each action and the
// entry it selects.
func evaluateLifecycle(c *LifecycleConfiguration, records map[string]*ObjectRecord, keys []string, uploads []*upload, versioning VersioningState, origin, now float64, pick func(LifecycleAction, Entry)) {
	at := origin + now
	choose := func(key string, e Entry, cands []candidate, current bool) {
		var best *candidate
		for i := range cands {
			if cands[i].due <= at && (best == nil || cands[i].better(*best)) {
				best = &cands[i]
			}
		}
		if best != nil {
			pick(best.action(c, key, e, current), e)
		}
	}
	for _, key := range keys {
		r := records[key]
		cands := currentCandidates(c, key, r, origin, at)
		if expiryAddsMarker(versioning, r.Versions[0]) {
			addsMarkers(cands)
		}
		choose(key, r.Versions[0], cands, true)
		kept := 0 // noncurrent entries kept so far, newest first
		for i := 1; i < len(r.Versions); i++ {
			became := origin + r.Versions[i-1].Created() // when its successor made it noncurrent
			cands := noncurrentCandidates(c, key, r.Versions[i], became, kept)
			deleted := slices.ContainsFunc(cands, func(x candidate) bool { return x.delete && x.due <= at })
			choose(key, r.Versions[i], cands, false)
			if !deleted {
				kept++
			}
		}
	}
	for _, u := range uploads {
		var best *candidate
		for i, rule := range c.Rules {
			if a := rule.AbortIncompleteMultipartUpload; a != nil && rule.Enabled && strings.HasPrefix(u.Key, rule.prefix()) {
				x := candidate{rule: i, delete: true, due: midnightAfter(origin+u.Initiated, a.DaysAfterInitiation)}
				if best == nil || x.better(*best) {
					best = &x
				}
			}
		}
		if best != nil && best.due <= at {
			pick(LifecycleAction{RuleID: c.Rules[best.rule].ID, Key: u.Key, UploadID: u.ID, Kind: AbortMultipartUpload}, nil)
		}
	}
}

// currentCandidates are what the rules would do with a key's current
// entry: expire or move a data version; remove a delete marker that is the
// key's only entry, when a rule says ExpiredObjectDeleteMarker or its
// Days have passed since the marker was made [ref §5.6].
func currentCandidates(c *LifecycleConfiguration, key string, r *ObjectRecord, origin, at float64) []candidate {
	var out []candidate
	e := r.Versions[0]
	made := origin + e.Created()
	for i := range c.Rules {
		rule := &c.Rules[i]
		if !rule.selects(key, e) {
			continue
		}
		x := rule.Expiration
		if _, isMarker := e.(*DeleteMarker); isMarker {
			switch {
			case len(r.Versions) > 1 || x == nil:
			case x.ExpiredObjectDeleteMarker != nil && *x.ExpiredObjectDeleteMarker:
				out = append(out, candidate{rule: i, delete: true, due: math.Inf(-1)})
			case x.Days != nil:
				out = append(out, candidate{rule: i, delete: true, due: midnightAfter(made, *x.Days)})
			}
			continue
		}
		switch {
		case x != nil && x.Days != nil:
			out = append(out, candidate{rule: i, delete: true, due: midnightAfter(made, *x.Days)})
		case x != nil && x.Date != nil:
			out = append(out, candidate{rule: i, delete: true, due: *x.Date})
		}
		class := e.(*Version).Meta.StorageClass
		for _, t := range rule.Transitions {
			if coldness(t.StorageClass) <= coldness(class) {
				continue
			}
			due := math.Inf(1)
			if t.Days != nil {
				due = midnightAfter(made, *t.Days)
			} else if t.Date != nil {
				due = *t.Date
			}
			out = append(out, candidate{rule: i, class: t.StorageClass, due: due})
		}
	}
	return out
}

// expiryAddsMarker reports whether expiring current, a key's current entry,
// adds a delete marker and keeps the data [ref §5.6]: a data version in an
// enabled bucket, or one with a version ID in a suspended bucket. An
// unversioned bucket deletes the version for good, and so does a
// suspended one when it is the null version, which the null marker
// replaces.
func expiryAddsMarker(versioning VersioningState, current Entry) bool {
	v, isVersion := current.(*Version)
	return isVersion && (versioning == Enabled || versioning == Suspended && v.VersionID != NullVersionID)
}

// addsMarkers notes that the expirations among cands add a delete marker
// rather than delete for good.
func addsMarkers(cands []candidate) {
	for i := range cands {
		cands[i].marker = cands[i].delete
	}
}

// noncurrentCandidates are what the rules would do with a noncurrent
// entry that became noncurrent at became, with kept newer noncurrent
// entries staying: delete it (a marker too) or move it, once its days since
// it became noncurrent have passed and enough newer ones are kept [ref
// §5.5, NewerNoncurrentVersions].
func noncurrentCandidates(c *LifecycleConfiguration, key string, e Entry, became float64, kept int) []candidate {
	var out []candidate
	retained := func(newer *int) bool { return newer == nil || kept >= *newer }
	for i := range c.Rules {
		rule := &c.Rules[i]
		if !rule.selects(key, e) {
			continue
		}
		if n := rule.NoncurrentVersionExpiration; n != nil && retained(n.NewerNoncurrentVersions) {
			due := math.Inf(-1)
			if n.NoncurrentDays != nil {
				due = midnightAfter(became, *n.NoncurrentDays)
			}
			out = append(out, candidate{rule: i, delete: true, due: due})
		}
		v, ok := e.(*Version)
		if !ok {
			continue
		}
		for _, t := range rule.NoncurrentVersionTransitions {
			if coldness(t.StorageClass) > coldness(v.Meta.StorageClass) && retained(t.NewerNoncurrentVersions) {
				out = append(out, candidate{rule: i, class: t.StorageClass, due: midnightAfter(became, t.NoncurrentDays)})
			}
		}
	}
	return out
}

// selects reports whether an enabled rule applies to key's entry e: its
// prefix, its tags (every one, with its value; a delete marker has none,
// so a rule with tags never selects one) and its sizes (strictly; a
// delete marker has no size, which no size filter refuses) [ref §5.4].
func (r *LifecycleRule) selects(key string, e Entry) bool {
	if !r.Enabled || !strings.HasPrefix(key, r.prefix()) {
		return false
	}
	f := r.Filter
	if f == nil {
		return true
	}
	tags := f.Tags()
	gt, lt := f.ObjectSizeGreaterThan, f.ObjectSizeLessThan
	if a := f.And; a != nil {
		gt, lt = a.ObjectSizeGreaterThan, a.ObjectSizeLessThan
	}
	v, isVersion := e.(*Version)
	if !isVersion {
		return len(tags) == 0
	}
	for _, want := range tags {
		if !slices.Contains(v.Meta.Tags, want) {
			return false
		}
	}
	return (gt == nil || v.Size > *gt) && (lt == nil || v.Size < *lt)
}

// Tags are the tags the filter requires.
func (f *LifecycleFilter) Tags() []Tag {
	switch {
	case f == nil:
		return nil
	case f.Tag != nil:
		return []Tag{*f.Tag}
	case f.And != nil:
		return f.And.Tags
	}
	return nil
}

// Expiry is when S3's lifecycle will expire a key's current version, and
// by which rule: what x-amz-expiration says [ref §5.8].
type Expiry struct {
	Date   float64 // seconds since the Unix epoch
	RuleID string
}

// expiryOf is the expiry of key's current data version v under the
// bucket's configuration: the earliest Expiration (Days or Date) of the
// rules that select it, the first rule's on a tie; nil when none does.
func (b *bucketState) expiryOf(key string, v *Version, origin float64) *Expiry {
	if b.lifecycle == nil {
		return nil
	}
	var out *Expiry
	for i := range b.lifecycle.Rules {
		rule := &b.lifecycle.Rules[i]
		x := rule.Expiration
		if x == nil || !rule.selects(key, v) {
			continue
		}
		var due float64
		switch {
		case x.Days != nil:
			due = midnightAfter(origin+v.CreatedAt, *x.Days)
		case x.Date != nil:
			due = *x.Date
		default:
			continue
		}
		if out == nil || due < out.Date {
			out = &Expiry{Date: due, RuleID: rule.ID}
		}
	}
	return out
}

// abortOf is when S3's lifecycle will abort an upload of key started at
// initiated, and by which rule: what x-amz-abort-date says; nil when no
// rule aborts it.
func (b *bucketState) abortOf(key string, initiated, origin float64) *Expiry {
	if b.lifecycle == nil {
		return nil
	}
	var out *Expiry
	for _, rule := range b.lifecycle.Rules {
		if a := rule.AbortIncompleteMultipartUpload; a != nil && rule.Enabled && strings.HasPrefix(key, rule.prefix()) {
			if due := midnightAfter(origin+initiated, a.DaysAfterInitiation); out == nil || due < out.Date {
				out = &Expiry{Date: due, RuleID: rule.ID}
			}
		}
	}
	return out
}
