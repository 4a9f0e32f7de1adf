package core

import (
	"fmt"
	"strconv"
)

// SecondsPerDay converts a lifecycle configuration's Days into the seconds of
// an ExpirationRule. MiniS3 does not round to midnight as S3 does.
const SecondsPerDay = 86400

// MaxLifecycleRules is the most rules one configuration may hold.
const MaxLifecycleRules = 1000

// LifecycleConfiguration is a bucket's stored lifecycle configuration: the
// part of S3's that MiniS3 executes.
type LifecycleConfiguration struct {
	Rules []LifecycleRule `json:"rules"`
}

// LifecycleRule is one rule of a stored configuration.
type LifecycleRule struct {
	ID      string `json:"id"`
	Enabled bool   `json:"enabled"` // Status Enabled; false is Disabled
	Prefix  string `json:"prefix"`
	// LegacyPrefix records that the prefix was given as the rule's own
	// <Prefix> element rather than inside <Filter>, so it is returned in
	// the same form.
	LegacyPrefix bool `json:"legacyPrefix,omitempty"`
	// ExpirationDays is Expiration/Days; 0 means no current expiration.
	ExpirationDays int `json:"expirationDays,omitempty"`
	// NoncurrentDays is NoncurrentVersionExpiration/NoncurrentDays; 0 means
	// no noncurrent expiration.
	NoncurrentDays int `json:"noncurrentDays,omitempty"`
}

// Validate checks a configuration as S3 does: 1 to 1000 rules, IDs of at
// most 255 characters and unique, every rule with at least one action, and
// positive day counts. Empty IDs are allowed here; PutBucketLifecycle fills
// them in.
func (c LifecycleConfiguration) Validate() error {
	if len(c.Rules) == 0 || len(c.Rules) > MaxLifecycleRules {
		return errInvalidArgument("Rule", strconv.Itoa(len(c.Rules)), "a lifecycle configuration holds 1 to %d rules, not %d", MaxLifecycleRules, len(c.Rules))
	}
	ids := make(map[string]bool, len(c.Rules))
	for _, r := range c.Rules {
		switch {
		case len(r.ID) > 255:
			return errInvalidArgument("ID", r.ID, "The ID of a lifecycle rule must not be longer than 255 characters")
		case r.ID != "" && ids[r.ID]:
			return errInvalidArgument("ID", r.ID, "Rule ID must be unique. Found same ID for more than one rule")
		case r.ExpirationDays == 0 && r.NoncurrentDays == 0:
			return errInvalidArgument("Rule", r.ID, "lifecycle rule %q has no action: give Expiration Days or NoncurrentVersionExpiration NoncurrentDays", r.ID)
		case r.ExpirationDays < 0:
			return errInvalidArgument("Days", strconv.Itoa(r.ExpirationDays), "'Days' for Expiration action must be a positive integer")
		case r.NoncurrentDays < 0:
			return errInvalidArgument("NoncurrentDays", strconv.Itoa(r.NoncurrentDays), "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer")
		}
		ids[r.ID] = true
	}
	return nil
}

// ExpirationRules are the enabled rules as ExpirationRules, with Days
// turned into seconds (Days × 86400); disabled rules are left out.
func (c LifecycleConfiguration) ExpirationRules() []ExpirationRule {
	out := make([]ExpirationRule, 0, len(c.Rules))
	for _, r := range c.Rules {
		if !r.Enabled {
			continue
		}
		er := ExpirationRule{ID: r.ID, Prefix: r.Prefix}
		if r.ExpirationDays > 0 {
			er.ExpireCurrentAfter = Seconds(float64(r.ExpirationDays) * SecondsPerDay)
		}
		if r.NoncurrentDays > 0 {
			er.ExpireNoncurrentAfter = Seconds(float64(r.NoncurrentDays) * SecondsPerDay)
		}
		out = append(out, er)
	}
	return out
}

// PutBucketLifecycle validates cfg and stores it on the bucket, replacing
// any earlier configuration. Rules without an ID get "rule-N".
func (s *Store) PutBucketLifecycle(bucket string, cfg LifecycleConfiguration) error {
	rules := make([]LifecycleRule, len(cfg.Rules))
	copy(rules, cfg.Rules)
	used := make(map[string]bool)
	for _, r := range rules {
		used[r.ID] = true
	}
	n := 0
	for i := range rules {
		for rules[i].ID == "" {
			n++
			if id := fmt.Sprintf("rule-%d", n); !used[id] {
				rules[i].ID, used[id] = id, true
			}
		}
	}
	return s.update(bucket, func(t *tx) error {
		if err := cfg.Validate(); err != nil {
			return err
		}
		t.lifecycle, t.lcChanged = &LifecycleConfiguration{Rules: rules}, true
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
		cfg.Rules = append([]LifecycleRule(nil), b.lifecycle.Rules...)
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
