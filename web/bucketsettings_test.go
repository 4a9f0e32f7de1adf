package web_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// wantOwnerFullControl fails unless an ACL is the owner's FULL_CONTROL
// grant and nothing else.
func wantOwnerFullControl(t *testing.T, owner *types.Owner, grants []types.Grant) {
	t.Helper()
	if owner == nil || aws.ToString(owner.ID) != "minis3" || len(grants) != 1 {
		t.Fatalf("owner %+v, grants %+v; want owner minis3 and one grant", owner, grants)
	}
	g := grants[0]
	if g.Permission != types.PermissionFullControl || g.Grantee == nil || g.Grantee.Type != types.TypeCanonicalUser || aws.ToString(g.Grantee.ID) != "minis3" {
		t.Errorf("grant %+v (grantee %+v), want FULL_CONTROL to the canonical user minis3", g, g.Grantee)
	}
}

// Every bucket setting a tool reads when it refreshes a bucket answers
// what S3 answers for a bucket that never set it, in a form the SDK reads:
// S3's default document, or the typed error with its status.
func TestBucketSettingsReadAsForABucketThatNeverSetThem(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	b := aws.String("demo")

	t.Run("GetBucketAcl is the owner's FULL_CONTROL", func(t *testing.T) {
		out, err := e.client.GetBucketAcl(ctx, &s3.GetBucketAclInput{Bucket: b})
		if err != nil {
			t.Fatal(err)
		}
		wantOwnerFullControl(t, out.Owner, out.Grants)
	})
	t.Run("GetBucketEncryption is SSE-S3 without a bucket key", func(t *testing.T) {
		out, err := e.client.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: b})
		if err != nil {
			t.Fatal(err)
		}
		rules := out.ServerSideEncryptionConfiguration.Rules
		if len(rules) != 1 || rules[0].ApplyServerSideEncryptionByDefault == nil ||
			rules[0].ApplyServerSideEncryptionByDefault.SSEAlgorithm != types.ServerSideEncryptionAes256 ||
			rules[0].BucketKeyEnabled == nil || *rules[0].BucketKeyEnabled {
			t.Errorf("rules %+v, want one rule: AES256, BucketKeyEnabled false", rules)
		}
	})
	t.Run("GetBucketOwnershipControls is BucketOwnerEnforced", func(t *testing.T) {
		out, err := e.client.GetBucketOwnershipControls(ctx, &s3.GetBucketOwnershipControlsInput{Bucket: b})
		if err != nil {
			t.Fatal(err)
		}
		if r := out.OwnershipControls.Rules; len(r) != 1 || r[0].ObjectOwnership != types.ObjectOwnershipBucketOwnerEnforced {
			t.Errorf("rules %+v, want BucketOwnerEnforced", r)
		}
	})
	t.Run("GetPublicAccessBlock blocks everything", func(t *testing.T) {
		out, err := e.client.GetPublicAccessBlock(ctx, &s3.GetPublicAccessBlockInput{Bucket: b})
		if err != nil {
			t.Fatal(err)
		}
		c := out.PublicAccessBlockConfiguration
		if !aws.ToBool(c.BlockPublicAcls) || !aws.ToBool(c.IgnorePublicAcls) || !aws.ToBool(c.BlockPublicPolicy) || !aws.ToBool(c.RestrictPublicBuckets) {
			t.Errorf("configuration %+v, want all four true", c)
		}
	})
	t.Run("GetBucketRequestPayment is BucketOwner", func(t *testing.T) {
		out, err := e.client.GetBucketRequestPayment(ctx, &s3.GetBucketRequestPaymentInput{Bucket: b})
		if err != nil || out.Payer != types.PayerBucketOwner {
			t.Errorf("payer %q (%v), want BucketOwner", out.Payer, err)
		}
	})
	t.Run("GetBucketAccelerateConfiguration is empty", func(t *testing.T) {
		out, err := e.client.GetBucketAccelerateConfiguration(ctx, &s3.GetBucketAccelerateConfigurationInput{Bucket: b})
		if err != nil || out.Status != "" {
			t.Errorf("status %q (%v), want none", out.Status, err)
		}
	})
	t.Run("GetBucketLogging is empty", func(t *testing.T) {
		out, err := e.client.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: b})
		if err != nil || out.LoggingEnabled != nil {
			t.Errorf("logging %+v (%v), want none", out.LoggingEnabled, err)
		}
	})
	t.Run("GetBucketNotificationConfiguration is empty", func(t *testing.T) {
		out, err := e.client.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: b})
		if err != nil || len(out.QueueConfigurations)+len(out.TopicConfigurations)+len(out.LambdaFunctionConfigurations) != 0 || out.EventBridgeConfiguration != nil {
			t.Errorf("notifications %+v (%v), want none", out, err)
		}
	})

	missing := []struct {
		code string
		call func() error
	}{
		{"NoSuchBucketPolicy", func() error { _, err := e.client.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: b}); return err }},
		{"NoSuchBucketPolicy", func() error {
			_, err := e.client.GetBucketPolicyStatus(ctx, &s3.GetBucketPolicyStatusInput{Bucket: b})
			return err
		}},
		{"NoSuchCORSConfiguration", func() error { _, err := e.client.GetBucketCors(ctx, &s3.GetBucketCorsInput{Bucket: b}); return err }},
		{"NoSuchWebsiteConfiguration", func() error {
			_, err := e.client.GetBucketWebsite(ctx, &s3.GetBucketWebsiteInput{Bucket: b})
			return err
		}},
		{"NoSuchTagSet", func() error {
			_, err := e.client.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: b})
			return err
		}},
		{"ObjectLockConfigurationNotFoundError", func() error {
			_, err := e.client.GetObjectLockConfiguration(ctx, &s3.GetObjectLockConfigurationInput{Bucket: b})
			return err
		}},
		{"ReplicationConfigurationNotFoundError", func() error {
			_, err := e.client.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: b})
			return err
		}},
	}
	for _, tt := range missing {
		t.Run("no setting is "+tt.code, func(t *testing.T) { wantAPIError(t, tt.call(), tt.code, 404) })
	}
}

// The errors of a setting a bucket does not have are S3's documents: the
// code, S3's message and the bucket's name.
func TestMissingBucketSettingErrorsNameTheBucket(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	tests := []struct{ query, code, message string }{
		{"policy", "NoSuchBucketPolicy", "The bucket policy does not exist"},
		{"policyStatus", "NoSuchBucketPolicy", "The bucket policy does not exist"},
		{"cors", "NoSuchCORSConfiguration", "The CORS configuration does not exist"},
		{"website", "NoSuchWebsiteConfiguration", "The specified bucket does not have a website configuration"},
		{"tagging", "NoSuchTagSet", "The TagSet does not exist"},
		{"object-lock", "ObjectLockConfigurationNotFoundError", "Object Lock configuration does not exist for this bucket"},
		{"replication", "ReplicationConfigurationNotFoundError", "The replication configuration was not found"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			resp, body := e.raw(t, "GET", "/demo?"+tt.query, nil, nil)
			want := fmt.Sprintf("<Error><Code>%s</Code><Message>%s</Message><BucketName>demo</BucketName><RequestId>", tt.code, tt.message)
			if resp.StatusCode != 404 || !strings.Contains(string(body), want) {
				t.Errorf("got %d %s, want 404 with %s", resp.StatusCode, body, want)
			}
		})
	}
}

// A setting of a bucket that does not exist is NoSuchBucket, whatever the
// method.
func TestBucketSettingsOfAMissingBucketAreNoSuchBucket(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, target := range []string{"GET /nothere?acl", "GET /nothere?encryption", "GET /nothere?policy", "PUT /nothere?policy",
		"DELETE /nothere?cors", "GET /nothere?tagging", "PUT /nothere?tagging", "DELETE /nothere?tagging", "GET /nothere/k?acl"} {
		method, path, _ := strings.Cut(target, " ")
		resp, body := e.raw(t, method, path, []byte(`<Tagging><TagSet/></Tagging>`), nil)
		if resp.StatusCode != 404 || !strings.Contains(string(body), "<Code>NoSuchBucket</Code>") {
			t.Errorf("%s: %d %s, want 404 NoSuchBucket", target, resp.StatusCode, body)
		}
	}
}

// Changing a setting MiniS3 does not keep is NotImplemented, naming S3's
// operation; a method S3 has no operation for on the subresource is
// MethodNotAllowed, and neither deletes the bucket or the object.
func TestBucketSettingWritesAreNotImplemented(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	e.put(t, "demo", "k", "x")
	b := aws.String("demo")
	writes := []struct {
		op   string
		call func() error
	}{
		{"PutBucketPolicy", func() error {
			_, err := e.client.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: b, Policy: aws.String(`{"Version":"2012-10-17","Statement":[]}`)})
			return err
		}},
		{"DeleteBucketPolicy", func() error {
			_, err := e.client.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: b})
			return err
		}},
		{"PutBucketAcl", func() error {
			_, err := e.client.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: b, ACL: types.BucketCannedACLPublicRead})
			return err
		}},
		{"DeleteBucketCors", func() error {
			_, err := e.client.DeleteBucketCors(ctx, &s3.DeleteBucketCorsInput{Bucket: b})
			return err
		}},
		{"PutBucketEncryption", func() error {
			_, err := e.client.PutBucketEncryption(ctx, &s3.PutBucketEncryptionInput{Bucket: b, ServerSideEncryptionConfiguration: &types.ServerSideEncryptionConfiguration{
				Rules: []types.ServerSideEncryptionRule{{ApplyServerSideEncryptionByDefault: &types.ServerSideEncryptionByDefault{SSEAlgorithm: types.ServerSideEncryptionAwsKms}}}}})
			return err
		}},
		{"DeletePublicAccessBlock", func() error {
			_, err := e.client.DeletePublicAccessBlock(ctx, &s3.DeletePublicAccessBlockInput{Bucket: b})
			return err
		}},
		{"PutObjectAcl", func() error {
			_, err := e.client.PutObjectAcl(ctx, &s3.PutObjectAclInput{Bucket: b, Key: aws.String("k"), ACL: types.ObjectCannedACLPublicRead})
			return err
		}},
	}
	for _, w := range writes {
		t.Run(w.op, func(t *testing.T) {
			err := w.call()
			wantAPIError(t, err, "NotImplemented", 501)
			var ae smithy.APIError
			if errors.As(err, &ae) && !strings.Contains(ae.ErrorMessage(), "MiniS3 does not implement "+w.op) {
				t.Errorf("message %q does not name %s", ae.ErrorMessage(), w.op)
			}
		})
	}
	for _, target := range []string{"DELETE /demo?acl", "DELETE /demo?requestPayment", "PUT /demo?policyStatus", "POST /demo?encryption", "DELETE /demo/k?acl"} {
		method, path, _ := strings.Cut(target, " ")
		resp, body := e.raw(t, method, path, nil, nil)
		if resp.StatusCode != 405 || !strings.Contains(string(body), "<Code>MethodNotAllowed</Code>") || resp.Header.Get("Allow") == "" {
			t.Errorf("%s: %d (Allow %q) %s, want 405 MethodNotAllowed with Allow", target, resp.StatusCode, resp.Header.Get("Allow"), body)
		}
	}
	if got := e.getBody(t, "demo", "k", ""); got != "x" {
		t.Errorf("the object is %q after the refused requests", got)
	}
}

// GetObjectAcl is the owner's FULL_CONTROL for any version of an object;
// a missing key is NoSuchKey and a delete marker, which has no ACL,
// MethodNotAllowed.
func TestGetObjectAclIsTheOwnersFullControl(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	first := e.put(t, "demo", "k", "one")
	for _, vid := range []*string{nil, aws.String(first)} {
		out, err := e.client.GetObjectAcl(ctx, &s3.GetObjectAclInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: vid})
		if err != nil {
			t.Fatalf("GetObjectAcl (version %v): %v", aws.ToString(vid), err)
		}
		wantOwnerFullControl(t, out.Owner, out.Grants)
	}
	_, err := e.client.GetObjectAcl(ctx, &s3.GetObjectAclInput{Bucket: aws.String("demo"), Key: aws.String("missing")})
	wantAPIError(t, err, "NoSuchKey", 404)
	if _, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")}); err != nil {
		t.Fatal(err)
	}
	_, err = e.client.GetObjectAcl(ctx, &s3.GetObjectAclInput{Bucket: aws.String("demo"), Key: aws.String("k")})
	wantAPIError(t, err, "MethodNotAllowed", 405)
}

// Bucket tags are kept: put, read back in order, replaced, deleted, as
// S3 answers each (204 for the writes, NoSuchTagSet once gone).
func TestBucketTaggingRoundTrip(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	b := aws.String("demo")
	tags := []types.Tag{{Key: aws.String("team"), Value: aws.String("blue")}, {Key: aws.String("cost centre"), Value: aws.String("")}}
	if _, err := e.client.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: b, Tagging: &types.Tagging{TagSet: tags}}); err != nil {
		t.Fatal(err)
	}
	out, err := e.client.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: b})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tag := range out.TagSet {
		got = append(got, aws.ToString(tag.Key)+"="+aws.ToString(tag.Value))
	}
	if strings.Join(got, ",") != "team=blue,cost centre=" {
		t.Errorf("tags %v, want team=blue,cost centre=", got)
	}

	resp, body := e.raw(t, "PUT", "/demo?tagging", []byte(`<Tagging><TagSet><Tag><Key>only</Key><Value>one</Value></Tag></TagSet></Tagging>`), nil)
	if resp.StatusCode != 204 {
		t.Errorf("PUT ?tagging: %d %s, want 204", resp.StatusCode, body)
	}
	resp, body = e.raw(t, "GET", "/demo?tagging", nil, nil)
	want := `<Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><TagSet><Tag><Key>only</Key><Value>one</Value></Tag></TagSet></Tagging>`
	if resp.StatusCode != 200 || !strings.HasSuffix(string(body), want) {
		t.Errorf("GET ?tagging: %d %s, want %s", resp.StatusCode, body, want)
	}
	resp, body = e.raw(t, "DELETE", "/demo?tagging", nil, nil)
	if resp.StatusCode != 204 {
		t.Errorf("DELETE ?tagging: %d %s, want 204", resp.StatusCode, body)
	}
	_, err = e.client.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: b})
	wantAPIError(t, err, "NoSuchTagSet", 404)
	if _, err := e.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: b}); err != nil {
		t.Errorf("DeleteBucketTagging touched the bucket: %v", err)
	}
}

// Bucket tags keep S3's limits: 50 tags, keys and values by the rules of
// object tags, each key once, and a Tagging document of S3's schema.
func TestBucketTaggingLimits(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	put := func(tags ...types.Tag) error {
		_, err := e.client.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: aws.String("demo"), Tagging: &types.Tagging{TagSet: tags}})
		return err
	}
	tag := func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }
	var fifty []types.Tag
	for i := range 50 {
		fifty = append(fifty, tag(fmt.Sprint("k", i), strings.Repeat("v", 256)))
	}
	if err := put(fifty...); err != nil {
		t.Fatalf("50 tags: %v", err)
	}
	tests := []struct {
		name, code string
		err        error
	}{
		{"51 tags", "BadRequest", put(append(fifty, tag("k50", ""))...)},
		{"a key twice", "InvalidTag", put(tag("a", "1"), tag("a", "2"))},
		{"a key of 129 characters", "InvalidTag", put(tag(strings.Repeat("k", 129), ""))},
		{"a value of 257 characters", "InvalidTag", put(tag("k", strings.Repeat("v", 257)))},
		{"a key starting with aws:", "InvalidTag", put(tag("aws:cloudformation", "x"))},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is "+tt.code, func(t *testing.T) { wantAPIError(t, tt.err, tt.code, 400) })
	}
	for _, doc := range []string{
		`<Tagging><TagSet><Tag><Key>a</Key></Tag></TagSet><TagSet/></Tagging>`,
		`<Tagging><TagSet><Tag><Key>a</Key><Key>b</Key></Tag></TagSet></Tagging>`,
		`<Tagging><TagSet><Tag><Value>no key</Value></Tag></TagSet></Tagging>`,
		`<Tagging><TagSet>`,
	} {
		if resp, body := e.raw(t, "PUT", "/demo?tagging", []byte(doc), nil); resp.StatusCode != 400 || !strings.Contains(string(body), "<Code>MalformedXML</Code>") {
			t.Errorf("%s: %d %s, want 400 MalformedXML", doc, resp.StatusCode, body)
		}
	}
	out, err := e.client.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: aws.String("demo")})
	if err != nil || len(out.TagSet) != 50 {
		t.Errorf("after the refusals the bucket has %d tags (%v), want the 50 first put", len(out.TagSet), err)
	}
}

// Every write and read of an object says it is encrypted with SSE-S3, as
// S3 says since it encrypts every object.
func TestServerSideEncryptionHeaderIsAES256(t *testing.T) {
	e := newEnv(t, envOptions{minPartSize: 1})
	e.bucket(t, "demo", "")
	b, k := aws.String("demo"), aws.String("k")
	put, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: k, Body: strings.NewReader("hello")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: b, Key: k})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, got.Body); err != nil {
		t.Fatal(err)
	}
	got.Body.Close()
	head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: b, Key: k})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := e.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: b, Key: aws.String("copy"), CopySource: aws.String("demo/k")})
	if err != nil {
		t.Fatal(err)
	}
	create, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: b, Key: aws.String("mp")})
	if err != nil {
		t.Fatal(err)
	}
	part, err := e.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: b, Key: aws.String("mp"), UploadId: create.UploadId,
		PartNumber: aws.Int32(1), Body: strings.NewReader("part")})
	if err != nil {
		t.Fatal(err)
	}
	done, err := e.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: b, Key: aws.String("mp"), UploadId: create.UploadId,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: []types.CompletedPart{{PartNumber: aws.Int32(1), ETag: part.ETag}}}})
	if err != nil {
		t.Fatal(err)
	}
	for op, sse := range map[string]types.ServerSideEncryption{
		"PutObject": put.ServerSideEncryption, "GetObject": got.ServerSideEncryption, "HeadObject": head.ServerSideEncryption,
		"CopyObject": cp.ServerSideEncryption, "CreateMultipartUpload": create.ServerSideEncryption,
		"UploadPart": part.ServerSideEncryption, "CompleteMultipartUpload": done.ServerSideEncryption,
	} {
		if sse != types.ServerSideEncryptionAes256 {
			t.Errorf("%s: ServerSideEncryption %q, want AES256", op, sse)
		}
	}
}
