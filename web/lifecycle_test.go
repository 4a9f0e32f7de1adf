package web_test

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// dateOf is a UTC date at midnight.
func dateOf(year int, month time.Month, dayOfMonth int) time.Time {
	return time.Date(year, month, dayOfMonth, 0, 0, 0, 0, time.UTC)
}

// Every element of S3's lifecycle schema, sent by the SDK, reads back as
// it was sent [ref §5.1, §5.2].
func TestLifecycleConfigurationRoundTrip(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	b := aws.String("demo")

	_, err := e.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: b})
	wantAPIError(t, err, "NoSuchLifecycleConfiguration", 404)

	rules := []types.LifecycleRule{
		{ID: aws.String("logs"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(10)}, NoncurrentVersionExpiration: &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(12)}},
		{ID: aws.String("and"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{And: &types.LifecycleRuleAndOperator{
			Prefix: aws.String("docs/"), Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("blue")}, {Key: aws.String("keep"), Value: aws.String("no")}},
			ObjectSizeGreaterThan: aws.Int64(100), ObjectSizeLessThan: aws.Int64(5 << 20)}},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(365)},
			Transitions: []types.Transition{{Days: aws.Int32(30), StorageClass: types.TransitionStorageClassStandardIa},
				{Days: aws.Int32(90), StorageClass: types.TransitionStorageClassGlacier}},
			NoncurrentVersionTransitions: []types.NoncurrentVersionTransition{{NoncurrentDays: aws.Int32(40), StorageClass: types.TransitionStorageClassGlacierIr,
				NewerNoncurrentVersions: aws.Int32(2)}},
			NoncurrentVersionExpiration: &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(365), NewerNoncurrentVersions: aws.Int32(5)}},
		{Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{},
			Expiration:                     &types.LifecycleExpiration{ExpiredObjectDeleteMarker: aws.Bool(true)},
			AbortIncompleteMultipartUpload: &types.AbortIncompleteMultipartUpload{DaysAfterInitiation: aws.Int32(7)}},
		{ID: aws.String("tag"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Tag: &types.Tag{Key: aws.String("tmp"), Value: aws.String("")}},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}},
		{ID: aws.String("small"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{ObjectSizeLessThan: aws.Int64(1024)},
			Expiration:  &types.LifecycleExpiration{Date: aws.Time(dateOf(2032, 1, 1))},
			Transitions: []types.Transition{{Date: aws.Time(dateOf(2031, 6, 1)), StorageClass: types.TransitionStorageClassDeepArchive}}},
	}
	_, err = e.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: b,
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: rules}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: b})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Rules) != len(rules) {
		t.Fatalf("%d rules, want %d", len(out.Rules), len(rules))
	}
	if aws.ToString(out.Rules[2].ID) == "" {
		t.Errorf("the rule sent without an ID has none")
	}
	rules[2].ID = out.Rules[2].ID
	for i := range rules {
		if got, want := describeRule(out.Rules[i]), describeRule(rules[i]); got != want {
			t.Errorf("rule %d reads back as\n%s\nwant\n%s", i, got, want)
		}
	}

	// Rules of the legacy form ("Lifecycle V1") read back in it.
	legacy := []types.LifecycleRule{
		{ID: aws.String("legacy"), Status: types.ExpirationStatusDisabled, Prefix: aws.String("tmp/"),
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}},
		{ID: aws.String("all"), Status: types.ExpirationStatusEnabled, Prefix: aws.String(""),
			NoncurrentVersionExpiration: &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(3)}},
	}
	if _, err = e.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: b,
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: legacy}}); err != nil {
		t.Fatal(err)
	}
	if out, err = e.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: b}); err != nil {
		t.Fatal(err)
	}
	for i := range legacy {
		if got, want := describeRule(out.Rules[i]), describeRule(legacy[i]); got != want {
			t.Errorf("legacy rule %d reads back as\n%s\nwant\n%s", i, got, want)
		}
	}

	if _, err := e.client.DeleteBucketLifecycle(ctx, &s3.DeleteBucketLifecycleInput{Bucket: b}); err != nil {
		t.Fatal(err)
	}
	_, err = e.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: b})
	wantAPIError(t, err, "NoSuchLifecycleConfiguration", 404)
	if _, err := e.client.DeleteBucketLifecycle(ctx, &s3.DeleteBucketLifecycleInput{Bucket: b}); err != nil {
		t.Errorf("deleting no configuration: %v", err)
	}
}

// describeRule prints a rule with its pointers followed.
func describeRule(r types.LifecycleRule) string {
	var b strings.Builder
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				b.WriteString("nil")
			} else {
				walk(v.Elem())
			}
		case reflect.Struct:
			if t, ok := v.Interface().(time.Time); ok {
				b.WriteString(t.UTC().Format(time.RFC3339))
				return
			}
			b.WriteString("{")
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fmt.Fprintf(&b, "%s:", v.Type().Field(i).Name)
					walk(v.Field(i))
					b.WriteString(" ")
				}
			}
			b.WriteString("}")
		case reflect.Slice:
			b.WriteString("[")
			for i := range v.Len() {
				walk(v.Index(i))
			}
			b.WriteString("]")
		default:
			fmt.Fprint(&b, v.Interface())
		}
	}
	walk(reflect.ValueOf(r))
	return b.String()
}

// A refused configuration is refused whole, with S3's code [ref §5.3], and
// leaves the stored one as it was.
func TestLifecycleConfigurationValidation(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	const good = `<LifecycleConfiguration><Rule><ID>keep</ID><Status>Enabled</Status><Filter><Prefix>a/</Prefix></Filter><Expiration><Days>3</Days></Expiration></Rule></LifecycleConfiguration>`
	if resp, body := e.raw(t, "PUT", "/demo?lifecycle", []byte(good), nil); resp.StatusCode != 200 {
		t.Fatalf("PUT a valid configuration: %d %s", resp.StatusCode, body)
	}
	rule := func(inner string) string {
		return `<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule>` + inner + `</Rule></LifecycleConfiguration>`
	}
	const on, all, days = `<Status>Enabled</Status>`, `<Filter></Filter>`, `<Expiration><Days>1</Days></Expiration>`
	tag := func(k string) string { return `<Tag><Key>` + k + `</Key><Value>v</Value></Tag>` }
	tests := []struct {
		name, body, code, mentions string
	}{
		{"a lower-case status", rule(`<Status>enabled</Status>` + all + days), "MalformedXML", ""},
		{"a missing status", rule(all + days), "MalformedXML", ""},
		{"neither Filter nor Prefix", rule(on + days), "MalformedXML", ""},
		{"both Filter and Prefix", rule(on + `<Prefix>a</Prefix>` + all + days), "MalformedXML", ""},
		{"two predicates in Filter without And", rule(on + `<Filter><Prefix>a</Prefix><ObjectSizeGreaterThan>5</ObjectSizeGreaterThan></Filter>` + days), "MalformedXML", ""},
		{"Prefix and Tag in Filter without And", rule(on + `<Filter><Prefix>a</Prefix>` + tag("k") + `</Filter>` + days), "MalformedXML", ""},
		{"And beside a Prefix", rule(on + `<Filter><Prefix>a</Prefix><And><Prefix>b</Prefix>` + tag("k") + `</And></Filter>` + days), "MalformedXML", ""},
		{"an And of one predicate", rule(on + `<Filter><And><Prefix>b</Prefix></And></Filter>` + days), "MalformedXML", ""},
		{"ExpiredObjectDeleteMarker with Days", rule(on + all + `<Expiration><Days>1</Days><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>`), "MalformedXML", ""},
		{"Days with a Date", rule(on + all + `<Expiration><Days>1</Days><Date>2030-01-01T00:00:00Z</Date></Expiration>`), "MalformedXML", ""},
		{"an empty Expiration", rule(on + all + `<Expiration></Expiration>`), "MalformedXML", ""},
		{"an empty NoncurrentVersionExpiration", rule(on + all + `<NoncurrentVersionExpiration></NoncurrentVersionExpiration>`), "MalformedXML", ""},
		{"an unknown element", rule(on + all + days + `<Colour>blue</Colour>`), "MalformedXML", ""},
		{"Days that are not a number", rule(on + all + `<Expiration><Days>ten</Days></Expiration>`), "MalformedXML", ""},
		{"a Date that is not ISO 8601", rule(on + all + `<Expiration><Date>20300101</Date></Expiration>`), "MalformedXML", ""},
		{"a document that is not XML", `<LifecycleConfiguration><Rule>`, "MalformedXML", ""},
		{"Expiration Days 0", rule(on + all + `<Expiration><Days>0</Days></Expiration>`), "InvalidArgument", "Days"},
		{"Expiration Days -1", rule(on + all + `<Expiration><Days>-1</Days></Expiration>`), "InvalidArgument", "Days"},
		{"a Date not at midnight", rule(on + all + `<Expiration><Date>2030-01-01T10:30:00Z</Date></Expiration>`), "InvalidArgument", "midnight"},
		{"a Transition Date not at midnight", rule(on + all + `<Transition><Date>2030-01-01T00:00:01Z</Date><StorageClass>GLACIER</StorageClass></Transition>`), "InvalidArgument", "midnight"},
		{"NoncurrentDays 0", rule(on + all + `<NoncurrentVersionExpiration><NoncurrentDays>0</NoncurrentDays></NoncurrentVersionExpiration>`), "InvalidArgument", "NoncurrentDays"},
		{"NewerNoncurrentVersions 0", rule(on + all + `<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays><NewerNoncurrentVersions>0</NewerNoncurrentVersions></NoncurrentVersionExpiration>`), "InvalidArgument", "NewerNoncurrentVersions"},
		{"NewerNoncurrentVersions 101", rule(on + all + `<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays><NewerNoncurrentVersions>101</NewerNoncurrentVersions></NoncurrentVersionExpiration>`), "InvalidArgument", "NewerNoncurrentVersions"},
		{"NewerNoncurrentVersions with a legacy Prefix", rule(on + `<Prefix>a</Prefix><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays><NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>`), "InvalidRequest", "NewerNoncurrentVersions"},
		{"STANDARD_IA before 30 days", rule(on + all + `<Transition><Days>29</Days><StorageClass>STANDARD_IA</StorageClass></Transition>`), "InvalidArgument", "30"},
		{"a transition to STANDARD", rule(on + all + `<Transition><Days>1</Days><StorageClass>STANDARD</StorageClass></Transition>`), "InvalidArgument", "StorageClass"},
		{"a transition to an unknown class", rule(on + all + `<Transition><Days>1</Days><StorageClass>COLD</StorageClass></Transition>`), "InvalidArgument", "StorageClass"},
		{"an abort with a tag filter", rule(on + `<Filter>` + tag("k") + `</Filter><AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload>`), "InvalidRequest", "Tags"},
		{"an abort with a size filter", rule(on + `<Filter><ObjectSizeLessThan>9</ObjectSizeLessThan></Filter><AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload>`), "InvalidRequest", "Object Size"},
		{"ExpiredObjectDeleteMarker with a tag filter", rule(on + `<Filter>` + tag("k") + `</Filter><Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>`), "InvalidRequest", "Tags"},
		{"a tag key twice in And", rule(on + `<Filter><And>` + tag("k") + tag("k") + `</And></Filter>` + days), "InvalidRequest", "Duplicate Tag Keys"},
		{"sizes that leave no room", rule(on + `<Filter><And><ObjectSizeGreaterThan>9</ObjectSizeGreaterThan><ObjectSizeLessThan>9</ObjectSizeLessThan></And></Filter>` + days), "InvalidRequest", "ObjectSize"},
		{"ObjectSizeLessThan 0", rule(on + `<Filter><ObjectSizeLessThan>0</ObjectSizeLessThan></Filter>` + days), "InvalidRequest", "should be between 1 and 1099511627776000"},
		{"ExpiredObjectDeleteMarker with a size filter", rule(on + `<Filter><ObjectSizeGreaterThan>9</ObjectSizeGreaterThan></Filter><Expiration><ExpiredObjectDeleteMarker>false</ExpiredObjectDeleteMarker></Expiration>`), "InvalidRequest", "Object Size"},
		{"ExpiredObjectDeleteMarker True", rule(on + all + `<Expiration><ExpiredObjectDeleteMarker>True</ExpiredObjectDeleteMarker></Expiration>`), "MalformedXML", ""},
		{"ExpiredObjectDeleteMarker T", rule(on + all + `<Expiration><ExpiredObjectDeleteMarker>T</ExpiredObjectDeleteMarker></Expiration>`), "MalformedXML", ""},
		{"ExpiredObjectDeleteMarker yes", rule(on + all + `<Expiration><ExpiredObjectDeleteMarker>yes</ExpiredObjectDeleteMarker></Expiration>`), "MalformedXML", ""},
		{"NewerNoncurrentVersions without NoncurrentDays", rule(on + all + `<NoncurrentVersionExpiration><NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>`), "MalformedXML", ""},
		{"Expiration Days not after a Transition's", rule(on + all + `<Transition><Days>30</Days><StorageClass>GLACIER</StorageClass></Transition><Expiration><Days>30</Days></Expiration>`),
			"InvalidArgument", "&#39;Days&#39; in the Expiration action for filter &#39;()&#39; must be greater than &#39;Days&#39; in the Transition action"},
		{"NoncurrentDays not after a NoncurrentVersionTransition's", rule(on + all + `<NoncurrentVersionTransition><NoncurrentDays>10</NoncurrentDays><StorageClass>GLACIER</StorageClass></NoncurrentVersionTransition><NoncurrentVersionExpiration><NoncurrentDays>5</NoncurrentDays></NoncurrentVersionExpiration>`),
			"InvalidArgument", "must be greater than &#39;NoncurrentDays&#39; in the NoncurrentVersionTransition action"},
		{"Date beside Days", rule(on + all + `<Transition><Date>2030-01-01T00:00:00Z</Date><StorageClass>GLACIER</StorageClass></Transition><Expiration><Days>400</Days></Expiration>`),
			"InvalidRequest", "Found mixed &#39;Date&#39; and &#39;Days&#39; based Expiration and Transition actions"},
		{"one class twice", rule(on + all + `<Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition><Transition><Days>200</Days><StorageClass>GLACIER</StorageClass></Transition>`),
			"InvalidRequest", "&#39;StorageClass&#39; must be different for &#39;Transition&#39; actions"},
		{"a warmer class later", rule(on + all + `<Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition><Transition><Days>200</Days><StorageClass>STANDARD_IA</StorageClass></Transition>`),
			"InvalidArgument", "StorageClass &#39;GLACIER&#39;"},
		{"DEEP_ARCHIVE too soon after GLACIER", rule(on + all + `<Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition><Transition><Days>90</Days><StorageClass>DEEP_ARCHIVE</StorageClass></Transition>`),
			"InvalidArgument", "must be 90 days more than"},
		{"a legacy rule beside a Filter rule", `<LifecycleConfiguration><Rule><ID>a</ID>` + on + `<Prefix>a</Prefix>` + days + `</Rule><Rule><ID>b</ID>` + on + all + days + `</Rule></LifecycleConfiguration>`,
			"InvalidRequest", "Filter element can only be used in Lifecycle V2."},
		{"legacy rules with overlapping prefixes", `<LifecycleConfiguration><Rule><ID>a</ID>` + on + `<Prefix>a</Prefix>` + days + `</Rule><Rule><ID>b</ID>` + on + `<Prefix>ab</Prefix>` + days + `</Rule></LifecycleConfiguration>`,
			"InvalidRequest", "Found overlapping prefixes &#39;a&#39; and &#39;ab&#39; for same action type &#39;Expiration&#39;"},
		{"an ID longer than 255", rule(`<ID>` + strings.Repeat("x", 256) + `</ID>` + on + all + days), "InvalidArgument", "255"},
		{"two rules with one ID", `<LifecycleConfiguration><Rule><ID>r</ID>` + on + all + days + `</Rule><Rule><ID>r</ID>` + on + all + days + `</Rule></LifecycleConfiguration>`, "InvalidArgument", "unique"},
		{"no rules", `<LifecycleConfiguration></LifecycleConfiguration>`, "InvalidArgument", ""},
		{"a rule without an action", rule(on + all), "InvalidRequest", "At least one action needs to be specified in a rule"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is "+tt.code, func(t *testing.T) {
			resp, body := e.raw(t, "PUT", "/demo?lifecycle", []byte(tt.body), nil)
			if resp.StatusCode != 400 || !strings.Contains(string(body), "<Code>"+tt.code+"</Code>") || !strings.Contains(string(body), tt.mentions) {
				t.Errorf("got %d %s, want 400 %s mentioning %q", resp.StatusCode, body, tt.code, tt.mentions)
			}
			out, err := e.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: aws.String("demo")})
			if err != nil || len(out.Rules) != 1 || aws.ToString(out.Rules[0].ID) != "keep" {
				t.Errorf("a refused configuration changed the stored one: %+v %v", out, err)
			}
		})
	}
	t.Run("an xs:boolean is true, false, 1 or 0", func(t *testing.T) {
		for _, value := range []string{"true", "false", "1", "0", " true "} {
			body := rule(on + all + `<Expiration><ExpiredObjectDeleteMarker>` + value + `</ExpiredObjectDeleteMarker></Expiration>`)
			if resp, out := e.raw(t, "PUT", "/demo?lifecycle", []byte(body), nil); resp.StatusCode != 200 {
				t.Errorf("ExpiredObjectDeleteMarker %q: %d %s", value, resp.StatusCode, out)
			}
		}
		e.raw(t, "PUT", "/demo?lifecycle", []byte(good), nil)
	})
	t.Run("the SDK surfaces a Date not at midnight as InvalidArgument", func(t *testing.T) {
		_, err := e.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: aws.String("demo"),
			LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: []types.LifecycleRule{{
				Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{},
				Expiration: &types.LifecycleExpiration{Date: aws.Time(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))},
			}}}})
		wantAPIError(t, err, "InvalidArgument", 400)
	})
}

// setLifecycle stores rules on bucket through the SDK.
func (e *env) setLifecycle(t *testing.T, bucket string, rules ...types.LifecycleRule) {
	t.Helper()
	_, err := e.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: aws.String(bucket),
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: rules}})
	if err != nil {
		t.Fatal(err)
	}
}

// x-amz-expiration says when a rule's Expiration will remove the current
// version, and which rule, on PUT, GET and HEAD; never for a read by
// version ID, and never for rules that expire only noncurrent versions or
// markers [ref §5.8].
func TestExpirationHeader(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	e.setLifecycle(t, "demo",
		types.LifecycleRule{ID: aws.String("logs rule"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(3)}},
		types.LifecycleRule{ID: aws.String("sooner"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/tmp/")},
			Expiration: &types.LifecycleExpiration{Date: aws.Time(dateOf(2025, 12, 5))}},
		types.LifecycleRule{ID: aws.String("noncurrent"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("old/")},
			NoncurrentVersionExpiration: &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(1)}},
		types.LifecycleRule{ID: aws.String("off"), Status: types.ExpirationStatusDisabled, Filter: &types.LifecycleRuleFilter{},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}},
	)
	// 2025-12-04T10:30:00Z: three days later is 2025-12-07T10:30, so the
	// version expires at the midnight after, 2025-12-08 [ref §5.5].
	e.setClock(t, 10*3600+30*60)
	want := `expiry-date="Mon, 08 Dec 2025 00:00:00 GMT", rule-id="logs+rule"`
	put, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("logs/a"), Body: strings.NewReader("a")})
	if err != nil || aws.ToString(put.Expiration) != want {
		t.Errorf("PUT: Expiration %q, %v; want %q", aws.ToString(put.Expiration), err, want)
	}
	get, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("logs/a")})
	if err != nil || aws.ToString(get.Expiration) != want {
		t.Errorf("GET: Expiration %q, %v; want %q", aws.ToString(get.Expiration), err, want)
	}
	head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("logs/a")})
	if err != nil || aws.ToString(head.Expiration) != want {
		t.Errorf("HEAD: Expiration %q, %v; want %q", aws.ToString(head.Expiration), err, want)
	}
	byVersion, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("logs/a"), VersionId: put.VersionId})
	if err != nil || byVersion.Expiration != nil {
		t.Errorf("HEAD by version ID: Expiration %q, %v; want none", aws.ToString(byVersion.Expiration), err)
	}
	tmp, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("logs/tmp/x"), Body: strings.NewReader("x")})
	if want := `expiry-date="Fri, 05 Dec 2025 00:00:00 GMT", rule-id="sooner"`; err != nil || aws.ToString(tmp.Expiration) != want {
		t.Errorf("PUT under two rules: Expiration %q, %v; want the earlier, %q", aws.ToString(tmp.Expiration), err, want)
	}
	for _, key := range []string{"old/a", "other"} {
		out, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String(key), Body: strings.NewReader("o")})
		if err != nil || out.Expiration != nil {
			t.Errorf("PUT %s: Expiration %q, %v; want none", key, aws.ToString(out.Expiration), err)
		}
	}
}

// An upload in progress tells when a rule will abort it, on
// CreateMultipartUpload and ListParts.
func TestAbortHeaders(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	e.setLifecycle(t, "demo", types.LifecycleRule{ID: aws.String("abort"), Status: types.ExpirationStatusEnabled,
		Filter: &types.LifecycleRuleFilter{Prefix: aws.String("big/")}, AbortIncompleteMultipartUpload: &types.AbortIncompleteMultipartUpload{DaysAfterInitiation: aws.Int32(2)}})
	e.setClock(t, 23*3600)
	up, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String("demo"), Key: aws.String("big/file")})
	if err != nil {
		t.Fatal(err)
	}
	if !aws.ToTime(up.AbortDate).Equal(dateOf(2025, 12, 7)) || aws.ToString(up.AbortRuleId) != "abort" {
		t.Errorf("CreateMultipartUpload: AbortDate %v, AbortRuleId %q; want 2025-12-07, abort", up.AbortDate, aws.ToString(up.AbortRuleId))
	}
	parts, err := e.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("demo"), Key: aws.String("big/file"), UploadId: up.UploadId})
	if err != nil || !aws.ToTime(parts.AbortDate).Equal(dateOf(2025, 12, 7)) || aws.ToString(parts.AbortRuleId) != "abort" {
		t.Errorf("ListParts: AbortDate %v, AbortRuleId %q, %v", parts.AbortDate, aws.ToString(parts.AbortRuleId), err)
	}
	other, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String("demo"), Key: aws.String("small/file")})
	if err != nil || other.AbortDate != nil || other.AbortRuleId != nil {
		t.Errorf("an upload no rule aborts: %v %v %v", other.AbortDate, other.AbortRuleId, err)
	}

	// The daily run at 2025-12-07 aborts it.
	e.moveClock(t, 3*day-1)
	if _, err := e.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("demo"), Key: aws.String("big/file"), UploadId: up.UploadId}); err != nil {
		t.Errorf("the upload before its abort date: %v", err)
	}
	e.moveClock(t, 3*day)
	_, err = e.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("demo"), Key: aws.String("big/file"), UploadId: up.UploadId})
	wantAPIError(t, err, "NoSuchUpload", 404)
}

// AWS's documented example [ref §5.5]: an object created on 2014-01-15 at
// 10:30 UTC under a rule of 3 days is removed at 2014-01-19 00:00 UTC, by
// the daily run of that midnight, and not before. The clock is set by RFC
// 3339 time, day by day, and the S3 API shows what S3 would.
func TestAWSExampleDayByDay(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	at := func(stamp string) {
		t.Helper()
		if status, out := e.call(t, "PUT", "/_minis3/clock", `{"time": "`+stamp+`"}`); status != 200 {
			t.Fatalf("clock to %s: %d %s", stamp, status, out)
		}
	}
	at("2014-01-15T10:30:00Z")
	e.setLifecycle(t, "demo", types.LifecycleRule{ID: aws.String("three days"), Status: types.ExpirationStatusEnabled,
		Filter: &types.LifecycleRuleFilter{}, Expiration: &types.LifecycleExpiration{Days: aws.Int32(3)}})
	put, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("report"), Body: strings.NewReader("r")})
	if want := `expiry-date="Sun, 19 Jan 2014 00:00:00 GMT", rule-id="three+days"`; err != nil || aws.ToString(put.Expiration) != want {
		t.Errorf("PUT: Expiration %q, %v; want %q", aws.ToString(put.Expiration), err, want)
	}
	head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("report")})
	if err != nil || !aws.ToTime(head.LastModified).Equal(time.Date(2014, 1, 15, 10, 30, 0, 0, time.UTC)) {
		t.Errorf("Last-Modified %v, %v; want 2014-01-15T10:30:00Z", head.LastModified, err)
	}
	for _, stamp := range []string{"2014-01-16T00:00:00Z", "2014-01-17T00:00:00Z", "2014-01-18T00:00:00Z", "2014-01-18T23:59:59Z"} {
		at(stamp)
		if _, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("report")}); err != nil {
			t.Errorf("at %s the object is gone: %v", stamp, err)
		}
	}
	at("2014-01-19T00:00:00Z")
	_, err = e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("report")})
	wantAPIError(t, err, "NotFound", 404)
}

// Size filters are strict: ObjectSizeGreaterThan 10 selects 11 bytes, not
// 10 [ref §5.4]; a transition shows in HEAD and in listings, and a GET of
// an object moved to GLACIER is InvalidObjectState until it is restored,
// which MiniS3 does not do.
func TestSizeFilterAndTransitions(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	e.setLifecycle(t, "demo", types.LifecycleRule{ID: aws.String("big"), Status: types.ExpirationStatusEnabled,
		Filter:      &types.LifecycleRuleFilter{ObjectSizeGreaterThan: aws.Int64(10)},
		Transitions: []types.Transition{{Days: aws.Int32(1), StorageClass: types.TransitionStorageClassGlacier}}})
	e.put(t, "demo", "ten", strings.Repeat("x", 10))
	e.put(t, "demo", "eleven", strings.Repeat("x", 11))
	e.moveClock(t, 2*day)
	class := func(key string) types.StorageClass {
		t.Helper()
		head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String(key)})
		if err != nil {
			t.Fatalf("HEAD %s: %v", key, err)
		}
		return head.StorageClass
	}
	if got := class("ten"); got != "" {
		t.Errorf("ten bytes: storage class %q, want STANDARD (no header)", got)
	}
	if got := class("eleven"); got != types.StorageClassGlacier {
		t.Errorf("eleven bytes: storage class %q, want GLACIER", got)
	}
	list, err := e.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("demo")})
	if err != nil || len(list.Contents) != 2 || list.Contents[0].StorageClass != types.ObjectStorageClassGlacier || list.Contents[1].StorageClass != types.ObjectStorageClassStandard {
		t.Errorf("ListObjectsV2: %+v %v", list.Contents, err)
	}
	versions, err := e.client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String("demo")})
	if err != nil || len(versions.Versions) != 2 || versions.Versions[0].StorageClass != types.ObjectVersionStorageClass("GLACIER") {
		t.Errorf("ListObjectVersions: %+v %v", versions.Versions, err)
	}
	resp, body := e.raw(t, "GET", "/demo/eleven", nil, nil)
	if resp.StatusCode != 403 || !strings.Contains(string(body), "<Code>InvalidObjectState</Code>") || !strings.Contains(string(body), "<StorageClass>GLACIER</StorageClass>") {
		t.Errorf("GET of a GLACIER object: %d %s, want 403 InvalidObjectState naming GLACIER", resp.StatusCode, body)
	}
}

// Configurations AWS refuses as a whole, sent through the SDK as a client
// would send them: each is refused with S3's code, and the configuration
// stored before stays as it was.
func TestLifecycleRefusalsAcrossElementsThroughTheSDK(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	kept := types.LifecycleRule{ID: aws.String("kept"), Status: types.ExpirationStatusEnabled,
		Filter: &types.LifecycleRuleFilter{Prefix: aws.String("a/")}, Expiration: &types.LifecycleExpiration{Days: aws.Int32(3)}}
	e.setLifecycle(t, "demo", kept)
	all := &types.LifecycleRuleFilter{Prefix: aws.String("")}
	on := types.ExpirationStatusEnabled
	glacier := func(days int32) types.Transition {
		return types.Transition{Days: aws.Int32(days), StorageClass: types.TransitionStorageClassGlacier}
	}
	tests := []struct {
		name  string
		rules []types.LifecycleRule
		code  string
	}{
		{"a rule with no action", []types.LifecycleRule{{Status: on, Filter: all}}, "InvalidRequest"},
		{"NewerNoncurrentVersions without NoncurrentDays", []types.LifecycleRule{{Status: on, Filter: all,
			NoncurrentVersionExpiration: &types.NoncurrentVersionExpiration{NewerNoncurrentVersions: aws.Int32(2)}}}, "MalformedXML"},
		{"legacy rules mixed with Filter rules", []types.LifecycleRule{
			{ID: aws.String("v1"), Status: on, Prefix: aws.String("logs/"), Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}},
			{ID: aws.String("v2"), Status: on, Filter: all, Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}}}, "InvalidRequest"},
		{"Expiration Days not greater than a Transition's", []types.LifecycleRule{{Status: on, Filter: all,
			Transitions: []types.Transition{glacier(30)}, Expiration: &types.LifecycleExpiration{Days: aws.Int32(30)}}}, "InvalidArgument"},
		{"NoncurrentDays not greater than a NoncurrentVersionTransition's", []types.LifecycleRule{{Status: on, Filter: all,
			NoncurrentVersionTransitions: []types.NoncurrentVersionTransition{{NoncurrentDays: aws.Int32(30), StorageClass: types.TransitionStorageClassGlacier}},
			NoncurrentVersionExpiration:  &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(30)}}}, "InvalidArgument"},
		{"Date mixed with Days", []types.LifecycleRule{{Status: on, Filter: all,
			Transitions: []types.Transition{{Date: aws.Time(dateOf(2030, 1, 1)), StorageClass: types.TransitionStorageClassGlacier}},
			Expiration:  &types.LifecycleExpiration{Days: aws.Int32(400)}}}, "InvalidRequest"},
		{"one storage class twice", []types.LifecycleRule{{Status: on, Filter: all,
			Transitions: []types.Transition{glacier(1), glacier(200)}}}, "InvalidRequest"},
		{"a later transition to a warmer class", []types.LifecycleRule{{Status: on, Filter: all,
			Transitions: []types.Transition{glacier(30), {Days: aws.Int32(60), StorageClass: types.TransitionStorageClassStandardIa}}}}, "InvalidArgument"},
		{"DEEP_ARCHIVE less than 90 days after GLACIER", []types.LifecycleRule{{Status: on, Filter: all,
			Transitions: []types.Transition{glacier(0), {Days: aws.Int32(89), StorageClass: types.TransitionStorageClassDeepArchive}}}}, "InvalidArgument"},
		{"ExpiredObjectDeleteMarker with a size filter", []types.LifecycleRule{{Status: on, Filter: &types.LifecycleRuleFilter{ObjectSizeGreaterThan: aws.Int64(5)},
			Expiration: &types.LifecycleExpiration{ExpiredObjectDeleteMarker: aws.Bool(true)}}}, "InvalidRequest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: aws.String("demo"),
				LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: tt.rules}})
			wantAPIError(t, err, tt.code, 400)
			out, err := e.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: aws.String("demo")})
			if err != nil || len(out.Rules) != 1 || describeRule(out.Rules[0]) != describeRule(kept) {
				t.Errorf("a refused configuration changed the stored one: %+v %v", out, err)
			}
		})
	}
}

// Two transitions of the same day race: S3 favours INTELLIGENT_TIERING
// over every class but GLACIER and DEEP_ARCHIVE (AWS user guide, "How
// Amazon S3 handles conflicts in lifecycle configurations"), and the
// object's storage class after the day's run says which won.
func TestSameDayTransitionRaceThroughTheSDK(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	transition := func(id, prefix string, days int32, class types.TransitionStorageClass) types.LifecycleRule {
		return types.LifecycleRule{ID: aws.String(id), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String(prefix)},
			Transitions: []types.Transition{{Days: aws.Int32(days), StorageClass: class}}}
	}
	e.setLifecycle(t, "demo",
		transition("tiering", "", 30, types.TransitionStorageClassIntelligentTiering),
		transition("ia", "ia/", 30, types.TransitionStorageClassStandardIa),
		transition("onezone", "onezone/", 30, types.TransitionStorageClassOnezoneIa),
		transition("instant", "instant/", 30, types.TransitionStorageClassGlacierIr),
		transition("glacier", "glacier/", 30, types.TransitionStorageClassGlacier),
		transition("deep", "deep/", 30, types.TransitionStorageClassDeepArchive))
	want := map[string]types.StorageClass{
		"ia/k": types.StorageClassIntelligentTiering, "onezone/k": types.StorageClassIntelligentTiering,
		"instant/k": types.StorageClassIntelligentTiering, "glacier/k": types.StorageClassGlacier, "deep/k": types.StorageClassDeepArchive,
	}
	for key := range want {
		e.put(t, "demo", key, "x")
	}
	e.moveClock(t, 31*day)
	for key, class := range want {
		head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String(key)})
		if err != nil || head.StorageClass != class {
			t.Errorf("%s after the run of day 31: storage class %q (%v), want %s", key, head.StorageClass, err, class)
		}
	}
}

// Object tags: PutObjectTagging, GetObjectTagging and DeleteObjectTagging,
// of the current version or of one by ID; x-amz-tagging on PUT;
// x-amz-tagging-count on GET and HEAD; S3's limits.
func TestObjectTagging(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	first, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), Body: strings.NewReader("1"),
		Tagging: aws.String("team=blue&note=" + url.QueryEscape("a b+c"))})
	if err != nil {
		t.Fatal(err)
	}
	second := e.put(t, "demo", "k", "2")
	tagsOf := func(versionID *string) []types.Tag {
		t.Helper()
		out, err := e.client.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: versionID})
		if err != nil {
			t.Fatalf("GetObjectTagging %v: %v", aws.ToString(versionID), err)
		}
		return out.TagSet
	}
	if got := tagsOf(first.VersionId); len(got) != 2 || aws.ToString(got[0].Key) != "team" || aws.ToString(got[1].Value) != "a b+c" {
		t.Errorf("tags of the first version: %+v", got)
	}
	if got := tagsOf(nil); len(got) != 0 {
		t.Errorf("tags of the current version: %+v, want none", got)
	}
	put, err := e.client.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{Bucket: aws.String("demo"), Key: aws.String("k"),
		Tagging: &types.Tagging{TagSet: []types.Tag{{Key: aws.String("x"), Value: aws.String("1")}}}})
	if err != nil || aws.ToString(put.VersionId) != second {
		t.Errorf("PutObjectTagging of the current version: %v %v, want version %s", aws.ToString(put.VersionId), err, second)
	}
	head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
	if err != nil || aws.ToInt32(head.TagCount) != 1 {
		t.Errorf("HEAD: TagCount %v, %v; want 1", head.TagCount, err)
	}
	get, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: first.VersionId})
	if err != nil || aws.ToInt32(get.TagCount) != 2 {
		t.Errorf("GET of the first version: TagCount %v, %v; want 2", get.TagCount, err)
	}
	del, err := e.client.DeleteObjectTagging(ctx, &s3.DeleteObjectTaggingInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: first.VersionId})
	if err != nil || aws.ToString(del.VersionId) != aws.ToString(first.VersionId) {
		t.Errorf("DeleteObjectTagging: %v %v", aws.ToString(del.VersionId), err)
	}
	if got := tagsOf(first.VersionId); len(got) != 0 {
		t.Errorf("tags after DeleteObjectTagging: %+v", got)
	}

	tooMany := make([]types.Tag, 11)
	for i := range tooMany {
		tooMany[i] = types.Tag{Key: aws.String(fmt.Sprint("k", i)), Value: aws.String("v")}
	}
	tests := []struct {
		name   string
		tags   []types.Tag
		key    string
		code   string
		status int
	}{
		{"eleven tags", tooMany, "k", "BadRequest", 400},
		{"a key given twice", []types.Tag{{Key: aws.String("a"), Value: aws.String("1")}, {Key: aws.String("a"), Value: aws.String("2")}}, "k", "InvalidTag", 400},
		{"a key of 129 characters", []types.Tag{{Key: aws.String(strings.Repeat("k", 129)), Value: aws.String("")}}, "k", "InvalidTag", 400},
		{"a value of 257 characters", []types.Tag{{Key: aws.String("k"), Value: aws.String(strings.Repeat("v", 257))}}, "k", "InvalidTag", 400},
		{"a key starting aws:", []types.Tag{{Key: aws.String("aws:x"), Value: aws.String("")}}, "k", "InvalidTag", 400},
		{"a missing key", []types.Tag{{Key: aws.String("a"), Value: aws.String("1")}}, "nothere", "NoSuchKey", 404},
	}
	for _, tt := range tests {
		_, err := e.client.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{Bucket: aws.String("demo"), Key: aws.String(tt.key), Tagging: &types.Tagging{TagSet: tt.tags}})
		wantAPIError(t, err, tt.code, tt.status)
	}
	if got := tagsOf(nil); len(got) != 1 || aws.ToString(got[0].Key) != "x" {
		t.Errorf("refused taggings changed the tags: %+v", got)
	}
}

// A rule with a tag filter selects the objects with that tag and value,
// and only those [ref §5.4].
func TestTagFilterSelectsTaggedObjects(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	e.setLifecycle(t, "demo", types.LifecycleRule{ID: aws.String("tmp"), Status: types.ExpirationStatusEnabled,
		Filter: &types.LifecycleRuleFilter{And: &types.LifecycleRuleAndOperator{
			Prefix: aws.String("data/"), Tags: []types.Tag{{Key: aws.String("tmp"), Value: aws.String("yes")}}, ObjectSizeLessThan: aws.Int64(100)}},
		Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}})
	for key, tagging := range map[string]string{"data/a": "tmp=yes", "data/b": "tmp=no", "data/c": "", "other/d": "tmp=yes", "data/e": "tmp=yes&team=x"} {
		in := &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String(key), Body: strings.NewReader("x")}
		if tagging != "" {
			in.Tagging = aws.String(tagging)
		}
		if _, err := e.client.PutObject(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	e.moveClock(t, 2*day)
	list, err := e.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("demo")})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range list.Contents {
		keys = append(keys, aws.ToString(o.Key))
	}
	if want := []string{"data/b", "data/c", "other/d"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("after two days: %v, want %v", keys, want)
	}
}

// In a bucket that was never versioned the tagging requests name no
// version; once it has been versioned they name "null" for the null
// version, as S3 answers.
func TestTaggingNamesTheVersionOnlyInVersionedBuckets(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "plain", "")
	e.put(t, "plain", "k", "x")
	const doc = `<Tagging><TagSet><Tag><Key>a</Key><Value>1</Value></Tag></TagSet></Tagging>`
	for _, tt := range []struct{ method, body, want string }{
		{"PUT", doc, ""}, {"GET", "", ""}, {"DELETE", "", ""},
	} {
		resp, body := e.raw(t, tt.method, "/plain/k?tagging", []byte(tt.body), nil)
		if resp.StatusCode >= 300 || resp.Header.Get("X-Amz-Version-Id") != tt.want {
			t.Errorf("%s ?tagging in a never-versioned bucket: %d, x-amz-version-id %q; want none\n%s", tt.method, resp.StatusCode, resp.Header.Get("X-Amz-Version-Id"), body)
		}
	}
	if _, err := e.client.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: aws.String("plain"),
		VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusSuspended}}); err != nil {
		t.Fatal(err)
	}
	if resp, body := e.raw(t, "GET", "/plain/k?tagging", nil, nil); resp.Header.Get("X-Amz-Version-Id") != "null" {
		t.Errorf("GET ?tagging in a suspended bucket: x-amz-version-id %q, want null\n%s", resp.Header.Get("X-Amz-Version-Id"), body)
	}
}
