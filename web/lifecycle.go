package web

import (
	"encoding/xml"
	"net/http"
	"strconv"
	"strings"

	"minis3/core"
)

// anyXML is an element MiniS3 only needs to notice.
type anyXML struct {
	XMLName xml.Name
}

// The lifecycle configuration document as clients send it. Every element of
// S3's schema has a field, so that elements MiniS3 does not execute can be
// refused by name; anything else lands in Other and is MalformedXML.
type lifecycleXML struct {
	XMLName xml.Name  `xml:"LifecycleConfiguration"`
	Rules   []ruleXML `xml:"Rule"`
	Other   []anyXML  `xml:",any"`
}

type ruleXML struct {
	ID                           *string        `xml:"ID"`
	Status                       *string        `xml:"Status"`
	Prefix                       *string        `xml:"Prefix"`
	Filter                       *filterXML     `xml:"Filter"`
	Expiration                   *expirationXML `xml:"Expiration"`
	NoncurrentVersionExpiration  *noncurrentXML `xml:"NoncurrentVersionExpiration"`
	Transitions                  []anyXML       `xml:"Transition"`
	NoncurrentVersionTransitions []anyXML       `xml:"NoncurrentVersionTransition"`
	AbortIncompleteMultipart     *anyXML        `xml:"AbortIncompleteMultipartUpload"`
	Other                        []anyXML       `xml:",any"`
}

type filterXML struct {
	Prefix                *string  `xml:"Prefix"`
	Tag                   *anyXML  `xml:"Tag"`
	And                   *anyXML  `xml:"And"`
	ObjectSizeGreaterThan *string  `xml:"ObjectSizeGreaterThan"`
	ObjectSizeLessThan    *string  `xml:"ObjectSizeLessThan"`
	Other                 []anyXML `xml:",any"`
}

type expirationXML struct {
	Days                      *string  `xml:"Days"`
	Date                      *string  `xml:"Date"`
	ExpiredObjectDeleteMarker *string  `xml:"ExpiredObjectDeleteMarker"`
	Other                     []anyXML `xml:",any"`
}

type noncurrentXML struct {
	NoncurrentDays          *string  `xml:"NoncurrentDays"`
	NewerNoncurrentVersions *string  `xml:"NewerNoncurrentVersions"`
	Other                   []anyXML `xml:",any"`
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
	var doc lifecycleXML
	if err := decodeXML(body, &doc); err != nil {
		return core.LifecycleConfiguration{}, err
	}
	if len(doc.Other) > 0 {
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
	if len(r.Other) > 0 || r.Status == nil || (*r.Status != "Enabled" && *r.Status != "Disabled") {
		return malformedXML()
	}
	if (r.Prefix == nil) == (r.Filter == nil) {
		return malformedXML()
	}
	if f := r.Filter; f != nil {
		if len(f.Other) > 0 || countSet(f.Prefix != nil, f.Tag != nil, f.And != nil, f.ObjectSizeGreaterThan != nil, f.ObjectSizeLessThan != nil) > 1 {
			return malformedXML()
		}
	}
	if e := r.Expiration; e != nil {
		if len(e.Other) > 0 || countSet(e.Days != nil, e.Date != nil, e.ExpiredObjectDeleteMarker != nil) != 1 {
			return malformedXML()
		}
	}
	if nc := r.NoncurrentVersionExpiration; nc != nil {
		if len(nc.Other) > 0 || (nc.NoncurrentDays == nil && nc.NewerNoncurrentVersions == nil) {
			return malformedXML()
		}
	}
	return nil
}

// checkRuleSupported refuses, by name, the elements MiniS3 does not execute.
func checkRuleSupported(r ruleXML) error {
	if f := r.Filter; f != nil {
		switch {
		case f.Tag != nil:
			return refuse("Filter/Tag")
		case f.And != nil:
			return refuse("Filter/And")
		case f.ObjectSizeGreaterThan != nil:
			return refuse("Filter/ObjectSizeGreaterThan")
		case f.ObjectSizeLessThan != nil:
			return refuse("Filter/ObjectSizeLessThan")
		}
	}
	if e := r.Expiration; e != nil {
		switch {
		case e.Date != nil:
			return refuse("Expiration/Date")
		case e.ExpiredObjectDeleteMarker != nil:
			return refuse("Expiration/ExpiredObjectDeleteMarker")
		}
	}
	if nc := r.NoncurrentVersionExpiration; nc != nil && nc.NewerNoncurrentVersions != nil {
		return refuse("NoncurrentVersionExpiration/NewerNoncurrentVersions")
	}
	switch {
	case len(r.Transitions) > 0:
		return refuse("Transition")
	case len(r.NoncurrentVersionTransitions) > 0:
		return refuse("NoncurrentVersionTransition")
	case r.AbortIncompleteMultipart != nil:
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
