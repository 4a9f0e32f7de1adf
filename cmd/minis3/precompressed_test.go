package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"minis3/browser_test/chrome"
)

// rawGet requests url with the Accept-Encoding header given, and any
// other headers, as they are: Go's client neither adds an Accept-Encoding
// nor decodes the body.
func rawGet(t *testing.T, method, url, acceptEncoding string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// writeFiles writes name → content into dir, each modified at the time
// given, in the order of names.
func writeFiles(t *testing.T, dir string, names []string, content map[string]string, at map[string]time.Time) {
	t.Helper()
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at[name], at[name]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPlaygroundServesTheBestAcceptedPrecompressedCoding(t *testing.T) {
	cfg := testConfig(t)
	s := started(t, cfg)
	built := time.Now().Add(-time.Hour)
	files := map[string]string{"minis3.wasm": "\x00asm the module", "minis3.wasm.gz": "gzip bytes", "minis3.wasm.br": "brotli bytes"}
	writeFiles(t, cfg.Static, []string{"minis3.wasm", "minis3.wasm.gz", "minis3.wasm.br"}, files,
		map[string]time.Time{"minis3.wasm": built, "minis3.wasm.gz": built, "minis3.wasm.br": built.Add(time.Second)})

	tests := []struct {
		acceptEncoding string
		coding         string // "" for the file as it is
	}{
		{"", ""},
		{"identity", ""},
		{"gzip", "gzip"},
		{"br", "br"},
		{"gzip, deflate, br, zstd", "br"},
		{"GZIP", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"br; q=0.0, gzip;q=0.5", "gzip"},
		{"*", "br"},
		{"*, br;q=0", "gzip"},
		{"*;q=0", ""},
		{"gzip;q=x", ""},
		{"gzip;q=2", ""},
		{"deflate", ""},
	}
	for _, tt := range tests {
		t.Run(tt.acceptEncoding, func(t *testing.T) {
			want := files["minis3.wasm"]
			switch tt.coding {
			case "gzip":
				want = files["minis3.wasm.gz"]
			case "br":
				want = files["minis3.wasm.br"]
			}
			resp, body := rawGet(t, "GET", s.pageURL()+"minis3.wasm", tt.acceptEncoding)
			if resp.StatusCode != 200 || string(body) != want {
				t.Fatalf("got %d %q, want 200 %q", resp.StatusCode, body, want)
			}
			if got := resp.Header.Get("Content-Encoding"); got != tt.coding {
				t.Errorf("Content-Encoding %q, want %q", got, tt.coding)
			}
			if got := resp.Header.Get("Content-Type"); got != "application/wasm" {
				t.Errorf("Content-Type %q, want application/wasm", got)
			}
			if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary %q, want Accept-Encoding", got)
			}
			if got := resp.Header.Get("Content-Security-Policy"); got != contentSecurityPolicy {
				t.Errorf("Content-Security-Policy %q, want the page's", got)
			}
		})
	}
	// Ranges and the conditional requests other than If-Modified-Since get
	// the file as it is, which answers them as the file server does.
	t.Run("Range", func(t *testing.T) {
		resp, body := rawGet(t, "GET", s.pageURL()+"minis3.wasm", "gzip, br", "Range", "bytes=0-3")
		if resp.StatusCode != http.StatusPartialContent || string(body) != "\x00asm" || resp.Header.Get("Content-Encoding") != "" ||
			resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("got %d %q, Content-Encoding %q, Vary %q; want 206 the file's first 4 bytes, none, Accept-Encoding",
				resp.StatusCode, body, resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
		}
	})
	t.Run("If-None-Match", func(t *testing.T) {
		resp, body := rawGet(t, "GET", s.pageURL()+"minis3.wasm", "gzip, br", "If-None-Match", `"x"`)
		if resp.StatusCode != 200 || string(body) != files["minis3.wasm"] || resp.Header.Get("Content-Encoding") != "" {
			t.Errorf("got %d %q, Content-Encoding %q; want 200 the file as it is", resp.StatusCode, body, resp.Header.Get("Content-Encoding"))
		}
	})
	// A browser revalidating its cached wasm.
	for _, tt := range []struct {
		name   string
		since  string
		status int
		body   string
	}{
		{"If-Modified-Since the build", built.UTC().Format(http.TimeFormat), http.StatusNotModified, ""},
		{"If-Modified-Since later", built.Add(time.Minute).UTC().Format(http.TimeFormat), http.StatusNotModified, ""},
		{"If-Modified-Since earlier", built.Add(-time.Second).UTC().Format(http.TimeFormat), 200, files["minis3.wasm.br"]},
		{"If-Modified-Since not a date", "yesterday", 200, files["minis3.wasm.br"]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := rawGet(t, "GET", s.pageURL()+"minis3.wasm", "gzip, br", "If-Modified-Since", tt.since)
			if resp.StatusCode != tt.status || string(body) != tt.body {
				t.Fatalf("got %d %q, want %d %q", resp.StatusCode, body, tt.status, tt.body)
			}
			wantCoding := "br"
			if tt.status == http.StatusNotModified {
				wantCoding = ""
			}
			if got := resp.Header.Get("Content-Encoding"); got != wantCoding {
				t.Errorf("Content-Encoding %q, want %q", got, wantCoding)
			}
			if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary %q, want Accept-Encoding", got)
			}
		})
	}
	t.Run("Last-Modified", func(t *testing.T) {
		resp, _ := rawGet(t, "GET", s.pageURL()+"minis3.wasm", "br")
		if got, want := resp.Header.Get("Last-Modified"), built.UTC().Format(http.TimeFormat); got != want {
			t.Errorf("Last-Modified %q, want the file's own, %q", got, want)
		}
	})
	t.Run("HEAD", func(t *testing.T) {
		resp, body := rawGet(t, "HEAD", s.pageURL()+"minis3.wasm", "gzip")
		if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Encoding") != "gzip" ||
			resp.Header.Get("Content-Length") != strconv.Itoa(len(files["minis3.wasm.gz"])) {
			t.Errorf("got %d, %d body bytes, Content-Encoding %q, Content-Length %q; want 200, none, gzip, %d",
				resp.StatusCode, len(body), resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Length"), len(files["minis3.wasm.gz"]))
		}
	})
}

func TestPlaygroundIgnoresAPrecompressedFileOlderThanItsSource(t *testing.T) {
	cfg := testConfig(t)
	s := started(t, cfg)
	// minis3.wasm rebuilt after make wasm compressed the earlier build.
	built := time.Now().Add(-time.Hour)
	files := map[string]string{"minis3.wasm": "\x00asm rebuilt", "minis3.wasm.gz": "the earlier build, gzipped"}
	writeFiles(t, cfg.Static, []string{"minis3.wasm.gz", "minis3.wasm"}, files,
		map[string]time.Time{"minis3.wasm.gz": built, "minis3.wasm": built.Add(time.Second)})

	resp, body := rawGet(t, "GET", s.pageURL()+"minis3.wasm", "gzip, br")
	if resp.StatusCode != 200 || string(body) != files["minis3.wasm"] || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("got %d %q Content-Encoding %q, want 200 %q as it is", resp.StatusCode, body, resp.Header.Get("Content-Encoding"), files["minis3.wasm"])
	}
	if got := resp.Header.Get("Vary"); got != "" {
		t.Errorf("Vary %q, want none: the file has one representation", got)
	}
}

// TestPlaygroundLoadsFromGzippedWasm serves the real playground with a
// gzipped wasm beside it and loads it in Chromium: the module arrives
// compressed (resource timing: fewer bytes on the wire than decoded) and
// the page starts.
func TestPlaygroundLoadsFromGzippedWasm(t *testing.T) {
	cfg := testConfig(t)
	cfg.Static = chrome.Static(t)
	wasm, err := os.ReadFile(filepath.Join(cfg.Static, "minis3.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	if _, err := zw.Write(wasm); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg.Static, "minis3.wasm.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := started(t, cfg)

	p := chrome.Launch(t).Open(t, s.pageURL())
	p.WaitFor(t, `document.body.dataset.ready === "true"`)
	sizes := chrome.Eval[[]float64](t, p, `
		const e = performance.getEntriesByType("resource").find((e) => new URL(e.name).pathname === "/minis3.wasm");
		return e ? [e.encodedBodySize, e.decodedBodySize] : [];`)
	if len(sizes) != 2 || sizes[0] != float64(gz.Len()) || sizes[1] != float64(len(wasm)) {
		t.Errorf("minis3.wasm arrived as %v bytes (encoded, decoded), want [%d %d]", sizes, gz.Len(), len(wasm))
	}
}
