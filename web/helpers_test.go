package web_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"minis3/core"
	"minis3/web"
)

// env is a store behind the handler behind an httptest server, with an AWS
// SDK client pointed at it.
type env struct {
	store  *core.Store
	srv    *httptest.Server
	client *s3.Client
}

type envOptions struct {
	minPartSize   int64 // 0: the store's default (5 MiB)
	maxObjectSize int64 // 0: the handler's default
	plainHTTP     bool  // serve HTTP instead of HTTPS
	wallClock     bool  // the wall clock instead of a manual one
}

var ctx = context.Background()

// newEnv starts a server over a fresh in-memory store. By default it speaks
// HTTPS, where the SDK streams PutObject and UploadPart bodies as
// aws-chunked with a checksum trailer, and the store has a manual clock.
// testOrigin is the Unix time of a test store's manual clock 0:
// 2025-12-04T00:00:00Z, a midnight.
const testOrigin = 1764806400

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	opts := core.Options{ManualClock: !o.wallClock, MinPartSize: o.minPartSize}
	if !o.wallClock {
		opts.Origin = testOrigin
	}
	store, err := core.Open(core.NewMemoryStorage(), opts)
	if err != nil {
		t.Fatal(err)
	}
	h := web.NewHandler(store, web.Options{MaxObjectSize: o.maxObjectSize})
	var srv *httptest.Server
	if o.plainHTTP {
		srv = httptest.NewServer(h)
	} else {
		srv = httptest.NewTLSServer(h)
	}
	t.Cleanup(func() {
		srv.Close()
		if err := store.Close(); err != nil {
			t.Error(err)
		}
	})
	return &env{store: store, srv: srv, client: newClient(srv.URL, srv.Client())}
}

// newClient is an SDK client for a MiniS3 at url: path-style, static
// credentials, us-east-1, no retries, and the checksum behaviour that
// config.LoadDefaultConfig gives every client (checksums "when supported":
// over HTTPS, PutObject and UploadPart bodies go aws-chunked with a trailer).
func newClient(url string, hc *http.Client) *s3.Client {
	return s3.New(s3.Options{
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenSupported,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenSupported,
		Region:                     "us-east-1",
		BaseEndpoint:               aws.String(url),
		UsePathStyle:               true,
		Credentials:                credentials.NewStaticCredentialsProvider("minis3", "minis3-secret", ""),
		HTTPClient:                 hc,
		Retryer:                    aws.NopRetryer{},
	})
}

// bucket creates a bucket and sets its versioning: "" leaves it
// unversioned.
func (e *env) bucket(t *testing.T, name, versioning string) {
	t.Helper()
	if err := e.store.CreateBucket(name); err != nil {
		t.Fatal(err)
	}
	if versioning != "" {
		if err := e.store.SetBucketVersioning(name, core.VersioningState(versioning)); err != nil {
			t.Fatal(err)
		}
	}
}

// put writes body under key through the SDK and returns the version ID
// header ("" when absent).
func (e *env) put(t *testing.T, bucket, key, body string) string {
	t.Helper()
	out, err := e.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: strings.NewReader(body)})
	if err != nil {
		t.Fatalf("PutObject %s/%s: %v", bucket, key, err)
	}
	return aws.ToString(out.VersionId)
}

func (e *env) setClock(t *testing.T, now float64) {
	t.Helper()
	if _, err := e.store.SetClock(now); err != nil {
		t.Fatal(err)
	}
}

// raw sends a request without the SDK and returns the response with its
// body read.
func (e *env) raw(t *testing.T, method, path string, body []byte, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	return rawTo(t, e.srv, method, path, body, header)
}

// rawTo sends a request without the SDK to srv and returns the response
// with its body read.
func rawTo(t *testing.T, srv *httptest.Server, method, path string, body []byte, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}

// apiError is the S3 error code and HTTP status the SDK surfaced for err.
func apiError(t *testing.T, err error) (code string, status int) {
	t.Helper()
	if err == nil {
		t.Fatal("the call succeeded; want an error")
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v is not an API error", err)
	}
	var re *awshttp.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("error %v has no HTTP response", err)
	}
	return ae.ErrorCode(), re.HTTPStatusCode()
}

// responseHeader is a header of the HTTP response behind an SDK error.
func responseHeader(t *testing.T, err error, name string) string {
	t.Helper()
	var re *awshttp.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("error %v has no HTTP response", err)
	}
	return re.Response.Header.Get(name)
}

func wantAPIError(t *testing.T, err error, wantCode string, wantStatus int) {
	t.Helper()
	code, status := apiError(t, err)
	if code != wantCode || status != wantStatus {
		t.Errorf("error = %s (%d), want %s (%d); full error: %v", code, status, wantCode, wantStatus, err)
	}
}

func md5hex(b []byte) string {
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:])
}

// getBody reads an object through the SDK.
func (e *env) getBody(t *testing.T, bucket, key, versionID string) string {
	t.Helper()
	in := &s3.GetObjectInput{Bucket: &bucket, Key: &key}
	if versionID != "" {
		in.VersionId = &versionID
	}
	out, err := e.client.GetObject(ctx, in)
	if err != nil {
		t.Fatalf("GetObject %s/%s?versionId=%s: %v", bucket, key, versionID, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
