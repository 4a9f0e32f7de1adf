package workertest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// TestStudentsSeeOnlyTheirOwnStores: two students with the same bucket
// name each see their own, move their own clock, and one's access key
// signed with the other's secret key opens nothing; an access key outside
// the class, or one signed without its secret, is refused as S3 refuses
// it, and makes no store.
func TestStudentsSeeOnlyTheirOwnStores(t *testing.T) {
	w := sharedWorker(t)
	alice, bob := w.conn(t, "iso-alice"), w.conn(t, "iso-bob")
	alice.bucket(t, "homework", false)
	alice.put(t, "homework", "answer.txt", []byte("alice's answer"))

	if list := must(bob.client.ListBuckets(ctx, &s3.ListBucketsInput{}))(t); len(list.Buckets) != 0 {
		t.Errorf("bob lists %d buckets before making any, want none of alice's", len(list.Buckets))
	}
	_, err := bob.get(t, "homework", "answer.txt", "")
	wantError(t, err, "NoSuchBucket", 404)
	bob.bucket(t, "homework", false)
	bob.put(t, "homework", "answer.txt", []byte("bob's answer"))
	for _, s := range []struct {
		c    *conn
		want string
	}{{alice, "alice's answer"}, {bob, "bob's answer"}} {
		if got := must(s.c.get(t, "homework", "answer.txt", ""))(t); string(got) != s.want {
			t.Errorf("%s reads %q, want %q", s.c.accessKey, got, s.want)
		}
	}

	bob.moveClock(t, 86400)
	if a, b := alice.clock(t), bob.clock(t); a.Now != 0 || b.Now != 86400 {
		t.Errorf("clocks after bob moved his: alice %v, bob %v; want 0 and 86400", a.Now, b.Now)
	}

	aliceWithBobsSecret := newConn(w.URL, w.http, "iso-alice", bob.secretKey)
	_, err = aliceWithBobsSecret.client.ListBuckets(ctx, &s3.ListBucketsInput{})
	wantError(t, err, "SignatureDoesNotMatch", 403)
	notInClass := newConn(w.URL, w.http, "not a student!", "whatever")
	_, err = notInClass.client.ListBuckets(ctx, &s3.ListBucketsInput{})
	wantError(t, err, "InvalidAccessKeyId", 403)
	guessing := newConn(w.URL, w.http, "mallory", "a guessed secret")
	_, err = guessing.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("mine")})
	wantError(t, err, "SignatureDoesNotMatch", 403)
	status, body := alice.do(t, "GET", "/", "", false)
	if status != 403 || !strings.Contains(string(body), "<Code>AccessDenied</Code>") {
		t.Errorf("an unsigned request: %d %s, want AccessDenied", status, body)
	}

	if got := w.stores(t); !slices.Contains(got, "iso-alice") || !slices.Contains(got, "iso-bob") || slices.Contains(got, "mallory") {
		t.Errorf("the stores: %q, want iso-alice and iso-bob, and no store for mallory's refused request", got)
	}
}

// stores is the access keys of the class's stores, as the instructor lists
// them.
func (w *worker) stores(t *testing.T) []string {
	t.Helper()
	var list struct {
		Stores []struct{ AccessKey, Since string }
	}
	if status := w.instructor(t, "GET", "stores", classSecret, &list); status != 200 {
		t.Fatalf("GET stores: %d", status)
	}
	var keys []string
	for _, s := range list.Stores {
		if s.Since == "" {
			t.Errorf("store %s has no time it was made", s.AccessKey)
		}
		keys = append(keys, s.AccessKey)
	}
	return keys
}

// TestInstructorListsAndResetsStores: the class operations need the class
// secret; resetting a store empties it, clock included, and touches no
// other.
func TestInstructorListsAndResetsStores(t *testing.T) {
	w := sharedWorker(t)
	alice, bob := w.conn(t, "class-alice"), w.conn(t, "class-bob")
	// The rule docs/HOSTING.md gives, for instructors who compute the
	// key pairs themselves.
	mac := hmac.New(sha256.New, []byte(classSecret))
	mac.Write([]byte("minis3 student class-alice"))
	if want := hex.EncodeToString(mac.Sum(nil))[:40]; alice.secretKey != want {
		t.Errorf("class-alice's secret key is %s, want %s, HMAC-SHA256(class secret, \"minis3 student class-alice\")'s first 40 hex digits", alice.secretKey, want)
	}
	for _, c := range []*conn{alice, bob} {
		c.bucket(t, "lab", true)
		c.put(t, "lab", "notes", []byte("notes"))
		c.moveClock(t, 100)
	}

	var answer struct{ Code, Message string }
	for _, tc := range []struct {
		name, method, path, secret string
		status                     int
		code                       string
	}{
		{"no secret", "GET", "stores", "", 403, "AccessDenied"},
		{"a wrong secret", "GET", "stores", "not the class secret", 403, "AccessDenied"},
		{"a student's secret key", "GET", "stores", alice.secretKey, 403, "AccessDenied"},
		{"a key pair for a key that cannot be one", "GET", "credentials/bad%20key", classSecret, 400, "InvalidArgument"},
		{"reset with GET", "GET", "stores/class-bob/reset", classSecret, 405, "MethodNotAllowed"},
		{"an unknown operation", "GET", "students", classSecret, 404, "NotFound"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer.Code = ""
			if status := w.instructor(t, tc.method, tc.path, tc.secret, &answer); status != tc.status || answer.Code != tc.code {
				t.Errorf("%s %s: %d %+v, want %d %s", tc.method, tc.path, status, answer, tc.status, tc.code)
			}
		})
	}

	if got := w.stores(t); !slices.Contains(got, "class-alice") || !slices.Contains(got, "class-bob") {
		t.Errorf("the stores: %q, want class-alice and class-bob among them", got)
	}
	var reset struct{ Reset string }
	if status := w.instructor(t, "POST", "stores/class-bob/reset", classSecret, &reset); status != 200 || reset.Reset != "class-bob" {
		t.Fatalf("reset bob: %d %+v", status, reset)
	}
	if list := must(bob.client.ListBuckets(ctx, &s3.ListBucketsInput{}))(t); len(list.Buckets) != 0 {
		t.Errorf("bob's store after the reset has %d buckets", len(list.Buckets))
	}
	if c := bob.clock(t); c.Now != 0 {
		t.Errorf("bob's clock after the reset: %v, want 0", c.Now)
	}
	if got := must(alice.get(t, "lab", "notes", ""))(t); string(got) != "notes" || alice.clock(t).Now != 100 {
		t.Errorf("alice's store changed with bob's reset")
	}
	bob.bucket(t, "lab", true)
	if v := bob.put(t, "lab", "notes", []byte("again")); aws.ToString(v.VersionId) != "v00000001" {
		t.Errorf("bob's first version after the reset is %s, want v00000001", aws.ToString(v.VersionId))
	}
	if got := w.stores(t); !slices.Contains(got, "class-bob") {
		t.Errorf("the stores after the reset: %q, want class-bob still among them", got)
	}
}

// TestStoresSurviveTheLossOfTheirInstance restarts Miniflare, dropping every
// Durable Object and its Go instance: each store comes back whole, from
// versions and bodies (one larger than a storage row) to uploads in
// progress, lifecycle configurations and the clock.
func TestStoresSurviveTheLossOfTheirInstance(t *testing.T) {
	w := sharedWorker(t)
	alice := w.conn(t, "kept-alice")
	alice.bucket(t, "kept", true)
	alice.put(t, "kept", "doc", []byte("first"))
	alice.put(t, "kept", "doc", []byte("second"))
	large := bytes.Repeat([]byte("0123456789abcdef"), 3<<16) // 3 MiB: several storage rows
	alice.put(t, "kept", "large", large)
	up := must(alice.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String("kept"), Key: aws.String("upload")}))(t)
	must(alice.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: aws.String("kept"), Key: aws.String("upload"), UploadId: up.UploadId,
		PartNumber: aws.Int32(1), Body: strings.NewReader("part one")}))(t)
	must(alice.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: aws.String("kept"),
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: []types.LifecycleRule{{ID: aws.String("old"),
			Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("")},
			NoncurrentVersionExpiration: &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(30)}}}}}))(t)
	alice.moveClock(t, 500)
	before := alice.clock(t)

	w.restart(t, map[string]any{})
	alice = w.conn(t, "kept-alice")

	if got := alice.clock(t); got != before {
		t.Errorf("the clock after the restart: %+v, want %+v", got, before)
	}
	for _, v := range []struct{ version, body string }{{"v00000001", "first"}, {"v00000002", "second"}, {"", "second"}} {
		if got := must(alice.get(t, "kept", "doc", v.version))(t); string(got) != v.body {
			t.Errorf("doc %s after the restart: %q, want %q", v.version, got, v.body)
		}
	}
	if got := must(alice.get(t, "kept", "large", ""))(t); !bytes.Equal(got, large) {
		t.Errorf("the large object after the restart: %d other bytes", len(got))
	}
	parts := must(alice.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("kept"), Key: aws.String("upload"), UploadId: up.UploadId}))(t)
	if len(parts.Parts) != 1 || aws.ToInt64(parts.Parts[0].Size) != int64(len("part one")) {
		t.Errorf("the upload's parts after the restart: %+v", parts.Parts)
	}
	lc := must(alice.client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: aws.String("kept")}))(t)
	if len(lc.Rules) != 1 || aws.ToString(lc.Rules[0].ID) != "old" {
		t.Errorf("the lifecycle configuration after the restart: %+v", lc.Rules)
	}
	if v := alice.put(t, "kept", "doc", []byte("third")); aws.ToString(v.VersionId) != "v00000004" {
		t.Errorf("the next version after the restart is %s, want v00000004 (the counter kept)", aws.ToString(v.VersionId))
	}
}

// TestConcurrentStudents: several students write and read at the same
// time, each many requests at once; every store ends up with exactly its
// own objects.
func TestConcurrentStudents(t *testing.T) {
	w := sharedWorker(t)
	const students, objects = 4, 8
	conns := make([]*conn, students)
	for i := range conns {
		conns[i] = w.conn(t, fmt.Sprintf("busy-%d", i))
		conns[i].bucket(t, "work", false)
	}
	var wg sync.WaitGroup
	errs := make(chan error, students*objects)
	for i, c := range conns {
		for j := range objects {
			wg.Go(func() {
				key, body := fmt.Sprintf("object-%d", j), fmt.Sprintf("student %d, object %d", i, j)
				if _, err := c.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("work"), Key: &key, Body: strings.NewReader(body)}); err != nil {
					errs <- fmt.Errorf("%s PUT %s: %w", c.accessKey, key, err)
					return
				}
				out, err := c.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("work"), Key: &key})
				if err != nil {
					errs <- fmt.Errorf("%s GET %s: %w", c.accessKey, key, err)
					return
				}
				defer out.Body.Close()
				var got bytes.Buffer
				if _, err := got.ReadFrom(out.Body); err != nil || got.String() != body {
					errs <- fmt.Errorf("%s GET %s = %q, %v; want %q", c.accessKey, key, got.String(), err, body)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i, c := range conns {
		list := must(c.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("work")}))(t)
		if len(list.Contents) != objects {
			t.Errorf("student %d has %d objects, want %d", i, len(list.Contents), objects)
		}
	}
}

// TestObjectsOverTheLimitAreRefused: a body one byte over the hosted
// store's limit is refused with 400 before it is read whole, and nothing
// is stored. The server answers and closes the connection while the
// client is still sending, as S3 may: the client then reads the 400 (its
// body, when it arrives in time, says EntityTooLarge) or, when the close
// reaches it first, sees the connection reset while it sends.
func TestObjectsOverTheLimitAreRefused(t *testing.T) {
	c := sharedWorker(t).conn(t, "limit-student")
	c.bucket(t, "large", false)
	_, err := c.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("large"), Key: aws.String("too-large"),
		Body: bytes.NewReader(make([]byte, maxObjectSize+1))})
	var resp *smithyhttp.ResponseError
	var api smithy.APIError
	var sendErr *smithyhttp.RequestSendError
	switch {
	case errors.As(err, &sendErr) && errors.Is(err, syscall.ECONNRESET):
		t.Logf("the connection was reset while the body was sent: %v", err)
	case !errors.As(err, &resp) || resp.HTTPStatusCode() != 400:
		t.Errorf("PutObject one byte over the limit: %v, want 400", err)
	case errors.As(err, &api) && api.ErrorCode() != "EntityTooLarge":
		t.Errorf("PutObject one byte over the limit: %v, want EntityTooLarge", err)
	}
	_, err = c.get(t, "large", "too-large", "")
	wantError(t, err, "NoSuchKey", 404)
}
