package web_test

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"minis3/core"
	"minis3/web"
)

// The fuzz targets send hostile requests to a handler over a fresh,
// prepared in-memory store (newFuzzStore) and check, for every input, what
// must hold whatever a client sends (checkAnswer): the handler returns a
// valid status, never 500, every error is S3's error document (or the
// extensions' JSON error) with a code, the store's invariants hold
// (core.Store.Check), and a refused request changes nothing (storeState
// before and after). Seeds: the f.Add calls below (realistic requests) and
// testdata/fuzz/<FuzzName>/ (one file per quirk). Run one target with
//
//	go test -run '^$' -fuzz '^FuzzS3Request$' -fuzztime 60s ./web/

// fuzzMaxObjectSize is the object and part size limit of the fuzzed
// handler: small, so that fuzzed bodies reach EntityTooLarge.
const fuzzMaxObjectSize = 4096

// fuzzUploadID is the multipart upload newFuzzStore leaves open on
// demo/mp, with parts 1 ("part-one") and 2 ("part-two").
const fuzzUploadID = "u00000001"

// newFuzzStore opens a store on a manual clock (at 100 s) with no minimum
// part size, and prepares: bucket demo (versioning enabled: k with two
// versions, a/b, a delete marker on gone, a lifecycle configuration, and
// the upload fuzzUploadID on mp with two parts), bucket plain (never
// versioned: k) and bucket susp (suspended: a null version of n). It
// returns the store and its handler.
func newFuzzStore(t *testing.T) (*core.Store, *web.Handler) {
	t.Helper()
	store, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true, MinPartSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	put := func(bucket, key, body string) {
		t.Helper()
		_, err := store.PutObject(bucket, key, []byte(body), core.PutOptions{})
		must(err)
	}
	_, err = store.SetClock(100)
	must(err)
	for _, b := range []string{"demo", "plain", "susp"} {
		must(store.CreateBucket(b))
	}
	must(store.SetBucketVersioning("demo", core.Enabled))
	must(store.SetBucketVersioning("susp", core.Suspended))
	put("demo", "k", "hello")
	put("demo", "k", "hello, again")
	put("demo", "a/b", "x")
	_, err = store.DeleteObject("demo", "gone", core.DeleteOptions{})
	must(err)
	must(store.PutBucketLifecycle("demo", core.LifecycleConfiguration{Rules: []core.LifecycleRule{
		{ID: "logs", Prefix: ptr("logs/"), Enabled: true, Expiration: &core.LifecycleExpiration{Days: ptr(30)},
			NoncurrentVersionExpiration: &core.NoncurrentVersionExpiration{NoncurrentDays: ptr(7)}},
	}}))
	u, err := store.CreateMultipartUpload("demo", "mp", core.PutOptions{})
	must(err)
	if u.UploadID != fuzzUploadID {
		t.Fatalf("upload ID %s, want %s", u.UploadID, fuzzUploadID)
	}
	_, err = store.UploadPart("demo", "mp", fuzzUploadID, 1, []byte("part-one"))
	must(err)
	_, err = store.UploadPart("demo", "mp", fuzzUploadID, 2, []byte("part-two"))
	must(err)
	put("plain", "k", "plain")
	put("susp", "n", "null version")
	must(store.Check())
	return store, web.NewHandler(store, web.Options{MaxObjectSize: fuzzMaxObjectSize})
}

// storeState describes everything a request could change: the clock, the
// buckets, every version and delete marker, the lifecycle configurations,
// the uploads in progress and their parts.
func storeState(t *testing.T, s *core.Store) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "now %v\n", s.Now())
	for _, bucket := range s.ListBuckets() {
		fmt.Fprintf(&b, "bucket %+v\n", bucket)
		versions, err := s.ListObjectVersions(bucket.Name, core.ListVersionsOptions{MaxKeys: -1})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range versions.Versions {
			fmt.Fprintf(&b, "  %q %+v\n", v.Key, v)
		}
		cfg, err := s.BucketLifecycle(bucket.Name)
		cfgJSON, jerr := json.Marshal(cfg)
		if jerr != nil {
			t.Fatal(jerr)
		}
		fmt.Fprintf(&b, "  lifecycle %s %v\n", cfgJSON, err)
		uploads, err := s.ListMultipartUploads(bucket.Name, core.ListUploadsOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range uploads.Uploads {
			parts, err := s.ListParts(bucket.Name, u.Key, u.UploadID, core.ListPartsOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "  upload %q %+v %+v\n", u.Key, u, parts.Parts)
		}
	}
	return b.String()
}

// isToken reports whether s is an HTTP token (a method or header name).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// isHeaderValue reports whether a Go HTTP server passes v on as a header
// value: no control characters but tab.
func isHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// errReader fails every read with its error.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// Body modes of fuzzRequest.
const (
	bodyWithLength = iota // Content-Length matches the body
	bodyChunked           // no length (Transfer-Encoding: chunked)
	bodyCutShort          // Content-Length one more than the body: the read fails
	bodyModes
)

// fuzzRequest builds the request a Go HTTP server hands its handler for
// this method, request target, header block ("Name: value" lines) and
// body, sent as mode (modulo bodyModes) says. It reports false for what the
// server refuses before any handler runs: a method that is not a token or
// a target it cannot parse. Header lines the server would refuse, and the
// framing headers it consumes itself, are left out.
func fuzzRequest(method, target, header string, body []byte, mode uint8) (*http.Request, bool) {
	if !isToken(method) {
		return nil, false
	}
	u, err := url.ParseRequestURI(target)
	if err != nil {
		return nil, false
	}
	r := &http.Request{Method: method, URL: u, RequestURI: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: make(http.Header), Host: "minis3.test"}
	for _, line := range strings.Split(header, "\n") {
		name, value, ok := strings.Cut(line, ":")
		value = strings.Trim(value, " \t")
		if !ok || !isToken(name) || !isHeaderValue(value) {
			continue
		}
		if n := http.CanonicalHeaderKey(name); n == "Content-Length" || n == "Transfer-Encoding" || n == "Host" {
			continue
		}
		r.Header.Add(name, value)
	}
	data := io.Reader(bytes.NewReader(body))
	switch mode % bodyModes {
	case bodyWithLength:
		r.ContentLength = int64(len(body))
	case bodyChunked:
		r.ContentLength, r.TransferEncoding = -1, []string{"chunked"}
	case bodyCutShort:
		r.ContentLength = int64(len(body)) + 1
		data = io.MultiReader(data, errReader{io.ErrUnexpectedEOF})
	}
	r.Body = io.NopCloser(data)
	return r, true
}

// isExtensionPath reports whether the handler serves path as a MiniS3
// extension (JSON) rather than S3 (XML).
func isExtensionPath(path string) bool {
	return path == "/_minis3" || strings.HasPrefix(path, "/_minis3/")
}

// wellFormedXML reports the first syntax error of an XML document.
func wellFormedXML(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// errorCode is the error code of an error answer: the Code of S3's error
// document, or the code of the extensions' JSON error.
func errorCode(extension bool, body []byte) (string, error) {
	if extension {
		var e struct{ Code, Message string }
		if err := json.Unmarshal(body, &e); err != nil {
			return "", err
		}
		return e.Code, nil
	}
	var e struct {
		XMLName xml.Name
		Code    string
	}
	if err := xml.Unmarshal(body, &e); err != nil {
		return "", err
	}
	if e.XMLName.Local != "Error" {
		return "", fmt.Errorf("the root element is %s, not Error", e.XMLName.Local)
	}
	return e.Code, nil
}

// answer is the response to a request sent through the handler, with the
// state of the store before and after.
type answer struct {
	rec           *httptest.ResponseRecorder
	before, after string
	code          string // the error code of an error answer
}

// serveFuzz sends r to h and checks what every answer must satisfy: a
// valid status, never 500, an error document with a code for every 4xx and
// 5xx (none at all for HEAD), well-formed XML and JSON, the store's
// invariants, and no change to the store when the answer is an error or
// 304.
func serveFuzz(t *testing.T, store *core.Store, h http.Handler, r *http.Request) answer {
	t.Helper()
	a := answer{rec: httptest.NewRecorder(), before: storeState(t, store)}
	h.ServeHTTP(a.rec, r)
	a.after = storeState(t, store)
	status, body := a.rec.Code, a.rec.Body.Bytes()
	what := fmt.Sprintf("%s %s (headers %v): %d", r.Method, r.RequestURI, r.Header, status)
	if status < 200 || http.StatusText(status) == "" {
		t.Fatalf("%s is not a valid status", what)
	}
	if status >= 500 && status != http.StatusNotImplemented {
		t.Fatalf("%s for client input:\n%s", what, body)
	}
	if err := store.Check(); err != nil {
		t.Fatalf("%s broke the store: %v", what, err)
	}
	extension := isExtensionPath(r.URL.Path)
	if status >= 300 && a.before != a.after {
		t.Fatalf("%s changed the store:\nbefore:\n%s\nafter:\n%s", what, a.before, a.after)
	}
	if r.Method == http.MethodHead {
		if len(body) > 0 {
			t.Fatalf("%s has a body: %q", what, body)
		}
		return a
	}
	if status >= 400 {
		code, err := errorCode(extension, body)
		if err != nil || code == "" {
			t.Fatalf("%s is not an error document with a code (%v):\n%s", what, err, body)
		}
		a.code = code
	}
	switch ct := a.rec.Header().Get("Content-Type"); {
	case ct == "application/json":
		if !json.Valid(body) {
			t.Fatalf("%s sent invalid JSON:\n%s", what, body)
		}
	case ct == "application/xml" && !isObjectRead(r):
		if err := wellFormedXML(body); err != nil {
			t.Fatalf("%s sent XML that is not well-formed (%v):\n%s", what, err, body)
		}
	}
	return a
}

// isObjectRead reports whether r reads an object, whose body (and stored
// or overridden Content-Type) is whatever was stored.
func isObjectRead(r *http.Request) bool {
	_, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	return r.Method == http.MethodGet && key != ""
}

// observe reads everything back after a request that succeeded, as a
// client would next: the bucket list, every bucket's listings (plain and
// URL-encoded, with a delimiter), uploads, lifecycle and versioning
// configuration, a preview tick, and a GET and HEAD of every key. Each read
// must pass serveFuzz's checks and change nothing: whatever a request
// stored, the store can still describe it.
func observe(t *testing.T, store *core.Store, h http.Handler) {
	t.Helper()
	read := func(method, target string) {
		t.Helper()
		r, ok := fuzzRequest(method, target, "", nil, bodyWithLength)
		if !ok {
			t.Fatalf("observer target %q does not parse", target)
		}
		if a := serveFuzz(t, store, h, r); a.before != a.after {
			t.Fatalf("%s %s changed the store:\nbefore:\n%s\nafter:\n%s", method, target, a.before, a.after)
		}
	}
	read("GET", "/")
	read("GET", "/_minis3/clock")
	for _, b := range store.ListBuckets() {
		for _, q := range []string{"?versions", "?versions&encoding-type=url&delimiter=/", "?list-type=2&fetch-owner=true",
			"?list-type=2&encoding-type=url&delimiter=/", "", "?uploads&encoding-type=url", "?lifecycle", "?versioning", "?location"} {
			read("GET", "/"+b.Name+q)
		}
		read("HEAD", "/"+b.Name)
		read("POST", "/_minis3/buckets/"+b.Name+"/lifecycle-preview")
		versions, err := store.ListObjectVersions(b.Name, core.ListVersionsOptions{MaxKeys: -1})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range versions.Versions {
			path := "/" + b.Name + "/" + escapeKey(v.Key)
			read("GET", path)
			read("HEAD", path+"?versionId="+url.QueryEscape(v.VersionID))
		}
	}
}

// escapeKey path-escapes a key segment by segment, keeping its slashes.
func escapeKey(key string) string {
	segs := strings.Split(key, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// FuzzS3Request sends any request to the S3 API: method, raw request
// target (path with %-escapes, "..", "//", %00, invalid UTF-8; query with
// subresources, versionId, uploadId, partNumber, max-keys, markers),
// headers (Content-MD5, x-amz-content-sha256, Range, conditionals, copy
// source, aws-chunked framing) and body, with or without a length.
func FuzzS3Request(f *testing.F) {
	md5b64 := func(s string) string { sum := md5.Sum([]byte(s)); return base64.StdEncoding.EncodeToString(sum[:]) }
	partOne, partTwo := md5hex([]byte("part-one")), md5hex([]byte("part-two"))
	chunked := "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:NhCmhg==\r\n\r\n"
	seeds := []struct {
		method, target, header, body string
		mode                         uint8
	}{
		{"GET", "/", "", "", bodyWithLength},
		{"GET", "/demo/k", "Range: bytes=1-3", "", bodyWithLength},
		{"GET", "/demo/k?versionId=v00000001", "If-None-Match: \"x\"", "", bodyWithLength},
		{"HEAD", "/demo/gone", "", "", bodyWithLength},
		{"GET", "/demo/k", "If-Modified-Since: Thu, 01 Jan 1970 00:01:40 GMT\nIf-Match: *", "", bodyWithLength},
		{"PUT", "/demo/new", "Content-MD5: " + md5b64("body") + "\nContent-Type: text/plain\nx-amz-meta-a: b", "body", bodyWithLength},
		{"PUT", "/demo/new", "x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER\nContent-Encoding: aws-chunked\nx-amz-decoded-content-length: 5\nx-amz-trailer: x-amz-checksum-crc32", chunked, bodyChunked},
		{"PUT", "/plain/copy", "x-amz-copy-source: /demo/k?versionId=v00000001\nx-amz-metadata-directive: REPLACE", "", bodyWithLength},
		{"DELETE", "/demo/k?versionId=v00000002", "", "", bodyWithLength},
		{"DELETE", "/susp/n", "", "", bodyWithLength},
		{"GET", "/demo?versions&prefix=a/&delimiter=/&key-marker=a&version-id-marker=v00000003&max-keys=1", "", "", bodyWithLength},
		{"GET", "/demo?list-type=2&encoding-type=url&start-after=a&continuation-token=b&fetch-owner=true", "", "", bodyWithLength},
		{"GET", "/demo?marker=a&max-keys=2&delimiter=/", "", "", bodyWithLength},
		{"GET", "/demo?uploads&key-marker=a&upload-id-marker=u00000001&max-uploads=1", "", "", bodyWithLength},
		{"GET", "/demo/mp?uploadId=u00000001&max-parts=1&part-number-marker=1", "", "", bodyWithLength},
		{"POST", "/demo/mp2?uploads", "Content-Type: text/plain", "", bodyWithLength},
		{"PUT", "/demo/mp?partNumber=3&uploadId=u00000001", "", "part-three", bodyChunked},
		{"POST", "/demo/mp?uploadId=u00000001", "", "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\"" + partOne +
			"\"</ETag></Part><Part><PartNumber>2</PartNumber><ETag>" + partTwo + "</ETag></Part></CompleteMultipartUpload>", bodyWithLength},
		{"DELETE", "/demo/mp?uploadId=u00000001", "", "", bodyWithLength},
		{"POST", "/demo?delete", "Content-MD5: " + md5b64("<Delete><Object><Key>k</Key></Object></Delete>"), "<Delete><Object><Key>k</Key></Object></Delete>", bodyWithLength},
		{"PUT", "/plain?versioning", "", "<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>", bodyWithLength},
		{"PUT", "/demo?lifecycle", "", "<LifecycleConfiguration><Rule><Filter><Prefix>a/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>", bodyWithLength},
		{"GET", "/demo?lifecycle", "", "", bodyWithLength},
		{"DELETE", "/demo?lifecycle", "", "", bodyWithLength},
		{"PUT", "/newbucket", "", "<CreateBucketConfiguration><LocationConstraint>us-east-1</LocationConstraint></CreateBucketConfiguration>", bodyWithLength},
		{"DELETE", "/plain", "", "", bodyWithLength},
		{"GET", "/demo?location", "", "", bodyWithLength},
		{"PUT", "/demo/k?tagging", "", "", bodyWithLength},
		{"PUT", "/demo/a%2Fb%20c", "", "escaped", bodyCutShort},
	}
	for _, s := range seeds {
		f.Add(s.method, s.target, s.header, []byte(s.body), s.mode)
	}
	f.Fuzz(func(t *testing.T, method, target, header string, body []byte, mode uint8) {
		r, ok := fuzzRequest(method, target, header, body, mode)
		if !ok {
			return
		}
		store, h := newFuzzStore(t)
		a := serveFuzz(t, store, h, r)
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			if a.before != a.after {
				t.Fatalf("%s %s changed the store:\nbefore:\n%s\nafter:\n%s", r.Method, target, a.before, a.after)
			}
		} else if a.rec.Code < 300 {
			observe(t, store, h)
		}
	})
}

// fuzzBody sends one XML document to a prepared store as method target and
// checks, beyond serveFuzz, that an error carries one of the codes allowed.
func fuzzBody(t *testing.T, method, target string, body []byte, allowed ...string) (*core.Store, answer) {
	t.Helper()
	r, ok := fuzzRequest(method, target, "", body, bodyWithLength)
	if !ok {
		t.Fatalf("bad target %s", target)
	}
	store, h := newFuzzStore(t)
	a := serveFuzz(t, store, h, r)
	if a.rec.Code >= 400 && !slices.Contains(allowed, a.code) {
		t.Fatalf("%s %s with %q: %d %s, want one of %v:\n%s", method, target, body, a.rec.Code, a.code, allowed, a.rec.Body)
	}
	return store, a
}

// FuzzPutBucketVersioning fuzzes the VersioningConfiguration document of
// PutBucketVersioning on the never-versioned bucket plain.
func FuzzPutBucketVersioning(f *testing.F) {
	for _, s := range []string{
		`<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>Enabled</Status></VersioningConfiguration>`,
		`<VersioningConfiguration><Status>Suspended</Status><MfaDelete>Disabled</MfaDelete></VersioningConfiguration>`,
		`<VersioningConfiguration><Status>enabled</Status></VersioningConfiguration>`,
		`<VersioningConfiguration><MfaDelete>Enabled</MfaDelete><Status>Enabled</Status></VersioningConfiguration>`,
		`<VersioningConfiguration/>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		store, a := fuzzBody(t, "PUT", "/plain?versioning", body,
			"MalformedXML", "IllegalVersioningConfigurationException", "NotImplemented")
		if a.rec.Code == http.StatusOK {
			state, err := store.BucketVersioning("plain")
			if err != nil || (state != core.Enabled && state != core.Suspended) {
				t.Fatalf("after a 200 the versioning is %q (%v)", state, err)
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

// FuzzPutBucketLifecycle fuzzes the LifecycleConfiguration document of
// PutBucketLifecycleConfiguration on bucket demo, which has a configuration
// already: a refused document must leave it as it was; an accepted one
// must read back through GetBucketLifecycleConfiguration.
func FuzzPutBucketLifecycle(f *testing.F) {
	for _, s := range []string{
		`<LifecycleConfiguration><Rule><ID>r</ID><Filter><Prefix>a/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>`,
		`<LifecycleConfiguration><Rule><Prefix></Prefix><Status>Disabled</Status><NoncurrentVersionExpiration><NoncurrentDays>3</NoncurrentDays></NoncurrentVersionExpiration></Rule></LifecycleConfiguration>`,
		`<LifecycleConfiguration><Rule><Filter><Tag><Key>a</Key><Value>b</Value></Tag></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>`,
		`<LifecycleConfiguration><Rule><Filter/><Status>Enabled</Status><Expiration><Days>0</Days></Expiration></Rule></LifecycleConfiguration>`,
		`<LifecycleConfiguration><Rule><ID>d</ID><Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule><Rule><ID>d</ID><Filter/><Status>Enabled</Status><Expiration><Days>2</Days></Expiration></Rule></LifecycleConfiguration>`,
		`<LifecycleConfiguration><Rule><Filter><And><Prefix>p</Prefix><Tag><Key>a</Key><Value>b</Value></Tag><ObjectSizeLessThan>9</ObjectSizeLessThan></And></Filter><Status>Enabled</Status><Transition><Days>30</Days><StorageClass>STANDARD_IA</StorageClass></Transition><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays><NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration></Rule></LifecycleConfiguration>`,
		`<LifecycleConfiguration><Rule><Filter/><Status>Enabled</Status><Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration><AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule></LifecycleConfiguration>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		store, a := fuzzBody(t, "PUT", "/demo?lifecycle", body, "MalformedXML", "InvalidArgument", "InvalidRequest")
		if a.rec.Code == http.StatusOK {
			cfg, err := store.BucketLifecycle("demo")
			if err != nil || len(cfg.Rules) == 0 {
				t.Fatalf("after a 200 the configuration is %+v (%v)", cfg, err)
			}
			h := web.NewHandler(store, web.Options{})
			r, _ := fuzzRequest("GET", "/demo?lifecycle", "", nil, bodyWithLength)
			got := serveFuzz(t, store, h, r)
			if got.rec.Code != http.StatusOK {
				t.Fatalf("GET ?lifecycle after a 200: %d\n%s", got.rec.Code, got.rec.Body)
			}
			// What GET answers, a PUT stores again as it was.
			store2, again := fuzzBody(t, "PUT", "/demo?lifecycle", got.rec.Body.Bytes())
			back, err := store2.BucketLifecycle("demo")
			if again.rec.Code != http.StatusOK || err != nil || !reflect.DeepEqual(back, cfg) {
				t.Fatalf("the configuration GET answered does not store again as it was: %d %v\n%+v\nwant %+v", again.rec.Code, err, back, cfg)
			}
		}
	})
}

// FuzzDeleteObjects fuzzes the Delete document of DeleteObjects on bucket
// demo.
func FuzzDeleteObjects(f *testing.F) {
	for _, s := range []string{
		`<Delete><Object><Key>k</Key></Object><Object><Key>k</Key><VersionId>v00000001</VersionId></Object></Delete>`,
		`<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet><Object><Key>gone</Key><VersionId>v00000004</VersionId></Object></Delete>`,
		`<Delete><Object><Key>a/b</Key><VersionId>bogus</VersionId></Object><Object><Key></Key></Object></Delete>`,
		`<Delete><Quiet>maybe</Quiet><Object><Key>k</Key></Object></Delete>`,
		`<Delete></Delete>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		_, a := fuzzBody(t, "POST", "/demo?delete", body, "MalformedXML")
		if a.rec.Code == http.StatusOK {
			var res struct {
				XMLName xml.Name
			}
			if err := xml.Unmarshal(a.rec.Body.Bytes(), &res); err != nil || res.XMLName.Local != "DeleteResult" {
				t.Fatalf("a 200 without a DeleteResult (%v):\n%s", err, a.rec.Body)
			}
		}
	})
}

// FuzzCompleteMultipartUpload fuzzes the CompleteMultipartUpload document
// for the upload on demo/mp (parts 1 and 2).
func FuzzCompleteMultipartUpload(f *testing.F) {
	one, two := md5hex([]byte("part-one")), md5hex([]byte("part-two"))
	part := func(n, etag string) string {
		return "<Part><PartNumber>" + n + "</PartNumber><ETag>" + etag + "</ETag></Part>"
	}
	for _, s := range []string{
		"<CompleteMultipartUpload>" + part("1", `"`+one+`"`) + part("2", two) + "</CompleteMultipartUpload>",
		"<CompleteMultipartUpload>" + part("2", two) + part("1", one) + "</CompleteMultipartUpload>",
		"<CompleteMultipartUpload>" + part("1", one) + part("1", one) + "</CompleteMultipartUpload>",
		"<CompleteMultipartUpload>" + part("10001", one) + "</CompleteMultipartUpload>",
		"<CompleteMultipartUpload>" + part("3", one) + "</CompleteMultipartUpload>",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		store, a := fuzzBody(t, "POST", "/demo/mp?uploadId="+fuzzUploadID, body,
			"MalformedXML", "InvalidArgument", "InvalidPart", "InvalidPartOrder", "InvalidRequest")
		if a.rec.Code == http.StatusOK {
			if _, err := store.GetObject("demo", "mp", core.GetOptions{}); err != nil {
				t.Fatalf("after a 200 the object cannot be read: %v", err)
			}
			_, err := store.ListParts("demo", "mp", fuzzUploadID, core.ListPartsOptions{})
			if !errors.Is(err, core.NoSuchUpload) {
				t.Fatalf("after a 200 the upload is still there (%v)", err)
			}
		}
	})
}

// FuzzExtension sends any request to the MiniS3 extension endpoints
// (/_minis3/clock, /_minis3/buckets/{bucket}/lifecycle-tick and
// lifecycle-preview): JSON errors with a code, never 500, and a preview or
// a refused request changes nothing.
func FuzzExtension(f *testing.F) {
	for _, s := range []struct{ method, target, body string }{
		{"GET", "/_minis3/clock", ""},
		{"PUT", "/_minis3/clock", `{"now": 15}`},
		{"PUT", "/_minis3/clock", `{"now": -1e308}`},
		{"POST", "/_minis3/buckets/demo/lifecycle-tick", `{"rules": [{"id": "r", "prefix": "k", "expireNoncurrentAfter": 0}]}`},
		{"POST", "/_minis3/buckets/demo/lifecycle-preview", `{"rules": [{"id": "r", "expireCurrentAfter": 0, "expireNoncurrentAfter": 5}]}`},
		{"POST", "/_minis3/buckets/demo/lifecycle-tick", ""},
		{"POST", "/_minis3/buckets/susp/lifecycle-tick", `{"rules": [{"id": "s", "expireCurrentAfter": 0}]}`},
		{"POST", "/_minis3/buckets/nope/lifecycle-preview", `{"rules": null}`},
		{"DELETE", "/_minis3/buckets/demo/lifecycle-tick", ""},
	} {
		f.Add(s.method, s.target, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, method, target string, body []byte) {
		r, ok := fuzzRequest(method, target, "", body, bodyWithLength)
		if !ok || !isExtensionPath(r.URL.Path) {
			return
		}
		store, h := newFuzzStore(t)
		a := serveFuzz(t, store, h, r)
		if (r.Method == http.MethodGet || strings.HasSuffix(r.URL.Path, "/lifecycle-preview")) && a.before != a.after {
			t.Fatalf("%s %s changed the store:\nbefore:\n%s\nafter:\n%s", method, target, a.before, a.after)
		}
		if ct := a.rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s %s: Content-Type %q, want application/json", method, target, ct)
		}
		if a.rec.Code < 300 && a.before != a.after {
			// A moved clock or an applied tick: new writes and every read
			// must still work.
			put, _ := fuzzRequest("PUT", "/demo/written-after", "", []byte("after"), bodyWithLength)
			if got := serveFuzz(t, store, h, put); got.rec.Code != http.StatusOK {
				t.Fatalf("PUT after %s %s: %d\n%s", method, target, got.rec.Code, got.rec.Body)
			}
			observe(t, store, h)
		}
	})
}
