package web_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"minis3/core"
	"minis3/web"
)

// The credentials the signed servers accept; newClient signs with them.
const (
	testAccessKey = "minis3"
	testSecretKey = "minis3-secret"
)

// signedEnv is a store behind RequireSigV4 behind an httptest server. The
// server's wall clock is the real one moved by skew.
type signedEnv struct {
	store *core.Store
	srv   *httptest.Server
	skew  atomic.Int64 // nanoseconds added to the server's clock
}

func newSignedEnv(t *testing.T, tls bool) *signedEnv {
	t.Helper()
	store, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true, MinPartSize: 5})
	if err != nil {
		t.Fatal(err)
	}
	e := &signedEnv{store: store}
	h := web.RequireSigV4(web.NewHandler(store, web.Options{}), web.Credentials{AccessKey: testAccessKey, SecretKey: testSecretKey},
		func() time.Time { return time.Now().Add(time.Duration(e.skew.Load())) })
	if tls {
		e.srv = httptest.NewTLSServer(h)
	} else {
		e.srv = httptest.NewServer(h)
	}
	t.Cleanup(func() {
		e.srv.Close()
		if err := store.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}

// clientWith is newClient with other credentials and an HTTP client.
func clientWith(url string, hc *http.Client, accessKey, secretKey string) *s3.Client {
	return s3.New(s3.Options{
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenSupported,
		Region:                     "us-east-1",
		BaseEndpoint:               aws.String(url),
		UsePathStyle:               true,
		Credentials:                credentials.NewStaticCredentialsProvider(accessKey, secretKey, ""),
		HTTPClient:                 hc,
		Retryer:                    aws.NopRetryer{},
	})
}

func TestSigV4AcceptsTheSDK(t *testing.T) {
	for _, tls := range []bool{false, true} {
		name := "HTTP (hex payload hash)"
		if tls {
			name = "HTTPS (aws-chunked with an unsigned checksum trailer)"
		}
		t.Run(name, func(t *testing.T) {
			e := newSignedEnv(t, tls)
			c := newClient(e.srv.URL, e.srv.Client())
			b := aws.String("signed")
			if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: b}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: b,
				VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
				t.Fatal(err)
			}
			key := "dir/a key+with=odd&chars é"
			put, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: aws.String(key), Body: strings.NewReader("hello"),
				Metadata: map[string]string{"chapter": "8"}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: b, Key: aws.String(key)})
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(got.Body)
			got.Body.Close()
			if string(body) != "hello" || got.Metadata["chapter"] != "8" {
				t.Errorf("GetObject: %q %v", body, got.Metadata)
			}
			vs, err := c.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: b, Prefix: aws.String("dir/")})
			if err != nil || len(vs.Versions) != 1 || aws.ToString(vs.Versions[0].VersionId) != aws.ToString(put.VersionId) {
				t.Errorf("ListObjectVersions: %+v %v", vs, err)
			}
			up, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: b, Key: aws.String("mp")})
			if err != nil {
				t.Fatal(err)
			}
			var parts []types.CompletedPart
			for i, data := range []string{"first part", "second"} {
				n := aws.Int32(int32(i + 1))
				p, err := c.UploadPart(ctx, &s3.UploadPartInput{Bucket: b, Key: aws.String("mp"), UploadId: up.UploadId, PartNumber: n, Body: strings.NewReader(data)})
				if err != nil {
					t.Fatal(err)
				}
				parts = append(parts, types.CompletedPart{PartNumber: n, ETag: p.ETag})
			}
			if _, err := c.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: b, Key: aws.String("mp"), UploadId: up.UploadId,
				MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}}); err != nil {
				t.Fatal(err)
			}
			del, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: b, Delete: &types.Delete{Objects: []types.ObjectIdentifier{
				{Key: aws.String(key)}, {Key: aws.String("mp")}}}})
			if err != nil || len(del.Deleted) != 2 || len(del.Errors) != 0 {
				t.Errorf("DeleteObjects: %+v %v", del, err)
			}
			if _, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: b}); err != nil {
				t.Errorf("HeadBucket: %v", err)
			}
		})
	}
}

func TestSigV4PresignedGet(t *testing.T) {
	e := newSignedEnv(t, false)
	if err := e.store.CreateBucket("pre"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.PutObject("pre", "doc.txt", []byte("presigned body"), core.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	presign := func(t *testing.T, secret string, expires time.Duration) string {
		t.Helper()
		pc := s3.NewPresignClient(clientWith(e.srv.URL, e.srv.Client(), testAccessKey, secret))
		req, err := pc.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("pre"), Key: aws.String("doc.txt")}, s3.WithPresignExpires(expires))
		if err != nil {
			t.Fatal(err)
		}
		return req.URL
	}
	tests := []struct {
		name     string
		secret   string
		change   func(string) string
		skew     time.Duration
		status   int
		code     string
		contains string
	}{
		{"as signed", testSecretKey, nil, 0, 200, "", "presigned body"},
		{"expired", testSecretKey, nil, 2 * time.Minute, 403, "AccessDenied", "<X-Amz-Expires>60</X-Amz-Expires>"},
		{"with a wrong secret", "wrong", nil, 0, 403, "SignatureDoesNotMatch", "<CanonicalRequest>GET&#xA;/pre/doc.txt&#xA;"},
		{"with another key", testSecretKey, func(u string) string { return u + "&versionId=null" }, 0, 403, "SignatureDoesNotMatch", "versionId=null"},
		{"with a longer expiry", testSecretKey, func(u string) string { return strings.Replace(u, "X-Amz-Expires=60", "X-Amz-Expires=600", 1) }, 0, 403, "SignatureDoesNotMatch", ""},
		{"signed in the future", testSecretKey, nil, -20 * time.Minute, 403, "RequestTimeTooSkewed", "<MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := presign(t, tt.secret, time.Minute)
			if tt.change != nil {
				u = tt.change(u)
			}
			e.skew.Store(int64(tt.skew))
			defer e.skew.Store(0)
			resp, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.contains) ||
				(tt.code != "" && !strings.Contains(string(body), "<Code>"+tt.code+"</Code>")) {
				t.Errorf("got %d %s; want %d %s containing %q", resp.StatusCode, body, tt.status, tt.code, tt.contains)
			}
		})
	}
}

// tamper is an http.RoundTripper that changes requests after the SDK
// signed them.
type tamper struct {
	rt     http.RoundTripper
	change func(*http.Request)
}

func (t tamper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	t.change(r)
	return t.rt.RoundTrip(r)
}

func TestSigV4RefusesTheSDKWhenSomethingIsWrong(t *testing.T) {
	e := newSignedEnv(t, false)
	if err := e.store.CreateBucket("bkt"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		access string
		secret string
		change func(*http.Request)
		skew   time.Duration
		code   string
		status int
	}{
		{"a wrong secret key", testAccessKey, "not-the-secret", nil, 0, "SignatureDoesNotMatch", 403},
		{"an unknown access key", "someone-else", testSecretKey, nil, 0, "InvalidAccessKeyId", 403},
		{"a signed header changed", testAccessKey, testSecretKey, func(r *http.Request) { r.Header.Set("X-Amz-Meta-Chapter", "9") }, 0, "SignatureDoesNotMatch", 403},
		{"an unsigned x-amz header added", testAccessKey, testSecretKey, func(r *http.Request) { r.Header.Set("X-Amz-Meta-Extra", "1") }, 0, "AccessDenied", 403},
		{"the path changed", testAccessKey, testSecretKey, func(r *http.Request) { r.URL.Path = "/bkt/other" }, 0, "SignatureDoesNotMatch", 403},
		{"the body changed (the SDK's signed CRC32 catches it)", testAccessKey, testSecretKey, func(r *http.Request) {
			r.Body = io.NopCloser(strings.NewReader("HELLO"))
		}, 0, "BadDigest", 400},
		{"the server's clock 20 minutes ahead", testAccessKey, testSecretKey, nil, 20 * time.Minute, "RequestTimeTooSkewed", 403},
		{"the server's clock 20 minutes behind", testAccessKey, testSecretKey, nil, -20 * time.Minute, "RequestTimeTooSkewed", 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hc := e.srv.Client()
			if tt.change != nil {
				hc = &http.Client{Transport: tamper{rt: e.srv.Client().Transport, change: tt.change}}
			}
			e.skew.Store(int64(tt.skew))
			defer e.skew.Store(0)
			c := clientWith(e.srv.URL, hc, tt.access, tt.secret)
			_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("bkt"), Key: aws.String("k"), Body: strings.NewReader("hello"),
				Metadata: map[string]string{"chapter": "8"}})
			wantAPIError(t, err, tt.code, tt.status)
			if _, err := e.store.HeadObject("bkt", "k", core.GetOptions{}); err == nil {
				t.Error("the refused PUT stored the object")
			}
		})
	}
}

// signRaw signs a request with the SDK's SigV4 signer the way S3 clients
// do (x-amz-content-sha256 set, the path not escaped twice).
func signRaw(t *testing.T, r *http.Request, body []byte, accessKey, secretKey string, at time.Time) {
	t.Helper()
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	r.Header.Set("X-Amz-Content-Sha256", hash)
	signer := v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
	if err := signer.SignHTTP(ctx, aws.Credentials{AccessKeyID: accessKey, SecretAccessKey: secretKey}, r, hash, "s3", "us-east-1", at); err != nil {
		t.Fatal(err)
	}
}

// s3ErrorBody is the part of S3's error document the tests read.
type s3ErrorBody struct {
	Code                       string
	Message                    string
	Region                     string
	AWSAccessKeyID             string `xml:"AWSAccessKeyId"`
	StringToSign               string
	SignatureProvided          string
	StringToSignBytes          string
	CanonicalRequest           string
	CanonicalRequestBytes      string
	RequestTime                string
	ServerTime                 string
	MaxAllowedSkewMilliseconds string
	HeadersNotSigned           string
	RequestID                  string `xml:"RequestId"`
	HostID                     string `xml:"HostId"`
}

func TestSigV4RefusesMalformedAuthentication(t *testing.T) {
	e := newSignedEnv(t, false)
	if err := e.store.CreateBucket("bkt"); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	// replaceAuth edits the Authorization header of a signed request.
	replaceAuth := func(old, new string) func(*http.Request) {
		return func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), old, new, 1))
		}
	}
	scope := now.Format("20060102") + "/us-east-1/s3/aws4_request"
	tests := []struct {
		name   string
		method string
		path   string
		sign   bool
		change func(*http.Request)
		status int
		code   string
		check  func(*testing.T, s3ErrorBody)
	}{
		{"a signed GET", "GET", "/bkt", true, nil, 200, "", nil},
		{"no signature", "GET", "/bkt", false, nil, 403, "AccessDenied", nil},
		{"a Signature Version 2 header", "GET", "/bkt", false, func(r *http.Request) { r.Header.Set("Authorization", "AWS minis3:c2lnbmF0dXJl") }, 403, "AccessDenied", nil},
		{"a wrong secret key", "GET", "/bkt", true, func(r *http.Request) {
			r.Header.Del("Authorization")
			signRaw(t, r, nil, testAccessKey, "wrong", now)
		}, 403, "SignatureDoesNotMatch", func(t *testing.T, b s3ErrorBody) {
			if b.AWSAccessKeyID != testAccessKey || !strings.HasPrefix(b.StringToSign, "AWS4-HMAC-SHA256\n") || b.SignatureProvided == "" ||
				!strings.HasPrefix(b.CanonicalRequest, "GET\n/bkt\n\nhost:") || !strings.HasPrefix(b.StringToSignBytes, "41 57 53 34") ||
				!strings.HasPrefix(b.CanonicalRequestBytes, "47 45 54 0a") || b.RequestID == "" || b.HostID == "" {
				t.Errorf("the error lacks S3's details: %+v", b)
			}
		}},
		{"an unknown access key", "GET", "/bkt", true, replaceAuth("Credential="+testAccessKey+"/", "Credential=AKIDUNKNOWN/"), 403, "InvalidAccessKeyId",
			func(t *testing.T, b s3ErrorBody) {
				if b.AWSAccessKeyID != "AKIDUNKNOWN" {
					t.Errorf("AWSAccessKeyId %q", b.AWSAccessKeyID)
				}
			}},
		{"signed 20 minutes ago", "GET", "/bkt", true, func(r *http.Request) {
			r.Header.Del("Authorization")
			signRaw(t, r, nil, testAccessKey, testSecretKey, now.Add(-20*time.Minute))
		}, 403, "RequestTimeTooSkewed", func(t *testing.T, b s3ErrorBody) {
			if b.MaxAllowedSkewMilliseconds != "900000" || b.RequestTime == "" || b.ServerTime == "" {
				t.Errorf("the error lacks S3's details: %+v", b)
			}
		}},
		{"no Signature field", "GET", "/bkt", true, func(r *http.Request) {
			a, _, _ := strings.Cut(r.Header.Get("Authorization"), ", Signature=")
			r.Header.Set("Authorization", a)
		}, 400, "AuthorizationHeaderMalformed", nil},
		{"a field that is not name=value", "GET", "/bkt", true, replaceAuth("SignedHeaders=", "SignedHeaders"), 400, "AuthorizationHeaderMalformed", nil},
		{"a credential without a region", "GET", "/bkt", true, replaceAuth("/us-east-1/s3/", "//s3/"), 400, "AuthorizationHeaderMalformed", nil},
		{"a credential of four parts", "GET", "/bkt", true, replaceAuth("/s3/aws4_request", "/aws4_request"), 400, "AuthorizationHeaderMalformed", nil},
		{"a credential for another service", "GET", "/bkt", true, replaceAuth("/s3/aws4_request", "/iam/aws4_request"), 400, "AuthorizationHeaderMalformed", nil},
		{"a credential for another region", "GET", "/bkt", true, replaceAuth("/us-east-1/s3/", "/eu-west-1/s3/"), 400, "AuthorizationHeaderMalformed",
			func(t *testing.T, b s3ErrorBody) {
				if b.Region != "us-east-1" || b.Message != "The authorization header is malformed; the region 'eu-west-1' is wrong; expecting 'us-east-1'" {
					t.Errorf("Region %q, Message %q; want S3's", b.Region, b.Message)
				}
			}},
		{"a credential date that is not a date", "GET", "/bkt", true, replaceAuth("/"+now.Format("20060102")+"/", "/2026-01-01/"), 400, "AuthorizationHeaderMalformed", nil},
		{"a credential date other than X-Amz-Date's", "GET", "/bkt", true, replaceAuth("/"+now.Format("20060102")+"/", "/20000101/"), 400, "AuthorizationHeaderMalformed", nil},
		{"no X-Amz-Date", "GET", "/bkt", true, func(r *http.Request) { r.Header.Del("X-Amz-Date") }, 403, "AccessDenied", nil},
		{"an X-Amz-Date that is not a time", "GET", "/bkt", true, func(r *http.Request) { r.Header.Set("X-Amz-Date", "yesterday") }, 403, "AccessDenied", nil},
		{"no x-amz-content-sha256", "GET", "/bkt", true, func(r *http.Request) { r.Header.Del("X-Amz-Content-Sha256") }, 400, "InvalidRequest", nil},
		{"a short x-amz-content-sha256", "GET", "/bkt", true, func(r *http.Request) { r.Header.Set("X-Amz-Content-Sha256", "abc") }, 400, "InvalidArgument", nil},
		{"an x-amz-content-sha256 that is not lower-case hex", "GET", "/bkt", true, func(r *http.Request) {
			r.Header.Set("X-Amz-Content-Sha256", strings.Repeat("E", 64))
		}, 400, "InvalidArgument", nil},
		{"the host not signed", "GET", "/bkt", true, replaceAuth("SignedHeaders=host;", "SignedHeaders="), 403, "AccessDenied", nil},
		{"an unsigned x-amz header", "GET", "/bkt", true, func(r *http.Request) { r.Header.Set("X-Amz-Meta-Extra", "1") }, 403, "AccessDenied",
			func(t *testing.T, b s3ErrorBody) {
				if b.HeadersNotSigned != "x-amz-meta-extra" {
					t.Errorf("HeadersNotSigned %q", b.HeadersNotSigned)
				}
			}},
		{"a header and a query signature", "GET", "/bkt?X-Amz-Algorithm=AWS4-HMAC-SHA256", true, nil, 400, "InvalidArgument", nil},
		{"a HEAD without a signature", "HEAD", "/bkt", false, nil, 403, "", nil},
		{"presigned with another algorithm", "GET", "/bkt?X-Amz-Algorithm=AWS4-HMAC-SHA1", false, nil, 400, "AuthorizationQueryParametersError", nil},
		{"presigned without a signature", "GET", "/bkt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=minis3/" + url.QueryEscape(scope) +
			"&X-Amz-Date=" + now.Format("20060102T150405Z") + "&X-Amz-SignedHeaders=host&X-Amz-Expires=60", false, nil, 400, "AuthorizationQueryParametersError", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := http.NewRequest(tt.method, e.srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.sign {
				signRaw(t, r, nil, testAccessKey, testSecretKey, now)
			}
			if tt.change != nil {
				tt.change(r)
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if tt.method == "HEAD" || tt.status == 200 {
				return
			}
			var got s3ErrorBody
			if err := xml.Unmarshal(body, &got); err != nil || got.Code != tt.code || got.Message == "" {
				t.Fatalf("error %+v (%v), want code %s and a message; body %s", got, err, tt.code, body)
			}
			if tt.check != nil {
				tt.check(t, got)
			}
		})
	}
}

func TestSigV4RefusesMalformedPresignedURLs(t *testing.T) {
	e := newSignedEnv(t, false)
	if err := e.store.CreateBucket("bkt"); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	presigned := func(t *testing.T) url.Values {
		t.Helper()
		r, err := http.NewRequest("GET", e.srv.URL+"/bkt?X-Amz-Expires=60", nil)
		if err != nil {
			t.Fatal(err)
		}
		u, _, err := v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true }).PresignHTTP(ctx,
			aws.Credentials{AccessKeyID: testAccessKey, SecretAccessKey: testSecretKey}, r, "UNSIGNED-PAYLOAD", "s3", "us-east-1", now)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		return parsed.Query()
	}
	tests := []struct {
		name   string
		change func(url.Values)
		status int
		code   string
	}{
		{"as signed", func(url.Values) {}, 200, ""},
		{"an expiry that is not a number", func(q url.Values) { q.Set("X-Amz-Expires", "soon") }, 400, "AuthorizationQueryParametersError"},
		{"a negative expiry", func(q url.Values) { q.Set("X-Amz-Expires", "-1") }, 400, "AuthorizationQueryParametersError"},
		{"an expiry over a week", func(q url.Values) { q.Set("X-Amz-Expires", "604801") }, 400, "AuthorizationQueryParametersError"},
		{"a date that is not a time", func(q url.Values) { q.Set("X-Amz-Date", "today") }, 400, "AuthorizationQueryParametersError"},
		{"a credential date other than X-Amz-Date's", func(q url.Values) {
			q.Set("X-Amz-Credential", strings.Replace(q.Get("X-Amz-Credential"), now.Format("20060102"), "20000101", 1))
		}, 400, "AuthorizationQueryParametersError"},
		{"a malformed credential", func(q url.Values) { q.Set("X-Amz-Credential", "minis3") }, 400, "AuthorizationQueryParametersError"},
		{"a credential for another region", func(q url.Values) {
			q.Set("X-Amz-Credential", strings.Replace(q.Get("X-Amz-Credential"), "/us-east-1/", "/eu-west-1/", 1))
		}, 400, "AuthorizationQueryParametersError"},
		{"an unknown access key", func(q url.Values) {
			q.Set("X-Amz-Credential", strings.Replace(q.Get("X-Amz-Credential"), testAccessKey+"/", "AKIDUNKNOWN/", 1))
		}, 403, "InvalidAccessKeyId"},
		{"a changed signature", func(q url.Values) { q.Set("X-Amz-Signature", strings.Repeat("0", 64)) }, 403, "SignatureDoesNotMatch"},
		{"the host not signed", func(q url.Values) { q.Set("X-Amz-SignedHeaders", "x-amz-date") }, 403, "AccessDenied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := presigned(t)
			tt.change(q)
			resp, err := http.Get(e.srv.URL + "/bkt?" + q.Encode())
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || (tt.code != "" && !bytes.Contains(body, []byte("<Code>"+tt.code+"</Code>"))) {
				t.Errorf("got %d %s, want %d %s", resp.StatusCode, body, tt.status, tt.code)
			}
		})
	}
}

func TestSigV4BindsThePayloadHash(t *testing.T) {
	e := newSignedEnv(t, false)
	if err := e.store.CreateBucket("bkt"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		sent   string
		status int
		code   string
	}{
		{"the signed body", "hello", 200, ""},
		{"another body of the same length", "HELLO", 400, "XAmzContentSHA256Mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := http.NewRequest("PUT", e.srv.URL+"/bkt/k", strings.NewReader(tt.sent))
			if err != nil {
				t.Fatal(err)
			}
			signRaw(t, r, []byte("hello"), testAccessKey, testSecretKey, time.Now())
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || (tt.code != "" && !bytes.Contains(body, []byte("<Code>"+tt.code+"</Code>"))) {
				t.Errorf("got %d %s, want %d %s", resp.StatusCode, body, tt.status, tt.code)
			}
			obj, err := e.store.GetObject("bkt", "k", core.GetOptions{})
			if err != nil || string(obj.Body) != "hello" {
				t.Errorf("stored %v %v, want the signed body", obj, err)
			}
		})
	}
}

func TestSigV4GuardsTheExtensions(t *testing.T) {
	e := newSignedEnv(t, false)
	body := []byte(`{"now": 15}`)
	tests := []struct {
		name   string
		sign   bool
		status int
		want   string
	}{
		{"unsigned", false, 403, "AccessDenied"},
		{"signed", true, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := http.NewRequest("PUT", e.srv.URL+"/_minis3/clock", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.sign {
				signRaw(t, r, body, testAccessKey, testSecretKey, time.Now())
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, data)
			}
			var out struct{ Code, Message string }
			if err := json.Unmarshal(data, &out); err != nil || out.Code != tt.want {
				t.Errorf("JSON %s (%v), want code %q", data, err, tt.want)
			}
			wantNow := 0.0
			if tt.sign {
				wantNow = 15
			}
			if e.store.Now() != wantNow {
				t.Errorf("clock %v, want %v", e.store.Now(), wantNow)
			}
		})
	}
}

// RequireSigV4Lookup accepts every key pair its lookup knows, one per
// student, and refuses another's secret (SignatureDoesNotMatch) and an
// access key it does not know (InvalidAccessKeyId), storing nothing.
func TestSigV4LookupAcceptsEachStudentsKeyPair(t *testing.T) {
	store, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	students := map[string]string{"alice": "alice-secret", "bob": "bob-secret"}
	srv := httptest.NewServer(web.RequireSigV4Lookup(web.NewHandler(store, web.Options{}), func(accessKey string) (string, bool) {
		secret, ok := students[accessKey]
		return secret, ok
	}, time.Now))
	defer srv.Close()
	for ak, secret := range students {
		c := clientWith(srv.URL, srv.Client(), ak, secret)
		if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(ak)}); err != nil {
			t.Errorf("%s's own key pair: %v", ak, err)
		}
	}
	for _, tt := range []struct{ ak, secret, code string }{
		{"alice", "bob-secret", "SignatureDoesNotMatch"},
		{"carol", "carol-secret", "InvalidAccessKeyId"},
	} {
		_, err := clientWith(srv.URL, srv.Client(), tt.ak, tt.secret).CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("other")})
		wantAPIError(t, err, tt.code, 403)
	}
	if got := len(store.ListBuckets()); got != 2 {
		t.Errorf("%d buckets, want the two students'", got)
	}
}
