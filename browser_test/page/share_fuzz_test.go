//go:build !js

package page

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"minis3/browser_test/chrome"
)

// fuzzLib is the in-page half of the share-link fuzz test: a seeded PRNG
// (mulberry32), valid share links made from the built-in scenarios with the
// page's own encodeShare, and mutators at three layers (the fragment's
// text, the UTF-8 bytes under the base64url, the JSON structure).
const fuzzLib = `
	const { encodeShare, decodeShare } = await import("./app/share.js");
	const { parseScenario } = await import("./app/scenarios.js");
	let state = SEED;
	const rand = () => {
		state = (state + 0x6D2B79F5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (n) => Math.floor(rand() * n);
	const pick = (a) => a[int(a.length)];

	const names = (await (await fetch("./scenarios/index.json")).json()).scenarios;
	const texts = await Promise.all(names.map(async (n) => (await fetch("./scenarios/" + n + ".json")).text()));
	const seeds = names.map((n, i) => encodeShare({
		steps: parseScenario(JSON.parse(texts[i]), n).steps,
		rules: [{ id: "logs", prefix: "logs/", current: "10", noncurrent: "" }],
		bucket: "demo",
		scenario: n,
	}));

	const toB64 = (bytes) => {
		let bin = "";
		for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
		return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
	};
	const fromB64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
	const seedJSON = (frag) => new TextDecoder().decode(fromB64(frag.slice(2)));
	const fragOf = (json) => "s=" + toB64(new TextEncoder().encode(json));

	const CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/% é\u0000#";
	function mutateText(s) {
		switch (int(6)) {
			case 0: { const i = int(s.length); return s.slice(0, i) + pick(CHARS) + s.slice(i + 1); }
			case 1: return s.slice(0, int(s.length));
			case 2: { const i = int(s.length); let ins = ""; for (let n = 1 + int(8); n > 0; n--) ins += pick(CHARS); return s.slice(0, i) + ins + s.slice(i); }
			case 3: { const i = int(s.length); return s.slice(0, i) + s.slice(i + 1 + int(16)); }
			case 4: { const o = pick(seeds); return s.slice(0, int(s.length)) + o.slice(int(o.length)); }
			default: { const i = int(s.length); const j = i + int(64); return s.slice(0, j) + s.slice(i, j) + s.slice(j); }
		}
	}
	function mutateBytes(b) {
		b = Uint8Array.from(b);
		switch (int(4)) {
			case 0: for (let n = 1 + int(8); n > 0; n--) b[int(b.length)] ^= 1 << int(8); return b;
			case 1: return b.subarray(0, int(b.length));
			case 2: { const i = int(b.length); const ins = Uint8Array.from({ length: 1 + int(4) }, () => pick([0x00, 0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf4, 0xf8, 0xff, 0x22, 0x5c, 0x7b, 0x5d])); const out = new Uint8Array(b.length + ins.length); out.set(b.subarray(0, i)); out.set(ins, i); out.set(b.subarray(i), i + ins.length); return out; }
			default: { const o = fromB64(pick(seeds).slice(2)); const i = int(b.length); const j = int(o.length); const out = new Uint8Array(i + o.length - j); out.set(b.subarray(0, i)); out.set(o.subarray(j), i); return out; }
		}
	}
	// RAW are JSON texts put in place of a random value: wrong types, huge
	// and negative numbers, deep nesting, long strings, unknown fields and
	// ops, too many steps and parts, lone surrogates, __proto__.
	const RAW = [
		"[]", "{}", "null", "-1", "-0.5", "1e308", "1e999", "-1e999", '"NaN"', '"Infinity"', "true", "0", "4294967296", '""',
		'"' + "x".repeat(100000) + '"',
		"[".repeat(50000) + "]".repeat(50000),
		'{"a":'.repeat(20000) + "1" + "}".repeat(20000),
		'{"__proto__":{"polluted":1}}',
		'{"op":"explode"}', '{"op":"__proto__"}', '{"op":["clock"]}',
		'{"op":"clock","now":-5}', '{"op":"clock","now":1e999}', '{"op":"clock","now":"5"}',
		'{"op":"put","bucket":"demo","key":"' + "k".repeat(2000) + '","body":"x"}',
		'{"op":"multipart","bucket":"demo","key":"k","parts":[' + Array(20000).fill('"p"').join(",") + "]}",
		"[" + Array(3000).fill('{"op":"clock","now":1}').join(",") + "]",
		'{"op":"tick","bucket":"demo","rules":[{"id":"r","expireCurrentAfter":-1}]}',
		'{"op":"rules","rules":[null]}', '{"op":"rules","rules":[{"id":"a","expireCurrentAfter":1,"extra":1}]}',
		'{"op":"get","bucket":"demo","key":"k","expect":{"actions":"x"}}',
		'{"op":"get","bucket":"demo","key":"k","expect":{"include":[{"count":-1}]}}',
		'{"op":"check","bucket":"demo","expect":{"versions":[{"key":[[[[1]]]]}]}}',
		'{"op":"get","bucket":"demo","key":"k","expect":{"unknown":1}}',
		'"\\ud800"', '"<img src=x onerror=window.__pwned=1>"',
	];
	const MARK = "\u0001MARK\u0001";
	function mutateJSON(json) {
		const root = JSON.parse(json);
		let node = root;
		for (let depth = int(5); depth > 0; depth--) {
			const keys = Object.keys(node);
			const next = node[pick(keys)];
			if (keys.length === 0 || next === null || typeof next !== "object") break;
			node = next;
		}
		const keys = Object.keys(node);
		const action = int(4);
		if (action === 0 || keys.length === 0) node[Array.isArray(node) ? int(node.length + 1) : pick(["zz", "v", "steps", "rules", "bucket", "scenario", "op", "now", "parts", "expect", "note"])] = MARK;
		else if (action === 1) delete node[pick(keys)];
		else if (action === 2 && Array.isArray(node)) { const v = node[int(node.length)]; for (let n = int(4000); n > 0; n--) node.push(v); }
		else node[pick(keys)] = MARK;
		const raw = pick(RAW);
		return JSON.stringify(root).split(JSON.stringify(MARK)).join(raw);
	}
	// category is an outcome message with its numbers and quoted parts
	// blanked, so that many cases fall into few classes.
	const category = (m) => m.replace(/"[^"]*"/g, "Q").replace(/\b\d+\b/g, "N");
`

type fuzzCase struct {
	Frag    string
	Outcome string // "restored", "error", or "none"
	Message string
}

type fuzzResult struct {
	Failures   []string
	Categories map[string]int
	Scenario   map[string]int
	Samples    []fuzzCase
	Polluted   bool
}

// TestShareLinkFuzz feeds decodeShare 2,000 fragments mutated from valid
// share links (deterministic: a seeded PRNG in the page), plus fixed
// extremes (a 10 MB fragment, an empty one, a wrong version), and the
// scenario checker 1,000 scenario files mutated the same way. Each must
// give a checked state that survives a round trip through encodeShare, or
// an Error whose message is for the reader (it starts with "The share
// link" / "scenario NAME:"); any other exception fails. Then a sample of
// the mutated links, damaged and valid, is opened in the real page: the
// page starts, the status line says what happened, nothing is thrown or
// rejected unhandled, and a normal action still works.
func TestShareLinkFuzz(t *testing.T) {
	t.Parallel()
	base := site(t)
	p := openWatched(t, base+"/", 1280, 800)
	waitReady(t, p)
	res := chrome.Eval[fuzzResult](t, p, strings.Replace(fuzzLib, "SEED", "20261203", 1)+`
		const failures = [];
		const categories = {};
		const scenario = {};
		const samples = [];
		const seen = new Set();
		const cases = ["", "s=", "s=@@@@", "s=A", "s=" + "A".repeat(10 * 1024 * 1024), fragOf('{"v":2,"steps":[],"rules":[]}'), fragOf("[1,2]"), fragOf('{"v":1,"steps":[],"rules":[]}'),
			fragOf('{"v":1,"rules":[],"steps":[' + RAW.find((r) => r.includes('"multipart"')) + "]}"), fragOf('{"v":1,"rules":[],"steps":' + RAW.find((r) => r.startsWith("[{")) + "}")];
		for (let i = 0; i < 2000; i++) {
			const s = pick(seeds);
			const layer = i % 3;
			if (layer === 0) cases.push(mutateText(s));
			else if (layer === 1) cases.push("s=" + toB64(mutateBytes(fromB64(s.slice(2)))));
			else cases.push(fragOf(mutateJSON(seedJSON(s))));
		}
		for (const frag of cases) {
			let c;
			try {
				const st = decodeShare(frag);
				if (st === null) {
					c = { Frag: frag, Outcome: "none", Message: "" };
				} else {
					const again = decodeShare(encodeShare(st));
					if (JSON.stringify(again) !== JSON.stringify(st)) failures.push("round trip changed " + frag.slice(0, 120));
					c = { Frag: frag, Outcome: "restored", Message: st.steps.length + " steps" };
				}
			} catch (e) {
				if (!(e instanceof Error) || e.constructor !== Error || !e.message.startsWith("The share link ")) {
					failures.push((e && e.name) + ": " + String(e && e.message || e).slice(0, 200) + " for " + frag.slice(0, 120));
					continue;
				}
				c = { Frag: frag, Outcome: "error", Message: e.message };
			}
			const cat = c.Outcome + " " + category(c.Message);
			categories[cat] = (categories[cat] || 0) + 1;
			// Samples to open are fragments a URL carries as they are.
			if (!seen.has(cat) && c.Frag.length < 200000 && new URL("#" + c.Frag, location.href).hash === "#" + c.Frag) {
				seen.add(cat);
				samples.push(c);
			}
		}
		for (let i = 0; i < 1000; i++) {
			const n = int(names.length);
			const text = i % 2 === 0 ? mutateText(texts[n]) : mutateJSON(texts[n]);
			let out;
			try {
				const sc = parseScenario(JSON.parse(text), names[n]);
				out = "ok " + (sc.steps.length === sc.titles.length);
			} catch (e) {
				if (e instanceof SyntaxError) out = "not JSON";
				else if (e instanceof Error && e.constructor === Error && e.message.startsWith("scenario " + names[n] + ": ")) out = category(e.message.slice(names[n].length + 11));
				else { failures.push("scenario " + (e && e.name) + ": " + String(e && e.message || e).slice(0, 200)); continue; }
			}
			scenario[out] = (scenario[out] || 0) + 1;
		}
		return { Failures: failures, Categories: categories, Scenario: scenario, Samples: samples, Polluted: ({}).polluted !== undefined };`)
	for _, f := range res.Failures {
		t.Error(f)
	}
	if res.Polluted {
		t.Error("Object.prototype was polluted")
	}
	total := 0
	for _, n := range res.Categories {
		total += n
	}
	if total+len(res.Failures) != 2010 {
		t.Errorf("%d share cases ran, want 2010", total+len(res.Failures))
	}
	// The mutations must reach every layer of the decoder, and leave some
	// links valid.
	for _, want := range []string{"too long", "not base64url", "cut short", "not UTF-", "not JSON", "not an object", "not a MiniS3 playground link", "unknown field", "unknown op", "a number of seconds", "steps; at most", "requests", "restored"} {
		n := 0
		for cat, c := range res.Categories {
			if strings.Contains(cat, want) {
				n += c
			}
		}
		if n == 0 {
			t.Errorf("no share case ended in %q; categories: %v", want, res.Categories)
		}
	}
	if res.Scenario["ok true"] == 0 || res.Scenario["not JSON"] == 0 || len(res.Scenario) < 8 {
		t.Errorf("scenario outcomes %v: want valid, invalid JSON and several refusals", res.Scenario)
	}
	t.Logf("%d share outcome classes, %d scenario outcome classes", len(res.Categories), len(res.Scenario))

	// Open samples in the page: the first 4 restorable links and the first
	// 8 damaged ones, each of another outcome class, and a fragment just
	// over the size limit.
	var samples []fuzzCase
	quota := map[string]int{"restored": 4, "error": 8}
	for _, c := range res.Samples {
		if quota[c.Outcome] > 0 {
			quota[c.Outcome]--
			samples = append(samples, c)
		}
	}
	samples = append(samples, fuzzCase{Frag: "s=" + strings.Repeat("A", 1<<20), Outcome: "error", Message: "The share link is too long (1048578 characters; at most 1048576)."})
	for i, c := range samples {
		p.Navigate(t, base+"/?case="+strconv.Itoa(i)+"#"+c.Frag)
		waitReady(t, p)
		status := text(t, p, "#status")
		switch c.Outcome {
		case "restored":
			if !strings.HasPrefix(status, "Restored "+strings.TrimSuffix(c.Message, " steps")+" steps") {
				t.Errorf("case %d (%s): status %q", i, c.Message, status)
			}
		case "error":
			if status != c.Message+" The playground opened without it." {
				t.Errorf("case %d: status %q, want %q", i, status, c.Message)
			}
		}
		name := "after-" + strconv.Itoa(i)
		act(t, p, typeInto("#new-bucket", name), click("#create-bucket-form button[type=submit]"))
		if !chrome.Eval[bool](t, p, `return [...document.querySelectorAll("#bucket-select option")].some((o) => o.value === `+quote(name)+`)`) {
			t.Errorf("case %d: creating bucket %s after the link failed: %q", i, name, text(t, p, "#bucket-result"))
		}
		for _, line := range chrome.Eval[[]string](t, p, `return window.__problems`) {
			t.Errorf("case %d (%s): %s", i, c.Message, line)
		}
	}
	for _, line := range p.Console() {
		if strings.HasPrefix(line, "exception: ") {
			t.Errorf("console %s", line)
		}
	}
}

// TestBrokenScenarioFilesAreReported serves scenario files that are not
// JSON, of the wrong shape, with an unknown op, a bad, missing or misspelt
// field, or rules the editor would refuse, or missing: the page still starts, names
// each broken file in its status line, lists and runs the good scenarios.
func TestBrokenScenarioFilesAreReported(t *testing.T) {
	t.Parallel()
	dir := chrome.Static(t)
	files := map[string]string{
		"not-json":      `{"title": "cut`,
		"wrong-type":    `[1, 2, 3]`,
		"bad-op":        `{"title": "x", "steps": [{"op": "explode"}]}`,
		"bad-clock":     `{"title": "x", "steps": [{"op": "clock", "now": 1, "time": "2014-01-19T00:00:00Z"}]}`,
		"bad-date":      `{"title": "x", "steps": [{"op": "clock", "time": "2014-02-30"}]}`,
		"bad-config":    `{"title": "x", "bucket": "demo", "steps": [{"op": "putBucketLifecycle", "config": [], "xml": "<x/>"}]}`,
		"no-key":        `{"title": "x", "bucket": "demo", "steps": [{"op": "put", "body": "x"}]}`,
		"same-rule-ids": `{"title": "x", "steps": [{"op": "rules", "rules": [{"id": "a", "expireCurrentAfter": 1}, {"id": "a", "expireNoncurrentAfter": 1}]}]}`,
		"misspelt":      `{"title": "x", "bucket": "demo", "steps": [{"op": "check", "expect": {"versions": [{"key": "a", "versionID": "v00000001"}]}}]}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, "scenarios", name+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := filepath.Join(dir, "scenarios", "index.json")
	raw, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	good := len(regexp.MustCompile(`"[a-z0-9-]+"`).FindAll(regexp.MustCompile(`(?s)\[.*\]`).Find(raw), -1))
	raw = regexp.MustCompile(`"scenarios": \[`).ReplaceAll(raw, []byte(`"scenarios": ["not-json", "wrong-type", "bad-op", "missing", "bad-clock", "bad-date", "bad-config", "no-key", "same-rule-ids", "misspelt", `))
	if err := os.WriteFile(index, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	p := openWatched(t, chrome.Serve(t, chrome.Mounts{"/": dir}, nil).URL+"/", 1280, 800)
	waitReady(t, p)
	status := text(t, p, "#status")
	for _, want := range []string{
		"/scenarios/not-json.json: not valid JSON",
		"scenario wrong-type: not a JSON object",
		`scenario bad-op: steps[0].op: unknown op "explode"`,
		"/scenarios/missing.json: HTTP 404",
		"scenario bad-clock: steps[0]: clock needs now or time, not both",
		`scenario bad-date: steps[0].time: "2014-02-30" is not a day of the calendar`,
		"scenario bad-config: steps[0].config: must be a JSON object or its text",
		"scenario no-key: steps[0]: put needs key, which must be text",
		"scenario same-rule-ids: steps[0].rules[1].id: is empty or another rule's ID",
		`scenario misspelt: steps[0].expect.versions[0]: unknown field "versionID" (did you mean "versionId"?)`,
	} {
		if !strings.Contains(status, want) {
			t.Errorf("status %q lacks %q", status, want)
		}
	}
	if summary := runScenario(t, p, "worked-example"); !strings.Contains(summary, "the store did what each step expects") {
		t.Errorf("worked example after broken files: %q", summary)
	}
	if n := chrome.Eval[int](t, p, `return document.querySelectorAll("#scenario-select option").length`); n != good {
		t.Errorf("%d scenarios listed, want the %d good ones", n, good)
	}
}

// TestPastedShareLinkOpens pastes a share link into the address bar of an
// open playground (only the fragment changes, so the browser does not load
// the page again by itself): the page loads it and restores the steps.
func TestPastedShareLinkOpens(t *testing.T) {
	t.Parallel()
	base := site(t)
	p := openWatched(t, base+"/", 1280, 800)
	waitReady(t, p)
	frag := chrome.Eval[string](t, p, `
		const { encodeShare } = await import("./app/share.js");
		return encodeShare({ steps: [{ op: "createBucket", bucket: "pasted" }], rules: [], bucket: "pasted", scenario: "" })`)
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	loads := chromedp.Events(ctx, cdppage.LoadEventFired) // subscribed from here on
	chrome.Eval[bool](t, p, `location.hash = `+quote(frag)+`; return true`)
	for _, err := range loads {
		if err != nil {
			t.Fatalf("waiting for the page to load the pasted link: %v", err)
		}
		break
	}
	waitReady(t, p)
	if got := text(t, p, "#status"); !strings.HasPrefix(got, "Restored 1 steps") {
		t.Errorf("status %q after pasting the link", got)
	}
	if got := text(t, p, "#bucket-select"); got != "pasted" {
		t.Errorf("buckets %q after pasting the link, want pasted", got)
	}
	wantNoProblems(t, p)
}
