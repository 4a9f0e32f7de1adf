package workertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// classSecret is the class secret of the tests' worker.
const classSecret = "the class secret of the tests"

var ctx = context.Background()

// built is the Go program and the dostore test binary, compiled once for
// GOOS=js by the first test that needs them.
var built struct {
	once             sync.Once
	dir              string
	wasm, tests, err string
	wasmExec         string
}

// buildWasm compiles the worker's Go program and dostore's tests to wasm.
func buildWasm(t testing.TB) (wasm, tests, wasmExec string) {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "minis3-workertest-")
		if err != nil {
			built.err = err.Error()
			return
		}
		built.dir = dir
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		built.wasm, built.tests = filepath.Join(dir, "minis3.wasm"), filepath.Join(dir, "dostore.test.wasm")
		for _, args := range [][]string{
			{"build", "-trimpath", "-ldflags=-s -w", "-o", built.wasm, ".."},
			{"test", "-c", "-o", built.tests, "../dostore"},
		} {
			cmd := exec.Command(goTool, args...)
			cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
			if out, err := cmd.CombinedOutput(); err != nil {
				built.err = fmt.Sprintf("go %s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
		}
		built.wasmExec = filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
	})
	if built.err != "" {
		t.Fatal(built.err)
	}
	return built.wasm, built.tests, built.wasmExec
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.w != nil {
		shared.w.stop()
	}
	for _, dir := range []string{shared.dir, built.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// options are what a worker starts with (miniflare.mjs).
type options struct {
	Root      string `json:"root"`
	Wasm      string `json:"wasm"`
	WasmExec  string `json:"wasmExec"`
	Tests     string `json:"testsWasm,omitempty"`
	Persist   string `json:"persist"`
	Secret    string `json:"secret"`
	Clock     string `json:"clock"`
	HTTPSKey  string `json:"httpsKey"`
	HTTPSCert string `json:"httpsCert"`
}

// worker is the worker running under Miniflare.
type worker struct {
	URL   string
	http  *http.Client // trusts the worker's certificate
	cmd   *exec.Cmd
	stdin io.WriteCloser
	urls  chan string
	log   *lockedBuffer
	done  chan struct{}
}

// startWorker runs the worker under Miniflare on its own, with a manual
// clock (or clock), until the test ends.
func startWorker(t testing.TB, clock string) *worker {
	t.Helper()
	return start(t, options{Clock: clock, Persist: t.TempDir()})
}

// startConformance runs testdata/conformance.mjs under Miniflare, on its
// own, until the test ends.
func startConformance(t testing.TB) *worker {
	t.Helper()
	_, tests, _ := buildWasm(t)
	return start(t, options{Tests: tests, Persist: t.TempDir()})
}

// shared is one worker with a manual clock for the tests that can share
// it, each with students of its own: started by the first, stopped by
// TestMain.
var shared struct {
	once sync.Once
	w    *worker
	dir  string
	err  error
}

// sharedWorker returns the shared worker.
func sharedWorker(t testing.TB) *worker {
	t.Helper()
	buildWasm(t)
	workerCertificate(t)
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "minis3-workertest-shared-"); shared.err != nil {
			return
		}
		shared.w, shared.err = launch(t, options{Clock: "manual", Persist: shared.dir})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Miniflare's output so far:\n%s", shared.w.log)
		}
	})
	return shared.w
}

// start launches Miniflare with opts and stops it when the test ends.
func start(t testing.TB, opts options) *worker {
	t.Helper()
	w, err := launch(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		w.stop()
		if t.Failed() {
			t.Logf("Miniflare's output:\n%s", w.log)
		}
	})
	return w
}

// launch starts Miniflare (miniflare.mjs) with opts, to which it adds the
// paths, the class secret and the HTTPS certificate, and waits until it
// serves.
func launch(t testing.TB, opts options) (*worker, error) {
	if _, err := os.Stat(filepath.Join("node_modules", "miniflare")); err != nil {
		return nil, errors.New("Miniflare is missing: install the test's npm packages with `npm ci --prefix deploy/cloudflare/workertest` (make test does it)")
	}
	wasm, _, wasmExec := buildWasm(t)
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	opts.Root, opts.Wasm, opts.WasmExec, opts.Secret = root, wasm, wasmExec, classSecret
	opts.HTTPSKey, opts.HTTPSCert = workerCertificate(t)
	arg, err := json.Marshal(opts)
	if err != nil {
		return nil, err
	}
	w := &worker{http: httpClient(t), cmd: exec.Command("node", "miniflare.mjs", string(arg)), urls: make(chan string, 1), log: &lockedBuffer{}, done: make(chan struct{})}
	w.cmd.Stderr = w.log
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if w.stdin, err = w.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := w.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		defer close(w.done)
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if url, ok := strings.CutPrefix(lines.Text(), "url "); ok {
				w.urls <- strings.TrimSuffix(url, "/")
			} else {
				fmt.Fprintln(w.log, lines.Text())
			}
		}
	}()
	if w.URL, err = w.waitForURL(); err != nil {
		w.stop()
		return nil, err
	}
	return w, nil
}

// stop stops Miniflare: it closes its standard input, and kills it if it
// has not stopped 30 s later.
func (w *worker) stop() {
	w.stdin.Close()
	select {
	case <-w.done:
	case <-time.After(30 * time.Second):
		_ = w.cmd.Process.Kill()
	}
	_ = w.cmd.Wait()
}

// waitForURL waits for the URL Miniflare serves at.
func (w *worker) waitForURL() (string, error) {
	select {
	case url := <-w.urls:
		return url, nil
	case <-w.done:
		return "", fmt.Errorf("Miniflare stopped before serving:\n%s", w.log)
	case <-time.After(120 * time.Second):
		return "", fmt.Errorf("Miniflare did not serve within 120 s:\n%s", w.log)
	}
}

// restart restarts Miniflare with change (a JSON object of options):
// every Durable Object and its Go instance is dropped; storage stays.
func (w *worker) restart(t testing.TB, change map[string]any) {
	t.Helper()
	line, err := json.Marshal(change)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.stdin.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	if w.URL, err = w.waitForURL(); err != nil {
		t.Fatal(err)
	}
}

// instructor sends a class operation with the class secret (or secret,
// when not empty) and decodes its JSON answer into out.
func (w *worker) instructor(t testing.TB, method, path, secret string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, w.URL+"/_minis3/class/"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := w.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, body, err)
	}
	return resp.StatusCode
}

// student is a student's key pair, as the instructor gets it.
type student struct {
	AccessKeyID     string `json:"accessKeyId"`
	SecretAccessKey string `json:"secretAccessKey"`
}

// student asks the worker for the key pair of accessKey.
func (w *worker) student(t testing.TB, accessKey string) student {
	t.Helper()
	var s student
	if status := w.instructor(t, "GET", "credentials/"+accessKey, classSecret, &s); status != 200 || s.AccessKeyID != accessKey || s.SecretAccessKey == "" {
		t.Fatalf("credentials of %s: %d %+v", accessKey, status, s)
	}
	return s
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
