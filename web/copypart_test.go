package web_test

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"minis3/core"
)

// copyPart is UploadPartCopy of source (and rng, unless "") into part n.
func (e *env) copyPart(bucket, key, uploadID string, n int32, source, rng string) (*s3.UploadPartCopyOutput, error) {
	in := &s3.UploadPartCopyInput{Bucket: &bucket, Key: &key, UploadId: &uploadID, PartNumber: aws.Int32(n), CopySource: &source}
	if rng != "" {
		in.CopySourceRange = &rng
	}
	return e.client.UploadPartCopy(ctx, in)
}

func (e *env) create(t *testing.T, bucket, key string) string {
	t.Helper()
	out, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &bucket, Key: &key})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.UploadId)
}

func TestUploadPartCopyOfRangesAndWholeObjects(t *testing.T) {
	e := newEnv(t, envOptions{minPartSize: 1})
	e.bucket(t, "src", "enabled")
	e.bucket(t, "dst", "")
	e.put(t, "src", "k", "hello world, old") // v00000001
	e.put(t, "src", "k", "new")              // v00000002
	e.put(t, "dst", "plain", "!")

	id := e.create(t, "dst", "joined")
	var parts []types.CompletedPart
	for i, p := range []struct{ source, rng, want string }{
		{"src/k?versionId=v00000001", "bytes=0-5", "hello "},
		{"src/k?versionId=v00000001", "bytes=6-10", "world"},
		{"src/k", "", "new"},
		{"dst/plain", "", "!"},
	} {
		n := int32(i + 1)
		out, err := e.copyPart("dst", "joined", id, n, p.source, p.rng)
		if err != nil {
			t.Fatalf("part %d from %s %s: %v", n, p.source, p.rng, err)
		}
		if got, want := aws.ToString(out.CopyPartResult.ETag), `"`+md5hex([]byte(p.want))+`"`; got != want {
			t.Errorf("part %d: ETag %s, want %s (of %q)", n, got, want, p.want)
		}
		if out.CopyPartResult.LastModified == nil {
			t.Errorf("part %d: no LastModified", n)
		}
		wantVersion := map[string]string{"src/k?versionId=v00000001": "v00000001", "src/k": "v00000002"}[p.source]
		if got := aws.ToString(out.CopySourceVersionId); got != wantVersion {
			t.Errorf("part %d: x-amz-copy-source-version-id %q, want %q", n, got, wantVersion)
		}
		parts = append(parts, types.CompletedPart{PartNumber: aws.Int32(n), ETag: out.CopyPartResult.ETag})
	}
	if _, err := e.complete("dst", "joined", id, parts); err != nil {
		t.Fatal(err)
	}
	if got := e.getBody(t, "dst", "joined", ""); got != "hello worldnew!" {
		t.Errorf("the completed copy is %q", got)
	}
}

func TestUploadPartCopyErrors(t *testing.T) {
	e := newEnv(t, envOptions{minPartSize: 1, maxObjectSize: 8})
	e.bucket(t, "src", "enabled")
	e.bucket(t, "dst", "")
	// Written past the handler, whose PUTs are limited to 8 bytes here.
	if _, err := e.store.PutObject("src", "k", []byte("0123456789"), core.PutOptions{}); err != nil { // v00000001
		t.Fatal(err)
	}
	e.put(t, "src", "gone", "x") // v00000002
	marker, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("src"), Key: aws.String("gone")})
	if err != nil {
		t.Fatal(err)
	}
	markerID := aws.ToString(marker.VersionId)
	_, err = e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("src"), Key: aws.String("cold"), Body: strings.NewReader("c"),
		StorageClass: types.StorageClassGlacier})
	if err != nil {
		t.Fatal(err)
	}
	id := e.create(t, "dst", "k")
	etag := `"` + md5hex([]byte("0123456789")) + `"`
	const formMessage = "The x-amz-copy-source-range value must be of the form bytes=first-last"
	tests := []struct {
		name          string
		path, source  string
		header        map[string]string
		status        int
		code, element string // element: a part of the error body
	}{
		{"a range without bytes=", "", "src/k", map[string]string{"x-amz-copy-source-range": "0-3"}, 400, "InvalidArgument", formMessage},
		{"a range with its ends reversed", "", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=3-1"}, 400, "InvalidArgument",
			"<ArgumentName>x-amz-copy-source-range</ArgumentName><ArgumentValue>bytes=3-1</ArgumentValue>"},
		{"an open range", "", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=3-"}, 400, "InvalidArgument", formMessage},
		{"a suffix range", "", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=-3"}, 400, "InvalidArgument", formMessage},
		{"several ranges", "", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=0-1,3-4"}, 400, "InvalidArgument", formMessage},
		{"a range ending past the source", "", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=0-10"}, 400, "InvalidArgument",
			"Range specified is not valid for source object of size: 10"},
		{"a range starting past the source", "", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=10-12"}, 400, "InvalidRequest",
			"The specified copy range is invalid for the source object size"},
		{"a part larger than a PUT may be", "", "src/k", nil, 400, "EntityTooLarge", "<ProposedSize>10</ProposedSize>"},
		{"a missing source key", "", "src/nothing", nil, 404, "NoSuchKey", "<Key>nothing</Key>"},
		{"a missing source bucket", "", "nowhere/k", nil, 404, "NoSuchBucket", "<BucketName>nowhere</BucketName>"},
		{"an unknown source version", "", "src/k?versionId=v00000099", nil, 404, "NoSuchVersion", "<VersionId>v00000099</VersionId>"},
		{"a malformed source version", "", "src/k?versionId=abc", nil, 400, "InvalidArgument",
			"<ArgumentName>x-amz-copy-source</ArgumentName><ArgumentValue>abc</ArgumentValue>"},
		{"a delete marker named by its version ID", "", "src/gone?versionId=" + markerID, nil, 400, "InvalidRequest",
			"may not specifically refer to a delete marker by version id"},
		{"a key whose current entry is a delete marker", "", "src/gone", nil, 404, "NoSuchKey", "<Key>gone</Key>"},
		{"a GLACIER source", "", "src/cold", nil, 403, "InvalidObjectState", "<StorageClass>GLACIER</StorageClass>"},
		{"another source ETag", "", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=0-1", "x-amz-copy-source-if-match": `"abc"`},
			412, "PreconditionFailed", "<Condition>x-amz-copy-source-If-Match</Condition>"},
		{"a matching source If-None-Match", "", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=0-1", "x-amz-copy-source-if-none-match": etag},
			412, "PreconditionFailed", "<Condition>x-amz-copy-source-If-None-Match</Condition>"},
		{"part number 0", "/dst/k?partNumber=0&uploadId=" + id, "src/k", map[string]string{"x-amz-copy-source-range": "bytes=0-1"}, 400, "InvalidArgument",
			"<ArgumentName>partNumber</ArgumentName>"},
		{"part number 10001", "/dst/k?partNumber=10001&uploadId=" + id, "src/k", map[string]string{"x-amz-copy-source-range": "bytes=0-1"}, 400,
			"InvalidArgument", "<ArgumentValue>10001</ArgumentValue>"},
		{"an unknown upload", "/dst/k?partNumber=1&uploadId=u00000099", "src/k", map[string]string{"x-amz-copy-source-range": "bytes=0-1"}, 404,
			"NoSuchUpload", "<UploadId>u00000099</UploadId>"},
		{"a missing target bucket", "/nowhere/k?partNumber=1&uploadId=" + id, "src/nothing", nil, 404, "NoSuchBucket", "<BucketName>nowhere</BucketName>"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is "+tt.code, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = "/dst/k?partNumber=1&uploadId=" + id
			}
			header := map[string]string{"x-amz-copy-source": tt.source}
			for k, v := range tt.header {
				header[k] = v
			}
			resp, body := e.raw(t, "PUT", path, nil, header)
			if resp.StatusCode != tt.status || !strings.Contains(string(body), "<Code>"+tt.code+"</Code>") || !strings.Contains(string(body), tt.element) {
				t.Errorf("got %d %s, want %d %s with %s", resp.StatusCode, body, tt.status, tt.code, tt.element)
			}
		})
	}
	t.Run("a source delete marker's headers come with NoSuchKey, as on S3", func(t *testing.T) {
		_, err := e.copyPart("dst", "k", id, 1, "src/gone", "")
		wantAPIError(t, err, "NoSuchKey", 404)
		if responseHeader(t, err, "X-Amz-Delete-Marker") != "true" || responseHeader(t, err, "X-Amz-Version-Id") != markerID {
			t.Errorf("x-amz-delete-marker %q, x-amz-version-id %q", responseHeader(t, err, "X-Amz-Delete-Marker"), responseHeader(t, err, "X-Amz-Version-Id"))
		}
	})
	t.Run("a matching source If-Match copies", func(t *testing.T) {
		_, err := e.client.UploadPartCopy(ctx, &s3.UploadPartCopyInput{Bucket: aws.String("dst"), Key: aws.String("k"), UploadId: &id,
			PartNumber: aws.Int32(1), CopySource: aws.String("src/k"), CopySourceRange: aws.String("bytes=2-4"), CopySourceIfMatch: aws.String(etag)})
		if err != nil {
			t.Fatal(err)
		}
		parts, err := e.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("dst"), Key: aws.String("k"), UploadId: &id})
		if err != nil || len(parts.Parts) != 1 || aws.ToInt64(parts.Parts[0].Size) != 3 {
			t.Errorf("ListParts after a copied part: %+v %v; want one part of 3 bytes", parts, err)
		}
	})
}

// A 40 MB object is copied from bucket to bucket as S3 clients copy large
// objects (aws s3 cp, boto3's managed copy): CreateMultipartUpload, then
// UploadPartCopy of 8 MiB ranges, each on condition that the source still
// has the ETag a HeadObject saw, then CompleteMultipartUpload.
func TestCopyOfA40MBObjectThroughMultipartUpload(t *testing.T) {
	e := newEnv(t, envOptions{plainHTTP: true})
	e.bucket(t, "from", "")
	e.bucket(t, "into", "enabled")
	const size, partSize = 40_000_000, 8 << 20
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 7 / 3)
	}
	_, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("from"), Key: aws.String("big"), Body: bytes.NewReader(data),
		ContentType: aws.String("application/x-big")})
	if err != nil {
		t.Fatal(err)
	}
	head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("from"), Key: aws.String("big")})
	if err != nil {
		t.Fatal(err)
	}
	created, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String("into"), Key: aws.String("big"),
		ContentType: head.ContentType})
	if err != nil {
		t.Fatal(err)
	}
	var parts []types.CompletedPart
	var digests []byte
	for n, start := int32(1), int64(0); start < size; n, start = n+1, start+partSize {
		end := min(start+partSize, size) - 1
		out, err := e.client.UploadPartCopy(ctx, &s3.UploadPartCopyInput{Bucket: aws.String("into"), Key: aws.String("big"), UploadId: created.UploadId,
			PartNumber: aws.Int32(n), CopySource: aws.String("from/big"), CopySourceRange: aws.String(fmt.Sprintf("bytes=%d-%d", start, end)),
			CopySourceIfMatch: head.ETag})
		if err != nil {
			t.Fatalf("part %d: %v", n, err)
		}
		parts = append(parts, types.CompletedPart{PartNumber: aws.Int32(n), ETag: out.CopyPartResult.ETag})
		sum := md5.Sum(data[start : end+1])
		digests = append(digests, sum[:]...)
	}
	done, err := e.complete("into", "big", aws.ToString(created.UploadId), parts)
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum(digests)
	if want := fmt.Sprintf(`"%s-5"`, hex.EncodeToString(sum[:])); aws.ToString(done.ETag) != want {
		t.Errorf("ETag %s, want %s", aws.ToString(done.ETag), want)
	}
	got, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("into"), Key: aws.String("big")})
	if err != nil {
		t.Fatal(err)
	}
	copied, err := io.ReadAll(got.Body)
	got.Body.Close()
	if err != nil || !bytes.Equal(copied, data) || aws.ToString(got.ContentType) != "application/x-big" {
		t.Errorf("the copy: %d bytes, equal %v, Content-Type %q, %v", len(copied), bytes.Equal(copied, data), aws.ToString(got.ContentType), err)
	}
	third, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("into"), Key: aws.String("big"), PartNumber: aws.Int32(3)})
	if err != nil {
		t.Fatal(err)
	}
	part, err := io.ReadAll(third.Body)
	third.Body.Close()
	if err != nil || !bytes.Equal(part, data[2*partSize:3*partSize]) || aws.ToInt32(third.PartsCount) != 5 {
		t.Errorf("part 3 of the copy: %d bytes, equal %v, PartsCount %d, %v", len(part), bytes.Equal(part, data[2*partSize:3*partSize]),
			aws.ToInt32(third.PartsCount), err)
	}
}
