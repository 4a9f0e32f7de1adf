//go:build !js

// Package chrome is the headless-Chromium harness of MiniS3's page tests.
// It is for native Go tests (go test ./...), never for GOOS=js.
//
// A page test does three things: serve files over loopback, start a browser,
// and evaluate JavaScript in a tab. For example:
//
//	func TestSomething(t *testing.T) {
//		site := chrome.Static(t)                   // static/ with a freshly built minis3.wasm
//		srv := chrome.Serve(t, chrome.Mounts{
//			"/":      site,
//			"/test/": "testdata",
//		}, nil)
//		page := chrome.Launch(t).Open(t, srv.URL+"/test/jsapi.html")
//		page.WaitFor(t, `globalThis.minis3 !== undefined`)
//		n := chrome.Eval[float64](t, page, `
//			const store = await minis3.open({ memory: true });
//			return store.now();`)
//		...
//	}
//
// The pieces:
//
//   - [Static] builds the wasm main package (./wasm) with GOOS=js GOARCH=wasm
//     once per test binary and returns a directory holding a copy of the
//     repository's static/ with that minis3.wasm and the matching
//     wasm_exec.js, so a test never runs a stale build.
//   - [Serve] starts an httptest server on 127.0.0.1 that serves directories
//     at URL prefixes, with .wasm as application/wasm, no caching, and any
//     extra headers (for example a Content-Security-Policy).
//   - [ServeMinis3] runs the real `minis3 serve` over a directory (its
//     headers, validators and precompressed files; [Precompress] writes
//     those), and [Minis3.CourseSite] puts a directory of course pages
//     beside it on one origin, which [Site.Close] takes offline.
//   - [Launch] starts Debian's Chromium (/usr/bin/chromium, or chromium on
//     PATH; the test fails, never skips, when it is missing: run `make
//     chromium`) headless with --no-sandbox --disable-gpu --disable-quic
//     --no-first-run --disable-background-networking
//     --disable-component-update --disable-sync and a fresh --user-data-dir,
//     so IndexedDB starts empty for every browser. The browser stops in
//     t.Cleanup, or at [Browser.Close]; [LaunchProfile] starts another on
//     the same profile, as a reader's later visit.
//   - [Browser.Open] opens a tab at a URL and waits for the load event.
//     [Page.Reload] and [Page.Navigate] keep the same browser profile, so
//     IndexedDB survives them.
//   - [Eval] runs a JavaScript function body in the page as
//     `(async () => { BODY })()`, awaits it, and decodes its JSON result into
//     T. A rejected promise or a thrown error fails the test with the
//     JavaScript message; [Page.Try] returns it as an error instead, to test
//     failures. [Page.WaitFor] polls an expression until it is truthy, with
//     a bound.
//
// Every tab's console messages and uncaught exceptions are collected and
// written to the test log when the test fails.
package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Timeouts of the harness. They are generous: a cold start of the wasm in a
// loaded CI machine can take a few seconds.
const (
	// EvalTimeout bounds one Eval, Try, Open, Reload or Navigate.
	EvalTimeout = 60 * time.Second
	// WaitTimeout bounds one WaitFor.
	WaitTimeout = 60 * time.Second
)

// ExecPath finds Debian's Chromium: /usr/bin/chromium, else chromium on PATH.
func ExecPath() (string, error) {
	const debian = "/usr/bin/chromium"
	if _, err := os.Stat(debian); err == nil {
		return debian, nil
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		return "", errors.New("chromium not found (install Debian's chromium: make chromium)")
	}
	return p, nil
}

// Browser is a headless Chromium started by Launch.
type Browser struct {
	ctx  context.Context // the browser's first tab; Open makes siblings
	stop func()
}

// Launch starts a headless Chromium with a fresh profile for the test. It
// fails the test when Chromium is missing or does not start.
func Launch(t testing.TB) *Browser {
	t.Helper()
	return LaunchProfile(t, t.TempDir())
}

// LaunchProfile is Launch with the user data directory profile, which a
// browser launched earlier in the test may have used: a later visit of the
// same reader.
func LaunchProfile(t testing.TB, profile string) *Browser {
	t.Helper()
	path, err := ExecPath()
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Containers often have a tiny /dev/shm; Chromium then crashes tabs.
		chromedp.Flag("disable-dev-shm-usage", true),
		// A test's tabs all run at full speed, as a reader's visible ones:
		// a tab in the background would get its timers (which the Go
		// runtime's scheduler uses) throttled to a CPU budget, which a
		// loaded machine spends in no time.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.UserDataDir(profile),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			cancelAlloc() // waits for the browser process to exit, before TempDir cleanup
		})
	}
	t.Cleanup(stop)
	start, cancelStart := context.WithTimeout(ctx, EvalTimeout)
	defer cancelStart()
	// The first Run starts the browser; it must use ctx itself, not a child
	// with a timeout, or the timeout would stop the browser.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("starting chromium: %v", err)
		}
	case <-start.Done():
		t.Fatalf("starting chromium: no browser after %v", EvalTimeout)
	}
	return &Browser{ctx: ctx, stop: stop}
}

// Close stops the browser before the end of the test, as a reader closing
// it: what the profile keeps on disk (HTTP cache, code cache, IndexedDB,
// service workers) stays for a later Launch of the same profile
// (LaunchProfile).
func (b *Browser) Close() { b.stop() }

// Page is one browser tab.
type Page struct {
	ctx context.Context

	mu      sync.Mutex
	console []string
}

// Open opens a new tab at url and waits for its load event. The tab closes in
// t.Cleanup; its console is logged if the test fails.
func (b *Browser) Open(t testing.TB, url string) *Page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	p := &Page{ctx: ctx}
	messages := chromedp.Console(ctx)
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, m.String())
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-collected
		if t.Failed() {
			for _, line := range p.Console() {
				t.Logf("console %s", line)
			}
		}
	})
	p.Navigate(t, url)
	return p
}

// Console returns the console messages and uncaught exceptions of the tab
// so far, each as "type: text".
func (p *Page) Console() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.console...)
}

// Navigate loads url in the tab and waits for the load event.
func (p *Page) Navigate(t testing.TB, url string) {
	t.Helper()
	if err := p.do(chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate to %s: %v", url, err)
	}
}

// Reload reloads the tab and waits for the load event. The Go instance of
// the page is gone afterwards; IndexedDB stays.
func (p *Page) Reload(t testing.TB) {
	t.Helper()
	if err := p.do(chromedp.Reload()); err != nil {
		t.Fatalf("reload: %v", err)
	}
}

func (p *Page) do(a chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(p.ctx, EvalTimeout)
	defer cancel()
	_, err := chromedp.Run(ctx, a)
	return err
}

// Try runs body as the body of an async JavaScript function in the page and
// decodes the JSON value it returns into out (which may be nil). A thrown
// error or rejected promise is returned as an error whose text holds the
// JavaScript message. To see an S3 error code, return it from body:
//
//	try { await store.get("b", "k") } catch (e) { return e.code }
func (p *Page) Try(body string, out any) error {
	ctx, cancel := context.WithTimeout(p.ctx, EvalTimeout)
	defer cancel()
	// JSON.stringify here, then decode in Go: undefined becomes null and a
	// Uint8Array becomes an object, never a protocol error.
	expr := "(async () => { const __r = await (async () => {\n" + body + "\n})(); return JSON.stringify(__r === undefined ? null : __r); })()"
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("javascript: %w", err)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal([]byte(raw), out); err != nil {
		return fmt.Errorf("decoding %s: %w", raw, err)
	}
	return nil
}

// Eval is Try that fails the test on error and returns the decoded result.
func Eval[T any](t testing.TB, p *Page, body string) T {
	t.Helper()
	var out T
	if err := p.Try(body, &out); err != nil {
		t.Fatalf("%v\nscript:\n%s", err, strings.TrimSpace(body))
	}
	return out
}

// WaitFor polls the JavaScript expression expr every 20 ms until it is
// truthy, and fails the test after WaitTimeout.
func (p *Page) WaitFor(t testing.TB, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, WaitTimeout)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool]("Boolean("+expr+")", chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(WaitTimeout)))
	if err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// Screenshot captures the whole page as PNG.
func (p *Page) Screenshot(t testing.TB) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, EvalTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return png
}

// Context is the chromedp context of the tab, for actions the harness does
// not wrap (clicks, key presses, queries). Derive a timeout from it for each
// call; do not cancel it.
func (p *Page) Context() context.Context { return p.ctx }
