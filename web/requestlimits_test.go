package web_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"minis3/core"
)

// User metadata may hold 2048 bytes, names (without x-amz-meta-) and
// values together; more is 400 MetadataTooLarge with the size and the
// limit, on every write that stores metadata.
func TestUserMetadataOver2KBIsMetadataTooLarge(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	e.put(t, "demo", "src", "x")
	b := aws.String("demo")
	fits := map[string]string{"name": strings.Repeat("v", 2044)} // 4 + 2044 bytes
	over := map[string]string{"name": strings.Repeat("v", 2045)}
	if _, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: aws.String("fits"), Body: strings.NewReader("x"), Metadata: fits}); err != nil {
		t.Fatalf("2048 bytes of metadata: %v", err)
	}
	writes := []struct {
		name string
		call func() error
	}{
		{"PutObject", func() error {
			_, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: aws.String("over"), Body: strings.NewReader("x"), Metadata: over})
			return err
		}},
		{"CopyObject", func() error {
			_, err := e.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: b, Key: aws.String("over"), CopySource: aws.String("demo/src"),
				MetadataDirective: types.MetadataDirectiveReplace, Metadata: over})
			return err
		}},
		{"CreateMultipartUpload", func() error {
			_, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: b, Key: aws.String("over"), Metadata: over})
			return err
		}},
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) { wantAPIError(t, w.call(), "MetadataTooLarge", 400) })
	}
	resp, body := e.raw(t, "PUT", "/demo/over", []byte("x"), map[string]string{"x-amz-meta-name": over["name"]})
	want := "<Code>MetadataTooLarge</Code><Message>Your metadata headers exceed the maximum allowed metadata size</Message>" +
		"<Size>2049</Size><MaxSizeAllowed>2048</MaxSizeAllowed>"
	if resp.StatusCode != 400 || !strings.Contains(string(body), want) {
		t.Errorf("got %d %s, want 400 with %s", resp.StatusCode, body, want)
	}
	if _, err := e.store.HeadObject("demo", "over", core.GetOptions{}); err == nil {
		t.Error("a refused write stored the object")
	}
}

// An x-amz-content-sha256 that is neither a SHA-256 in lower-case hex nor
// one of S3's keywords is 400 InvalidArgument naming the header, though
// this handler verifies no signature.
func TestMalformedContentSHA256IsInvalidArgument(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	for _, v := range []string{"abc", "UNSIGNED", "STREAMING-PAYLOAD", strings.Repeat("E", 64), strings.Repeat("e", 63), strings.Repeat("g", 64)} {
		resp, body := e.raw(t, "GET", "/demo", nil, map[string]string{"x-amz-content-sha256": v})
		want := "<ArgumentName>x-amz-content-sha256</ArgumentName><ArgumentValue>" + v + "</ArgumentValue>"
		if resp.StatusCode != 400 || !strings.Contains(string(body), "<Code>InvalidArgument</Code>") || !strings.Contains(string(body), want) {
			t.Errorf("%q: %d %s, want 400 InvalidArgument with %s", v, resp.StatusCode, body, want)
		}
	}
	for _, v := range []string{"UNSIGNED-PAYLOAD", "STREAMING-UNSIGNED-PAYLOAD-TRAILER", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
		"STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER", "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD",
		"STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER", strings.Repeat("e", 64)} {
		if resp, body := e.raw(t, "GET", "/demo", nil, map[string]string{"x-amz-content-sha256": v}); resp.StatusCode != 200 {
			t.Errorf("%q: %d %s, want 200", v, resp.StatusCode, body)
		}
	}
}

// A SigV4 credential scope of another region than us-east-1 is refused as
// S3 refuses it, with the region to sign for, though this handler
// verifies no signature: AuthorizationHeaderMalformed in the
// Authorization header, AuthorizationQueryParametersError in a presigned
// URL.
func TestCredentialScopeOfAnotherRegionIsAuthorizationHeaderMalformed(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	elsewhere := s3.New(e.client.Options(), func(o *s3.Options) { o.Region = "eu-west-1" })
	_, err := elsewhere.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("demo")})
	wantAPIError(t, err, "AuthorizationHeaderMalformed", 400)

	resp, body := e.raw(t, "GET", "/demo", nil, map[string]string{
		"Authorization": "AWS4-HMAC-SHA256 Credential=minis3/20260101/eu-west-1/s3/aws4_request, SignedHeaders=host, Signature=0",
	})
	want := "<Message>The authorization header is malformed; the region &#39;eu-west-1&#39; is wrong; expecting &#39;us-east-1&#39;</Message>" +
		"<Region>us-east-1</Region>"
	if resp.StatusCode != 400 || !strings.Contains(string(body), want) {
		t.Errorf("got %d %s, want 400 with %s", resp.StatusCode, body, want)
	}

	req, err := s3.NewPresignClient(elsewhere).PresignGetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimPrefix(req.URL, e.srv.URL)
	resp, body = e.raw(t, "GET", path, nil, nil)
	want = "<Code>AuthorizationQueryParametersError</Code><Message>Error parsing the X-Amz-Credential parameter; " +
		"the region &#39;eu-west-1&#39; is wrong; expecting &#39;us-east-1&#39;</Message><Region>us-east-1</Region>"
	if resp.StatusCode != 400 || !strings.Contains(string(body), want) {
		t.Errorf("presigned: got %d %s, want 400 with %s", resp.StatusCode, body, want)
	}
}

// A request document that gives an element twice where S3's schema has it
// once is MalformedXML, and changes nothing.
func TestRepeatedXMLElementsAreMalformedXML(t *testing.T) {
	e := newEnv(t, envOptions{minPartSize: 1})
	e.bucket(t, "demo", "")
	e.put(t, "demo", "k", "x")
	up, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String("demo"), Key: aws.String("mp")})
	if err != nil {
		t.Fatal(err)
	}
	part, err := e.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: aws.String("demo"), Key: aws.String("mp"), UploadId: up.UploadId,
		PartNumber: aws.Int32(1), Body: strings.NewReader("part")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, method, path, body string }{
		{"two Status in VersioningConfiguration", "PUT", "/demo?versioning",
			`<VersioningConfiguration><Status>Enabled</Status><Status>Enabled</Status></VersioningConfiguration>`},
		{"two Quiet in Delete", "POST", "/demo?delete", `<Delete><Quiet>true</Quiet><Quiet>true</Quiet><Object><Key>k</Key></Object></Delete>`},
		{"two Key in an Object", "POST", "/demo?delete", `<Delete><Object><Key>k</Key><Key>k</Key></Object></Delete>`},
		{"two PartNumber in a Part", "POST", "/demo/mp?uploadId=" + aws.ToString(up.UploadId),
			`<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><PartNumber>1</PartNumber><ETag>` + aws.ToString(part.ETag) +
				`</ETag></Part></CompleteMultipartUpload>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.raw(t, tt.method, tt.path, []byte(tt.body), nil)
			if resp.StatusCode != 400 || !strings.Contains(string(body), "<Code>MalformedXML</Code>") {
				t.Errorf("got %d %s, want 400 MalformedXML", resp.StatusCode, body)
			}
		})
	}
	if state, err := e.store.BucketVersioning("demo"); err != nil || state != core.Unversioned {
		t.Errorf("versioning %q (%v), want still unversioned", state, err)
	}
	if got := e.getBody(t, "demo", "k", ""); got != "x" {
		t.Errorf("demo/k is %q, want it kept", got)
	}
	if _, err := e.store.ListParts("demo", "mp", aws.ToString(up.UploadId), core.ListPartsOptions{}); err != nil {
		t.Errorf("the upload is gone: %v", err)
	}
}
