package web

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"minis3/core"
	"minis3/web/sigv4"
)

// The streaming example of the S3 documentation ("Signature Calculations
// for the Authorization Header: Transferring Payload in Multiple Chunks"):
// 66560 bytes of 'a' in chunks of 65536 and 1024 bytes.
const (
	exampleAccessKey = "AKIAIOSFODNN7EXAMPLE"
	exampleSecretKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	exampleSeed      = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"
	exampleChunk1    = "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648"
	exampleChunk2    = "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497"
	exampleFinal     = "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9"
)

var exampleTime = time.Date(2013, 5, 24, 0, 0, 0, 0, time.UTC)

func exampleChunkedBody(sig1, sig2, final string, data2 []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "10000;chunk-signature=%s\r\n%s\r\n", sig1, bytes.Repeat([]byte("a"), 65536))
	fmt.Fprintf(&b, "400;chunk-signature=%s\r\n%s\r\n", sig2, data2)
	fmt.Fprintf(&b, "0;chunk-signature=%s\r\n\r\n", final)
	return b.Bytes()
}

// exampleRequest is the example's request with body as its payload.
func exampleRequest(body []byte, seed string) *http.Request {
	r := httptest.NewRequest("PUT", "http://s3.amazonaws.com/examplebucket/chunkObject.txt", bytes.NewReader(body))
	r.Header.Set("Content-Encoding", "aws-chunked")
	r.Header.Set("Content-Length", "66824")
	r.Header.Set("X-Amz-Content-Sha256", sigv4.StreamingSigned)
	r.Header.Set("X-Amz-Date", "20130524T000000Z")
	r.Header.Set("X-Amz-Decoded-Content-Length", "66560")
	r.Header.Set("X-Amz-Storage-Class", "REDUCED_REDUNDANCY")
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+exampleAccessKey+"/20130524/us-east-1/s3/aws4_request,"+
		"SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class,"+
		"Signature="+seed)
	return r
}

// sink is a handler that records the body it was given.
type sink struct {
	body   []byte
	called bool
}

func (s *sink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.called = true
	s.body, _ = io.ReadAll(r.Body)
	w.WriteHeader(http.StatusOK)
}

// serveSigned runs r through RequireSigV4 with creds at the time now and
// returns the response and what the inner handler got.
func serveSigned(r *http.Request, creds Credentials, now time.Time) (*httptest.ResponseRecorder, *sink) {
	next := &sink{}
	w := httptest.NewRecorder()
	RequireSigV4(next, creds, func() time.Time { return now }).ServeHTTP(w, r)
	return w, next
}

// errorCode is the Code of an XML error body, or the body itself.
func errorCode(t *testing.T, body []byte) (string, oldAuthError) {
	t.Helper()
	var e oldAuthError
	if err := xml.Unmarshal(body, &e); err != nil {
		return string(body), e
	}
	return string(e.Code), e
}

func TestSigV4VerifiesAWSChunkedUploadExample(t *testing.T) {
	creds := Credentials{AccessKey: exampleAccessKey, SecretKey: exampleSecretKey}
	a1024 := bytes.Repeat([]byte("a"), 1024)
	b1024 := append(bytes.Repeat([]byte("a"), 1023), 'b')
	good := exampleChunkedBody(exampleChunk1, exampleChunk2, exampleFinal, a1024)
	if len(good) != 66824 {
		t.Fatalf("the example body is %d bytes, the example says 66824", len(good))
	}
	tests := []struct {
		name    string
		body    []byte
		seed    string
		status  int
		code    string
		message string
	}{
		{"the example as published", good, exampleSeed, 200, "", ""},
		{"a wrong seed signature", good, exampleChunk1, 403, "SignatureDoesNotMatch", "calculated does not match"},
		{"data changed in the second chunk", exampleChunkedBody(exampleChunk1, exampleChunk2, exampleFinal, b1024), exampleSeed, 403, "SignatureDoesNotMatch", "chunk 2 signature"},
		{"the chunk signatures swapped", exampleChunkedBody(exampleChunk2, exampleChunk1, exampleFinal, a1024), exampleSeed, 403, "SignatureDoesNotMatch", "chunk 1 signature"},
		{"a wrong final signature", exampleChunkedBody(exampleChunk1, exampleChunk2, exampleChunk1, a1024), exampleSeed, 403, "SignatureDoesNotMatch", "chunk 3 signature"},
		{"a chunk without a signature", bytes.Replace(good, []byte("400;chunk-signature="+exampleChunk2), []byte("400"), 1), exampleSeed, 400, "InvalidRequest", "chunk 2 header"},
		{"a chunk shorter than its size", good[:66000], exampleSeed, 400, "InvalidRequest", "shorter than its size"},
		{"a chunk longer than its size", bytes.Replace(good, []byte("\r\n400;"), []byte("x\r\n400;"), 1), exampleSeed, 400, "InvalidRequest", "longer than its size"},
		{"a body cut in a chunk header", good[:20], exampleSeed, 400, "InvalidRequest", "no header line"},
		{"data after the final chunk", append(bytes.Clone(good), "more"...), exampleSeed, 400, "InvalidRequest", "after the final chunk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, next := serveSigned(exampleRequest(tt.body, tt.seed), creds, exampleTime)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if tt.status == 200 {
				if !next.called || !bytes.Equal(next.body, tt.body) {
					t.Errorf("the handler got %d bytes, want the %d verified ones", len(next.body), len(tt.body))
				}
				return
			}
			if next.called {
				t.Error("the handler was called for a refused request")
			}
			code, e := errorCode(t, w.Body.Bytes())
			if code != tt.code || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got %s %q, want %s containing %q", code, e.Message, tt.code, tt.message)
			}
			if code == "SignatureDoesNotMatch" && (e.AWSAccessKeyID != exampleAccessKey || e.StringToSign == "" || e.SignatureProvided == "") {
				t.Errorf("the error lacks the details S3 gives: %+v", e)
			}
		})
	}
}

// failingReader fails every read.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func TestSigV4SignedChunkedBodyLimits(t *testing.T) {
	creds := Credentials{AccessKey: exampleAccessKey, SecretKey: exampleSecretKey}
	t.Run("an unreadable body", func(t *testing.T) {
		r := exampleRequest(nil, exampleSeed)
		r.Body = io.NopCloser(failingReader{})
		w, next := serveSigned(r, creds, exampleTime)
		if code, e := errorCode(t, w.Body.Bytes()); w.Code != 400 || code != string(codeIncompleteBody) || !strings.Contains(e.Message, "connection reset") || next.called {
			t.Errorf("got %d %s %q", w.Code, code, e.Message)
		}
	})
	t.Run("no body at all", func(t *testing.T) {
		r := exampleRequest(nil, exampleSeed)
		r.Body = nil
		w, next := serveSigned(r, creds, exampleTime)
		if code, e := errorCode(t, w.Body.Bytes()); w.Code != 400 || code != "InvalidRequest" || !strings.Contains(e.Message, "no header line") || next.called {
			t.Errorf("got %d %s %q", w.Code, code, e.Message)
		}
	})
	t.Run("a body over the limit", func(t *testing.T) {
		saved := maxStreamingBody
		maxStreamingBody = 1000
		defer func() { maxStreamingBody = saved }()
		w, next := serveSigned(exampleRequest(exampleChunkedBody(exampleChunk1, exampleChunk2, exampleFinal, bytes.Repeat([]byte("a"), 1024)), exampleSeed), creds, exampleTime)
		if code, _ := errorCode(t, w.Body.Bytes()); w.Code != 400 || code != string(codeMaxMessageLengthExceeded) || next.called {
			t.Errorf("got %d %s", w.Code, code)
		}
	})
}

func TestSigV4ErrorStatuses(t *testing.T) {
	for code, want := range map[core.Code]int{
		core.AccessDenied: 403, core.InvalidAccessKeyId: 403, core.SignatureDoesNotMatch: 403, core.RequestTimeTooSkewed: 403,
		core.AuthorizationHeaderMalformed: 400, core.AuthorizationQueryParametersError: 400,
	} {
		if got := httpStatus(code); got != want {
			t.Errorf("%s: status %d, want %d", code, got, want)
		}
	}
}
