package main

import (
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// contentTypes are the types a static host must get right for the
// playground: the wasm module (streaming compilation needs
// application/wasm) and ES modules.
var contentTypes = map[string]string{
	".wasm": "application/wasm",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
}

var notBuiltPage = template.Must(template.New("notbuilt").Parse(`<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>MiniS3: playground not built</title>
<h1>The MiniS3 playground is not built</h1>
<p>There is no <code>index.html</code> in <code>{{.}}</code>.
Run <code>make build</code> in the repository, then reload this page.</p>
<p>The S3 API is served all the same.</p>
</html>
`))

// contentSecurityPolicy is sent with every playground response: the
// policy of static/index.html's meta tag (TestPlaygroundPolicyMatchesPage
// keeps them equal) as a header, so that it also covers what the meta tag
// cannot reach. No frame-ancestors: course pages embed the playground.
const contentSecurityPolicy = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; connect-src 'self' https:; object-src 'none'; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types minis3 minis3-xml minis3-offline"

// examplesPolicy is sent instead with the example course pages under
// /examples/ (static/examples/course.html declares it too): they embed the
// playground, from this host or another one.
const examplesPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; frame-src *; img-src 'self' data:; base-uri 'none'; form-action 'none'"

// playgroundHandler serves the static files of dir under the page's
// content security policy, each as it is or precompressed (see
// servePrecompressed), with Cache-Control: no-cache: a browser keeps every
// file with its Last-Modified and asks, on each visit, whether it changed
// (a 304 costs no body, and V8 keeps the code it compiled from a wasm
// still current), so that a new build is never mixed with files of the old
// one kept by a guess of how long they stay fresh. While the page is not
// built (no index.html), "/" explains how to build it.
func playgroundHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		p := path.Clean("/" + r.URL.Path)
		if strings.HasPrefix(p, "/examples/") {
			w.Header().Set("Content-Security-Policy", examplesPolicy)
		} else {
			w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
		}
		if p == "/" || p == "/index.html" {
			if _, err := os.Stat(filepath.Join(dir, "index.html")); errors.Is(err, fs.ErrNotExist) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusNotFound)
				_ = notBuiltPage.Execute(w, dir)
				return
			}
		}
		if ct, ok := contentTypes[path.Ext(p)]; ok {
			w.Header().Set("Content-Type", ct)
		}
		if servePrecompressed(w, r, dir, p) {
			return
		}
		files.ServeHTTP(w, r)
	})
}
