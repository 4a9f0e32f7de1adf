//go:build !js

package page

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"minis3/browser_test/chrome"
)

// hostile are strings that would run code or scramble the page if any path
// interpreted them instead of showing them as text. Each fits an S3 key
// (at most 1024 bytes of UTF-8) and has no leading or trailing space.
var hostile = []struct{ name, s string }{
	{"img onerror", `<img src=x onerror="window.__pwned=1">`},
	{"script end tag", `</script><script>window.__pwned=1</script>`},
	{"attribute break", `"><svg onload="window.__pwned=1">`},
	{"javascript URL", `javascript:window.__pwned=1//`},
	{"RTL override", "report\u202Eexe.gpj"},
	{"zero width", "a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf"},
	{"NUL", "nul\x00byte"},
	{"emoji and combining marks", emojiKiB()},
	{"1024-byte key", strings.Repeat("k", 1024)},
	{"stray isolate pop", "\u2069\u202Egnp.exe\u2067"},
}

// isolated is a datum as the page's one-line messages hold it (isolate in
// static/app/model.js): between U+2068 and U+2069, with one more U+2068 per
// unmatched U+2069 in it and one more U+2069 per isolate it leaves open.
func isolated(s string) string {
	open, stray := 0, 0
	for _, r := range s {
		switch {
		case r >= '\u2066' && r <= '\u2068':
			open++
		case r == '\u2069' && open > 0:
			open--
		case r == '\u2069':
			stray++
		}
	}
	return strings.Repeat("\u2068", stray+1) + s + strings.Repeat("\u2069", open+1)
}

// emojiKiB is about 1 KiB of UTF-8: family emoji with zero-width joiners and
// a letter under a pile of combining marks.
func emojiKiB() string {
	var b strings.Builder
	for b.Len() < 990 {
		b.WriteString("👩\u200d👩\u200d👧\u200d👦Z\u0337\u0322\u031b\u0348\u0301")
	}
	return b.String()
}

// typeText puts text into the field sel the way an input method does
// (Input.insertText over the selected old value), so the page sees real
// input events with any characters, NUL and emoji included.
func typeText(t *testing.T, p *chrome.Page, sel, text string) {
	t.Helper()
	chrome.Eval[bool](t, p, `const e = document.querySelector(`+quote(sel)+`); e.focus(); e.select(); return true`)
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		t.Fatalf("typing into %s: %v", sel, err)
	}
	if got := chrome.Eval[string](t, p, `return document.querySelector(`+quote(sel)+`).value`); got != text {
		t.Fatalf("%s holds %q after typing, want %q", sel, got, text)
	}
}

// safeCheck lists what hostile data could have done to the page: code that
// ran, elements or event-handler attributes made from data, javascript:
// URLs, and the watcher's problems (CSP violations, errors).
const safeCheck = `
	const bad = [];
	if (window.__pwned !== undefined) bad.push("window.__pwned = " + String(window.__pwned));
	const made = document.body.querySelectorAll("img, svg, script, iframe, object, embed, style, link, meta, base, math, video, audio, source, frame, frameset");
	if (made.length > 0) bad.push(made.length + " elements made from data, the first " + made[0].tagName);
	if (document.querySelectorAll("a").length !== 1) bad.push(document.querySelectorAll("a").length + " links, want the skip link only");
	if (document.scripts.length !== 3) bad.push(document.scripts.length + " scripts, want preload.js, main.js and wasm_exec.js");
	for (const el of document.querySelectorAll("*")) {
		for (const a of el.attributes) {
			if (a.name.startsWith("on")) bad.push(el.tagName + " has " + a.name);
			if (["href", "src", "action", "formaction"].includes(a.name) && a.value.trim().toLowerCase().startsWith("javascript:")) bad.push(el.tagName + " " + a.name + " is a javascript: URL");
		}
	}
	return bad.concat(window.__problems);`

func wantSafe(t *testing.T, p *chrome.Page) {
	t.Helper()
	for _, b := range chrome.Eval[[]string](t, p, safeCheck) {
		t.Errorf("hostile data: %s", b)
	}
	for _, line := range p.Console() {
		if strings.HasPrefix(line, "exception: ") || strings.Contains(line, "Content Security Policy") {
			t.Errorf("console %s", line)
		}
	}
}

// newestHistory is the title of the newest history entry.
func newestHistory(t *testing.T, p *chrome.Page) string {
	t.Helper()
	return chrome.Eval[string](t, p, `return document.querySelector("#history > li .hist-what")?.textContent ?? ""`)
}

// stackKey is the text of the key heading of the stack whose data-key is
// key, or "" when there is none.
func stackKey(t *testing.T, p *chrome.Page, key string) string {
	t.Helper()
	k, _ := json.Marshal(key)
	return chrome.Eval[string](t, p, `const k = `+string(k)+`; return [...document.querySelectorAll("#stacks .stack")].find((a) => a.dataset.key === k)?.querySelector(".stack-key code").textContent ?? ""`)
}

// TestIsolateWrapsEachDatum checks the page's isolate (static/app/model.js),
// which wraps every datum of a one-line message, on data with and without
// isolates of their own.
func TestIsolateWrapsEachDatum(t *testing.T) {
	t.Parallel()
	p := openWatched(t, site(t)+"/", 800, 600)
	waitReady(t, p)
	for _, c := range []struct{ name, in, want string }{
		{"plain", "abc", "\u2068abc\u2069"},
		{"empty", "", "\u2068\u2069"},
		{"override", "\u202Eabc", "\u2068\u202Eabc\u2069"},
		{"balanced isolate", "\u2067a\u2069b", "\u2068\u2067a\u2069b\u2069"},
		{"unmatched pop", "\u2069x", "\u2068\u2068\u2069x\u2069"},
		{"unclosed isolate", "x\u2066", "\u2068x\u2066\u2069\u2069"},
		{"two pops then an open isolate", "\u2069\u2069\u2068y", "\u2068\u2068\u2068\u2069\u2069\u2068y\u2069\u2069"},
	} {
		in, _ := json.Marshal(c.in)
		got := chrome.Eval[string](t, p, `const { isolate } = await import("./app/model.js"); return isolate(`+string(in)+`)`)
		if got != c.want {
			t.Errorf("%s: isolate(%+q) = %+q, want %+q", c.name, c.in, got, c.want)
		}
	}
}

// TestHostileStringsTypedAreText types each hostile string into every form
// that takes text (object key, body, version ID, bucket name, multipart key
// and parts, rule ID and prefix) and submits it: the page shows each one
// byte for byte as text wherever it appears (stacks, GET body, history,
// preview actions and marks), makes no element from it, runs no code and
// reports no violation. Screenshots of the result in the light and dark
// themes go to out/.
func TestHostileStringsTypedAreText(t *testing.T) {
	t.Parallel()
	p := openWatched(t, site(t)+"/", 1280, 900)
	noDialogs(t, p)
	waitReady(t, p)
	act(t, p, typeInto("#new-bucket", "hostile"), click("#create-bucket-form button[type=submit]"))
	act(t, p, click("#enable-btn"))
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			s := h.s
			typeText(t, p, "#obj-key", s)
			typeText(t, p, "#obj-body", s)
			act(t, p, click("#put-btn"))
			// The status line and the result repeat the key; long keys wrap.
			if w := chrome.Eval[[]int](t, p, `return [document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
				t.Errorf("the key widens the page to %d px in a %d px window", w[0], w[1])
			}
			if got := stackKey(t, p, s); got != s {
				t.Errorf("stack key shows %q, want %q (result %q)", got, s, text(t, p, "#result"))
			}
			if got := newestHistory(t, p); !strings.Contains(got, "PUT "+isolated("hostile")+"/"+isolated(s)+" (") {
				t.Errorf("history %q lacks the key", got)
			}
			act(t, p, click("#get-btn"))
			if got := text(t, p, "#result pre.body"); got != s {
				t.Errorf("GET body shows %q, want %q", got, s)
			}

			typeText(t, p, "#obj-version", s)
			act(t, p, click("#get-btn"))
			if got := newestHistory(t, p); got != "GET "+isolated("hostile")+"/"+isolated(s)+" ?versionId="+isolated(s) {
				t.Errorf("GET by version ID logged as %q", got)
			}
			if !chrome.Eval[bool](t, p, `return document.querySelector("#result .error-box") !== null`) {
				t.Errorf("GET of version ID %q: %q, want an error", s, text(t, p, "#result"))
			}
			typeText(t, p, "#obj-version", "-")
			do(t, p, typeInto("#obj-version", ""))

			typeText(t, p, "#new-bucket", s)
			act(t, p, click("#create-bucket-form button[type=submit]"))
			if got := newestHistory(t, p); got != "Create bucket "+isolated(s) {
				t.Errorf("bucket creation logged as %q", got)
			}
			// Names with "/" reach the store as an object path (NoSuchBucket);
			// the others are InvalidBucketName. Either way nothing is created.
			if got := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#bucket-select option")].map((o) => o.value)`); len(got) != 1 || got[0] != "hostile" {
				t.Errorf("buckets %q after creating %q, want hostile only", got, s)
			}
			if !chrome.Eval[bool](t, p, `return document.querySelector("#bucket-result .error-box") !== null`) {
				t.Errorf("bucket %q: %q, want an error", s, text(t, p, "#bucket-result"))
			}

			typeText(t, p, "#mp-key", s)
			typeText(t, p, "#mp-parts", "hello\n"+s)
			act(t, p, click("#multipart-form button[type=submit]"))
			if got := newestHistory(t, p); !strings.HasPrefix(got, "Multipart upload "+isolated("hostile")+"/"+isolated(s)+" in 2 part(s)") {
				t.Errorf("multipart logged as %q", got)
			}

			// One rule whose ID and prefix are the string: the preview
			// names the rule and the key.
			do(t, p, click("#add-rule-btn"))
			typeText(t, p, "#rule-0-id", s)
			typeText(t, p, "#rule-0-prefix", s)
			typeText(t, p, "#rule-0-current", "0")
			p.WaitFor(t, `!document.getElementById("preview-btn").disabled`)
			act(t, p, click("#preview-btn"))
			got := chrome.Eval[[]string](t, p, `const a = document.querySelector("#lifecycle-out .action"); return a ? [a.querySelector("code").textContent, a.textContent] : ["", document.getElementById("result").textContent]`)
			if got[0] != s || !strings.HasSuffix(got[1], "rule "+s) {
				t.Errorf("preview action shows key %q in %q, want key and rule %q", got[0], got[1], s)
			}
			if mark := text(t, p, "#stacks .expire-mark"); !strings.HasSuffix(mark, "(rule "+isolated(s)+")") {
				t.Errorf("preview mark %q, want rule %q", mark, s)
			}
			do(t, p, click(`#rules button[data-rule-act="remove"]`))
			p.WaitFor(t, `document.querySelectorAll("#rules fieldset").length === 0`)
			wantSafe(t, p)
		})
	}
	// An override in a key stays inside it: the outcome of the history line
	// is still drawn after the title.
	typeText(t, p, "#obj-key", "\u202Eabc")
	typeText(t, p, "#obj-body", "x")
	act(t, p, click("#put-btn"))
	if order := chrome.Eval[[]float64](t, p, `const li = document.querySelector("#history > li"); const w = li.querySelector(".hist-what").getBoundingClientRect(); const r = li.querySelector(".hist-result").getBoundingClientRect(); return [w.right, r.left, w.top, r.top]`); order[1] < order[0]-1 || order[2] != order[3] {
		t.Errorf("a right-to-left override in a key reorders the history line: title ends at x=%v, outcome starts at x=%v (tops %v, %v)", order[0], order[1], order[2], order[3])
	}
	// Nor does it reorder the rest of its one-line title, where the body
	// follows the key; nor does a datum that first pops an isolate.
	for _, key := range []string{"\u202Eabc", "\u2069\u202Eabc\u2067"} {
		typeText(t, p, "#obj-key", key)
		act(t, p, click("#put-btn"))
		got := chrome.Eval[[]float64](t, p, `const node = document.querySelector("#history > li .hist-what").firstChild;
			const rect = (s) => { const r = document.createRange(), i = node.data.indexOf(s); r.setStart(node, i); r.setEnd(node, i + s.length); return r.getBoundingClientRect(); };
			const key = rect("abc"), body = rect('"x"');
			return [key.right, body.left, key.top, body.top];`)
		if got[1] < got[0]-1 || got[2] != got[3] {
			t.Errorf("key %q reorders its history title: the key ends at x=%v, the body after it starts at x=%v (tops %v, %v)", key, got[0], got[1], got[2], got[3])
		}
	}
	if w := chrome.Eval[[]int](t, p, `return [document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
		t.Errorf("hostile data widens the page to %d px in a %d px window", w[0], w[1])
	}
	wantSafe(t, p)
	// The stacks and the time axis skip painting off-screen parts
	// (content-visibility: auto), which a full-page screenshot then shows
	// blank; paint everything for the screenshots.
	chrome.Eval[bool](t, p, `for (const e of document.querySelectorAll(".stack, .tl-group")) e.style.contentVisibility = "visible"; return true`)
	fullHeight(t, p, 1280)
	shot(t, p, "hostile-light")
	darkTheme(t, p)
	shot(t, p, "hostile-dark")
}

// fullHeight makes the viewport as tall as the page, so that a screenshot
// shows content the page renders only when on screen (content-visibility:
// auto), and waits for the frames that lay it out.
func fullHeight(t *testing.T, p *chrome.Page, width int64) {
	t.Helper()
	for h, prev := 0, -1; h != prev; {
		prev = h
		h = chrome.Eval[int](t, p, `await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return document.documentElement.scrollHeight`)
		do(t, p, chromedp.EmulateViewport(width, int64(h)))
	}
}

// TestHostileStringsInShareLinkAreText opens a share link, made with the
// page's own encodeShare, whose steps, keys, bodies, rule rows, note,
// expectations and scenario name are hostile: the restored page shows each
// string exactly, as text, and nothing runs.
func TestHostileStringsInShareLinkAreText(t *testing.T) {
	t.Parallel()
	base := site(t)
	p := openWatched(t, base+"/", 1280, 900)
	waitReady(t, p)
	var keys []string
	for _, h := range hostile {
		keys = append(keys, h.s)
	}
	k, _ := json.Marshal(keys)
	link := chrome.Eval[string](t, p, `
		const { encodeShare } = await import("./app/share.js");
		const keys = `+string(k)+`;
		const steps = [{ op: "createBucket", bucket: "hostile" }, { op: "versioning", bucket: "hostile", status: "enabled" }];
		for (const s of keys) {
			steps.push({ op: "put", bucket: "hostile", key: s, body: s, note: s });
			steps.push({ op: "get", bucket: "hostile", key: s, expect: { body: s } });
		}
		steps.push({ op: "createBucket", bucket: keys[0] });
		const rows = keys.map((s) => ({ id: s, prefix: s, current: "0", noncurrent: "" }));
		return location.origin + "/?opened=1#" + encodeShare({ steps, rules: rows, bucket: "hostile", scenario: keys[2] });`)
	p.Navigate(t, link)
	waitReady(t, p)
	p.WaitFor(t, `document.getElementById("status").textContent.startsWith("Restored")`)
	if got, want := text(t, p, "#status"), "(scenario "+isolated(hostile[2].s)+")."; !strings.HasSuffix(got, want) {
		t.Errorf("status %q, want it to end with %q", got, want)
	}
	for i, h := range hostile {
		if got := stackKey(t, p, h.s); got != h.s {
			t.Errorf("%s: stack key shows %q", h.name, got)
		}
		for _, f := range []string{"id", "prefix"} {
			if got := chrome.Eval[string](t, p, `return document.getElementById("rule-`+strconv.Itoa(i)+`-`+f+`")?.value ?? ""`); got != h.s {
				t.Errorf("%s: rule %s holds %q", h.name, f, got)
			}
		}
	}
	if n := chrome.Eval[int](t, p, `return document.querySelectorAll("#history .checks li.pass").length`); n != len(hostile) {
		t.Errorf("%d GET body checks passed, want %d", n, len(hostile))
	}
	if got := chrome.Eval[string](t, p, `return [...document.querySelectorAll("#history .hist-what")].at(0).textContent`); got != "Create bucket "+isolated(hostile[0].s) {
		t.Errorf("newest history entry %q", got)
	}
	wantSafe(t, p)
}

// TestHostileScenarioTextIsText serves a scenario file whose title,
// description, notes, keys and expectations are hostile, and runs it from
// the scenario panel: menu, description, summary and step list show the
// strings as text, and nothing runs.
func TestHostileScenarioTextIsText(t *testing.T) {
	t.Parallel()
	dir := chrome.Static(t)
	s := hostile[0].s + hostile[4].s
	var steps []map[string]any
	steps = append(steps, map[string]any{"op": "createBucket", "note": hostile[1].s}, map[string]any{"op": "put", "key": hostile[2].s, "body": hostile[3].s, "note": hostile[5].s})
	steps = append(steps, map[string]any{"op": "get", "key": hostile[2].s, "note": hostile[7].s, "expect": map[string]any{"body": hostile[3].s}})
	sc, err := json.Marshal(map[string]any{"title": s, "description": hostile[6].s + hostile[1].s, "bucket": "evil", "steps": steps})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scenarios", "hostile.json"), sc, 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, "scenarios", "index.json")
	raw, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	raw = regexp.MustCompile(`"scenarios": \[`).ReplaceAll(raw, []byte(`"scenarios": ["hostile", `))
	if err := os.WriteFile(index, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	p := openWatched(t, chrome.Serve(t, chrome.Mounts{"/": dir}, nil).URL+"/", 1280, 900)
	waitReady(t, p)
	if got := chrome.Eval[string](t, p, `return document.querySelector("#scenario-select option[value=hostile]")?.textContent ?? ""`); got != s {
		t.Errorf("menu shows %q, want %q", got, s)
	}
	do(t, p, click("#scenario-select"))
	chrome.Eval[bool](t, p, `const sel = document.getElementById("scenario-select"); sel.value = "hostile"; sel.dispatchEvent(new Event("change")); return true`)
	if got, want := text(t, p, "#scenario-desc"), hostile[6].s+hostile[1].s; got != want {
		t.Errorf("description shows %q, want %q", got, want)
	}
	summary := runScenario(t, p, "hostile")
	if !strings.HasPrefix(summary, isolated(s)+": 3 of 3 steps run — the store did what each step expects (1 expectation)") {
		t.Errorf("summary %q", summary)
	}
	titles := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#scenario-steps .sc-title")].map((e) => e.textContent)`)
	evil := isolated("evil")
	wantTitles := []string{"Create bucket " + evil + " — " + isolated(hostile[1].s), "PUT " + evil + "/" + isolated(hostile[2].s), "GET " + evil + "/" + isolated(hostile[2].s) + " — " + isolated(hostile[7].s)}
	if len(titles) != 3 || titles[0] != wantTitles[0] || !strings.HasPrefix(titles[1], wantTitles[1]) || !strings.HasSuffix(titles[1], " — "+isolated(hostile[5].s)) || titles[2] != wantTitles[2] {
		t.Errorf("step titles %q", titles)
	}
	wantSafe(t, p)
}
