//go:build !js

package page

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
	"minis3/core"
	"minis3/internal/terminal"
)

// printed is one command line on the terminal's screen: what it printed
// and its exit status.
type printed struct {
	Line, Stdout, Stderr string
	Status               int
}

// typeLine types line into the focused field the way an input method does
// (Input.insertText), in one event.
func typeLine(line string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: line})
		return err
	})
}

// pressEnter presses Enter in the focused field (its keydown: the
// terminal runs the line then).
var pressEnter = chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
	_, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeRawKeyDown, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13})
	return err
})

// typeLines types each line into the terminal's command line and presses
// Enter, as fast as the keyboard goes (the page runs the lines in turn),
// then waits until the page has run them all and returns the last
// len(lines) lines of the screen.
func typeLines(t *testing.T, p *chrome.Page, lines ...string) []printed {
	t.Helper()
	before := chrome.Eval[int](t, p, `return Number(document.getElementById("terminal-log").dataset.lines)`)
	chrome.Eval[bool](t, p, `const e = document.getElementById("terminal-input"); e.focus(); e.value = ""; return true`)
	var actions []chromedp.Action[chromedp.Void]
	for _, line := range lines {
		actions = append(actions, typeLine(line), pressEnter)
	}
	do(t, p, actions...)
	p.WaitFor(t, `Number(document.getElementById("terminal-log").dataset.lines) >= `+strconv.Itoa(before+len(lines))+` && !document.body.classList.contains("busy")`)
	return chrome.Eval[[]printed](t, p, `return [...document.querySelectorAll("#terminal-log .term-entry")].slice(-`+strconv.Itoa(len(lines))+`).map((e) => ({
		Line: e.querySelector(".term-text").textContent,
		Stdout: e.querySelector(".term-out")?.textContent ?? "",
		Stderr: e.querySelector(".term-err")?.textContent ?? "",
		Status: Number(e.dataset.status) }))`)
}

// oracleScripts are the command lines of the terminal's oracle scripts
// (internal/terminal/testdata/oracle), by script.
func oracleScripts(t *testing.T) map[string][]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(chrome.RepoRoot(t), "internal", "terminal", "testdata", "oracle", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no oracle scripts: %v", err)
	}
	scripts := map[string][]string{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, l := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
		scripts[strings.TrimSuffix(filepath.Base(path), ".txt")] = lines
	}
	return scripts
}

// TestTerminalPrintsWhatTheCLIPrints types the terminal's oracle scripts
// into the playground's terminal by keyboard, each after a reset, and
// compares every line's output and exit status with what the terminal
// prints natively (internal/terminal, which the oracle compares with the
// real aws CLI) for the same lines over a store with the same clock: the
// page shows exactly what the engine printed.
func TestTerminalPrintsWhatTheCLIPrints(t *testing.T) {
	t.Parallel()
	// An embed that shows only the terminal, over a store in memory: each
	// commit to IndexedDB would cost more than the command.
	p := open(t, site(t)+"/?embed=1&show=terminal", 1280, 800)
	do(t, p, click("#load-btn"))
	waitReady(t, p)
	clock := chrome.Eval[struct{ Origin, Now float64 }](t, p, `const { state } = await import("./app/state.js");
		return { Origin: state.store.origin(), Now: state.store.now() };`)
	store, err := terminal.OpenStore(core.NewMemoryStorage(), core.Options{ManualClock: true, Origin: clock.Origin})
	if err != nil {
		t.Fatal(err)
	}
	if clock.Now != 0 {
		t.Fatalf("the page's clock starts at %v, want 0", clock.Now)
	}
	native := terminal.New(store, nil)
	// The page passes the rules of its editor, empty here.
	opts := terminal.Options{EditorRules: []byte("[]")}
	scripts := oracleScripts(t)
	names := make([]string, 0, len(scripts))
	for name := range scripts {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		lines := append([]string{"reset"}, scripts[name]...)
		got := typeLines(t, p, lines...)
		failed := 0
		for i, line := range lines {
			res := native.Run(line, opts)
			want := printed{line, res.Stdout, res.Stderr, res.Status}
			if got[i] != want {
				failed++
				t.Errorf("%s line %d: %s\n  page:   %+v\n  native: %+v", name, i, line, got[i], want)
			}
		}
		if failed > 0 {
			t.Logf("%s: %d of %d lines differ", name, failed, len(lines))
		}
	}
}

// typePartial types text into the terminal's command line without running
// it, over what it holds.
func typePartial(t *testing.T, p *chrome.Page, text string) {
	t.Helper()
	chrome.Eval[bool](t, p, `const e = document.getElementById("terminal-input"); e.focus(); e.value = ""; return true`)
	do(t, p, typeLine(text))
}

// commandLine is what the terminal's command line holds.
func commandLine(t *testing.T, p *chrome.Page) string {
	t.Helper()
	return chrome.Eval[string](t, p, `return document.getElementById("terminal-input").value`)
}

// TestTerminal uses the playground's terminal by keyboard alone, as a
// learner does: what a screen reader finds, commands that change the
// stacks and the clock, the HTTP view, output shown as text, Tab, the
// history on ↑ and ↓, a reload, and an exercise done in the terminal.
func TestTerminal(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)

	t.Run("a region headed Terminal holds a textbox named Command and a log", func(t *testing.T) {
		region := accessibilityTree(t, p).find(func(n *axNode) bool { return n.Role == "region" && n.Name == "Terminal" })
		if region == nil {
			t.Fatal("no region named Terminal")
		}
		if region.find(func(n *axNode) bool { return n.Role == "textbox" && n.Name == "Command" }) == nil {
			t.Error("the Terminal region has no textbox named Command")
		}
		if region.find(func(n *axNode) bool { return n.Role == "log" }) == nil {
			t.Error("the Terminal region has no log")
		}
	})

	t.Run("commands change the stacks and the clock", func(t *testing.T) {
		got := typeLines(t, p,
			"aws s3api create-bucket --bucket demo",
			"aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Enabled",
			"echo old > old.txt",
			"aws s3api put-object --bucket demo --key logs/app.log --body old.txt --query VersionId --output text",
			"minis3 clock 15",
			"aws s3api get-object --bucket demo --key nothing out.txt")
		if got[3].Stdout != "v00000001\n" || got[3].Status != 0 {
			t.Errorf("put-object printed %+v", got[3])
		}
		if got[5].Status != 255 || !strings.Contains(got[5].Stderr, "An error occurred (NoSuchKey)") {
			t.Errorf("get-object of a missing key printed %+v", got[5])
		}
		wantStack(t, stacks(t, p), "logs/app.log", []entry{{VersionID: "v00000001", Kind: "data", Current: true}})
		if now := text(t, p, "#clock-now"); now != "15" {
			t.Errorf("the clock shows %q after minis3 clock 15", now)
		}
		if got := text(t, p, "#versioning-state"); got != "enabled" {
			t.Errorf("versioning shows %q", got)
		}
		// undo takes the store back, and the page shows it.
		typeLines(t, p, "aws s3api delete-object --bucket demo --key logs/app.log")
		wantStack(t, stacks(t, p), "logs/app.log", []entry{{VersionID: "v00000002", Kind: "marker", Current: true}, {VersionID: "v00000001", Kind: "data"}})
		typeLines(t, p, "undo")
		wantStack(t, stacks(t, p), "logs/app.log", []entry{{VersionID: "v00000001", Kind: "data", Current: true}})
	})

	t.Run("the HTTP view lists each request a command sent", func(t *testing.T) {
		typeLines(t, p, "minis3 clock +1")
		type exchange struct{ Request, Response string }
		got := chrome.Eval[[]exchange](t, p, `return [...document.querySelectorAll("#http .exchange")].map((x) => ({
			Request: x.querySelector(".req").textContent.split("\n")[0], Response: x.querySelector(".res").textContent.split("\n")[0] }))`)
		want := []exchange{{"GET /_minis3/clock", "200 OK"}, {"PUT /_minis3/clock", "200 OK"}}
		if !slices.Equal(got, want) {
			t.Errorf("the HTTP view shows %+v, want %+v", got, want)
		}
		if title := text(t, p, "#http .hint"); !strings.Contains(title, "minis3 clock +1") {
			t.Errorf("the HTTP view is titled %q", title)
		}
		if got := newestHistory(t, p); !strings.Contains(got, "$ ") || !strings.Contains(got, "minis3 clock +1") {
			t.Errorf("the history's newest entry is %q", got)
		}
	})

	t.Run("output is text, never HTML", func(t *testing.T) {
		const hostile = `<img src=x onerror="window.__pwned=1"><b>bold</b>`
		got := typeLines(t, p, `echo '`+hostile+`' > h.txt`, "cat h.txt", `aws s3api put-object --bucket demo --key '`+hostile+`'`)
		if got[1].Stdout != hostile+"\n" {
			t.Errorf("cat printed %q", got[1].Stdout)
		}
		if bad := chrome.Eval[[]string](t, p, `const bad = [];
			if (window.__pwned !== undefined) bad.push("the handler ran");
			for (const sel of ["#terminal-log img", "#terminal-log b", "#stacks img", "#http img", "#history img"]) if (document.querySelector(sel)) bad.push(sel);
			return bad;`); len(bad) != 0 {
			t.Errorf("data became HTML: %v", bad)
		}
		if key := stackKey(t, p, hostile); key != hostile {
			t.Errorf("the stack of the hostile key shows %q", key)
		}
	})

	t.Run("Tab completes command and option names", func(t *testing.T) {
		for _, c := range []struct{ typed, want string }{
			{"aws s3api list-object-v", "aws s3api list-object-versions "},
			{"aws s3api list-object-versions --buc", "aws s3api list-object-versions --bucket "},
			{"aws s3 sy", "aws s3 sync "},
			{"minis3 ti", "minis3 tick "},
			{"his", "history "},
			{"cat h.t", "cat h.txt "},
			// put-object, put-object-acl, …: as far as they agree.
			{"aws s3api put-obj", "aws s3api put-object"},
		} {
			typePartial(t, p, c.typed)
			do(t, p, chromedp.KeyEvent(kb.Tab))
			if got := commandLine(t, p); got != c.want {
				t.Errorf("Tab after %q: %q, want %q", c.typed, got, c.want)
			}
		}
		// Where they agree no further, a second Tab lists them.
		do(t, p, chromedp.KeyEvent(kb.Tab))
		if got := text(t, p, "#terminal-completions"); !strings.Contains(got, "put-object-tagging") {
			t.Errorf("the completions listed: %q", got)
		}
		// On an empty line Tab moves on: the keyboard is never trapped.
		typePartial(t, p, "")
		do(t, p, chromedp.KeyEvent(kb.Tab))
		if id := chrome.Eval[string](t, p, `return document.activeElement.id`); id == "terminal-input" {
			t.Error("Tab on an empty line kept the focus")
		}
	})

	history := []string{"echo one", "echo two", "echo three"}
	t.Run("up and down go through the history", func(t *testing.T) {
		typeLines(t, p, history...)
		typePartial(t, p, "draft")
		for _, want := range []string{"echo three", "echo two", "echo one"} {
			do(t, p, chromedp.KeyEvent(kb.ArrowUp))
			if got := commandLine(t, p); got != want {
				t.Errorf("↑: %q, want %q", got, want)
			}
		}
		for _, want := range []string{"echo two", "echo three", "draft", "draft"} {
			do(t, p, chromedp.KeyEvent(kb.ArrowDown))
			if got := commandLine(t, p); got != want {
				t.Errorf("↓: %q, want %q", got, want)
			}
		}
		do(t, p, chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
		p.WaitFor(t, `document.querySelector("#terminal-log .term-entry:last-child .term-out")?.textContent === "three\n" && !document.body.classList.contains("busy")`)
	})
	shotTerminal(t, p, "terminal-1280x800")
	darkTheme(t, p)
	shotTerminal(t, p, "terminal-1280x800-dark")

	t.Run("a reload keeps the history and the files", func(t *testing.T) {
		p.Reload(t)
		waitReady(t, p)
		typePartial(t, p, "")
		do(t, p, chromedp.KeyEvent(kb.ArrowUp))
		if got := commandLine(t, p); got != "echo three" {
			t.Errorf("↑ after the reload: %q, want the last line before it", got)
		}
		got := typeLines(t, p, "cat old.txt", "undo")
		if got[0].Stdout != "old\n" {
			t.Errorf("cat old.txt after the reload printed %+v", got[0])
		}
		// undo still knows the last command that changed the store: the
		// hostile PUT.
		if got[1].Status != 0 || stackKey(t, p, `<img src=x onerror="window.__pwned=1"><b>bold</b>`) != "" {
			t.Errorf("undo after the reload: %+v", got[1])
		}
	})

	t.Run("a share link replays the command lines", func(t *testing.T) {
		view := func(p *chrome.Page) string {
			return chrome.Eval[string](t, p, `return [...document.querySelectorAll("#stacks li.entry")].map((li) => li.dataset.key + " " + li.dataset.versionId + " " + li.className).join("\n") +
				" | " + document.getElementById("clock-now").textContent + " | " + document.querySelector("#terminal-log .term-entry:last-child")?.textContent`)
		}
		before := view(p)
		do(t, p, click("#share-btn"))
		p.WaitFor(t, `document.getElementById("share-dialog").open`)
		link := chrome.Eval[string](t, p, `return document.getElementById("share-url").value`)
		do(t, p, click(`#share-dialog button[value="close"]`))
		q := open(t, link, 1280, 800)
		waitReady(t, q)
		q.WaitFor(t, `document.getElementById("status").textContent.startsWith("Restored")`)
		if after := view(q); after != before {
			t.Errorf("the share link shows\n%s\nwant\n%s", after, before)
		}
	})

	t.Run("clear empties the screen", func(t *testing.T) {
		typeLines(t, p, "clear")
		if n := chrome.Eval[int](t, p, `return document.querySelectorAll("#terminal-log > *").length`); n != 0 {
			t.Errorf("after clear the screen shows %d lines", n)
		}
	})
	noCSPViolations(t, p)
}

// shotTerminal writes what the viewport shows, scrolled to the terminal
// with the focus on its command line, to out/name.png.
func shotTerminal(t *testing.T, p *chrome.Page, name string) {
	t.Helper()
	chrome.Eval[bool](t, p, `document.getElementById("terminal-input").focus(); document.getElementById("terminal-panel").scrollIntoView({ block: "center" }); return true`)
	viewportShot(t, p, name)
}

// TestTerminalInEmbedsAndExercises opens embeds: one that leaves the
// terminal out, as embeds do unless asked; one whose show= asks for it;
// and one whose exercise is done in the terminal, where the stage is
// command steps, a check looks at the commands run, and the solution is
// typed for the student.
func TestTerminalInEmbedsAndExercises(t *testing.T) {
	t.Parallel()
	base := site(t)
	b := chrome.Launch(t)
	openEmbed := func(query string) *chrome.Page {
		p := b.Open(t, "about:blank")
		do(t, p, chromedp.EmulateViewport(800, 600))
		p.Navigate(t, base+"/?embed=1"+query)
		p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
		do(t, p, click("#load-btn"))
		waitReady(t, p)
		return p
	}
	shown := func(p *chrome.Page) bool {
		return chrome.Eval[bool](t, p, `return !document.getElementById("terminal-panel").hidden`)
	}

	t.Run("an embed shows the terminal when show= names it", func(t *testing.T) {
		if p := openEmbed("&scenario=worked-example"); shown(p) {
			t.Error("an embed without show=terminal, of a scenario that types no command, shows the terminal")
		}
		p := openEmbed("&show=clock,stacks,terminal")
		if !shown(p) {
			t.Fatal("show=terminal leaves the terminal out")
		}
		typeLines(t, p, "aws s3 mb s3://demo", "echo hello > hello.txt", "aws s3 cp hello.txt s3://demo/greetings/hello.txt", "aws s3 ls s3://demo --recursive")
		wantStack(t, stacks(t, p), "greetings/hello.txt", []entry{{VersionID: "null", Kind: "data", Current: true}})
		shotTerminal(t, p, "terminal-embed-800x600")
		darkTheme(t, p)
		shotTerminal(t, p, "terminal-embed-800x600-dark")
	})

	p := openEmbed("&scenario=exercise-boundary-terminal")
	t.Run("an embed of a scenario that types commands shows the terminal", func(t *testing.T) {
		if !shown(p) {
			t.Error("the terminal exercise's embed leaves the terminal out")
		}
	})

	t.Run("a command step runs in the terminal", func(t *testing.T) {
		do(t, p, click("#task-stage-btn"))
		p.WaitFor(t, `document.getElementById("task-stage-btn").hidden && !document.body.classList.contains("busy")`)
		lines := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#terminal-log .term-text")].map((e) => e.textContent)`)
		if len(lines) != 7 || lines[0] != "aws s3api create-bucket --bucket demo" || lines[6] != "aws s3api put-object --bucket demo --key logs/app.log --body current.txt --query VersionId --output text" {
			t.Errorf("after the stage the terminal shows %q", lines)
		}
		if got := text(t, p, "#scenario-summary"); !strings.Contains(got, "the store did what each step expects (2 expectations)") {
			t.Errorf("the stage's checks: %q", got)
		}
		wantStack(t, stacks(t, p), "logs/app.log", []entry{{VersionID: "v00000002", Kind: "data", Current: true}, {VersionID: "v00000001", Kind: "data"}})
	})

	check := func() []string {
		do(t, p, click("#task-check-btn"))
		p.WaitFor(t, `document.getElementById("task-verdict").textContent !== "" && !document.body.classList.contains("busy")`)
		// The checks' results, without the isolates around data.
		return chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#task-checks li")].map((li) => li.className + ": " + li.textContent.replace(/[\u2068\u2069]/g, ""))`)
	}
	t.Run("a command check looks at the commands run", func(t *testing.T) {
		typeLines(t, p, "minis3 clock 15", "minis3 tick demo")
		got := check()
		if len(got) != 3 || !strings.HasPrefix(got[0], "fail") || !strings.Contains(got[0], "minis3 tick demo at 15") || !strings.HasPrefix(got[1], "pass") {
			t.Errorf("after a tick at 15 alone: %q", got)
		}
		// undo takes the tick back: the store is as the stage left it, but
		// for the clock.
		typeLines(t, p, "undo")
		wantStack(t, stacks(t, p), "logs/app.log", []entry{
			{VersionID: "v00000002", Kind: "data", Current: true, Expiring: "⚠ next tick: expire current (rule \u2068logs\u2069)"},
			{VersionID: "v00000001", Kind: "data", Expiring: "⚠ next tick: expire noncurrent (rule \u2068logs\u2069)"}})
	})

	t.Run("Type it for me types the solution's commands", func(t *testing.T) {
		do(t, p, click("#task-solution-btn"))
		if got := text(t, p, "#task-solution-run-btn"); got != "Type it for me" {
			t.Errorf("the solution's button says %q", got)
		}
		// Type it for me starts again (the stage's 7 lines typed again),
		// then types the solution's 4.
		n := chrome.Eval[int](t, p, `return Number(document.getElementById("terminal-log").dataset.lines)`)
		do(t, p, click("#task-solution-run-btn"))
		p.WaitFor(t, `Number(document.getElementById("terminal-log").dataset.lines) === `+strconv.Itoa(n+7+4)+` && !document.body.classList.contains("busy")`)
		lines := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#terminal-log .term-text")].slice(-4).map((e) => e.textContent)`)
		if want := []string{"minis3 clock 14.999", "minis3 tick demo", "minis3 clock 15", "minis3 tick demo"}; !slices.Equal(lines, want) {
			t.Errorf("typed %q, want %q", lines, want)
		}
		if got := check(); len(got) != 3 || strings.Contains(strings.Join(got, "\n"), "fail") {
			t.Errorf("after the solution: %q", got)
		}
		if got := text(t, p, "#task-verdict"); !strings.HasPrefix(got, "Solved") {
			t.Errorf("the verdict: %q", got)
		}
	})
	shotTerminal(t, p, "terminal-embed-exercise-800x600")

	t.Run("a command check reads the operation and options, not their spelling", func(t *testing.T) {
		type result struct {
			Line string
			Pass bool
		}
		got := chrome.Eval[[]result](t, p, `const { checkTask, evaluateTask, takenStep } = await import("./app/exercise.js");
			const { state } = await import("./app/state.js");
			const { task } = checkTask({ prompt: "p", solution: { text: "s" },
				checks: [{ label: "versions listed", ran: "aws s3api list-object-versions --bucket demo --prefix logs/" }] }, "demo");
			const lines = [
				"aws s3api list-object-versions --bucket demo --prefix logs/",
				"aws s3api list-object-versions --prefix=logs/ --buck demo --output text --max-items 5",
				"aws --output json s3api list-object-versions --prefix logs/ --bucket demo",
				"aws s3api list-object-versions --bucket demo",
				"aws s3api list-object-versions --bucket other --prefix logs/",
				"aws s3api list-objects-v2 --bucket demo --prefix logs/",
				"aws s3api list-object-versions --bucket demo --prefix logs/ --no-such-option",
			];
			return lines.map((line) => ({ Line: line, Pass: evaluateTask(task, { describe: (l) => state.terminal.describe(l),
				taken: [takenStep({ op: "command", line }, { ok: true }, 0)] }).solved }));`)
		for i, r := range got {
			if want := i < 3; r.Pass != want {
				t.Errorf("%s: passes %v, want %v", r.Line, r.Pass, want)
			}
		}
	})

	t.Run("a command check reads a structured value as the CLI sends it, whatever its spelling", func(t *testing.T) {
		// JSON, file:// and shorthand; the file changes after the line that
		// reads it ran, which read it as it was then.
		typeLines(t, p,
			`echo '{"Status": "Suspended"}' > versioning.json`,
			"aws s3api put-bucket-versioning --bucket demo --versioning-configuration file://versioning.json",
			`echo '{"Status": "Enabled"}' > versioning.json`,
			`aws s3api put-bucket-versioning --versioning-configuration ' { "Status" : "Enabled" } ' --bucket demo`,
			`aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration '{"Rules": [{"Status": "Enabled", "Filter": {"Prefix": "logs/"}, "ID": "logs", "Expiration": {"Days": 30}}]}'`)
		type result struct {
			Label, Detail string
			Pass          bool
		}
		got := chrome.Eval[[]result](t, p, `const { checkTask, evaluateTask } = await import("./app/exercise.js");
			const { state } = await import("./app/state.js");
			const { task, error } = checkTask({ prompt: "p", solution: { text: "s" }, checks: [
				{ label: "suspended once", ran: "aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Suspended", count: 1 },
				{ label: "enabled once", ran: "aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Enabled", count: 1 },
				{ label: "the rule", ran: "aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration 'Rules=[{ID=logs,Status=Enabled,Filter={Prefix=logs/},Expiration={Days=30}}]'" },
				{ label: "another rule", ran: "aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration 'Rules=[{ID=logs,Status=Enabled,Filter={Prefix=logs/},Expiration={Days=31}}]'" },
			] }, "demo");
			if (error) throw new Error(error);
			return evaluateTask(task, { taken: state.exercise.progress.taken, describe: (l) => state.terminal.describe(l) }).checks
				.map((c) => ({ Label: c.label, Detail: c.detail.replace(/[\u2068\u2069]/g, ""), Pass: c.pass }));`)
		for _, r := range got {
			if want := r.Label != "another rule"; r.Pass != want {
				t.Errorf("%s: passes %v (%s), want %v", r.Label, r.Pass, r.Detail, want)
			}
		}
		if len(got) != 4 || !strings.HasPrefix(got[3].Detail, "not yet: you ran") || !strings.Contains(got[3].Detail, `--lifecycle-configuration '{"Rules": [{"Status": "Enabled"`) {
			t.Errorf("what a check that fails says: %+v", got)
		}
	})
	noCSPViolations(t, p)
}
