//go:build !js

package chrome

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Minis3 is a running `minis3 serve` started by ServeMinis3.
type Minis3 struct {
	// URL is the playground's base URL, such as http://127.0.0.1:41234,
	// without a slash.
	URL string

	cmd    *exec.Cmd
	out    bytes.Buffer
	mu     sync.Mutex
	exited chan struct{}
}

// binary is cmd/minis3 built once per test binary.
var binary struct {
	once sync.Once
	path string
	err  error
}

// servingRE matches what minis3 serve prints once it listens.
var servingRE = regexp.MustCompile(`MiniS3 playground: (http://\S+)/\n`)

// ServeMinis3 builds cmd/minis3 from the current source (once per test
// binary) and runs `minis3 serve` with dir as its static files, a fresh data
// directory and loopback ports the kernel picks: the playground served with
// the headers, validators and precompressed files of the real server. The
// process stops in t.Cleanup, or earlier with Stop.
func ServeMinis3(t testing.TB, dir string) *Minis3 {
	t.Helper()
	root := RepoRoot(t)
	binary.once.Do(func() {
		tmp, err := os.MkdirTemp("", "minis3-bin-")
		if err != nil {
			binary.err = err
			return
		}
		binary.path = filepath.Join(tmp, "minis3")
		cmd := exec.Command("go", "build", "-o", binary.path, "./cmd/minis3")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			binary.err = &buildError{err: err, output: string(out)}
		}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	m := &Minis3{exited: make(chan struct{})}
	m.cmd = exec.Command(binary.path, "serve", "--addr", "127.0.0.1:0", "--s3-addr", "127.0.0.1:0",
		"--data", t.TempDir(), "--static", dir, "--clock", "manual")
	m.cmd.Stdout = (*lockedWriter)(m)
	m.cmd.Stderr = (*lockedWriter)(m)
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = m.cmd.Wait()
		close(m.exited)
	}()
	t.Cleanup(m.Stop)
	for until := time.Now().Add(10 * time.Second); time.Now().Before(until); {
		if match := servingRE.FindStringSubmatch(m.output()); match != nil {
			m.URL = match[1]
			return m
		}
		select {
		case <-m.exited:
			t.Fatalf("minis3 serve exited before serving:\n%s", m.output())
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("minis3 serve printed no address after 10 s:\n%s", m.output())
	return nil
}

// Stop kills the server and waits for it to exit: the site is then
// unreachable, as for a reader gone offline.
func (m *Minis3) Stop() {
	select {
	case <-m.exited:
	default:
		_ = m.cmd.Process.Kill()
		<-m.exited
	}
}

func (m *Minis3) output() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.out.String()
}

type lockedWriter Minis3

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.Write(p)
}

// Precompress writes minis3.wasm.gz and, when the brotli command is
// installed, minis3.wasm.br beside dir's minis3.wasm, as `make wasm` does,
// so that minis3 serve sends the wasm compressed.
func Precompress(t testing.TB, dir string) {
	t.Helper()
	wasm := filepath.Join(dir, "minis3.wasm")
	data, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wasm+".gz", gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("brotli"); err != nil {
		return
	}
	if out, err := exec.Command("brotli", "-q", "9", "-f", "-o", wasm+".br", wasm).CombinedOutput(); err != nil {
		t.Fatalf("brotli: %v\n%s", err, out)
	}
}

// Site is a course site: pages of its own beside the playground, on one
// origin, so that a page can look into its embeds.
type Site struct {
	// URL is the site's base URL, without a slash.
	URL string
	srv *httptest.Server
}

// CourseSite serves the directory pages at /course/ (as a plain static host
// would, with no policy of the playground's) and passes every other request
// to m unchanged, headers and compressed bodies included. Close takes the
// whole site offline.
func (m *Minis3) CourseSite(t testing.TB, pages string) *Site {
	t.Helper()
	upstream, err := url.Parse(m.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(upstream)
	files := http.StripPrefix("/course", http.FileServer(http.Dir(pages)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/course/") {
			files.ServeHTTP(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return &Site{URL: srv.URL, srv: srv}
}

// Close stops the site: its address refuses connections from then on.
func (s *Site) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}
