package workertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	once              sync.Once
	dir               string
	wasm, tests, err  string
	wasmExec, cleanup string
}

// buildWasm compiles the worker's Go program and dostore's tests to wasm.
func buildWasm(t *testing.T) (wasm, tests, wasmExec string) {
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
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// options are what a worker starts with (miniflare.mjs).
type options struct {
	Root          string `json:"root"`
	Wasm          string `json:"wasm"`
	WasmExec      string `json:"wasmExec"`
	Tests         string `json:"testsWasm"`
	Persist       string `json:"persist"`
	Secret        string `json:"secret"`
	Clock         string `json:"clock"`
	ClockOffsetMs int64  `json:"clockOffsetMs"`
	HTTPSKey      string `json:"httpsKey"`
	HTTPSCert     string `json:"httpsCert"`
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

// startWorker runs the worker under Miniflare with a manual clock (or
// clock) until the test ends.
func startWorker(t *testing.T, clock string) *worker {
	t.Helper()
	if _, err := os.Stat(filepath.Join("node_modules", "miniflare")); err != nil {
		t.Fatal("Miniflare is missing: install the test's npm packages with `npm ci --prefix deploy/cloudflare/workertest` (make test does it)")
	}
	wasm, tests, wasmExec := buildWasm(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	key, cert := workerCertificate(t)
	opts := options{Root: root, Wasm: wasm, WasmExec: wasmExec, Tests: tests, Persist: t.TempDir(), Secret: classSecret, Clock: clock,
		HTTPSKey: key, HTTPSCert: cert}
	arg, err := json.Marshal(opts)
	if err != nil {
		t.Fatal(err)
	}
	w := &worker{http: httpClient(t), cmd: exec.Command("node", "miniflare.mjs", string(arg)), urls: make(chan string, 1), log: &lockedBuffer{}, done: make(chan struct{})}
	w.cmd.Stderr = w.log
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if w.stdin, err = w.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
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
	t.Cleanup(func() {
		w.stdin.Close()
		select {
		case <-w.done:
		case <-time.After(30 * time.Second):
			_ = w.cmd.Process.Kill()
		}
		_ = w.cmd.Wait()
		if t.Failed() {
			t.Logf("Miniflare's output:\n%s", w.log)
		}
	})
	w.URL = w.waitForURL(t)
	return w
}

// waitForURL waits for the URL Miniflare serves at.
func (w *worker) waitForURL(t *testing.T) string {
	t.Helper()
	select {
	case url := <-w.urls:
		return url
	case <-w.done:
		t.Fatalf("Miniflare stopped before serving:\n%s", w.log)
	case <-time.After(60 * time.Second):
		t.Fatalf("Miniflare did not serve within 60 s:\n%s", w.log)
	}
	return ""
}

// restart restarts Miniflare with change (a JSON object of options):
// every Durable Object and its Go instance is dropped; storage stays.
func (w *worker) restart(t *testing.T, change map[string]any) {
	t.Helper()
	line, err := json.Marshal(change)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.stdin.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	w.URL = w.waitForURL(t)
}

// instructor sends a class operation with the class secret (or secret,
// when not empty) and decodes its JSON answer into out.
func (w *worker) instructor(t *testing.T, method, path, secret string, out any) int {
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
func (w *worker) student(t *testing.T, accessKey string) student {
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
