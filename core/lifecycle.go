package core

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// ExpirationRule selects data versions to expire: those under Prefix that
// are at least ExpireCurrentAfter seconds old while current, or at least
// ExpireNoncurrentAfter seconds old while noncurrent. A nil threshold is
// unset, which is different from 0: zero means "old enough at once".
type ExpirationRule struct {
	ID                    string
	Prefix                string
	ExpireCurrentAfter    *float64
	ExpireNoncurrentAfter *float64
}

// Seconds returns a pointer to v, for ExpirationRule thresholds.
func Seconds(v float64) *float64 { return &v }

// Validate rejects a rule with no threshold, or with a threshold that is
// negative or not a finite number, with InvalidArgument.
func (r ExpirationRule) Validate() error {
	if r.ExpireCurrentAfter == nil && r.ExpireNoncurrentAfter == nil {
		return errInvalidArgument("rule", r.ID, "lifecycle rule %q has no threshold: set expireCurrentAfter, expireNoncurrentAfter or both", r.ID)
	}
	for _, th := range []struct {
		name string
		v    *float64
	}{{"expireCurrentAfter", r.ExpireCurrentAfter}, {"expireNoncurrentAfter", r.ExpireNoncurrentAfter}} {
		if th.v == nil {
			continue
		}
		if v := *th.v; v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return errInvalidArgument(th.name, fmt.Sprint(v), "lifecycle rule %q: %s must be a finite number of seconds >= 0, not %v", r.ID, th.name, v)
		}
	}
	return nil
}

// ActionKind is what a lifecycle action does. It is a small number, not a
// string, so that an action holds one pointer fewer: an evaluation over a
// large bucket makes hundreds of thousands of them. String gives the
// chapter's name, which is also what JSON and the JS API carry.
type ActionKind uint8

// The two lifecycle action kinds.
const (
	// ExpireCurrent deletes a key's current data version the way DELETE
	// without a version ID does: a marker in versioned buckets.
	ExpireCurrent ActionKind = iota + 1
	// ExpireNoncurrent removes one noncurrent data version by its ID.
	ExpireNoncurrent
)

// String is the chapter's name of the kind: "expire_current" or
// "expire_noncurrent".
func (k ActionKind) String() string {
	switch k {
	case ExpireCurrent:
		return "expire_current"
	case ExpireNoncurrent:
		return "expire_noncurrent"
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// LifecycleAction is one decision of lifecycle evaluation.
type LifecycleAction struct {
	RuleID    string
	Key       string
	VersionID string
	Kind      ActionKind
}

// oldEnough is the chapter's inclusive boundary: an entry created at
// createdAt is old enough at now iff now - createdAt >= threshold.
func oldEnough(threshold *float64, createdAt, now float64) bool {
	return threshold != nil && now-createdAt >= *threshold
}

// EvaluateExpiration is the pure phase of lifecycle: it returns the actions
// a tick at now would take on records and changes nothing.
//
// Keys are visited in ascending byte order (records are sorted first if they
// are not already); for each key the rules in the order given; for each rule
// the current entry, then the noncurrent entries newest first. A rule applies
// to keys that start with its prefix. Current expiration considers
// Versions[0] only when it is a data version, noncurrent expiration only the
// data versions in Versions[1:]; delete markers are never selected. The same
// (key, version, kind) is reported once, with the ID of the first rule that
// selected it. Invalid rules fail with InvalidArgument.
//
// Over many records (parallelMin or more under the rules' prefixes) the work
// is shared out, in runs of keys, across GOMAXPROCS goroutines; the result is
// the same as one pass's.
func EvaluateExpiration(records []*ObjectRecord, rules []ExpirationRule, now float64) ([]LifecycleAction, error) {
	if err := checkEvaluation(rules, now); err != nil {
		return nil, err
	}
	if !ready(records) {
		if !sortedByKey(records) {
			records = slices.Clone(records)
			sort.SliceStable(records, func(i, j int) bool { return recordKey(records[i]) < recordKey(records[j]) })
		}
		records = withScan(records)
	}
	ranges := candidates(len(records), func(i int) string { return recordKey(records[i]) }, rules)
	return evaluateParts(records, splitRanges(ranges, runtime.GOMAXPROCS(0)), rules, now), nil
}

// withScan returns records with each record carrying its entries' creation
// times and IDs, which evaluation reads. Records a store built carry them
// already; one built elsewhere is replaced, in a copy of the slice, by a
// record of the same entries that does, so the caller's records stay as
// they were.
func withScan(records []*ObjectRecord) []*ObjectRecord {
	copied := false
	for i, r := range records {
		if r == nil || r.scannable() {
			continue
		}
		if !copied {
			records, copied = slices.Clone(records), true
		}
		records[i] = newRecord(r.Key, r.Versions)
	}
	return records
}

// parallelMin is the number of candidate records from which an evaluation
// is split across the processors: below it, starting goroutines costs more
// than it saves.
const parallelMin = 8192

// splitRanges cuts the candidate ranges into at most procs parts of about
// the same number of records, in key order, each a list of ranges; one part
// when there are too few records to share out.
func splitRanges(ranges [][2]int, procs int) [][][2]int {
	total := 0
	for _, rg := range ranges {
		total += rg[1] - rg[0]
	}
	procs = min(procs, total/(parallelMin/2))
	if procs <= 1 {
		return [][][2]int{ranges}
	}
	size := (total + procs - 1) / procs
	parts := make([][][2]int, 0, procs)
	var part [][2]int
	room := size
	for _, rg := range ranges {
		for lo := rg[0]; lo < rg[1]; {
			hi := min(rg[1], lo+room)
			part = append(part, [2]int{lo, hi})
			room -= hi - lo
			lo = hi
			if room == 0 {
				parts = append(parts, part)
				part, room = nil, size
			}
		}
	}
	if part != nil {
		parts = append(parts, part)
	}
	return parts
}

// evaluateParts evaluates the records of each part, the parts at the same
// time, into one result in key order. A first pass counts each part's
// selections, so that the result is allocated once at its final size and
// every part appends into its own stretch of it, with no copy.
func evaluateParts(records []*ObjectRecord, parts [][][2]int, rules []ExpirationRule, now float64) []LifecycleAction {
	each := func(f func(i int)) {
		if len(parts) == 1 {
			f(0)
			return
		}
		var wg sync.WaitGroup
		for i := range parts {
			wg.Go(func() { f(i) })
		}
		wg.Wait()
	}
	counts := make([]int, len(parts))
	each(func(i int) {
		e := evaluation{rules: rules, now: now}
		for _, rg := range parts[i] {
			for _, r := range records[rg[0]:rg[1]] {
				e.count(r)
			}
		}
		counts[i] = e.n
	})
	offsets := make([]int, len(parts)+1)
	for i, n := range counts {
		offsets[i+1] = offsets[i] + n
	}
	actions := make([]LifecycleAction, offsets[len(parts)])
	found := make([][]LifecycleAction, len(parts))
	each(func(i int) {
		// counts[i] is an upper bound of what visit appends, so the
		// appends stay in this part's stretch.
		e := evaluation{rules: rules, now: now, actions: actions[offsets[i]:offsets[i]:offsets[i+1]]}
		for _, rg := range parts[i] {
			for _, r := range records[rg[0]:rg[1]] {
				e.visit(r)
			}
		}
		found[i] = e.actions
	})
	// A rule that repeats an earlier rule's selection leaves its part short
	// of its count: close the gaps.
	n := 0
	for i, f := range found {
		if n != offsets[i] {
			copy(actions[n:], f)
		}
		n += len(f)
	}
	clear(actions[n:])
	return actions[:n]
}

// ValidateRules validates every rule (see ExpirationRule.Validate).
func ValidateRules(rules []ExpirationRule) error {
	for _, r := range rules {
		if err := r.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// checkEvaluation rejects invalid rules and a time that is not finite.
func checkEvaluation(rules []ExpirationRule, now float64) error {
	if err := ValidateRules(rules); err != nil {
		return err
	}
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return errInvalidArgument("now", fmt.Sprint(now), "now must be a finite number of seconds")
	}
	return nil
}

// candidates is the index ranges [lo, hi) of the n sorted keys that some
// rule's prefix matches, ascending and disjoint: the keys with a prefix are
// one run of a sorted list, so evaluation never scans keys no rule applies to.
func candidates(n int, key func(int) string, rules []ExpirationRule) [][2]int {
	var ranges [][2]int
	for _, r := range rules {
		if r.Prefix == "" {
			return [][2]int{{0, n}}
		}
		lo := sort.Search(n, func(i int) bool { return key(i) >= r.Prefix })
		hi := lo + sort.Search(n-lo, func(i int) bool { return !strings.HasPrefix(key(lo+i), r.Prefix) })
		if lo < hi {
			ranges = append(ranges, [2]int{lo, hi})
		}
	}
	// One range per rule with a prefix: a few, sorted by package sort's
	// one implementation rather than a generic one of their own.
	sort.Slice(ranges, func(i, j int) bool { return ranges[i][0] < ranges[j][0] })
	merged := ranges[:0]
	for _, rg := range ranges {
		if last := len(merged) - 1; last >= 0 && rg[0] <= merged[last][1] {
			merged[last][1] = max(merged[last][1], rg[1])
			continue
		}
		merged = append(merged, rg)
	}
	return merged
}

// evaluation collects the actions of rules at now, record by record in
// ascending key order. With keepEntries set it also keeps the entry each action
// targets, so that a tick can tell whether the target is still that entry
// when it applies the action.
type evaluation struct {
	rules       []ExpirationRule
	now         float64
	n           int // the selections count found, repeats included
	actions     []LifecycleAction
	keepEntries bool
	entries     []Entry
}

// count adds to e.n the selections visit would make in r, counting an
// entry each rule selects again: an upper bound of what visit appends.
func (e *evaluation) count(r *ObjectRecord) {
	if r == nil || len(r.Versions) == 0 {
		return
	}
	for ri := range e.rules {
		rule := &e.rules[ri]
		if !strings.HasPrefix(r.Key, rule.Prefix) {
			continue
		}
		// A marker's NaN is never old enough.
		if oldEnough(rule.ExpireCurrentAfter, r.created[0], e.now) {
			e.n++
		}
		if th := rule.ExpireNoncurrentAfter; th != nil {
			for _, c := range r.created[1:] {
				if e.now-c >= *th {
					e.n++
				}
			}
		}
	}
}

func (e *evaluation) visit(r *ObjectRecord) {
	if r == nil || len(r.Versions) == 0 {
		return
	}
	first := len(e.actions)
	for ri := range e.rules {
		rule := &e.rules[ri]
		if !strings.HasPrefix(r.Key, rule.Prefix) {
			continue
		}
		// Only a later rule can repeat an earlier one's selection, and
		// only among this key's selections. A marker's NaN time is never
		// old enough (a comparison with NaN is false).
		if oldEnough(rule.ExpireCurrentAfter, r.created[0], e.now) {
			if ri == 0 || !picked(e.actions[first:], r.ids[0], ExpireCurrent) {
				e.add(rule.ID, r, 0, ExpireCurrent)
			}
		}
		if rule.ExpireNoncurrentAfter == nil {
			continue
		}
		th := *rule.ExpireNoncurrentAfter
		for i, c := range r.created[1:] {
			if e.now-c >= th {
				if ri == 0 || !picked(e.actions[first:], r.ids[1+i], ExpireNoncurrent) {
					e.add(rule.ID, r, 1+i, ExpireNoncurrent)
				}
			}
		}
	}
}

// add appends an action on r's i-th entry (see push), which is a data
// version: only a data version's time is a number that can be old enough.
func (e *evaluation) add(ruleID string, r *ObjectRecord, i int, kind ActionKind) {
	var a *LifecycleAction
	e.actions, a = push(e.actions)
	a.RuleID, a.Key, a.VersionID, a.Kind = ruleID, r.Key, r.ids[i], kind
	if e.keepEntries {
		e.entries = append(e.entries, r.Versions[i])
	}
}

// picked reports whether actions already holds the same version and kind.
func picked(actions []LifecycleAction, versionID string, kind ActionKind) bool {
	for _, a := range actions {
		if a.VersionID == versionID && a.Kind == kind {
			return true
		}
	}
	return false
}

// ready reports whether evaluation can take records as they are: in
// ascending key order, each carrying its entries' creation times and IDs,
// as a store's records do. It is the one pass over every record that the
// evaluation of a few keys makes (the rules' prefixes pick the rest out by
// binary search), so it checks both at once: one pass for each took 40 %
// of evaluating the 25,000 selections among 1M versions.
func ready(records []*ObjectRecord) bool {
	prev := ""
	for _, r := range records {
		key := ""
		if r != nil {
			if !r.scannable() {
				return false
			}
			key = r.Key
		}
		if key < prev {
			return false
		}
		prev = key
	}
	return true
}

// sortedByKey reports whether records are in ascending key order. It is a
// plain loop rather than slices.IsSortedFunc, whose call through a func
// value per pair is dear in wasm: over 100k records of 10 versions, 17–21
// ms there against 12–14 ms for this loop (natively 1.9 against 1.8 ms).
func sortedByKey(records []*ObjectRecord) bool {
	prev := ""
	for _, r := range records {
		key := recordKey(r)
		if key < prev {
			return false
		}
		prev = key
	}
	return true
}

func recordKey(r *ObjectRecord) string {
	if r == nil {
		return ""
	}
	return r.Key
}

// LifecycleTick is the applying phase of lifecycle. Under the store's lock it
// samples the clock once, evaluates rules on the bucket, and applies each
// action through the bucket's delete transitions: a key's noncurrent
// actions remove their versions together, as deletes of those version IDs
// would; a current action first confirms that the selected version is still
// current and then deletes without a version ID (a marker in enabled
// buckets, removal in unversioned ones, the null rules in suspended ones).
// An action whose target an earlier action of the same tick already removed
// is skipped, so it never deletes anything else. All changes are persisted
// in one commit; with no actions nothing is written. It returns the
// selected actions; on error, nothing changed.
func (s *Store) LifecycleTick(bucket string, rules []ExpirationRule) ([]LifecycleAction, error) {
	var actions []LifecycleAction
	err := s.update(bucket, func(t *tx) error {
		if err := checkEvaluation(rules, t.now); err != nil {
			return err
		}
		// The tick reads only the records under the rules' prefixes: its
		// cost grows with those and the actions it applies, never with a
		// copy of the bucket.
		records := t.b.under(rules)
		// A first pass counts the selections, so that the actions and
		// their entries are allocated once, not grown by doubling.
		e := evaluation{rules: rules, now: t.now, keepEntries: true}
		for _, r := range records {
			e.count(r)
		}
		e.actions = make([]LifecycleAction, 0, e.n)
		e.entries = make([]Entry, 0, e.n)
		for _, r := range records {
			e.visit(r)
		}
		actions = e.actions
		// Every action changes its key's record and drops at most one
		// body; actions come in key order.
		changed := 0
		for i, a := range actions {
			if i == 0 || a.Key != actions[i-1].Key {
				changed++
			}
		}
		t.records.reserve(changed)
		t.dropped = slices.Grow(t.dropped, len(actions))
		x := expiry{t: t}
		for lo := 0; lo < len(actions); {
			hi := lo + 1
			for hi < len(actions) && actions[hi].Key == actions[lo].Key {
				hi++
			}
			x.apply(actions[lo].Key, actions[lo:hi], e.entries[lo:hi])
			lo = hi
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return actions, nil
}

// expiry applies a tick's actions one key at a time, so that a key that
// loses many versions has its stack rebuilt once, not once per version.
type expiry struct {
	t       *tx
	targets []Entry // the key's noncurrent targets not yet removed
	scratch []bool  // removeNoncurrent's
}

// apply applies the actions on key, in order; targets are the entries they
// selected. A noncurrent action removes its target if it is still a
// noncurrent entry of the key; a current one deletes without a version ID
// if its target is still current. Noncurrent removals are gathered and
// made together before a current action and after the last action.
func (x *expiry) apply(key string, actions []LifecycleAction, targets []Entry) {
	for i, a := range actions {
		switch a.Kind {
		case ExpireNoncurrent:
			x.targets = append(x.targets, targets[i])
		case ExpireCurrent:
			x.flush(key)
			if r := x.t.record(key); r != nil && r.Versions[0] == targets[i] {
				x.t.deleteCurrent(key)
			}
		}
	}
	x.flush(key)
}

func (x *expiry) flush(key string) {
	if len(x.targets) > 0 {
		x.scratch = x.t.removeNoncurrent(key, x.targets, x.scratch)
		x.targets = x.targets[:0]
	}
}

// PreviewExpiration evaluates rules on the bucket at the clock's current
// time and changes nothing: the actions LifecycleTick would take now. Like
// a tick, it costs what the records under the rules' prefixes cost: under
// the lock it takes only those (in key order, from the sorted index), and
// evaluates them after.
func (s *Store) PreviewExpiration(bucket string, rules []ExpirationRule) ([]LifecycleAction, error) {
	var records []*ObjectRecord
	var now float64
	err := s.view(bucket, func(b *bucketState) error {
		if err := ValidateRules(rules); err != nil {
			return err
		}
		var err error
		if now, err = s.sampleClock(); err != nil {
			return err
		}
		records = b.under(rules)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return EvaluateExpiration(records, rules, now)
}
