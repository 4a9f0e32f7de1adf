package model

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// S3's lifecycle: a bucket's stored configuration, run as S3 runs it [ref
// §5], beside the chapter's rules (lifecycle.go) and never mixed with
// them. Its times are absolute: the store's Origin plus its clock, in
// seconds since the Unix epoch, whose days end at midnight UTC.

// The action kinds of S3's lifecycle beyond the chapter's two [DESIGN:
// "named in the same style"].
const (
	ExpireDeleteMarker   = "expire_delete_marker"
	AbortMultipartUpload = "abort_multipart_upload"
	TransitionCurrent    = "transition"
	TransitionNoncurrent = "transition_noncurrent"
)

// day is a lifecycle day, in seconds.
const day = 86400

// midnightAfter is when an action of days days is due for something of
// absolute time t: "the UTC day that t falls in, plus d+1 days, at
// 00:00:00 UTC", that is t plus days rounded up to the next midnight, even
// from a midnight [ref §5.5].
func midnightAfter(t float64, days int) float64 {
	return math.Floor(t/day)*day + float64(days+1)*day
}

// Expiry is a date S3's lifecycle gives something, and the rule that gives
// it: what x-amz-expiration and x-amz-abort-date say [ref §5.8].
type Expiry struct {
	Date   float64 // seconds since the Unix epoch
	RuleID string
}

// covers reports whether rule r applies to entry e of key [ref §5.4]: the
// rule is enabled, the key starts with its prefix, the version carries
// every tag it names with the same value, and its size is strictly within
// its bounds. A delete marker has no tags, so a rule that names tags never
// covers one, and no size, so size bounds do not apply to it.
func (r LifecycleRule) covers(key string, e Entry) bool {
	if !r.Enabled || !strings.HasPrefix(key, r.prefix()) {
		return false
	}
	if e.DeleteMarker {
		return len(r.tags()) == 0
	}
	for _, want := range r.tags() {
		if !slices.Contains(e.Tags, want) {
			return false
		}
	}
	size := int64(len(e.Body))
	gt, lt := r.sizes()
	return (gt == nil || size > *gt) && (lt == nil || size < *lt)
}

// atOnce is the due time of an action that waits for no day: it is due
// whenever its entry qualifies, even on a clock moved back before the
// entry was made.
var atOnce = math.Inf(-1)

// candidate is an action one rule would take on one entry, and since
// when it is due.
type candidate struct {
	rule  int // the rule's place in the configuration
	kind  string
	class string // where a transition moves the version
	due   float64
}

// earliest is the candidate due first; of two due together, the rule
// written first [ref §5.7: "If two expirations overlap, the shorter one is
// honoured"; "With equal dates ... the first rule in document order"].
func earliest(cands []candidate) candidate {
	best := cands[0]
	for _, c := range cands[1:] {
		if c.due < best.due {
			best = c
		}
	}
	return best
}

// favoured is the transition S3 takes of several due: to the cheapest
// class, but Intelligent-Tiering before any class except GLACIER and
// DEEP_ARCHIVE; of two to the same class, the one due first, then the rule
// written first [ref §5.7: "If two transitions overlap, the cheaper class
// wins (Glacier beats Standard-IA)"; AWS UG lifecycle-conflicts: "S3
// Intelligent-Tiering is favored by S3 Lifecycle over any storage class,
// aside from the S3 Glacier and S3 Glacier Deep Archive storage classes"].
func favoured(cands []candidate) candidate {
	best := cands[0]
	for _, c := range cands[1:] {
		if favouredOver(c.class, best.class) || c.class == best.class && c.due < best.due {
			best = c
		}
	}
	return best
}

// favouredOver reports whether S3 moves an object to class a rather than
// to class b when both are due.
func favouredOver(a, b string) bool {
	archive := func(class string) bool { return class == "GLACIER" || class == "DEEP_ARCHIVE" }
	switch {
	case a == b:
		return false
	case a == "INTELLIGENT_TIERING":
		return !archive(b)
	case b == "INTELLIGENT_TIERING":
		return archive(a)
	}
	return cheapness(a) > cheapness(b)
}

// transitionDue is when a transition of Days days or on Date is due for a
// version made at made (absolute): Days as an expiration's [ref §5.5:
// "Expiration Days / Transition Days"], or the Date.
func transitionDue(days *int, date *float64, made float64) float64 {
	if date != nil {
		return *date
	}
	return midnightAfter(made, *days)
}

// runSelection is one action of a run and the entry it selects.
type runSelection struct {
	Action
	entry Entry
}

// evaluateS3 is one run of the bucket's configuration at absolute time at:
// for each key in order, its current entry, then its noncurrent entries
// newest first, then the uploads in progress in the order
// ListMultipartUploads lists them. Every entry and upload gets at most one
// action, the one S3's precedence picks among those due [ref §5.7]. A
// run looks once: a delete marker its actions leave alone, by removing
// the versions below it, is removed by a later run [ref §5.6: "usually on
// a later pass"].
func (s *Store) evaluateS3(b *Bucket, at float64) []runSelection {
	if b.Lifecycle == nil {
		return nil
	}
	var out []runSelection
	rules := b.Lifecycle.Rules
	pick := func(key string, e Entry, c candidate) {
		a := Action{RuleID: rules[c.rule].ID, Key: key, VersionID: e.VersionID, Kind: c.kind, StorageClass: c.class}
		out = append(out, runSelection{a, e})
	}
	for _, key := range sortedKeys(b.Stacks) {
		stack := b.Stacks[key]
		if c, ok := s.currentAction(b, rules, key, stack, at); ok {
			pick(key, stack[0], c)
		}
		// NewerNoncurrentVersions counts the noncurrent entries, delete
		// markers included, that this run keeps, newest first: a version
		// goes only when N newer noncurrent ones stay [ref §5.5: "keeps the
		// N newest noncurrent versions"; §6.3: the evaluator's counter of
		// versions "it has decided to keep"; MinIO counts markers].
		kept := 0
		for i := 1; i < len(stack); i++ {
			c, ok := s.noncurrentAction(rules, key, stack[i], stack[i-1], kept, at)
			if ok {
				pick(key, stack[i], c)
			}
			if !ok || c.kind != ExpireNoncurrent {
				kept++
			}
		}
	}
	for _, u := range b.openUploads() {
		if x := s.abortDate(b, u); x != nil && at >= x.Date {
			out = append(out, runSelection{Action: Action{RuleID: x.RuleID, Key: u.Key, Kind: AbortMultipartUpload, UploadID: u.ID}})
		}
	}
	return out
}

// currentAction is what a run does with a key's current entry [ref §5.5,
// §5.6], if anything.
//
// A data version is expired by Expiration Days or Date, or moved by a
// Transition to a cheaper class than it is in (S3 moves objects only down
// the classes). When both are due, a permanent deletion (an unversioned
// bucket, or a suspended bucket's null version, which the null marker
// replaces) beats the transition, and the transition beats an expiration
// that only adds a delete marker [ref §5.7: "Permanent deletion wins over
// transition. Transition wins over creating a DM"; S3 UG
// lifecycle-and-other-bucket-config: the rules hold when "an object can
// become eligible for multiple S3 Lifecycle actions on the same day"].
//
// A delete marker is acted on only when it is the key's only entry: a rule
// with ExpiredObjectDeleteMarker removes it at once, a rule with
// Expiration Days once the marker's own age passes them [ref §5.6].
func (s *Store) currentAction(b *Bucket, rules []LifecycleRule, key string, stack []Entry, at float64) (candidate, bool) {
	cur := stack[0]
	made := s.Origin + cur.CreatedAt
	var expire, move []candidate
	for i, r := range rules {
		if !r.covers(key, cur) {
			continue
		}
		if x := r.Expiration; x != nil {
			switch {
			case cur.DeleteMarker && len(stack) > 1:
				// "current is a DM and other versions exist: no action"
			case cur.DeleteMarker && x.ExpiredObjectDeleteMarker != nil && *x.ExpiredObjectDeleteMarker:
				expire = append(expire, candidate{rule: i, kind: ExpireDeleteMarker, due: atOnce}) // "right away"
			case cur.DeleteMarker && x.Days != nil:
				expire = append(expire, candidate{rule: i, kind: ExpireDeleteMarker, due: midnightAfter(made, *x.Days)})
			case !cur.DeleteMarker && x.Days != nil:
				expire = append(expire, candidate{rule: i, kind: ExpireCurrent, due: midnightAfter(made, *x.Days)})
			case !cur.DeleteMarker && x.Date != nil:
				expire = append(expire, candidate{rule: i, kind: ExpireCurrent, due: *x.Date})
			}
		}
		for _, t := range r.Transitions {
			if !cur.DeleteMarker && cheapness(t.StorageClass) > cheapness(cur.StorageClass) {
				move = append(move, candidate{rule: i, kind: TransitionCurrent, class: t.StorageClass, due: transitionDue(t.Days, t.Date, made)})
			}
		}
	}
	expire, move = dueBy(expire, at), dueBy(move, at)
	permanent := b.Versioning == Unversioned || b.Versioning == Suspended && cur.VersionID == NullVersionID
	switch {
	case len(expire) > 0 && (permanent || len(move) == 0):
		return earliest(expire), true
	case len(move) > 0:
		return favoured(move), true
	}
	return candidate{}, false
}

// noncurrentAction is what a run does with noncurrent entry e, whose
// successor (the next newer entry) is next, when kept newer noncurrent
// entries stay [ref §5.5, §5.6]. Its noncurrent age counts from when it
// became noncurrent: its successor's creation ("NoncurrentDays: counted
// from the moment the version became noncurrent"). NoncurrentVersion-
// Expiration deletes it, object or marker, for good; a
// NoncurrentVersionTransition moves a data version to a cheaper class.
// Each needs both its NewerNoncurrentVersions and its NoncurrentDays
// exceeded, where given ("both values must be exceeded"). A deletion
// beats a transition [ref §5.7: "Permanent deletion wins over
// transition"].
func (s *Store) noncurrentAction(rules []LifecycleRule, key string, e, next Entry, kept int, at float64) (candidate, bool) {
	became := s.Origin + next.CreatedAt
	retained := func(newer *int) bool { return newer != nil && kept < *newer }
	var expire, move []candidate
	for i, r := range rules {
		if !r.covers(key, e) {
			continue
		}
		if x := r.NoncurrentVersionExpiration; x != nil && !retained(x.NewerNoncurrentVersions) {
			due := atOnce // NewerNoncurrentVersions alone: as soon as enough newer ones stay
			if x.NoncurrentDays != nil {
				due = midnightAfter(became, *x.NoncurrentDays)
			}
			expire = append(expire, candidate{rule: i, kind: ExpireNoncurrent, due: due})
		}
		for _, t := range r.NoncurrentVersionTransitions {
			if !e.DeleteMarker && !retained(t.NewerNoncurrentVersions) && cheapness(t.StorageClass) > cheapness(e.StorageClass) {
				move = append(move, candidate{rule: i, kind: TransitionNoncurrent, class: t.StorageClass, due: midnightAfter(became, t.NoncurrentDays)})
			}
		}
	}
	expire, move = dueBy(expire, at), dueBy(move, at)
	switch {
	case len(expire) > 0:
		return earliest(expire), true
	case len(move) > 0:
		return favoured(move), true
	}
	return candidate{}, false
}

// dueBy are the candidates due at absolute time at: "treat an item as due
// when now >= due" [ref §5.5].
func dueBy(cands []candidate, at float64) []candidate {
	var out []candidate
	for _, c := range cands {
		if at >= c.due {
			out = append(out, c)
		}
	}
	return out
}

// openUploads are the bucket's uploads in progress in the order
// ListMultipartUploads lists them: by key, then by initiation, then by ID.
func (b *Bucket) openUploads() []*Upload {
	var out []*Upload
	for _, id := range sortedKeys(b.Uploads) {
		if u := b.Uploads[id]; u.Completed == nil {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out, func(x, y *Upload) int {
		if x.Key != y.Key {
			return strings.Compare(x.Key, y.Key)
		}
		return cmp.Compare(x.Initiated, y.Initiated)
	})
	return out
}

// abortDate is when S3's lifecycle aborts upload u, and by which rule: the
// earliest of the enabled rules with AbortIncompleteMultipartUpload whose
// prefix the upload's key starts with, DaysAfterInitiation after it
// started, rounded as other days are ("Rounding is not documented; using
// midnightAfter is a reasonable choice") [ref §5.4: "matches on the
// upload's key through the prefix"; §5.5]. Such a rule has no tag or size
// filter [ref §5.3].
func (s *Store) abortDate(b *Bucket, u *Upload) *Expiry {
	if b.Lifecycle == nil {
		return nil
	}
	var out *Expiry
	for _, r := range b.Lifecycle.Rules {
		a := r.AbortIncompleteMultipartUpload
		if a == nil || !r.Enabled || !strings.HasPrefix(u.Key, r.prefix()) {
			continue
		}
		if due := midnightAfter(s.Origin+u.Initiated, a.DaysAfterInitiation); out == nil || due < out.Date {
			out = &Expiry{Date: due, RuleID: r.ID}
		}
	}
	return out
}

// expiry is when S3's lifecycle will expire version v of key, the key's
// current version, and by which rule (x-amz-expiration): the earliest
// date among the enabled rules with Expiration Days or Date that cover
// it, the first rule of those on a tie; nil when none does [ref §5.8].
// It is what the rules say whatever the version's class, and it counts
// for versions made before the rule was.
func (s *Store) expiry(b *Bucket, key string, v Entry) *Expiry {
	if b.Lifecycle == nil {
		return nil
	}
	var out *Expiry
	for _, r := range b.Lifecycle.Rules {
		x := r.Expiration
		if x == nil || !r.covers(key, v) {
			continue
		}
		var due float64
		switch {
		case x.Days != nil:
			due = midnightAfter(s.Origin+v.CreatedAt, *x.Days)
		case x.Date != nil:
			due = *x.Date
		default:
			continue // ExpiredObjectDeleteMarker alone: no header
		}
		if out == nil || due < out.Date {
			out = &Expiry{Date: due, RuleID: r.ID}
		}
	}
	return out
}

// applyS3 applies a run's actions to bucket b in order, through the
// bucket's ordinary transitions [chapter: "Lifecycle does not bypass the
// bucket state machine"]: expire_current deletes without a version ID (a
// marker in a versioned bucket, stamped with the run's time) [ref §5.6];
// expire_noncurrent and expire_delete_marker remove that entry for good;
// a transition changes the version's storage class; an abort discards the
// upload. An action whose entry an earlier action of the run replaced (a
// suspended bucket's null marker replaces the key's null version) does
// nothing [DESIGN: "must not delete something else"].
func (s *Store) applyS3(b *Bucket, selected []runSelection) {
	for _, sel := range selected {
		if sel.Kind == AbortMultipartUpload {
			delete(b.Uploads, sel.UploadID)
			continue
		}
		i := b.find(sel.Key, sel.VersionID)
		if i < 0 || b.Stacks[sel.Key][i].serial != sel.entry.serial {
			continue
		}
		switch sel.Kind {
		case ExpireCurrent:
			s.deleteCurrent(b, sel.Key)
		case ExpireNoncurrent, ExpireDeleteMarker:
			b.remove(sel.Key, i)
		case TransitionCurrent, TransitionNoncurrent:
			stack := append([]Entry(nil), b.Stacks[sel.Key]...)
			stack[i].StorageClass = sel.StorageClass
			b.Stacks[sel.Key] = stack
		}
	}
}

// RunLifecycle runs the bucket's stored configuration now, as the daily
// run would at this instant, and answers what it did; a bucket without a
// configuration has nothing to run [DESIGN: "runs the stored S3
// configuration now, as the daily run would at this instant"].
func (s *Store) RunLifecycle(bucket string) ([]Action, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return nil, err
	}
	selected := s.evaluateS3(b, s.Origin+s.Now)
	s.applyS3(b, selected)
	return runActions(selected), nil
}

// PreviewLifecycle is what RunLifecycle would do now; it changes nothing.
func (s *Store) PreviewLifecycle(bucket string) ([]Action, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return nil, err
	}
	return runActions(s.evaluateS3(b, s.Origin+s.Now)), nil
}

func runActions(sel []runSelection) []Action {
	out := []Action{}
	for _, s := range sel {
		out = append(out, s.Action)
	}
	return out
}

// Run is what one daily run of a bucket's configuration did, and when:
// the clock at that midnight.
type Run struct {
	Bucket  string
	At      float64
	Actions []Action
}

// SetClock moves the manual clock to now, forward, backward or nowhere
// [DIFFERENCES: a manual clock may move back], within the years 1 to 9999
// of the absolute time. Moving forward runs every bucket's stored
// configuration at each midnight UTC the clock passes, after the time it
// showed and up to the new one included, in order, buckets by name; each
// run sees the clock at its midnight, so the markers it makes are stamped
// with it [DESIGN: "It runs once per midnight UTC of the absolute clock
// ... moving a manual clock forward runs every midnight it passes, in
// order, before the move returns"]. It answers the runs that did
// something.
func (s *Store) SetClock(now float64) ([]Run, error) {
	if at := s.Origin + now; math.IsNaN(at) || at < firstTime || at > lastTime {
		return nil, invalidArgument("the clock must show a time in the years 1 to 9999")
	}
	runs := []Run{}
	for m := math.Floor((s.Origin+s.Now)/day)*day + day; m <= s.Origin+now; m += day {
		s.Now = m - s.Origin
		for _, name := range sortedKeys(s.Buckets) {
			b := s.Buckets[name]
			if selected := s.evaluateS3(b, m); len(selected) > 0 {
				s.applyS3(b, selected)
				runs = append(runs, Run{Bucket: name, At: s.Now, Actions: runActions(selected)})
			}
		}
	}
	s.Now = now
	return runs, nil
}
