package core

import (
	"fmt"
	"math"
	"slices"
	"strings"
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

// ActionKind is what a lifecycle action does.
type ActionKind string

// The two lifecycle action kinds.
const (
	// ExpireCurrent deletes a key's current data version the way DELETE
	// without a version ID does: a marker in versioned buckets.
	ExpireCurrent ActionKind = "expire_current"
	// ExpireNoncurrent removes one noncurrent data version by its ID.
	ExpireNoncurrent ActionKind = "expire_noncurrent"
)

// LifecycleAction is one decision of lifecycle evaluation.
type LifecycleAction struct {
	RuleID    string
	Key       string
	VersionID string
	Kind      ActionKind
}

// selection is an action together with the entry it targets, so that the
// tick can tell whether the target is still the same entry when it applies it.
type selection struct {
	LifecycleAction
	entry Entry
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
func EvaluateExpiration(records []*ObjectRecord, rules []ExpirationRule, now float64) ([]LifecycleAction, error) {
	sel, err := evaluate(records, rules, now)
	if err != nil {
		return nil, err
	}
	out := make([]LifecycleAction, len(sel))
	for i, s := range sel {
		out[i] = s.LifecycleAction
	}
	return out, nil
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

func evaluate(records []*ObjectRecord, rules []ExpirationRule, now float64) ([]selection, error) {
	if err := ValidateRules(rules); err != nil {
		return nil, err
	}
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return nil, errInvalidArgument("now", fmt.Sprint(now), "now must be a finite number of seconds")
	}
	if !slices.IsSortedFunc(records, byKey) {
		records = slices.Clone(records)
		slices.SortStableFunc(records, byKey)
	}
	var out []selection
	for _, r := range records {
		if r == nil || len(r.Versions) == 0 {
			continue
		}
		first := len(out)
		for ri := range rules {
			rule := &rules[ri]
			if !strings.HasPrefix(r.Key, rule.Prefix) {
				continue
			}
			// Only a later rule can repeat an earlier one's selection, and
			// only among this key's selections.
			if v, ok := r.Versions[0].(*Version); ok && oldEnough(rule.ExpireCurrentAfter, v.CreatedAt, now) &&
				(ri == 0 || !picked(out[first:], v.VersionID, ExpireCurrent)) {
				out = append(out, selection{LifecycleAction{rule.ID, r.Key, v.VersionID, ExpireCurrent}, v})
			}
			if rule.ExpireNoncurrentAfter == nil {
				continue
			}
			for _, e := range r.Versions[1:] {
				if v, ok := e.(*Version); ok && oldEnough(rule.ExpireNoncurrentAfter, v.CreatedAt, now) &&
					(ri == 0 || !picked(out[first:], v.VersionID, ExpireNoncurrent)) {
					out = append(out, selection{LifecycleAction{rule.ID, r.Key, v.VersionID, ExpireNoncurrent}, v})
				}
			}
		}
	}
	return out, nil
}

// picked reports whether sel already holds the same version and kind.
func picked(sel []selection, versionID string, kind ActionKind) bool {
	for _, s := range sel {
		if s.VersionID == versionID && s.Kind == kind {
			return true
		}
	}
	return false
}

func byKey(a, b *ObjectRecord) int {
	return strings.Compare(recordKey(a), recordKey(b))
}

func recordKey(r *ObjectRecord) string {
	if r == nil {
		return ""
	}
	return r.Key
}

// LifecycleTick is the applying phase of lifecycle. Under the store's lock it
// samples the clock once, evaluates rules on the bucket, and applies each
// action through the bucket's ordinary delete transitions: a noncurrent
// action deletes that version ID; a current action first confirms that the
// selected version is still current and then deletes without a version ID
// (a marker in enabled buckets, removal in unversioned ones, the null rules
// in suspended ones). An action whose target an earlier action of the same
// tick already removed is skipped, so it never deletes anything else. All
// changes are persisted in one commit; with no actions nothing is written.
// It returns the selected actions; on error, nothing changed.
func (s *Store) LifecycleTick(bucket string, rules []ExpirationRule) ([]LifecycleAction, error) {
	if err := ValidateRules(rules); err != nil {
		return nil, err
	}
	var actions []LifecycleAction
	err := s.update(bucket, func(t *tx) error {
		sel, err := evaluate(t.b.snapshot(), rules, t.now)
		if err != nil {
			return err
		}
		actions = make([]LifecycleAction, len(sel))
		for i, a := range sel {
			actions[i] = a.LifecycleAction
			r := t.record(a.Key)
			if r == nil {
				continue
			}
			switch a.Kind {
			case ExpireNoncurrent:
				if j := r.find(a.VersionID); j > 0 && r.Versions[j] == a.entry {
					t.removeAt(r, j)
				}
			case ExpireCurrent:
				if r.Versions[0] == a.entry {
					t.deleteCurrent(a.Key)
				}
			}
		}
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
	if err := ValidateRules(rules); err != nil {
		return nil, err
	}
	var records []*ObjectRecord
	var now float64
	err := s.view(bucket, func(b *bucketState) error {
		var err error
		if now, err = s.sampleClock(); err != nil {
			return err
		}
		records = b.snapshot()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return EvaluateExpiration(records, rules, now)
}
