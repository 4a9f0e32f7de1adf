package modelcheck

import (
	"fmt"
	"math"
	"strings"

	"minis3/internal/model"
)

// The generator's draws for S3's lifecycle, tags and the clock by days.

// clock is where a clock move goes: by the chapter's seconds, by days, to
// the next midnight UTC of the absolute time (where S3's lifecycle runs),
// or just before it, just after it, or a day after it.
func (g *generator) clock() float64 {
	now := g.m.Now
	next := math.Floor((g.m.Origin+now)/day+1)*day - g.m.Origin
	switch g.intn("clockMove", 4) {
	case 1:
		return now + pick(g, "days", daySteps)
	case 2:
		return next
	case 3:
		return next + pick(g, "aroundMidnight", []float64{-0.001, 0.001, day})
	}
	return now + pick(g, "clockStep", clockSteps)
}

// bucketTags is a bucket's tag set: mostly an object's (none, or a few
// of the pool, rarely a bad one); rarely the most a bucket takes, or one
// more (BadRequest).
func (g *generator) bucketTags() []model.Tag {
	if g.rarely("manyBucketTags", 10) {
		n := pick(g, "bucketTagCount", []int{50, 51})
		many := make([]model.Tag, n)
		for i := range many {
			many[i] = model.Tag{Key: fmt.Sprintf("k%d", i), Value: "v"}
		}
		return many
	}
	return g.tags()
}

// tags draws an object's tag set: one or two tags of the pools, none, or
// rarely a set S3 refuses: more than ten, a reserved key, a key twice, a
// key too long.
func (g *generator) tags() []model.Tag {
	if g.rarely("badTags", 8) {
		switch g.intn("badTagsKind", 4) {
		case 0:
			var many []model.Tag
			for i := range 11 {
				many = append(many, model.Tag{Key: fmt.Sprintf("k%d", i), Value: "v"})
			}
			return many // BadRequest
		case 1:
			return []model.Tag{{Key: "aws:env", Value: "prod"}} // InvalidTag
		case 2:
			return []model.Tag{{Key: "env", Value: "prod"}, {Key: "env", Value: "dev"}} // InvalidTag; a PUT's InvalidArgument
		default:
			return []model.Tag{{Key: strings.Repeat("k", 129), Value: "v"}} // InvalidTag
		}
	}
	var tags []model.Tag
	for _, key := range tagKeys {
		if g.often("hasTag", 2) {
			tags = append(tags, model.Tag{Key: key, Value: pick(g, "tagValue", tagValues)})
		}
	}
	return tags
}

// tag draws one tag of the pools.
func (g *generator) tag() model.Tag {
	return model.Tag{Key: pick(g, "tagKey", tagKeys), Value: pick(g, "tagValue", tagValues)}
}

// lifecycle draws a stored configuration of one to three rules, rarely one
// that breaks one of S3's checks (and only one, so that which check comes
// first never matters).
func (g *generator) lifecycle() *model.LifecycleConfiguration {
	c := &model.LifecycleConfiguration{}
	for i := range 1 + g.intn("lifecycleRules", 3) {
		c.Rules = append(c.Rules, g.lifecycleRule(i))
	}
	if g.rarely("badLifecycle", 4) {
		g.breakConfiguration(c)
	}
	return c
}

// lifecycleRule draws a valid rule, the i-th of its configuration. IDs
// differ from rule to rule; one may be a "rule-N" that a rule without an
// ID would otherwise get.
func (g *generator) lifecycleRule(i int) model.LifecycleRule {
	r := model.LifecycleRule{
		ID:      pick(g, "lifecycleId", []string{"", fmt.Sprintf("r%d", i+1), fmt.Sprintf("rule-%d", 3-i)}),
		Enabled: g.often("enabled", 5),
	}
	switch g.intn("selection", 6) {
	case 0:
		r.Prefix = ptr(pick(g, "lifecyclePrefix", prefixPool)) // the legacy form
	case 1:
		r.Filter = &model.LifecycleFilter{}
	case 2:
		r.Filter = &model.LifecycleFilter{Prefix: ptr(pick(g, "lifecyclePrefix", prefixPool))}
	case 3:
		r.Filter = &model.LifecycleFilter{Tag: ptr(g.tag())}
	case 4:
		if g.often("greaterThan", 2) {
			r.Filter = &model.LifecycleFilter{ObjectSizeGreaterThan: ptr(pick(g, "size", sizeBounds))}
		} else {
			r.Filter = &model.LifecycleFilter{ObjectSizeLessThan: ptr(pick(g, "size", sizeBounds[1:]))}
		}
	case 5:
		a := &model.LifecycleAnd{Prefix: ptr(pick(g, "lifecyclePrefix", prefixPool))}
		if g.often("andTags", 2) {
			a.Tags = []model.Tag{{Key: tagKeys[0], Value: pick(g, "tagValue", tagValues)}}
			if g.rarely("twoTags", 3) {
				a.Tags = append(a.Tags, model.Tag{Key: tagKeys[1], Value: pick(g, "tagValue", tagValues)})
			}
		} else {
			a.ObjectSizeGreaterThan = ptr(pick(g, "size", sizeBounds[:2]))
			a.ObjectSizeLessThan = ptr(pick(g, "size", sizeBounds[2:]))
		}
		r.Filter = &model.LifecycleFilter{And: a}
	}
	g.actions(&r)
	return r
}

// actions draws a rule's actions, at least one, each valid with the
// rule's filter: no ExpiredObjectDeleteMarker or abort with tags, no abort
// with sizes, no NewerNoncurrentVersions with the legacy Prefix.
func (g *generator) actions(r *model.LifecycleRule) {
	tagged, sized, legacy := len(filterTags(r)) > 0, filterSizes(r), r.Prefix != nil
	if g.often("expiration", 2) {
		switch g.intn("expirationKind", 4) {
		case 0:
			r.Expiration = &model.Expiration{Date: ptr(g.date())}
		case 1:
			if !tagged {
				r.Expiration = &model.Expiration{ExpiredObjectDeleteMarker: ptr(g.often("marker", 3))}
				break
			}
			fallthrough
		default:
			r.Expiration = &model.Expiration{Days: ptr(pick(g, "expirationDays", []int{1, 2, 30}))}
		}
	}
	if g.often("noncurrentExpiration", 2) {
		x := &model.NoncurrentVersionExpiration{}
		if legacy || g.often("noncurrentDays", 3) {
			x.NoncurrentDays = ptr(pick(g, "noncurrentDays", []int{1, 2, 7}))
		}
		if !legacy && (x.NoncurrentDays == nil || g.rarely("newer", 2)) {
			x.NewerNoncurrentVersions = ptr(1 + g.intn("newer", 2))
		}
		r.NoncurrentVersionExpiration = x
	}
	if !tagged && !sized && g.rarely("abort", 3) {
		r.AbortIncompleteMultipartUpload = &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: 1 + g.intn("abortDays", 2)}
	}
	if g.often("transition", 2) {
		for range 1 + g.intn("transitions", 2) {
			r.Transitions = append(r.Transitions, g.transition())
		}
	}
	if g.often("noncurrentTransition", 2) {
		t := model.NoncurrentVersionTransition{NoncurrentDays: pick(g, "noncurrentDays", []int{0, 1, 30})}
		t.StorageClass = g.class(t.NoncurrentDays)
		if !legacy && g.rarely("newer", 3) {
			t.NewerNoncurrentVersions = ptr(1 + g.intn("newer", 2))
		}
		r.NoncurrentVersionTransitions = append(r.NoncurrentVersionTransitions, t)
	}
	if r.Expiration == nil && r.NoncurrentVersionExpiration == nil && r.AbortIncompleteMultipartUpload == nil &&
		r.Transitions == nil && r.NoncurrentVersionTransitions == nil {
		r.Expiration = &model.Expiration{Days: ptr(1)}
	}
}

// transition draws a transition on Days or a Date.
func (g *generator) transition() model.Transition {
	if g.rarely("transitionDate", 3) {
		return model.Transition{Date: ptr(g.date()), StorageClass: g.class(-1)}
	}
	t := model.Transition{Days: ptr(pick(g, "transitionDays", []int{0, 1, 30}))}
	t.StorageClass = g.class(*t.Days)
	return t
}

// class draws a transition's storage class; STANDARD_IA only after 30 days
// or more (days -1: on a date).
func (g *generator) class(days int) string {
	if (days < 0 || days >= 30) && g.rarely("infrequent", 3) {
		return "STANDARD_IA"
	}
	return pick(g, "class", classes)
}

// date draws a midnight UTC near the clock's: a day before the store's
// first, or one, two or thirty days after it.
func (g *generator) date() float64 {
	first := math.Floor(g.m.Origin/day) * day
	return first + day*pick(g, "dateDays", []float64{-1, 1, 2, 30})
}

// breakConfiguration makes c break exactly one of S3's checks [ref §5.3].
// A rule it breaks keeps no other fault: a filter fault drops the actions
// a filter may forbid.
func (g *generator) breakConfiguration(c *model.LifecycleConfiguration) {
	r := &c.Rules[g.intn("brokenRule", len(c.Rules))]
	setFilter := func(f *model.LifecycleFilter) {
		r.Prefix, r.Filter = nil, f
		r.AbortIncompleteMultipartUpload = nil
		if x := r.Expiration; x != nil && x.ExpiredObjectDeleteMarker != nil {
			r.Expiration = &model.Expiration{Days: ptr(1)}
		}
	}
	withFilter := func() {
		if r.Prefix != nil {
			r.Prefix, r.Filter = nil, &model.LifecycleFilter{Prefix: r.Prefix}
		}
	}
	untagged := func() {
		if len(filterTags(r)) > 0 || filterSizes(r) {
			setFilter(&model.LifecycleFilter{})
		}
	}
	switch g.intn("fault", 22) {
	case 0: // InvalidArgument: no rules
		c.Rules = nil
	case 1: // InvalidArgument
		r.ID = strings.Repeat("i", 256)
	case 2: // InvalidArgument
		if len(c.Rules) == 1 {
			c.Rules = append(c.Rules, c.Rules[0])
		}
		c.Rules[0].ID, c.Rules[1].ID = "r1", "r1"
	case 3: // MalformedXML: neither Prefix nor Filter
		r.Prefix, r.Filter = nil, nil
	case 4: // MalformedXML: both
		r.Prefix, r.Filter = ptr(""), &model.LifecycleFilter{}
	case 5: // MalformedXML: two predicates outside And
		setFilter(&model.LifecycleFilter{Prefix: ptr("logs/"), Tag: ptr(g.tag())})
	case 6: // MalformedXML: an And of one predicate
		setFilter(&model.LifecycleFilter{And: &model.LifecycleAnd{Prefix: ptr("a")}})
	case 7: // InvalidRequest: a tag key twice
		setFilter(&model.LifecycleFilter{And: &model.LifecycleAnd{Tags: []model.Tag{{Key: "env", Value: "prod"}, {Key: "env", Value: "dev"}}}})
	case 8: // InvalidArgument: sizes that leave no room
		setFilter(&model.LifecycleFilter{And: &model.LifecycleAnd{ObjectSizeGreaterThan: ptr(int64(5)), ObjectSizeLessThan: ptr(int64(5))}})
	case 9: // MalformedXML: an empty Expiration
		r.Expiration = &model.Expiration{}
	case 10: // MalformedXML
		untagged()
		r.Expiration = &model.Expiration{Days: ptr(1), ExpiredObjectDeleteMarker: ptr(true)}
	case 11: // InvalidArgument
		r.Expiration = &model.Expiration{Days: ptr(0)}
	case 12: // InvalidArgument: a Date at noon
		r.Expiration = &model.Expiration{Date: ptr(g.date() + day/2)}
	case 13: // MalformedXML: an empty NoncurrentVersionExpiration
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{}
	case 14: // InvalidArgument
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NoncurrentDays: ptr(0)}
	case 15: // InvalidRequest: NewerNoncurrentVersions with the legacy Prefix
		untagged()
		r.Prefix, r.Filter = ptr("logs/"), nil
		r.NoncurrentVersionTransitions = nil
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NoncurrentDays: ptr(1), NewerNoncurrentVersions: ptr(1)}
	case 16: // InvalidArgument
		withFilter()
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NewerNoncurrentVersions: ptr(101)}
	case 17: // InvalidRequest: an abort with a tag filter
		setFilter(&model.LifecycleFilter{Tag: ptr(g.tag())})
		r.AbortIncompleteMultipartUpload = &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: 1}
	case 18: // InvalidRequest: an abort with a size filter
		setFilter(&model.LifecycleFilter{ObjectSizeGreaterThan: ptr(int64(3))})
		r.AbortIncompleteMultipartUpload = &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: 1}
	case 19: // InvalidRequest: ExpiredObjectDeleteMarker with a tag filter
		setFilter(&model.LifecycleFilter{Tag: ptr(g.tag())})
		r.Expiration = &model.Expiration{ExpiredObjectDeleteMarker: ptr(true)}
	case 20: // InvalidArgument: no action
		r.Expiration, r.NoncurrentVersionExpiration, r.AbortIncompleteMultipartUpload = nil, nil, nil
		r.Transitions, r.NoncurrentVersionTransitions = nil, nil
	case 21: // InvalidArgument: STANDARD_IA before 30 days
		r.Transitions = append(r.Transitions, model.Transition{Days: ptr(1), StorageClass: "STANDARD_IA"})
	}
}

// filterSizes reports whether the rule's filter bounds sizes.
func filterSizes(r *model.LifecycleRule) bool {
	switch f := r.Filter; {
	case f == nil:
		return false
	case f.And != nil:
		return f.And.ObjectSizeGreaterThan != nil || f.And.ObjectSizeLessThan != nil
	default:
		return f.ObjectSizeGreaterThan != nil || f.ObjectSizeLessThan != nil
	}
}

// filterTags are the tags the rule's filter names.
func filterTags(r *model.LifecycleRule) []model.Tag {
	switch f := r.Filter; {
	case f == nil:
		return nil
	case f.And != nil:
		return f.And.Tags
	default:
		return tagsOf(f.Tag)
	}
}

func ptr[T any](v T) *T { return &v }
