package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"minis3/core"
)

// The lifecycle configuration document of Put and
// GetBucketLifecycleConfiguration [ref §5.2]. Reading it checks only its
// shape: an element S3's schema does not have where it stands, an element
// given twice where it may appear once, a number or date or boolean that
// does not read as one, is MalformedXML. What the values mean (a Date at
// midnight, Days above 0, which elements go together) the store checks,
// with S3's codes (core.LifecycleConfiguration.Validate).

// children calls read for each child element of e by name; a child read
// does not know, or a second one of a name read takes once, is
// MalformedXML.
func children(e *xmlElement, read map[string]func(*xmlElement) error, repeatable ...string) error {
	seen := map[string]bool{}
	for _, c := range e.children {
		f, ok := read[c.name]
		if !ok {
			return malformedXML()
		}
		if seen[c.name] && !slices.Contains(repeatable, c.name) {
			return malformedXML()
		}
		seen[c.name] = true
		if err := f(c); err != nil {
			return err
		}
	}
	return nil
}

// Readers of an element's text into a field.

func readString(p **string) func(*xmlElement) error {
	return func(e *xmlElement) error { *p = e.str(); return nil }
}

func readInt(p **int) func(*xmlElement) error {
	return func(e *xmlElement) error {
		n, err := strconv.Atoi(strings.TrimSpace(string(e.text)))
		if err != nil {
			return malformedXML()
		}
		*p = &n
		return nil
	}
}

func readInt64(p **int64) func(*xmlElement) error {
	return func(e *xmlElement) error {
		n, err := strconv.ParseInt(strings.TrimSpace(string(e.text)), 10, 64)
		if err != nil {
			return malformedXML()
		}
		*p = &n
		return nil
	}
}

func readBool(p **bool) func(*xmlElement) error {
	return func(e *xmlElement) error {
		b, err := xsBoolean(e.text)
		if err != nil {
			return malformedXML()
		}
		*p = &b
		return nil
	}
}

// readDate reads an ISO 8601 date and time, such as
// 2030-01-01T00:00:00.000Z, as seconds since the Unix epoch.
func readDate(p **float64) func(*xmlElement) error {
	return func(e *xmlElement) error {
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(e.text)))
		if err != nil {
			return malformedXML()
		}
		d := float64(t.Unix()) + float64(t.Nanosecond())/1e9
		*p = &d
		return nil
	}
}

func readTag(t *core.Tag) func(*xmlElement) error {
	return func(e *xmlElement) error {
		var key, value *string
		if err := children(e, map[string]func(*xmlElement) error{"Key": readString(&key), "Value": readString(&value)}); err != nil {
			return err
		}
		if key == nil {
			return malformedXML()
		}
		t.Key = *key
		if value != nil {
			t.Value = *value
		}
		return nil
	}
}

// parseLifecycle reads a PutBucketLifecycleConfiguration document.
func parseLifecycle(body []byte) (core.LifecycleConfiguration, error) {
	doc, err := parseXML(body, "LifecycleConfiguration")
	if err != nil {
		return core.LifecycleConfiguration{}, err
	}
	var cfg core.LifecycleConfiguration
	err = children(doc, map[string]func(*xmlElement) error{"Rule": func(e *xmlElement) error {
		r, err := ruleElement(e)
		cfg.Rules = append(cfg.Rules, r)
		return err
	}}, "Rule")
	return cfg, err
}

// ruleElement reads a Rule.
func ruleElement(e *xmlElement) (core.LifecycleRule, error) {
	var r core.LifecycleRule
	var id, status *string
	err := children(e, map[string]func(*xmlElement) error{
		"ID":     readString(&id),
		"Status": readString(&status),
		"Prefix": readString(&r.Prefix),
		"Filter": func(e *xmlElement) error {
			r.Filter = new(core.LifecycleFilter)
			return filterElement(e, r.Filter)
		},
		"Expiration": func(e *xmlElement) error {
			r.Expiration = new(core.LifecycleExpiration)
			x := r.Expiration
			return children(e, map[string]func(*xmlElement) error{
				"Days": readInt(&x.Days), "Date": readDate(&x.Date), "ExpiredObjectDeleteMarker": readBool(&x.ExpiredObjectDeleteMarker),
			})
		},
		"NoncurrentVersionExpiration": func(e *xmlElement) error {
			r.NoncurrentVersionExpiration = new(core.NoncurrentVersionExpiration)
			x := r.NoncurrentVersionExpiration
			return children(e, map[string]func(*xmlElement) error{
				"NoncurrentDays": readInt(&x.NoncurrentDays), "NewerNoncurrentVersions": readInt(&x.NewerNoncurrentVersions),
			})
		},
		"AbortIncompleteMultipartUpload": func(e *xmlElement) error {
			var days *int
			if err := children(e, map[string]func(*xmlElement) error{"DaysAfterInitiation": readInt(&days)}); err != nil {
				return err
			}
			if days == nil {
				return malformedXML()
			}
			r.AbortIncompleteMultipartUpload = &core.AbortIncompleteMultipartUpload{DaysAfterInitiation: *days}
			return nil
		},
		"Transition": func(e *xmlElement) error {
			var t core.LifecycleTransition
			var class *string
			if err := children(e, map[string]func(*xmlElement) error{
				"Days": readInt(&t.Days), "Date": readDate(&t.Date), "StorageClass": readString(&class),
			}); err != nil {
				return err
			}
			if class == nil {
				return malformedXML()
			}
			t.StorageClass = *class
			r.Transitions = append(r.Transitions, t)
			return nil
		},
		"NoncurrentVersionTransition": func(e *xmlElement) error {
			var t core.NoncurrentVersionTransition
			var days *int
			var class *string
			if err := children(e, map[string]func(*xmlElement) error{
				"NoncurrentDays": readInt(&days), "StorageClass": readString(&class), "NewerNoncurrentVersions": readInt(&t.NewerNoncurrentVersions),
			}); err != nil {
				return err
			}
			if days == nil || class == nil {
				return malformedXML()
			}
			t.NoncurrentDays, t.StorageClass = *days, *class
			r.NoncurrentVersionTransitions = append(r.NoncurrentVersionTransitions, t)
			return nil
		},
	}, "Transition", "NoncurrentVersionTransition")
	if err != nil {
		return r, err
	}
	if status == nil || (*status != "Enabled" && *status != "Disabled") {
		return r, malformedXML()
	}
	r.Enabled = *status == "Enabled"
	if id != nil {
		r.ID = *id
	}
	return r, nil
}

// filterElement reads a Filter into f.
func filterElement(e *xmlElement, f *core.LifecycleFilter) error {
	return children(e, map[string]func(*xmlElement) error{
		"Prefix": readString(&f.Prefix),
		"Tag": func(e *xmlElement) error {
			f.Tag = new(core.Tag)
			return readTag(f.Tag)(e)
		},
		"ObjectSizeGreaterThan": readInt64(&f.ObjectSizeGreaterThan),
		"ObjectSizeLessThan":    readInt64(&f.ObjectSizeLessThan),
		"And": func(e *xmlElement) error {
			f.And = new(core.LifecycleAnd)
			a := f.And
			return children(e, map[string]func(*xmlElement) error{
				"Prefix": readString(&a.Prefix),
				"Tag": func(e *xmlElement) error {
					a.Tags = append(a.Tags, core.Tag{})
					return readTag(&a.Tags[len(a.Tags)-1])(e)
				},
				"ObjectSizeGreaterThan": readInt64(&a.ObjectSizeGreaterThan),
				"ObjectSizeLessThan":    readInt64(&a.ObjectSizeLessThan),
			}, "Tag")
		},
	})
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

// getBucketLifecycle is GetBucketLifecycleConfiguration: the rules as they
// were given (a legacy Prefix stays one), with the IDs the store gave to
// rules that had none.
func (h *Handler) getBucketLifecycle(w http.ResponseWriter, bucket string) error {
	cfg, err := h.store.BucketLifecycle(bucket)
	if err != nil {
		return err
	}
	lifecycleDocument(cfg).send(w, http.StatusOK)
	return nil
}

// lifecycleDocument is cfg as a LifecycleConfiguration document, each
// rule's elements in the order of S3's schema.
func lifecycleDocument(cfg core.LifecycleConfiguration) *xmlWriter {
	w := newXMLWriter("LifecycleConfiguration", listingSize(len(cfg.Rules)))
	for _, r := range cfg.Rules {
		w.open("Rule")
		w.text("ID", r.ID)
		if r.Prefix != nil {
			w.text("Prefix", *r.Prefix)
		}
		if f := r.Filter; f != nil {
			w.open("Filter")
			writeFilter(w, f)
			w.close("Filter")
		}
		status := "Disabled"
		if r.Enabled {
			status = "Enabled"
		}
		w.text("Status", status)
		if x := r.Expiration; x != nil {
			w.open("Expiration")
			intIf(w, "Days", x.Days)
			dateIf(w, "Date", x.Date)
			if x.ExpiredObjectDeleteMarker != nil {
				w.bool("ExpiredObjectDeleteMarker", *x.ExpiredObjectDeleteMarker)
			}
			w.close("Expiration")
		}
		for _, t := range r.Transitions {
			w.open("Transition")
			intIf(w, "Days", t.Days)
			dateIf(w, "Date", t.Date)
			w.text("StorageClass", t.StorageClass)
			w.close("Transition")
		}
		for _, t := range r.NoncurrentVersionTransitions {
			w.open("NoncurrentVersionTransition")
			w.int("NoncurrentDays", int64(t.NoncurrentDays))
			w.text("StorageClass", t.StorageClass)
			intIf(w, "NewerNoncurrentVersions", t.NewerNoncurrentVersions)
			w.close("NoncurrentVersionTransition")
		}
		if x := r.NoncurrentVersionExpiration; x != nil {
			w.open("NoncurrentVersionExpiration")
			intIf(w, "NoncurrentDays", x.NoncurrentDays)
			intIf(w, "NewerNoncurrentVersions", x.NewerNoncurrentVersions)
			w.close("NoncurrentVersionExpiration")
		}
		if a := r.AbortIncompleteMultipartUpload; a != nil {
			w.open("AbortIncompleteMultipartUpload")
			w.int("DaysAfterInitiation", int64(a.DaysAfterInitiation))
			w.close("AbortIncompleteMultipartUpload")
		}
		w.close("Rule")
	}
	return w
}

func writeFilter(w *xmlWriter, f *core.LifecycleFilter) {
	if f.Prefix != nil {
		w.text("Prefix", *f.Prefix)
	}
	if f.Tag != nil {
		writeTag(w, *f.Tag)
	}
	int64If(w, "ObjectSizeGreaterThan", f.ObjectSizeGreaterThan)
	int64If(w, "ObjectSizeLessThan", f.ObjectSizeLessThan)
	if a := f.And; a != nil {
		w.open("And")
		if a.Prefix != nil {
			w.text("Prefix", *a.Prefix)
		}
		for _, t := range a.Tags {
			writeTag(w, t)
		}
		int64If(w, "ObjectSizeGreaterThan", a.ObjectSizeGreaterThan)
		int64If(w, "ObjectSizeLessThan", a.ObjectSizeLessThan)
		w.close("And")
	}
}

func writeTag(w *xmlWriter, t core.Tag) {
	w.open("Tag")
	w.text("Key", t.Key)
	w.text("Value", t.Value)
	w.close("Tag")
}

func intIf(w *xmlWriter, name string, n *int) {
	if n != nil {
		w.int(name, int64(*n))
	}
}

func int64If(w *xmlWriter, name string, n *int64) {
	if n != nil {
		w.int(name, *n)
	}
}

func dateIf(w *xmlWriter, name string, t *float64) {
	if t != nil {
		w.text(name, clockTime(*t).Format(isoTimeLayout))
	}
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
