//go:build !js

package chrome

import (
	"bytes"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Mounts maps URL prefixes ("/", "/test/") to directories. The longest
// matching prefix wins.
type Mounts map[string]string

// Server is a loopback HTTP server started by Serve.
type Server struct {
	// URL is the base URL, such as http://127.0.0.1:41234, without a slash.
	URL string
}

// Serve starts an httptest server on 127.0.0.1 serving the mounts, and
// closes it in t.Cleanup. Every response carries header (which may be nil)
// and Cache-Control: no-store; .wasm files are served as application/wasm
// and .js/.mjs files as text/javascript.
func Serve(t testing.TB, mounts Mounts, header http.Header) *Server {
	t.Helper()
	prefixes := make([]string, 0, len(mounts))
	handlers := make(map[string]http.Handler, len(mounts))
	for prefix, dir := range mounts {
		if !strings.HasPrefix(prefix, "/") || !strings.HasSuffix(prefix, "/") {
			t.Fatalf("mount prefix %q must start and end with /", prefix)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("mount %s: %v", prefix, err)
		}
		prefixes = append(prefixes, prefix)
		handlers[prefix] = http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.FileServer(http.Dir(dir)))
	}
	sort.Slice(prefixes, func(i, j int) bool { return len(prefixes[i]) > len(prefixes[j]) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header()[k] = v
		}
		w.Header().Set("Cache-Control", "no-store")
		switch filepath.Ext(r.URL.Path) {
		case ".wasm":
			w.Header().Set("Content-Type", "application/wasm")
		case ".js", ".mjs":
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		for _, p := range prefixes {
			if strings.HasPrefix(r.URL.Path, p) {
				handlers[p].ServeHTTP(w, r)
				return
			}
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return &Server{URL: srv.URL}
}

// build is the wasm of the current source tree, built once per test binary.
var build struct {
	once     sync.Once
	root     string // repository root
	wasm     []byte
	wasmExec []byte
	err      error
}

// RepoRoot is the directory of the repository's go.mod.
func RepoRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		t.Fatalf("finding the repository root (go env GOMOD = %q): %v", gomod, err)
	}
	return filepath.Dir(gomod)
}

// Static returns a fresh directory holding the repository's static/ files
// plus minis3.wasm built from the current source (GOOS=js GOARCH=wasm,
// -trimpath, stripped, as `make wasm` builds it) and the wasm_exec.js of the
// same Go toolchain. The build runs once per test binary; a build failure
// fails the test with the compiler's output.
func Static(t testing.TB) string {
	t.Helper()
	root := RepoRoot(t)
	build.once.Do(func() {
		build.root = root
		build.wasm, build.wasmExec, build.err = buildWasm(root)
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	dir := t.TempDir()
	static := filepath.Join(build.root, "static")
	err := filepath.WalkDir(static, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(static, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		switch rel {
		case "minis3.wasm", "minis3.wasm.gz", "minis3.wasm.br", "wasm_exec.js":
			return nil // build output of make wasm; replaced below
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatalf("copying static/: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "minis3.wasm"), build.wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), build.wasmExec, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func buildWasm(root string) (wasm, wasmExec []byte, err error) {
	tmp, err := os.MkdirTemp("", "minis3-wasm-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "minis3.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, &buildError{err: err, output: stderr.String()}
	}
	if wasm, err = os.ReadFile(out); err != nil {
		return nil, nil, err
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, nil, err
	}
	wasmExec, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, nil, err
	}
	return wasm, wasmExec, nil
}

type buildError struct {
	err    error
	output string
}

func (e *buildError) Error() string {
	return "building ./wasm for GOOS=js GOARCH=wasm: " + e.err.Error() + "\n" + e.output
}
