package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"minis3/core"
	"minis3/web"
)

// limitServer serves a store prepared by newFuzzStore (object limit
// fuzzMaxObjectSize) over plain HTTP, so that bodies travel with a
// Content-Length or chunked, as a client sends them.
func limitServer(t *testing.T) (*core.Store, *httptest.Server) {
	t.Helper()
	store, h := newFuzzStore(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return store, srv
}

// Framings of a request body in sendFramed.
const (
	framedWithLength = "Content-Length"
	framedUnknown    = "unknown length"
	framedAWSChunked = "aws-chunked"
)

// sendFramed sends body to the server: with a Content-Length, chunked with
// no length, or in aws-chunked framing (unsigned chunks of at most 1000
// bytes, x-amz-decoded-content-length set). It returns the status and the
// response body.
func sendFramed(t *testing.T, srv *httptest.Server, method, target string, body []byte, framing string) (int, []byte) {
	t.Helper()
	var rd io.Reader = bytes.NewReader(body)
	switch framing {
	case framedUnknown:
		rd = io.MultiReader(rd) // hides the length: the client sends chunked
	case framedAWSChunked:
		rd = bytes.NewReader(awsChunked(body))
	}
	req, err := http.NewRequest(method, srv.URL+target, rd)
	if err != nil {
		t.Fatal(err)
	}
	if framing == framedAWSChunked {
		req.Header.Set("Content-Encoding", "aws-chunked")
		req.Header.Set("x-amz-content-sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER")
		req.Header.Set("x-amz-decoded-content-length", strconv.Itoa(len(body)))
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
	if framing == framedUnknown && req.ContentLength != 0 {
		t.Fatalf("the request had a length (%d); want none", req.ContentLength)
	}
	return resp.StatusCode, data
}

// awsChunked frames body as unsigned aws-chunked chunks of 1000 bytes.
func awsChunked(body []byte) []byte {
	var b bytes.Buffer
	for len(body) > 0 {
		n := min(len(body), 1000)
		fmt.Fprintf(&b, "%x\r\n%s\r\n", n, body[:n])
		body = body[n:]
	}
	b.WriteString("0\r\n\r\n")
	return b.Bytes()
}

// s3ErrorDoc is the part of S3's error document the limit tests read.
type s3ErrorDoc struct {
	Code           string
	ProposedSize   string
	MaxSizeAllowed string
}

// parseS3Error reads an S3 error document.
func parseS3Error(t *testing.T, data []byte) s3ErrorDoc {
	t.Helper()
	var e s3ErrorDoc
	if err := xml.Unmarshal(data, &e); err != nil {
		t.Fatalf("not an error document (%v): %s", err, data)
	}
	return e
}

// TestObjectBodiesOverTheLimitAreEntityTooLarge sends PutObject and
// UploadPart bodies one byte over Options.MaxObjectSize, with each framing:
// EntityTooLarge with the limit in MaxSizeAllowed, and nothing stored. A
// body of exactly the limit is stored.
func TestObjectBodiesOverTheLimitAreEntityTooLarge(t *testing.T) {
	targets := map[string]string{
		"PutObject":  "/demo/big",
		"UploadPart": "/demo/mp?partNumber=3&uploadId=" + fuzzUploadID,
	}
	for op, target := range targets {
		for _, framing := range []string{framedWithLength, framedUnknown, framedAWSChunked} {
			t.Run(op+" with "+framing, func(t *testing.T) {
				store, srv := limitServer(t)
				before := storeState(t, store)
				status, data := sendFramed(t, srv, "PUT", target, bytes.Repeat([]byte("x"), fuzzMaxObjectSize+1), framing)
				e := parseS3Error(t, data)
				if status != 400 || e.Code != "EntityTooLarge" || e.MaxSizeAllowed != strconv.Itoa(fuzzMaxObjectSize) ||
					e.ProposedSize != strconv.Itoa(fuzzMaxObjectSize+1) {
					t.Errorf("got %d %s, want 400 EntityTooLarge with ProposedSize %d, MaxSizeAllowed %d", status, data, fuzzMaxObjectSize+1, fuzzMaxObjectSize)
				}
				if after := storeState(t, store); after != before {
					t.Errorf("the refused body changed the store:\n%s\nwant:\n%s", after, before)
				}
				if status, data := sendFramed(t, srv, "PUT", target, bytes.Repeat([]byte("x"), fuzzMaxObjectSize), framing); status != 200 {
					t.Errorf("a body of exactly the limit: %d %s, want 200", status, data)
				}
			})
		}
	}
}

// countingReader is a request body that counts what was read of it.
type countingReader struct {
	src io.Reader
	n   int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.src.Read(p)
	c.n += int64(n)
	return n, err
}

// zeros reads as zero bytes without end.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestOversizedBodiesAreNotReadToTheEnd sends bodies of a gigabyte and more
// straight to the handler: each is refused after reading little more than
// the limit, never to its end (a client could otherwise keep the server
// reading, or fill its memory).
func TestOversizedBodiesAreNotReadToTheEnd(t *testing.T) {
	const huge = 1 << 30
	chunkedHeader := map[string]string{
		"Content-Encoding":             "aws-chunked",
		"x-amz-content-sha256":         "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
		"x-amz-decoded-content-length": "5",
	}
	tests := []struct {
		name, method, target string
		header               map[string]string
		prefix               string // sent before the zeros
		limit                int64
		code                 string
	}{
		{"an object of unknown length", "PUT", "/demo/big", nil, "", fuzzMaxObjectSize, "EntityTooLarge"},
		{"a part of unknown length", "PUT", "/demo/mp?partNumber=3&uploadId=" + fuzzUploadID, nil, "", fuzzMaxObjectSize, "EntityTooLarge"},
		{"an aws-chunked body longer than its decoded length", "PUT", "/demo/big", chunkedHeader, "fffffffffff\r\n", fuzzMaxObjectSize, "IncompleteBody"},
		{"a DeleteObjects document", "POST", "/demo?delete", nil, "<Delete>", web.MaxXMLBodySize, "MaxMessageLengthExceeded"},
		{"a lifecycle configuration", "PUT", "/demo?lifecycle", nil, "<LifecycleConfiguration>", web.MaxXMLBodySize, "MaxMessageLengthExceeded"},
		{"an extension's JSON", "POST", "/_minis3/buckets/demo/lifecycle-tick", nil, `{"rules": [`, web.MaxXMLBodySize, "MaxMessageLengthExceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, h := newFuzzStore(t)
			before := storeState(t, store)
			body := &countingReader{src: io.LimitReader(io.MultiReader(strings.NewReader(tt.prefix), zeros{}), huge)}
			req := httptest.NewRequest(tt.method, tt.target, body)
			req.ContentLength = -1
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			var got struct{ Code string }
			if strings.HasPrefix(tt.target, "/_minis3/") {
				_ = json.Unmarshal(w.Body.Bytes(), &got)
			} else {
				_ = xml.Unmarshal(w.Body.Bytes(), &got)
			}
			if w.Code != 400 || got.Code != tt.code {
				t.Errorf("got %d %s, want 400 %s", w.Code, w.Body, tt.code)
			}
			if slack := int64(64 << 10); body.n > tt.limit+slack {
				t.Errorf("the handler read %d bytes of the body; want at most the limit %d and %d more", body.n, tt.limit, slack)
			}
			if after := storeState(t, store); after != before {
				t.Errorf("the refused body changed the store:\n%s\nwant:\n%s", after, before)
			}
		})
	}
}

// TestDocumentsOverTheLimitAreRefused sends each XML and JSON request
// document one byte over web.MaxXMLBodySize (well-formed, padded with
// spaces), with and without a length: 400 MaxMessageLengthExceeded, and
// the store is as it was.
func TestDocumentsOverTheLimitAreRefused(t *testing.T) {
	pad := func(open, close string) []byte {
		return []byte(open + strings.Repeat(" ", web.MaxXMLBodySize+1-len(open)-len(close)) + close)
	}
	tests := []struct {
		name, method, target string
		body                 []byte
	}{
		{"PutBucketVersioning", "PUT", "/plain?versioning",
			pad("<VersioningConfiguration><Status>Enabled</Status>", "</VersioningConfiguration>")},
		{"PutBucketLifecycleConfiguration", "PUT", "/demo?lifecycle",
			pad("<LifecycleConfiguration><Rule><Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>", "</LifecycleConfiguration>")},
		{"DeleteObjects", "POST", "/demo?delete", pad("<Delete><Object><Key>k</Key></Object>", "</Delete>")},
		{"CompleteMultipartUpload", "POST", "/demo/mp?uploadId=" + fuzzUploadID,
			pad("<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"+md5hex([]byte("part-one"))+"</ETag></Part>", "</CompleteMultipartUpload>")},
		{"CreateBucket", "PUT", "/newbucket", pad("<CreateBucketConfiguration>", "</CreateBucketConfiguration>")},
		{"PUT /_minis3/clock", "PUT", "/_minis3/clock", pad(`{"now": 15`, "}")},
		{"POST lifecycle-tick", "POST", "/_minis3/buckets/demo/lifecycle-tick", pad(`{"rules": [{"id": "r", "expireCurrentAfter": 0}]`, "}")},
		{"POST lifecycle-preview", "POST", "/_minis3/buckets/demo/lifecycle-preview", pad(`{"rules": [{"id": "r", "expireCurrentAfter": 0}]`, "}")},
	}
	store, srv := limitServer(t)
	for _, tt := range tests {
		if len(tt.body) != web.MaxXMLBodySize+1 {
			t.Fatalf("%s: body of %d bytes", tt.name, len(tt.body))
		}
		for _, framing := range []string{framedWithLength, framedUnknown} {
			t.Run(tt.name+" with "+framing, func(t *testing.T) {
				before := storeState(t, store)
				status, data := sendFramed(t, srv, tt.method, tt.target, tt.body, framing)
				var got struct{ Code string }
				if strings.HasPrefix(tt.target, "/_minis3/") {
					_ = json.Unmarshal(data, &got)
				} else {
					got.Code = parseS3Error(t, data).Code
				}
				if status != 400 || got.Code != "MaxMessageLengthExceeded" {
					t.Errorf("got %d %s, want 400 MaxMessageLengthExceeded", status, data)
				}
				if after := storeState(t, store); after != before {
					t.Errorf("the refused document changed the store:\n%s\nwant:\n%s", after, before)
				}
			})
		}
	}
}

// TestLargestValidDocumentsAreAccepted sends the largest documents S3's
// count limits allow: a DeleteObjects of 1000 keys of 1024 bytes with
// version IDs, and a lifecycle configuration of 1000 rules with
// 255-character IDs and 1024-byte prefixes. Both fit web.MaxXMLBodySize
// and succeed.
func TestLargestValidDocumentsAreAccepted(t *testing.T) {
	store, srv := limitServer(t)
	t.Run("DeleteObjects of 1000 keys of 1024 bytes", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("<Delete><Quiet>false</Quiet>")
		for i := range 1000 {
			key := fmt.Sprintf("%04d", i) + strings.Repeat("k", 1020)
			fmt.Fprintf(&b, "<Object><Key>%s</Key><VersionId>v%08d</VersionId></Object>", key, i+1)
		}
		b.WriteString("</Delete>")
		status, data := sendFramed(t, srv, "POST", "/demo?delete", []byte(b.String()), framedWithLength)
		if status != 200 || strings.Count(string(data), "<Key>") != 1000 {
			t.Errorf("a %d-byte DeleteObjects: %d with %d results, want 200 with 1000:\n%.500s", b.Len(), status, strings.Count(string(data), "<Key>"), data)
		}
	})
	t.Run("lifecycle configuration of 1000 rules with long IDs and prefixes", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("<LifecycleConfiguration>")
		for i := range 1000 {
			id := fmt.Sprintf("%04d", i) + strings.Repeat("i", 251)
			prefix := fmt.Sprintf("%04d", i) + strings.Repeat("p", 1020)
			fmt.Fprintf(&b, "<Rule><ID>%s</ID><Filter><Prefix>%s</Prefix></Filter><Status>Enabled</Status>"+
				"<Expiration><Days>1</Days></Expiration><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration></Rule>", id, prefix)
		}
		b.WriteString("</LifecycleConfiguration>")
		if status, data := sendFramed(t, srv, "PUT", "/demo?lifecycle", []byte(b.String()), framedWithLength); status != 200 {
			t.Fatalf("a %d-byte configuration: %d %s, want 200", b.Len(), status, data)
		}
		cfg, err := store.BucketLifecycle("demo")
		if err != nil || len(cfg.Rules) != 1000 {
			t.Errorf("stored %d rules (%v), want 1000", len(cfg.Rules), err)
		}
	})
}

// TestCountLimitsAreS3Errors sends one item too many: DeleteObjects with
// 1001 keys is MalformedXML, as S3 answers; a lifecycle configuration with
// 1001 rules is InvalidArgument (S3's code is not documented; MinIO's).
// The store is as it was.
func TestCountLimitsAreS3Errors(t *testing.T) {
	var del, lc strings.Builder
	del.WriteString("<Delete>")
	lc.WriteString("<LifecycleConfiguration>")
	for i := range 1001 {
		fmt.Fprintf(&del, "<Object><Key>k%d</Key></Object>", i)
		fmt.Fprintf(&lc, "<Rule><ID>r%d</ID><Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>", i)
	}
	del.WriteString("</Delete>")
	lc.WriteString("</LifecycleConfiguration>")
	tests := []struct {
		name, method, target, body, code string
	}{
		{"DeleteObjects with 1001 keys", "POST", "/demo?delete", del.String(), "MalformedXML"},
		{"a lifecycle configuration with 1001 rules", "PUT", "/demo?lifecycle", lc.String(), "InvalidArgument"},
	}
	store, srv := limitServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := storeState(t, store)
			status, data := sendFramed(t, srv, tt.method, tt.target, []byte(tt.body), framedWithLength)
			if got := parseS3Error(t, data).Code; status != 400 || got != tt.code {
				t.Errorf("got %d %s, want 400 %s", status, data, tt.code)
			}
			if after := storeState(t, store); after != before {
				t.Errorf("the refused request changed the store:\n%s\nwant:\n%s", after, before)
			}
		})
	}
}

// TestBodyShorterThanContentLengthIsIncomplete sends a PUT whose body ends
// before its Content-Length: over a connection the client closes early, and
// straight to the handler. Both are IncompleteBody, and nothing is stored.
func TestBodyShorterThanContentLengthIsIncomplete(t *testing.T) {
	store, srv := limitServer(t)
	t.Run("over a connection closed early", func(t *testing.T) {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "PUT /demo/short HTTP/1.1\r\nHost: %s\r\nContent-Length: 10\r\n\r\nhello", srv.Listener.Addr())
		conn.(*net.TCPConn).CloseWrite()
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		if e := parseS3Error(t, data); resp.StatusCode != 400 || e.Code != "IncompleteBody" {
			t.Errorf("got %d %s, want 400 IncompleteBody", resp.StatusCode, e.Code)
		}
	})
	t.Run("to the handler", func(t *testing.T) {
		req := httptest.NewRequest("PUT", "/demo/short", strings.NewReader("hello"))
		req.ContentLength = 10
		w := httptest.NewRecorder()
		srv.Config.Handler.ServeHTTP(w, req)
		if e := parseS3Error(t, w.Body.Bytes()); w.Code != 400 || e.Code != "IncompleteBody" {
			t.Errorf("got %d %s, want 400 IncompleteBody", w.Code, e.Code)
		}
	})
	if _, err := store.HeadObject("demo", "short", core.GetOptions{}); !errors.Is(err, core.NoSuchKey) {
		t.Errorf("after the incomplete PUTs: %v, want NoSuchKey", err)
	}
}
