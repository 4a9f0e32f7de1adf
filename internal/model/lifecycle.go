package model

import (
	"math"
	"strings"
)

// Rule is the chapter's ExpirationRule: a stable ID, a key prefix and
// optional thresholds in seconds for current and noncurrent data versions.
// A nil threshold is unset, which is not 0: zero means "old enough at
// once" [chapter: "ExpirationRule contains a stable rule ID, ..."].
type Rule struct {
	ID                    string
	Prefix                string
	ExpireCurrentAfter    *float64
	ExpireNoncurrentAfter *float64
}

// check rejects a rule with no threshold, and a negative one [chapter:
// "__post_init__ rejects a rule with no threshold and rejects negative
// ages"], and one that is not a finite number.
func (r Rule) check() error {
	if r.ExpireCurrentAfter == nil && r.ExpireNoncurrentAfter == nil {
		return invalidArgument("rule " + r.ID + " has no threshold")
	}
	for _, t := range []*float64{r.ExpireCurrentAfter, r.ExpireNoncurrentAfter} {
		if t != nil && (*t < 0 || math.IsNaN(*t) || math.IsInf(*t, 0)) {
			return invalidArgument("rule " + r.ID + " has a negative threshold")
		}
	}
	return nil
}

// oldEnough is the chapter's inclusive boundary [chapter: "return
// threshold is not None and now - created_at >= threshold"].
func oldEnough(threshold *float64, createdAt, now float64) bool {
	return threshold != nil && now-createdAt >= *threshold
}

// Action is one lifecycle decision: the chapter's expire_current or
// expire_noncurrent of a key's version and the first rule that selected
// it, or one of S3's lifecycle (s3lifecycle.go), which may name an upload
// or a storage class.
type Action struct {
	RuleID       string
	Key          string
	VersionID    string
	Kind         string
	UploadID     string `json:",omitempty"` // abort_multipart_upload
	StorageClass string `json:",omitempty"` // transition, transition_noncurrent
}

// The chapter's two action kinds.
const (
	ExpireCurrent    = "expire_current"
	ExpireNoncurrent = "expire_noncurrent"
)

// selection is an action and the entry it selected.
type selection struct {
	Action
	entry Entry
}

// evaluate is the chapter's evaluate_expiration on bucket b at now: keys
// in sorted order; for each key the rules in the order given, those whose
// prefix the key starts with; for each rule the current entry if it is a
// data version old enough for the current threshold, then the noncurrent
// data versions (versions[1:]) old enough for the noncurrent threshold,
// newest first. Delete markers are never selected. The same key, version
// and kind is selected once, with the first rule's ID [chapter: "A selected
// set deduplicates identical key/version/kind decisions ..."].
func evaluate(b *Bucket, rules []Rule, now float64) []selection {
	var out []selection
	for _, key := range sortedKeys(b.Stacks) {
		stack := b.Stacks[key]
		seen := map[Action]bool{}
		pick := func(rule Rule, e Entry, kind string) {
			a := Action{Key: key, VersionID: e.VersionID, Kind: kind}
			if seen[a] {
				return
			}
			seen[a] = true
			a.RuleID = rule.ID
			out = append(out, selection{a, e})
		}
		for _, rule := range rules {
			if !strings.HasPrefix(key, rule.Prefix) {
				continue
			}
			if cur := stack[0]; !cur.DeleteMarker && oldEnough(rule.ExpireCurrentAfter, cur.CreatedAt, now) {
				pick(rule, cur, ExpireCurrent)
			}
			for _, e := range stack[1:] {
				if !e.DeleteMarker && oldEnough(rule.ExpireNoncurrentAfter, e.CreatedAt, now) {
					pick(rule, e, ExpireNoncurrent)
				}
			}
		}
	}
	return out
}

// Evaluate is the pure phase: the actions a tick at the clock's time would
// take, changing nothing [chapter: evaluate_expiration "returns an
// immutable tuple of LifecycleAction values without changing the
// records"].
func (s *Store) Evaluate(bucket string, rules []Rule) ([]Action, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return nil, err
	}
	if err := checkRules(rules); err != nil {
		return nil, err
	}
	return actions(evaluate(b, rules, s.Now)), nil
}

func checkRules(rules []Rule) error {
	for _, r := range rules {
		if err := r.check(); err != nil {
			return err
		}
	}
	return nil
}

func actions(sel []selection) []Action {
	out := []Action{}
	for _, s := range sel {
		out = append(out, s.Action)
	}
	return out
}

// Tick is the chapter's lifecycle_tick: one clock sample, evaluation on a
// copy of the bucket, every action applied to the copy through the
// bucket's ordinary delete transitions, then the copy replaces the bucket
// at once, all or nothing [chapter: "It acquires the store's RLock,
// deep-copies the bucket, samples the injected clock once, and calls
// evaluate_expiration on the candidate"; "the tick calls persist_bucket
// once and replaces the live in-memory bucket"].
//
// A noncurrent action deletes that exact version [chapter: "calls
// Bucket.delete with the exact version ID"]; a current one first confirms
// that the selected version is still current, then deletes without a
// version ID [chapter: "it first confirms that the selected version is
// still current and calls Bucket.delete without a version ID"], so an
// enabled bucket gets a marker, an unversioned one loses the object and a
// suspended one follows the null rules. An action whose target an earlier
// action of the same tick already removed deletes nothing else [DESIGN:
// "must not delete something else"; DIFFERENCES: tick result]. The tick
// answers every action selected.
func (s *Store) Tick(bucket string, rules []Rule) ([]Action, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return nil, err
	}
	if err := checkRules(rules); err != nil {
		return nil, err
	}
	candidate := b.clone()
	selected := evaluate(candidate, rules, s.Now)
	for _, sel := range selected {
		i := candidate.find(sel.Key, sel.VersionID)
		if i < 0 || candidate.Stacks[sel.Key][i].serial != sel.entry.serial {
			continue // already removed by an earlier action of this tick
		}
		switch sel.Kind {
		case ExpireNoncurrent:
			candidate.remove(sel.Key, i)
		case ExpireCurrent:
			if i == 0 {
				s.deleteCurrent(candidate, sel.Key)
			}
		}
	}
	s.Buckets[bucket] = candidate
	return actions(selected), nil
}
