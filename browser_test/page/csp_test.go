//go:build !js

package page

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"minis3/browser_test/chrome"
)

// pagePolicy is the Content-Security-Policy of static/index.html, and the
// header a static host should send with the page (docs/RELIABILITY.md,
// "Page"). frame-ancestors is left out on purpose: course pages embed the
// playground in an iframe.
const pagePolicy = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; connect-src 'self' https:; object-src 'none'; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types minis3 minis3-xml minis3-offline"

// watcher runs in every document of a watched tab before the page's own
// scripts. It records Content-Security-Policy violations, uncaught errors,
// failed resource loads and unhandled promise rejections in
// window.__problems.
const watcher = `(() => {
	const seen = [];
	Object.defineProperty(window, "__problems", { value: seen });
	addEventListener("securitypolicyviolation", (e) => seen.push("csp " + e.effectiveDirective + " blocked " + e.blockedURI + " " + e.sample), true);
	addEventListener("error", (e) => seen.push("error " + (e.message || (e.target instanceof Element ? "loading " + e.target.tagName : e.type))), true);
	addEventListener("unhandledrejection", (e) => seen.push("unhandled rejection " + String(e.reason && e.reason.message || e.reason)));
})();`

// openWatched is open with the watcher installed before the first load.
func openWatched(t *testing.T, url string, w, h int64) *chrome.Page {
	t.Helper()
	p := chrome.Launch(t).Open(t, "about:blank")
	do(t, p, chromedp.EmulateViewport(w, h))
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: watcher}); err != nil {
		t.Fatalf("installing the watcher: %v", err)
	}
	p.Navigate(t, url)
	return p
}

// problems returns what the watcher recorded in the document reached by
// doc (a JavaScript expression for a Document), and the console's errors
// and uncaught exceptions.
func problems(t *testing.T, p *chrome.Page, doc string) []string {
	t.Helper()
	got := chrome.Eval[[]string](t, p, `const w = (`+doc+`).defaultView; return w.__problems ? [...w.__problems] : ["the watcher is not installed"]`)
	for _, line := range p.Console() {
		if strings.HasPrefix(line, "error: ") || strings.HasPrefix(line, "exception: ") {
			got = append(got, "console "+line)
		}
	}
	return got
}

func wantNoProblems(t *testing.T, p *chrome.Page) {
	t.Helper()
	for _, line := range problems(t, p, "document") {
		t.Errorf("page problem: %s", line)
	}
}

// policySite serves the playground with pagePolicy as an HTTP header on
// every file of static/ (the page then runs under the header and its meta
// tag), and testdata/ under /test/ without it, as a course site would.
func policySite(t *testing.T) string {
	t.Helper()
	static := http.FileServer(http.Dir(chrome.Static(t)))
	course := http.StripPrefix("/test", http.FileServer(http.Dir("testdata")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if strings.HasPrefix(r.URL.Path, "/test/") {
			course.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Security-Policy", pagePolicy)
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		static.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestIndexPolicyForbidsInlineAndRemote reads the policy of static/index.html:
// it is pagePolicy, which allows scripts and styles from the page's own
// origin only (no inline code, no eval, no remote origin), WebAssembly
// compilation, Trusted Types through the page's two policies only, and no
// directive a meta tag cannot carry.
func TestIndexPolicyForbidsInlineAndRemote(t *testing.T) {
	t.Parallel()
	html, err := os.ReadFile(filepath.Join(chrome.RepoRoot(t), "static", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindAllSubmatch(html, -1)
	if len(m) != 1 {
		t.Fatalf("index.html has %d Content-Security-Policy meta tags, want 1", len(m))
	}
	policy := string(m[0][1])
	if policy != pagePolicy {
		t.Errorf("index.html policy\n%s\nwant (the documented header)\n%s", policy, pagePolicy)
	}
	directives := map[string][]string{}
	for _, d := range strings.Split(policy, ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			directives[f[0]] = f[1:]
		}
	}
	for name, sources := range directives {
		for _, s := range sources {
			// https: in connect-src: scenario and course files on other
			// sites (docs/EMBEDDING.md), read as data under CORS.
			if s != "'self'" && s != "'none'" && !(name == "script-src" && s == "'wasm-unsafe-eval'") && !(name == "connect-src" && s == "https:") && name != "require-trusted-types-for" && name != "trusted-types" {
				t.Errorf("%s allows %s", name, s)
			}
		}
	}
	for _, name := range []string{"default-src", "script-src", "style-src", "connect-src", "object-src", "base-uri", "form-action"} {
		if directives[name] == nil {
			t.Errorf("the policy lacks %s", name)
		}
	}
	if !slices.Equal(directives["require-trusted-types-for"], []string{"'script'"}) {
		t.Errorf("require-trusted-types-for %v, want 'script'", directives["require-trusted-types-for"])
	}
	if !slices.Equal(directives["trusted-types"], []string{"minis3", "minis3-xml", "minis3-offline"}) {
		t.Errorf("trusted-types %v, want the page's three policies, minis3, minis3-xml and minis3-offline", directives["trusted-types"])
	}
	if !slices.Equal(directives["default-src"], []string{"'none'"}) {
		t.Errorf("default-src %v, want 'none'", directives["default-src"])
	}
	for _, name := range []string{"frame-ancestors", "sandbox", "report-uri"} {
		if directives[name] != nil {
			t.Errorf("%s is ignored in a meta tag; send it as a header", name)
		}
	}
}

// TestFullFlowRunsUnderPolicy clicks through every feature of the page
// served with the policy as a header as well, and requires that nothing was
// blocked and nothing failed: no violation event, no uncaught error, no
// unhandled rejection, no console error.
func TestFullFlowRunsUnderPolicy(t *testing.T) {
	t.Parallel()
	p := openWatched(t, policySite(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "demo"), click("#create-bucket-form button[type=submit]"))
	act(t, p, click("#enable-btn"))
	act(t, p, typeInto("#obj-key", "logs/app.log"), typeInto("#obj-body", "old"), click("#put-btn"))
	setClock(t, p, "5")
	act(t, p, typeInto("#obj-body", "current"), click("#put-btn"))
	do(t, p, click("#add-rule-btn"), typeInto("#rule-0-id", "logs"), typeInto("#rule-0-prefix", "logs/"), typeInto("#rule-0-noncurrent", "1"))
	p.WaitFor(t, `!document.getElementById("tick-btn").disabled`)
	act(t, p, click(`button.step-btn[data-step="5"]`))
	act(t, p, click("#preview-btn"))
	act(t, p, click("#tick-btn"))
	act(t, p, click("#get-btn"))
	act(t, p, click("#delete-btn"))
	act(t, p, typeInto("#mp-key", "big/file"), typeInto("#mp-parts", "hello\nworld"), click("#multipart-form button[type=submit]"))
	chrome.Eval[bool](t, p, `for (const d of document.querySelectorAll("#history details")) d.open = true; return true`)
	runScenario(t, p, "worked-example")
	do(t, p, click("#share-btn"))
	p.WaitFor(t, `document.getElementById("share-dialog").open`)
	link := chrome.Eval[string](t, p, `return document.getElementById("share-url").value`)
	do(t, p, click(`#share-dialog button[value="close"]`))
	do(t, p, click("#reset-btn"))
	p.WaitFor(t, `document.getElementById("confirm-dialog").open`)
	do(t, p, click("#confirm-ok"))
	p.WaitFor(t, `document.getElementById("status").textContent.includes("empty again")`)
	wantNoProblems(t, p)

	// A query makes the navigation load the page again (with the fragment
	// alone it would only fire hashchange).
	p.Navigate(t, strings.Replace(link, "/#", "/?opened=1#", 1))
	waitReady(t, p)
	p.WaitFor(t, `document.getElementById("status").textContent.startsWith("Restored")`)
	wantNoProblems(t, p)
}

// TestPolicyBlocksInjectedCode proves the policy is active in the page:
// code added through the DOM as an inline event handler, an inline script,
// an HTML string, a script URL, a remote script, a fetch to another origin,
// a string timer, a javascript: URL or an inline style attribute is
// refused, with a violation event each, and none of it runs; no script
// makes a Trusted Types policy but the page's own three, once.
func TestPolicyBlocksInjectedCode(t *testing.T) {
	t.Parallel()
	p := openWatched(t, site(t)+"/", 1280, 800)
	waitReady(t, p)
	got := chrome.Eval[map[string]string](t, p, `
		const out = {};
		// Each injection either throws (Trusted Types refuse the string
		// before anything happens) or is blocked when it would run.
		const attempt = (name, f) => { try { f(); out[name] = "no exception"; } catch (e) { out[name] = e.name; } };
		attempt("onerror attribute", () => document.createElement("img").setAttribute("onerror", "window.__pwned = 'onerror'"));
		attempt("inline script text", () => { document.createElement("script").textContent = "window.__pwned = 'inline script'"; });
		attempt("HTML string", () => document.body.insertAdjacentHTML("beforeend", "<img src=x onerror=\"window.__pwned = 'html'\">"));
		attempt("script URL of the page", () => { document.createElement("script").src = "/app/main.js"; });
		attempt("string timer", () => setTimeout("window.__pwned = 'string timer'"));
		attempt("another policy", () => trustedTypes.createPolicy("evil", { createHTML: (s) => s }));
		attempt("a second minis3-xml policy", () => trustedTypes.createPolicy("minis3-xml", { createHTML: (s) => s }));
		attempt("remote script", () => { document.createElement("script").src = "https://evil.example/x.js"; });
		out["fetch to another origin"] = await fetch("http://evil.example/data").then(() => "fetched", (e) => e.name);
		const a = document.createElement("a");
		a.href = "javascript:window.__pwned = 'javascript url'";
		document.body.append(a);
		a.click();
		const styled = document.createElement("p");
		styled.setAttribute("style", "color: red");
		document.body.append(styled);
		out["style attribute"] = getComputedStyle(styled).color === "rgb(255, 0, 0)" ? "applied" : "blocked";
		return out;`)
	want := map[string]string{
		"onerror attribute": "TypeError", "inline script text": "TypeError", "HTML string": "TypeError",
		"script URL of the page": "TypeError", "remote script": "TypeError", "string timer": "TypeError",
		"another policy": "TypeError", "a second minis3-xml policy": "TypeError",
		"fetch to another origin": "TypeError", "style attribute": "blocked",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
	// One violation per injection, in order (the javascript: URL counts
	// as script-src-elem "inline"); a Trusted Types report ends with a
	// sample of the refused string, which is left out here.
	violations := []string{
		"csp require-trusted-types-for blocked trusted-types-sink Element onerror|",
		"csp require-trusted-types-for blocked trusted-types-sink HTMLScriptElement textContent|",
		"csp require-trusted-types-for blocked trusted-types-sink Element insertAdjacentHTML|",
		"csp require-trusted-types-for blocked trusted-types-sink HTMLScriptElement src|/app/main.js",
		"csp require-trusted-types-for blocked trusted-types-sink Window setTimeout|",
		"csp trusted-types blocked trusted-types-policy evil",
		"csp trusted-types blocked trusted-types-policy minis3-xml",
		"csp require-trusted-types-for blocked trusted-types-sink HTMLScriptElement src|https://evil.example/x.js",
		"csp connect-src blocked http://evil.example/data",
		"csp script-src-elem blocked inline",
		"csp style-src-attr blocked inline",
	}
	p.WaitFor(t, `(() => {
		const seen = window.__problems.map((x) => x.trim());
		const want = `+quote(strings.Join(violations, "\n"))+`.split("\n");
		return seen.length === want.length && want.every((w, i) => seen[i].startsWith(w));
	})()`)
	if v := chrome.Eval[any](t, p, `return window.__pwned ?? null`); v != nil {
		t.Errorf("injected code ran: window.__pwned = %v", v)
	}
	// The remote script is refused before any request: the page stays usable.
	act(t, p, typeInto("#new-bucket", "after"), click("#create-bucket-form button[type=submit]"))
	if got := text(t, p, "#bucket-select"); got != "after" {
		t.Errorf("bucket list %q after the blocked code, want after", got)
	}
}

// TestEmbedUnderPolicyHeader embeds the playground, served with the policy
// header, in a course page of another document: the header has no
// frame-ancestors, so the iframe loads, and the embed runs its scenario
// without a violation inside the frame.
func TestEmbedUnderPolicyHeader(t *testing.T) {
	t.Parallel()
	p := openWatched(t, policySite(t)+"/test/embed.html", 1280, 900)
	const doc = `document.getElementById("a").contentDocument`
	p.WaitFor(t, doc+`?.getElementById("load-btn") && !`+doc+`.getElementById("load-btn").hidden`)
	chrome.Eval[bool](t, p, `return `+doc+`.getElementById("load-btn").click() ?? true`)
	p.WaitFor(t, doc+`.body.dataset.ready === "true" && `+doc+`.getElementById("scenario-summary").textContent.includes("0 of ")`)
	chrome.Eval[bool](t, p, `return `+doc+`.getElementById("scenario-run-btn").click() ?? true`)
	p.WaitFor(t, `(() => { const m = `+doc+`.getElementById("scenario-summary").textContent.match(/(\d+) of (\d+) steps run/); return m && m[1] === m[2] && !`+doc+`.body.classList.contains("busy"); })()`)
	if got := chrome.Eval[string](t, p, `return `+doc+`.getElementById("scenario-summary").textContent`); !strings.Contains(got, "the store did what each step expects") {
		t.Errorf("embed under the policy header: %q", got)
	}
	for _, line := range problems(t, p, doc) {
		t.Errorf("problem in the embed: %s", line)
	}
}
