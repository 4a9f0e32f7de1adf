package workertest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// TestConformance runs every check against the native server (web.Handler
// behind RequireSigV4, as minis3 serve --clock manual runs it with
// credentials) and against the worker, each check with a new student and
// so a new store: the worker must pass every check the native server
// passes.
func TestConformance(t *testing.T) {
	targets := []struct {
		name string
		target
	}{
		{"native", nativeTarget{}},
		{"worker", &workerTarget{w: sharedWorker(t)}},
	}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			for _, c := range checks {
				t.Run(c.name, func(t *testing.T) { c.run(t, tg.student(t)) })
			}
		})
	}
}

var checks = []struct {
	name string
	run  func(t *testing.T, c *conn)
}{
	{"BucketsAreCreatedListedAndRefusedAsOnS3", bucketsAreCreatedListedAndRefusedAsOnS3},
	{"VersionsAndDeleteMarkersFollowS3", versionsAndDeleteMarkersFollowS3},
	{"ObjectsKeepMetadataAndAnswerConditions", objectsKeepMetadataAndAnswerConditions},
	{"ListingPagesByPrefixAndDelimiter", listingPagesByPrefixAndDelimiter},
	{"MultipartUploadsAssembleTheirParts", multipartUploadsAssembleTheirParts},
	{"DeleteObjectsDeletesEachKey", deleteObjectsDeletesEachKey},
	{"TheLargestObjectRoundTrips", theLargestObjectRoundTrips},
	{"PresignedURLsGetAndPut", presignedURLsGetAndPut},
	{"MovingTheClockRunsTheDailyLifecycle", movingTheClockRunsTheDailyLifecycle},
	{"TheChaptersTickExpiresByItsRules", theChaptersTickExpiresByItsRules},
	{"RequestsNotSignedByTheStudentAreRefused", requestsNotSignedByTheStudentAreRefused},
}

// wantError checks that err is the S3 error code with HTTP status.
func wantError(t *testing.T, err error, code string, status int) {
	t.Helper()
	var api smithy.APIError
	var resp *smithyhttp.ResponseError
	if !errors.As(err, &api) || !errors.As(err, &resp) {
		t.Errorf("error = %v, want %s (%d)", err, code, status)
		return
	}
	if api.ErrorCode() != code || resp.HTTPStatusCode() != status {
		t.Errorf("error = %s (%d), want %s (%d); full error: %v", api.ErrorCode(), resp.HTTPStatusCode(), code, status, err)
	}
}

// must(f())(t) is f's value, or a fatal error of t if f failed.
func must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func (c *conn) bucket(t *testing.T, name string, versioned bool) {
	t.Helper()
	must(c.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &name}))(t)
	if versioned {
		must(c.client.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: &name,
			VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}))(t)
	}
}

func (c *conn) put(t *testing.T, bucket, key string, body []byte) *s3.PutObjectOutput {
	t.Helper()
	return must(c.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: bytes.NewReader(body)}))(t)
}

// get returns the body of key (of versionID, if not empty).
func (c *conn) get(t *testing.T, bucket, key, versionID string) ([]byte, error) {
	t.Helper()
	in := &s3.GetObjectInput{Bucket: &bucket, Key: &key}
	if versionID != "" {
		in.VersionId = &versionID
	}
	out, err := c.client.GetObject(ctx, in)
	if err != nil {
		return nil, err
	}
	defer out.Body.Close()
	return io.ReadAll(out.Body)
}

func bucketsAreCreatedListedAndRefusedAsOnS3(t *testing.T, c *conn) {
	c.bucket(t, "photos", false)
	_, err := c.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("photos")})
	wantError(t, err, "BucketAlreadyOwnedByYou", 409)
	_, err = c.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("Bad_Name")})
	wantError(t, err, "InvalidBucketName", 400)
	list := must(c.client.ListBuckets(ctx, &s3.ListBucketsInput{}))(t)
	if len(list.Buckets) != 1 || aws.ToString(list.Buckets[0].Name) != "photos" {
		t.Errorf("ListBuckets = %+v, want photos alone", list.Buckets)
	}
	must(c.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String("photos")}))(t)
	_, err = c.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String("missing")})
	wantError(t, err, "NotFound", 404)
	c.put(t, "photos", "cat.jpg", []byte("meow"))
	_, err = c.client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String("photos")})
	wantError(t, err, "BucketNotEmpty", 409)
}

func versionsAndDeleteMarkersFollowS3(t *testing.T, c *conn) {
	c.bucket(t, "versions", true)
	one, two := c.put(t, "versions", "cat.txt", []byte("one")), c.put(t, "versions", "cat.txt", []byte("two!"))
	if v1, v2 := aws.ToString(one.VersionId), aws.ToString(two.VersionId); v1 != "v00000001" || v2 != "v00000002" {
		t.Errorf("version IDs %s, %s; want v00000001, v00000002", v1, v2)
	}
	if body := must(c.get(t, "versions", "cat.txt", ""))(t); string(body) != "two!" {
		t.Errorf("current = %q, want two!", body)
	}
	if body := must(c.get(t, "versions", "cat.txt", "v00000001"))(t); string(body) != "one" {
		t.Errorf("v00000001 = %q, want one", body)
	}
	del := must(c.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("versions"), Key: aws.String("cat.txt")}))(t)
	if !aws.ToBool(del.DeleteMarker) || aws.ToString(del.VersionId) != "v00000003" {
		t.Errorf("DeleteObject = marker %v version %s, want a marker v00000003", aws.ToBool(del.DeleteMarker), aws.ToString(del.VersionId))
	}
	_, err := c.get(t, "versions", "cat.txt", "")
	wantError(t, err, "NoSuchKey", 404)
	_, err = c.get(t, "versions", "cat.txt", "v00000003")
	wantError(t, err, "MethodNotAllowed", 405)
	_, err = c.get(t, "versions", "cat.txt", "v00000099")
	wantError(t, err, "NoSuchVersion", 404)
	vs := must(c.client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String("versions")}))(t)
	if len(vs.Versions) != 2 || len(vs.DeleteMarkers) != 1 || !aws.ToBool(vs.DeleteMarkers[0].IsLatest) {
		t.Errorf("ListObjectVersions: %d versions, %d markers; want 2 and the latest marker", len(vs.Versions), len(vs.DeleteMarkers))
	}
	must(c.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("versions"), Key: aws.String("cat.txt"), VersionId: aws.String("v00000003")}))(t)
	if body := must(c.get(t, "versions", "cat.txt", ""))(t); string(body) != "two!" {
		t.Errorf("after removing the marker, current = %q, want two!", body)
	}
}

func objectsKeepMetadataAndAnswerConditions(t *testing.T, c *conn) {
	c.bucket(t, "docs", false)
	must(c.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("docs"), Key: aws.String("dir/a key+with=odd&chars é"),
		Body: strings.NewReader("hello"), ContentType: aws.String("text/plain"), Metadata: map[string]string{"chapter": "8"}}))(t)
	head := must(c.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("docs"), Key: aws.String("dir/a key+with=odd&chars é")}))(t)
	if aws.ToString(head.ContentType) != "text/plain" || head.Metadata["chapter"] != "8" || aws.ToInt64(head.ContentLength) != 5 ||
		aws.ToString(head.ETag) != `"5d41402abc4b2a76b9719d911017c592"` {
		t.Errorf("HeadObject: %s %v %d %s", aws.ToString(head.ContentType), head.Metadata, aws.ToInt64(head.ContentLength), aws.ToString(head.ETag))
	}
	part := must(c.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("docs"), Key: aws.String("dir/a key+with=odd&chars é"), Range: aws.String("bytes=1-2")}))(t)
	if body, _ := io.ReadAll(part.Body); string(body) != "el" || aws.ToString(part.ContentRange) != "bytes 1-2/5" {
		t.Errorf("GetObject bytes=1-2: %q %s", body, aws.ToString(part.ContentRange))
	}
	_, err := c.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("docs"), Key: aws.String("dir/a key+with=odd&chars é"),
		Body: strings.NewReader("again"), IfNoneMatch: aws.String("*")})
	wantError(t, err, "PreconditionFailed", 412)
	must(c.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String("docs"), Key: aws.String("copy"),
		CopySource: aws.String("docs/dir/a%20key%2Bwith%3Dodd%26chars%20%C3%A9")}))(t)
	if body := must(c.get(t, "docs", "copy", ""))(t); string(body) != "hello" {
		t.Errorf("the copy = %q, want hello", body)
	}
	must(c.client.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{Bucket: aws.String("docs"), Key: aws.String("copy"),
		Tagging: &types.Tagging{TagSet: []types.Tag{{Key: aws.String("class"), Value: aws.String("lab 8")}}}}))(t)
	tags := must(c.client.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: aws.String("docs"), Key: aws.String("copy")}))(t)
	if len(tags.TagSet) != 1 || aws.ToString(tags.TagSet[0].Value) != "lab 8" {
		t.Errorf("GetObjectTagging = %+v", tags.TagSet)
	}
}

func listingPagesByPrefixAndDelimiter(t *testing.T, c *conn) {
	c.bucket(t, "list", false)
	keys := []string{"a/1", "a/2", "b/1", "c"}
	for _, k := range keys {
		c.put(t, "list", k, []byte(k))
	}
	out := must(c.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("list"), Delimiter: aws.String("/")}))(t)
	var prefixes, contents []string
	for _, p := range out.CommonPrefixes {
		prefixes = append(prefixes, aws.ToString(p.Prefix))
	}
	for _, o := range out.Contents {
		contents = append(contents, aws.ToString(o.Key))
	}
	if !slices.Equal(prefixes, []string{"a/", "b/"}) || !slices.Equal(contents, []string{"c"}) {
		t.Errorf("with delimiter /: prefixes %q, contents %q", prefixes, contents)
	}
	var paged []string
	pages := s3.NewListObjectsV2Paginator(c.client, &s3.ListObjectsV2Input{Bucket: aws.String("list"), MaxKeys: aws.Int32(1)})
	for pages.HasMorePages() {
		page := must(pages.NextPage(ctx))(t)
		for _, o := range page.Contents {
			paged = append(paged, aws.ToString(o.Key))
		}
	}
	if !slices.Equal(paged, keys) {
		t.Errorf("one key a page: %q, want %q", paged, keys)
	}
}

func multipartUploadsAssembleTheirParts(t *testing.T, c *conn) {
	c.bucket(t, "parts", false)
	up := must(c.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String("parts"), Key: aws.String("big")}))(t)
	first := bytes.Repeat([]byte("a"), 5<<20)
	var done []types.CompletedPart
	for i, body := range [][]byte{first, []byte("end")} {
		n := aws.Int32(int32(i + 1))
		p := must(c.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: aws.String("parts"), Key: aws.String("big"),
			UploadId: up.UploadId, PartNumber: n, Body: bytes.NewReader(body)}))(t)
		done = append(done, types.CompletedPart{PartNumber: n, ETag: p.ETag})
	}
	parts := must(c.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("parts"), Key: aws.String("big"), UploadId: up.UploadId}))(t)
	if len(parts.Parts) != 2 {
		t.Errorf("ListParts: %d parts, want 2", len(parts.Parts))
	}
	out := must(c.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: aws.String("parts"), Key: aws.String("big"),
		UploadId: up.UploadId, MultipartUpload: &types.CompletedMultipartUpload{Parts: done}}))(t)
	if !strings.HasSuffix(aws.ToString(out.ETag), `-2"`) {
		t.Errorf("the ETag %s is not a two-part one", aws.ToString(out.ETag))
	}
	body := must(c.get(t, "parts", "big", ""))(t)
	if want := append(first, "end"...); !bytes.Equal(body, want) {
		t.Errorf("the object has %d bytes, want the %d of its parts", len(body), len(want))
	}
	uploads := must(c.client.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: aws.String("parts")}))(t)
	if len(uploads.Uploads) != 0 {
		t.Errorf("ListMultipartUploads after completion: %d uploads", len(uploads.Uploads))
	}
}

func deleteObjectsDeletesEachKey(t *testing.T, c *conn) {
	c.bucket(t, "many", false)
	for _, k := range []string{"a", "b", "c"} {
		c.put(t, "many", k, []byte(k))
	}
	out := must(c.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String("many"), Delete: &types.Delete{
		Objects: []types.ObjectIdentifier{{Key: aws.String("a")}, {Key: aws.String("c")}, {Key: aws.String("never")}}}}))(t)
	if len(out.Deleted) != 3 || len(out.Errors) != 0 {
		t.Errorf("DeleteObjects: %d deleted, %d errors; want 3 deleted (a key never written counts)", len(out.Deleted), len(out.Errors))
	}
	left := must(c.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("many")}))(t)
	if len(left.Contents) != 1 || aws.ToString(left.Contents[0].Key) != "b" {
		t.Errorf("left: %+v, want b alone", left.Contents)
	}
}

func theLargestObjectRoundTrips(t *testing.T, c *conn) {
	c.bucket(t, "large", false)
	body := make([]byte, maxObjectSize)
	rng := rand.NewChaCha8([32]byte{'m', 'i', 'n', 'i', 's', '3'})
	must(rng.Read(body))(t)
	c.put(t, "large", "largest", body)
	if got := must(c.get(t, "large", "largest", ""))(t); !bytes.Equal(got, body) {
		t.Errorf("the largest object came back as %d other bytes", len(got))
	}
}

func presignedURLsGetAndPut(t *testing.T, c *conn) {
	c.bucket(t, "shared", false)
	presign := s3.NewPresignClient(c.client)
	put := must(presign.PresignPutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("shared"), Key: aws.String("note")},
		s3.WithPresignExpires(time.Hour)))(t)
	req := must(http.NewRequest(put.Method, put.URL, strings.NewReader("sent to a presigned URL")))(t)
	resp := must(c.http.Do(req))(t)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("PUT to the presigned URL: %d", resp.StatusCode)
	}
	get := must(presign.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("shared"), Key: aws.String("note")}))(t)
	resp = must(c.http.Get(get.URL))(t)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "sent to a presigned URL" {
		t.Errorf("GET of the presigned URL: %d %q", resp.StatusCode, body)
	}
}

// clock is GET /_minis3/clock's answer.
type clock struct {
	Now    float64
	Origin int64
	Time   string
}

func (c *conn) clock(t *testing.T) clock {
	t.Helper()
	status, body := c.do(t, "GET", "/_minis3/clock", "", true)
	var got clock
	if err := json.Unmarshal(body, &got); status != 200 || err != nil {
		t.Fatalf("GET /_minis3/clock: %d %s", status, body)
	}
	return got
}

// actions is the answer of a tick or a preview.
type actions struct{ Actions []action }

func movingTheClockRunsTheDailyLifecycle(t *testing.T, c *conn) {
	start := c.clock(t)
	if start.Now != 0 || start.Origin%86400 != 0 || time.Since(time.Unix(start.Origin, 0)) > 48*time.Hour {
		t.Errorf("a new store's clock: %+v, want 0 at a recent midnight UTC", start)
	}
	c.bucket(t, "logs", false)
	c.put(t, "logs", "logs/app.log", []byte("log"))
	must(c.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: aws.String("logs"),
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: []types.LifecycleRule{{ID: aws.String("logs"),
			Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}}}}}))(t)
	if runs := c.moveClock(t, 86400); len(runs) != 0 {
		t.Errorf("a day later the runs did %+v, want nothing yet (due at the second midnight)", runs)
	}
	runs := c.moveClock(t, 172800)
	if len(runs) != 1 || runs[0].Bucket != "logs" || len(runs[0].Actions) != 1 ||
		runs[0].Actions[0].Kind != "expire_current" || runs[0].Actions[0].Key != "logs/app.log" {
		t.Errorf("two days later the runs did %+v, want logs/app.log expired", runs)
	}
	_, err := c.get(t, "logs", "logs/app.log", "")
	wantError(t, err, "NoSuchKey", 404)
	if now := c.clock(t); now.Now != 172800 || now.Origin != start.Origin {
		t.Errorf("the clock: %+v, want 172800 after the origin %d", now, start.Origin)
	}
}

// run is one bucket's daily lifecycle run, as PUT /_minis3/clock lists it.
type run struct {
	Bucket  string
	Actions []action
}

// action is a lifecycle action, as the extensions list it.
type action struct{ RuleID, Key, VersionID, Kind string }

// moveClock moves the store's manual clock to now and returns the daily
// runs the move passed.
func (c *conn) moveClock(t *testing.T, now float64) []run {
	t.Helper()
	status, body := c.do(t, "PUT", "/_minis3/clock", fmt.Sprintf(`{"now": %v}`, now), true)
	var answer struct{ Runs []run }
	if err := json.Unmarshal(body, &answer); status != 200 || err != nil {
		t.Fatalf("PUT /_minis3/clock to %v: %d %s", now, status, body)
	}
	return answer.Runs
}

func theChaptersTickExpiresByItsRules(t *testing.T, c *conn) {
	c.bucket(t, "demo", true)
	c.put(t, "demo", "a.txt", []byte("first"))
	c.moveClock(t, 3)
	c.put(t, "demo", "a.txt", []byte("second"))
	rules := `{"rules": [{"id": "old", "prefix": "", "expireNoncurrentAfter": 5}]}`
	status, body := c.do(t, "POST", "/_minis3/buckets/demo/lifecycle-preview", rules, true)
	var preview actions
	if err := json.Unmarshal(body, &preview); status != 200 || err != nil || len(preview.Actions) != 0 {
		t.Errorf("preview at 3 s: %d %s, want nothing (v00000001 is 3 s old)", status, body)
	}
	c.moveClock(t, 5)
	status, body = c.do(t, "POST", "/_minis3/buckets/demo/lifecycle-tick", rules, true)
	var tick actions
	if err := json.Unmarshal(body, &tick); status != 200 || err != nil || len(tick.Actions) != 1 ||
		tick.Actions[0].VersionID != "v00000001" || tick.Actions[0].Kind != "expire_noncurrent" {
		t.Errorf("tick at 5 s: %d %s, want v00000001 expired as noncurrent", status, body)
	}
	_, err := c.get(t, "demo", "a.txt", "v00000001")
	wantError(t, err, "NoSuchVersion", 404)
}

func requestsNotSignedByTheStudentAreRefused(t *testing.T, c *conn) {
	c.bucket(t, "private", false)
	wrong := newConn(c.url, c.http, c.accessKey, "not-the-secret-key")
	_, err := wrong.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("private")})
	wantError(t, err, "SignatureDoesNotMatch", 403)
	status, body := c.do(t, "GET", "/private", "", false)
	if status != 403 || !strings.Contains(string(body), "<Code>AccessDenied</Code>") {
		t.Errorf("an unsigned GET: %d %s, want AccessDenied", status, body)
	}
	status, body = c.do(t, "PUT", "/_minis3/clock", `{"now": 100}`, false)
	if status != 403 || !strings.Contains(string(body), `"code":"AccessDenied"`) {
		t.Errorf("an unsigned clock move: %d %s, want AccessDenied in JSON", status, body)
	}
	if now := c.clock(t); now.Now != 0 {
		t.Errorf("the refused move moved the clock to %v", now.Now)
	}
}
