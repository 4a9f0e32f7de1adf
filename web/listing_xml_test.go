package web_test

import (
	"bytes"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden listing documents in testdata/listings")

// TestListingDocumentsMatchGolden pins the bytes of the listing documents
// (ListObjects, ListObjectsV2, ListObjectVersions) against files in
// testdata/listings. The files were first written by the encoding/xml
// version of the listings, and the hand-written XML writer reproduced them
// byte for byte, escaping included; they were then rewritten without
// Owner's DisplayName, which S3 no longer sends. Run with -update to
// rewrite them after a deliberate change, and read the diff.
func TestListingDocumentsMatchGolden(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "docs", "enabled")
	e.setClock(t, 1700000000.25-testOrigin) // 2023-11-14T22:13:20.250Z
	for _, key := range []string{"a/one", "a/two", `odd <&>"' key`, "tab\there", "line\nbreak", "ctl\x01", "ünï/cödé ✓", "a/one"} {
		e.put(t, "docs", key, "body of "+key)
	}
	e.setClock(t, 1700086400-testOrigin)
	if _, body := e.raw(t, http.MethodDelete, "/docs/a/two", nil, nil); len(body) != 0 {
		t.Fatalf("DELETE answered %q", body)
	}
	for _, c := range []struct{ name, query string }{
		{"versions", "versions"},
		{"versions-delimiter", "versions&delimiter=/&prefix=a"},
		{"versions-url-encoded", "versions&encoding-type=url"},
		{"versions-page", "versions&max-keys=2&key-marker=a/one"},
		{"versions-max-keys-0", "versions&max-keys=0"},
		{"v2", "list-type=2"},
		{"v2-owner-delimiter", "list-type=2&fetch-owner=true&delimiter=/&start-after=a"},
		{"v2-url-encoded-page", "list-type=2&encoding-type=url&max-keys=2"},
		{"v1", ""},
		{"v1-delimiter-page", "delimiter=/&max-keys=1&marker=a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, got := e.raw(t, http.MethodGet, "/docs?"+c.query, nil, nil)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/xml" {
				t.Fatalf("status %d, Content-Type %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), got)
			}
			path := filepath.Join("testdata", "listings", c.name+".xml")
			if *updateGolden {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("document differs from %s:\n got %s\nwant %s", path, got, want)
			}
			if strings.Contains(c.query, "max-keys=2") && !bytes.Contains(got, []byte("<IsTruncated>true</IsTruncated>")) {
				t.Errorf("a 2-entry page of this bucket is truncated: %s", got)
			}
		})
	}
}
