package web_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io/fs"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"minis3/core"
	"minis3/core/boltstore"
	"minis3/web"
)

// oddKey is a key that path handling, URL decoding, XML or a file system
// could mangle, with the request path that names it ("" means each
// segment path-escaped).
type oddKey struct {
	name, key, path string
}

// oddKeys are stored and read back byte for byte by the tests below.
var oddKeys = []oddKey{
	{"dot-dot", "..", ""},
	{"path traversal", "../../etc/passwd", ""},
	{"dot-dot inside", "a/../b", ""},
	{"dot segment", "./a", ""},
	{"leading slash", "/leading", "/leading"},
	{"double slash", "a//b", ""},
	{"trailing slash", "dir/", ""},
	{"literal percent-2F", "%2F", "%252F"},
	{"encoded slash", "a/b", "a%2Fb"},
	{"NUL", "a\x00b", ""},
	{"XML non-character U+FFFE", "x\uFFFEy", ""},
	{"space", "with space", ""},
	{"plus", "a+b", "a+b"},
	{"escaped plus", "c+d", "c%2Bd"},
	{"emoji", "😀 smile", ""},
	{"combining acute", "e\u0301", ""},
	{"precomposed acute", "\u00e9", ""},
	{"tab and newline", "tab\there\nnewline\r", ""},
	{"XML specials", `<a href="x">&amp;'</a>`, ""},
	{"question mark and hash", "q?x=1#frag", ""},
	{"1024 bytes of two-byte characters", strings.Repeat("é", 512), ""},
}

// escapedPath is the request path of an odd key in bucket.
func (k oddKey) escapedPath(bucket string) string {
	if k.path != "" {
		return "/" + bucket + "/" + k.path
	}
	return "/" + bucket + "/" + escapeKey(k.key)
}

// xmlSafe is what an XML response without encoding-type=url carries for s:
// characters XML 1.0 cannot hold become U+FFFD.
func xmlSafe(s string) string {
	var b bytes.Buffer
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		panic(err)
	}
	var out string
	if err := xml.Unmarshal([]byte("<k>"+b.String()+"</k>"), &out); err != nil {
		panic(err)
	}
	return out
}

// xmlRepresentable reports whether XML 1.0 can carry s unchanged.
func xmlRepresentable(s string) bool { return xmlSafe(s) == s }

// listedKeys reads the Key elements of a listing, URL-decoding them when
// encoded.
func listedKeys(t *testing.T, data []byte, encoded bool) []string {
	t.Helper()
	var doc struct {
		Keys []string `xml:"Contents>Key"`
		Vers []string `xml:"Version>Key"`
		DMs  []string `xml:"DeleteMarker>Key"`
		Del  []string `xml:"Deleted>Key"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("listing is not XML (%v): %s", err, data)
	}
	keys := slices.Concat(doc.Keys, doc.Vers, doc.DMs, doc.Del)
	if encoded {
		for i, k := range keys {
			d, err := url.QueryUnescape(k)
			if err != nil {
				t.Fatalf("listed key %q is not URL-encoded: %v", k, err)
			}
			keys[i] = d
		}
	}
	slices.Sort(keys)
	return keys
}

// TestOddKeysRoundTripOverHTTP stores each odd key with a raw PUT and
// reads it back byte for byte: GET, HEAD, ListObjectsV2 and
// ListObjectVersions (plain and encoding-type=url), DeleteObjects results.
// Characters XML 1.0 cannot hold (NUL, U+FFFE) come back exactly only with
// encoding-type=url; plain XML carries U+FFFD in their place.
func TestOddKeysRoundTripOverHTTP(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	var want, wantPlain []string
	etags := map[string]string{}
	for _, k := range oddKeys {
		if !utf8.ValidString(k.key) || len(k.key) > core.MaxKeyLength {
			t.Fatalf("%s: not a valid key", k.name)
		}
		body := []byte("body of " + k.name)
		resp, data := e.raw(t, "PUT", k.escapedPath("demo"), body, nil)
		if resp.StatusCode != 200 {
			t.Fatalf("PUT %s (%q as %s): %d %s", k.name, k.key, k.escapedPath("demo"), resp.StatusCode, data)
		}
		etags[k.key] = resp.Header.Get("ETag")
		want = append(want, k.key)
		wantPlain = append(wantPlain, xmlSafe(k.key))
	}
	slices.Sort(want)
	slices.Sort(wantPlain)
	if got := e.store.ListBuckets(); len(got) != 1 {
		t.Fatalf("buckets after the PUTs: %+v, want only demo", got)
	}
	for _, k := range oddKeys {
		t.Run("GET and HEAD "+k.name, func(t *testing.T) {
			obj, err := e.store.GetObject("demo", k.key, core.GetOptions{})
			if err != nil || string(obj.Body) != "body of "+k.name {
				t.Fatalf("the store has no object %q with its body: %v", k.key, err)
			}
			resp, data := e.raw(t, "GET", k.escapedPath("demo"), nil, nil)
			if resp.StatusCode != 200 || string(data) != "body of "+k.name {
				t.Errorf("GET: %d %q", resp.StatusCode, data)
			}
			resp, _ = e.raw(t, "HEAD", k.escapedPath("demo"), nil, nil)
			if resp.StatusCode != 200 || resp.Header.Get("ETag") != etags[k.key] {
				t.Errorf("HEAD: %d ETag %s, want 200 %s", resp.StatusCode, resp.Header.Get("ETag"), etags[k.key])
			}
		})
	}
	for _, l := range []struct{ name, query string }{
		{"ListObjectsV2", "list-type=2"},
		{"ListObjectVersions", "versions"},
		{"ListObjects", "max-keys=1000"},
	} {
		t.Run(l.name, func(t *testing.T) {
			resp, data := e.raw(t, "GET", "/demo?"+l.query, nil, nil)
			if got := listedKeys(t, data, false); resp.StatusCode != 200 || !slices.Equal(got, wantPlain) {
				t.Errorf("plain: %d keys\n%q\nwant\n%q", resp.StatusCode, got, wantPlain)
			}
			resp, data = e.raw(t, "GET", "/demo?encoding-type=url&"+l.query, nil, nil)
			if got := listedKeys(t, data, true); resp.StatusCode != 200 || !slices.Equal(got, want) {
				t.Errorf("encoding-type=url: %d keys\n%q\nwant\n%q", resp.StatusCode, got, want)
			}
		})
	}
	t.Run("DeleteObjects", func(t *testing.T) {
		var req bytes.Buffer
		var deletable []string
		req.WriteString("<Delete>")
		for _, k := range oddKeys {
			if !xmlRepresentable(k.key) {
				continue // a request document cannot name it either
			}
			deletable = append(deletable, k.key)
			req.WriteString("<Object><Key>")
			if err := xml.EscapeText(&req, []byte(k.key)); err != nil {
				t.Fatal(err)
			}
			req.WriteString("</Key></Object>")
		}
		req.WriteString("</Delete>")
		slices.Sort(deletable)
		resp, data := e.raw(t, "POST", "/demo?delete", req.Bytes(), nil)
		if got := listedKeys(t, data, false); resp.StatusCode != 200 || !slices.Equal(got, deletable) {
			t.Errorf("deleted: %d\n%q\nwant\n%q", resp.StatusCode, got, deletable)
		}
		for _, k := range deletable {
			if _, err := e.store.GetObject("demo", k, core.GetOptions{}); !errors.Is(err, core.NoSuchKey) {
				t.Errorf("GET %q after DeleteObjects: %v, want NoSuchKey", k, err)
			}
		}
	})
}

// TestKeyLimitsOverHTTP: a key of 1025 bytes is KeyTooLongError with its
// size, a key that is not UTF-8 is InvalidArgument; neither is stored.
func TestKeyLimitsOverHTTP(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	tests := []struct {
		name, path, code string
		extra            []string
	}{
		{"1025 bytes", "/demo/" + strings.Repeat("é", 512) + "k", "KeyTooLongError", []string{"<Size>1025</Size>", "<MaxSizeAllowed>1024</MaxSizeAllowed>"}},
		{"not UTF-8", "/demo/a%FFb", "InvalidArgument", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, data := e.raw(t, "PUT", tt.path, []byte("x"), nil)
			if resp.StatusCode != 400 || !strings.Contains(string(data), "<Code>"+tt.code+"</Code>") {
				t.Errorf("got %d %s, want 400 %s", resp.StatusCode, data, tt.code)
			}
			for _, x := range tt.extra {
				if !strings.Contains(string(data), x) {
					t.Errorf("error body lacks %s: %s", x, data)
				}
			}
			if res, err := e.store.ListObjectsV2("demo", core.ListObjectsOptions{}); err != nil || len(res.Objects) != 0 {
				t.Errorf("the bucket holds %+v (%v), want nothing", res.Objects, err)
			}
		})
	}
}

// TestEscapedSlashStaysInTheBucketName checks that an escaped slash in the
// bucket part of a path is part of the bucket name (InvalidBucketName, as
// on S3) rather than the boundary between bucket and key, while in the key
// it is an ordinary slash.
func TestEscapedSlashStaysInTheBucketName(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "abc", "")
	resp, data := e.raw(t, "PUT", "/abc%2Fd", nil, nil)
	if resp.StatusCode != 400 || !strings.Contains(string(data), "<Code>InvalidBucketName</Code>") {
		t.Errorf("PUT /abc%%2Fd: got %d %s, want 400 InvalidBucketName", resp.StatusCode, data)
	}
	if res, err := e.store.ListObjectsV2("abc", core.ListObjectsOptions{}); err != nil || len(res.Objects) != 0 {
		t.Errorf("bucket abc holds %+v (%v), want nothing", res.Objects, err)
	}
	if resp, data := e.raw(t, "PUT", "/abc/b%2Fc", []byte("x"), nil); resp.StatusCode != 200 {
		t.Fatalf("PUT /abc/b%%2Fc: %d %s", resp.StatusCode, data)
	}
	if got := e.getBody(t, "abc", "b/c", ""); got != "x" {
		t.Errorf("key b/c holds %q, want x", got)
	}
}

// TestOddKeysRoundTripThroughTheSDK stores and reads each odd key through
// the AWS SDK, which escapes keys itself, and lists them with
// encoding-type=url.
func TestOddKeysRoundTripThroughTheSDK(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	var want []string
	for _, k := range oddKeys {
		e.put(t, "demo", k.key, "sdk "+k.name)
		want = append(want, k.key)
	}
	slices.Sort(want)
	for _, k := range oddKeys {
		if got := e.getBody(t, "demo", k.key, ""); got != "sdk "+k.name {
			t.Errorf("%s: GET = %q", k.name, got)
		}
		if _, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String(k.key)}); err != nil {
			t.Errorf("%s: HEAD: %v", k.name, err)
		}
	}
	out, err := e.client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String("demo"), EncodingType: types.EncodingTypeUrl})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range out.Versions {
		k, err := url.QueryUnescape(aws.ToString(v.Key))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, k)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("listed\n%q\nwant\n%q", got, want)
	}
}

// TestOddKeysStayInsideTheDataDirectory stores every odd key over bbolt
// storage through HTTP, reopens the store and reads them back; the data
// directory then holds the database file and nothing else, and nothing was
// written next to it: keys never become file names.
func TestOddKeysStayInsideTheDataDirectory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "data")
	open := func() (*core.Store, *httptest.Server) {
		storage, err := boltstore.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		store, err := core.Open(storage, core.Options{ManualClock: true})
		if err != nil {
			t.Fatal(err)
		}
		return store, httptest.NewServer(web.NewHandler(store, web.Options{}))
	}
	send := func(srv *httptest.Server, method, path string, body []byte) (int, []byte) {
		resp, data := rawTo(t, srv, method, path, body, nil)
		return resp.StatusCode, data
	}
	store, srv := open()
	if status, data := send(srv, "PUT", "/demo", nil); status != 200 {
		t.Fatalf("CreateBucket: %d %s", status, data)
	}
	for i, k := range oddKeys {
		if status, data := send(srv, "PUT", k.escapedPath("demo"), []byte(strconv.Itoa(i)+k.key)); status != 200 {
			t.Fatalf("PUT %s: %d %s", k.name, status, data)
		}
	}
	srv.Close()
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	store, srv = open()
	for i, k := range oddKeys {
		if status, data := send(srv, "GET", k.escapedPath("demo"), nil); status != 200 || string(data) != strconv.Itoa(i)+k.key {
			t.Errorf("GET %s after reopening: %d %q", k.name, status, data)
		}
	}
	if err := store.Check(); err != nil {
		t.Error(err)
	}
	srv.Close()
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".", "data", "data/" + boltstore.FileName}; !slices.Equal(files, want) {
		t.Errorf("files under the test directory: %q, want %q", files, want)
	}
}
