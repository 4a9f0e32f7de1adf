package core

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"time"

	"minis3/internal/strictjson"
)

// A lifecycle configuration as JSON has the shape of the AWS CLI's and
// SDKs' (put-bucket-lifecycle-configuration --lifecycle-configuration):
//
//	{"Rules": [{"ID": "logs", "Status": "Enabled", "Filter": {"Prefix": "logs/"},
//	            "Expiration": {"Days": 30},
//	            "NoncurrentVersionExpiration": {"NoncurrentDays": 7, "NewerNoncurrentVersions": 2},
//	            "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 1},
//	            "Transitions": [{"Days": 30, "StorageClass": "STANDARD_IA"}],
//	            "NoncurrentVersionTransitions": [{"NoncurrentDays": 30, "StorageClass": "GLACIER"}]}]}
//
// A Filter holds one of Prefix, Tag ({"Key", "Value"}), ObjectSizeGreaterThan,
// ObjectSizeLessThan or And ({"Prefix", "Tags": [...], "ObjectSize..."}); a
// rule may give its own Prefix instead. A Date is RFC 3339, at a midnight UTC.
// The store keeps its configurations in this shape, and the JavaScript API
// and the /_minis3/ extensions take and give it.
//
// The types below declare the shape; encoding/json writes and reads it. An
// element left out is absent (omitzero: a nil pointer or slice), an empty
// list is written as [].

type lifecycleJSON struct {
	Rules []lifecycleRuleJSON `json:"Rules"`
}

type lifecycleRuleJSON struct {
	ID                             string                          `json:"ID"`
	Status                         string                          `json:"Status"`
	Prefix                         *string                         `json:"Prefix,omitzero"`
	Filter                         *lifecycleFilterJSON            `json:"Filter,omitzero"`
	Expiration                     *lifecycleExpirationJSON        `json:"Expiration,omitzero"`
	NoncurrentVersionExpiration    *noncurrentExpirationJSON       `json:"NoncurrentVersionExpiration,omitzero"`
	AbortIncompleteMultipartUpload *AbortIncompleteMultipartUpload `json:"AbortIncompleteMultipartUpload,omitzero"`
	Transitions                    []lifecycleTransitionJSON       `json:"Transitions,omitzero"`
	NoncurrentVersionTransitions   []noncurrentTransitionJSON      `json:"NoncurrentVersionTransitions,omitzero"`
}

type lifecycleFilterJSON struct {
	Prefix                *string           `json:"Prefix,omitzero"`
	Tag                   *tagJSON          `json:"Tag,omitzero"`
	ObjectSizeGreaterThan *int64            `json:"ObjectSizeGreaterThan,omitzero"`
	ObjectSizeLessThan    *int64            `json:"ObjectSizeLessThan,omitzero"`
	And                   *lifecycleAndJSON `json:"And,omitzero"`
}

type lifecycleAndJSON struct {
	Prefix                *string   `json:"Prefix,omitzero"`
	Tags                  []tagJSON `json:"Tags,omitzero"`
	ObjectSizeGreaterThan *int64    `json:"ObjectSizeGreaterThan,omitzero"`
	ObjectSizeLessThan    *int64    `json:"ObjectSizeLessThan,omitzero"`
}

// tagJSON is a Tag in the AWS shape (the store's own items spell it k, v).
type tagJSON struct {
	Key   string `json:"Key"`
	Value string `json:"Value"`
}

type lifecycleExpirationJSON struct {
	Days                      *int      `json:"Days,omitzero"`
	Date                      *dateJSON `json:"Date,omitzero"`
	ExpiredObjectDeleteMarker *bool     `json:"ExpiredObjectDeleteMarker,omitzero"`
}

type noncurrentExpirationJSON struct {
	NoncurrentDays          *int `json:"NoncurrentDays,omitzero"`
	NewerNoncurrentVersions *int `json:"NewerNoncurrentVersions,omitzero"`
}

type lifecycleTransitionJSON struct {
	Days         *int      `json:"Days,omitzero"`
	Date         *dateJSON `json:"Date,omitzero"`
	StorageClass string    `json:"StorageClass"`
}

type noncurrentTransitionJSON struct {
	NoncurrentDays          int    `json:"NoncurrentDays"`
	StorageClass            string `json:"StorageClass"`
	NewerNoncurrentVersions *int   `json:"NewerNoncurrentVersions,omitzero"`
}

// dateJSON is a lifecycle Date, seconds since the Unix epoch, written as
// RFC 3339 in UTC.
type dateJSON float64

// MarshalJSON writes d as RFC 3339. A fraction of a second, which
// Validate refuses, is written too, so that whatever ParseLifecycleJSON
// read writes back as the same Date.
func (d dateJSON) MarshalJSON() ([]byte, error) {
	sec := math.Floor(float64(d))
	text := time.Unix(int64(sec), int64(math.Round((float64(d)-sec)*1e9))).UTC().Format(time.RFC3339Nano)
	return json.Marshal(text)
}

// UnmarshalJSON reads an RFC 3339 date; another text is InvalidArgument.
func (d *dateJSON) UnmarshalJSON(data []byte) error {
	var text string
	if err := json.Unmarshal(data, &text); err != nil {
		return &json.UnmarshalTypeError{Value: jsonKind(data), Type: reflect.TypeFor[string]()}
	}
	t, err := time.Parse(time.RFC3339, text)
	if err != nil {
		return errInvalidArgument("Date", text, "a lifecycle Date is RFC 3339 (2026-01-01T00:00:00Z), not %q", text)
	}
	// Seconds and nanoseconds apart: UnixNano holds only the years 1678
	// to 2262.
	*d = dateJSON(float64(t.Unix()) + float64(t.Nanosecond())/1e9)
	return nil
}

// jsonKind is the JSON type of a value's text, as encoding/json names it
// in an UnmarshalTypeError.
func jsonKind(data []byte) string {
	switch data[0] {
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case '[':
		return "array"
	case '{':
		return "object"
	}
	return "number"
}

// MarshalJSON writes c in its JSON shape.
func (c LifecycleConfiguration) MarshalJSON() ([]byte, error) {
	doc := lifecycleJSON{Rules: convertSlice(c.Rules, ruleJSONOf)}
	return json.Marshal(doc)
}

// ParseLifecycleJSON reads a configuration in its JSON shape. An unknown
// member or a value of the wrong type is InvalidArgument, a Status other
// than Enabled or Disabled MalformedXML, as S3 answers the document the
// CLI would send; whether the configuration is valid is Validate's to say.
func ParseLifecycleJSON(data []byte) (LifecycleConfiguration, error) {
	var doc lifecycleJSON
	err := strictjson.Decode(data, &doc)
	var te *strictjson.TypeError
	var e *Error
	switch {
	case errors.As(err, &e):
		return LifecycleConfiguration{}, err
	case errors.As(err, &te):
		return LifecycleConfiguration{}, newError(InvalidArgument, "the lifecycle configuration: %s", te.Error())
	case err != nil:
		return LifecycleConfiguration{}, newError(InvalidArgument, "the lifecycle configuration is not the expected JSON: %v", err)
	}
	return doc.configuration()
}

// readLifecycleItem reads a stored configuration: members no MiniS3
// wrote are skipped.
func readLifecycleItem(data []byte) (LifecycleConfiguration, error) {
	var doc lifecycleJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return LifecycleConfiguration{}, err
	}
	return doc.configuration()
}

// configuration is the configuration doc describes. A rule's Status is
// required, as in S3's schema [ref §5.2]: a rule without one is
// MalformedXML.
func (doc lifecycleJSON) configuration() (LifecycleConfiguration, error) {
	c := LifecycleConfiguration{Rules: make([]LifecycleRule, 0, len(doc.Rules))}
	if doc.Rules == nil {
		c.Rules = nil
	}
	for _, r := range doc.Rules {
		switch {
		case r.Status == "":
			return LifecycleConfiguration{}, newError(MalformedXML, "a rule needs a Status: Enabled or Disabled")
		case r.Status != "Enabled" && r.Status != "Disabled":
			return LifecycleConfiguration{}, newError(MalformedXML, "a rule's Status is Enabled or Disabled, not %q", r.Status)
		}
		c.Rules = append(c.Rules, r.rule())
	}
	return c, nil
}

// convertSlice converts each element of in with f; nil stays nil.
func convertSlice[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// convertPointer converts what p points to with f; nil stays nil.
func convertPointer[T, U any](p *T, f func(T) U) *U {
	if p == nil {
		return nil
	}
	v := f(*p)
	return &v
}

func ruleJSONOf(r LifecycleRule) lifecycleRuleJSON {
	status := "Disabled"
	if r.Enabled {
		status = "Enabled"
	}
	return lifecycleRuleJSON{
		ID: r.ID, Status: status, Prefix: r.Prefix,
		Filter: convertPointer(r.Filter, func(f LifecycleFilter) lifecycleFilterJSON {
			return lifecycleFilterJSON{Prefix: f.Prefix, Tag: convertPointer(f.Tag, tagJSONOf),
				ObjectSizeGreaterThan: f.ObjectSizeGreaterThan, ObjectSizeLessThan: f.ObjectSizeLessThan,
				And: convertPointer(f.And, func(a LifecycleAnd) lifecycleAndJSON {
					return lifecycleAndJSON{Prefix: a.Prefix, Tags: convertSlice(a.Tags, tagJSONOf),
						ObjectSizeGreaterThan: a.ObjectSizeGreaterThan, ObjectSizeLessThan: a.ObjectSizeLessThan}
				})}
		}),
		Expiration: convertPointer(r.Expiration, func(e LifecycleExpiration) lifecycleExpirationJSON {
			return lifecycleExpirationJSON{Days: e.Days, Date: (*dateJSON)(e.Date), ExpiredObjectDeleteMarker: e.ExpiredObjectDeleteMarker}
		}),
		NoncurrentVersionExpiration: convertPointer(r.NoncurrentVersionExpiration, func(n NoncurrentVersionExpiration) noncurrentExpirationJSON {
			return noncurrentExpirationJSON(n)
		}),
		AbortIncompleteMultipartUpload: r.AbortIncompleteMultipartUpload,
		Transitions: convertSlice(r.Transitions, func(t LifecycleTransition) lifecycleTransitionJSON {
			return lifecycleTransitionJSON{Days: t.Days, Date: (*dateJSON)(t.Date), StorageClass: t.StorageClass}
		}),
		NoncurrentVersionTransitions: convertSlice(r.NoncurrentVersionTransitions, func(t NoncurrentVersionTransition) noncurrentTransitionJSON {
			return noncurrentTransitionJSON(t)
		}),
	}
}

func (r lifecycleRuleJSON) rule() LifecycleRule {
	return LifecycleRule{
		ID: r.ID, Enabled: r.Status == "Enabled", Prefix: r.Prefix,
		Filter: convertPointer(r.Filter, func(f lifecycleFilterJSON) LifecycleFilter {
			return LifecycleFilter{Prefix: f.Prefix, Tag: convertPointer(f.Tag, tagJSON.tag),
				ObjectSizeGreaterThan: f.ObjectSizeGreaterThan, ObjectSizeLessThan: f.ObjectSizeLessThan,
				And: convertPointer(f.And, func(a lifecycleAndJSON) LifecycleAnd {
					return LifecycleAnd{Prefix: a.Prefix, Tags: convertSlice(a.Tags, tagJSON.tag),
						ObjectSizeGreaterThan: a.ObjectSizeGreaterThan, ObjectSizeLessThan: a.ObjectSizeLessThan}
				})}
		}),
		Expiration: convertPointer(r.Expiration, func(e lifecycleExpirationJSON) LifecycleExpiration {
			return LifecycleExpiration{Days: e.Days, Date: (*float64)(e.Date), ExpiredObjectDeleteMarker: e.ExpiredObjectDeleteMarker}
		}),
		NoncurrentVersionExpiration: convertPointer(r.NoncurrentVersionExpiration, func(n noncurrentExpirationJSON) NoncurrentVersionExpiration {
			return NoncurrentVersionExpiration(n)
		}),
		AbortIncompleteMultipartUpload: r.AbortIncompleteMultipartUpload,
		Transitions: convertSlice(r.Transitions, func(t lifecycleTransitionJSON) LifecycleTransition {
			return LifecycleTransition{Days: t.Days, Date: (*float64)(t.Date), StorageClass: t.StorageClass}
		}),
		NoncurrentVersionTransitions: convertSlice(r.NoncurrentVersionTransitions, func(t noncurrentTransitionJSON) NoncurrentVersionTransition {
			return NoncurrentVersionTransition(t)
		}),
	}
}

func tagJSONOf(t Tag) tagJSON { return tagJSON(t) }

func (t tagJSON) tag() Tag { return Tag(t) }
