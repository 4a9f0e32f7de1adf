package web

import (
	"net/http"
	"strconv"
	"strings"

	"minis3/core"
)

// The lifecycle configuration document as clients send it. Every element of
// S3's schema has a field, so that elements MiniS3 does not execute can be
// refused by name; anything else sets Other and is MalformedXML. The
// elements MiniS3 refuses are only noticed. An element given twice where
// one is expected counts once, as xml.Unmarshal, which read the document
// before, counted it: the last string wins, and the children of a repeated
// Filter, Expiration or NoncurrentVersionExpiration add up.
type lifecycleXML struct {
	Rules []ruleXML
	Other bool
}

type ruleXML struct {
	ID, Status, Prefix                                                      *string
	Filter                                                                  *filterXML
	Expiration                                                              *expirationXML
	NoncurrentVersionExpiration                                             *noncurrentXML
	Transition, NoncurrentVersionTransition, AbortIncompleteMultipartUpload bool
	Other                                                                   bool
}

type filterXML struct {
	Prefix                                              *string
	Tag, And, ObjectSizeGreaterThan, ObjectSizeLessThan bool
	Other                                               bool
}

type expirationXML struct {
	Days                                   *string
	Date, ExpiredObjectDeleteMarker, Other bool
}

type noncurrentXML struct {
	NoncurrentDays                 *string
	NewerNoncurrentVersions, Other bool
}

// decodeLifecycle reads a LifecycleConfiguration document.
func decodeLifecycle(body []byte) (lifecycleXML, error) {
	doc, err := parseXML(body, "LifecycleConfiguration")
	if err != nil {
		return lifecycleXML{}, err
	}
	var lc lifecycleXML
	for _, e := range doc.children {
		if e.name == "Rule" {
			lc.Rules = append(lc.Rules, ruleElement(e))
		} else {
			lc.Other = true
		}
	}
	return lc, nil
}

// ruleElement reads a Rule element.
func ruleElement(e *xmlElement) ruleXML {
	var r ruleXML
	for _, c := range e.children {
		switch c.name {
		case "ID":
			r.ID = c.str()
		case "Status":
			r.Status = c.str()
		case "Prefix":
			r.Prefix = c.str()
		case "Filter":
			into(&r.Filter).read(c)
		case "Expiration":
			into(&r.Expiration).read(c)
		case "NoncurrentVersionExpiration":
			into(&r.NoncurrentVersionExpiration).read(c)
		case "Transition":
			r.Transition = true
		case "NoncurrentVersionTransition":
			r.NoncurrentVersionTransition = true
		case "AbortIncompleteMultipartUpload":
			r.AbortIncompleteMultipartUpload = true
		default:
			r.Other = true
		}
	}
	return r
}

// into is *p, allocated first if it is nil, so that the children of a
// repeated element add up.
func into[T any](p **T) *T {
	if *p == nil {
		*p = new(T)
	}
	return *p
}

// read adds the children of a Filter element to f.
func (f *filterXML) read(e *xmlElement) {
	for _, c := range e.children {
		switch c.name {
		case "Prefix":
			f.Prefix = c.str()
		case "Tag":
			f.Tag = true
		case "And":
			f.And = true
		case "ObjectSizeGreaterThan":
			f.ObjectSizeGreaterThan = true
		case "ObjectSizeLessThan":
			f.ObjectSizeLessThan = true
		default:
			f.Other = true
		}
	}
}

// read adds the children of an Expiration element to x.
func (x *expirationXML) read(e *xmlElement) {
	for _, c := range e.children {
		switch c.name {
		case "Days":
			x.Days = c.str()
		case "Date":
			x.Date = true
		case "ExpiredObjectDeleteMarker":
			x.ExpiredObjectDeleteMarker = true
		default:
			x.Other = true
		}
	}
}

// read adds the children of a NoncurrentVersionExpiration element to nc.
func (nc *noncurrentXML) read(e *xmlElement) {
	for _, c := range e.children {
		switch c.name {
		case "NoncurrentDays":
			nc.NoncurrentDays = c.str()
		case "NewerNoncurrentVersions":
			nc.NewerNoncurrentVersions = true
		default:
			nc.Other = true
		}
	}
}

// refuse is NotImplemented for a lifecycle element MiniS3 does not execute.
func refuse(element string) error {
	return notImplemented("", "MiniS3 does not execute the lifecycle element <%s> yet, so it refuses to store it; "+
		"MiniS3 runs rules with a prefix filter, Expiration Days and NoncurrentVersionExpiration NoncurrentDays", element)
}

// parseLifecycle reads a PutBucketLifecycleConfiguration document. Problems
// of structure are MalformedXML, elements MiniS3 does not execute are
// NotImplemented (naming the element), bad day counts are InvalidArgument;
// IDs and the number of rules are checked by the store.
func parseLifecycle(body []byte) (core.LifecycleConfiguration, error) {
	doc, err := decodeLifecycle(body)
	if err != nil {
		return core.LifecycleConfiguration{}, err
	}
	if doc.Other {
		return core.LifecycleConfiguration{}, malformedXML()
	}
	cfg := core.LifecycleConfiguration{Rules: make([]core.LifecycleRule, 0, len(doc.Rules))}
	for _, r := range doc.Rules {
		if err := checkRuleStructure(r); err != nil {
			return core.LifecycleConfiguration{}, err
		}
	}
	for _, r := range doc.Rules {
		if err := checkRuleSupported(r); err != nil {
			return core.LifecycleConfiguration{}, err
		}
	}
	for _, r := range doc.Rules {
		rule, err := ruleValues(r)
		if err != nil {
			return core.LifecycleConfiguration{}, err
		}
		cfg.Rules = append(cfg.Rules, rule)
	}
	return cfg, nil
}

func countSet(set ...bool) int {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	return n
}

// checkRuleStructure applies S3's schema: a Status of Enabled or Disabled,
// exactly one of Prefix and Filter, at most one predicate directly in a
// Filter, exactly one of Days, Date and ExpiredObjectDeleteMarker in an
// Expiration, and a NoncurrentVersionExpiration that says something.
func checkRuleStructure(r ruleXML) error {
	if r.Other || r.Status == nil || (*r.Status != "Enabled" && *r.Status != "Disabled") {
		return malformedXML()
	}
	if (r.Prefix == nil) == (r.Filter == nil) {
		return malformedXML()
	}
	if f := r.Filter; f != nil {
		if f.Other || countSet(f.Prefix != nil, f.Tag, f.And, f.ObjectSizeGreaterThan, f.ObjectSizeLessThan) > 1 {
			return malformedXML()
		}
	}
	if e := r.Expiration; e != nil {
		if e.Other || countSet(e.Days != nil, e.Date, e.ExpiredObjectDeleteMarker) != 1 {
			return malformedXML()
		}
	}
	if nc := r.NoncurrentVersionExpiration; nc != nil {
		if nc.Other || (nc.NoncurrentDays == nil && !nc.NewerNoncurrentVersions) {
			return malformedXML()
		}
	}
	return nil
}

// checkRuleSupported refuses, by name, the elements MiniS3 does not execute.
func checkRuleSupported(r ruleXML) error {
	if f := r.Filter; f != nil {
		switch {
		case f.Tag:
			return refuse("Filter/Tag")
		case f.And:
			return refuse("Filter/And")
		case f.ObjectSizeGreaterThan:
			return refuse("Filter/ObjectSizeGreaterThan")
		case f.ObjectSizeLessThan:
			return refuse("Filter/ObjectSizeLessThan")
		}
	}
	if e := r.Expiration; e != nil {
		switch {
		case e.Date:
			return refuse("Expiration/Date")
		case e.ExpiredObjectDeleteMarker:
			return refuse("Expiration/ExpiredObjectDeleteMarker")
		}
	}
	if nc := r.NoncurrentVersionExpiration; nc != nil && nc.NewerNoncurrentVersions {
		return refuse("NoncurrentVersionExpiration/NewerNoncurrentVersions")
	}
	switch {
	case r.Transition:
		return refuse("Transition")
	case r.NoncurrentVersionTransition:
		return refuse("NoncurrentVersionTransition")
	case r.AbortIncompleteMultipartUpload:
		return refuse("AbortIncompleteMultipartUpload")
	}
	return nil
}

// positiveDays parses a day count: not an integer is MalformedXML, zero or
// negative is InvalidArgument.
func positiveDays(name, action, v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, malformedXML()
	}
	if n <= 0 {
		return 0, invalidArgument(name, v, "'%s' for %s action must be a positive integer", name, action)
	}
	return n, nil
}

func ruleValues(r ruleXML) (core.LifecycleRule, error) {
	rule := core.LifecycleRule{Enabled: *r.Status == "Enabled"}
	if r.ID != nil {
		rule.ID = *r.ID
	}
	switch {
	case r.Prefix != nil:
		rule.Prefix, rule.LegacyPrefix = *r.Prefix, true
	case r.Filter.Prefix != nil:
		rule.Prefix = *r.Filter.Prefix
	}
	var err error
	if e := r.Expiration; e != nil {
		if rule.ExpirationDays, err = positiveDays("Days", "Expiration", *e.Days); err != nil {
			return rule, err
		}
	}
	if nc := r.NoncurrentVersionExpiration; nc != nil {
		if rule.NoncurrentDays, err = positiveDays("NoncurrentDays", "NoncurrentVersionExpiration", *nc.NoncurrentDays); err != nil {
			return rule, err
		}
	}
	return rule, nil
}

// putBucketLifecycle is PutBucketLifecycleConfiguration: it replaces the
// bucket's configuration, durably, or refuses it whole.
func (h *Handler) putBucketLifecycle(w http.ResponseWriter, r *http.Request, bucket string) error {
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	cfg, err := parseLifecycle(body)
	if err != nil {
		return err
	}
	if err := h.store.PutBucketLifecycle(bucket, cfg); err != nil {
		return err
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// getBucketLifecycle is GetBucketLifecycleConfiguration: the rules in the
// form they were given (legacy Prefix or Filter).
func (h *Handler) getBucketLifecycle(w http.ResponseWriter, bucket string) error {
	cfg, err := h.store.BucketLifecycle(bucket)
	if err != nil {
		return err
	}
	lifecycleDocument(cfg).send(w, http.StatusOK)
	return nil
}

// lifecycleDocument is GetBucketLifecycleConfiguration's
// LifecycleConfiguration.
func lifecycleDocument(cfg core.LifecycleConfiguration) *xmlWriter {
	w := newXMLWriter("LifecycleConfiguration", listingSize(len(cfg.Rules)))
	for _, r := range cfg.Rules {
		w.open("Rule")
		w.text("ID", r.ID)
		if r.LegacyPrefix {
			w.text("Prefix", r.Prefix)
		} else {
			w.open("Filter")
			w.textIf("Prefix", r.Prefix)
			w.close("Filter")
		}
		status := "Disabled"
		if r.Enabled {
			status = "Enabled"
		}
		w.text("Status", status)
		if r.ExpirationDays > 0 {
			w.open("Expiration")
			w.int("Days", int64(r.ExpirationDays))
			w.close("Expiration")
		}
		if r.NoncurrentDays > 0 {
			w.open("NoncurrentVersionExpiration")
			w.int("NoncurrentDays", int64(r.NoncurrentDays))
			w.close("NoncurrentVersionExpiration")
		}
		w.close("Rule")
	}
	return w
}

// deleteBucketLifecycle is DeleteBucketLifecycle: 204 whether or not there
// was a configuration.
func (h *Handler) deleteBucketLifecycle(w http.ResponseWriter, bucket string) error {
	if err := h.store.DeleteBucketLifecycle(bucket); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
