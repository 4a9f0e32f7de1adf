package core

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Checking a lifecycle configuration as S3 checks one, with S3's codes: a
// document of the wrong shape is MalformedXML, a value out of range
// InvalidArgument, a combination S3 forbids InvalidRequest [ref §5.3]. It
// goes rule by rule, each element, then the rule's actions together; then
// the rules together. The first fault found is the answer, and a
// configuration with a fault is never stored.

// Validate checks a configuration as S3 checks one.
func (c LifecycleConfiguration) Validate() error {
	if len(c.Rules) == 0 || len(c.Rules) > MaxLifecycleRules {
		return errInvalidArgument("Rule", strconv.Itoa(len(c.Rules)), "a lifecycle configuration holds 1 to %d rules, not %d", MaxLifecycleRules, len(c.Rules))
	}
	ids := make(map[string]bool, len(c.Rules))
	for _, r := range c.Rules {
		if !r.validUTF8() {
			return newError(MalformedXML, "lifecycle rule %q: the configuration is not valid UTF-8 text", r.ID)
		}
		if utf8.RuneCountInString(r.ID) > 255 {
			return errInvalidArgument("ID", r.ID, "The ID of a lifecycle rule must not be longer than 255 characters")
		}
		if r.ID != "" && ids[r.ID] {
			return errInvalidArgument("ID", r.ID, "Rule ID must be unique. Found same ID for more than one rule")
		}
		ids[r.ID] = true
		if err := r.validate(); err != nil {
			return err
		}
		if err := oneVersion(c.Rules[0], r); err != nil {
			return err
		}
	}
	return c.checkLegacyOverlaps()
}

// validate checks one rule: its selection, then each action, then its
// actions together.
func (r LifecycleRule) validate() error {
	malformed := func(why string) error { return newError(MalformedXML, "lifecycle rule %q: %s", r.ID, why) }
	switch {
	case r.Prefix != nil && r.Filter != nil:
		return malformed("a rule has a Prefix or a Filter, not both")
	case r.Prefix == nil && r.Filter == nil:
		return malformed("a rule needs a Filter (it may be empty) or a Prefix")
	}
	if err := r.Filter.validate(r.ID); err != nil {
		return err
	}
	if r.Expiration == nil && r.NoncurrentVersionExpiration == nil && r.AbortIncompleteMultipartUpload == nil &&
		len(r.Transitions) == 0 && len(r.NoncurrentVersionTransitions) == 0 {
		// S3's answer, recorded in crossplane-contrib/provider-aws#1337.
		return newError(InvalidRequest, "At least one action needs to be specified in a rule")
	}
	for _, check := range []func() error{
		r.checkExpiration, r.checkNoncurrentExpiration, r.checkAbort, r.checkTransitions, r.checkNoncurrentTransitions,
		r.checkDaysOrDates, r.checkClassesDiffer, r.checkTransitionOrder, r.checkExpirationComesLast,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (r LifecycleRule) checkExpiration() error {
	e := r.Expiration
	if e == nil {
		return nil
	}
	given := 0
	for _, set := range []bool{e.Days != nil, e.Date != nil, e.ExpiredObjectDeleteMarker != nil} {
		if set {
			given++
		}
	}
	switch {
	case given != 1:
		return newError(MalformedXML, "lifecycle rule %q: an Expiration has one of Days, Date and ExpiredObjectDeleteMarker", r.ID)
	case e.Days != nil && *e.Days <= 0:
		return errInvalidArgument("Days", strconv.Itoa(*e.Days), "'Days' for Expiration action must be a positive integer")
	case e.Date != nil && !validDate(*e.Date):
		return errInvalidArgument("Date", fmt.Sprint(*e.Date), "'Date' must be at midnight GMT")
	// "You cannot specify this Lifecycle action in a rule that specifies a
	// filter based on object tags" (AWS user guide, "Lifecycle
	// configuration elements"); with a size filter, S3's answer is the
	// like of AbortIncompleteMultipartUpload's, even for false.
	case e.ExpiredObjectDeleteMarker != nil && r.Filter.hasTags():
		return newError(InvalidRequest, "ExpiredObjectDeleteMarker cannot be specified with Tags.")
	case e.ExpiredObjectDeleteMarker != nil && r.Filter.hasSizes():
		return newError(InvalidRequest, "ExpiredObjectDeleteMarker cannot be specified with Object Size.")
	}
	return nil
}

func (r LifecycleRule) checkNoncurrentExpiration() error {
	n := r.NoncurrentVersionExpiration
	if n == nil {
		return nil
	}
	switch {
	case n.NoncurrentDays == nil && n.NewerNoncurrentVersions == nil:
		return newError(MalformedXML, "lifecycle rule %q: a NoncurrentVersionExpiration has NoncurrentDays", r.ID)
	// NewerNoncurrentVersions keeps versions from NoncurrentDays' deletion;
	// alone it is refused ("testing AWS S3 behavior, NoncurrentDays is a
	// required value", scality/Arsenal#2085). AWS's code is not recorded.
	case n.NoncurrentDays == nil:
		return newError(MalformedXML, "lifecycle rule %q: NewerNoncurrentVersions needs NoncurrentDays beside it in a NoncurrentVersionExpiration", r.ID)
	case *n.NoncurrentDays <= 0:
		return errInvalidArgument("NoncurrentDays", strconv.Itoa(*n.NoncurrentDays), "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer")
	}
	return checkNewer(r, n.NewerNoncurrentVersions)
}

func (r LifecycleRule) checkAbort() error {
	a := r.AbortIncompleteMultipartUpload
	switch {
	case a == nil:
		return nil
	case a.DaysAfterInitiation <= 0:
		return errInvalidArgument("DaysAfterInitiation", strconv.Itoa(a.DaysAfterInitiation), "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer")
	case r.Filter.hasTags():
		return newError(InvalidRequest, "AbortIncompleteMultipartUpload cannot be specified with Tags.")
	case r.Filter.hasSizes():
		return newError(InvalidRequest, "AbortIncompleteMultipartUpload cannot be specified with Object Size.")
	}
	return nil
}

func (r LifecycleRule) checkTransitions() error {
	for _, t := range r.Transitions {
		switch {
		case (t.Days == nil) == (t.Date == nil):
			return newError(MalformedXML, "lifecycle rule %q: a Transition has Days or Date", r.ID)
		case t.Days != nil && *t.Days < 0:
			return errInvalidArgument("Days", strconv.Itoa(*t.Days), "'Days' for Transition action must be a nonnegative integer")
		case t.Date != nil && !validDate(*t.Date):
			return errInvalidArgument("Date", fmt.Sprint(*t.Date), "'Date' must be at midnight GMT")
		}
		days := -1
		if t.Days != nil {
			days = *t.Days
		}
		if err := checkTransitionClass(t.StorageClass, days, "Days", "Transition"); err != nil {
			return err
		}
	}
	return nil
}

func (r LifecycleRule) checkNoncurrentTransitions() error {
	for _, t := range r.NoncurrentVersionTransitions {
		if t.NoncurrentDays < 0 {
			return errInvalidArgument("NoncurrentDays", strconv.Itoa(t.NoncurrentDays), "'NoncurrentDays' for NoncurrentVersionTransition action must be a nonnegative integer")
		}
		if err := checkTransitionClass(t.StorageClass, t.NoncurrentDays, "NoncurrentDays", "NoncurrentVersionTransition"); err != nil {
			return err
		}
		if err := checkNewer(r, t.NewerNoncurrentVersions); err != nil {
			return err
		}
	}
	return nil
}

// checkDaysOrDates: a rule's expiration and transitions count days, or
// fall on dates, never both: "you can't use both Date and Days in the same
// rule" (AWS user guide, "Examples of S3 Lifecycle configurations"), with
// S3's messages as scality/Arsenal, which copies AWS's answers, has them.
func (r LifecycleRule) checkDaysOrDates() error {
	days, dates := 0, 0
	for _, t := range r.Transitions {
		if t.Date != nil {
			dates++
		} else {
			days++
		}
	}
	if days > 0 && dates > 0 {
		return newError(InvalidRequest, "Found mixed 'Date' and 'Days' based Transition actions in lifecycle rule for filter '%s'", r.filterText())
	}
	if e := r.Expiration; e != nil && (e.Days != nil && dates > 0 || e.Date != nil && days > 0) {
		return newError(InvalidRequest, "Found mixed 'Date' and 'Days' based Expiration and Transition actions in lifecycle rule for filter '%s'", r.filterText())
	}
	return nil
}

// checkClassesDiffer: two transitions of a rule never go to the same
// storage class.
func (r LifecycleRule) checkClassesDiffer() error {
	differ := func(action string, classes []string) error {
		seen := make(map[string]bool, len(classes))
		for _, class := range classes {
			if seen[class] {
				return newError(InvalidRequest, "'StorageClass' must be different for '%s' actions in same 'Rule' with filter '%s'", action, r.filterText())
			}
			seen[class] = true
		}
		return nil
	}
	classes := func(steps []transitionStep) []string {
		out := make([]string, len(steps))
		for i, s := range steps {
			out[i] = s.class
		}
		return out
	}
	if err := differ("Transition", classes(r.transitionSteps())); err != nil {
		return err
	}
	return differ("NoncurrentVersionTransition", classes(r.noncurrentTransitionSteps()))
}

// checkTransitionOrder: a rule's transitions go down S3's waterfall of
// storage classes, each later than the one before it and at least that
// class's minimumStay after it ("Amazon S3 supports a waterfall model for
// transitioning between storage classes", AWS user guide, "Transitioning
// objects using Amazon S3 Lifecycle"). S3's message for too short a stay
// is recorded as it is below, quotes and all; for a colder class not later
// than a warmer one, its message is not recorded.
func (r LifecycleRule) checkTransitionOrder() error {
	inOrder := func(action, field string, steps []transitionStep) error {
		slices.SortStableFunc(steps, func(x, y transitionStep) int { return coldness(x.class) - coldness(y.class) })
		for i := 1; i < len(steps); i++ {
			warmer, colder := steps[i-1], steps[i]
			if colder.day <= warmer.day {
				return errInvalidArgument(field, fmt.Sprint(colder.day),
					"'%s' in the '%s' action for StorageClass '%s' for filter '%s' must be greater than '%s' in the '%s' action for StorageClass '%s' for filter '%s'",
					field, action, colder.class, r.filterText(), field, action, warmer.class, r.filterText())
			}
			if stay := minimumStay(warmer.class); colder.day-warmer.day < float64(stay) {
				return errInvalidArgument(field, fmt.Sprint(colder.day),
					"'%s' in the '%s' action for StorageClass '%s' for filter '%s' must be %d days more than 'filter '%s'' in the '%s' action for StorageClass '%s'",
					field, action, colder.class, r.filterText(), stay, r.filterText(), action, warmer.class)
			}
		}
		return nil
	}
	field := "Days"
	if slices.ContainsFunc(r.Transitions, func(t LifecycleTransition) bool { return t.Date != nil }) {
		field = "Date"
	}
	if err := inOrder("Transition", field, r.transitionSteps()); err != nil {
		return err
	}
	return inOrder("NoncurrentVersionTransition", "NoncurrentDays", r.noncurrentTransitionSteps())
}

// checkExpirationComesLast: an expiration comes after every transition of
// its rule, strictly; so does a noncurrent version's. S3's answers,
// recorded in Terraform's logs and aws-sdk-net's LifecycleTests; for
// Dates, not recorded.
func (r LifecycleRule) checkExpirationComesLast() error {
	if e := r.Expiration; e != nil {
		for _, t := range r.Transitions {
			switch {
			case e.Days != nil && t.Days != nil && *e.Days <= *t.Days:
				return errInvalidArgument("Days", strconv.Itoa(*e.Days),
					"'Days' in the Expiration action for filter '%s' must be greater than 'Days' in the Transition action", r.filterText())
			case e.Date != nil && t.Date != nil && *e.Date <= *t.Date:
				return errInvalidArgument("Date", fmt.Sprint(*e.Date),
					"'Date' in the Expiration action for filter '%s' must be greater than 'Date' in the Transition action", r.filterText())
			}
		}
	}
	if n := r.NoncurrentVersionExpiration; n != nil && n.NoncurrentDays != nil {
		for _, t := range r.NoncurrentVersionTransitions {
			if *n.NoncurrentDays <= t.NoncurrentDays {
				return errInvalidArgument("NoncurrentDays", strconv.Itoa(*n.NoncurrentDays),
					"'NoncurrentDays' in the NoncurrentVersionExpiration action for filter '%s' must be greater than 'NoncurrentDays' in the NoncurrentVersionTransition action", r.filterText())
			}
		}
	}
	return nil
}

// transitionStep is a transition's storage class and when it moves an
// object there, in days: after creation, after becoming noncurrent, or
// since the Unix epoch for a Date.
type transitionStep struct {
	class string
	day   float64
}

func (r LifecycleRule) transitionSteps() []transitionStep {
	out := make([]transitionStep, len(r.Transitions))
	for i, t := range r.Transitions {
		out[i].class = t.StorageClass
		if t.Days != nil {
			out[i].day = float64(*t.Days)
		} else {
			out[i].day = *t.Date / SecondsPerDay
		}
	}
	return out
}

func (r LifecycleRule) noncurrentTransitionSteps() []transitionStep {
	out := make([]transitionStep, len(r.NoncurrentVersionTransitions))
	for i, t := range r.NoncurrentVersionTransitions {
		out[i] = transitionStep{class: t.StorageClass, day: float64(t.NoncurrentDays)}
	}
	return out
}

// filterText is how S3's messages name a rule's filter: "(prefix=logs/)",
// "(prefix=logs/ and objectsizelessthan=1024)", "()" for an empty Filter.
// A legacy Prefix reads as a Filter of that prefix.
func (r LifecycleRule) filterText() string {
	if r.Prefix != nil {
		return "(prefix=" + *r.Prefix + ")"
	}
	f := r.Filter
	prefix, gt, lt := f.Prefix, f.ObjectSizeGreaterThan, f.ObjectSizeLessThan
	if a := f.And; a != nil {
		prefix, gt, lt = a.Prefix, a.ObjectSizeGreaterThan, a.ObjectSizeLessThan
	}
	var parts []string
	if prefix != nil {
		parts = append(parts, "prefix="+*prefix)
	}
	for _, t := range f.Tags() {
		parts = append(parts, fmt.Sprintf("tag={key=%s, value=%s}", t.Key, t.Value))
	}
	if gt != nil {
		parts = append(parts, fmt.Sprintf("objectsizegreaterthan=%d", *gt))
	}
	if lt != nil {
		parts = append(parts, fmt.Sprintf("objectsizelessthan=%d", *lt))
	}
	return "(" + strings.Join(parts, " and ") + ")"
}

// oneVersion: a configuration's rules all select by the legacy Prefix
// ("Lifecycle V1") or all by a Filter ("V2"), as the first rule does. S3's
// answers, recorded in go-to-k/cdkd#936 and terraform-provider-aws#23299.
func oneVersion(first, r LifecycleRule) error {
	switch {
	case first.Prefix != nil && r.Filter != nil:
		return newError(InvalidRequest, "Filter element can only be used in Lifecycle V2.")
	case first.Filter != nil && r.Prefix != nil:
		return newError(InvalidRequest, "Base level prefix cannot be used in Lifecycle V2, prefixes are only supported in the Filter.")
	}
	return nil
}

// checkLegacyOverlaps: in a configuration of legacy Prefix rules, two
// rules whose prefixes overlap (one starts with the other) never take the
// same kind of action. S3's answer, recorded in ceph/ceph#23668 and
// noobaa-core#8341; a Filter's rules may overlap (AWS user guide, "How
// Amazon S3 handles conflicts in lifecycle configurations", Example 3).
func (c LifecycleConfiguration) checkLegacyOverlaps() error {
	for i, a := range c.Rules {
		for _, b := range c.Rules[i+1:] {
			if a.Prefix == nil || b.Prefix == nil {
				continue
			}
			shorter, longer := *a.Prefix, *b.Prefix
			if len(longer) < len(shorter) {
				shorter, longer = longer, shorter
			}
			if !strings.HasPrefix(longer, shorter) {
				continue
			}
			for _, action := range a.actionNames() {
				if slices.Contains(b.actionNames(), action) {
					return newError(InvalidRequest, "Found overlapping prefixes '%s' and '%s' for same action type '%s'", shorter, longer, action)
				}
			}
		}
	}
	return nil
}

// actionNames are the names of the kinds of action the rule takes.
func (r LifecycleRule) actionNames() []string {
	var out []string
	for _, a := range []struct {
		name  string
		given bool
	}{
		{"Expiration", r.Expiration != nil},
		{"Transition", len(r.Transitions) > 0},
		{"NoncurrentVersionExpiration", r.NoncurrentVersionExpiration != nil},
		{"NoncurrentVersionTransition", len(r.NoncurrentVersionTransitions) > 0},
		{"AbortIncompleteMultipartUpload", r.AbortIncompleteMultipartUpload != nil},
	} {
		if a.given {
			out = append(out, a.name)
		}
	}
	return out
}

// checkNewer checks a NewerNoncurrentVersions: 1 to 100, and only in a rule
// with a Filter.
func checkNewer(r LifecycleRule, newer *int) error {
	switch {
	case newer == nil:
		return nil
	case *newer < 1 || *newer > 100:
		return errInvalidArgument("NewerNoncurrentVersions", strconv.Itoa(*newer), "'NewerNoncurrentVersions' must be an integer from 1 to 100")
	case r.Prefix != nil:
		return newError(InvalidRequest, "NewerNoncurrentVersions element can only be used in Lifecycle V2.")
	}
	return nil
}

// checkTransitionClass checks a transition's storage class, and the 30 days
// an object must have spent where it was before S3 moves it to an
// infrequent-access class (days < 0: a transition on a Date).
func checkTransitionClass(class string, days int, field, action string) error {
	if coldness(class) <= 0 {
		return errInvalidArgument("StorageClass", class, "The storage class you specified in %s is not valid: use one of %v", action, StorageClasses)
	}
	if (class == "STANDARD_IA" || class == "ONEZONE_IA") && days >= 0 && days < 30 {
		return errInvalidArgument(field, strconv.Itoa(days), "'%s' in %s action must be greater than or equal to 30 for storageClass '%s'", field, action, class)
	}
	return nil
}

// validDate reports whether t is a lifecycle Date: a midnight UTC in the
// years 1 to 9999 [ref §5.3; DESIGN, "Clock"].
func validDate(t float64) bool {
	return inYears(t) && math.Mod(t, SecondsPerDay) == 0
}

// validUTF8 reports whether the rule's ID, prefixes and tags are UTF-8, as
// the XML and JSON it comes in and is stored as must be. (Its storage
// classes are checked against StorageClasses.)
func (r LifecycleRule) validUTF8() bool {
	text := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	texts := []string{r.ID, text(r.Prefix)}
	if f := r.Filter; f != nil {
		texts = append(texts, text(f.Prefix))
		if f.And != nil {
			texts = append(texts, text(f.And.Prefix))
		}
		for _, t := range f.Tags() {
			texts = append(texts, t.Key, t.Value)
		}
	}
	return !slices.ContainsFunc(texts, func(s string) bool { return !utf8.ValidString(s) })
}

// MaxObjectSizeBound is the largest size a lifecycle filter may name.
const MaxObjectSizeBound = 1099511627776000

// validate checks a filter's shape: at most one predicate outside And, two
// or more inside it, distinct tag keys; and its sizes: within S3's bounds
// (its answer recorded in terraform-provider-aws#41521), with room between
// them.
func (f *LifecycleFilter) validate(rule string) error {
	if f == nil {
		return nil
	}
	malformed := func(why string) error { return newError(MalformedXML, "lifecycle rule %q: %s", rule, why) }
	given := 0
	for _, set := range []bool{f.Prefix != nil, f.Tag != nil, f.ObjectSizeGreaterThan != nil, f.ObjectSizeLessThan != nil, f.And != nil} {
		if set {
			given++
		}
	}
	if given > 1 {
		return malformed("a Filter has one predicate; combine several in And")
	}
	gt, lt := f.ObjectSizeGreaterThan, f.ObjectSizeLessThan
	if a := f.And; a != nil {
		n := len(a.Tags)
		for _, set := range []bool{a.Prefix != nil, a.ObjectSizeGreaterThan != nil, a.ObjectSizeLessThan != nil} {
			if set {
				n++
			}
		}
		if n < 2 {
			return malformed("an And has two or more predicates")
		}
		keys := map[string]bool{}
		for _, t := range a.Tags {
			if keys[t.Key] {
				return newError(InvalidRequest, "Duplicate Tag Keys are not allowed.")
			}
			keys[t.Key] = true
		}
		gt, lt = a.ObjectSizeGreaterThan, a.ObjectSizeLessThan
	}
	switch {
	case gt != nil && (*gt < 0 || *gt > MaxObjectSizeBound):
		return newError(InvalidRequest, "'ObjectSizeGreaterThan' should be between 0 and %d.", MaxObjectSizeBound)
	case lt != nil && (*lt < 1 || *lt > MaxObjectSizeBound):
		return newError(InvalidRequest, "'ObjectSizeLessThan' should be between 1 and %d.", MaxObjectSizeBound)
	case gt != nil && lt != nil && *gt >= *lt:
		return newError(InvalidRequest, "'ObjectSizeLessThan' has to be a value greater than 'ObjectSizeGreaterThan'.")
	}
	return nil
}

func (f *LifecycleFilter) hasTags() bool {
	return f != nil && (f.Tag != nil || f.And != nil && len(f.And.Tags) > 0)
}

func (f *LifecycleFilter) hasSizes() bool {
	return f != nil && (f.ObjectSizeGreaterThan != nil || f.ObjectSizeLessThan != nil ||
		f.And != nil && (f.And.ObjectSizeGreaterThan != nil || f.And.ObjectSizeLessThan != nil))
}
