package web_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

func TestCopyObject(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	e.bucket(t, "other", "")
	_, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), Body: strings.NewReader("first"),
		ContentType: aws.String("text/plain"), Metadata: map[string]string{"n": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	e.put(t, "demo", "k", "second")

	t.Run("copying an older version over its key restores it as a new version", func(t *testing.T) {
		out, err := e.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), CopySource: aws.String("demo/k?versionId=v00000001")})
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(out.VersionId) != "v00000003" || aws.ToString(out.CopySourceVersionId) != "v00000001" ||
			aws.ToString(out.CopyObjectResult.ETag) != `"`+md5hex([]byte("first"))+`"` {
			t.Errorf("VersionId %q, source version %q, ETag %q", aws.ToString(out.VersionId), aws.ToString(out.CopySourceVersionId), aws.ToString(out.CopyObjectResult.ETag))
		}
		got, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
		if err != nil {
			t.Fatal(err)
		}
		got.Body.Close()
		if aws.ToString(got.VersionId) != "v00000003" || aws.ToString(got.ContentType) != "text/plain" || got.Metadata["n"] != "1" {
			t.Errorf("current: %s %q %v, want v00000003 with the source's metadata", aws.ToString(got.VersionId), aws.ToString(got.ContentType), got.Metadata)
		}
	})
	t.Run("REPLACE takes the request's metadata", func(t *testing.T) {
		_, err := e.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String("other"), Key: aws.String("copy"), CopySource: aws.String("demo/k"),
			MetadataDirective: types.MetadataDirectiveReplace, ContentType: aws.String("text/csv")})
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("other"), Key: aws.String("copy")})
		if err != nil || aws.ToString(got.ContentType) != "text/csv" || len(got.Metadata) != 0 {
			t.Errorf("copy: %+v %v", got, err)
		}
	})
	errs := []struct {
		name, source, code string
		status             int
	}{
		{"copying a key onto itself unchanged", "demo/k", "InvalidRequest", 400},
		{"copying a missing key", "demo/nothing", "NoSuchKey", 404},
		{"copying from a missing bucket", "gone/k", "NoSuchBucket", 404},
		{"copying an unknown version", "demo/k?versionId=v00000099", "NoSuchVersion", 404},
	}
	for _, tt := range errs {
		t.Run(tt.name+" is "+tt.code, func(t *testing.T) {
			_, err := e.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), CopySource: aws.String(tt.source)})
			wantAPIError(t, err, tt.code, tt.status)
		})
	}
}
