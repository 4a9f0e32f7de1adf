package model

import "fmt"

// LifecycleConfiguration is a bucket's stored S3 lifecycle configuration
// [ref §5.1]: the rules MiniS3 accepts today, prefix-and-days expiration
// [DIFFERENCES: Lifecycle, Filters].
type LifecycleConfiguration struct {
	Rules []LifecycleRule
}

// LifecycleRule is one stored rule. Zero days means the action is absent.
type LifecycleRule struct {
	ID             string
	Enabled        bool
	Prefix         string
	ExpirationDays int
	NoncurrentDays int
}

// PutBucketLifecycle replaces the bucket's configuration [ref §5.1] after
// checking it [ref §5.3]: 1 to 1000 rules [DIFFERENCES: InvalidArgument for
// none or more], IDs of at most 255 characters and unique, every rule with
// an action, no negative days. A rule without an ID gets "rule-N", the
// first N not taken [DIFFERENCES: IDs are rule-N].
func (s *Store) PutBucketLifecycle(bucket string, c LifecycleConfiguration) error {
	b, err := s.bucket(bucket)
	if err != nil {
		return err
	}
	if len(c.Rules) == 0 || len(c.Rules) > 1000 {
		return invalidArgument("a lifecycle configuration holds 1 to 1000 rules")
	}
	taken := map[string]bool{}
	for _, r := range c.Rules {
		switch {
		case len(r.ID) > 255:
			return invalidArgument("rule ID longer than 255 characters")
		case r.ID != "" && taken[r.ID]:
			return invalidArgument("rule ID " + r.ID + " used twice")
		case r.ExpirationDays == 0 && r.NoncurrentDays == 0:
			return invalidArgument("rule " + r.ID + " has no action")
		case r.ExpirationDays < 0 || r.NoncurrentDays < 0:
			return invalidArgument("rule " + r.ID + " has negative days")
		}
		taken[r.ID] = true
	}
	stored := LifecycleConfiguration{Rules: make([]LifecycleRule, len(c.Rules))}
	copy(stored.Rules, c.Rules)
	n := 0
	for i := range stored.Rules {
		for stored.Rules[i].ID == "" {
			n++
			if id := fmt.Sprintf("rule-%d", n); !taken[id] {
				stored.Rules[i].ID, taken[id] = id, true
			}
		}
	}
	b.Lifecycle = &stored
	return nil
}

// BucketLifecycle is the stored configuration, or
// NoSuchLifecycleConfiguration [ref §5.1].
func (s *Store) BucketLifecycle(bucket string) (LifecycleConfiguration, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return LifecycleConfiguration{}, err
	}
	if b.Lifecycle == nil {
		return LifecycleConfiguration{}, errorf("NoSuchLifecycleConfiguration", bucket)
	}
	return LifecycleConfiguration{Rules: append([]LifecycleRule(nil), b.Lifecycle.Rules...)}, nil
}

// DeleteBucketLifecycle removes the configuration; removing none is no
// error [ref §5.1: "204 whether or not a configuration exists"].
func (s *Store) DeleteBucketLifecycle(bucket string) error {
	b, err := s.bucket(bucket)
	if err != nil {
		return err
	}
	b.Lifecycle = nil
	return nil
}
