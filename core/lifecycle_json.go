package core

import (
	"errors"
	"math"
	"strconv"
	"time"

	"minis3/internal/jsonv"
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

// AppendJSON appends c as JSON.
func (c LifecycleConfiguration) AppendJSON(b []byte) []byte {
	b = append(b, `{"Rules":`...)
	b = jsonv.AppendArray(b, c.Rules, appendLifecycleRule)
	return append(b, '}')
}

// members writes a JSON object member by member, each after a comma but
// the first.
type members struct {
	b     []byte
	first bool
}

func object(b []byte) *members { return &members{b: append(b, '{'), first: true} }

func (m *members) name(n string) {
	if !m.first {
		m.b = append(m.b, ',')
	}
	m.first = false
	m.b = jsonv.AppendString(m.b, n)
	m.b = append(m.b, ':')
}

func (m *members) str(n string, v *string) {
	if v != nil {
		m.name(n)
		m.b = jsonv.AppendString(m.b, *v)
	}
}

func (m *members) int(n string, v *int) {
	if v != nil {
		m.name(n)
		m.b = strconv.AppendInt(m.b, int64(*v), 10)
	}
}

func (m *members) int64(n string, v *int64) {
	if v != nil {
		m.name(n)
		m.b = strconv.AppendInt(m.b, *v, 10)
	}
}

func (m *members) date(n string, v *float64) {
	if v != nil {
		m.name(n)
		m.b = jsonv.AppendString(m.b, dateText(*v))
	}
}

func (m *members) end() []byte { return append(m.b, '}') }

// dateText is a lifecycle Date as RFC 3339. A fraction of a second, which
// Validate refuses, is written too, so that whatever ParseLifecycleJSON
// read writes back as the same Date.
func dateText(t float64) string {
	sec := math.Floor(t)
	return time.Unix(int64(sec), int64(math.Round((t-sec)*1e9))).UTC().Format(time.RFC3339Nano)
}

func appendTagJSON(b []byte, t Tag) []byte {
	m := object(b)
	m.str("Key", &t.Key)
	m.str("Value", &t.Value)
	return m.end()
}

func appendLifecycleRule(b []byte, r LifecycleRule) []byte {
	m := object(b)
	m.str("ID", &r.ID)
	status := "Disabled"
	if r.Enabled {
		status = "Enabled"
	}
	m.str("Status", &status)
	m.str("Prefix", r.Prefix)
	if f := r.Filter; f != nil {
		m.name("Filter")
		fm := object(m.b)
		fm.str("Prefix", f.Prefix)
		if f.Tag != nil {
			fm.name("Tag")
			fm.b = appendTagJSON(fm.b, *f.Tag)
		}
		fm.int64("ObjectSizeGreaterThan", f.ObjectSizeGreaterThan)
		fm.int64("ObjectSizeLessThan", f.ObjectSizeLessThan)
		if a := f.And; a != nil {
			fm.name("And")
			am := object(fm.b)
			am.str("Prefix", a.Prefix)
			if a.Tags != nil {
				am.name("Tags")
				am.b = jsonv.AppendArray(am.b, a.Tags, appendTagJSON)
			}
			am.int64("ObjectSizeGreaterThan", a.ObjectSizeGreaterThan)
			am.int64("ObjectSizeLessThan", a.ObjectSizeLessThan)
			fm.b = am.end()
		}
		m.b = fm.end()
	}
	if e := r.Expiration; e != nil {
		m.name("Expiration")
		em := object(m.b)
		em.int("Days", e.Days)
		em.date("Date", e.Date)
		if e.ExpiredObjectDeleteMarker != nil {
			em.name("ExpiredObjectDeleteMarker")
			em.b = strconv.AppendBool(em.b, *e.ExpiredObjectDeleteMarker)
		}
		m.b = em.end()
	}
	if n := r.NoncurrentVersionExpiration; n != nil {
		m.name("NoncurrentVersionExpiration")
		nm := object(m.b)
		nm.int("NoncurrentDays", n.NoncurrentDays)
		nm.int("NewerNoncurrentVersions", n.NewerNoncurrentVersions)
		m.b = nm.end()
	}
	if a := r.AbortIncompleteMultipartUpload; a != nil {
		m.name("AbortIncompleteMultipartUpload")
		am := object(m.b)
		am.int("DaysAfterInitiation", &a.DaysAfterInitiation)
		m.b = am.end()
	}
	if r.Transitions != nil {
		m.name("Transitions")
		m.b = jsonv.AppendArray(m.b, r.Transitions, func(b []byte, t LifecycleTransition) []byte {
			tm := object(b)
			tm.int("Days", t.Days)
			tm.date("Date", t.Date)
			tm.str("StorageClass", &t.StorageClass)
			return tm.end()
		})
	}
	if r.NoncurrentVersionTransitions != nil {
		m.name("NoncurrentVersionTransitions")
		m.b = jsonv.AppendArray(m.b, r.NoncurrentVersionTransitions, func(b []byte, t NoncurrentVersionTransition) []byte {
			tm := object(b)
			tm.int("NoncurrentDays", &t.NoncurrentDays)
			tm.str("StorageClass", &t.StorageClass)
			tm.int("NewerNoncurrentVersions", t.NewerNoncurrentVersions)
			return tm.end()
		})
	}
	return m.end()
}

// ParseLifecycleJSON reads a configuration in its JSON shape. An unknown
// member or a value of the wrong type is InvalidArgument, a Status other
// than Enabled or Disabled MalformedXML, as S3 answers the document the
// CLI would send; whether the configuration is valid is Validate's to say.
func ParseLifecycleJSON(data []byte) (LifecycleConfiguration, error) {
	var c LifecycleConfiguration
	d, err := jsonv.NewDecoder(data)
	if err == nil {
		d.Strict = true
		err = readLifecycle(d, &c)
	}
	var te *jsonv.TypeError
	var e *Error
	switch {
	case errors.As(err, &e):
		return c, err
	case errors.As(err, &te):
		return c, newError(InvalidArgument, "the lifecycle configuration: %s", te.Error())
	case err != nil:
		return c, newError(InvalidArgument, "the lifecycle configuration is not the expected JSON: %v", err)
	}
	return c, nil
}

func readLifecycle(d *jsonv.Decoder, c *LifecycleConfiguration) error {
	return d.Object([]string{"Rules"}, func(string) error {
		return jsonv.Slice(d, &c.Rules, readLifecycleRule)
	})
}

// readLifecycleRule reads a rule. Its Status is required, as in S3's
// schema [ref §5.2]: a rule without one is MalformedXML.
func readLifecycleRule(d *jsonv.Decoder, r *LifecycleRule) error {
	status := ""
	err := d.Object([]string{"ID", "Status", "Prefix", "Filter", "Expiration", "NoncurrentVersionExpiration",
		"AbortIncompleteMultipartUpload", "Transitions", "NoncurrentVersionTransitions"}, func(name string) error {
		switch name {
		case "ID":
			return d.String(&r.ID)
		case "Status":
			return d.String(&status)
		case "Prefix":
			return jsonv.Pointer(d, &r.Prefix, (*jsonv.Decoder).String)
		case "Filter":
			return jsonv.Pointer(d, &r.Filter, readFilter)
		case "Expiration":
			return jsonv.Pointer(d, &r.Expiration, func(d *jsonv.Decoder, e *LifecycleExpiration) error {
				return d.Object([]string{"Days", "Date", "ExpiredObjectDeleteMarker"}, func(name string) error {
					switch name {
					case "Days":
						return jsonv.Pointer(d, &e.Days, (*jsonv.Decoder).Int)
					case "Date":
						return readDate(d, &e.Date)
					}
					return jsonv.Pointer(d, &e.ExpiredObjectDeleteMarker, (*jsonv.Decoder).Bool)
				})
			})
		case "NoncurrentVersionExpiration":
			return jsonv.Pointer(d, &r.NoncurrentVersionExpiration, func(d *jsonv.Decoder, n *NoncurrentVersionExpiration) error {
				return d.Object([]string{"NoncurrentDays", "NewerNoncurrentVersions"}, func(name string) error {
					if name == "NoncurrentDays" {
						return jsonv.Pointer(d, &n.NoncurrentDays, (*jsonv.Decoder).Int)
					}
					return jsonv.Pointer(d, &n.NewerNoncurrentVersions, (*jsonv.Decoder).Int)
				})
			})
		case "AbortIncompleteMultipartUpload":
			return jsonv.Pointer(d, &r.AbortIncompleteMultipartUpload, func(d *jsonv.Decoder, a *AbortIncompleteMultipartUpload) error {
				return d.Object([]string{"DaysAfterInitiation"}, func(string) error { return d.Int(&a.DaysAfterInitiation) })
			})
		case "Transitions":
			return jsonv.Slice(d, &r.Transitions, func(d *jsonv.Decoder, t *LifecycleTransition) error {
				return d.Object([]string{"Days", "Date", "StorageClass"}, func(name string) error {
					switch name {
					case "Days":
						return jsonv.Pointer(d, &t.Days, (*jsonv.Decoder).Int)
					case "Date":
						return readDate(d, &t.Date)
					}
					return d.String(&t.StorageClass)
				})
			})
		case "NoncurrentVersionTransitions":
			return jsonv.Slice(d, &r.NoncurrentVersionTransitions, func(d *jsonv.Decoder, t *NoncurrentVersionTransition) error {
				return d.Object([]string{"NoncurrentDays", "StorageClass", "NewerNoncurrentVersions"}, func(name string) error {
					switch name {
					case "NoncurrentDays":
						return d.Int(&t.NoncurrentDays)
					case "StorageClass":
						return d.String(&t.StorageClass)
					}
					return jsonv.Pointer(d, &t.NewerNoncurrentVersions, (*jsonv.Decoder).Int)
				})
			})
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case status == "":
		return newError(MalformedXML, "a rule needs a Status: Enabled or Disabled")
	case status != "Enabled" && status != "Disabled":
		return newError(MalformedXML, "a rule's Status is Enabled or Disabled, not %q", status)
	}
	r.Enabled = status == "Enabled"
	return nil
}

func readFilter(d *jsonv.Decoder, f *LifecycleFilter) error {
	return d.Object([]string{"Prefix", "Tag", "ObjectSizeGreaterThan", "ObjectSizeLessThan", "And"}, func(name string) error {
		switch name {
		case "Prefix":
			return jsonv.Pointer(d, &f.Prefix, (*jsonv.Decoder).String)
		case "Tag":
			return jsonv.Pointer(d, &f.Tag, readTagJSON)
		case "ObjectSizeGreaterThan":
			return jsonv.Pointer(d, &f.ObjectSizeGreaterThan, (*jsonv.Decoder).Int64)
		case "ObjectSizeLessThan":
			return jsonv.Pointer(d, &f.ObjectSizeLessThan, (*jsonv.Decoder).Int64)
		}
		return jsonv.Pointer(d, &f.And, func(d *jsonv.Decoder, a *LifecycleAnd) error {
			return d.Object([]string{"Prefix", "Tags", "ObjectSizeGreaterThan", "ObjectSizeLessThan"}, func(name string) error {
				switch name {
				case "Prefix":
					return jsonv.Pointer(d, &a.Prefix, (*jsonv.Decoder).String)
				case "Tags":
					return jsonv.Slice(d, &a.Tags, readTagJSON)
				case "ObjectSizeGreaterThan":
					return jsonv.Pointer(d, &a.ObjectSizeGreaterThan, (*jsonv.Decoder).Int64)
				}
				return jsonv.Pointer(d, &a.ObjectSizeLessThan, (*jsonv.Decoder).Int64)
			})
		})
	})
}

func readTagJSON(d *jsonv.Decoder, t *Tag) error {
	return d.Object([]string{"Key", "Value"}, func(name string) error {
		if name == "Key" {
			return d.String(&t.Key)
		}
		return d.String(&t.Value)
	})
}

// readDate reads an RFC 3339 date into seconds since the Unix epoch.
func readDate(d *jsonv.Decoder, p **float64) error {
	var text string
	if err := d.String(&text); err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339, text)
	if err != nil {
		return errInvalidArgument("Date", text, "a lifecycle Date is RFC 3339 (2026-01-01T00:00:00Z), not %q", text)
	}
	// Seconds and nanoseconds apart: UnixNano holds only the years 1678
	// to 2262.
	sec := float64(t.Unix()) + float64(t.Nanosecond())/1e9
	*p = &sec
	return nil
}
