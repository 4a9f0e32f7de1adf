package web_test

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"minis3/web"
)

func TestObjectMetadataIsStoredAndReturned(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	_, err := e.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String("demo"), Key: aws.String("doc.txt"), Body: strings.NewReader("hello"),
		ContentType: aws.String("text/plain"), ContentDisposition: aws.String(`attachment; filename="doc.txt"`),
		ContentEncoding: aws.String("identity"), CacheControl: aws.String("max-age=60"),
		Metadata: map[string]string{"Owner": "ada", "topic": "lifecycle"},
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, ct, cd, ce, cc *string, meta map[string]string) {
		t.Helper()
		got := fmt.Sprint(aws.ToString(ct), "|", aws.ToString(cd), "|", aws.ToString(ce), "|", aws.ToString(cc), "|", meta)
		want := `text/plain|attachment; filename="doc.txt"|identity|max-age=60|map[owner:ada topic:lifecycle]`
		if got != want {
			t.Errorf("got %s\nwant %s", got, want)
		}
	}
	t.Run("GET", func(t *testing.T) {
		out, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("doc.txt")})
		if err != nil {
			t.Fatal(err)
		}
		out.Body.Close()
		check(t, out.ContentType, out.ContentDisposition, out.ContentEncoding, out.CacheControl, out.Metadata)
	})
	t.Run("HEAD", func(t *testing.T) {
		out, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("doc.txt")})
		if err != nil {
			t.Fatal(err)
		}
		check(t, out.ContentType, out.ContentDisposition, out.ContentEncoding, out.CacheControl, out.Metadata)
		if aws.ToInt64(out.ContentLength) != 5 {
			t.Errorf("ContentLength = %d, want 5", aws.ToInt64(out.ContentLength))
		}
	})
}

func TestObjectHeaders(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	e.setClock(t, 86400.75)
	resp, _ := e.raw(t, "PUT", "/demo/k", []byte("test"), nil)
	if got := resp.Header.Get("ETag"); got != `"098f6bcd4621d373cade4e832627b4f6"` {
		t.Errorf("PUT ETag = %s, want the quoted MD5 of test", got)
	}
	resp, body := e.raw(t, "GET", "/demo/k", nil, nil)
	want := map[string]string{
		"ETag":           `"098f6bcd4621d373cade4e832627b4f6"`,
		"Last-Modified":  time.Unix(testOrigin+86400, 0).UTC().Format(http.TimeFormat),
		"Content-Length": "4",
		"Content-Type":   "binary/octet-stream",
		"Accept-Ranges":  "bytes",
	}
	for name, v := range want {
		if got := resp.Header.Get(name); got != v {
			t.Errorf("%s = %q, want %q", name, got, v)
		}
	}
	if string(body) != "test" {
		t.Errorf("body = %q", body)
	}
	resp, _ = e.raw(t, "GET", "/demo/k?response-content-type=text/csv&response-cache-control=no-cache", nil, nil)
	if resp.Header.Get("Content-Type") != "text/csv" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("response-* overrides: Content-Type %q Cache-Control %q", resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
	}
}

func TestGetObjectSendsAChecksumWhenAskedFor(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	body := "checksummed body"
	e.put(t, "demo", "k", body)
	out, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(out.Body)
	out.Body.Close()
	if err != nil || string(data) != body {
		t.Fatalf("read %q, %v", data, err)
	}
	if got := aws.ToString(out.ChecksumCRC32); got != crc32Base64([]byte(body)) || out.ChecksumType != types.ChecksumTypeFullObject {
		t.Errorf("ChecksumCRC32 %q type %q, want %q FULL_OBJECT", got, out.ChecksumType, crc32Base64([]byte(body)))
	}
	resp, _ := e.raw(t, "GET", "/demo/k", nil, map[string]string{"x-amz-checksum-mode": "ENABLED", "Range": "bytes=0-1"})
	if resp.Header.Get("x-amz-checksum-crc32") != "" {
		t.Errorf("a range read got the whole object's checksum")
	}
	resp, _ = e.raw(t, "GET", "/demo/k", nil, nil)
	if resp.Header.Get("x-amz-checksum-crc32") != "" {
		t.Errorf("a GET that did not ask for a checksum got one")
	}
}

// PutObject and UploadPart answer with the checksums the request carried,
// as S3 does (the SDK reads them into ChecksumCRC32 and the like); a
// request without one gets none.
func TestPutAnswersWithTheRequestsChecksums(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	body := []byte("checksummed body")
	out, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"),
		Body: bytes.NewReader(body), ChecksumAlgorithm: types.ChecksumAlgorithmCrc32})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(out.ChecksumCRC32); got != crc32Base64(body) || out.ChecksumType != types.ChecksumTypeFullObject {
		t.Errorf("PutObject: ChecksumCRC32 %q type %q, want %q FULL_OBJECT", got, out.ChecksumType, crc32Base64(body))
	}
	sha := sha256.Sum256(body)
	sum := base64.StdEncoding.EncodeToString(sha[:])
	resp, _ := e.raw(t, "PUT", "/demo/k", body, map[string]string{"x-amz-checksum-sha256": sum})
	if resp.Header.Get("x-amz-checksum-sha256") != sum || resp.Header.Get("x-amz-checksum-crc32") != "" {
		t.Errorf("PUT with a SHA256: answered sha256 %q crc32 %q, want %q and none",
			resp.Header.Get("x-amz-checksum-sha256"), resp.Header.Get("x-amz-checksum-crc32"), sum)
	}
	resp, _ = e.raw(t, "PUT", "/demo/k", body, nil)
	for name := range resp.Header {
		if strings.HasPrefix(strings.ToLower(name), "x-amz-checksum") {
			t.Errorf("a PUT without a checksum is answered with %s", name)
		}
	}

	up, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String("demo"), Key: aws.String("m")})
	if err != nil {
		t.Fatal(err)
	}
	part, err := e.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: aws.String("demo"), Key: aws.String("m"), UploadId: up.UploadId,
		PartNumber: aws.Int32(1), Body: bytes.NewReader(body), ChecksumAlgorithm: types.ChecksumAlgorithmCrc32})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(part.ChecksumCRC32); got != crc32Base64(body) {
		t.Errorf("UploadPart: ChecksumCRC32 %q, want %q", got, crc32Base64(body))
	}
}

// CRC64NVME, the default checksum of recent AWS CLIs, is verified: the
// catalogue's check value of CRC-64/NVME ("123456789" → ae8b14860a799888)
// passes and is answered, a wrong one is BadDigest, and the SDK's own
// CRC64NVME of a body matches MiniS3's.
func TestCRC64NVMEChecksumsAreVerified(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	check := base64.StdEncoding.EncodeToString([]byte{0xae, 0x8b, 0x14, 0x86, 0x0a, 0x79, 0x98, 0x88})
	resp, body := e.raw(t, "PUT", "/demo/k", []byte("123456789"), map[string]string{"x-amz-checksum-crc64nvme": check})
	if resp.StatusCode != 200 || resp.Header.Get("x-amz-checksum-crc64nvme") != check {
		t.Errorf("PUT with the check value: %d %s, answered %q", resp.StatusCode, body, resp.Header.Get("x-amz-checksum-crc64nvme"))
	}
	wrong := base64.StdEncoding.EncodeToString(make([]byte, 8))
	resp, body = e.raw(t, "PUT", "/demo/k", []byte("123456789"), map[string]string{"x-amz-checksum-crc64nvme": wrong})
	if resp.StatusCode != 400 || !strings.Contains(string(body), "<Code>BadDigest</Code>") {
		t.Errorf("PUT with a wrong CRC64NVME: %d %s, want 400 BadDigest", resp.StatusCode, body)
	}
	out, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("sdk"),
		Body: strings.NewReader("checksummed by the SDK"), ChecksumAlgorithm: types.ChecksumAlgorithmCrc64nvme})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(out.ChecksumCRC64NVME) == "" {
		t.Errorf("the SDK's CRC64NVME PUT was answered without its checksum")
	}
}

func TestEveryResponseCarriesRequestIDs(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	for _, req := range []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/demo"}, {"GET", "/nothere"}, {"HEAD", "/demo/missing"}, {"GET", "/_minis3/clock"},
	} {
		resp, _ := e.raw(t, req.method, req.path, nil, nil)
		if resp.Header.Get("x-amz-request-id") == "" || resp.Header.Get("x-amz-id-2") == "" {
			t.Errorf("%s %s: no x-amz-request-id or x-amz-id-2", req.method, req.path)
		}
	}
}

func TestRangeReads(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	e.put(t, "demo", "k", "0123456789")
	tests := []struct {
		name, rng, body, contentRange string
		status                        int
	}{
		{"a closed range", "bytes=2-5", "2345", "bytes 2-5/10", 206},
		{"an open range", "bytes=7-", "789", "bytes 7-9/10", 206},
		{"a suffix range", "bytes=-3", "789", "bytes 7-9/10", 206},
		{"a range past the end is clipped", "bytes=8-100", "89", "bytes 8-9/10", 206},
		{"a malformed range is ignored", "bytes=x-y", "0123456789", "", 200},
		{"several ranges are ignored", "bytes=0-1,3-4", "0123456789", "", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.raw(t, "GET", "/demo/k", nil, map[string]string{"Range": tt.rng})
			if resp.StatusCode != tt.status || string(body) != tt.body || resp.Header.Get("Content-Range") != tt.contentRange {
				t.Errorf("got %d %q Content-Range %q, want %d %q %q", resp.StatusCode, body, resp.Header.Get("Content-Range"), tt.status, tt.body, tt.contentRange)
			}
		})
	}
	t.Run("the SDK reads a range", func(t *testing.T) {
		out, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), Range: aws.String("bytes=1-2")})
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(out.Body)
		out.Body.Close()
		if string(data) != "12" || aws.ToString(out.ContentRange) != "bytes 1-2/10" {
			t.Errorf("got %q %q", data, aws.ToString(out.ContentRange))
		}
	})
	t.Run("a range past the object is InvalidRange 416", func(t *testing.T) {
		_, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), Range: aws.String("bytes=10-20")})
		wantAPIError(t, err, "InvalidRange", 416)
		resp, body := e.raw(t, "GET", "/demo/k", nil, map[string]string{"Range": "bytes=10-20"})
		if resp.Header.Get("Content-Range") != "bytes */10" || !strings.Contains(string(body), "<ActualObjectSize>10</ActualObjectSize>") ||
			resp.Header.Get("ETag") != "" || resp.Header.Get("Content-Type") != "application/xml" {
			t.Errorf("416: Content-Range %q ETag %q Content-Type %q body %s; want only the error's headers",
				resp.Header.Get("Content-Range"), resp.Header.Get("ETag"), resp.Header.Get("Content-Type"), body)
		}
	})
}

func TestPutChecksAndLimits(t *testing.T) {
	e := newEnv(t, envOptions{maxObjectSize: 8})
	e.bucket(t, "demo", "")
	md5of := func(s string) string { sum := md5.Sum([]byte(s)); return base64.StdEncoding.EncodeToString(sum[:]) }
	tests := []struct {
		name   string
		body   string
		header map[string]string
		code   string
		status int
	}{
		{"a matching Content-MD5 is accepted", "abc", map[string]string{"Content-MD5": md5of("abc")}, "", 200},
		{"a wrong Content-MD5 is BadDigest", "abc", map[string]string{"Content-MD5": md5of("abd")}, "BadDigest", 400},
		{"a Content-MD5 that is not an MD5 is InvalidDigest", "abc", map[string]string{"Content-MD5": "bm90"}, "InvalidDigest", 400},
		{"a wrong x-amz-checksum-crc32 is BadDigest", "abc", map[string]string{"x-amz-checksum-crc32": "AAAAAA=="}, "BadDigest", 400},
		{"a wrong x-amz-content-sha256 is refused", "abc", map[string]string{"x-amz-content-sha256": strings.Repeat("0", 64)}, "XAmzContentSHA256Mismatch", 400},
		{"a body over the limit is EntityTooLarge", "123456789", nil, "EntityTooLarge", 400},
		{"tags are taken", "abc", map[string]string{"x-amz-tagging": "a=b&c=d%20e"}, "", 200},
		{"tags that are not URL-encoded query parameters are InvalidArgument", "abc", map[string]string{"x-amz-tagging": "a=%zz"}, "InvalidArgument", 400},
		{"eleven tags are a BadRequest", "abc", map[string]string{"x-amz-tagging": "a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11"}, "BadRequest", 400},
		{"a tag key given twice is InvalidArgument", "abc", map[string]string{"x-amz-tagging": "a=1&a=2"}, "InvalidArgument", 400},
		{"an If-None-Match other than * is NotImplemented, as on S3", "abc", map[string]string{"If-None-Match": `"abc"`}, "NotImplemented", 501},
		{"a storage class is taken", "abc", map[string]string{"x-amz-storage-class": "GLACIER"}, "", 200},
		{"an unknown storage class is InvalidStorageClass", "abc", map[string]string{"x-amz-storage-class": "COLD"}, "InvalidStorageClass", 400},
		{"STANDARD is the storage class", "abc", map[string]string{"x-amz-storage-class": "STANDARD"}, "", 200},
		{"SSE-KMS is not silently ignored", "abc", map[string]string{"x-amz-server-side-encryption": "aws:kms"}, "NotImplemented", 501},
		{"a public ACL is not silently ignored", "abc", map[string]string{"x-amz-acl": "public-read"}, "NotImplemented", 501},
		{"the private ACL is what everything has", "abc", map[string]string{"x-amz-acl": "private"}, "", 200},
		{"an ACL grant is not silently ignored", "abc", map[string]string{"x-amz-grant-read": "id=someone"}, "NotImplemented", 501},
		{"SSE-C is not silently ignored", "abc", map[string]string{"x-amz-server-side-encryption-customer-algorithm": "AES256"}, "NotImplemented", 501},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.raw(t, "PUT", "/demo/k", []byte(tt.body), tt.header)
			if resp.StatusCode != tt.status || (tt.code != "" && !strings.Contains(string(body), "<Code>"+tt.code+"</Code>")) {
				t.Errorf("got %d %s, want %d %s", resp.StatusCode, body, tt.status, tt.code)
			}
		})
	}
}

func TestDeleteObjects(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	e.put(t, "demo", "a", "a1")
	e.put(t, "demo", "b", "b1")
	out, err := e.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String("demo"), Delete: &types.Delete{Objects: []types.ObjectIdentifier{
		{Key: aws.String("a")},
		{Key: aws.String("b"), VersionId: aws.String("v00000002")},
		{Key: aws.String("never")},
		{Key: aws.String("b"), VersionId: aws.String("v00000099")},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range out.Deleted {
		got = append(got, fmt.Sprintf("%s %s %v %s", aws.ToString(d.Key), aws.ToString(d.VersionId), aws.ToBool(d.DeleteMarker), aws.ToString(d.DeleteMarkerVersionId)))
	}
	for _, e := range out.Errors {
		got = append(got, fmt.Sprintf("error %s %s %s", aws.ToString(e.Key), aws.ToString(e.VersionId), aws.ToString(e.Code)))
	}
	want := []string{"a  true v00000003", "b v00000002 false ", "never  true v00000004", "error b v00000099 NoSuchVersion"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	t.Run("Quiet reports only errors", func(t *testing.T) {
		out, err := e.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String("demo"), Delete: &types.Delete{Quiet: aws.Bool(true),
			Objects: []types.ObjectIdentifier{{Key: aws.String("a")}}}})
		if err != nil || len(out.Deleted) != 0 || len(out.Errors) != 0 {
			t.Errorf("quiet delete: %+v %v", out, err)
		}
	})
	t.Run("more than 1000 keys is MalformedXML", func(t *testing.T) {
		objs := make([]types.ObjectIdentifier, 1001)
		for i := range objs {
			objs[i] = types.ObjectIdentifier{Key: aws.String(fmt.Sprint("k", i))}
		}
		_, err := e.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String("demo"), Delete: &types.Delete{Objects: objs}})
		wantAPIError(t, err, "MalformedXML", 400)
	})
	t.Run("an XML body over MaxXMLBodySize is refused unread", func(t *testing.T) {
		resp, body := e.raw(t, "POST", "/demo?delete", []byte("<Delete>"+strings.Repeat(" ", web.MaxXMLBodySize)+"</Delete>"), nil)
		if resp.StatusCode != 400 || !strings.Contains(string(body), "<Code>MaxMessageLengthExceeded</Code>") {
			t.Errorf("got %d %s", resp.StatusCode, body)
		}
	})
	t.Run("a body that is not XML is MalformedXML", func(t *testing.T) {
		resp, body := e.raw(t, "POST", "/demo?delete", []byte("<Delete><Object>"), nil)
		if resp.StatusCode != 400 || !strings.Contains(string(body), "MalformedXML") {
			t.Errorf("got %d %s", resp.StatusCode, body)
		}
	})
}

func TestBuckets(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, name := range []string{"beta", "alpha"} {
		if _, err := e.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := e.client.ListBuckets(ctx, &s3.ListBucketsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range out.Buckets {
		names = append(names, aws.ToString(b.Name))
	}
	if strings.Join(names, ",") != "alpha,beta" {
		t.Errorf("buckets = %v, want [alpha beta]", names)
	}
	if _, err := e.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String("alpha")}); err != nil {
		t.Errorf("HeadBucket: %v", err)
	}
	e.put(t, "alpha", "k", "x")
	errs := []struct {
		name   string
		call   func() error
		code   string
		status int
	}{
		{"creating an owned bucket again", func() error {
			_, err := e.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("alpha")})
			return err
		}, "BucketAlreadyOwnedByYou", 409},
		{"a bucket with object lock", func() error {
			_, err := e.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("locked"), ObjectLockEnabledForBucket: aws.Bool(true)})
			return err
		}, "NotImplemented", 501},
		{"an invalid name", func() error {
			_, err := e.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("Bad..Name")})
			return err
		}, "InvalidBucketName", 400},
		{"deleting a bucket with objects", func() error {
			_, err := e.client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String("alpha")})
			return err
		}, "BucketNotEmpty", 409},
		{"HEAD of a missing bucket", func() error {
			_, err := e.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String("gamma")})
			return err
		}, "NotFound", 404},
		{"listing a missing bucket", func() error {
			_, err := e.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("gamma")})
			return err
		}, "NoSuchBucket", 404},
		{"an unimplemented subresource", func() error {
			_, err := e.client.GetBucketAnalyticsConfiguration(ctx, &s3.GetBucketAnalyticsConfigurationInput{Bucket: aws.String("alpha"), Id: aws.String("a")})
			return err
		}, "NotImplemented", 501},
	}
	for _, tt := range errs {
		t.Run(tt.name+" is "+tt.code, func(t *testing.T) {
			wantAPIError(t, tt.call(), tt.code, tt.status)
		})
	}
	if _, err := e.client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String("beta")}); err != nil {
		t.Errorf("DeleteBucket of an empty bucket: %v", err)
	}
}

func TestErrorBodyIsS3sXML(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	resp, body := e.raw(t, "GET", "/demo/missing.txt", nil, nil)
	want := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>missing.txt</Key>` +
		`<RequestId>` + resp.Header.Get("x-amz-request-id") + `</RequestId><HostId>` + resp.Header.Get("x-amz-id-2") + `</HostId></Error>`
	if resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "application/xml" || string(body) != want {
		t.Errorf("got %d %s\n%s\nwant 404 application/xml\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body, want)
	}
	resp, body = e.raw(t, "GET", "/demo?list-type=2&max-keys=ten", nil, nil)
	for _, part := range []string{"<Code>InvalidArgument</Code>", "<ArgumentName>max-keys</ArgumentName>", "<ArgumentValue>ten</ArgumentValue>"} {
		if resp.StatusCode != 400 || !strings.Contains(string(body), part) {
			t.Errorf("got %d %s, want 400 with %s", resp.StatusCode, body, part)
		}
	}
	resp, _ = e.raw(t, "PATCH", "/demo/k", nil, nil)
	if resp.StatusCode != 405 || resp.Header.Get("Allow") == "" {
		t.Errorf("PATCH: %d Allow %q, want 405 with Allow", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

func TestConditionalReads(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	e.setClock(t, 1000)
	e.put(t, "demo", "k", "test")
	etag := `"098f6bcd4621d373cade4e832627b4f6"`
	before, at := time.Unix(testOrigin+999, 0).UTC().Format(http.TimeFormat), time.Unix(testOrigin+1000, 0).UTC().Format(http.TimeFormat)
	tests := []struct {
		name      string
		header    map[string]string
		status    int
		condition string
	}{
		{"a matching If-Match reads", map[string]string{"If-Match": etag}, 200, ""},
		{"If-Match * reads", map[string]string{"If-Match": "*"}, 200, ""},
		{"another If-Match fails", map[string]string{"If-Match": `"abc"`}, 412, "If-Match"},
		{"If-Unmodified-Since before the write fails", map[string]string{"If-Unmodified-Since": before}, 412, "If-Unmodified-Since"},
		{"a matching If-Match beats If-Unmodified-Since", map[string]string{"If-Match": etag, "If-Unmodified-Since": before}, 200, ""},
		{"a matching If-None-Match is not modified", map[string]string{"If-None-Match": etag}, 304, ""},
		{"another If-None-Match reads", map[string]string{"If-None-Match": `"abc"`}, 200, ""},
		{"If-Modified-Since the write is not modified", map[string]string{"If-Modified-Since": at}, 304, ""},
		{"If-Modified-Since before the write reads", map[string]string{"If-Modified-Since": before}, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, method := range []string{"GET", "HEAD"} {
				resp, body := e.raw(t, method, "/demo/k", nil, tt.header)
				if resp.StatusCode != tt.status {
					t.Errorf("%s: status %d, want %d", method, resp.StatusCode, tt.status)
				}
				if method == "GET" && tt.condition != "" && !strings.Contains(string(body), "<Condition>"+tt.condition+"</Condition>") {
					t.Errorf("GET: body %s does not name %s", body, tt.condition)
				}
				if tt.status == 304 && (resp.Header.Get("ETag") != etag || len(body) != 0) {
					t.Errorf("%s 304: ETag %q, %d body bytes", method, resp.Header.Get("ETag"), len(body))
				}
			}
		})
	}
	t.Run("the SDK surfaces a failed If-Match", func(t *testing.T) {
		_, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), IfMatch: aws.String(`"abc"`)})
		wantAPIError(t, err, "PreconditionFailed", 412)
	})
}

func TestContentHeadersAndUserMetadataRoundTrip(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	stored := map[string]string{
		"Content-Type":        "text/plain; charset=utf-8",
		"Content-Disposition": `attachment; filename="a.txt"`,
		"Content-Encoding":    "identity",
		"Cache-Control":       "max-age=60",
		"Content-Language":    "fr",
		"Expires":             "Thu, 01 Dec 1994 16:00:00 GMT",
		"X-Amz-Meta-Color":    "blue",
	}
	e.raw(t, "PUT", "/demo/k", []byte("bonjour"), stored)
	for _, method := range []string{"GET", "HEAD"} {
		resp, _ := e.raw(t, method, "/demo/k", nil, nil)
		for name, want := range stored {
			if got := resp.Header.Get(name); got != want {
				t.Errorf("%s: %s = %q, want %q", method, name, got, want)
			}
		}
	}
	// Multipart: the headers given at CreateMultipartUpload land on the object.
	e.raw(t, "POST", "/demo/mp?uploads", nil, map[string]string{"Content-Type": "text/csv", "X-Amz-Meta-Owner": "ada"})
	e.raw(t, "PUT", "/demo/mp?partNumber=1&uploadId=u00000001", []byte("a,b"), nil)
	complete := `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"` + md5hex([]byte("a,b")) + `"</ETag></Part></CompleteMultipartUpload>`
	if resp, b := e.raw(t, "POST", "/demo/mp?uploadId=u00000001", []byte(complete), nil); resp.StatusCode != 200 {
		t.Fatalf("complete: %d %s", resp.StatusCode, b)
	}
	resp, _ := e.raw(t, "HEAD", "/demo/mp", nil, nil)
	if resp.Header.Get("Content-Type") != "text/csv" || resp.Header.Get("X-Amz-Meta-Owner") != "ada" {
		t.Errorf("multipart object headers: %v", resp.Header)
	}
}

func TestDeleteMarkerResponsesCarryLastModified(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	e.put(t, "demo", "k", "x")
	e.setClock(t, 42)
	e.raw(t, "DELETE", "/demo/k", nil, nil)
	want := time.Unix(testOrigin+42, 0).UTC().Format(http.TimeFormat)
	for _, path := range []string{"/demo/k", "/demo/k?versionId=v00000002"} {
		resp, _ := e.raw(t, "GET", path, nil, nil)
		if got := resp.Header.Get("Last-Modified"); got != want || resp.Header.Get("x-amz-delete-marker") != "true" {
			t.Errorf("GET %s: %d Last-Modified %q, want %q", path, resp.StatusCode, got, want)
		}
	}
}

func TestRequestsWithoutABodyAreServed(t *testing.T) {
	e := newEnv(t, envOptions{})
	h := e.srv.Config.Handler
	for _, tt := range []struct{ method, path string }{{"PUT", "/nobody"}, {"GET", "/nobody"}, {"PUT", "/nobody/k"}} {
		req := httptest.NewRequest(tt.method, tt.path, nil)
		req.Body = nil
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("%s %s with a nil body: %d %s", tt.method, tt.path, rec.Code, rec.Body)
		}
	}
}
