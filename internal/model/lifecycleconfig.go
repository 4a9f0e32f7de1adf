package model

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// LifecycleConfiguration is a bucket's stored S3 lifecycle configuration
// [ref §5.1], in the shape of S3's document [ref §5.2]: a field is nil
// when the document leaves its element out, so that it reads back as it
// was written.
type LifecycleConfiguration struct {
	Rules []LifecycleRule
}

// LifecycleRule is one rule: what it selects (the legacy top-level Prefix
// or a Filter) and its actions.
type LifecycleRule struct {
	ID      string
	Enabled bool             // Status Enabled; false is Disabled
	Prefix  *string          `json:",omitempty"`
	Filter  *LifecycleFilter `json:",omitempty"`

	Expiration                     *Expiration                     `json:",omitempty"`
	NoncurrentVersionExpiration    *NoncurrentVersionExpiration    `json:",omitempty"`
	AbortIncompleteMultipartUpload *AbortIncompleteMultipartUpload `json:",omitempty"`
	Transitions                    []Transition                    `json:",omitempty"`
	NoncurrentVersionTransitions   []NoncurrentVersionTransition   `json:",omitempty"`
}

// LifecycleFilter is a rule's Filter: no predicate (the whole bucket),
// one, or several in And.
type LifecycleFilter struct {
	Prefix                *string       `json:",omitempty"`
	Tag                   *Tag          `json:",omitempty"`
	ObjectSizeGreaterThan *int64        `json:",omitempty"`
	ObjectSizeLessThan    *int64        `json:",omitempty"`
	And                   *LifecycleAnd `json:",omitempty"`
}

// LifecycleAnd holds predicates that must all hold.
type LifecycleAnd struct {
	Prefix                *string `json:",omitempty"`
	Tags                  []Tag   `json:",omitempty"`
	ObjectSizeGreaterThan *int64  `json:",omitempty"`
	ObjectSizeLessThan    *int64  `json:",omitempty"`
}

// Expiration is a rule's Expiration: Days, Date (seconds since the Unix
// epoch) or ExpiredObjectDeleteMarker.
type Expiration struct {
	Days                      *int     `json:",omitempty"`
	Date                      *float64 `json:",omitempty"`
	ExpiredObjectDeleteMarker *bool    `json:",omitempty"`
}

// NoncurrentVersionExpiration deletes noncurrent versions.
type NoncurrentVersionExpiration struct {
	NoncurrentDays          *int `json:",omitempty"`
	NewerNoncurrentVersions *int `json:",omitempty"`
}

// AbortIncompleteMultipartUpload aborts uploads left in progress.
type AbortIncompleteMultipartUpload struct {
	DaysAfterInitiation int
}

// Transition moves current versions to another storage class, Days after
// their creation or from Date on.
type Transition struct {
	Days         *int     `json:",omitempty"`
	Date         *float64 `json:",omitempty"`
	StorageClass string
}

// NoncurrentVersionTransition moves noncurrent versions to another
// storage class.
type NoncurrentVersionTransition struct {
	NoncurrentDays          int
	StorageClass            string
	NewerNoncurrentVersions *int `json:",omitempty"`
}

// TransitionClasses are the storage classes a transition may name, from
// the dearest to the cheapest to keep: STANDARD is where every object
// starts, and an object only moves down this list [S3 UG
// lifecycle-transition-general-considerations: the waterfall of supported
// transitions; ref §5.7: "the cheaper class wins (Glacier beats
// Standard-IA)"].
var TransitionClasses = []string{"STANDARD_IA", "INTELLIGENT_TIERING", "ONEZONE_IA", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"}

// cheapness is a storage class's place: 0 for STANDARD (""), then 1, 2,
// ... down TransitionClasses; -1 for a class S3 has not got.
func cheapness(class string) int {
	if class == "" || class == "STANDARD" {
		return 0
	}
	i := slices.Index(TransitionClasses, class)
	if i < 0 {
		return -1
	}
	return i + 1
}

// prefix is the key prefix the rule selects by, wherever the document puts
// it; "" selects every key [ref §5.4].
func (r LifecycleRule) prefix() string {
	f := r.Filter
	switch {
	case r.Prefix != nil:
		return *r.Prefix
	case f != nil && f.Prefix != nil:
		return *f.Prefix
	case f != nil && f.And != nil && f.And.Prefix != nil:
		return *f.And.Prefix
	}
	return ""
}

// tags are the tags the rule's filter requires.
func (r LifecycleRule) tags() []Tag {
	switch f := r.Filter; {
	case f == nil:
		return nil
	case f.Tag != nil:
		return []Tag{*f.Tag}
	case f.And != nil:
		return f.And.Tags
	}
	return nil
}

// sizes are the bounds of the rule's size filter, nil where it has none.
func (r LifecycleRule) sizes() (greaterThan, lessThan *int64) {
	switch f := r.Filter; {
	case f == nil:
		return nil, nil
	case f.And != nil:
		return f.And.ObjectSizeGreaterThan, f.And.ObjectSizeLessThan
	}
	return r.Filter.ObjectSizeGreaterThan, r.Filter.ObjectSizeLessThan
}

// PutBucketLifecycle replaces the bucket's configuration [ref §5.1] after
// checking it [ref §5.3]. A rule without an ID gets "rule-N", the first N
// no rule has [DIFFERENCES: IDs are rule-N].
func (s *Store) PutBucketLifecycle(bucket string, c LifecycleConfiguration) error {
	b, err := s.bucket(bucket)
	if err != nil {
		return err
	}
	if err := checkConfiguration(c); err != nil {
		return err
	}
	stored := LifecycleConfiguration{Rules: slices.Clone(c.Rules)}
	taken := map[string]bool{}
	for _, r := range stored.Rules {
		taken[r.ID] = true
	}
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
	return LifecycleConfiguration{Rules: slices.Clone(b.Lifecycle.Rules)}, nil
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

// checkConfiguration applies S3's checks [ref §5.3], with S3's codes: a
// document of the wrong shape is MalformedXML, a value out of range
// InvalidArgument, a combination S3 forbids InvalidRequest. The table's
// rows, in its order:
func checkConfiguration(c LifecycleConfiguration) error {
	// "more than 1000 rules", "zero rules" [DIFFERENCES: InvalidArgument].
	if len(c.Rules) == 0 || len(c.Rules) > 1000 {
		return invalidArgument("a lifecycle configuration holds 1 to 1000 rules")
	}
	ids := map[string]bool{}
	for _, r := range c.Rules {
		switch {
		case len(r.ID) > 255: // "ID longer than 255"
			return invalidArgument("rule ID longer than 255 characters")
		case r.ID != "" && ids[r.ID]: // "two rules with the same ID"
			return invalidArgument("rule ID " + r.ID + " used twice")
		}
		ids[r.ID] = true
		if err := checkRule(r); err != nil {
			return err
		}
		// One form in a configuration: a legacy Prefix in the first rule
		// makes it "Lifecycle V1", a Filter "V2" [S3's answers, recorded in
		// go-to-k/cdkd#936: "Filter element can only be used in Lifecycle
		// V2."; terraform-provider-aws#23299: "Base level prefix cannot be
		// used in Lifecycle V2, ..."].
		if (r.Prefix != nil) != (c.Rules[0].Prefix != nil) {
			return invalidRequest("legacy Prefix rules and Filter rules in one configuration")
		}
	}
	return checkOverlaps(c.Rules)
}

// checkOverlaps: in a configuration of legacy Prefix rules, two rules whose
// prefixes overlap take no action of the same kind [S3's answer, recorded
// in ceph/ceph#23668 and noobaa-core#8341: "Found overlapping prefixes
// 'foo/bar' and 'foo/bar/buu' for same action type 'Expiration'"]. Filter
// rules may overlap [AWS UG lifecycle-conflicts, Example 3].
func checkOverlaps(rules []LifecycleRule) error {
	kinds := func(r LifecycleRule) []bool {
		return []bool{r.Expiration != nil, r.Transitions != nil, r.NoncurrentVersionExpiration != nil,
			r.NoncurrentVersionTransitions != nil, r.AbortIncompleteMultipartUpload != nil}
	}
	for i, a := range rules {
		for _, b := range rules[:i] {
			if a.Prefix == nil || b.Prefix == nil {
				continue
			}
			p, q := *a.Prefix, *b.Prefix
			if !strings.HasPrefix(p, q) && !strings.HasPrefix(q, p) {
				continue
			}
			ka, kb := kinds(a), kinds(b)
			for k := range ka {
				if ka[k] && kb[k] {
					return invalidRequest("legacy rules with overlapping prefixes take the same action")
				}
			}
		}
	}
	return nil
}

func malformed(why string) error { return errorf("MalformedXML", why) }

func invalidRequest(why string) error { return errorf("InvalidRequest", why) }

func checkRule(r LifecycleRule) error {
	// "rule with neither <Filter> nor <Prefix>", "<Prefix> and <Filter> in
	// the same rule".
	if (r.Prefix == nil) == (r.Filter == nil) {
		return malformed("a rule has a Filter or a Prefix, and not both")
	}
	if err := checkFilter(r.Filter); err != nil {
		return err
	}
	if err := checkSizes(r); err != nil {
		return err
	}
	// "rule with no action at all" [S3's answer, recorded in
	// crossplane-contrib/provider-aws#1337: "InvalidRequest: At least one
	// action needs to be specified in a rule"].
	if r.Expiration == nil && r.NoncurrentVersionExpiration == nil && r.AbortIncompleteMultipartUpload == nil &&
		len(r.Transitions) == 0 && len(r.NoncurrentVersionTransitions) == 0 {
		return invalidRequest("At least one action needs to be specified in a rule")
	}
	gt, lt := r.sizes()
	tagged, sized := len(r.tags()) > 0, gt != nil || lt != nil
	if e := r.Expiration; e != nil {
		switch {
		// "Expiration with Days and Date together, or with neither",
		// "ExpiredObjectDeleteMarker together with Days/Date".
		case count(e.Days != nil, e.Date != nil, e.ExpiredObjectDeleteMarker != nil) != 1:
			return malformed("an Expiration has one of Days, Date and ExpiredObjectDeleteMarker")
		case e.Days != nil && *e.Days <= 0: // "Expiration Days = 0 (or negative)"
			return invalidArgument("Expiration Days must be positive")
		case e.Date != nil && !atMidnight(*e.Date): // "Date not at 00:00:00 UTC"
			return invalidArgument("'Date' must be at midnight GMT")
		case e.ExpiredObjectDeleteMarker != nil && tagged:
			// "ExpiredObjectDeleteMarker in a rule with a tag filter" [AWS
			// UG intro-lifecycle-rules: "You cannot specify this Lifecycle
			// action in a rule that specifies a filter based on object
			// tags"]: the code AWS gives AbortIncompleteMultipartUpload
			// there, true or false.
			return invalidRequest("ExpiredObjectDeleteMarker cannot be specified with Tags")
		case e.ExpiredObjectDeleteMarker != nil && sized:
			// And with a size filter [cloudposse/terraform-aws-s3-bucket#137,
			// relayed: "ExpiredObjectDeleteMarker cannot be specified with
			// Object Size."].
			return invalidRequest("ExpiredObjectDeleteMarker cannot be specified with Object Size")
		}
	}
	if n := r.NoncurrentVersionExpiration; n != nil {
		switch {
		// "with neither child"; with NewerNoncurrentVersions alone too
		// [scality/Arsenal#2085: "testing AWS S3 behavior, NoncurrentDays is
		// a required value"; AWS's code not recorded: the schema's].
		case n.NoncurrentDays == nil:
			return malformed("a NoncurrentVersionExpiration needs NoncurrentDays")
		case *n.NoncurrentDays <= 0: // "NoncurrentDays 0 or negative"
			return invalidArgument("NoncurrentDays must be positive")
		}
		if err := checkNewer(r, n.NewerNoncurrentVersions); err != nil {
			return err
		}
	}
	if a := r.AbortIncompleteMultipartUpload; a != nil {
		switch {
		case a.DaysAfterInitiation <= 0:
			return invalidArgument("DaysAfterInitiation must be positive")
		case tagged: // "AbortIncompleteMultipartUpload in a rule with a tag filter"
			return invalidRequest("AbortIncompleteMultipartUpload cannot be specified with Tags")
		case sized: // "(or a size filter)"
			return invalidRequest("AbortIncompleteMultipartUpload cannot be specified with Object Size")
		}
	}
	for _, t := range r.Transitions {
		switch {
		case (t.Days == nil) == (t.Date == nil):
			return malformed("a Transition has Days or Date")
		case t.Days != nil && *t.Days < 0: // Transition Days ≥ 0 [ref §5.2]
			return invalidArgument("Transition Days must not be negative")
		case t.Date != nil && !atMidnight(*t.Date):
			return invalidArgument("'Date' must be at midnight GMT")
		}
		if err := checkClass(t.StorageClass, t.Days); err != nil {
			return err
		}
	}
	for _, t := range r.NoncurrentVersionTransitions {
		if t.NoncurrentDays < 0 {
			return invalidArgument("NoncurrentDays must not be negative")
		}
		if err := checkClass(t.StorageClass, &t.NoncurrentDays); err != nil {
			return err
		}
		if err := checkNewer(r, t.NewerNoncurrentVersions); err != nil {
			return err
		}
	}
	return checkActionsTogether(r)
}

// checkActionsTogether checks a rule's actions against each other.
func checkActionsTogether(r LifecycleRule) error {
	// Days or Dates, not both [AWS UG lifecycle-configuration-examples:
	// "you can't use both Date and Days in the same rule"; S3's message
	// "Found mixed 'Date' and 'Days' based ... actions", as scality/Arsenal
	// copies it].
	var byDays, byDate bool
	for _, t := range r.Transitions {
		byDays, byDate = byDays || t.Days != nil, byDate || t.Date != nil
	}
	if x := r.Expiration; x != nil {
		byDays, byDate = byDays || x.Days != nil, byDate || x.Date != nil
	}
	if byDays && byDate {
		return invalidRequest("Date and Days mixed in a rule's actions")
	}
	// Each class once [S3's message, as scality/Arsenal copies it:
	// "'StorageClass' must be different for 'Transition' actions in same
	// 'Rule'"].
	current, noncurrent := map[string]int{}, map[string]int{}
	for _, t := range r.Transitions {
		current[t.StorageClass]++
	}
	for _, t := range r.NoncurrentVersionTransitions {
		noncurrent[t.StorageClass]++
	}
	for _, n := range append(slices.Collect(maps.Values(current)), slices.Collect(maps.Values(noncurrent))...) {
		if n > 1 {
			return invalidRequest("one storage class twice in a rule's transitions")
		}
	}
	// Down the waterfall, later for each colder class, and after a stay in
	// the class before it: 30 days in STANDARD_IA or ONEZONE_IA [AWS UG
	// lifecycle-transition-general-considerations], 90 in GLACIER_IR or
	// GLACIER [S3's answer in Terraform's logs: "must be 90 days more
	// than ... for StorageClass 'GLACIER'"].
	if err := checkWaterfall(currentSteps(r.Transitions)); err != nil {
		return err
	}
	steps := make([]step, len(r.NoncurrentVersionTransitions))
	for i, t := range r.NoncurrentVersionTransitions {
		steps[i] = step{t.StorageClass, float64(t.NoncurrentDays)}
	}
	if err := checkWaterfall(steps); err != nil {
		return err
	}
	// The expiration after every transition [S3's answers, recorded in
	// Terraform's logs: "'Days' in the Expiration action for filter
	// '(prefix=)' must be greater than 'Days' in the Transition action";
	// "'NoncurrentDays' in the NoncurrentVersionExpiration action ... must
	// be greater than 'NoncurrentDays' in the NoncurrentVersionTransition
	// action"].
	if x := r.Expiration; x != nil && (x.Days != nil || x.Date != nil) {
		var end float64 // in days, as a step's
		if x.Days != nil {
			end = float64(*x.Days)
		} else {
			end = *x.Date / day
		}
		for _, s := range currentSteps(r.Transitions) {
			if end <= s.day {
				return invalidArgument("the Expiration must come after every Transition")
			}
		}
	}
	if x := r.NoncurrentVersionExpiration; x != nil && x.NoncurrentDays != nil {
		for _, t := range r.NoncurrentVersionTransitions {
			if *x.NoncurrentDays <= t.NoncurrentDays {
				return invalidArgument("the NoncurrentVersionExpiration must come after every NoncurrentVersionTransition")
			}
		}
	}
	return nil
}

// step is where a transition moves a version, and on which day: its Days,
// or its Date in days since the Unix epoch.
type step struct {
	class string
	day   float64
}

func currentSteps(ts []Transition) []step {
	out := make([]step, len(ts))
	for i, t := range ts {
		out[i].class = t.StorageClass
		if t.Days != nil {
			out[i].day = float64(*t.Days)
		} else {
			out[i].day = *t.Date / day
		}
	}
	return out
}

// checkWaterfall: of any two steps, the one to the cheaper class comes
// at least a day later, and at least the other class's stay later.
func checkWaterfall(steps []step) error {
	stay := map[string]float64{"STANDARD_IA": 30, "ONEZONE_IA": 30, "GLACIER_IR": 90, "GLACIER": 90}
	for _, a := range steps {
		for _, b := range steps {
			if cheapness(b.class) > cheapness(a.class) && b.day-a.day < max(1, stay[a.class]) {
				return invalidArgument(b.class + " comes too soon after " + a.class)
			}
		}
	}
	return nil
}

// checkFilter: "two predicates directly in <Filter>", "<And> with fewer
// than 2 predicates" (MinIO's MalformedXML), "duplicate tag keys in
// <And>", "ObjectSizeGreaterThan ≥ ObjectSizeLessThan inside And" (a
// value out of range: InvalidArgument).
func checkFilter(f *LifecycleFilter) error {
	if f == nil {
		return nil
	}
	if count(f.Prefix != nil, f.Tag != nil, f.ObjectSizeGreaterThan != nil, f.ObjectSizeLessThan != nil, f.And != nil) > 1 {
		return malformed("a Filter has one predicate; several go in And")
	}
	a := f.And
	if a == nil {
		return nil
	}
	if len(a.Tags)+count(a.Prefix != nil, a.ObjectSizeGreaterThan != nil, a.ObjectSizeLessThan != nil) < 2 {
		return malformed("an And has two predicates or more")
	}
	keys := map[string]bool{}
	for _, t := range a.Tags {
		if keys[t.Key] {
			return invalidRequest("Duplicate Tag Keys are not allowed.")
		}
		keys[t.Key] = true
	}
	if gt, lt := a.ObjectSizeGreaterThan, a.ObjectSizeLessThan; gt != nil && lt != nil && *gt >= *lt {
		return invalidRequest("'ObjectSizeLessThan' has to be a value greater than 'ObjectSizeGreaterThan'.")
	}
	return nil
}

// checkSizes: a size filter's bounds are within S3's [S3's answer, recorded
// in terraform-provider-aws#41521: "'ObjectSizeLessThan' should be between
// 1 and 1099511627776000."; the same range from 0 for
// ObjectSizeGreaterThan].
func checkSizes(r LifecycleRule) error {
	const most = 1099511627776000
	gt, lt := r.sizes()
	if gt != nil && (*gt < 0 || *gt > most) || lt != nil && (*lt < 1 || *lt > most) {
		return invalidRequest("an object size out of S3's range")
	}
	return nil
}

// checkNewer: NewerNoncurrentVersions is 1 to 100 [ref §5.2], and "with
// the legacy top-level <Prefix>" InvalidRequest [ref §5.3].
func checkNewer(r LifecycleRule, newer *int) error {
	switch {
	case newer == nil:
		return nil
	case *newer < 1 || *newer > 100:
		return invalidArgument("NewerNoncurrentVersions must be 1 to 100")
	case r.Prefix != nil:
		return invalidRequest("NewerNoncurrentVersions element can only be used in Lifecycle V2.")
	}
	return nil
}

// checkClass: a transition names a class other than STANDARD, and moves
// nothing to an infrequent-access class before 30 days [S3 UG
// lifecycle-transition-general-considerations: objects stay in STANDARD
// at least 30 days before they move to STANDARD_IA or ONEZONE_IA; AWS
// refuses Days below 30 there with InvalidArgument]. days is nil for a
// transition on a Date.
func checkClass(class string, days *int) error {
	if cheapness(class) <= 0 {
		return invalidArgument("a transition cannot go to storage class " + class)
	}
	if (class == "STANDARD_IA" || class == "ONEZONE_IA") && days != nil && *days < 30 {
		return invalidArgument("Days must be at least 30 for storage class " + class)
	}
	return nil
}

func atMidnight(t float64) bool {
	return !math.IsInf(t, 0) && math.Mod(t, day) == 0
}

// count is how many of the conditions hold.
func count(conditions ...bool) int {
	n := 0
	for _, c := range conditions {
		if c {
			n++
		}
	}
	return n
}
