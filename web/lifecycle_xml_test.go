package web

import (
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"

	"minis3/core"
)

// written is the document GetBucketLifecycleConfiguration sends for cfg.
func written(cfg core.LifecycleConfiguration) []byte {
	w := lifecycleDocument(cfg)
	w.close(w.root)
	return w.buf
}

// richLifecycle has every element of S3's lifecycle schema at least once
// [ref §5.2].
func richLifecycle(s string) core.LifecycleConfiguration {
	midnight := float64(1893456000) // 2030-01-01T00:00:00Z
	return core.LifecycleConfiguration{Rules: []core.LifecycleRule{
		{ID: s, Enabled: true, Prefix: ptr(s), Expiration: &core.LifecycleExpiration{Days: ptr(1)}},
		{ID: "filtered" + s, Filter: &core.LifecycleFilter{And: &core.LifecycleAnd{
			Prefix: ptr("p" + s), Tags: []core.Tag{{Key: "k" + s, Value: s}, {Key: "x", Value: ""}},
			ObjectSizeGreaterThan: ptr(int64(0)), ObjectSizeLessThan: ptr(int64(1) << 42),
		}},
			Expiration:                   &core.LifecycleExpiration{Date: &midnight},
			Transitions:                  []core.LifecycleTransition{{Days: ptr(30), StorageClass: "STANDARD_IA"}, {Date: &midnight, StorageClass: "GLACIER"}},
			NoncurrentVersionTransitions: []core.NoncurrentVersionTransition{{NoncurrentDays: 0, StorageClass: "GLACIER_IR", NewerNoncurrentVersions: ptr(3)}},
			NoncurrentVersionExpiration:  &core.NoncurrentVersionExpiration{NoncurrentDays: ptr(2147483647), NewerNoncurrentVersions: ptr(100)},
		},
		{ID: "tag", Enabled: true, Filter: &core.LifecycleFilter{Tag: &core.Tag{Key: "t", Value: s}},
			NoncurrentVersionExpiration: &core.NoncurrentVersionExpiration{NewerNoncurrentVersions: ptr(1)}},
		{ID: "gt", Enabled: true, Filter: &core.LifecycleFilter{ObjectSizeGreaterThan: ptr(int64(10))}, Expiration: &core.LifecycleExpiration{Days: ptr(2)}},
		{ID: "lt", Enabled: true, Filter: &core.LifecycleFilter{ObjectSizeLessThan: ptr(int64(10))}, Expiration: &core.LifecycleExpiration{Days: ptr(2)}},
		{ID: "markers", Enabled: true, Filter: &core.LifecycleFilter{Prefix: ptr("")},
			Expiration:                     &core.LifecycleExpiration{ExpiredObjectDeleteMarker: ptr(true)},
			AbortIncompleteMultipartUpload: &core.AbortIncompleteMultipartUpload{DaysAfterInitiation: 7}},
		{ID: "whole bucket", Filter: &core.LifecycleFilter{}, Expiration: &core.LifecycleExpiration{ExpiredObjectDeleteMarker: ptr(false)}},
	}}
}

// xmlText reports whether XML 1.0 can carry s as character data.
func xmlText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, c := range s {
		if !(c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF) {
			return false
		}
	}
	return true
}

// What GetBucketLifecycleConfiguration writes, PutBucketLifecycleConfiguration
// reads back as it was, whatever the strings hold.
func TestLifecycleDocumentReadsBackAsWritten(t *testing.T) {
	for _, s := range hostileStrings {
		if !xmlText(s) {
			continue // XML cannot carry it: encoding/xml writes U+FFFD, as S3 would
		}
		cfg := richLifecycle(s)
		got, err := parseLifecycle(written(cfg))
		if err != nil {
			t.Fatalf("%q: reading the written document: %v\n%s", s, err, written(cfg))
		}
		if !reflect.DeepEqual(got, cfg) {
			t.Errorf("%q: read back\n%+v\nwant\n%+v", s, got, cfg)
		}
	}
}

// The shape of the document is checked where it is read; what the values
// mean, by the store [ref §5.3].
func TestLifecycleDocumentShapeErrorsAreMalformedXML(t *testing.T) {
	rule := func(inner string) string {
		return `<LifecycleConfiguration><Rule>` + inner + `</Rule></LifecycleConfiguration>`
	}
	const on, all = `<Status>Enabled</Status>`, `<Filter/>`
	bad := map[string]string{
		"an unknown element in a rule":               rule(on + all + `<Colour/>`),
		"an unknown element in a filter":             rule(on + `<Filter><Colour/></Filter>`),
		"an unknown element in And":                  rule(on + `<Filter><And><Colour/></And></Filter>`),
		"an unknown element in Expiration":           rule(on + all + `<Expiration><Weeks>1</Weeks></Expiration>`),
		"an unknown element at the top":              `<LifecycleConfiguration><Colour/></LifecycleConfiguration>`,
		"a second Status":                            rule(on + on + all),
		"a second Filter":                            rule(on + all + all),
		"a second Expiration":                        rule(on + all + `<Expiration><Days>1</Days></Expiration><Expiration><Days>2</Days></Expiration>`),
		"two Tags outside And":                       rule(on + `<Filter><Tag><Key>a</Key></Tag><Tag><Key>b</Key></Tag></Filter>`),
		"a lower-case status":                        rule(`<Status>enabled</Status>` + all),
		"no status":                                  rule(all),
		"Days that are not a number":                 rule(on + all + `<Expiration><Days>ten</Days></Expiration>`),
		"Days beyond an int":                         rule(on + all + `<Expiration><Days>99999999999999999999</Days></Expiration>`),
		"a size that is not a number":                rule(on + `<Filter><ObjectSizeLessThan>5 MB</ObjectSizeLessThan></Filter>`),
		"a Date that is not ISO 8601":                rule(on + all + `<Expiration><Date>20300101</Date></Expiration>`),
		"a Date without a time":                      rule(on + all + `<Expiration><Date>2030-01-01</Date></Expiration>`),
		"an ExpiredObjectDeleteMarker of yes":        rule(on + all + `<Expiration><ExpiredObjectDeleteMarker>yes</ExpiredObjectDeleteMarker></Expiration>`),
		"a Tag without a Key":                        rule(on + `<Filter><Tag><Value>v</Value></Tag></Filter>`),
		"an abort without its days":                  rule(on + all + `<AbortIncompleteMultipartUpload/>`),
		"a Transition without a storage class":       rule(on + all + `<Transition><Days>30</Days></Transition>`),
		"a NoncurrentVersionTransition without days": rule(on + all + `<NoncurrentVersionTransition><StorageClass>GLACIER</StorageClass></NoncurrentVersionTransition>`),
		"another root":                               `<BucketLifecycleConfiguration><Rule/></BucketLifecycleConfiguration>`,
		"not XML":                                    `<LifecycleConfiguration><Rule>`,
		"an empty body":                              ``,
	}
	for name, body := range bad {
		_, err := parseLifecycle([]byte(body))
		if !errors.Is(err, core.MalformedXML) {
			t.Errorf("%s: %v, want MalformedXML", name, err)
		}
	}
}

// Every request document of the XML quirk tests either reads, and then
// reads back as it was written, or is refused with an S3 code: reading
// never panics and never half-reads.
func TestLifecycleDocumentQuirksReadWholeOrNotAtAll(t *testing.T) {
	for _, body := range append(quirkBodies(), corpusBodies(t)...) {
		cfg, err := parseLifecycle([]byte(body))
		if err != nil {
			if asS3Error(err).Code == core.InternalError {
				t.Errorf("%q: %v", body, err)
			}
			continue
		}
		back, err := parseLifecycle(written(cfg))
		if err != nil || !reflect.DeepEqual(back, cfg) {
			t.Errorf("%q read as %+v, which reads back as %+v, %v", body, cfg, back, err)
		}
	}
}
