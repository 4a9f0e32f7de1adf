package main

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// TestPlaygroundFilesAreRevalidated checks that every playground file,
// plain or precompressed, is sent with Cache-Control: no-cache and a
// Last-Modified validator, and that a revalidation with that validator is
// answered 304 with no body: a browser keeps its copy (and V8 the code it
// compiled from it) yet never runs a file of an older build beside a newer
// one.
func TestPlaygroundFilesAreRevalidated(t *testing.T) {
	cfg := testConfig(t)
	s := started(t, cfg)
	files := map[string]string{
		"index.html":     "<!doctype html><title>MiniS3</title>",
		"app/main.js":    "export {}",
		"minis3.wasm":    "\x00asm",
		"minis3.wasm.br": "brotli",
		"offline-sw.js":  "// worker",
	}
	if err := os.MkdirAll(filepath.Join(cfg.Static, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(cfg.Static, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ name, path, acceptEncoding string }{
		{"page", "", ""},
		{"module", "app/main.js", ""},
		{"worker", "offline-sw.js", ""},
		{"wasm", "minis3.wasm", ""},
		{"wasm in brotli", "minis3.wasm", "br"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, _ := rawGet(t, "GET", s.pageURL()+tt.path, tt.acceptEncoding)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200", resp.StatusCode)
			}
			if got := resp.Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control %q, want no-cache", got)
			}
			modified := resp.Header.Get("Last-Modified")
			if modified == "" {
				t.Fatal("no Last-Modified")
			}
			again, body := rawGet(t, "GET", s.pageURL()+tt.path, tt.acceptEncoding, "If-Modified-Since", modified)
			if again.StatusCode != http.StatusNotModified || len(body) != 0 {
				t.Errorf("revalidation: %d with %d bytes, want 304 with none", again.StatusCode, len(body))
			}
			if got := again.Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("revalidation: Cache-Control %q, want no-cache", got)
			}
		})
	}
}
