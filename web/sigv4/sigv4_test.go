package sigv4

import (
	"bytes"
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

// signedRequest is a PUT of body signed with secret for the access key
// ak at now, header by header, with the payload hash payload.
func signedRequest(body []byte, ak, secret, payload string, now time.Time, headers map[string]string) (*http.Request, *Signature) {
	r := httptest.NewRequest("PUT", "http://minis3/b/k", bytes.NewReader(body))
	r.Header.Set("X-Amz-Content-Sha256", payload)
	r.Header.Set("X-Amz-Date", now.Format(amzDateFormat))
	signed := []string{"host", "x-amz-content-sha256", "x-amz-date"}
	for name, value := range headers {
		r.Header.Set(name, value)
		signed = append(signed, name)
	}
	sig := &Signature{amzDate: now.Format(amzDateFormat), date: now.Format("20060102"), region: "us-east-1", service: "s3",
		accessKey: ak, signedHeaders: sortedStrings(signed), payloadHash: payload}
	sig.key = signingKey(secret, sig.date, sig.region, sig.service)
	sig.signature = hmacHex(sig.key, stringToSign(sig.amzDate, sig.scope(), canonicalRequest(r, sig.signedHeaders, payload, false)))
	r.Header.Set("Authorization", fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/%s,SignedHeaders=%s,Signature=%s",
		ak, sig.scope(), strings.Join(sig.signedHeaders, ";"), sig.signature))
	return r, sig
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// signedBody builds a signed aws-chunked body of the chunks, chained from
// sig's seed, with the trailers and their signature when there are any.
func signedBody(sig *Signature, seed string, chunks []string, trailers [][2]string) []byte {
	var b bytes.Buffer
	prev := seed
	for _, c := range append(chunks, "") {
		s := hmacHex(sig.key, "AWS4-HMAC-SHA256-PAYLOAD\n"+sig.amzDate+"\n"+sig.scope()+"\n"+prev+"\n"+emptySHA256+"\n"+sha256Hex([]byte(c)))
		fmt.Fprintf(&b, "%x;chunk-signature=%s\r\n%s", len(c), s, c)
		if c != "" {
			b.WriteString("\r\n")
		}
		prev = s
	}
	if trailers == nil {
		b.WriteString("\r\n")
		return b.Bytes()
	}
	var canonical strings.Builder
	for _, tr := range trailers {
		fmt.Fprintf(&b, "%s:%s\r\n", tr[0], tr[1])
		canonical.WriteString(tr[0] + ":" + tr[1] + "\n")
	}
	s := hmacHex(sig.key, "AWS4-HMAC-SHA256-TRAILER\n"+sig.amzDate+"\n"+sig.scope()+"\n"+prev+"\n"+sha256Hex([]byte(canonical.String())))
	fmt.Fprintf(&b, "x-amz-trailer-signature:%s\r\n\r\n", s)
	return b.Bytes()
}

var testTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func verifier(keys Keys) *Verifier {
	return &Verifier{Keys: keys, Region: "us-east-1", Now: func() time.Time { return testTime }}
}

// readChunks reads body as ChunkReader reads a signed body of r: the data,
// the trailers, and the first error.
func readChunks(t *testing.T, v *Verifier, r *http.Request, body []byte) ([]byte, http.Header, error) {
	t.Helper()
	sig, err := v.Verify(r)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	cr := NewChunkReader(bytes.NewReader(body), sig)
	data, rerr := io.ReadAll(cr)
	return data, cr.Trailers, rerr
}

// wantRefusal fails unless err is code with a message containing message.
func wantRefusal(t *testing.T, err error, code core.Code, message string) {
	t.Helper()
	var e *Error
	var fe *FramingError
	switch {
	case code == core.InvalidRequest && errors.As(err, &fe) && strings.Contains(fe.Error(), message):
	case code != core.InvalidRequest && errors.As(err, &e) && e.Code == code && strings.Contains(e.Message, message):
	default:
		t.Errorf("got %v, want %s containing %q", err, code, message)
	}
}

// The chunks and the trailers of a STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER
// body are each verified, chained from the request's signature.
func TestChunkReaderVerifiesSignedTrailers(t *testing.T) {
	v := verifier(OneKey("AK", "SK"))
	headers := map[string]string{"content-encoding": "aws-chunked", "x-amz-decoded-content-length": "11", "x-amz-trailer": "x-amz-checksum-crc32"}
	r, sig := signedRequest(nil, "AK", "SK", StreamingSignedTrailer, testTime, headers)
	crc := [][2]string{{"x-amz-checksum-crc32", "DUoRhQ=="}}
	good := signedBody(sig, sig.signature, []string{"hello ", "world"}, crc)
	data, trailers, err := readChunks(t, v, r, good)
	if err != nil || string(data) != "hello world" || trailers.Get("X-Amz-Checksum-Crc32") != "DUoRhQ==" {
		t.Fatalf("the signed body reads as %q, trailers %v, %v", data, trailers, err)
	}
	tests := []struct {
		name    string
		body    []byte
		code    core.Code
		message string
	}{
		{"a changed trailer value", bytes.Replace(good, []byte(crc[0][1]), []byte("AAAAAA=="), 1), core.SignatureDoesNotMatch, "trailer signature"},
		{"a changed chunk", bytes.Replace(good, []byte("world"), []byte("there"), 1), core.SignatureDoesNotMatch, "chunk 2 signature"},
		{"a body signed from another seed", signedBody(sig, strings.Repeat("0", 64), []string{"hello ", "world"}, crc), core.SignatureDoesNotMatch, "chunk 1 signature"},
		{"no trailer signature", bytes.Split(good, []byte("x-amz-trailer-signature"))[0], core.InvalidRequest, "not ended by x-amz-trailer-signature"},
		{"a trailer that is not name:value", bytes.Replace(good, []byte("x-amz-checksum-crc32:"), []byte("x-amz-checksum-crc32="), 1), core.InvalidRequest, "bad trailer"},
		{"data after the trailer signature", append(bytes.Clone(good), "x"...), core.InvalidRequest, "after the trailer signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readChunks(t, v, r, tt.body)
			wantRefusal(t, err, tt.code, tt.message)
		})
	}
}

// A signed body without trailers ends after its final chunk, and each of
// its chunks needs its signature.
func TestChunkReaderVerifiesSignedChunks(t *testing.T) {
	v := verifier(OneKey("AK", "SK"))
	r, sig := signedRequest(nil, "AK", "SK", StreamingSigned, testTime, map[string]string{"content-encoding": "aws-chunked"})
	good := signedBody(sig, sig.signature, []string{"abc", "de"}, nil)
	if data, _, err := readChunks(t, v, r, good); err != nil || string(data) != "abcde" {
		t.Fatalf("the signed body reads as %q, %v", data, err)
	}
	tests := []struct {
		name    string
		body    []byte
		code    core.Code
		message string
	}{
		{"a chunk without a signature", bytes.Replace(good, []byte("2;chunk-signature="), []byte("2;x="), 1), core.InvalidRequest, "chunk 2 header"},
		{"a chunk shorter than its size", good[:86], core.InvalidRequest, "chunk 1 is shorter than its size 3"},
		{"a chunk longer than its size", bytes.Replace(good, []byte("abc"), []byte("abcd"), 1), core.InvalidRequest, "chunk 1 is longer than its size 3"},
		{"a body cut in a chunk header", good[:20], core.InvalidRequest, "chunk 1 has no header line"},
		{"no body", nil, core.InvalidRequest, "chunk 1 has no header line"},
		{"no final chunk", good[:bytes.LastIndex(good, []byte("0;chunk"))], core.InvalidRequest, "chunk 3 has no header line"},
		{"data after the final chunk", append(bytes.Clone(good), "more"...), core.InvalidRequest, "after the final chunk"},
		{"a trailer after the final chunk", append(bytes.Clone(good[:len(good)-2]), "a:b\r\n\r\n"...), core.InvalidRequest, "after the final chunk"},
		{"a wrong final signature", append(bytes.Clone(good[:bytes.LastIndex(good, []byte("0;chunk"))]), "0;chunk-signature=00\r\n\r\n"...), core.SignatureDoesNotMatch, "chunk 3 signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readChunks(t, v, r, tt.body)
			wantRefusal(t, err, tt.code, tt.message)
		})
	}
}

// An unsigned body's chunk signatures are not read; it may end after any
// chunk, and its trailers are kept.
func TestChunkReaderReadsUnsignedBodies(t *testing.T) {
	tests := []struct {
		name, body, data string
		trailers         http.Header
		err              string
	}{
		{"chunks and a trailer", "3\r\nabc\r\n2\r\nde\r\n0\r\nx-amz-checksum-crc32: AAAA \r\n\r\n", "abcde", http.Header{"X-Amz-Checksum-Crc32": {"AAAA"}}, ""},
		{"signatures unread", "3;chunk-signature=bad\r\nabc\r\n0;chunk-signature=bad\r\n\r\n", "abc", http.Header{}, ""},
		{"no final chunk", "3\r\nabc\r\n", "abc", http.Header{}, ""},
		{"no trailers' end", "3\r\nabc\r\n0\r\n", "abc", http.Header{}, ""},
		{"a size that is not hex", "x\r\nabc\r\n", "", nil, `chunk 1 header "x" has no size`},
		{"a chunk longer than its size", "2\r\nabc\r\n0\r\n\r\n", "ab", nil, "chunk 1 is longer than its size 2"},
		{"a chunk shorter than its size", "5\r\nabc", "abc", nil, "chunk 1 is shorter than its size 5"},
		{"a bad trailer", "0\r\nnocolon\r\n\r\n", "", nil, `bad trailer "nocolon"`},
		{"a line without CR", "3\nabc\r\n", "", nil, "line not ended by CRLF"},
		{"a line too long", strings.Repeat("0", maxChunkLine+1) + "\r\n", "", nil, "line longer than 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cr := NewChunkReader(strings.NewReader(tt.body), nil)
			data, err := io.ReadAll(cr)
			if string(data) != tt.data {
				t.Errorf("read %q, want %q", data, tt.data)
			}
			if tt.err == "" {
				if err != nil || fmt.Sprint(cr.Trailers) != fmt.Sprint(tt.trailers) {
					t.Errorf("trailers %v, %v; want %v", cr.Trailers, err, tt.trailers)
				}
				return
			}
			var fe *FramingError
			if !errors.As(err, &fe) || fe.Error() != tt.err {
				t.Errorf("error %v, want the framing error %q", err, tt.err)
			}
		})
	}
	_, err := io.ReadAll(NewChunkReader(strings.NewReader("5\r\nabc"), nil))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a body cut in a chunk's data: %v, want io.ErrUnexpectedEOF wrapped", err)
	}
}

// Keys finds each access key's secret: a request signed with one student's
// pair verifies, one signed with another's secret or an unknown access key
// does not.
func TestVerifierLooksUpEachAccessKey(t *testing.T) {
	students := map[string]string{"alice": "alice-secret", "bob": "bob-secret"}
	v := verifier(func(k string) (string, bool) { s, ok := students[k]; return s, ok })
	for ak, secret := range students {
		r, _ := signedRequest(nil, ak, secret, UnsignedPayload, testTime, nil)
		if _, err := v.Verify(r); err != nil {
			t.Errorf("%s's request: %v", ak, err)
		}
	}
	r, _ := signedRequest(nil, "alice", "bob-secret", UnsignedPayload, testTime, nil)
	_, err := v.Verify(r)
	wantRefusal(t, err, core.SignatureDoesNotMatch, "")
	r, _ = signedRequest(nil, "carol", "carol-secret", UnsignedPayload, testTime, nil)
	_, err = v.Verify(r)
	wantRefusal(t, err, core.InvalidAccessKeyId, "")
	if err != nil && err.AWSAccessKeyID != "carol" {
		t.Errorf("InvalidAccessKeyId names %q, want carol", err.AWSAccessKeyID)
	}
}

func TestOneKeyKnowsOneKey(t *testing.T) {
	keys := OneKey("AK", "SK")
	if secret, ok := keys("AK"); !ok || secret != "SK" {
		t.Errorf("OneKey(AK, SK)(AK) = %q, %v", secret, ok)
	}
	if _, ok := keys("ak"); ok {
		t.Error("OneKey(AK, SK) knows ak")
	}
}
