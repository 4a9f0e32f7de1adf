//go:build !js

package page

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"minis3/browser_test/chrome"
)

// modulePage opens the playground in embed mode, which loads its modules
// and no wasm, for tests of the page's pure modules.
func modulePage(t *testing.T) *chrome.Page {
	t.Helper()
	p := open(t, site(t)+"/?embed=1", 800, 600)
	p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
	return p
}

// evaluated is what evaluateTask found, or the error checkTask gave.
type evaluated struct {
	Error  string
	Solved bool
	Checks []struct {
		Label  string
		Pass   bool
		Detail string
		Lines  []string
	}
}

// evaluate checks task (JSON) with checkTask and evaluates it over facts
// (JSON, whose taken is a list of [step, outcome, at]).
func evaluate(t *testing.T, p *chrome.Page, task, facts string) evaluated {
	t.Helper()
	return chrome.Eval[evaluated](t, p, `
		const { checkTask, evaluateTask, takenStep } = await import("./app/exercise.js");
		const { task, error } = checkTask(`+task+`, "demo");
		if (error) return { Error: error };
		const f = `+facts+`;
		const r = evaluateTask(task, { versions: [], rules: [], ruleErrors: 0, answer: "", ...f, taken: (f.taken ?? []).map(([s, o, at]) => takenStep(s, o, at)) });
		return { Solved: r.solved, Checks: r.checks.map((c) => ({ Label: c.label, Pass: c.pass, Detail: c.detail, Lines: c.lines ?? [] })) };`)
}

// TestExerciseChecks pins each kind of check of an exercise (exercise.js):
// an answer in seconds or as text, a choice, the version list, the rule
// editor, and the steps the student took, with their count and the
// outcome of the last one.
func TestExerciseChecks(t *testing.T) {
	t.Parallel()
	p := modulePage(t)
	const solution = `"solution": { "text": "s" }`
	const withAnswer = `"answer": { "label": "t =" }, "solution": { "text": "s", "answer": "15" }`
	tests := []struct {
		name  string
		task  string
		facts string
		want  bool
	}{
		{"answer in seconds", `{ "prompt": "p", "checks": [{ "label": "l", "answer": 15 }], ` + withAnswer + ` }`, `{ "answer": "15" }`, true},
		{"answer with t = and a unit", `{ "prompt": "p", "checks": [{ "label": "l", "answer": 15 }], ` + withAnswer + ` }`, `{ "answer": " t = 15.0 s " }`, true},
		{"answer just below", `{ "prompt": "p", "checks": [{ "label": "l", "answer": 15 }], ` + withAnswer + ` }`, `{ "answer": "14.999" }`, false},
		{"answer not a number", `{ "prompt": "p", "checks": [{ "label": "l", "answer": 15 }], ` + withAnswer + ` }`, `{ "answer": "fifteen" }`, false},
		{"no answer", `{ "prompt": "p", "checks": [{ "label": "l", "answer": 15 }], ` + withAnswer + ` }`, `{}`, false},
		{"answer as text", `{ "prompt": "p", "checks": [{ "label": "l", "answer": "v00000003" }], ` + withAnswer + ` }`, `{ "answer": " v00000003" }`, true},
		{"answer as other text", `{ "prompt": "p", "checks": [{ "label": "l", "answer": "v00000003" }], ` + withAnswer + ` }`, `{ "answer": "v3" }`, false},
		{"the right choice", `{ "prompt": "p", "answer": { "label": "why?", "choices": ["a", "b", "c"] }, "checks": [{ "label": "l", "choice": 2 }], "solution": { "text": "s", "answer": "2" } }`, `{ "answer": "2" }`, true},
		{"another choice", `{ "prompt": "p", "answer": { "label": "why?", "choices": ["a", "b", "c"] }, "checks": [{ "label": "l", "choice": 2 }], "solution": { "text": "s", "answer": "2" } }`, `{ "answer": "3" }`, false},
		{"versions exactly", `{ "prompt": "p", "checks": [{ "label": "l", "versions": [{ "key": "k", "versionId": "v00000002", "isLatest": true }] }], ` + solution + ` }`,
			`{ "versions": [{ "key": "k", "versionId": "v00000002", "isLatest": true, "isDeleteMarker": false }] }`, true},
		{"a version too many", `{ "prompt": "p", "checks": [{ "label": "l", "versions": [{ "key": "k", "versionId": "v00000002" }] }], ` + solution + ` }`,
			`{ "versions": [{ "key": "k", "versionId": "v00000002" }, { "key": "k", "versionId": "v00000001" }] }`, false},
		{"one rule with the prefix", `{ "prompt": "p", "checks": [{ "label": "l", "rules": [{ "prefix": "logs/" }] }], ` + solution + ` }`,
			`{ "rules": [{ "id": "r", "prefix": "logs/", "expireNoncurrentAfter": 0 }] }`, true},
		{"two rules", `{ "prompt": "p", "checks": [{ "label": "l", "rules": [{}] }], ` + solution + ` }`,
			`{ "rules": [{ "id": "a", "prefix": "" , "expireCurrentAfter": 1 }, { "id": "b", "prefix": "", "expireCurrentAfter": 2 }] }`, false},
		{"a rule row in error", `{ "prompt": "p", "checks": [{ "label": "l", "rules": [{}] }], ` + solution + ` }`,
			`{ "rules": [{ "id": "a", "prefix": "", "expireCurrentAfter": 1 }], "ruleErrors": 1 }`, false},
		{"a tick at 15", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick", "at": 15 } }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "tick", "bucket": "demo" }, { "ok": true, "actions": [] }, 15]] }`, true},
		{"a tick at another time", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick", "at": 15 } }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "tick", "bucket": "demo" }, { "ok": true, "actions": [] }, 14.999]] }`, false},
		{"never ticked", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "count": 0 }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "preview", "bucket": "demo" }, { "ok": true, "actions": [] }, 12]] }`, true},
		{"ticked though told not to", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "count": 0 }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "tick", "bucket": "demo" }, { "ok": true, "actions": [] }, 12]] }`, false},
		{"the last tick's outcome", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "expect": { "include": [{ "kind": "expire_current", "count": 1 }] } }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "tick", "bucket": "demo" }, { "ok": true, "actions": [] }, 12], [{ "op": "tick", "bucket": "demo" }, { "ok": true, "actions": [{ "kind": "expire_current", "key": "k", "versionId": "v00000002", "ruleId": "r" }] }, 15]] }`, true},
		{"an earlier tick's outcome only", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "expect": { "include": [{ "kind": "expire_current" }] } }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "tick", "bucket": "demo" }, { "ok": true, "actions": [{ "kind": "expire_current", "key": "k", "versionId": "v00000002", "ruleId": "r" }] }, 15], [{ "op": "tick", "bucket": "demo" }, { "ok": true, "actions": [] }, 16]] }`, false},
		{"a failed GET is not a GET that returned", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "get", "key": "k", "ok": true } }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "get", "bucket": "demo", "key": "k" }, { "ok": false, "code": "NoSuchKey" }, 15]] }`, false},
		{"a GET by version ID and its body", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "get", "versionId": "v00000002" }, "expect": { "body": "current" } }], ` + solution + ` }`,
			`{ "taken": [[{ "op": "get", "bucket": "demo", "key": "k", "versionId": "v00000002" }, { "ok": true, "body": "current" }, 15]] }`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := evaluate(t, p, tt.task, tt.facts)
			if got.Error != "" {
				t.Fatalf("checkTask: %s", got.Error)
			}
			if len(got.Checks) != 1 || got.Checks[0].Pass != tt.want || got.Solved != tt.want {
				t.Errorf("got %+v, want pass=%v", got, tt.want)
			}
		})
	}
}

// TestExerciseRefused checks that checkTask refuses a task the page could
// not ask or check as written, with the reason.
func TestExerciseRefused(t *testing.T) {
	t.Parallel()
	p := modulePage(t)
	tests := []struct {
		name, task, want string
	}{
		{"not an object", `[]`, "must be an object"},
		{"no prompt", `{ "checks": [{ "label": "l", "did": { "op": "tick" } }], "solution": { "text": "s" } }`, "needs a prompt"},
		{"no checks", `{ "prompt": "p", "checks": [], "solution": { "text": "s" } }`, "checks: must be a list of 1 to"},
		{"an unknown field", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" } }], "solution": { "text": "s" }, "score": 3 }`, `unknown field "score"`},
		{"two predicates in one check", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "versions": [] }], "solution": { "text": "s" } }`, "checks[0]: needs exactly one of"},
		{"a check without a label", `{ "prompt": "p", "checks": [{ "did": { "op": "tick" } }], "solution": { "text": "s" } }`, "checks[0]: needs a label"},
		{"an answer check without a question", `{ "prompt": "p", "checks": [{ "label": "l", "answer": 15 }], "solution": { "text": "s" } }`, "needs the task to ask for an answer"},
		{"a choice without choices", `{ "prompt": "p", "answer": { "label": "q" }, "checks": [{ "label": "l", "choice": 1 }], "solution": { "text": "s", "answer": "1" } }`, "needs the task's answer to have choices"},
		{"a choice out of range", `{ "prompt": "p", "answer": { "label": "q", "choices": ["a", "b"] }, "checks": [{ "label": "l", "choice": 3 }], "solution": { "text": "s", "answer": "1" } }`, "checks[0].choice: must be a number from 1 to 2"},
		{"one choice", `{ "prompt": "p", "answer": { "label": "q", "choices": ["a"] }, "checks": [{ "label": "l", "choice": 1 }], "solution": { "text": "s", "answer": "1" } }`, "answer.choices: must be a list of 2 to"},
		{"a did field no step has", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick", "when": 3 } }], "solution": { "text": "s" } }`, `checks[0].did: unknown field "when"`},
		{"expect with count 0", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "count": 0, "expect": { "actions": [] } }], "solution": { "text": "s" } }`, "not with count 0"},
		{"a wrong expect", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "expect": { "actoins": [] } }], "solution": { "text": "s" } }`, `checks[0].expect: unknown field "actoins" (did you mean "actions"?)`},
		{"no solution", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" } }] }`, "needs a solution"},
		{"a solution answer for no question", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" } }], "solution": { "text": "s", "answer": "15" } }`, "needs an answer exactly when"},
		{"a question without a solution answer", `{ "prompt": "p", "answer": { "label": "q" }, "checks": [{ "label": "l", "answer": 15 }], "solution": { "text": "s" } }`, "needs an answer exactly when"},
		{"a solution step the page cannot run", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" } }], "solution": { "text": "s", "steps": [{ "op": "teleport" }] } }`, `solution.steps[0].op: unknown op "teleport"`},
		{"a check's hint that is not text", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" }, "hint": 3 }], "solution": { "text": "s" } }`, "checks[0].hint: must be text"},
		{"a did op no step has", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "teleport" } }], "solution": { "text": "s" } }`, `checks[0].did.op: unknown op "teleport"`},
		{"hints that are not texts", `{ "prompt": "p", "checks": [{ "label": "l", "did": { "op": "tick" } }], "hints": [3], "solution": { "text": "s" } }`, "hints[0]: must be text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := evaluate(t, p, tt.task, `{}`)
			if !strings.Contains(got.Error, tt.want) {
				t.Errorf("error %q, want it to contain %q", got.Error, tt.want)
			}
		})
	}
	// A scenario file carries its task's problem with its name.
	msg := chrome.Eval[string](t, p, `const { parseScenario } = await import("./app/scenarios.js");
		try { parseScenario({ steps: [], task: { prompt: "p" } }, "broken"); return "accepted"; } catch (e) { return e.message; }`)
	if !strings.HasPrefix(msg, "scenario broken: task.checks: must be") {
		t.Errorf("parseScenario: %q", msg)
	}
}

// TestExercisesSolvable loads a built-in exercise of each kind (an answer
// to write, a choice, commands typed for the student), sets its stage, and
// checks at once: the untouched task fails and offers its solution, which,
// performed by the page (Do it for me, Type it for me), solves it. Hints
// come one at a time. make check-scenarios proves every exercise solvable;
// TestEveryExerciseAsAStudent does each of the forms' as a student would.
func TestExercisesSolvable(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/", 1280, 800)
	noDialogs(t, p)
	waitReady(t, p)
	exercises := chrome.Eval[[]string](t, p, `const { loadScenarios } = await import("./app/scenarios.js");
		return (await loadScenarios()).scenarios.filter((s) => s.task).map((s) => s.name);`)
	names := []string{"exercise-worked", "exercise-marker", "exercise-s3-newest", "exercise-keep-terminal"}
	for _, want := range names {
		if !slices.Contains(exercises, want) {
			t.Fatalf("exercises %v lack %s", exercises, want)
		}
	}
	type view struct {
		Hidden, SolutionOffered, SolutionShown, CheckDisabled bool
		CriteriaShown                                         bool
		Verdict                                               string
		Hints                                                 int
		Failed                                                int
		Criteria, Checks                                      []string
	}
	read := func() view {
		return chrome.Eval[view](t, p, `const $ = (id) => document.getElementById(id); return {
			Hidden: $("task").hidden, SolutionOffered: !$("task-solution-btn").hidden, SolutionShown: !$("task-solution").hidden,
			CheckDisabled: $("task-check-btn").disabled, Verdict: $("task-verdict").textContent,
			Hints: document.querySelectorAll("#task-hints li").length, Failed: document.querySelectorAll("#task-checks > li.fail").length,
			CriteriaShown: !$("task-criteria").hidden,
			Criteria: [...document.querySelectorAll("#task-criteria-list li")].map((li) => li.textContent),
			Checks: [...document.querySelectorAll("#task-checks > li")].map((li) => li.textContent) }`)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			runScenario(t, p, name)
			v := read()
			if v.Hidden || v.CheckDisabled || v.SolutionOffered || v.Verdict != "" || v.Hints != 0 {
				t.Fatalf("after the stage: %+v, want the task shown, checkable, no verdict, no hint, no solution yet", v)
			}
			// Before an attempt the task lists what Check looks at: the
			// checks' labels, which its results show after one.
			criteria := v.Criteria
			if !v.CriteriaShown || len(criteria) == 0 {
				t.Errorf("after the stage: what Check looks at %v (shown %v), want the checks' labels", criteria, v.CriteriaShown)
			}
			do(t, p, press("#task-hint-btn", kb.Enter))
			if v := read(); v.Hints != 1 {
				t.Errorf("one hint asked for, %d shown", v.Hints)
			}
			// The last hint disables its button; the focus goes to the hints.
			for chrome.Eval[bool](t, p, `return !document.getElementById("task-hint-btn").disabled`) {
				do(t, p, press("#task-hint-btn", kb.Enter))
			}
			if got := chrome.Eval[string](t, p, `return document.activeElement.id`); got != "task-hints" {
				t.Errorf("after the last hint the focus is on %q, want the hints", got)
			}
			do(t, p, click("#task-check-btn"))
			p.WaitFor(t, `document.getElementById("task-verdict").textContent !== "" && !document.body.classList.contains("busy")`)
			v = read()
			if !strings.HasPrefix(v.Verdict, "Not yet") || v.Failed == 0 || !v.SolutionOffered {
				t.Fatalf("the untouched task: %+v, want it failed with the solution offered", v)
			}
			if v.CriteriaShown || len(v.Checks) != len(criteria) {
				t.Errorf("after an attempt: what Check looks at shown %v, %d results for %d checks", v.CriteriaShown, len(v.Checks), len(criteria))
			}
			for i, label := range criteria {
				if i < len(v.Checks) && !strings.Contains(v.Checks[i], label) {
					t.Errorf("check %d: result %q does not name %q", i+1, v.Checks[i], label)
				}
			}
			do(t, p, click("#task-solution-btn"))
			if v := read(); !v.SolutionShown || v.SolutionOffered {
				t.Errorf("after Show the solution: %+v", v)
			}
			n := historyLen(t, p)
			steps := chrome.Eval[int](t, p, `return document.querySelectorAll("#task-solution-steps li").length`)
			do(t, p, click("#task-solution-run-btn"))
			p.WaitFor(t, `document.querySelectorAll("#history > li").length >= `+strconv.Itoa(n+steps)+` && !document.body.classList.contains("busy")`)
			do(t, p, click("#task-check-btn"))
			p.WaitFor(t, `document.getElementById("task-verdict").textContent.includes("attempt 2") || document.getElementById("task-verdict").textContent.startsWith("Solved")`)
			if v := read(); !strings.HasPrefix(v.Verdict, "Solved") || v.Failed != 0 {
				t.Errorf("after the solution: %+v; checks: %s", v, text(t, p, "#task-checks"))
			}
			shot(t, p, "exercise-"+name)
		})
	}
	noCSPViolations(t, p)
}

// TestExerciseProgressRestored pins restoredProgress (exercise.js): a
// progress saved for a task comes back as it was; one of another shape, or
// whose last results are not the task's checks, is dropped whole (null).
func TestExerciseProgressRestored(t *testing.T) {
	t.Parallel()
	p := modulePage(t)
	const task = `{ "prompt": "p", "checks": [{ "label": "a", "answer": 15 }, { "label": "b", "answer": 15 }],
		"hints": ["h1", "h2"], "answer": { "label": "t =" }, "solution": { "text": "s", "answer": "15" } }`
	const last = `{ "solved": false, "checks": [{ "label": "a", "pass": true, "detail": "d" }, { "label": "b", "pass": false, "detail": "d" }] }`
	const taken = `[{ "op": "tick", "bucket": "demo", "at": 15, "ok": true, "outcome": { "ok": true, "actions": [] } }]`
	const good = `{ "taken": ` + taken + `, "hintsShown": 1, "attempts": 2, "last": ` + last + `, "solutionShown": true }`
	tests := []struct {
		name, saved string
		kept        bool
	}{
		{"a progress as saved", good, true},
		{"a fresh progress", `{ "taken": [], "hintsShown": 0, "attempts": 0, "last": null, "solutionShown": false }`, true},
		{"not an object", `[1, 2]`, false},
		{"no taken list", `{ "hintsShown": 0, "attempts": 0, "last": null, "solutionShown": false }`, false},
		{"a taken step without its outcome", `{ "taken": [{ "op": "tick", "at": 15, "ok": true }], "hintsShown": 0, "attempts": 0, "last": null, "solutionShown": false }`, false},
		{"a taken step whose outcome disagrees", `{ "taken": [{ "op": "tick", "at": 15, "ok": true, "outcome": { "ok": false } }], "hintsShown": 0, "attempts": 0, "last": null, "solutionShown": false }`, false},
		{"more hints than the task has", `{ "taken": [], "hintsShown": 3, "attempts": 0, "last": null, "solutionShown": false }`, false},
		{"a fractional hint count", `{ "taken": [], "hintsShown": 0.5, "attempts": 0, "last": null, "solutionShown": false }`, false},
		{"the solution shown before an attempt", `{ "taken": [], "hintsShown": 0, "attempts": 0, "last": null, "solutionShown": true }`, false},
		{"attempts, started again: no result yet", `{ "taken": [], "hintsShown": 0, "attempts": 1, "last": null, "solutionShown": true }`, true},
		{"a result without an attempt", `{ "taken": [], "hintsShown": 0, "attempts": 0, "last": ` + last + `, "solutionShown": false }`, false},
		{"a result of other checks", `{ "taken": [], "hintsShown": 0, "attempts": 1, "last": { "solved": true, "checks": [{ "label": "a", "pass": true, "detail": "d" }] }, "solutionShown": false }`, false},
		{"a result whose verdict disagrees", `{ "taken": [], "hintsShown": 0, "attempts": 1, "last": { "solved": true, "checks": [{ "label": "a", "pass": true, "detail": "d" }, { "label": "b", "pass": false, "detail": "d" }] }, "solutionShown": false }`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := chrome.Eval[struct {
				Kept, Same bool
			}](t, p, `
				const { checkTask, restoredProgress } = await import("./app/exercise.js");
				const { task, error } = checkTask(`+task+`, "demo");
				if (error) throw new Error(error);
				const saved = `+tt.saved+`;
				const got = restoredProgress(saved, task);
				return { Kept: got !== null, Same: JSON.stringify(got) === JSON.stringify(saved) };`)
			if got.Kept != tt.kept || (tt.kept && !got.Same) {
				t.Errorf("restoredProgress: kept %v (as saved: %v), want kept %v", got.Kept, got.Same, tt.kept)
			}
		})
	}
}

// TestExerciseProgressSurvivesReload works an exercise in an embed that
// keeps its store (frame=…), reloads, and checks that the embed comes back
// with its scenario's steps done and the exercise as the student left it:
// the stage set, the hint shown, the failed attempt and its verdict; then
// solves it and checks that a reload keeps it solved. A progress saved in
// a shape the page does not know is dropped: the exercise starts afresh.
func TestExerciseProgressSurvivesReload(t *testing.T) {
	t.Parallel()
	p := open(t, site(t)+"/?embed=1&scenario=exercise-boundary&frame=reload", 1280, 800)
	noDialogs(t, p)
	start := func() {
		t.Helper()
		p.WaitFor(t, `!document.getElementById("load-btn").hidden`)
		do(t, p, click("#load-btn"))
		waitReady(t, p)
	}
	type view struct {
		Hidden, Staged, SolutionShown bool
		Hints, Done                   int
		Verdict, Summary              string
	}
	read := func() view {
		return chrome.Eval[view](t, p, `const $ = (id) => document.getElementById(id); return {
			Hidden: $("task").hidden, Staged: $("task-stage-btn").hidden && !$("task-check-btn").disabled,
			SolutionShown: !$("task-solution").hidden, Verdict: $("task-verdict").textContent,
			Hints: document.querySelectorAll("#task-hints li").length,
			Done: document.querySelectorAll("#scenario-steps > li.pass, #scenario-steps > li.done").length,
			Summary: $("scenario-summary").textContent }`)
	}
	start()
	do(t, p, click("#task-stage-btn"))
	p.WaitFor(t, `document.getElementById("task-stage-btn").hidden && !document.body.classList.contains("busy")`)
	do(t, p, click("#task-hint-btn"), click("#task-check-btn"))
	p.WaitFor(t, `document.getElementById("task-verdict").textContent.startsWith("Not yet") && !document.body.classList.contains("busy")`)
	before := read()
	if before.Done == 0 || before.Hints != 1 {
		t.Fatalf("before the reload: %+v, want the stage's steps done and one hint", before)
	}

	p.Reload(t)
	start()
	if got := read(); got != before {
		t.Fatalf("after a reload: %+v, want the exercise as it was: %+v", got, before)
	}
	shot(t, p, "exercise-restored")

	do(t, p, click("#task-solution-btn"), click("#task-solution-run-btn"))
	p.WaitFor(t, `!document.body.classList.contains("busy") && document.querySelectorAll("#history > li").length > 0`)
	do(t, p, click("#task-check-btn"))
	p.WaitFor(t, `document.getElementById("task-verdict").textContent.startsWith("Solved") && !document.body.classList.contains("busy")`)
	solved := read()
	p.Reload(t)
	start()
	if got := read(); got != solved || !strings.HasPrefix(got.Verdict, "Solved") || !got.SolutionShown {
		t.Errorf("after solving and a reload: %+v, want it solved as before: %+v", got, solved)
	}

	chrome.Eval[bool](t, p, `const key = "minis3-playground:minis3-embed-exercise-boundary-reload";
		const saved = JSON.parse(localStorage.getItem(key));
		saved.exercise.progress.hintsShown = 99;
		localStorage.setItem(key, JSON.stringify(saved));
		return true`)
	p.Reload(t)
	start()
	if got := read(); got.Hidden || !got.Staged || got.Hints != 0 || got.Verdict != "" || got.Done != solved.Done {
		t.Errorf("with a progress the page does not know: %+v, want the task afresh over the scenario's steps done", got)
	}
}
