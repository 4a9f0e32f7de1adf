package main

import (
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
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

// playgroundHandler serves the static files of dir as they are. While the
// page is not built (no index.html), "/" explains how to build it.
func playgroundHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean("/" + r.URL.Path)
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
		files.ServeHTTP(w, r)
	})
}
