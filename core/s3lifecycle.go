package core

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// S3's lifecycle: a bucket's stored configuration, executed as S3 executes
// it [ref §5], beside the chapter's rules (lifecycle.go) and never mixed
// with them. Its days end at midnight UTC of the clock's time (the origin
// plus the clock), and it runs once a day: every midnight the clock passes
// runs every bucket's configuration, one commit a bucket.

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

// Origin is the time (seconds since the Unix epoch) of the manual clock's
// 0, or 0 for a wall clock, whose readings are those times themselves.
func (s *Store) Origin() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.origin
}

// A clock shows times in the years 1 to 9999: from yearOne up to, but not
// including, yearTenThousand (seconds since the Unix epoch).
const (
	yearOne         = -62135596800 // 0001-01-01T00:00:00Z
	yearTenThousand = 253402300800 // 10000-01-01T00:00:00Z
)

// inYears reports whether t (seconds since the Unix epoch) is in the years
// 1 to 9999; NaN is not.
func inYears(t float64) bool { return t >= yearOne && t < yearTenThousand }

// LifecycleRun is what one daily run of a bucket's stored lifecycle
// configuration did, and when (the clock at its midnight).
type LifecycleRun struct {
	Bucket  string
	At      float64
	Actions []LifecycleAction
}

// SetClock sets a manual clock to now seconds and persists it. Moving it
// forward runs S3's lifecycle at every midnight UTC it passes, in order:
// the runs that did something are returned. Each run of a bucket that does
// something is one commit, which also records the clock at its midnight.
// When a commit fails, SetClock returns the runs committed before it with
// the error, and the clock goes back to what the storage holds: the
// midnight of the last run committed, or where it was. Moving the clock
// back runs nothing. SetClock fails with InvalidRequest when the store was
// not opened with ManualClock, and with InvalidArgument for a time that is
// not in the years 1 to 9999.
func (s *Store) SetClock(now float64) ([]LifecycleRun, error) {
	if !s.manual {
		return nil, newError(InvalidRequest, "the store's clock is not manual")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if !inYears(s.origin + now) {
		return nil, errInvalidArgument("now", fmt.Sprint(now), "the clock must show a time in the years 1 to 9999")
	}
	// The clock and the last run as the storage holds them.
	saved, savedRun := s.manualNow, s.lastRun
	var runs []LifecycleRun
	for m := midnightBefore(s.origin+s.manualNow) + SecondsPerDay; m <= s.origin+now; m += SecondsPerDay {
		done, err := s.runAll(m - s.origin)
		runs = append(runs, done...)
		if len(done) > 0 {
			saved, savedRun = s.manualNow, s.lastRun
		}
		if err != nil {
			s.manualNow, s.lastRun = saved, savedRun
			return runs, err
		}
	}
	s.manualNow = now
	if err := s.storage.Commit(ChangeSet{s.metaChange()}); err != nil {
		s.manualNow, s.lastRun = saved, savedRun
		return runs, storageError(err)
	}
	return runs, nil
}

// runAll runs every bucket's configuration at the midnight now (seconds of
// the store's clock): the daily run. It sets the clock and the last run to
// that midnight, and each bucket's run that does something commits them
// with its changes. It stops at the first commit that fails; the caller
// puts the clock back. It needs the lock.
func (s *Store) runAll(now float64) ([]LifecycleRun, error) {
	if s.manual {
		s.manualNow = now
	}
	s.lastRun = midnightBefore(s.origin + now)
	var runs []LifecycleRun
	for _, name := range sortedKeys(s.buckets) {
		b := s.buckets[name]
		if b.lifecycle == nil {
			continue
		}
		actions, err := s.runLifecycle(b, now, ChangeSet{s.metaChange()})
		if err != nil {
			return runs, err
		}
		if len(actions) > 0 {
			runs = append(runs, LifecycleRun{Bucket: name, At: now, Actions: actions})
		}
	}
	return runs, nil
}

// RunDueLifecycles runs every bucket's configuration at each midnight UTC
// that has passed since the last daily run, in order, each at its
// midnight, as moving a manual clock does: what a server on the wall clock
// calls after each midnight, and once when it starts, to catch up the days
// it was stopped. A store that has never run starts with the last
// midnight. The midnight of the last run is kept with the store; when a
// commit fails, the runs stop there, and the buckets not run yet run at
// the next call.
func (s *Store) RunDueLifecycles() ([]LifecycleRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	now, err := s.sampleClock()
	if err != nil {
		return nil, err
	}
	last := midnightBefore(s.origin + now)
	first := s.lastRun + SecondsPerDay
	if s.lastRun == 0 {
		first = last
	}
	committed := s.lastRun // the midnight the storage holds
	var runs []LifecycleRun
	for m := first; m <= last; m += SecondsPerDay {
		done, err := s.runAll(m - s.origin)
		runs = append(runs, done...)
		if len(done) > 0 {
			committed = s.lastRun
		}
		if err != nil {
			s.lastRun = committed
			return runs, err
		}
	}
	if s.lastRun != committed {
		// The last runs did nothing, so none recorded their midnight.
		if err := s.storage.Commit(ChangeSet{s.metaChange()}); err != nil {
			s.lastRun = committed
			return runs, storageError(err)
		}
	}
	return runs, nil
}

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
		var targets []Entry
		evaluateLifecycle(b.lifecycle, b.records, b.sortedKeys(), b.openUploads(), t.meta.Versioning, s.origin, now, func(a LifecycleAction, e Entry) {
			actions, targets = append(actions, a), append(targets, e)
		})
		for i, a := range actions {
			t.applyLifecycle(a, targets[i])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return actions, nil
}

// applyLifecycle applies one action of S3's lifecycle to the entry it
// selected, which must still be where it was [ref §5.6].
func (t *tx) applyLifecycle(a LifecycleAction, target Entry) {
	if a.Kind == AbortMultipartUpload {
		if u := t.upload(a.UploadID); u != nil && u.Completed == nil {
			for _, p := range u.Parts {
				t.dropBody(partRef(t.meta.Name, u.ID, p.Number))
			}
			t.setUpload(u.ID, nil)
		}
		return
	}
	r := t.record(a.Key)
	if r == nil {
		return
	}
	at := slices.Index(r.Versions, target)
	switch {
	case at < 0:
	case a.Kind == ExpireCurrent && at == 0:
		t.deleteCurrent(a.Key)
	case a.Kind == ExpireNoncurrent && at > 0, a.Kind == ExpireDeleteMarker:
		t.removeAt(t.edit(a.Key), at)
	case a.Kind == Transition || a.Kind == TransitionNoncurrent:
		moved := target.(*Version).clone()
		moved.Meta.StorageClass = a.StorageClass
		t.replace(a.Key, target.(*Version), moved)
	}
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
