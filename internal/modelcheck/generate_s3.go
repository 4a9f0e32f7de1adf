package modelcheck

import (
	"fmt"
	"math"
	"slices"
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
// first never matters). Its rules select by a Filter, or, rarely, all by
// the legacy Prefix ("Lifecycle V1"), whose prefixes then never overlap.
func (g *generator) lifecycle() *model.LifecycleConfiguration {
	c := &model.LifecycleConfiguration{}
	legacy := g.rarely("legacyRules", 6)
	prefixes := []string{"logs/", "keep/", "a", "zz", "ü"} // none starts another
	for i := range 1 + g.intn("lifecycleRules", 3) {
		r := g.lifecycleRule(i)
		if legacy {
			r.Filter = nil
			r.Prefix = ptr(prefixes[i])
			if i == 0 && g.rarely("legacyAll", 4) {
				r.Prefix = ptr("")
				c.Rules = append(c.Rules, r)
				break
			}
		}
		g.actions(&r)
		c.Rules = append(c.Rules, r)
	}
	if g.rarely("badLifecycle", 4) {
		g.breakConfiguration(c)
	}
	return c
}

// lifecycleRule draws the i-th rule of its configuration, with a Filter
// and no action yet. IDs differ from rule to rule; one may be a "rule-N"
// that a rule without an ID would otherwise get.
func (g *generator) lifecycleRule(i int) model.LifecycleRule {
	r := model.LifecycleRule{
		ID:      pick(g, "lifecycleId", []string{"", fmt.Sprintf("r%d", i+1), fmt.Sprintf("rule-%d", 3-i)}),
		Enabled: g.often("enabled", 5),
	}
	switch g.intn("selection", 5) {
	case 0:
		r.Filter = &model.LifecycleFilter{}
	case 1:
		r.Filter = &model.LifecycleFilter{Prefix: ptr(pick(g, "lifecyclePrefix", prefixPool))}
	case 2:
		r.Filter = &model.LifecycleFilter{Tag: ptr(g.tag())}
	case 3:
		if g.often("greaterThan", 2) {
			r.Filter = &model.LifecycleFilter{ObjectSizeGreaterThan: ptr(pick(g, "size", sizeBounds))}
		} else {
			r.Filter = &model.LifecycleFilter{ObjectSizeLessThan: ptr(pick(g, "size", sizeBounds[1:]))}
		}
	case 4:
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
	return r
}

// actions draws a rule's actions, at least one, each valid with the
// rule's filter and with each other: no ExpiredObjectDeleteMarker with
// tags or sizes, no abort with either, NoncurrentDays beside
// NewerNoncurrentVersions and none with the legacy Prefix; an expiration
// and transitions that all count days or all fall on dates, transitions
// down the waterfall with each class's stay between them, and each
// expiration after the transitions of its kind.
func (g *generator) actions(r *model.LifecycleRule) {
	tagged, sized, legacy := len(filterTags(r)) > 0, filterSizes(r), r.Prefix != nil
	dated := g.rarely("dated", 4)
	if g.often("transition", 2) {
		r.Transitions = g.transitions(dated)
	}
	if g.often("expiration", 2) {
		switch kind := g.intn("expirationKind", 4); {
		case kind == 1 && !tagged && !sized:
			r.Expiration = &model.Expiration{ExpiredObjectDeleteMarker: ptr(g.often("marker", 3))}
		case dated:
			after := g.date()
			if n := len(r.Transitions); n > 0 {
				after = *r.Transitions[n-1].Date + day*pick(g, "expirationAfter", []float64{1, 30})
			}
			r.Expiration = &model.Expiration{Date: ptr(after)}
		default:
			days := pick(g, "expirationDays", []int{1, 2, 30})
			if n := len(r.Transitions); n > 0 {
				days = *r.Transitions[n-1].Days + pick(g, "expirationAfter", []int{1, 30})
			}
			r.Expiration = &model.Expiration{Days: ptr(days)}
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
	if g.often("noncurrentExpiration", 2) {
		days := pick(g, "noncurrentDays", []int{1, 2, 7})
		if ts := r.NoncurrentVersionTransitions; len(ts) > 0 {
			days = ts[0].NoncurrentDays + pick(g, "noncurrentAfter", []int{1, 7})
		}
		x := &model.NoncurrentVersionExpiration{NoncurrentDays: ptr(days)}
		if !legacy && g.rarely("newer", 2) {
			x.NewerNoncurrentVersions = ptr(1 + g.intn("newer", 2))
		}
		r.NoncurrentVersionExpiration = x
	}
	if !tagged && !sized && g.rarely("abort", 3) {
		r.AbortIncompleteMultipartUpload = &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: 1 + g.intn("abortDays", 2)}
	}
	if r.Expiration == nil && r.NoncurrentVersionExpiration == nil && r.AbortIncompleteMultipartUpload == nil &&
		r.Transitions == nil && r.NoncurrentVersionTransitions == nil {
		r.Expiration = &model.Expiration{Days: ptr(1)}
		if dated {
			r.Expiration = &model.Expiration{Date: ptr(g.date())}
		}
	}
}

// transitions draws one transition, on Days or a Date, or rarely two: the
// second to a class further down the waterfall, after the first class's
// stay.
func (g *generator) transitions(dated bool) []model.Transition {
	first := g.transition(dated)
	out := []model.Transition{first}
	if !g.rarely("twoTransitions", 4) {
		return out
	}
	at := slices.Index(classes, first.StorageClass)
	if at == len(classes)-1 {
		return out
	}
	next := classes[at+1+g.intn("nextClass", len(classes)-at-1)]
	gap := max(1, stays[first.StorageClass]) + pick(g, "transitionGap", []int{0, 1})
	if dated {
		return append(out, model.Transition{Date: ptr(*first.Date + float64(gap)*day), StorageClass: next})
	}
	return append(out, model.Transition{Days: ptr(*first.Days + gap), StorageClass: next})
}

// transition draws a transition on Days or a Date.
func (g *generator) transition(dated bool) model.Transition {
	if dated {
		return model.Transition{Date: ptr(g.date()), StorageClass: g.class(-1)}
	}
	t := model.Transition{Days: ptr(pick(g, "transitionDays", []int{0, 1, 30}))}
	t.StorageClass = g.class(*t.Days)
	return t
}

// class draws a transition's storage class: STANDARD_IA and ONEZONE_IA
// only after 30 days or more (days -1: on a date).
func (g *generator) class(days int) string {
	allowed := classes
	if days >= 0 && days < 30 {
		allowed = slices.DeleteFunc(slices.Clone(classes), func(c string) bool { return stays[c] == 30 })
	}
	return pick(g, "class", allowed)
}

// date draws a midnight UTC near the clock's: a day before the store's
// first, or one, two or thirty days after it.
func (g *generator) date() float64 {
	first := math.Floor(g.m.Origin/day) * day
	return first + day*pick(g, "dateDays", []float64{-1, 1, 2, 30})
}

// breakConfiguration makes c break exactly one of S3's checks [ref §5.3;
// the citations are the model's, internal/model/lifecycleconfig.go]. A
// rule it breaks keeps no other fault: a filter fault drops the actions a
// filter may forbid, an action fault the actions it is checked against.
func (g *generator) breakConfiguration(c *model.LifecycleConfiguration) {
	r := &c.Rules[g.intn("brokenRule", len(c.Rules))]
	setFilter := func(f *model.LifecycleFilter) {
		r.Filter = f
		r.AbortIncompleteMultipartUpload = nil
		if x := r.Expiration; x != nil && x.ExpiredObjectDeleteMarker != nil {
			r.Expiration = &model.Expiration{Days: ptr(30)}
		}
	}
	// alone keeps r the only rule, with a Filter (of any prefix it had),
	// so that a fault of its form or its filter is the only one.
	alone := func() {
		if r.Prefix != nil {
			r.Prefix, r.Filter = nil, &model.LifecycleFilter{Prefix: r.Prefix}
		}
		c.Rules = []model.LifecycleRule{*r}
		r = &c.Rules[0]
	}
	untagged := func() {
		if len(filterTags(r)) > 0 || filterSizes(r) {
			setFilter(&model.LifecycleFilter{})
		}
	}
	noTransitions := func() { r.Transitions, r.NoncurrentVersionTransitions = nil, nil }
	glacier := func(days int) model.Transition { return model.Transition{Days: ptr(days), StorageClass: "GLACIER"} }
	switch g.intn("fault", 32) {
	case 0: // InvalidArgument: no rules
		c.Rules = nil
	case 1: // InvalidArgument
		r.ID = strings.Repeat("i", 256)
	case 2: // InvalidArgument
		alone()
		c.Rules = append(c.Rules, c.Rules[0])
		c.Rules[0].ID, c.Rules[1].ID = "r1", "r1"
	case 3: // MalformedXML: neither Prefix nor Filter
		r.Prefix, r.Filter = nil, nil
	case 4: // MalformedXML: both
		r.Prefix, r.Filter = ptr(""), &model.LifecycleFilter{}
	case 5: // MalformedXML: two predicates outside And
		alone()
		setFilter(&model.LifecycleFilter{Prefix: ptr("logs/"), Tag: ptr(g.tag())})
	case 6: // MalformedXML: an And of one predicate
		alone()
		setFilter(&model.LifecycleFilter{And: &model.LifecycleAnd{Prefix: ptr("a")}})
	case 7: // InvalidRequest: a tag key twice
		alone()
		setFilter(&model.LifecycleFilter{And: &model.LifecycleAnd{Tags: []model.Tag{{Key: "env", Value: "prod"}, {Key: "env", Value: "dev"}}}})
	case 8: // InvalidRequest: sizes that leave no room
		alone()
		setFilter(&model.LifecycleFilter{And: &model.LifecycleAnd{ObjectSizeGreaterThan: ptr(int64(5)), ObjectSizeLessThan: ptr(int64(5))}})
	case 9: // MalformedXML: an empty Expiration
		r.Expiration = &model.Expiration{}
	case 10: // MalformedXML
		untagged()
		r.Expiration = &model.Expiration{Days: ptr(1), ExpiredObjectDeleteMarker: ptr(true)}
	case 11: // InvalidArgument
		noTransitions()
		r.Expiration = &model.Expiration{Days: ptr(0)}
	case 12: // InvalidArgument: a Date at noon
		noTransitions()
		r.Expiration = &model.Expiration{Date: ptr(g.date() + day/2)}
	case 13: // MalformedXML: an empty NoncurrentVersionExpiration
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{}
	case 14: // InvalidArgument
		noTransitions()
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NoncurrentDays: ptr(0)}
	case 15: // InvalidRequest: NewerNoncurrentVersions with the legacy Prefix
		alone()
		untagged()
		r.Prefix, r.Filter = ptr("logs/"), nil
		r.NoncurrentVersionTransitions = nil
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NoncurrentDays: ptr(1), NewerNoncurrentVersions: ptr(1)}
	case 16: // InvalidArgument
		alone()
		r.NoncurrentVersionTransitions = nil
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NoncurrentDays: ptr(1), NewerNoncurrentVersions: ptr(101)}
	case 17: // InvalidRequest: an abort with a tag filter
		alone()
		setFilter(&model.LifecycleFilter{Tag: ptr(g.tag())})
		r.AbortIncompleteMultipartUpload = &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: 1}
	case 18: // InvalidRequest: an abort with a size filter
		alone()
		setFilter(&model.LifecycleFilter{ObjectSizeGreaterThan: ptr(int64(3))})
		r.AbortIncompleteMultipartUpload = &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: 1}
	case 19: // InvalidRequest: ExpiredObjectDeleteMarker with a tag filter
		alone()
		setFilter(&model.LifecycleFilter{Tag: ptr(g.tag())})
		r.Expiration = &model.Expiration{ExpiredObjectDeleteMarker: ptr(g.often("marker", 2))}
	case 20: // InvalidRequest: no action
		r.Expiration, r.NoncurrentVersionExpiration, r.AbortIncompleteMultipartUpload = nil, nil, nil
		noTransitions()
	case 21: // InvalidArgument: STANDARD_IA before 30 days
		r.Expiration = nil
		r.Transitions = []model.Transition{{Days: ptr(1), StorageClass: "STANDARD_IA"}}
	case 22: // MalformedXML: NewerNoncurrentVersions without NoncurrentDays
		alone()
		r.NoncurrentVersionTransitions = nil
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NewerNoncurrentVersions: ptr(2)}
	case 23: // InvalidRequest: a legacy rule and a Filter rule
		alone()
		untagged()
		r.NoncurrentVersionTransitions = nil
		if x := r.NoncurrentVersionExpiration; x != nil {
			x.NewerNoncurrentVersions = nil
		}
		other := model.LifecycleRule{ID: "other", Enabled: true, Filter: &model.LifecycleFilter{}, Expiration: &model.Expiration{Days: ptr(30)}}
		r.Prefix, r.Filter = ptr("logs/"), nil
		c.Rules = append(c.Rules, other)
		if g.often("legacyFirst", 2) {
			c.Rules[0], c.Rules[1] = c.Rules[1], c.Rules[0]
		}
	case 24: // InvalidRequest: legacy rules with overlapping prefixes take one action
		c.Rules = []model.LifecycleRule{
			{ID: "all", Enabled: true, Prefix: ptr(""), Expiration: &model.Expiration{Days: ptr(2)}},
			{ID: "logs", Enabled: g.often("enabled", 2), Prefix: ptr("logs/"), Expiration: &model.Expiration{Days: ptr(1)}},
		}
	case 25: // InvalidArgument: the Expiration not after a Transition
		r.Transitions = []model.Transition{glacier(30)}
		r.Expiration = &model.Expiration{Days: ptr(pick(g, "tooSoon", []int{1, 30}))}
	case 26: // InvalidArgument: the NoncurrentVersionExpiration not after a NoncurrentVersionTransition
		r.NoncurrentVersionTransitions = []model.NoncurrentVersionTransition{{NoncurrentDays: 7, StorageClass: "GLACIER"}}
		r.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NoncurrentDays: ptr(pick(g, "tooSoon", []int{1, 7}))}
	case 27: // InvalidRequest: Days and a Date in one rule
		r.Transitions = []model.Transition{{Date: ptr(g.date()), StorageClass: "GLACIER"}}
		r.Expiration = &model.Expiration{Days: ptr(400)}
	case 28: // InvalidRequest: one class twice
		r.Expiration = nil
		r.Transitions = []model.Transition{glacier(0), glacier(200)}
	case 29: // InvalidArgument: a later transition to a warmer class
		r.Expiration = nil
		r.Transitions = []model.Transition{glacier(0), {Days: ptr(200), StorageClass: pick(g, "warmer", []string{"INTELLIGENT_TIERING", "GLACIER_IR"})}}
	case 30: // InvalidArgument: DEEP_ARCHIVE within GLACIER's 90 days
		r.Expiration = nil
		r.Transitions = []model.Transition{glacier(0), {Days: ptr(pick(g, "tooSoon", []int{0, 89})), StorageClass: "DEEP_ARCHIVE"}}
	case 31: // InvalidRequest: ExpiredObjectDeleteMarker with a size filter, or a size out of range
		alone()
		if g.often("markerBySize", 2) {
			setFilter(&model.LifecycleFilter{ObjectSizeGreaterThan: ptr(int64(3))})
			r.Expiration = &model.Expiration{ExpiredObjectDeleteMarker: ptr(true)}
		} else {
			setFilter(&model.LifecycleFilter{ObjectSizeLessThan: ptr(int64(0))})
		}
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
