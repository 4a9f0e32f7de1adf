package web_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

func TestLifecycleConfigurationRoundTrip(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	b := aws.String("demo")

	_, err := e.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: b})
	wantAPIError(t, err, "NoSuchLifecycleConfiguration", 404)

	rules := []types.LifecycleRule{
		{ID: aws.String("logs"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(10)}, NoncurrentVersionExpiration: &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(12)}},
		{ID: aws.String("legacy"), Status: types.ExpirationStatusDisabled, Prefix: aws.String("tmp/"),
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}},
		{Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{},
			NoncurrentVersionExpiration: &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(30)}},
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
	if len(out.Rules) != 3 {
		t.Fatalf("%d rules, want 3", len(out.Rules))
	}
	r0, r1, r2 := out.Rules[0], out.Rules[1], out.Rules[2]
	if aws.ToString(r0.ID) != "logs" || r0.Status != types.ExpirationStatusEnabled || r0.Prefix != nil || r0.Filter == nil ||
		aws.ToString(r0.Filter.Prefix) != "logs/" || aws.ToInt32(r0.Expiration.Days) != 10 || aws.ToInt32(r0.NoncurrentVersionExpiration.NoncurrentDays) != 12 {
		t.Errorf("rule 0 = %+v", r0)
	}
	if aws.ToString(r1.ID) != "legacy" || r1.Status != types.ExpirationStatusDisabled || aws.ToString(r1.Prefix) != "tmp/" || r1.Filter != nil {
		t.Errorf("rule 1 (legacy Prefix) = %+v", r1)
	}
	if aws.ToString(r2.ID) == "" || r2.Filter == nil || r2.Expiration != nil || aws.ToInt32(r2.NoncurrentVersionExpiration.NoncurrentDays) != 30 {
		t.Errorf("rule 2 (no ID, empty Filter) = %+v", r2)
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
	tests := []struct {
		name, body, code, mentions string
	}{
		{"a lower-case status", rule(`<Status>enabled</Status>` + all + days), "MalformedXML", ""},
		{"a missing status", rule(all + days), "MalformedXML", ""},
		{"neither Filter nor Prefix", rule(on + days), "MalformedXML", ""},
		{"both Filter and Prefix", rule(on + `<Prefix>a</Prefix>` + all + days), "MalformedXML", ""},
		{"two predicates in Filter without And", rule(on + `<Filter><Prefix>a</Prefix><ObjectSizeGreaterThan>5</ObjectSizeGreaterThan></Filter>` + days), "MalformedXML", ""},
		{"ExpiredObjectDeleteMarker with Days", rule(on + all + `<Expiration><Days>1</Days><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>`), "MalformedXML", ""},
		{"an empty NoncurrentVersionExpiration", rule(on + all + `<NoncurrentVersionExpiration></NoncurrentVersionExpiration>`), "MalformedXML", ""},
		{"an unknown element", rule(on + all + days + `<Colour>blue</Colour>`), "MalformedXML", ""},
		{"Days that are not a number", rule(on + all + `<Expiration><Days>ten</Days></Expiration>`), "MalformedXML", ""},
		{"a document that is not XML", `<LifecycleConfiguration><Rule>`, "MalformedXML", ""},
		{"Expiration Days 0", rule(on + all + `<Expiration><Days>0</Days></Expiration>`), "InvalidArgument", "Days"},
		{"NoncurrentDays 0", rule(on + all + `<NoncurrentVersionExpiration><NoncurrentDays>0</NoncurrentDays></NoncurrentVersionExpiration>`), "InvalidArgument", "NoncurrentDays"},
		{"an ID longer than 255", rule(`<ID>` + strings.Repeat("x", 256) + `</ID>` + on + all + days), "InvalidArgument", "255"},
		{"two rules with one ID", `<LifecycleConfiguration><Rule><ID>r</ID>` + on + all + days + `</Rule><Rule><ID>r</ID>` + on + all + days + `</Rule></LifecycleConfiguration>`, "InvalidArgument", "unique"},
		{"no rules", `<LifecycleConfiguration></LifecycleConfiguration>`, "InvalidArgument", ""},
		{"a rule without an action", rule(on + all), "InvalidArgument", ""},
		{"a Tag filter", rule(on + `<Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter>` + days), "NotImplemented", "Filter/Tag"},
		{"an And filter", rule(on + `<Filter><And><Prefix>a</Prefix><Tag><Key>k</Key><Value>v</Value></Tag></And></Filter>` + days), "NotImplemented", "Filter/And"},
		{"an ObjectSizeGreaterThan filter", rule(on + `<Filter><ObjectSizeGreaterThan>5</ObjectSizeGreaterThan></Filter>` + days), "NotImplemented", "Filter/ObjectSizeGreaterThan"},
		{"an ObjectSizeLessThan filter", rule(on + `<Filter><ObjectSizeLessThan>5</ObjectSizeLessThan></Filter>` + days), "NotImplemented", "Filter/ObjectSizeLessThan"},
		{"an Expiration Date", rule(on + all + `<Expiration><Date>2030-01-01T00:00:00Z</Date></Expiration>`), "NotImplemented", "Expiration/Date"},
		{"ExpiredObjectDeleteMarker", rule(on + all + `<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>`), "NotImplemented", "Expiration/ExpiredObjectDeleteMarker"},
		{"NewerNoncurrentVersions", rule(on + all + `<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays><NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>`), "NotImplemented", "NewerNoncurrentVersions"},
		{"a Transition", rule(on + all + days + `<Transition><Days>30</Days><StorageClass>GLACIER</StorageClass></Transition>`), "NotImplemented", "Transition"},
		{"a NoncurrentVersionTransition", rule(on + all + days + `<NoncurrentVersionTransition><NoncurrentDays>30</NoncurrentDays><StorageClass>GLACIER</StorageClass></NoncurrentVersionTransition>`), "NotImplemented", "NoncurrentVersionTransition"},
		{"AbortIncompleteMultipartUpload", rule(on + all + days + `<AbortIncompleteMultipartUpload><DaysAfterInitiation>7</DaysAfterInitiation></AbortIncompleteMultipartUpload>`), "NotImplemented", "AbortIncompleteMultipartUpload"},
	}
	status := map[string]int{"MalformedXML": 400, "InvalidArgument": 400, "NotImplemented": 501}
	for _, tt := range tests {
		t.Run(tt.name+" is "+tt.code, func(t *testing.T) {
			resp, body := e.raw(t, "PUT", "/demo?lifecycle", []byte(tt.body), nil)
			if resp.StatusCode != status[tt.code] || !strings.Contains(string(body), "<Code>"+tt.code+"</Code>") || !strings.Contains(string(body), tt.mentions) {
				t.Errorf("got %d %s, want %d %s mentioning %q", resp.StatusCode, body, status[tt.code], tt.code, tt.mentions)
			}
			out, err := e.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: aws.String("demo")})
			if err != nil || len(out.Rules) != 1 || aws.ToString(out.Rules[0].ID) != "keep" {
				t.Errorf("a refused configuration changed the stored one: %+v %v", out, err)
			}
		})
	}
	t.Run("the SDK surfaces a refused element as NotImplemented", func(t *testing.T) {
		_, err := e.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: aws.String("demo"),
			LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: []types.LifecycleRule{{
				Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{},
				AbortIncompleteMultipartUpload: &types.AbortIncompleteMultipartUpload{DaysAfterInitiation: aws.Int32(7)},
			}}}})
		wantAPIError(t, err, "NotImplemented", 501)
	})
}
