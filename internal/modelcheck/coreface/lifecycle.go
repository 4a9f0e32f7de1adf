package coreface

import (
	"minis3/core"
	"minis3/internal/model"
)

// coreConfiguration is a model's lifecycle configuration as core's: the
// same elements, each left out where the model's is.
func coreConfiguration(c model.LifecycleConfiguration) core.LifecycleConfiguration {
	var out core.LifecycleConfiguration
	for _, r := range c.Rules {
		rule := core.LifecycleRule{ID: r.ID, Enabled: r.Enabled, Prefix: clone(r.Prefix)}
		if f := r.Filter; f != nil {
			rule.Filter = &core.LifecycleFilter{Prefix: clone(f.Prefix), ObjectSizeGreaterThan: clone(f.ObjectSizeGreaterThan), ObjectSizeLessThan: clone(f.ObjectSizeLessThan)}
			if f.Tag != nil {
				rule.Filter.Tag = &core.Tag{Key: f.Tag.Key, Value: f.Tag.Value}
			}
			if a := f.And; a != nil {
				rule.Filter.And = &core.LifecycleAnd{Prefix: clone(a.Prefix), Tags: coreTags(a.Tags),
					ObjectSizeGreaterThan: clone(a.ObjectSizeGreaterThan), ObjectSizeLessThan: clone(a.ObjectSizeLessThan)}
			}
		}
		if x := r.Expiration; x != nil {
			rule.Expiration = &core.LifecycleExpiration{Days: clone(x.Days), Date: clone(x.Date), ExpiredObjectDeleteMarker: clone(x.ExpiredObjectDeleteMarker)}
		}
		if x := r.NoncurrentVersionExpiration; x != nil {
			rule.NoncurrentVersionExpiration = &core.NoncurrentVersionExpiration{NoncurrentDays: clone(x.NoncurrentDays), NewerNoncurrentVersions: clone(x.NewerNoncurrentVersions)}
		}
		if x := r.AbortIncompleteMultipartUpload; x != nil {
			rule.AbortIncompleteMultipartUpload = &core.AbortIncompleteMultipartUpload{DaysAfterInitiation: x.DaysAfterInitiation}
		}
		for _, t := range r.Transitions {
			rule.Transitions = append(rule.Transitions, core.LifecycleTransition{Days: clone(t.Days), Date: clone(t.Date), StorageClass: t.StorageClass})
		}
		for _, t := range r.NoncurrentVersionTransitions {
			rule.NoncurrentVersionTransitions = append(rule.NoncurrentVersionTransitions, core.NoncurrentVersionTransition{
				NoncurrentDays: t.NoncurrentDays, StorageClass: t.StorageClass, NewerNoncurrentVersions: clone(t.NewerNoncurrentVersions)})
		}
		out.Rules = append(out.Rules, rule)
	}
	return out
}

// modelConfiguration is core's lifecycle configuration in the model's
// terms.
func modelConfiguration(c core.LifecycleConfiguration) model.LifecycleConfiguration {
	var out model.LifecycleConfiguration
	for _, r := range c.Rules {
		rule := model.LifecycleRule{ID: r.ID, Enabled: r.Enabled, Prefix: clone(r.Prefix)}
		if f := r.Filter; f != nil {
			rule.Filter = &model.LifecycleFilter{Prefix: clone(f.Prefix), ObjectSizeGreaterThan: clone(f.ObjectSizeGreaterThan), ObjectSizeLessThan: clone(f.ObjectSizeLessThan)}
			if f.Tag != nil {
				rule.Filter.Tag = &model.Tag{Key: f.Tag.Key, Value: f.Tag.Value}
			}
			if a := f.And; a != nil {
				rule.Filter.And = &model.LifecycleAnd{Prefix: clone(a.Prefix), Tags: modelTags(a.Tags),
					ObjectSizeGreaterThan: clone(a.ObjectSizeGreaterThan), ObjectSizeLessThan: clone(a.ObjectSizeLessThan)}
			}
		}
		if x := r.Expiration; x != nil {
			rule.Expiration = &model.Expiration{Days: clone(x.Days), Date: clone(x.Date), ExpiredObjectDeleteMarker: clone(x.ExpiredObjectDeleteMarker)}
		}
		if x := r.NoncurrentVersionExpiration; x != nil {
			rule.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NoncurrentDays: clone(x.NoncurrentDays), NewerNoncurrentVersions: clone(x.NewerNoncurrentVersions)}
		}
		if x := r.AbortIncompleteMultipartUpload; x != nil {
			rule.AbortIncompleteMultipartUpload = &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: x.DaysAfterInitiation}
		}
		for _, t := range r.Transitions {
			rule.Transitions = append(rule.Transitions, model.Transition{Days: clone(t.Days), Date: clone(t.Date), StorageClass: t.StorageClass})
		}
		for _, t := range r.NoncurrentVersionTransitions {
			rule.NoncurrentVersionTransitions = append(rule.NoncurrentVersionTransitions, model.NoncurrentVersionTransition{
				NoncurrentDays: t.NoncurrentDays, StorageClass: t.StorageClass, NewerNoncurrentVersions: clone(t.NewerNoncurrentVersions)})
		}
		out.Rules = append(out.Rules, rule)
	}
	return out
}

// clone is a copy of *p, or nil: the store and the model share nothing.
func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
