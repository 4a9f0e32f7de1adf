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
)

// TestSigV4SignsAWSGetVanillaExample checks the signature computation
// against the "get-vanilla" example of AWS's SigV4 test suite.
func TestSigV4SignsAWSGetVanillaExample(t *testing.T) {
	r := httptest.NewRequest("GET", "http://example.amazonaws.com/", nil)
	r.Header.Set("X-Amz-Date", "20150830T123600Z")
	canonical := canonicalRequest(r, []string{"host", "x-amz-date"}, emptySHA256, false)
	wantCanonical := "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	if canonical != wantCanonical {
		t.Errorf("canonical request\n%s\nwant\n%s", canonical, wantCanonical)
	}
	toSign := stringToSign("20150830T123600Z", "20150830/us-east-1/service/aws4_request", canonical)
	wantToSign := "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n" +
		"bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"
	if toSign != wantToSign {
		t.Errorf("string to sign\n%s\nwant\n%s", toSign, wantToSign)
	}
	key := signingKey("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20150830", "us-east-1", "service")
	if got, want := hmacHex(key, toSign), "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"; got != want {
		t.Errorf("signature %s, want %s", got, want)
	}
}

func TestSigV4CanonicalURIAndQuery(t *testing.T) {
	uris := []struct{ escaped, want string }{
		{"", "/"},
		{"/", "/"},
		{"/bucket/a%20b", "/bucket/a%20b"},
		{"/bucket/a+b", "/bucket/a%2Bb"},
		{"/bucket/%c3%a9t%C3%A9", "/bucket/%C3%A9t%C3%A9"},
		{"/bucket/dir%2Fkey", "/bucket/dir%2Fkey"},
		{"/bucket/~-._*", "/bucket/~-._%2A"},
		{"/bucket/100%", "/bucket/100%25"},
	}
	for _, tt := range uris {
		if got := canonicalURI(tt.escaped); got != tt.want {
			t.Errorf("canonicalURI(%q) = %q, want %q", tt.escaped, got, tt.want)
		}
	}
	queries := []struct {
		raw       string
		presigned bool
		want      string
	}{
		{"", false, ""},
		{"versions", false, "versions="},
		{"prefix=a b&delimiter=/&versions", false, "delimiter=%2F&prefix=a%20b&versions="},
		{"prefix=a+b", false, "prefix=a%20b"},
		{"prefix=a%2Bb", false, "prefix=a%2Bb"},
		{"b=2&a=2&a=1", false, "a=1&a=2&b=2"},
		{"X-Amz-Signature=abc&X-Amz-Date=1", true, "X-Amz-Date=1"},
		{"X-Amz-Signature=abc", false, "X-Amz-Signature=abc"},
		{"bad=%zz", false, "bad=%25zz"},
	}
	for _, tt := range queries {
		if got := canonicalQuery(tt.raw, tt.presigned); got != tt.want {
			t.Errorf("canonicalQuery(%q, %v) = %q, want %q", tt.raw, tt.presigned, got, tt.want)
		}
	}
}

func TestSigV4CanonicalHeaderValues(t *testing.T) {
	r := httptest.NewRequest("PUT", "http://h.example:9000/b/k", strings.NewReader("abc"))
	r.Header.Add("X-Amz-Meta-A", "  one   two ")
	r.Header.Add("X-Amz-Meta-A", "three")
	r.TransferEncoding = []string{"chunked"}
	r.Header.Del("Content-Length")
	tests := map[string]string{
		"host":              "h.example:9000",
		"x-amz-meta-a":      "one two,three",
		"content-length":    "3",
		"transfer-encoding": "chunked",
		"x-amz-absent":      "",
	}
	for name, want := range tests {
		if got := headerValue(r, name); got != want {
			t.Errorf("headerValue(%s) = %q, want %q", name, got, want)
		}
	}
}

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
	r.Header.Set("X-Amz-Content-Sha256", streamingSigned)
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

// signedTrailerBody builds a STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER
// body of the chunks and trailers, chained from seed.
func signedTrailerBody(key []byte, sr *sigRequest, seed string, chunks []string, trailers [][2]string) []byte {
	var b bytes.Buffer
	prev := seed
	for _, c := range append(chunks, "") {
		sig := hmacHex(key, "AWS4-HMAC-SHA256-PAYLOAD\n"+sr.amzDate+"\n"+sr.scope()+"\n"+prev+"\n"+emptySHA256+"\n"+sha256Hex([]byte(c)))
		fmt.Fprintf(&b, "%x;chunk-signature=%s\r\n%s", len(c), sig, c)
		if c != "" {
			b.WriteString("\r\n")
		}
		prev = sig
	}
	var canonical strings.Builder
	for _, tr := range trailers {
		fmt.Fprintf(&b, "%s:%s\r\n", tr[0], tr[1])
		canonical.WriteString(tr[0] + ":" + tr[1] + "\n")
	}
	sig := hmacHex(key, "AWS4-HMAC-SHA256-TRAILER\n"+sr.amzDate+"\n"+sr.scope()+"\n"+prev+"\n"+sha256Hex([]byte(canonical.String())))
	fmt.Fprintf(&b, "x-amz-trailer-signature:%s\r\n\r\n", sig)
	return b.Bytes()
}

func TestSigV4VerifiesSignedTrailers(t *testing.T) {
	creds := Credentials{AccessKey: "AK", SecretKey: "SK"}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sr := &sigRequest{amzDate: now.Format(amzDateFormat), date: now.Format("20060102"), region: "us-east-1", service: "s3"}
	key := signingKey(creds.SecretKey, sr.date, sr.region, sr.service)
	request := func(body []byte) *http.Request {
		r := httptest.NewRequest("PUT", "http://minis3/b/k", bytes.NewReader(body))
		r.Header.Set("Content-Encoding", "aws-chunked")
		r.Header.Set("X-Amz-Content-Sha256", streamingSignedTrailer)
		r.Header.Set("X-Amz-Date", sr.amzDate)
		r.Header.Set("X-Amz-Decoded-Content-Length", "11")
		r.Header.Set("X-Amz-Trailer", "x-amz-checksum-crc32")
		signed := []string{"content-encoding", "host", "x-amz-content-sha256", "x-amz-date", "x-amz-decoded-content-length", "x-amz-trailer"}
		seed := hmacHex(key, stringToSign(sr.amzDate, sr.scope(), canonicalRequest(r, signed, streamingSignedTrailer, false)))
		r.Header.Set("Authorization", fmt.Sprintf("AWS4-HMAC-SHA256 Credential=AK/%s,SignedHeaders=%s,Signature=%s", sr.scope(), strings.Join(signed, ";"), seed))
		return r
	}
	seedOf := func(r *http.Request) string {
		_, sig, _ := strings.Cut(r.Header.Get("Authorization"), "Signature=")
		return sig
	}
	crc := [][2]string{{"x-amz-checksum-crc32", crc32Base64([]byte("hello world"))}}
	probe := request(nil)
	good := signedTrailerBody(key, sr, seedOf(probe), []string{"hello ", "world"}, crc)
	tests := []struct {
		name    string
		body    []byte
		status  int
		code    string
		message string
	}{
		{"chunks and trailer signed", good, 200, "", ""},
		{"a changed trailer value", bytes.Replace(good, []byte(crc[0][1]), []byte("AAAAAA=="), 1), 403, "SignatureDoesNotMatch", "trailer signature"},
		{"a changed chunk", bytes.Replace(good, []byte("world"), []byte("there"), 1), 403, "SignatureDoesNotMatch", "chunk 2 signature"},
		{"a body signed from another seed", signedTrailerBody(key, sr, exampleSeed, []string{"hello ", "world"}, crc), 403, "SignatureDoesNotMatch", "chunk 1 signature"},
		{"no trailer signature", bytes.Split(good, []byte("x-amz-trailer-signature"))[0], 400, "InvalidRequest", "not ended by x-amz-trailer-signature"},
		{"a trailer that is not name:value", bytes.Replace(good, []byte("x-amz-checksum-crc32:"), []byte("x-amz-checksum-crc32="), 1), 400, "InvalidRequest", "bad trailer"},
		{"data after the trailer signature", append(bytes.Clone(good), "x"...), 400, "InvalidRequest", "after the trailer signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, next := serveSigned(request(tt.body), creds, now)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if tt.status == 200 {
				if !bytes.Equal(next.body, tt.body) {
					t.Errorf("the handler got %q", next.body)
				}
				return
			}
			if code, e := errorCode(t, w.Body.Bytes()); code != tt.code || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got %s %q, want %s containing %q", code, e.Message, tt.code, tt.message)
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
