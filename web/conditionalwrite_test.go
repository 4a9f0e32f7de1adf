package web_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// putIf is PutObject of body with If-None-Match and If-Match ("" leaves a
// header out).
func (e *env) putIf(bucket, key, body, ifNoneMatch, ifMatch string) (*s3.PutObjectOutput, error) {
	in := &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: strings.NewReader(body)}
	if ifNoneMatch != "" {
		in.IfNoneMatch = &ifNoneMatch
	}
	if ifMatch != "" {
		in.IfMatch = &ifMatch
	}
	return e.client.PutObject(ctx, in)
}

func TestConditionalPutObject(t *testing.T) {
	for _, versioning := range []string{"", "enabled", "suspended"} {
		t.Run("versioning "+versioning, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			e.bucket(t, "demo", versioning)
			etag := func(body string) string { return `"` + md5hex([]byte(body)) + `"` }

			if _, err := e.putIf("demo", "k", "one", "*", ""); err != nil {
				t.Fatalf("If-None-Match * on a new key: %v", err)
			}
			_, err := e.putIf("demo", "k", "two", "*", "")
			wantAPIError(t, err, "PreconditionFailed", 412)
			if got := e.getBody(t, "demo", "k", ""); got != "one" {
				t.Errorf("after a failed If-None-Match the object is %q", got)
			}
			_, err = e.putIf("demo", "k", "two", "", etag("other"))
			wantAPIError(t, err, "PreconditionFailed", 412)
			if _, err := e.putIf("demo", "k", "two", "", etag("one")); err != nil {
				t.Fatalf("If-Match with the current ETag: %v", err)
			}
			if got := e.getBody(t, "demo", "k", ""); got != "two" {
				t.Errorf("after If-Match the object is %q", got)
			}

			if _, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")}); err != nil {
				t.Fatal(err)
			}
			_, err = e.putIf("demo", "k", "three", "", etag("two"))
			wantAPIError(t, err, "NoSuchKey", 404)
			if _, err := e.putIf("demo", "k", "three", "*", ""); err != nil {
				t.Errorf("If-None-Match * on a deleted key: %v", err)
			}
		})
	}
}

func TestConditionalWriteHeaders(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	e.put(t, "demo", "k", "one")
	tests := []struct {
		name          string
		header        map[string]string
		status        int
		code, element string
	}{
		{"If-None-Match * on an object names its condition", map[string]string{"If-None-Match": "*"}, 412, "PreconditionFailed",
			"<Condition>If-None-Match</Condition>"},
		{"another If-Match names its condition", map[string]string{"If-Match": `"abc"`}, 412, "PreconditionFailed", "<Condition>If-Match</Condition>"},
		{"If-None-Match with an ETag is NotImplemented", map[string]string{"If-None-Match": `"abc"`}, 501, "NotImplemented", "<Header>If-None-Match</Header>"},
		{"If-Match * is NotImplemented", map[string]string{"If-Match": "*"}, 501, "NotImplemented", "<Header>If-Match</Header>"},
		{"both headers are NotImplemented", map[string]string{"If-Match": `"abc"`, "If-None-Match": "*"}, 501, "NotImplemented",
			"<Header>If-Match,If-None-Match</Header>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.raw(t, "PUT", "/demo/k", []byte("two"), tt.header)
			if resp.StatusCode != tt.status || !strings.Contains(string(body), "<Code>"+tt.code+"</Code>") || !strings.Contains(string(body), tt.element) {
				t.Errorf("got %d %s, want %d %s with %s", resp.StatusCode, body, tt.status, tt.code, tt.element)
			}
		})
	}
	if got := e.getBody(t, "demo", "k", ""); got != "one" {
		t.Errorf("the object is %q after refused writes", got)
	}
}

// completeIf completes an upload with If-None-Match and If-Match ("" leaves
// a header out).
func (e *env) completeIf(bucket, key, uploadID string, parts []types.CompletedPart, ifNoneMatch, ifMatch string) (*s3.CompleteMultipartUploadOutput, error) {
	in := &s3.CompleteMultipartUploadInput{Bucket: &bucket, Key: &key, UploadId: &uploadID, MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}}
	if ifNoneMatch != "" {
		in.IfNoneMatch = &ifNoneMatch
	}
	if ifMatch != "" {
		in.IfMatch = &ifMatch
	}
	return e.client.CompleteMultipartUpload(ctx, in)
}

func TestConditionalCompleteMultipartUpload(t *testing.T) {
	for _, versioning := range []string{"", "enabled"} {
		t.Run("versioning "+versioning, func(t *testing.T) {
			e := newEnv(t, envOptions{minPartSize: 1})
			e.bucket(t, "demo", versioning)
			part := [][]byte{[]byte("data")}

			id, parts := e.upload(t, "demo", "k", []int32{1}, part)
			first, err := e.completeIf("demo", "k", id, parts, "*", "")
			if err != nil {
				t.Fatalf("If-None-Match * on a new key: %v", err)
			}
			again, err := e.completeIf("demo", "k", id, parts, "*", "")
			if err != nil || aws.ToString(again.ETag) != aws.ToString(first.ETag) {
				t.Errorf("a repeated Complete: %v, ETag %s, want %s", err, aws.ToString(again.ETag), aws.ToString(first.ETag))
			}

			id, parts = e.upload(t, "demo", "k", []int32{1}, part)
			_, err = e.completeIf("demo", "k", id, parts, "*", "")
			wantAPIError(t, err, "PreconditionFailed", 412)
			// The key is deleted while the upload is in progress: S3 cannot
			// complete it on the condition it was started under.
			if _, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")}); err != nil {
				t.Fatal(err)
			}
			_, err = e.completeIf("demo", "k", id, parts, "*", "")
			wantAPIError(t, err, "ConditionalRequestConflict", 409)
			body := `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>` + aws.ToString(parts[0].ETag) + `</ETag></Part></CompleteMultipartUpload>`
			_, raw := e.raw(t, "POST", "/demo/k?uploadId="+id, []byte(body), map[string]string{"If-None-Match": "*"})
			for _, want := range []string{"<Code>ConditionalRequestConflict</Code>", "<Key>k</Key>", "<Condition>If-None-Match</Condition>"} {
				if !strings.Contains(string(raw), want) {
					t.Errorf("the conflict's body %s lacks %s", raw, want)
				}
			}
			id, parts = e.upload(t, "demo", "k", []int32{1}, part)
			if _, err := e.completeIf("demo", "k", id, parts, "*", ""); err != nil {
				t.Errorf("If-None-Match * on an upload started after the delete: %v", err)
			}

			id, parts = e.upload(t, "demo", "k", []int32{1}, [][]byte{[]byte("next")})
			_, err = e.completeIf("demo", "k", id, parts, "", `"`+md5hex([]byte("other"))+`"`)
			wantAPIError(t, err, "PreconditionFailed", 412)
			current, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.completeIf("demo", "k", id, parts, "", aws.ToString(current.ETag)); err != nil {
				t.Errorf("If-Match with the current ETag: %v", err)
			}
			id, parts = e.upload(t, "demo", "new", []int32{1}, part)
			_, err = e.completeIf("demo", "new", id, parts, "", aws.ToString(current.ETag))
			wantAPIError(t, err, "NoSuchKey", 404)
		})
	}
}

func TestConditionalCopyObjectChecksItsTarget(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	e.put(t, "demo", "src", "source")
	e.put(t, "demo", "dst", "target")
	copyTo := func(ifNoneMatch, ifMatch string) error {
		in := &s3.CopyObjectInput{Bucket: aws.String("demo"), Key: aws.String("dst"), CopySource: aws.String("demo/src")}
		if ifNoneMatch != "" {
			in.IfNoneMatch = &ifNoneMatch
		}
		if ifMatch != "" {
			in.IfMatch = &ifMatch
		}
		_, err := e.client.CopyObject(ctx, in)
		return err
	}
	wantAPIError(t, copyTo("*", ""), "PreconditionFailed", 412)
	wantAPIError(t, copyTo("", `"`+md5hex([]byte("source"))+`"`), "PreconditionFailed", 412)
	if err := copyTo("", `"`+md5hex([]byte("target"))+`"`); err != nil {
		t.Fatalf("If-Match with the target's ETag: %v", err)
	}
	if got := e.getBody(t, "demo", "dst", ""); got != "source" {
		t.Errorf("the target is %q after the copy", got)
	}
	_, err := e.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String("demo"), Key: aws.String("other"), CopySource: aws.String("demo/src"),
		CopySourceIfNoneMatch: aws.String(`"` + md5hex([]byte("source")) + `"`)})
	wantAPIError(t, err, "PreconditionFailed", 412)
}
