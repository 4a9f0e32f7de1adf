//go:build !js

package page

import (
	"slices"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
)

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

// TestStartAgainAndDoItForMeFromTheStage works the worked example's
// exercise wrong (a prediction of 14, a tick at 15), checks, and starts
// again: the stage is back (the stacks, the history, an empty answer) and
// the attempt counted; wrong again, Show the solution and Do it for me
// start from the stage, perform the solution and check: solved, without
// pressing Check, though the student's wrong tick came first.
func TestStartAgainAndDoItForMeFromTheStage(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/?scenario=exercise-worked", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	p.WaitFor(t, `!document.getElementById("task").hidden && !document.getElementById("task-stage-btn").hidden && !document.body.classList.contains("busy")`)
	do(t, p, click("#task-stage-btn"))
	waitStaged(t, p)
	stage, stageSteps := stacks(t, p), historyLen(t, p)
	wrong := func() {
		do(t, p, typeInto("#task-answer-text", "14"))
		setClock(t, p, "15")
		act(t, p, click("#tick-btn"))
	}

	wrong()
	if v := checkWork(t, p); !strings.HasPrefix(v.Verdict, "Not yet") {
		t.Fatalf("the wrong attempt: %+v", v)
	}
	startAgain(t, p)
	v := readTask(t, p)
	if v.Failed != 0 || v.Answered || !v.CriteriaShown || !v.SolutionOffered || historyLen(t, p) != stageSteps {
		t.Errorf("after Start again: %+v, %d history entries; want no verdict, no answer, what Check looks at, the solution still offered, the stage's %d steps", v, historyLen(t, p), stageSteps)
	}
	if got := stacks(t, p); !sameStacks(got, stage) {
		t.Errorf("after Start again the stacks are %+v, want the stage's %+v", got, stage)
	}

	wrong()
	do(t, p, click("#task-solution-btn"), click("#task-solution-run-btn"))
	p.WaitFor(t, `document.getElementById("task-verdict").textContent !== "" && !document.body.classList.contains("busy")`)
	if v := readTask(t, p); !strings.HasPrefix(v.Verdict, "Solved") || v.Failed != 0 {
		t.Errorf("after Do it for me: %+v, want it solved", v)
	}
	if got, want := historyLen(t, p), stageSteps+2; got != want {
		t.Errorf("after Do it for me: %d history entries, want the stage's and the solution's %d", got, want)
	}
	if got := value(t, p, "#task-answer-text"); got != "15" {
		t.Errorf("after Do it for me the answer reads %q, want the solution's", got)
	}
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
