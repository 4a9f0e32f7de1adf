// Exercises: the task a scenario may end with. Its steps set the stage; the
// task asks the student to act (move the clock, write rules, tick, PUT,
// GET…) or to answer, and its checks decide whether that was done. A check
// is a predicate over plain data, the facts the page gathers when the
// student asks for a check:
//
//   versions  the task bucket's version list (store.listVersions)
//   rules     the rule editor's rules, and ruleErrors, its rows in error
//   taken     what the student did since the stage was set: one record per
//             step, { op, bucket, key, versionId, body, status, at, ok,
//             code } and the step's outcome (takenStep builds it)
//   answer    what the student wrote or chose, as text
//   describe  the terminal's reading of a command line (term.describe):
//             what it asks for, whatever its spelling, or null
//
// Nothing here reads the page or the store, so every check is a pure
// function of the facts. docs/SCENARIOS.md describes the format.
import { checkExpect, fmt, isolate } from "./model.js";
import { checkStep, expectation } from "./steps.js";

export const MAX_CHECKS = 50;
export const MAX_HINTS = 20;
export const MAX_CHOICES = 10;
export const MAX_SOLUTION_STEPS = 100;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isScalar = (v) => typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
const unknownField = (obj, allowed) => Object.keys(obj).find((k) => !allowed.includes(k)) ?? "";

// The fields of a step that a taken record keeps, besides op: what a did
// pattern can name.
const RECORD_FIELDS = ["bucket", "key", "versionId", "body", "status", "now", "time", "line"];

// ---- checking a task as written ----

// The predicates a check may hold: exactly one of them, with its own
// fields. checkPredicate returns what is wrong with a check, or "".
const PREDICATES = {
  // The student's answer read as a number of seconds equals it.
  answer: (c, task) => {
    if (!task.answer) return "needs the task to ask for an answer";
    if (task.answer.choices) return "cannot be used with choices: use choice";
    if (typeof c.answer === "number") return Number.isFinite(c.answer) ? "" : "answer must be a finite number";
    return typeof c.answer === "string" ? "" : "answer must be a number or text";
  },
  // The student chose this choice (counted from 1).
  choice: (c, task) => {
    if (!task.answer?.choices) return "needs the task's answer to have choices";
    return Number.isSafeInteger(c.choice) && c.choice >= 1 && c.choice <= task.answer.choices.length ? "" : `choice must be a number from 1 to ${task.answer.choices.length}`;
  },
  // The task bucket's version list is exactly this (patterns, as
  // expect.versions).
  versions: (c) => patternList(c.versions),
  // The rule editor holds exactly these rules (patterns of { id, prefix,
  // expireCurrentAfter, expireNoncurrentAfter }), and no row in error.
  rules: (c) => patternList(c.rules),
  // The student took a step matching this pattern (of a taken record):
  // at least once, or exactly count times; and, with expect, the last such
  // step's outcome passes it (the expectations of a scenario step).
  did: (c) => {
    if (!isObject(c.did)) return "did must be a pattern object";
    for (const [k, v] of Object.entries(c.did)) {
      if (!["op", "at", "ok", "code", ...RECORD_FIELDS].includes(k)) return `did has an unknown field ${JSON.stringify(k)}`;
      if (!isScalar(v)) return `did: ${k} must be text, a number or true/false`;
    }
    if (c.count !== undefined && (!Number.isSafeInteger(c.count) || c.count < 0)) return "count must be a whole number ≥ 0";
    if (c.expect !== undefined) {
      if (c.count === 0) return "expect needs a step to look at, so not with count 0";
      const problem = expectation(c.expect);
      if (problem) return `expect ${problem}`;
    }
    return "";
  },
  // The student ran a command line that does what this one does (the
  // same command, operation and options, whatever their spelling: see
  // sameCommand), at least once or exactly count times; at the clock's
  // at, and succeeding or not (ok), when given; and, with expect, the last
  // such line's outcome passes it.
  ran: (c) => {
    const problem = checkStep({ op: "command", line: c.ran }, "").error;
    if (problem) return `ran ${problem.replace(/^\(command\): line /, "")}`;
    if (c.at !== undefined && !(typeof c.at === "number" && Number.isFinite(c.at))) return "at must be a number of seconds";
    if (c.ok !== undefined && typeof c.ok !== "boolean") return "ok must be true or false";
    if (c.count !== undefined && (!Number.isSafeInteger(c.count) || c.count < 0)) return "count must be a whole number ≥ 0";
    if (c.expect !== undefined) {
      if (c.count === 0) return "expect needs a line to look at, so not with count 0";
      const problem = expectation(c.expect);
      if (problem) return `expect ${problem}`;
    }
    return "";
  },
};

// The fields a check may have besides its predicate.
const CHECK_EXTRA = { did: ["count", "expect"], ran: ["at", "ok", "count", "expect"] };

function patternList(list) {
  if (!Array.isArray(list)) return "must be a list of patterns";
  for (let i = 0; i < list.length; i++) {
    if (!isObject(list[i])) return `item ${i + 1} is not an object`;
    for (const [k, v] of Object.entries(list[i])) {
      if (!isScalar(v)) return `item ${i + 1}: ${JSON.stringify(k)} must be text, a number or true/false`;
    }
  }
  return "";
}

function checkCheck(c, task) {
  if (!isObject(c)) return "is not an object";
  const kinds = Object.keys(c).filter((k) => Object.hasOwn(PREDICATES, k));
  if (kinds.length !== 1) return `needs exactly one of ${Object.keys(PREDICATES).join(", ")}`;
  const kind = kinds[0];
  const extra = unknownField(c, ["label", kind, ...(CHECK_EXTRA[kind] ?? [])]);
  if (extra) return `has an unknown field ${JSON.stringify(extra.slice(0, 80))}`;
  if (typeof c.label !== "string" || c.label.trim() === "") return "needs a label: what the student reads";
  return PREDICATES[kind](c, task);
}

const isText = (v) => typeof v === "string" && v.trim() !== "";

function checkAnswer(a) {
  if (!isObject(a)) return "must be an object";
  const extra = unknownField(a, ["label", "choices"]);
  if (extra) return `has an unknown field ${JSON.stringify(extra.slice(0, 80))}`;
  if (!isText(a.label)) return "needs a label: the question next to the field";
  if (a.choices === undefined) return "";
  if (!Array.isArray(a.choices) || a.choices.length < 2 || a.choices.length > MAX_CHOICES || !a.choices.every(isText)) {
    return `choices must be a list of 2 to ${MAX_CHOICES} texts`;
  }
  return "";
}

// checkTask checks a scenario's task (parsed JSON) strictly: a prompt, at
// least one check, each a known predicate with its fields, hints and a
// solution of text and runnable steps. It returns { task } (the solution's
// steps with defaultBucket filled in) or { error }.
export function checkTask(raw, defaultBucket) {
  if (!isObject(raw)) return { error: "must be an object" };
  const extra = unknownField(raw, ["prompt", "answer", "checks", "hints", "solution"]);
  if (extra) return { error: `has an unknown field ${JSON.stringify(extra.slice(0, 80))}` };
  if (!isText(raw.prompt)) return { error: "needs a prompt: what the student is asked to do" };
  if (raw.answer !== undefined) {
    const problem = checkAnswer(raw.answer);
    if (problem) return { error: `answer ${problem}` };
  }
  if (!Array.isArray(raw.checks) || raw.checks.length === 0 || raw.checks.length > MAX_CHECKS) {
    return { error: `checks must be a list of 1 to ${MAX_CHECKS} checks` };
  }
  for (let i = 0; i < raw.checks.length; i++) {
    const problem = checkCheck(raw.checks[i], raw);
    if (problem) return { error: `check ${i + 1} ${problem}` };
  }
  const hints = raw.hints ?? [];
  if (!Array.isArray(hints) || hints.length > MAX_HINTS || !hints.every(isText)) return { error: `hints must be a list of at most ${MAX_HINTS} texts` };
  const s = raw.solution;
  if (!isObject(s)) return { error: "needs a solution: { text, steps, answer }" };
  const sExtra = unknownField(s, ["text", "steps", "answer"]);
  if (sExtra) return { error: `solution has an unknown field ${JSON.stringify(sExtra.slice(0, 80))}` };
  if (!isText(s.text)) return { error: "solution needs a text: the reasoning" };
  if (s.answer !== undefined && typeof s.answer !== "string") return { error: "solution answer must be text, as the student would write it" };
  if ((s.answer === undefined) !== (raw.answer === undefined)) return { error: "solution needs an answer exactly when the task asks for one" };
  const rawSteps = s.steps ?? [];
  if (!Array.isArray(rawSteps) || rawSteps.length > MAX_SOLUTION_STEPS) return { error: `solution steps must be a list of at most ${MAX_SOLUTION_STEPS} steps` };
  const steps = [];
  for (let i = 0; i < rawSteps.length; i++) {
    const { step, error } = checkStep(rawSteps[i], defaultBucket);
    if (error) return { error: `solution step ${i + 1} ${error}` };
    steps.push(step);
  }
  return {
    task: {
      prompt: raw.prompt,
      answer: raw.answer ? { label: raw.answer.label, choices: raw.answer.choices ?? null } : null,
      checks: raw.checks,
      hints,
      solution: { text: s.text, answer: s.answer ?? null, steps },
    },
  };
}

// ---- what the student did ----

// takenStep is the record of one step the student took: its op and the
// fields a did pattern can name, the clock when it ran (at; after the move
// for a clock step), whether it succeeded, and its outcome for expect.
export function takenStep(step, outcome, at) {
  const record = { op: step.op, at, ok: outcome.ok, outcome };
  for (const k of RECORD_FIELDS) {
    if (step[k] !== undefined) record[k] = step[k];
  }
  if (!outcome.ok) record.code = outcome.code;
  return record;
}

// ---- evaluating a task ----

// readNumber reads an answer in seconds: "15", "15 s", "t = 15". It returns
// null when the text is not one.
export function readNumber(text) {
  const m = /^\s*(?:t\s*=\s*)?([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(?:s|secs?|seconds?)?\s*$/i.exec(String(text));
  if (!m) return null;
  const v = Number(m[1]);
  return Number.isFinite(v) ? v : null;
}

const matches = (obj, pattern) => Object.entries(pattern).every(([k, v]) => obj[k] === v);
const showPattern = (p) => Object.entries(p).map(([k, v]) => `${k}=${typeof v === "string" ? isolate(v) : v}`).join(", ");

// The evaluation of each predicate: (check, facts, task) => { pass, detail }.
const EVALUATE = {
  answer: (c, { answer }) => {
    const text = String(answer ?? "").trim();
    if (text === "") return { pass: false, detail: "no answer yet" };
    if (typeof c.answer === "string") return { pass: text === c.answer.trim(), detail: `you wrote ${isolate(text)}` };
    const v = readNumber(text);
    if (v === null) return { pass: false, detail: `${isolate(text)} is not a number of seconds` };
    return { pass: v === c.answer, detail: `you wrote ${fmt(v)}` };
  },
  choice: (c, { answer }, task) => {
    const n = Number(answer);
    const chosen = Number.isSafeInteger(n) && n >= 1 && n <= task.answer.choices.length;
    return { pass: chosen && n === c.choice, detail: chosen ? `you chose ${n}` : "no choice yet" };
  },
  versions: (c, { versions }) => fromExpect({ versions: c.versions }, { ok: true, versions }),
  rules: (c, { rules, ruleErrors }) => {
    if (ruleErrors > 0) return { pass: false, detail: `the rule editor has ${ruleErrors} rule(s) in error` };
    return fromExpect({ rules: c.rules }, { ok: true, rules });
  },
  did: (c, { taken }) => {
    const found = taken.filter((r) => matches(r, c.did));
    if (c.count !== undefined && found.length !== c.count) return { pass: false, detail: `done ${found.length} time(s), want ${c.count}` };
    if (c.count === undefined && found.length === 0) return { pass: false, detail: `no step with ${showPattern(c.did)} yet` };
    if (!c.expect) return { pass: true, detail: `done ${found.length} time(s)` };
    return fromExpect(c.expect, found[found.length - 1].outcome);
  },
  ran: (c, { taken, describe }) => {
    const want = describe(c.ran);
    if (!want) return { pass: false, detail: "the exercise's own command line cannot be read: tell its author" };
    const lines = taken.filter((r) => r.op === "command");
    const found = lines.filter((r) => (c.at === undefined || r.at === c.at) && (c.ok === undefined || r.ok === c.ok) && sameCommand(describe(r.line), want));
    const latest = (records) => records.slice(-5).map((r) => `${isolate(r.line)} at ${fmt(r.at)}`).join("; ");
    if (c.count !== undefined && found.length !== c.count) return { pass: false, detail: found.length === 0 ? "you have not run it yet" : `you ran it ${found.length} time(s): ${latest(found)}` };
    if (found.length === 0 && c.count === 0) return { pass: true, detail: "you have not run it" };
    if (found.length === 0) return { pass: false, detail: lines.length === 0 ? "you have not run a command yet" : `not yet: you ran ${latest(lines)}` };
    const last = found[found.length - 1];
    if (!c.expect) return { pass: true, detail: `you ran ${latest([last])}` };
    return fromExpect(c.expect, last.outcome);
  },
};

// sameCommand: the command line the student ran (got) does what the
// exercise's (want) does, both as term.describe reads them: for aws, the
// same command and operation, and every option want gives, given with the
// same value (in any spelling, order or place; the student may give more,
// global options such as --output are not compared, and the file a
// download writes is the student's to name); for another command, the
// same name and want's words first.
function sameCommand(got, want) {
  if (!got || got.name !== want.name) return false;
  if (want.aws) {
    if (!got.aws || got.aws.command !== want.aws.command || got.aws.operation !== want.aws.operation) return false;
    return Object.entries(want.aws.options).every(([k, v]) => k === "outfile" || JSON.stringify(got.aws.options[k]) === JSON.stringify(v));
  }
  return want.args.every((w, i) => got.args[i] === w);
}

// fromExpect runs a scenario step's expectations and folds them into one
// result whose detail names what failed.
function fromExpect(expect, outcome) {
  const results = checkExpect(expect, outcome);
  const failed = results.filter((r) => !r.pass);
  if (failed.length === 0) return { pass: true, detail: results.map((r) => r.detail).join("; ") };
  return { pass: false, detail: failed.map((r) => `${r.label}: ${r.detail}`).join("; ") };
}

const kindOfCheck = (c) => Object.keys(c).find((k) => Object.hasOwn(EVALUATE, k));

// evaluateTask runs every check of a task over the facts, in order. It
// returns { solved, checks: [{ label, pass, detail }] }.
export function evaluateTask(task, facts) {
  const checks = task.checks.map((c) => ({ label: c.label, ...EVALUATE[kindOfCheck(c)](c, facts, task) }));
  return { solved: checks.every((c) => c.pass), checks };
}

// ---- the student's progress ----

// newProgress is the state of an exercise just loaded: no step taken, no
// hint shown, no attempt.
export function newProgress() {
  return { taken: [], hintsShown: 0, attempts: 0, last: null, solutionShown: false };
}

// restoredProgress is the progress the page saved for task (parsed JSON
// from localStorage), or null when it is not one: a progress of another
// shape, or whose last results are not this task's checks (the scenario
// changed since), is dropped whole and the exercise starts afresh.
export function restoredProgress(raw, task) {
  if (!isObject(raw)) return null;
  const { taken, hintsShown, attempts, last, solutionShown } = raw;
  const counts = (n) => Number.isSafeInteger(n) && n >= 0;
  if (!Array.isArray(taken) || !taken.every(isTakenStep)) return null;
  if (!counts(hintsShown) || hintsShown > task.hints.length || !counts(attempts)) return null;
  if (typeof solutionShown !== "boolean" || (solutionShown && attempts === 0)) return null;
  if (attempts === 0 ? last !== null : !isResultOf(last, task)) return null;
  return { taken, hintsShown, attempts, last, solutionShown };
}

// isTakenStep: a record as takenStep makes it.
const isTakenStep = (r) => isObject(r) && typeof r.op === "string" && Number.isFinite(r.at) &&
  typeof r.ok === "boolean" && isObject(r.outcome) && r.outcome.ok === r.ok;

// isResultOf: a result as evaluateTask gives it for task.
const isResultOf = (r, task) => isObject(r) && Array.isArray(r.checks) && r.checks.length === task.checks.length &&
  r.checks.every((c, i) => isCheckResult(c) && c.label === task.checks[i].label) &&
  r.solved === r.checks.every((c) => c.pass);

// isCheckResult: one check's result, a task's or a scenario step's
// expectation's: { label, pass, detail }.
export const isCheckResult = (c) => isObject(c) && typeof c.label === "string" && typeof c.pass === "boolean" && typeof c.detail === "string";

// canShowSolution: the solution is offered once the student has tried.
export const canShowSolution = (progress) => progress.attempts > 0;

// nextHint is the progress with one more hint shown (no more than there are).
export function nextHint(progress, task) {
  return { ...progress, hintsShown: Math.min(progress.hintsShown + 1, task.hints.length) };
}
