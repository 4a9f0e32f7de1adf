package core

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ExpirationRule is the chapter's lifecycle rule: a stable ID, a key
// prefix, and thresholds in seconds for current and noncurrent data
// versions. A nil threshold is unset, which is different from 0: zero means
// "old enough at once".
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
		if v := th.v; v != nil && (*v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return errInvalidArgument(th.name, fmt.Sprint(*v), "lifecycle rule %q: %s must be a finite number of seconds >= 0, not %v", r.ID, th.name, *v)
		}
	}
	return nil
}

// ValidateRules validates every rule (see ExpirationRule.Validate). There
// may be MaxLifecycleRules of them at most, as in a stored configuration.
func ValidateRules(rules []ExpirationRule) error {
	if len(rules) > MaxLifecycleRules {
		return errInvalidArgument("rules", strconv.Itoa(len(rules)), "at most %d rules may be given at once, as in a stored configuration, not %d", MaxLifecycleRules, len(rules))
	}
	for _, r := range rules {
		if err := r.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// ActionKind is what a lifecycle action does.
type ActionKind uint8

// The chapter's two action kinds.
const (
	// ExpireCurrent deletes a key's current data version the way DELETE
	// without a version ID does: a marker in versioned buckets.
	ExpireCurrent ActionKind = iota + 1
	// ExpireNoncurrent removes one noncurrent data version by its ID.
	ExpireNoncurrent
)

// String is the name of the kind: the chapter's "expire_current" and
// "expire_noncurrent", and S3's lifecycle's "expire_delete_marker",
// "abort_multipart_upload", "transition" and "transition_noncurrent",
// which JSON and the JS API carry too.
func (k ActionKind) String() string {
	switch k {
	case ExpireCurrent:
		return "expire_current"
	case ExpireNoncurrent:
		return "expire_noncurrent"
	case ExpireDeleteMarker:
		return "expire_delete_marker"
	case AbortMultipartUpload:
		return "abort_multipart_upload"
	case Transition:
		return "transition"
	case TransitionNoncurrent:
		return "transition_noncurrent"
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// LifecycleAction is one decision of lifecycle evaluation.
type LifecycleAction struct {
	RuleID    string
	Key       string
	VersionID string
	Kind      ActionKind
	// UploadID is the upload an AbortMultipartUpload aborts, and
	// StorageClass where a transition moves the version.
	UploadID     string
	StorageClass string
}

// oldEnough is the chapter's inclusive boundary: an entry created at
// createdAt is old enough at now iff now - createdAt >= threshold.
func oldEnough(threshold *float64, createdAt, now float64) bool {
	return threshold != nil && now-createdAt >= *threshold
}

// EvaluateExpiration is the pure phase of lifecycle: it returns the actions
// a tick at now would take on records and changes nothing.
//
// Keys are visited in ascending byte order; for each key the rules in the
// order given, those whose prefix the key starts with; for each rule the
// current entry, then the noncurrent entries newest first. Current
// expiration considers Versions[0] only when it is a data version,
// noncurrent expiration only the data versions in Versions[1:]: delete
// markers are never selected. The same (key, version, kind) is selected
// once, with the ID of the first rule that selected it. Invalid rules, a
// time that is not finite, and records that are missing, empty or hold
// the same key twice are InvalidArgument.
func EvaluateExpiration(records []*ObjectRecord, rules []ExpirationRule, now float64) ([]LifecycleAction, error) {
	if err := checkEvaluation(rules, now); err != nil {
		return nil, err
	}
	sorted := slices.Clone(records)
	for i, r := range sorted {
		if r == nil || len(r.Versions) == 0 {
			return nil, errInvalidArgument("records", strconv.Itoa(i), "record %d has no versions", i)
		}
	}
	slices.SortStableFunc(sorted, func(a, b *ObjectRecord) int { return strings.Compare(a.Key, b.Key) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Key == sorted[i-1].Key {
			return nil, errInvalidArgument("records", sorted[i].Key, "two records hold key %q", sorted[i].Key)
		}
	}
	var actions []LifecycleAction
	evaluate(sorted, rules, now, func(a LifecycleAction, _ Entry) { actions = append(actions, a) })
	return actions, nil
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

// evaluate is the chapter's evaluate_expiration over records in key order:
// it calls pick with each action it selects and the entry the action
// selects, which a tick checks is still there before it applies it.
func evaluate(records []*ObjectRecord, rules []ExpirationRule, now float64, pick func(LifecycleAction, Entry)) {
	type decision struct {
		versionID string
		kind      ActionKind
	}
	var selected []decision // the key's selections so far
	for _, r := range records {
		selected = selected[:0]
		matched := 0 // rules that apply to the key
		choose := func(rule *ExpirationRule, e Entry, kind ActionKind) {
			// Only a later rule can select what an earlier one did: the
			// first rule's ID is reported, and the action once.
			d := decision{e.ID(), kind}
			if matched > 1 && slices.Contains(selected, d) {
				return
			}
			selected = append(selected, d)
			pick(LifecycleAction{RuleID: rule.ID, Key: r.Key, VersionID: d.versionID, Kind: kind}, e)
		}
		for i := range rules {
			rule := &rules[i]
			if !strings.HasPrefix(r.Key, rule.Prefix) {
				continue
			}
			matched++
			if v, ok := r.Versions[0].(*Version); ok && oldEnough(rule.ExpireCurrentAfter, v.CreatedAt, now) {
				choose(rule, v, ExpireCurrent)
			}
			for _, e := range r.Versions[1:] {
				if v, ok := e.(*Version); ok && oldEnough(rule.ExpireNoncurrentAfter, v.CreatedAt, now) {
					choose(rule, v, ExpireNoncurrent)
				}
			}
		}
	}
}

// LifecycleTick is the applying phase of lifecycle. Under the store's lock it
// samples the clock once, evaluates rules on the bucket, and applies each
// action through the bucket's delete transitions: a noncurrent action
// deletes that version by its ID; a current action first confirms that the
// selected version is still current and then deletes without a version ID
// (a marker in enabled buckets, removal in unversioned ones, the null rules
// in suspended ones). An action whose target an earlier action of the same
// tick already removed deletes nothing else. All changes are persisted in
// one commit; with no actions nothing is written. It returns the actions
// selected; on error, nothing changed.
func (s *Store) LifecycleTick(bucket string, rules []ExpirationRule) ([]LifecycleAction, error) {
	var actions []LifecycleAction
	err := s.update(bucket, func(t *tx) error {
		if err := checkEvaluation(rules, t.now); err != nil {
			return err
		}
		actions = t.applyAll(func(pick func(LifecycleAction, Entry)) {
			evaluate(t.b.under(rules), rules, t.now, pick)
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return actions, nil
}

// PreviewExpiration evaluates rules on the bucket at the clock's current
// time and changes nothing: the actions LifecycleTick would take now.
func (s *Store) PreviewExpiration(bucket string, rules []ExpirationRule) ([]LifecycleAction, error) {
	var actions []LifecycleAction
	err := s.view(bucket, func(b *bucketState) error {
		now, err := s.sampleClock()
		if err != nil {
			return err
		}
		if err := checkEvaluation(rules, now); err != nil {
			return err
		}
		evaluate(b.under(rules), rules, now, func(a LifecycleAction, _ Entry) { actions = append(actions, a) })
		return nil
	})
	return actions, err
}

// under is the bucket's records whose keys start with some rule's prefix,
// in key order: all that an evaluation of the rules reads, found through
// the key index without reading the others.
func (b *bucketState) under(rules []ExpirationRule) []*ObjectRecord {
	prefixes := make([]string, 0, len(rules))
	for _, r := range rules {
		prefixes = append(prefixes, r.Prefix)
	}
	slices.Sort(prefixes)
	var out []*ObjectRecord
	for i, p := range prefixes {
		// A prefix that starts with an earlier one adds no key.
		if i > 0 && strings.HasPrefix(p, prefixes[i-1]) {
			prefixes[i] = prefixes[i-1]
			continue
		}
		b.index.under(p, func(key string) bool {
			out = append(out, b.records[key])
			return true
		})
	}
	return out
}
