//go:build !js

package page

import (
	"fmt"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
)

// goalMark is one version of the goal's stacks as the page marks it.
type goalMark struct {
	Key, VersionID, Mark, Text string
}

// goalMarks reads the goal's stacks: each version and each of the
// student's versions the goal does not expect, with its mark.
func goalMarks(t *testing.T, p *chrome.Page) []goalMark {
	t.Helper()
	return chrome.Eval[[]goalMark](t, p, `return [...document.querySelectorAll("#goal .goal-stack li.entry")].map((li) => ({
		Key: li.closest(".goal-stack").dataset.key, VersionID: li.dataset.versionId, Mark: li.dataset.mark, Text: li.textContent }))`)
}

// TestGoalShowsWhatStillDiffers shows an exercise's goal beside the
// student's stacks: each of the goal's versions and each of the
// student's the goal does not expect is marked in words, the marks go
// away as the student does the task, and Hide goal hides it. The answer
// of a question stays the student's to find until the solution is shown.
func TestGoalShowsWhatStillDiffers(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/?scenario=exercise-boundary", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	do(t, p, click("#task-stage-btn"))
	p.WaitFor(t, `document.getElementById("task-stage-btn").hidden && !document.body.classList.contains("busy")`)
	if got := text(t, p, "#goal-btn"); got != "Show goal" {
		t.Fatalf("the goal button says %q, want Show goal", got)
	}
	do(t, p, click("#goal-btn"))
	p.WaitFor(t, `document.querySelector("#goal .goal-summary") !== null`)
	if got := text(t, p, "#goal-btn"); got != "Hide goal" {
		t.Errorf("with the goal shown its button says %q", got)
	}
	want := []goalMark{
		{Key: "logs/app.log", VersionID: "v00000003", Mark: "missing"},
		{Key: "logs/app.log", VersionID: "v00000002", Mark: "differs"},
		{Key: "logs/app.log", VersionID: "v00000001", Mark: "extra"},
	}
	got := goalMarks(t, p)
	if len(got) != len(want) {
		t.Fatalf("the goal shows %+v, want %+v", got, want)
	}
	for i, w := range want {
		if got[i].Key != w.Key || got[i].VersionID != w.VersionID || got[i].Mark != w.Mark {
			t.Errorf("goal version %d: %+v, want %+v", i, got[i], w)
		}
	}
	// Marked in words, not by colour alone.
	for i, words := range []string{"✗ missing from yours", "≠ yours differs: yours is current", "+ only in yours"} {
		if !strings.Contains(got[i].Text, words) {
			t.Errorf("goal version %d says %q, want %q", i, got[i].Text, words)
		}
	}
	if s := text(t, p, "#goal .goal-summary"); s != "3 differences left in the stacks." {
		t.Errorf("the goal's summary says %q", s)
	}
	viewShot(t, p, "goal-1280")
	darkTheme(t, p)
	viewShot(t, p, "goal-1280-dark")

	setClock(t, p, "14.999")
	tick(t, p)
	setClock(t, p, "15")
	tick(t, p)
	p.WaitFor(t, `document.querySelector("#goal .goal-summary")?.textContent === "✓ Your stacks match the goal's."`)
	for _, m := range goalMarks(t, p) {
		if m.Mark != "same" {
			t.Errorf("after the task is done the goal still marks %+v", m)
		}
	}
	do(t, p, click("#goal-btn"))
	if chrome.Eval[bool](t, p, `return !document.getElementById("goal").hidden`) || text(t, p, "#goal-btn") != "Show goal" {
		t.Errorf("Hide goal left the goal shown")
	}
}

// TestGoalKeepsTheAnswerInAnEmbed shows the goal of a question in an
// 800×600 embed: under the student's stacks, with the answer the
// student's to find, and no stated answer anywhere on the page; once the
// solution is shown, the goal says the answer.
func TestGoalKeepsTheAnswerInAnEmbed(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/?embed=1&scenario=exercise-worked", 800, 600)
	noDialogs(t, p)
	p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
	do(t, p, click("#load-btn"))
	waitReady(t, p)
	do(t, p, click("#task-stage-btn"))
	p.WaitFor(t, `document.getElementById("task-stage-btn").hidden && !document.body.classList.contains("busy")`)
	do(t, p, click("#goal-btn"))
	p.WaitFor(t, `document.querySelector("#goal .goal-answer") !== null`)
	if got := text(t, p, "#goal .goal-answer"); !strings.Contains(got, "yours to find") {
		t.Errorf("the goal's answer says %q before an attempt", got)
	}
	if got := text(t, p, "#goal"); strings.Contains(got, "15") {
		t.Errorf("the goal states the answer 15 before it is solved: %q", got)
	}
	b := boxes(t, p, "#stacks", "#goal")
	if b["#goal"].Top < b["#stacks"].Bottom {
		t.Errorf("in the embed the goal is beside the stacks (%+v), want it under them", b)
	}
	viewShot(t, p, "goal-embed")
	darkTheme(t, p)
	chrome.Eval[bool](t, p, `document.getElementById("goal").scrollIntoView(); return true`)
	viewportShot(t, p, "goal-embed-dark")

	do(t, p, click("#task-check-btn"))
	p.WaitFor(t, `!document.getElementById("task-solution-btn").hidden && !document.body.classList.contains("busy")`)
	do(t, p, click("#task-solution-btn"))
	p.WaitFor(t, `document.querySelector("#goal .goal-answer")?.textContent === "Answer: 15"`)
}

// TestGoalComparesWhatTheChecksCompare pins compareStacks (goal.js): a
// version ID counts only where a check names it, a key the goal does not
// have is one too many (a versions check asks for the whole bucket), in
// a check by key or of the whole list (patterns without a key), and a
// task without a versions check compares nothing.
func TestGoalComparesWhatTheChecksCompare(t *testing.T) {
	t.Parallel()
	p := modulePage(t)
	type key struct {
		Key     string
		Checked bool
		Marks   []string
		Pinned  []bool
		Extra   []string
	}
	compare := func(checks, goal, mine string) (bool, []key) {
		t.Helper()
		out := chrome.Eval[struct {
			Checked bool
			Keys    []key
		}](t, p, `
			const { compareStacks } = await import("./app/goal.js");
			const v = (key, versionId, isDeleteMarker, isLatest) => ({ key, versionId, isDeleteMarker, isLatest });
			const r = compareStacks({ checks: `+checks+` }, `+goal+`, `+mine+`);
			return { Checked: r.checked, Keys: r.keys.map((k) => ({ Key: k.key, Checked: k.checked,
				Marks: k.entries.map((e) => e.mark ?? "none"), Pinned: k.entries.map((e) => e.pinned), Extra: k.extra.map((x) => x.versionId) })) };`)
		return out.Checked, out.Keys
	}
	same := func(got, want []key) bool {
		return fmt.Sprint(got) == fmt.Sprint(want)
	}

	// The marker's ID is not named: the student's v00000005 is as good as
	// the goal's v00000004. The student's key b is one too many.
	checked, got := compare(`[{ label: "l", versions: [{ key: "a", isDeleteMarker: true, isLatest: true }, { key: "a", versionId: "v00000001", isLatest: false }] }]`,
		`[v("a", "v00000004", true, true), v("a", "v00000001", false, false)]`,
		`[v("a", "v00000005", true, true), v("a", "v00000001", false, false), v("b", "v00000009", false, true)]`)
	if want := []key{{"a", true, []string{"same", "same"}, []bool{false, true}, []string{}}, {"b", true, []string{}, []bool{}, []string{"v00000009"}}}; !checked || !same(got, want) {
		t.Errorf("unnamed ID: %v %+v, want %+v", checked, got, want)
	}

	// A check of the whole list: the student's key c is one too many.
	_, got = compare(`[{ label: "l", versions: [{ isDeleteMarker: false }] }]`,
		`[v("a", "v00000001", false, true)]`,
		`[v("a", "v00000001", false, true), v("c", "v00000002", false, true)]`)
	if want := []key{{"a", true, []string{"same"}, []bool{false}, []string{}}, {"c", true, []string{}, []bool{}, []string{"v00000002"}}}; !same(got, want) {
		t.Errorf("whole list: %+v, want %+v", got, want)
	}

	// No versions check: shown, not compared.
	checked, got = compare(`[{ label: "l", answer: 3 }]`, `[v("a", "v00000001", false, true)]`, `[]`)
	if want := []key{{"a", false, []string{"none"}, []bool{true}, []string{}}}; checked || !same(got, want) {
		t.Errorf("no versions check: %v %+v, want %+v", checked, got, want)
	}
}
