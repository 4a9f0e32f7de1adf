package core

import (
	"slices"
	"strings"
)

// A schedule says, for each version, what lifecycle will do to it next and
// when, if nothing else changes: what the page shows beside each version,
// under the chapter's rules and under S3's, to compare them.

// ScheduledAction is an action and the time it falls due, in clock
// seconds: the chapter's tick takes it at any time from then on, S3's
// daily run at the first midnight at or after it.
type ScheduledAction struct {
	LifecycleAction
	Due float64
}

// ExpirationSchedule is when the chapter's rules will expire each data
// version of the bucket: for a current version its creation plus the
// smallest ExpireCurrentAfter of the rules whose prefix its key starts
// with, for a noncurrent one its own creation plus the smallest
// ExpireNoncurrentAfter; the rule written first on a tie. Versions no rule
// expires are left out; the order is the evaluation's.
func (s *Store) ExpirationSchedule(bucket string, rules []ExpirationRule) ([]ScheduledAction, error) {
	if err := ValidateRules(rules); err != nil {
		return nil, err
	}
	var out []ScheduledAction
	err := s.view(bucket, func(b *bucketState) error {
		for _, key := range b.sortedKeys() {
			for i, e := range b.records[key].Versions {
				v, ok := e.(*Version)
				if !ok {
					continue
				}
				kind := ExpireCurrent
				if i > 0 {
					kind = ExpireNoncurrent
				}
				if next, ok := chapterDue(rules, key, v, kind); ok {
					out = append(out, next)
				}
			}
		}
		return nil
	})
	return out, err
}

// chapterDue is the earliest expiration of kind the rules give key's data
// version v.
func chapterDue(rules []ExpirationRule, key string, v *Version, kind ActionKind) (ScheduledAction, bool) {
	var next ScheduledAction
	found := false
	for _, rule := range rules {
		threshold := rule.ExpireCurrentAfter
		if kind == ExpireNoncurrent {
			threshold = rule.ExpireNoncurrentAfter
		}
		if threshold == nil || !strings.HasPrefix(key, rule.Prefix) {
			continue
		}
		if due := v.CreatedAt + *threshold; !found || due < next.Due {
			next = ScheduledAction{LifecycleAction{RuleID: rule.ID, Key: key, VersionID: v.VersionID, Kind: kind}, due}
			found = true
		}
	}
	return next, found
}

// LifecycleSchedule is what the bucket's stored S3 lifecycle configuration
// will do next to each entry and each upload in progress, and when: of
// what its rules would do, the action due first (S3's precedence between
// actions due together [ref §5.7]). An action with no day count of its own
// (ExpiredObjectDeleteMarker, NewerNoncurrentVersions alone) is due from
// the moment its entry qualified. With no configuration the schedule is
// empty; the order is the evaluation's.
func (s *Store) LifecycleSchedule(bucket string) ([]ScheduledAction, error) {
	var out []ScheduledAction
	err := s.view(bucket, func(b *bucketState) error {
		c := b.lifecycle
		if c == nil {
			return nil
		}
		now, err := s.sampleClock()
		if err != nil {
			return err
		}
		at := s.origin + now
		next := func(key string, e Entry, cands []candidate, current bool, qualified float64) {
			var first *candidate
			for i := range cands {
				if first == nil || cands[i].due < first.due || cands[i].due == first.due && cands[i].better(*first) {
					first = &cands[i]
				}
			}
			if first != nil {
				out = append(out, ScheduledAction{first.action(c, key, e, current), max(first.due, qualified) - s.origin})
			}
		}
		for _, key := range b.sortedKeys() {
			r := b.records[key]
			cands := currentCandidates(c, key, r, s.origin, at)
			if expiryAddsMarker(b.meta.Versioning, r.Versions[0]) {
				addsMarkers(cands)
			}
			next(key, r.Versions[0], cands, true, s.origin+r.Versions[0].Created())
			kept := 0
			for i := 1; i < len(r.Versions); i++ {
				became := s.origin + r.Versions[i-1].Created()
				cands := noncurrentCandidates(c, key, r.Versions[i], became, kept)
				if !slices.ContainsFunc(cands, func(x candidate) bool { return x.delete && x.due <= at }) {
					kept++
				}
				next(key, r.Versions[i], cands, false, became)
			}
		}
		for _, u := range b.openUploads() {
			if abort := b.abortOf(u.Key, u.Initiated, s.origin); abort != nil {
				a := LifecycleAction{RuleID: abort.RuleID, Key: u.Key, UploadID: u.ID, Kind: AbortMultipartUpload}
				out = append(out, ScheduledAction{a, abort.Date - s.origin})
			}
		}
		return nil
	})
	return out, err
}
