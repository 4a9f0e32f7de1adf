//go:build !js

package page

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
)

// hideKey does the exercise of testdata/own-exercise.json as a student
// would: sets the stage, deletes a.txt with the Objects form, and checks.
func hideKey(t *testing.T, p *chrome.Page) {
	t.Helper()
	do(t, p, click("#task-stage-btn"))
	p.WaitFor(t, `document.getElementById("task-stage-btn").hidden && !document.body.classList.contains("busy")`)
	act(t, p, typeInto("#obj-key", "a.txt"), typeInto("#obj-version", ""), click("#delete-btn"))
	do(t, p, click("#task-check-btn"))
	p.WaitFor(t, `document.getElementById("task-verdict").textContent.startsWith("Solved") && !document.body.classList.contains("busy")`)
}

// TestCoursePathKeepsSolvedMarks works through a course file (?course=)
// served by the course's own site: the playground starts with its first
// exercise, marks it solved in the Scenarios menu once solved, offers the
// next one, and keeps both across a reload.
func TestCoursePathKeepsSolvedMarks(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/?course=/test/course.json&show=task,clock,stacks,actions,scenarios", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	if got := text(t, p, "#task-title"); got != "Your task: \u2068Exercise of our own: hide a key\u2069" {
		t.Fatalf("the course starts with %q, want its first exercise", got)
	}
	if !chrome.Eval[bool](t, p, `return document.getElementById("task-next-btn").hidden`) {
		t.Errorf("Next exercise is offered before the exercise is solved")
	}
	hideKey(t, p)
	const next = "Next exercise: Exercise: the inclusive boundary (14.999 and 15)"
	check := func(when string) {
		t.Helper()
		if got := text(t, p, "#task-next-btn"); got != next || chrome.Eval[bool](t, p, `return document.getElementById("task-next-btn").hidden`) {
			t.Errorf("%s: the task panel offers %q, want %q", when, got, next)
		}
		options := chrome.Eval[[]string](t, p, `return [...document.getElementById("scenario-select").options].slice(0, 2).map((o) => o.textContent)`)
		want := []string{"1. Exercise of our own: hide a key — ✓ solved", "2. Exercise: the inclusive boundary (14.999 and 15)"}
		if strings.Join(options, "|") != strings.Join(want, "|") {
			t.Errorf("%s: the menu starts %q, want %q", when, options, want)
		}
		if got := text(t, p, "#path-progress"); got != "Course “\u2068Our course\u2069”: 1 of 2 solved." {
			t.Errorf("%s: the path says %q", when, got)
		}
	}
	check("solved")
	viewShot(t, p, "path-next")
	p.Reload(t)
	waitReady(t, p)
	check("after a reload")
	do(t, p, click("#task-next-btn"))
	p.WaitFor(t, `document.getElementById("task-title").textContent.includes("the inclusive boundary") && !document.body.classList.contains("busy")`)
	if !chrome.Eval[bool](t, p, `return document.getElementById("task-next-btn").hidden`) {
		t.Errorf("the last exercise of the path offers a next one")
	}
}

// TestScenarioFromItsURL loads a course author's scenario file in an
// embed (?scenario-url=): its title is on the load button before the
// click, and it plays and is solved as a built-in one.
func TestScenarioFromItsURL(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/?embed=1&scenario-url=/test/own-exercise.json", 800, 600)
	noDialogs(t, p)
	p.WaitFor(t, `document.getElementById("loader-title").textContent === "Exercise of our own: hide a key"`)
	do(t, p, click("#load-btn"))
	waitReady(t, p)
	if got := text(t, p, "#task-prompt"); got != "Hide a.txt behind a delete marker, keeping its data version." {
		t.Fatalf("the task asks %q", got)
	}
	hideKey(t, p)
	if !chrome.Eval[bool](t, p, `return document.getElementById("source-error").hidden`) {
		t.Errorf("an error is shown: %q", text(t, p, "#source-error"))
	}
}

// TestScenarioInTheLink opens a scenario carried in the link itself
// (#scenario=, base64url JSON), with no server of its author's.
func TestScenarioInTheLink(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/own-exercise.json")
	if err != nil {
		t.Fatal(err)
	}
	p := open(t, site(t)+"/#scenario="+base64.RawURLEncoding.EncodeToString(raw), 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	if got := text(t, p, "#task-title"); got != "Your task: \u2068Exercise of our own: hide a key\u2069" {
		t.Errorf("the link's scenario loads as %q", got)
	}
	if got := chrome.Eval[string](t, p, `return document.getElementById("scenario-select").value`); !strings.HasPrefix(got, "inline-") {
		t.Errorf("the menu shows %q, want the link's scenario", got)
	}
}

// TestScenarioRefusedWithItsReason names scenario and course files that
// cannot be used: one that is not there, one that is not JSON, one with a
// misspelt field. Each is refused, and the page says which and why.
func TestScenarioRefusedWithItsReason(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/?scenario-url=/test/missing.json&course=/test/course-broken.json", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	got := text(t, p, "#source-error")
	for _, want := range []string{
		"The scenario file could not be loaded: ",
		"/test/missing.json: HTTP 404",
		"/test/embed.html: not valid JSON",
		`misspelt-exercise.json: task: unknown field "promt" (did you mean "prompt"?)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the page says %q, want it to say %q", got, want)
		}
	}
	if !chrome.Eval[bool](t, p, `return document.getElementById("task").hidden`) {
		t.Errorf("a refused scenario's task is shown")
	}
	viewShot(t, p, "scenario-refused")
}
