// The goal beside the version stacks (#goal, toggled by #goal-btn): while
// an exercise is loaded, the student can show what the task's bucket
// holds once the task is done (goal.js plays it on a store of its own),
// beside their own stacks, with what still differs marked on each key and
// version in words and symbols, and the rules and the answer the task
// checks. The marks follow every step. The answer stays the student's to
// find until the task is solved or its solution shown.
import { $, h, replace, setText } from "../dom.js";
import { isolate } from "../model.js";
import { compareRules, compareStacks, playGoal } from "../goal.js";
import { state } from "../state.js";
import { MIN_PART_SIZE } from "./objects.js";

// The exercise whose goal is shown ("" for none: a new exercise starts
// with it hidden), and the goals played, by task.
let shownFor = "";
const goals = new WeakMap();

// openStore opens the goal's store: in memory, in the page's Go instance.
async function openStore() {
  const minis3 = await (await import("../../minis3.js")).default;
  return minis3.open({ memory: true, minPartSize: MIN_PART_SIZE });
}

export function wire() {
  $("goal-btn").addEventListener("click", () => {
    const ex = state.exercise;
    shownFor = shownFor === ex.name ? "" : ex.name;
    if (shownFor) goalOf(ex);
    render(state);
  });
}

// goalOf is the goal of the exercise ex: { versions, unmet } once played,
// { error } if it could not be, or { playing: true } meanwhile, when the
// page is drawn again.
function goalOf(ex) {
  let goal = goals.get(ex.task);
  if (!goal) {
    goal = { playing: true };
    goals.set(ex.task, goal);
    const steps = state.scenario?.name === ex.name ? state.scenario.steps : [];
    playGoal(steps, ex.task, ex.bucket, openStore).then(
      (played) => Object.assign(goal, { playing: false }, played),
      (err) => Object.assign(goal, { playing: false, error: err.message }),
    ).then(() => render(state));
  }
  return goal;
}

// The view last drawn, as JSON.
let drawn = "";

export function render(state) {
  const ex = state.exercise;
  const shown = Boolean(ex) && shownFor === ex.name;
  $("goal-btn").hidden = !ex;
  $("goal-btn").textContent = shown ? "Hide goal" : "Show goal";
  $("goal-btn").setAttribute("aria-expanded", String(shown));
  $("goal").hidden = !shown;
  $("stacks-mine-title").hidden = !shown;
  $("stacks-pair").classList.toggle("with-goal", shown);
  if (!shown) {
    drawn = "";
    return;
  }
  setText($("stacks-mine-title"), `Yours: bucket ${isolate(state.bucket || "—")}`);
  setText($("goal-title"), `Goal: bucket ${isolate(ex.bucket)} once the task is done`);
  const view = goalView(state, ex, goalOf(ex));
  const sig = JSON.stringify(view);
  if (sig === drawn) return;
  drawn = sig;
  replace($("goal-body"), draw(view));
}

// goalView is what the goal shows, as plain data.
function goalView(state, ex, goal) {
  if (goal.playing) return { note: "Working out the goal…" };
  if (goal.error) return { note: `The goal could not be worked out: ${goal.error}` };
  const same = state.bucket === ex.bucket;
  const facts = {
    versions: same ? state.versions : [],
    rules: state.rules,
    ruleErrors: state.ruleErrors.length,
    s3Rules: same && state.s3.readFor === ex.bucket ? state.s3.config?.Rules ?? [] : [],
    taken: ex.progress.taken,
    answer: "",
    describe: () => null,
  };
  const stacks = compareStacks(ex.task, goal.versions, facts.versions);
  const revealed = ex.progress.solutionShown || Boolean(ex.progress.last?.solved);
  const { task } = ex;
  return {
    unmet: goal.unmet,
    other: same ? "" : ex.bucket,
    stacks,
    rules: compareRules(task, facts),
    answer: task.answer && (revealed ? `Answer: ${answerText(task)}` : `The answer (${isolate(task.answer.label)}) is yours to find: the goal shows it once the task is solved or its solution shown.`),
    actions: task.checks.filter((c) => c.did || c.ran).map((c) => c.label),
  };
}

// answerText is the solution's answer as the student reads it.
function answerText(task) {
  const a = task.solution.answer;
  return task.answer.choices ? `${a}. ${task.answer.choices[Number(a) - 1]}` : a;
}

// What each mark on a goal's version says, and the class that shows it.
const MARKS = {
  same: "✓ as in yours",
  missing: "✗ missing from yours",
  differs: "≠ yours differs",
};

function draw(view) {
  if (view.note) return h("p", { class: "empty" }, view.note);
  const { stacks } = view;
  const left = stacks.keys.reduce((n, k) => n + (k.checked ? k.differences : 0), 0);
  return [
    view.unmet > 0 ? h("p", { class: "field-error" }, `${view.unmet} step(s) of this exercise did not do what they expect: the goal may be off. Tell its author.`) : null,
    view.other ? h("p", { class: "hint" }, `Your stacks show another bucket: select ${isolate(view.other)} to compare.`) : null,
    !stacks.checked ? h("p", { class: "hint" }, "Check does not look at the stacks in this task: they are shown, not compared.")
      : h("p", { class: `goal-summary ${left === 0 ? "pass" : "fail"}`, role: "status" }, left === 0 ? "✓ Your stacks match the goal's." : `${left} difference${left === 1 ? "" : "s"} left in the stacks.`),
    stacks.keys.length === 0 ? h("p", { class: "empty" }, `The goal's bucket holds no versions.`)
      : h("ul", { class: "stack-list goal-list", role: "list", "aria-label": "The goal's version stacks" }, stacks.keys.map(keyView)),
    view.rules.length > 0 ? h("div", { class: "goal-rules" }, view.rules.map(rulesView)) : null,
    view.answer ? h("p", { class: "goal-answer" }, view.answer) : null,
    view.actions.length > 0 ? h("p", { class: "hint" }, `Check also looks at what you do: ${view.actions.join("; ")}.`) : null,
  ];
}

// keyView draws one key of the goal: its stack, each version marked, and
// the student's versions a check does not expect.
function keyView(k) {
  const status = !k.checked ? "not compared" : k.differences === 0 ? "✓ as in yours" : !k.yours ? "✗ not in yours" : `≠ ${k.differences} difference${k.differences === 1 ? "" : "s"}`;
  return h("li", { class: `stack goal-stack${k.checked && k.differences > 0 ? " differs" : ""}`, "data-key": k.key },
    h("h4", { class: "stack-key" }, h("code", {}, k.key), h("span", { class: "goal-key-mark" }, status)),
    h("ol", { class: "entries", role: "list", "aria-label": `Goal versions of ${k.key}, newest first` },
      k.entries.map((e) => h("li", { class: `entry goal-entry ${e.v.isDeleteMarker ? "marker" : "data"} ${e.v.isLatest ? "current" : "noncurrent"}${e.mark ? ` goal-${e.mark}` : ""}`, "data-mark": e.mark ?? "none", "data-version-id": e.v.versionId },
        h("span", { class: "entry-head" },
          h("span", { class: "kind-badge" }, e.v.isDeleteMarker ? "✕ delete marker" : "▮ data"),
          h("span", { class: "state-badge" }, e.v.isLatest ? "current" : "noncurrent"),
          e.pinned ? h("code", { class: "vid" }, e.v.versionId) : h("span", { class: "hint" }, "any version ID")),
        e.mark ? h("span", { class: "goal-mark" }, e.mark === "differs" && e.yours ? `${MARKS.differs}: ${e.yours}` : MARKS[e.mark]) : null)),
      k.extra.map((v) => h("li", { class: "entry goal-extra", "data-mark": "extra", "data-version-id": v.versionId },
        h("span", { class: "goal-mark" }, "+ only in yours: "),
        `${v.isDeleteMarker ? "delete marker" : "data version"} `, h("code", { class: "vid" }, v.versionId), v.isLatest ? " (current)" : " (noncurrent)"))));
}

// The fields of the chapter's rules, as the rule editor names them.
const RULE_FIELD = { id: "ID", prefix: "prefix", expireCurrentAfter: "current", expireNoncurrentAfter: "noncurrent" };

// patternWords says what a rule pattern asks for, field by field; a field
// it does not name is the student's to choose. S3's nested fields are
// named by their path; null is "absent".
function patternWords(p, names = {}, at = "") {
  return Object.entries(p).flatMap(([k, v]) => {
    if (v !== null && typeof v === "object") return patternWords(v, names, `${at}${k}.`);
    return [`${names[k] ?? at + k} ${v === null ? "absent" : v === "" ? "empty" : JSON.stringify(v)}`];
  });
}

function rulesView(r) {
  const what = r.kind === "rules" ? "The chapter's rules in the editor" : "The S3 lifecycle configuration stored on the bucket";
  const count = r.patterns.length === 0 ? "none" : `${r.patterns.length} rule${r.patterns.length === 1 ? "" : "s"}`;
  return h("section", { class: "goal-rule-set" },
    h("h4", {}, `${what}: ${count} `, h("span", { class: `goal-key-mark ${r.pass ? "pass" : "fail"}` }, r.pass ? "✓ as in yours" : "≠ yours differs")),
    r.patterns.length > 0 ? h("ol", { class: "goal-rules-list" }, r.patterns.map((p) => {
      const fields = patternWords(p, r.kind === "rules" ? RULE_FIELD : {});
      return h("li", {}, fields.length === 0 ? "any rule: its fields are yours to choose" : `${fields.join(", ")}; the rest is yours to choose`);
    })) : null,
    r.pass ? null : h("p", { class: "hint" }, `Yours: ${r.detail}${r.lines.length > 0 ? ` ${r.lines.join("; ")}` : ""}`));
}
