//go:build !js

package page

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
)

// These tests build an exercise in the page as its author does, with the
// builder (panels/builder.js) and the page's own controls, by keyboard
// and mouse.

// idle waits until the page has no job running.
func idle(t *testing.T, p *chrome.Page) {
	t.Helper()
	p.WaitFor(t, `!document.body.classList.contains("busy")`)
}

// shown: the element sel is displayed.
func shown(t *testing.T, p *chrome.Page, sel string) bool {
	t.Helper()
	return chrome.Eval[bool](t, p, `return (document.querySelector(`+quote(sel)+`)?.getClientRects().length ?? 0) > 0`)
}

// builderPhase is the phase the builder marks as current.
func builderPhase(t *testing.T, p *chrome.Page) string {
	t.Helper()
	return chrome.Eval[string](t, p, `return document.querySelector("#builder-phases [aria-current]")?.dataset.phase ?? ""`)
}

// recorded is the titles of the steps the builder recorded, stage and
// solution.
type recorded struct{ Stage, Solution []string }

func readRecorded(t *testing.T, p *chrome.Page) recorded {
	t.Helper()
	return chrome.Eval[recorded](t, p, `const titles = (id) => [...document.querySelectorAll("#" + id + " > li")].map((li) => li.textContent);
		return { Stage: titles("builder-stage"), Solution: titles("builder-solution") }`)
}

// proposal is a check the builder proposes, as the page shows it.
type proposal struct {
	Kind  string
	Keep  bool
	Label string
	What  []string
}

func readProposals(t *testing.T, p *chrome.Page) []proposal {
	t.Helper()
	return chrome.Eval[[]proposal](t, p, `return [...document.querySelectorAll("#builder-proposals > li.builder-check")].map((li) => ({
		Kind: li.querySelector(".builder-keep").textContent.trim(), Keep: li.querySelector("input[type=checkbox]").checked,
		Label: li.querySelector("input[data-field=label]").value, What: [...li.querySelectorAll(".builder-what li")].map((w) => w.textContent) }))`)
}

// The worked example's stage and solution, as the builder titles them.
var (
	workedStage = []string{
		"Create bucket \u2068demo\u2069", "Set versioning of \u2068demo\u2069 to enabled",
		"PUT \u2068demo\u2069/\u2068logs/app.log\u2069 (\u2068\"old\"\u2069)", "Set clock to 5",
		"PUT \u2068demo\u2069/\u2068logs/app.log\u2069 (\u2068\"current\"\u2069)", "Set lifecycle rules (1)",
	}
	workedSolution = []string{"Set clock to 15", "Lifecycle tick on \u2068demo\u2069"}
)

// download clicks sel, which downloads a file, and returns what Chromium
// saved.
func download(t *testing.T, p *chrome.Page, sel string) string {
	t.Helper()
	dir := t.TempDir()
	events := true
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: &events}); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		for ev, err := range chromedp.Events(ctx, browser.DownloadProgress) {
			if err != nil {
				return
			}
			if ev.State == browser.DownloadProgressStateCompleted {
				done <- ev.FilePath
				return
			}
		}
	}()
	do(t, p, click(sel))
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("%s downloaded nothing", sel)
	}
	files, err := os.ReadDir(dir)
	if err != nil || len(files) != 1 {
		t.Fatalf("%s downloaded %v (%v), want one file", sel, files, err)
	}
	body, err := os.ReadFile(filepath.Join(dir, files[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	if files[0].Name() != "predict-the-worked-example.json" {
		t.Errorf("%s downloaded %s", sel, files[0].Name())
	}
	return string(body)
}

// TestBuildTheWorkedExercise builds the worked example's exercise in the
// page at 1280x800, as its author would: from an empty store, the stage
// set with the forms (a reload on the way loses nothing), the task
// written, the solution recorded; the checks proposed from what the
// solution changed are accepted, the exercise is tried as a student and
// solved, and exported: its file parses with the page's own parseScenario
// and is proven sound, its embed snippet loads it from its URL. Then the
// solution is dropped and nothing recorded instead: Export refuses, and
// says why. Screenshots of the builder in light and dark.
func TestBuildTheWorkedExercise(t *testing.T) {
	t.Parallel()
	served := t.TempDir() // where the author serves the file exported
	base := chrome.Serve(t, chrome.Mounts{"/": chrome.Static(t), "/test/": "testdata", "/course/": served}, nil).URL
	p := open(t, base+"/", 1280, 800)
	waitReady(t, p)

	do(t, p, click("#builder-open-btn"))
	if got := activeID(t, p); got != "builder-panel" {
		t.Errorf("after Build an exercise the focus is on %q, want the builder", got)
	}
	viewShot(t, p, "builder-1280x800-start-light")
	do(t, p, click("#builder-empty-btn"))
	p.WaitFor(t, `!document.getElementById("builder-work").hidden && !document.body.classList.contains("busy")`)
	if got := builderPhase(t, p); got != "stage" {
		t.Fatalf("the builder starts at phase %q, want stage", got)
	}
	if shown(t, p, "#builder-solution-btn") && !chrome.Eval[bool](t, p, `return document.getElementById("builder-solution-btn").disabled`) {
		t.Error("Record the solution is offered before there is a bucket for the checks to look at")
	}

	// The stage, by keyboard: a bucket created with Enter, versioning
	// enabled with Space; then by mouse: the PUTs, the clock moved between.
	act(t, p, typeInto("#new-bucket", "demo"+kb.Enter))
	act(t, p, press("#enable-btn", " "))
	putObject(t, p, "logs/app.log", "old")
	setClock(t, p, "5")
	putObject(t, p, "logs/app.log", "current")
	do(t, p, typeInto("#builder-title-input", "Predict the worked example"))

	// A reload while building keeps what was recorded and written.
	p.Reload(t)
	waitReady(t, p)
	if !shown(t, p, "#builder-work") || builderPhase(t, p) != "stage" {
		t.Fatal("after a reload the builder is not back at the stage")
	}
	if got := chrome.Eval[string](t, p, `return document.getElementById("builder-title-input").value`); got != "Predict the worked example" {
		t.Errorf("after a reload the title is %q", got)
	}
	if got := readRecorded(t, p).Stage; !slices.Equal(got, workedStage[:5]) {
		t.Errorf("after a reload the stage recorded is %q, want %q", got, workedStage[:5])
	}

	// The rule, typed in the chapter's editor: recorded as a rules step.
	do(t, p, click("#add-rule-btn"), typeInto("#rule-0-id", "logs"), typeInto("#rule-0-prefix", "logs/"), typeInto("#rule-0-current", "10"), typeInto("#rule-0-noncurrent", "12"))
	do(t, p,
		typeInto("#builder-prompt", "At what time does v00000002 expire? Write your prediction, then set the clock to that instant and Tick."),
		typeInto("#builder-hints", "v00000002 is the current version, created at 5."+kb.Enter+"A version's age is now − created."),
		click("#builder-asks"),
		typeInto("#builder-question", "v00000002 expires at t ="),
		typeInto("#builder-reasoning", "It was created at 5 and the rule expires it once 10 old: at 15, the boundary inclusive."))
	viewShot(t, p, "builder-1280x800-stage-light")

	// The phase changes once the steps queued before it are done.
	do(t, p, press("#builder-solution-btn", kb.Enter))
	p.WaitFor(t, `document.querySelector("#builder-phases [aria-current]")?.dataset.phase === "solution" && !document.body.classList.contains("busy")`)
	if got := readRecorded(t, p).Stage; !slices.Equal(got, workedStage) {
		t.Errorf("the stage recorded is %q, want %q", got, workedStage)
	}
	setClock(t, p, "15")
	tick(t, p)
	do(t, p, typeInto("#builder-answer", "15"))
	if got := readRecorded(t, p).Solution; !slices.Equal(got, workedSolution) {
		t.Errorf("the solution recorded is %q, want %q", got, workedSolution)
	}

	do(t, p, click("#builder-propose-btn"))
	p.WaitFor(t, `!document.getElementById("builder-checks").hidden && !document.body.classList.contains("busy")`)
	got := readProposals(t, p)
	kinds := []string{}
	for _, c := range got {
		kinds = append(kinds, c.Kind)
		if strings.Contains(c.Label, "15") {
			t.Errorf("the proposed label %q says what the task asks for", c.Label)
		}
	}
	want := []string{"Keep: the versions", "Keep: the answer", "Keep: a step taken"}
	if !slices.Equal(kinds, want) || !got[0].Keep || !got[1].Keep || got[2].Keep {
		t.Fatalf("proposed %+v, want %q, the last not kept", got, want)
	}
	wantContains(t, "the versions proposed", strings.Join(got[0].What, "\n"), "\u2068logs/app.log\u2069: delete marker (any version ID), current", "data version \u2068v00000002\u2069, noncurrent")
	do(t, p, typeInto("#builder-hint-0", "In an enabled bucket, what does expiring the current version put on top?"))
	viewShot(t, p, "builder-1280x800-checks-light")
	darkTheme(t, p)
	viewShot(t, p, "builder-1280x800-checks-dark")

	// Tried as a student: the stage set, the task solved.
	do(t, p, click("#builder-try-btn"))
	p.WaitFor(t, `!document.getElementById("task").hidden && !document.getElementById("task-stage-btn").hidden && !document.body.classList.contains("busy")`)
	if !shown(t, p, "#builder-back-btn") {
		t.Error("while trying, the builder offers no way back to building")
	}
	do(t, p, click("#task-stage-btn"))
	waitStaged(t, p)
	viewShot(t, p, "builder-1280x800-trying-dark")
	answer(t, p, "15")
	setClock(t, p, "15")
	tick(t, p)
	if v := checkWork(t, p); !strings.HasPrefix(v.Verdict, "Solved") {
		t.Fatalf("the exercise tried and solved as a student: %+v", v)
	}
	do(t, p, click("#builder-back-btn"))
	p.WaitFor(t, `!document.getElementById("builder-work").hidden && !document.body.classList.contains("busy")`)
	if builderPhase(t, p) != "checks" || !chrome.Eval[bool](t, p, `return document.getElementById("task").hidden`) {
		t.Error("back from trying, the builder is not at its checks, or the task is still shown")
	}

	do(t, p, click("#builder-export-btn"))
	p.WaitFor(t, `!document.getElementById("builder-export").hidden && !document.body.classList.contains("busy")`)
	if problems := text(t, p, "#builder-problems"); problems != "" {
		t.Fatalf("Export refused the worked example: %s", problems)
	}
	viewShot(t, p, "builder-1280x800-export-dark")
	downloaded := download(t, p, "#builder-download")
	exported := chrome.Eval[struct {
		Error, Name, Snippet string
		Links                int
		Proof                struct {
			OK       bool
			Problems []string
		}
		Stage, Solution int
		Checks          []string
	}](t, p, `const { parseScenario } = await import("./app/scenarios.js");
		const { prove } = await import("./app/prove.js");
		const minis3 = await (await import("./minis3.js")).default;
		const out = { Snippet: document.getElementById("builder-snippet").value, Links: document.querySelectorAll("a").length };
		try {
			const sc = parseScenario(JSON.parse(document.getElementById("builder-json").value), "built");
			const proof = await prove(sc, () => minis3.open({ memory: true, minPartSize: 5 }));
			Object.assign(out, { Name: sc.title, Proof: { OK: proof.ok, Problems: proof.problems }, Stage: sc.steps.length, Solution: sc.task.solution.steps.length,
				Checks: sc.task.checks.map((c) => Object.keys(c).sort().join(",")) });
		} catch (err) {
			out.Error = err.message;
		}
		return out;`)
	if exported.Error != "" || !exported.Proof.OK {
		t.Fatalf("the file exported: %+v", exported)
	}
	if exported.Name != "Predict the worked example" || exported.Stage != len(workedStage) || exported.Solution != len(workedSolution) ||
		!slices.Equal(exported.Checks, []string{"hint,label,versions", "answer,label"}) {
		t.Errorf("the file exported holds %+v", exported)
	}
	if exported.Links != 1 {
		t.Errorf("after Download the page holds %d links, want the skip link only", exported.Links)
	}
	if !strings.HasPrefix(exported.Snippet, `<iframe title="MiniS3: Predict the worked example"`) || strings.Contains(exported.Snippet, "\n") ||
		!strings.Contains(exported.Snippet, "embed=1&amp;scenario-url="+strings.ReplaceAll(strings.ReplaceAll(base, ":", "%3A"), "/", "%2F")) {
		t.Errorf("the embed snippet is %q", exported.Snippet)
	}
	var file map[string]any
	if err := json.Unmarshal([]byte(downloaded), &file); err != nil || downloaded != chrome.Eval[string](t, p, `return document.getElementById("builder-json").value`) {
		t.Errorf("the file downloaded is not the JSON shown (%v): %s", err, downloaded)
	}
	coursePageSolvesTheExport(t, p, base, served, downloaded)

	// Nothing recorded for the solution, and no answer asked: nothing to
	// check, so the task would be solved from the start or never.
	do(t, p, click("#builder-restage-btn"))
	p.WaitFor(t, `document.getElementById("confirm-dialog").open`)
	do(t, p, click("#confirm-ok"))
	p.WaitFor(t, `document.querySelector("#builder-phases [aria-current]")?.dataset.phase === "stage" && !document.body.classList.contains("busy")`)
	if got := readRecorded(t, p).Stage; !slices.Equal(got, workedStage) {
		t.Errorf("back at the stage, its steps are %q", got)
	}
	if got := stacks(t, p)["logs/app.log"]; len(got) != 2 || got[0].VersionID != "v00000002" {
		t.Errorf("back at the stage, the stacks show %+v, want the stage's two versions", got)
	}
	do(t, p, click("#builder-asks"), click("#builder-solution-btn"), click("#builder-propose-btn"))
	p.WaitFor(t, `!document.getElementById("builder-checks").hidden && !document.body.classList.contains("busy")`)
	do(t, p, click("#builder-export-btn"))
	p.WaitFor(t, `!document.getElementById("builder-export").hidden && !document.body.classList.contains("busy")`)
	wantContains(t, "Export of an exercise with no solution", text(t, p, "#builder-problems"), "Not exported", "the solution changed nothing")
	if shown(t, p, "#builder-file") {
		t.Error("an unsound exercise was exported")
	}

	// Started again from the current store: the steps the page recorded,
	// the stage's, become the stage.
	do(t, p, click("#builder-stop-btn"))
	p.WaitFor(t, `document.getElementById("confirm-dialog").open`)
	do(t, p, click("#confirm-ok"), click("#builder-open-btn"), click("#builder-current-btn"))
	p.WaitFor(t, `!document.getElementById("builder-work").hidden && !document.body.classList.contains("busy")`)
	if got := readRecorded(t, p); !slices.Equal(got.Stage, workedStage) || len(got.Solution) != 0 {
		t.Errorf("from the current store the builder recorded %q, want the stage %q", got, workedStage)
	}
	if got := chrome.Eval[string](t, p, `return document.getElementById("builder-title-input").value`); got != "" {
		t.Errorf("a new exercise starts with the title %q of the one stopped", got)
	}

	// A file made in the terminal while nothing is recorded (in the checks
	// phase), then uploaded in the stage: played from the stage, the upload
	// fails, and Export says so in prove.js's words.
	phase := func(name string) {
		t.Helper()
		p.WaitFor(t, `document.querySelector("#builder-phases [aria-current]")?.dataset.phase === "`+name+`" && !document.body.classList.contains("busy")`)
	}
	do(t, p, click("#builder-solution-btn"))
	phase("solution")
	do(t, p, click("#builder-propose-btn"))
	phase("checks")
	typeLines(t, p, "echo unrecorded > note.txt")
	do(t, p, click("#builder-restage-btn"))
	phase("stage")
	if got := typeLines(t, p, "aws s3 cp note.txt s3://demo/note.txt"); got[0].Status != 0 {
		t.Fatalf("the upload in the page: %+v", got)
	}
	do(t, p, typeInto("#builder-title-input", "Unsound"), typeInto("#builder-prompt", "P"), typeInto("#builder-reasoning", "R"), click("#builder-solution-btn"))
	phase("solution")
	putObject(t, p, "logs/app.log", "newer")
	do(t, p, click("#builder-propose-btn"))
	phase("checks")
	wantContains(t, "the builder's note", text(t, p, "#builder-note"), "stage step 7", "note.txt")
	do(t, p, click("#builder-export-btn"))
	p.WaitFor(t, `!document.getElementById("builder-export").hidden && !document.body.classList.contains("busy")`)
	wantContains(t, "Export of an exercise whose stage does not replay", text(t, p, "#builder-problems"), "Not exported", "steps[6] ($ \u2068aws s3 cp note.txt s3://demo/note.txt\u2069)")
	noCSPViolations(t, p)
}

// TestBuilderProposesFromWhatChanged pins what the builder (builder.js)
// proposes and records, over plain facts: a version list that changed,
// with the IDs a student's steps cannot shift; the rules and stored S3
// rules that changed, whatever their IDs; an answer; the steps taken when
// nothing changed; a rules step for rules typed in the editor; the file
// as written; a draft kept before a reload, taken back only when sound.
func TestBuilderProposesFromWhatChanged(t *testing.T) {
	t.Parallel()
	p := modulePage(t)
	got := chrome.Eval[map[string]string](t, p, `
		const b = await import("./app/builder.js");
		const v = (key, versionId, isDeleteMarker, isLatest) => ({ key, versionId, isDeleteMarker, isLatest });
		const facts = (versions, rules = [], s3Rules = []) => ({ versions, rules, s3Rules });
		const task = { asks: false, answer: "", choices: "" };
		const show = (ps) => JSON.stringify(ps.map((p) => ({ keep: p.keep, ...p.check })));
		const out = {};
		out.marker = show(b.proposeChecks(facts([v("k", "v2", false, true), v("k", "v1", false, false)]),
			facts([v("k", "v3", true, true), v("k", "v2", false, false)]), [], task));
		out.null = show(b.proposeChecks(facts([v("a", "v1", false, true)]), facts([v("a", "v1", false, true), v("b", "null", false, true)]), [], task));
		out.rules = show(b.proposeChecks(facts([], [{ id: "old", prefix: "", expireCurrentAfter: 1 }], [{ ID: "x", Status: "Enabled" }]),
			facts([], [{ id: "mine", prefix: "logs/", expireNoncurrentAfter: 0 }], []), [], task));
		out.answer = show(b.proposeChecks(facts([]), facts([]), [], { asks: true, answer: " 15 s", choices: "" }));
		out.choice = show(b.proposeChecks(facts([]), facts([]), [], { asks: true, answer: "2", choices: "one\ntwo\n" }));
		out.taken = show(b.proposeChecks(facts([]), facts([]), [{ op: "clock", at: 12 }, { op: "preview", bucket: "demo", at: 12 }, { op: "get", bucket: "demo", key: "k", at: 12 }, { op: "command", line: "minis3 tick demo", at: 12 }], task));
		out.none = show(b.proposeChecks(facts([v("k", "v1", false, true)]), facts([v("k", "v1", false, true)]), [{ op: "clock", at: 3 }], task));
		const rule = { id: "logs", prefix: "logs/", expireCurrentAfter: 10 };
		let d = b.started(b.newDraft(), [], []);
		d = b.recordSteps(d, [{ op: "createBucket", bucket: "demo" }], []);
		d = b.recordSteps(d, [{ op: "tick", bucket: "demo", rules: [rule] }], [rule]);
		d = b.recordSteps(d, [{ op: "rules", rules: [] }], []);
		d = b.closed(d, [rule]);
		out.recorded = JSON.stringify(d.stage.map((s) => s.op));
		const sc = { title: "T", bucket: "demo", steps: [...d.stage, { op: "get", key: "k", versionId: undefined }], task: { prompt: "P", checks: [{ label: "L", answer: 1 }], solution: { text: "S", steps: [] } } };
		out.file = String(JSON.stringify(JSON.parse(b.formatScenario(sc))) === JSON.stringify(sc) && b.formatScenario(sc).includes('\n    {"op": "get", "key": "k"}\n  ],\n'));
		out.restored = String(b.restoredDraft(JSON.parse(JSON.stringify(d)))?.stage.length);
		out.bad = String(b.restoredDraft({ ...d, stage: [{ op: "explode" }] }));
		out.name = b.fileName("Exercise: the ‘inclusive’ boundary (14.999 & 15)!");
		return out;`)
	want := map[string]string{
		"marker": `[{"keep":true,"label":"The versions of k","versions":[{"key":"k","isDeleteMarker":true,"isLatest":true},{"key":"k","versionId":"v2","isDeleteMarker":false,"isLatest":false}]}]`,
		"null":   `[{"keep":true,"label":"The versions of every key","versions":[{"key":"a","versionId":"v1","isDeleteMarker":false,"isLatest":true},{"key":"b","versionId":"null","isDeleteMarker":false,"isLatest":true}]}]`,
		"rules":  `[{"keep":true,"label":"The rules in your rule editor","rules":[{"prefix":"logs/","expireNoncurrentAfter":0}]},{"keep":true,"label":"The S3 lifecycle configuration stored on the bucket","s3Rules":[]}]`,
		"answer": `[{"keep":true,"label":"Your answer","answer":15}]`,
		"choice": `[{"keep":true,"label":"Your choice","choice":2}]`,
		"taken":  `[{"keep":true,"label":"Your preview","did":{"op":"preview","at":12}},{"keep":true,"label":"Your GET","did":{"op":"get","at":12,"key":"k"}},{"keep":true,"label":"Your command line","ran":"minis3 tick demo","at":12}]`,
		"none":   `[]`,
		// The rule typed before the tick, the rules step as run, the rule
		// typed again before the phase ended.
		"recorded": `["createBucket","rules","tick","rules","rules"]`,
		"file":     "true",
		"restored": "5",
		"bad":      "null",
		"name":     "exercise-the-inclusive-boundary-14-999-15",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\n got %s\nwant %s", k, got[k], w)
		}
	}
}

// coursePageSolvesTheExport serves the file exported at base/course/, as
// its author would, types its URL and a course page's origin into the
// builder, and puts the snippet the builder then gives into a course page
// of that other origin. There a student loads the exercise, fails it and
// solves it by keyboard, and the course page hears both verdicts.
func coursePageSolvesTheExport(t *testing.T, p *chrome.Page, base, served, file string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(served, "built.json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	courseDir := t.TempDir()
	course := chrome.Serve(t, chrome.Mounts{"/": courseDir}, nil).URL
	do(t, p, typeInto("#builder-url", base+"/course/built.json"), typeInto("#builder-origin", course))
	p.WaitFor(t, `document.getElementById("builder-snippet").value.includes("origin=")`)
	snippet := chrome.Eval[string](t, p, `return document.getElementById("builder-snippet").value`)
	page := `<!doctype html><meta charset="utf-8"><title>A course page</title>` + snippet + `<ul id="log"></ul>
<script>
addEventListener("message", (ev) => {
  if (typeof ev.data?.type !== "string") return;
  const li = document.createElement("li");
  li.dataset.frame = ev.data.frame;
  li.dataset.type = ev.data.type;
  li.textContent = JSON.stringify(ev.data);
  document.getElementById("log").append(li);
});
</script>`
	if err := os.WriteFile(filepath.Join(courseDir, "course.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	c := open(t, course+"/course.html", 1280, 800)
	frame := iframeNode(t, c)
	const id = "predict-the-worked-example"
	pressIn(t, c, frame, "#load-btn")
	c.WaitFor(t, logged(id, "minis3:loaded")+` === 1`)
	pressIn(t, c, frame, "#task-stage-btn")
	c.WaitFor(t, logged(id, "minis3:step")+` === 6`)
	do(t, c, chromedp.SetValue("#task-answer-text", "14", chromedp.FromNode(frame)))
	pressIn(t, c, frame, "#task-check-btn")
	c.WaitFor(t, logged(id, "minis3:failed")+` === 1`)
	do(t, c, chromedp.SetValue("#task-answer-text", "15", chromedp.FromNode(frame)))
	typeAndEnter(t, c, frame, "#clock-input", "15")
	c.WaitFor(t, logged(id, "minis3:step")+` === 7`)
	pressIn(t, c, frame, "#tick-btn")
	c.WaitFor(t, logged(id, "minis3:step")+` === 8`)
	pressIn(t, c, frame, "#task-check-btn")
	c.WaitFor(t, logged(id, "minis3:solved")+` === 1`)
}

// iframeNode is the one iframe of the page p.
func iframeNode(t *testing.T, p *chrome.Page) *chromedp.Node {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.Context(), chrome.EvalTimeout)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe")))
	if err != nil || len(nodes) != 1 {
		t.Fatalf("the course page's iframe: %v (%d nodes)", err, len(nodes))
	}
	return nodes[0]
}
