//go:build !js

package page

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
)

// These tests do every built-in exercise as a student would, with the
// page's own controls: wrong first, then right; stuck, then Start again
// and Do it for me. Before an exercise is solved they read only what the
// page shows, and check that it never states what the task asks for.

// student is what a student does in one built-in exercise.
type student struct {
	name string
	// uses are the panels, and parts of panels, the exercise is done in
	// besides the task, the clock and the stacks: the others fold away.
	uses []string
	// secrets are what the task asks the student to find or choose: no
	// text the page shows says them before it is solved.
	secrets []string
	// wrong and right are the student's attempts, from the stage; each
	// ends with Check my work to do.
	wrong, right func(t *testing.T, p *chrome.Page)
}

// The student's own actions, each through the control a student uses.

func tick(t *testing.T, p *chrome.Page)    { act(t, p, click("#tick-btn")) }
func preview(t *testing.T, p *chrome.Page) { act(t, p, click("#preview-btn")) }

func answer(t *testing.T, p *chrome.Page, text string) {
	do(t, p, typeInto("#task-answer-text", text))
}

func putObject(t *testing.T, p *chrome.Page, key, body string) {
	act(t, p, typeInto("#obj-key", key), typeInto("#obj-body", body), typeInto("#obj-version", ""), click("#put-btn"))
}

func getObject(t *testing.T, p *chrome.Page, key string) {
	act(t, p, typeInto("#obj-key", key), typeInto("#obj-version", ""), click("#get-btn"))
}

func addDays(t *testing.T, p *chrome.Page, days string) {
	act(t, p, click(`.day-btn[data-days="`+days+`"]`))
}

// students are the built-in exercises, each done wrong and then right.
var students = []student{
	{
		name:    "exercise-worked",
		uses:    []string{"lifecycle"},
		secrets: []string{"15"},
		wrong: func(t *testing.T, p *chrome.Page) {
			answer(t, p, "14")
			setClock(t, p, "14")
			tick(t, p)
		},
		right: func(t *testing.T, p *chrome.Page) {
			answer(t, p, "15")
			setClock(t, p, "15")
			tick(t, p)
		},
	},
	{
		name:    "exercise-now",
		uses:    []string{"lifecycle"},
		secrets: []string{"12"},
		wrong: func(t *testing.T, p *chrome.Page) {
			setClock(t, p, "13")
			tick(t, p)
			answer(t, p, "13")
		},
		right: func(t *testing.T, p *chrome.Page) {
			setClock(t, p, "11.999")
			preview(t, p)
			setClock(t, p, "12")
			preview(t, p)
			answer(t, p, "12")
		},
	},
	{
		name:    "exercise-marker",
		uses:    []string{"lifecycle"},
		secrets: []string{"A noncurrent action names one version ID"},
		wrong: func(t *testing.T, p *chrome.Page) {
			setClock(t, p, "15")
			tick(t, p)
			do(t, p, click("#task-choice-1"))
		},
		right: func(t *testing.T, p *chrome.Page) {
			setClock(t, p, "12")
			tick(t, p)
			setClock(t, p, "15")
			tick(t, p)
			do(t, p, click("#task-choice-2"))
			// A version's own GET: its outcome shows under the stacks,
			// where the student clicked.
			act(t, p, click(`#stacks button[data-act="get"][data-version-id="v00000002"]`))
			if got := text(t, p, "#stacks-result"); !strings.Contains(got, `"current"`) {
				t.Errorf("after a version's GET the stacks show %q, want its body", got)
			}
		},
	},
	{
		name:    "exercise-boundary",
		uses:    []string{"lifecycle"},
		secrets: []string{"9.999"},
		wrong: func(t *testing.T, p *chrome.Page) {
			setClock(t, p, "15")
			tick(t, p)
		},
		right: func(t *testing.T, p *chrome.Page) {
			setClock(t, p, "14.999")
			tick(t, p)
			setClock(t, p, "15")
			tick(t, p)
		},
	},
	{
		name: "exercise-keep",
		uses: []string{"lifecycle", "actions"},
		wrong: func(t *testing.T, p *chrome.Page) {
			setClock(t, p, "12")
			tick(t, p)
			setClock(t, p, "15")
			tick(t, p)
			getObject(t, p, "keep/item")
		},
		right: func(t *testing.T, p *chrome.Page) {
			putObject(t, p, "keep/item", "keep me")
			setClock(t, p, "12")
			tick(t, p)
			setClock(t, p, "15")
			tick(t, p)
			getObject(t, p, "keep/item")
		},
	},
	{
		name: "exercise-one-rule",
		uses: []string{"lifecycle"},
		wrong: func(t *testing.T, p *chrome.Page) {
			do(t, p, click("#add-rule-btn"), typeInto("#rule-0-noncurrent", "0"))
			tick(t, p)
		},
		right: func(t *testing.T, p *chrome.Page) {
			do(t, p, click("#add-rule-btn"), typeInto("#rule-0-id", "logs-history"), typeInto("#rule-0-prefix", "logs/"), typeInto("#rule-0-noncurrent", "0"))
			tick(t, p)
		},
	},
	{
		name: "exercise-s3-newest",
		uses: []string{"s3", "days"},
		wrong: func(t *testing.T, p *chrome.Page) {
			do(t, p, click(`input[name="s3-mode"][value="form"]`), click("#s3-add-rule-btn"), typeInto("#s3r-0-prefix", "logs/"), press(openGroup(0, "noncurrent"), kb.Enter), typeInto("#s3r-0-noncurrentDays", "1"))
			act(t, p, click("#s3-save-btn"))
			storedLine(t, p, "1 rule")
			addDays(t, p, "1")
			addDays(t, p, "1")
		},
		right: func(t *testing.T, p *chrome.Page) {
			do(t, p, click(`input[name="s3-mode"][value="json"]`))
			typeText(t, p, "#s3-json", `{"Rules": [{"ID": "newest-2", "Status": "Enabled", "Filter": {"Prefix": "logs/"}, "NoncurrentVersionExpiration": {"NoncurrentDays": 1, "NewerNoncurrentVersions": 2}}]}`)
			act(t, p, click("#s3-save-btn"))
			storedLine(t, p, "1 rule")
			addDays(t, p, "7")
		},
	},
}

// taskView is what the task panel shows.
type taskView struct {
	Verdict, Text       string
	Failed, Hints       int
	SolutionOffered     bool
	CriteriaShown       bool
	StageLeft, Answered bool
}

func readTask(t *testing.T, p *chrome.Page) taskView {
	t.Helper()
	return chrome.Eval[taskView](t, p, `const $ = (id) => document.getElementById(id); return {
		Verdict: $("task-verdict").textContent, Text: $("task").innerText,
		Failed: document.querySelectorAll("#task-checks > li.fail").length, Hints: document.querySelectorAll("#task-checks .check-hint").length,
		SolutionOffered: !$("task-solution-btn").hidden, CriteriaShown: !$("task-criteria").hidden,
		StageLeft: !$("task-stage-btn").hidden, Answered: ($("task-answer-text")?.value ?? "") !== "" }`)
}

// checkWork presses Check my work and waits for its verdict.
func checkWork(t *testing.T, p *chrome.Page) taskView {
	t.Helper()
	before := text(t, p, "#task-verdict")
	do(t, p, click("#task-check-btn"))
	p.WaitFor(t, `document.getElementById("task-verdict").textContent !== `+quote(before)+` && !document.body.classList.contains("busy")`)
	return readTask(t, p)
}

// waitStaged waits until the exercise's stage is set and the page idle.
func waitStaged(t *testing.T, p *chrome.Page) {
	t.Helper()
	p.WaitFor(t, `document.getElementById("task-stage-btn").hidden && !document.getElementById("task-check-btn").disabled && !document.body.classList.contains("busy")`)
}

// startAgain presses Start again and waits for the stage to be set again.
func startAgain(t *testing.T, p *chrome.Page) {
	t.Helper()
	do(t, p, click("#task-restart-btn"))
	p.WaitFor(t, `document.getElementById("task-verdict").textContent === ""`)
	waitStaged(t, p)
}

// sameStacks: the same versions, by key, kind and state.
func sameStacks(a, b map[string][]entry) bool {
	if len(a) != len(b) {
		return false
	}
	for key, es := range a {
		if !slices.EqualFunc(es, b[key], func(x, y entry) bool {
			return x.VersionID == y.VersionID && x.Kind == y.Kind && x.Current == y.Current
		}) {
			return false
		}
	}
	return true
}

// shownText is the text the page shows (hidden and folded panels left
// out), without the clock's date, whose day of the month is the test's.
func shownText(t *testing.T, p *chrome.Page) string {
	t.Helper()
	return chrome.Eval[string](t, p, `return document.getElementById("app").innerText.replace(document.getElementById("clock-date").innerText, "")`)
}

// wantNothingGivenAway fails the test if the page shows one of the
// exercise's secrets, outside what the student chooses from, or a check
// speaks code.
func wantNothingGivenAway(t *testing.T, p *chrome.Page, s student, when string) {
	t.Helper()
	shown := shownText(t, p)
	if choices := chrome.Eval[string](t, p, `return document.querySelector("#task-answer fieldset")?.innerText ?? ""`); choices != "" {
		shown = strings.Replace(shown, choices, "", 1)
	}
	for _, secret := range s.secrets {
		if regexp.MustCompile(`(^|[\s(=])` + regexp.QuoteMeta(secret) + `($|[\s).,;:])`).MatchString(shown) {
			t.Errorf("%s: the page shows %q, what the task asks for, before it is solved:\n%s", when, secret, shown)
		}
	}
	task := text(t, p, "#task")
	for _, w := range codeWords {
		if strings.Contains(task, w) {
			t.Errorf("%s: the task panel speaks code (%q): %s", when, w, task)
		}
	}
}

// wantFirstScreen fails the test unless the task (sels: its parts that
// must show), the clock, the stacks and, where the exercise uses it, Tick
// are on the first screen.
func wantFirstScreen(t *testing.T, p *chrome.Page, when string, sels ...string) {
	t.Helper()
	chrome.Eval[bool](t, p, `scrollTo(0, 0); return true`)
	sels = append(sels, "#clock-now", "#clock-set-form", "#stacks .stack-key")
	if chrome.Eval[bool](t, p, `return document.getElementById("tick-btn").getClientRects().length > 0`) {
		sels = append(sels, "#tick-btn")
	}
	inView(t, p, when, sels...)
}

// What of the task must be on the first screen: all of its start, and
// once checked, its buttons and verdict (a task cut short scrolls within).
var (
	taskStart   = []string{"#task-title", "#task-prompt", "#task-check-btn"}
	taskChecked = []string{"#task-check-btn", "#task-restart-btn", "#task-verdict"}
)

// The panels and parts of panels an exercise may fold away, by name, and
// where the page shows them.
var foldable = map[string]string{
	"lifecycle": "#lifecycle-panel", "days": "#clock-days", "bucket": "#bucket-panel", "actions": "#actions-panel",
	"tags": "#obj-tags", "multipart": "#multipart-form", "s3": "#s3-panel", "compare": "#compare-panel",
	"timeline": "#timeline-panel", "scenarios": "#scenarios-panel", "history": "#history-panel", "http": "#http-panel",
}

// wantFolded fails the test unless the page shows the panels the exercise
// uses and folds the others away, each with a button to bring it back
// (but the views of when each version is due, until it is solved).
func wantFolded(t *testing.T, p *chrome.Page, s student, solved bool) {
	t.Helper()
	offered := chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#folds button[data-fold]")].map((b) => b.dataset.fold)`)
	for name, sel := range foldable {
		shown := chrome.Eval[bool](t, p, `return document.querySelector(`+quote(sel)+`).getClientRects().length > 0`)
		used := slices.Contains(s.uses, name)
		if shown != used {
			t.Errorf("%s is shown: %v, want %v (the exercise uses %v)", name, shown, used, s.uses)
		}
		locked := (name == "compare" || name == "timeline") && !solved
		if want := !used && !locked; slices.Contains(offered, name) != want {
			t.Errorf("the folded panels offer %v: want %s among them: %v", offered, name, want)
		}
	}
	if locked := chrome.Eval[bool](t, p, `return !document.getElementById("folds-locked").hidden`); locked == solved {
		t.Errorf("the note that the views of when versions are due come back once solved is shown: %v (solved: %v)", locked, solved)
	}
}

// showScenarios brings back the Scenarios panel when an exercise folded
// it away, as a student does: the focus goes to it.
func showScenarios(t *testing.T, p *chrome.Page) {
	t.Helper()
	if chrome.Eval[bool](t, p, `return document.getElementById("scenarios-panel").hidden`) {
		do(t, p, click(`#folds button[data-fold="scenarios"]`))
		if got := activeID(t, p); got != "scenarios-panel" {
			t.Errorf("after unfolding the scenarios the focus is on %q", got)
		}
	}
}

// loadExercise loads a built-in exercise from the Scenarios panel,
// unfolding it first when an exercise folded it away.
func loadExercise(t *testing.T, p *chrome.Page, name string) {
	t.Helper()
	showScenarios(t, p)
	do(t, p, chromedp.SetValue("#scenario-select", name), click("#scenario-load-btn"))
	p.WaitFor(t, `document.getElementById("confirm-dialog").open || !document.getElementById("task").hidden`)
	if chrome.Eval[bool](t, p, `return document.getElementById("confirm-dialog").open`) {
		do(t, p, click("#confirm-ok"))
	}
	p.WaitFor(t, `!document.getElementById("task").hidden && !document.getElementById("task-stage-btn").hidden && !document.body.classList.contains("busy")`)
}

// TestEveryExerciseAsAStudent does every built-in exercise at 1280x800 as
// a student: it loads it (the page goes to the task), sets the stage (the
// task, the clock, Tick and the stacks on the first screen, nothing given
// away), fails it (the checks say what is wrong in the chapter's words,
// with hints, and Tick stays in view), starts again (the stage is back),
// solves it, and then, stuck, starts again and has the page do it: solved.
func TestEveryExerciseAsAStudent(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	// The exercises done in the forms; those typed in the terminal
	// (-terminal) are TestTerminalInEmbedsAndExercises's.
	names := chrome.Eval[[]string](t, p, `const { loadScenarios } = await import("./app/scenarios.js");
		return (await loadScenarios()).scenarios.filter((s) => s.task && !s.name.endsWith("-terminal")).map((s) => s.name);`)
	for _, s := range students {
		if !slices.Contains(names, s.name) {
			t.Errorf("%s is not a built-in exercise", s.name)
		}
	}
	if len(names) != len(students) {
		t.Errorf("built-in exercises %v: this test does %d", names, len(students))
	}
	for _, s := range students {
		t.Run(s.name, func(t *testing.T) {
			loadExercise(t, p, s.name)
			if got := activeID(t, p); got != "task" {
				t.Errorf("after loading, the focus is on %q, want the task", got)
			}
			inView(t, p, "the exercise loaded", "#task-title", "#task-stage-btn")
			wantNothingGivenAway(t, p, s, "loaded")
			do(t, p, click("#task-stage-btn"))
			waitStaged(t, p)
			stage := stacks(t, p)
			stageSteps := historyLen(t, p)
			wantFirstScreen(t, p, "the stage set", taskStart...)
			wantFolded(t, p, s, false)
			wantNothingGivenAway(t, p, s, "the stage set")
			viewShot(t, p, "student-"+s.name+"-staged")

			s.wrong(t, p)
			v := checkWork(t, p)
			if !strings.HasPrefix(v.Verdict, "Not yet") || v.Failed == 0 || v.Hints == 0 || !v.SolutionOffered {
				t.Fatalf("the wrong attempt: %+v, want it failed, with hints and the solution offered", v)
			}
			wantNothingGivenAway(t, p, s, "the wrong attempt checked")
			wantFirstScreen(t, p, "the wrong attempt checked", taskChecked...)
			viewShot(t, p, "student-"+s.name+"-failed")

			startAgain(t, p)
			v = readTask(t, p)
			if v.Failed != 0 || !v.CriteriaShown || v.Answered || !v.SolutionOffered || historyLen(t, p) != stageSteps {
				t.Errorf("after Start again: %+v, %d history entries; want no verdict, the criteria, no answer, the solution still offered (the attempt counts), the stage's %d steps", v, historyLen(t, p), stageSteps)
			}
			if got := stacks(t, p); !sameStacks(got, stage) {
				t.Errorf("after Start again the stacks are %+v, want the stage's %+v", got, stage)
			}

			s.right(t, p)
			if v := checkWork(t, p); !strings.HasPrefix(v.Verdict, "Solved") {
				t.Fatalf("the right attempt: %+v", v)
			}
			wantFolded(t, p, s, true)

			// Stuck after starting again: the solution, performed by the
			// page from the stage, always ends solved.
			startAgain(t, p)
			s.wrong(t, p)
			if v := checkWork(t, p); !strings.HasPrefix(v.Verdict, "Not yet") || !v.SolutionOffered {
				t.Fatalf("stuck again: %+v, want it failed with the solution offered", v)
			}
			do(t, p, click("#task-solution-btn"), click("#task-solution-run-btn"))
			p.WaitFor(t, `document.getElementById("task-verdict").textContent.startsWith("Solved") && !document.body.classList.contains("busy")`)
			if got := text(t, p, "#task-verdict"); !strings.Contains(got, "all") {
				t.Errorf("after Do it for me: %q", got)
			}
			// Without Check pressed: the stage and the solution's steps
			// only, the student's wrong ones gone.
			solution := chrome.Eval[int](t, p, `return document.querySelectorAll("#task-solution-steps li").length`)
			if got := historyLen(t, p); got != stageSteps+solution {
				t.Errorf("after Do it for me: %d history entries, want the stage's and the solution's %d", got, stageSteps+solution)
			}

			// A panel brought back stays when the exercise starts again.
			do(t, p, click(`#folds button[data-fold="http"]`))
			startAgain(t, p)
			if chrome.Eval[bool](t, p, `return document.getElementById("http-panel").hidden`) {
				t.Error("the HTTP panel, brought back, folded again when the exercise started again")
			}
		})
	}
	noCSPViolations(t, p)
}

// TestExerciseEmbedsFitTheFirstScreen sets the stage of every built-in
// exercise in an embed of 800x600 (the worked example's and a terminal
// exercise's also in the dark theme): the task, the clock, Tick (where
// the exercise uses it) and the stacks are on the first screen, and in a
// terminal exercise the terminal's command line and its last line of
// output too; the embed's height stays near that screen, and a task grown
// tall with every hint and a failed check still leaves its buttons, its
// verdict, Tick and the command line in view.
func TestExerciseEmbedsFitTheFirstScreen(t *testing.T) {
	t.Parallel()
	base := site(t)
	p := open(t, "about:blank", 800, 600)
	noDialogs(t, p)
	var names []string
	for _, s := range students {
		names = append(names, s.name)
	}
	names = append(names, terminalExercises...)
	light := len(names)
	names = append(names, students[0].name, terminalExercises[len(terminalExercises)-1])
	for i, name := range names {
		theme := "light"
		if i == light {
			darkTheme(t, p)
		}
		if i >= light {
			theme = "dark"
		}
		typed := slices.Contains(terminalExercises, name)
		terminalLine := func(sels []string) []string {
			if !typed {
				return sels
			}
			return append(slices.Clone(sels), "#terminal-input", "#terminal-log .term-entry:last-child")
		}
		t.Run(name+"-"+theme, func(t *testing.T) {
			p.Navigate(t, base+"/?embed=1&scenario="+name)
			startEmbed(t, p)
			p.WaitFor(t, `!document.getElementById("task-stage-btn").hidden`)
			do(t, p, click("#task-stage-btn"))
			waitStaged(t, p)
			wantFirstScreen(t, p, "the stage set", terminalLine(taskStart)...)
			viewShot(t, p, "embed-800x600-"+name+"-"+theme)
			// The height the embed reports once all of it is drawn (the
			// views drawn as they come near the viewport too), as in a
			// course page's iframe as high as it says.
			size := chrome.Eval[struct{ Height, Stacks float64 }](t, p, `scrollTo(0, document.documentElement.scrollHeight);
				await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
				scrollTo(0, 0);
				return { Height: document.documentElement.getBoundingClientRect().height,
					Stacks: document.getElementById("stacks-panel").getBoundingClientRect().bottom }`)
			t.Logf("the embed is %g px high, its stacks end at %g px", size.Height, size.Stacks)
			if limit := max(maxEmbedHeight, size.Stacks+belowStacks); size.Height > limit {
				t.Errorf("the embed is %g px high, its stacks end at %g px: want it at most %g px", size.Height, size.Stacks, limit)
			}
			for chrome.Eval[bool](t, p, `return !document.getElementById("task-hint-btn").disabled`) {
				do(t, p, click("#task-hint-btn"))
			}
			if v := checkWork(t, p); !strings.HasPrefix(v.Verdict, "Not yet") {
				t.Fatalf("the untouched task: %+v", v)
			}
			wantFirstScreen(t, p, "every hint shown and a check failed", terminalLine(taskChecked)...)
			viewShot(t, p, "embed-800x600-"+name+"-"+theme+"-failed")
		})
	}
}

// terminalExercises are the built-in exercises done in the terminal.
var terminalExercises = []string{"exercise-boundary-terminal", "exercise-keep-terminal"}

// How high an exercise's embed of 800x600 may be, in CSS pixels: two of
// its screens, or, where its stacks are longer, what is below them (the
// folded panels' buttons) more than the stacks.
const (
	maxEmbedHeight = 1200
	belowStacks    = 300
)

// TestEmbedShowNamesItsPanels opens an exercise's embed whose URL names
// the panels it shows (show=clock,stacks,lifecycle): those and the task
// show, every other panel is hidden, and nothing is folded away (the
// author chose); a name no panel has is ignored and reported in the
// status line. hide= still hides what it names, the task too; show= of
// only unknown names shows every panel, and without its task an exercise
// folds nothing away.
func TestEmbedShowNamesItsPanels(t *testing.T) {
	t.Parallel()
	base := site(t)
	p := open(t, base+"/?embed=1&scenario=exercise-worked&show=clock,stacks,lifecycle,stacks2", 800, 600)
	noDialogs(t, p)
	startEmbed(t, p)
	shown := func() []string {
		return chrome.Eval[[]string](t, p, `return [...document.querySelectorAll("#app section.panel")].filter((s) => !s.hidden).map((s) => s.id)`)
	}
	if got, want := shown(), []string{"task", "lifecycle-panel", "clock-panel", "stacks-panel"}; !slices.Equal(got, want) {
		t.Errorf("show=clock,stacks,lifecycle shows %v, want %v", got, want)
	}
	if !chrome.Eval[bool](t, p, `return document.getElementById("clock-days").getClientRects().length > 0`) {
		t.Error("with show= the clock's day steps are folded away: the author chose the panels")
	}
	wantContains(t, "the status line", text(t, p, "#status"), `"stacks2"`, "ignored")

	p.Navigate(t, base+"/?embed=1&scenario=exercise-worked&show=bogus&hide=task,http")
	startEmbed(t, p)
	got := shown()
	if slices.Contains(got, "task") || slices.Contains(got, "http-panel") || slices.Contains(got, "folds-panel") || !slices.Contains(got, "history-panel") || !slices.Contains(got, "s3-panel") {
		t.Errorf("show=bogus&hide=task,http shows %v: want every panel but the task and HTTP, and nothing folded without the task", got)
	}
	wantContains(t, "the status line", text(t, p, "#status"), `"bogus"`, "ignored")
}
