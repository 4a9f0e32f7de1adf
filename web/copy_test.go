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

// A copy keeps the source's tags unless x-amz-tagging-directive REPLACE
// gives new ones, and takes the storage class the request names, STANDARD
// by default, as on S3; copying a key onto itself to change its storage
// class is allowed.
func TestCopyObjectTagsAndStorageClass(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	_, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("src"), Body: strings.NewReader("s"),
		Tagging: aws.String("a=1&b=2"), StorageClass: types.StorageClassStandardIa})
	if err != nil {
		t.Fatal(err)
	}
	check := func(key string, tags int, class types.StorageClass) {
		t.Helper()
		head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String(key)})
		if err != nil || aws.ToInt32(head.TagCount) != int32(tags) || head.StorageClass != class {
			t.Errorf("%s: %v tags, class %q, %v; want %d tags, class %q", key, head.TagCount, head.StorageClass, err, tags, class)
		}
	}
	copyTo := func(in *s3.CopyObjectInput) {
		t.Helper()
		in.Bucket, in.CopySource = aws.String("demo"), aws.String("demo/src")
		if _, err := e.client.CopyObject(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	copyTo(&s3.CopyObjectInput{Key: aws.String("plain")})
	check("plain", 2, "")
	copyTo(&s3.CopyObjectInput{Key: aws.String("retagged"), TaggingDirective: types.TaggingDirectiveReplace, Tagging: aws.String("c=3")})
	check("retagged", 1, "")
	copyTo(&s3.CopyObjectInput{Key: aws.String("cold"), StorageClass: types.StorageClassGlacier})
	check("cold", 2, types.StorageClassGlacier)
	copyTo(&s3.CopyObjectInput{Key: aws.String("src"), StorageClass: types.StorageClassOnezoneIa})
	check("src", 2, types.StorageClassOnezoneIa)

	resp, body := e.raw(t, "PUT", "/demo/x", nil, map[string]string{"x-amz-copy-source": "demo/src", "x-amz-tagging-directive": "MERGE"})
	if resp.StatusCode != 400 || !strings.Contains(string(body), "<Code>InvalidArgument</Code>") {
		t.Errorf("an unknown tagging directive: %d %s", resp.StatusCode, body)
	}
}
