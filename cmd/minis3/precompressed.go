package main

import (
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// precompressedEncodings are the content codings a playground file may have
// beside it, as a file of the same name plus the suffix, best first. make
// wasm writes minis3.wasm.gz, and minis3.wasm.br when the brotli command is
// installed: the wasm goes over the network at a fraction of its size,
// which a classroom sharing one network feels.
var precompressedEncodings = []struct{ coding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// servePrecompressed answers a plain GET or HEAD of the file at name (a
// cleaned path under dir) with the best coding the request accepts that has
// a file beside it at least as new as the file itself (an older one was
// left by an earlier build), as the file's own content type and modification
// time. It reports whether it answered; if not, the file is to be served as
// it is. If-Modified-Since, with which a browser revalidates its cached
// wasm, is answered here by the file's own time (a 304, or the file anew in
// that coding). Ranges and the other conditional requests are left to the
// file as it is: they are rare here, and their error answers must not claim
// a coding. Every answer for a file that has such a sibling varies by
// Accept-Encoding.
func servePrecompressed(w http.ResponseWriter, r *http.Request, dir, name string) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	file := filepath.Join(dir, filepath.FromSlash(name))
	orig, err := os.Stat(file)
	if err != nil || !orig.Mode().IsRegular() {
		return false
	}
	plain := true
	for _, h := range []string{"Range", "If-Range", "If-Match", "If-None-Match", "If-Unmodified-Since"} {
		if r.Header.Get(h) != "" {
			plain = false
		}
	}
	accepted := r.Header.Values("Accept-Encoding")
	vary := false
	for _, p := range precompressedEncodings {
		f, err := os.Open(file + p.suffix)
		if err != nil {
			continue
		}
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() || st.ModTime().Before(orig.ModTime()) {
			f.Close()
			continue
		}
		vary = true
		if !plain || !acceptsCoding(accepted, p.coding) {
			f.Close()
			continue
		}
		defer f.Close()
		h := w.Header()
		h.Add("Vary", "Accept-Encoding")
		h.Set("Last-Modified", orig.ModTime().UTC().Format(http.TimeFormat))
		if notModified(r, orig.ModTime()) {
			h.Del("Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return true
		}
		h.Set("Content-Encoding", p.coding)
		if h.Get("Content-Type") == "" {
			ct := mime.TypeByExtension(path.Ext(name))
			if ct == "" {
				ct = "application/octet-stream"
			}
			h.Set("Content-Type", ct)
		}
		h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			_, _ = io.Copy(w, f)
		}
		return true
	}
	if vary {
		w.Header().Add("Vary", "Accept-Encoding")
	}
	return false
}

// notModified reports whether r's If-Modified-Since is a valid date no
// earlier than modTime, to the second (HTTP dates have no finer unit).
func notModified(r *http.Request, modTime time.Time) bool {
	since, err := http.ParseTime(r.Header.Get("If-Modified-Since"))
	return err == nil && !modTime.Truncate(time.Second).After(since)
}

// acceptsCoding reports whether Accept-Encoding header values accept the
// content coding (RFC 9110 §12.5.3): named, or covered by "*", with a
// nonzero weight. A coding named with q=0 is refused even if "*" is
// accepted.
func acceptsCoding(values []string, coding string) bool {
	star := false
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(item, ";")
			name = strings.TrimSpace(name)
			q := weight(params)
			switch {
			case strings.EqualFold(name, coding):
				return q > 0
			case name == "*":
				star = q > 0
			}
		}
	}
	return star
}

// weight is the q parameter among an Accept-Encoding item's parameters:
// 1 when there is none, 0 when it is malformed.
func weight(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || q < 0 || q > 1 {
			return 0
		}
		return q
	}
	return 1
}
