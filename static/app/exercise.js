// Exercises: the task a scenario may end with. Its steps set the stage; the
// task asks the student to act (move the clock, write rules, tick, PUT,
// GET…) or to answer, and its checks decide whether that was done. A check
// is a predicate over plain data, the facts the page gathers when the
// student asks for a check:
//
//   versions  the task bucket's version list (store.listVersions)
//   rules     the rule editor's rules, and ruleErrors, its rows in error
//   s3Rules   the rules of the task bucket's stored S3 lifecycle
//             configuration, as the store answers them
//             (store.getBucketLifecycle; none when nothing is stored)
//   taken     what the student did since the stage was set: one record per
//             step, { op, bucket, key, versionId, body, status, at, ok,
//             code } and the step's outcome (takenStep builds it)
//   answer    what the student wrote or chose, as text
//   describe  the terminal's reading of a command line (term.describe):
//             what it asks for, whatever its spelling, or null (a line
//             the student ran was read when it ran: its outcome's command)
//
// Nothing here reads the page or the store, so every check is a pure
// function of the facts. docs/SCENARIOS.md describes the format.
//
// What a check says to the student before the task is solved never states
// what it asks for: a failed check says what the student did and what the
// store holds, in the chapter's words, never the expected value; a check's
// own hint leads toward the reasoning.
import { checkExpect, fmt, groupStacks, isolate } from "./model.js";
import { actionName } from "./compare.js";
import { PATTERN_FIELDS, checkStep, expectation, inside, kindOf, opProblem, patternList, shown, unknownField } from "./steps.js";

export const MAX_CHECKS = 50;
export const MAX_HINTS = 20;
export const MAX_CHOICES = 10;
export const MAX_SOLUTION_STEPS = 100;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isScalar = (v) => typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
const isText = (v) => typeof v === "string" && v.trim() !== "";

// The fields of a step that a taken record keeps, besides op: what a did
// pattern can name.
const RECORD_FIELDS = ["bucket", "key", "versionId", "body", "status", "now", "time", "line"];

// ---- checking a task as written ----
//
// Each check below returns "" or a problem with the path of the field it
// is in (steps.js inside), so that a refusal names the field as the file
// spells it: checks[4].versions[2]: unknown field "versionID" (did you mean "versionId"?)

// The fields a did pattern may name: those of a taken record.
const DID_FIELDS = ["op", "at", "ok", "code", ...RECORD_FIELDS];

// The AWS CLI's JSON shape of an S3 lifecycle rule, as
// store.getBucketLifecycle answers it: true for a field that holds a
// value, a shape for one that holds an object. A list (Transitions,
// And.Tags) can only be asked to be absent, with null.
const S3_RULE = {
  ID: true,
  Status: true,
  Prefix: true,
  Filter: {
    Prefix: true,
    Tag: { Key: true, Value: true },
    ObjectSizeGreaterThan: true,
    ObjectSizeLessThan: true,
    And: { Prefix: true, Tags: true, ObjectSizeGreaterThan: true, ObjectSizeLessThan: true },
  },
  Expiration: { Days: true, Date: true, ExpiredObjectDeleteMarker: true },
  NoncurrentVersionExpiration: { NoncurrentDays: true, NewerNoncurrentVersions: true },
  AbortIncompleteMultipartUpload: { DaysAfterInitiation: true },
  Transitions: true,
  NoncurrentVersionTransitions: true,
};

const count = (c) => (c.count === undefined || (Number.isSafeInteger(c.count) && c.count >= 0) ? "" : inside("count", "must be a whole number ≥ 0"));

// expected checks the expect of a did or ran check: an expect block
// (steps.js expectation), and a step to look at.
function expected(c, what) {
  if (c.expect === undefined) return "";
  if (c.count === 0) return inside("expect", `needs ${what} to look at, so not with count 0`);
  return inside("expect", expectation(c.expect));
}

// The predicates a check may hold: exactly one of them, with its own
// fields. Each returns what is wrong with a check of its kind, or "".
const PREDICATES = {
  // The student's answer read as a number of seconds equals it.
  answer: (c, task) => {
    if (!task.answer) return "an answer check needs the task to ask for an answer";
    if (task.answer.choices) return "an answer check cannot be used with choices: use choice";
    if (typeof c.answer === "number") return Number.isFinite(c.answer) ? "" : inside("answer", "must be a finite number");
    return typeof c.answer === "string" ? "" : inside("answer", "must be a number or text");
  },
  // The student chose this choice (counted from 1).
  choice: (c, task) => {
    if (!task.answer?.choices) return "a choice check needs the task's answer to have choices";
    return Number.isSafeInteger(c.choice) && c.choice >= 1 && c.choice <= task.answer.choices.length ? "" : inside("choice", `must be a number from 1 to ${task.answer.choices.length}`);
  },
  // The task bucket's version list is exactly this (patterns, as
  // expect.versions).
  versions: (c) => inside("versions", patternList(c.versions, PATTERN_FIELDS.version)),
  // The rule editor holds exactly these rules (patterns of { id, prefix,
  // expireCurrentAfter, expireNoncurrentAfter }), and no row in error.
  rules: (c) => inside("rules", patternList(c.rules, PATTERN_FIELDS.chapterRule)),
  // The task bucket's stored S3 lifecycle configuration has exactly these
  // rules, in any order: patterns of the AWS CLI's JSON shape, nested
  // ({ "Filter": { "Prefix": "logs/" } }), where null means "absent".
  // [] is "no configuration stored".
  s3Rules: (c) => inside("s3Rules", deepPatternList(c.s3Rules, S3_RULE)),
  // The student took a step matching this pattern (of a taken record):
  // at least once, or exactly count times; and, with expect, the last such
  // step's outcome passes it (the expectations of a scenario step).
  did: (c) => {
    if (!isObject(c.did)) return inside("did", "must be a pattern object");
    const extra = unknownField(c.did, DID_FIELDS);
    if (extra) return inside("did", extra);
    for (const [k, v] of Object.entries(c.did)) {
      if (!isScalar(v)) return inside("did", inside(k, "must be text, a number or true/false"));
    }
    if (c.did.op !== undefined) {
      const problem = opProblem(c.did.op);
      if (problem) return inside("did", inside("op", problem));
    }
    return count(c) || expected(c, "a step");
  },
  // The student ran a command line that does what this one does (the
  // same command, operation and options, whatever their spelling: see
  // sameCommand), at least once or exactly count times; at the clock's
  // at, and succeeding or not (ok), when given; and, with expect, the last
  // such line's outcome passes it.
  ran: (c) => {
    const { problem } = checkStep({ op: "command", line: c.ran }, "");
    if (problem) return inside("ran", problem.text);
    if (c.at !== undefined && !(typeof c.at === "number" && Number.isFinite(c.at))) return inside("at", "must be a number of seconds");
    if (c.ok !== undefined && typeof c.ok !== "boolean") return inside("ok", "must be true or false");
    return count(c) || expected(c, "a line");
  },
};

// The fields a check may have besides its label, its predicate and its
// hint (shown when it fails: a nudge toward the reasoning).
const CHECK_EXTRA = { did: ["count", "expect"], ran: ["at", "ok", "count", "expect"] };
const CHECK_FIELDS = ["label", "hint", ...Object.keys(PREDICATES), ...new Set(Object.values(CHECK_EXTRA).flat())];

// deepPatternList checks patterns of shape (S3_RULE): each field one the
// shape has, holding a scalar or null, or, where the shape nests, null or
// a pattern of the nested shape.
function deepPatternList(list, shape) {
  if (!Array.isArray(list)) return "must be a list of patterns";
  const problem = (p, shape) => {
    const extra = unknownField(p, Object.keys(shape));
    if (extra) return extra;
    for (const [k, v] of Object.entries(p)) {
      const nested = shape[k] !== true;
      if (v === null) continue;
      if (nested && !isObject(v)) return inside(k, "must be a pattern ({ … }) or null");
      if (nested) {
        const inner = problem(v, shape[k]);
        if (inner) return inside(k, inner);
      } else if (!isScalar(v)) return inside(k, "must be text, a number, true/false or null");
    }
    return "";
  };
  for (let i = 0; i < list.length; i++) {
    if (!isObject(list[i])) return inside(`[${i}]`, "is not an object");
    const p = problem(list[i], shape);
    if (p) return inside(`[${i}]`, p);
  }
  return "";
}

function checkCheck(c, task) {
  if (!isObject(c)) return "is not an object";
  const extra = unknownField(c, CHECK_FIELDS);
  if (extra) return extra;
  const kinds = Object.keys(c).filter((k) => Object.hasOwn(PREDICATES, k));
  if (kinds.length !== 1) return `needs exactly one of ${Object.keys(PREDICATES).join(", ")}`;
  const kind = kinds[0];
  const misplaced = Object.keys(c).find((k) => !["label", "hint", kind, ...(CHECK_EXTRA[kind] ?? [])].includes(k));
  if (misplaced) return `a ${kind} check has no field ${JSON.stringify(misplaced)}`;
  if (typeof c.label !== "string" || c.label.trim() === "") return "needs a label: what the student reads";
  if (c.hint !== undefined && !isText(c.hint)) return inside("hint", "must be text: what the student reads when the check fails");
  return PREDICATES[kind](c, task);
}

function checkAnswer(a) {
  if (!isObject(a)) return "must be an object";
  const extra = unknownField(a, ["label", "choices"]);
  if (extra) return extra;
  if (!isText(a.label)) return "needs a label: the question next to the field";
  if (a.choices === undefined) return "";
  if (!Array.isArray(a.choices) || a.choices.length < 2 || a.choices.length > MAX_CHOICES || !a.choices.every(isText)) {
    return inside("choices", `must be a list of 2 to ${MAX_CHOICES} texts`);
  }
  return "";
}

// checkSolution checks a task's solution: { text, steps, answer }. It
// returns { steps } (with defaultBucket filled in) or { problem }.
function checkSolution(s, task, defaultBucket) {
  if (!isObject(s)) return { problem: "needs a solution: { text, steps, answer }" };
  const extra = unknownField(s, ["text", "steps", "answer"]);
  if (extra) return { problem: inside("solution", extra) };
  if (!isText(s.text)) return { problem: inside("solution", "needs a text: the reasoning") };
  if (s.answer !== undefined && typeof s.answer !== "string") return { problem: inside("solution", inside("answer", "must be text, as the student would write it")) };
  if ((s.answer === undefined) !== (task.answer === undefined)) return { problem: inside("solution", "needs an answer exactly when the task asks for one") };
  const rawSteps = s.steps ?? [];
  if (!Array.isArray(rawSteps) || rawSteps.length > MAX_SOLUTION_STEPS) return { problem: inside("solution", inside("steps", `must be a list of at most ${MAX_SOLUTION_STEPS} steps`)) };
  const steps = [];
  for (let i = 0; i < rawSteps.length; i++) {
    const { step, problem } = checkStep(rawSteps[i], defaultBucket);
    if (problem) return { problem: inside("solution", inside("steps", inside(`[${i}]`, problem))) };
    steps.push(step);
  }
  return { steps };
}

// taskProblem is what is wrong with a task but its solution, or "".
function taskProblem(raw) {
  if (!isObject(raw)) return "must be an object";
  const extra = unknownField(raw, ["prompt", "answer", "checks", "hints", "solution"]);
  if (extra) return extra;
  if (!isText(raw.prompt)) return "needs a prompt: what the student is asked to do";
  if (raw.answer !== undefined) {
    const problem = checkAnswer(raw.answer);
    if (problem) return inside("answer", problem);
  }
  if (!Array.isArray(raw.checks) || raw.checks.length === 0 || raw.checks.length > MAX_CHECKS) {
    return inside("checks", `must be a list of 1 to ${MAX_CHECKS} checks`);
  }
  const check = eachCheck(raw.checks, raw);
  if (check) return inside("checks", check);
  const hints = raw.hints ?? [];
  if (!Array.isArray(hints) || hints.length > MAX_HINTS) return inside("hints", `must be a list of at most ${MAX_HINTS} texts`);
  const hint = hints.findIndex((h) => !isText(h));
  if (hint >= 0) return inside("hints", inside(`[${hint}]`, "must be text"));
  return "";
}

// eachCheck checks a task's checks: the first problem, at its index, or "".
function eachCheck(checks, task) {
  for (let i = 0; i < checks.length; i++) {
    const problem = checkCheck(checks[i], task);
    if (problem) return inside(`[${i}]`, problem);
  }
  return "";
}

// checkTask checks a scenario's task (parsed JSON) strictly: a prompt, at
// least one check, each a known predicate with its fields, hints and a
// solution of text and runnable steps. It returns { task } (the solution's
// steps with defaultBucket filled in), or { problem, error }: the problem
// and its line, with the path from the task.
export function checkTask(raw, defaultBucket) {
  const refused = (problem) => ({ problem, error: shown(problem) });
  const problem = taskProblem(raw);
  if (problem) return refused(problem);
  const solution = checkSolution(raw.solution, raw, defaultBucket);
  if (solution.problem) return refused(solution.problem);
  const s = raw.solution;
  return {
    task: {
      prompt: raw.prompt,
      answer: raw.answer ? { label: raw.answer.label, choices: raw.answer.choices ?? null } : null,
      checks: raw.checks,
      hints: raw.hints ?? [],
      solution: { text: s.text, answer: s.answer ?? null, steps: solution.steps },
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

// matchesDeep: value has every field of pattern, nested patterns matching
// nested objects, and null matching a field that is absent.
function matchesDeep(value, pattern) {
  if (pattern === null) return value === undefined || value === null;
  if (!isObject(pattern)) return value === pattern;
  return isObject(value) && Object.entries(pattern).every(([k, p]) => matchesDeep(value[k], p));
}

// deepMisses names the fields of value that pattern does not match, as
// paths such as NoncurrentVersionExpiration.NewerNoncurrentVersions.
function deepMisses(value, pattern, at = "") {
  if (!isObject(pattern) || !isObject(value)) return matchesDeep(value, pattern) ? [] : [at.slice(0, -1) || "the rule"];
  return Object.entries(pattern).flatMap(([k, p]) => deepMisses(value[k], p, `${at}${k}.`));
}

// ---- in the student's words ----

const listed = (items) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

// The most steps a detail names: the student's latest.
const NAMED_STEPS = 5;

// doneWords is what the student did in a taken step, after "you".
function doneWords(r) {
  const at = `at ${fmt(r.at)}`;
  const object = () => `${isolate(r.key)}${r.versionId ? ` by version ID ${isolate(r.versionId)}` : ""}`;
  let words;
  switch (r.op) {
    case "tick": words = `ticked ${at}`; break;
    case "preview": words = `previewed ${at}`; break;
    case "clock": case "advance": case "nextMidnight": words = `set the clock to ${fmt(r.at)}`; break;
    case "put": words = `PUT ${isolate(r.key)} ${at}`; break;
    case "get": words = `sent GET ${object()} ${at}`; break;
    case "delete": words = `sent DELETE ${object()} ${at}`; break;
    default: words = `did “${kindOf(r.op).describe(r)}” ${at}`;
  }
  return r.ok ? words : `${words}, which failed with ${r.code}`;
}

// The first time a student takes a kind of step, in "you have not … yet".
const NOT_YET = { tick: "ticked", preview: "previewed", put: "sent a PUT", get: "sent a GET", delete: "sent a DELETE", clock: "moved the clock" };

// actionWords lists lifecycle actions: the version and what was done to it.
function actionWords(actions) {
  if (actions.length === 0) return "nothing";
  return listed(actions.map((a) => `${isolate(a.key)} ${a.uploadId ? `upload ${isolate(a.uploadId)}` : isolate(a.versionId)} (${actionName(a)})`));
}

// outcomeWords is what a step the student took did, after "and it".
function outcomeWords(outcome) {
  if (!outcome.ok) return `failed with ${outcome.code}`;
  if (Array.isArray(outcome.actions)) return `took ${actionWords(outcome.actions)}`;
  if (outcome.body !== undefined) return `returned ${isolate(JSON.stringify(outcome.body))}`;
  return "succeeded, but not as asked";
}

// entryWords names a version of a stack, or a pattern of one (only what it
// gives): "data version v00000002 (current)".
function entryWords(v) {
  const kind = v.isDeleteMarker === true ? "delete marker" : v.isDeleteMarker === false ? "data version" : "version";
  const parts = [kind];
  if (v.versionId !== undefined) parts.push(isolate(v.versionId));
  if (v.isLatest !== undefined) parts.push(v.isLatest ? "(current, on top)" : "(noncurrent)");
  if (v.storageClass !== undefined && v.storageClass !== "STANDARD") parts.push(`in ${isolate(v.storageClass)}`);
  return parts.join(" ");
}

// What a version differs in, in words, for "should be …".
const SHOULD_BE = {
  isLatest: (v) => (v ? "current, on top" : "noncurrent, below the top"),
  isDeleteMarker: (v) => (v ? "a delete marker" : "a data version"),
  storageClass: (v) => `in ${isolate(v)}`,
};

// align pairs the entries of one stack (newest first) with the patterns
// asked for, in order, as many as it can (a longest common subsequence).
// It returns the pairs ([entry, pattern]), and the entries and the
// patterns left unpaired.
function align(entries, patterns) {
  const n = entries.length;
  const m = patterns.length;
  const best = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      best[i][j] = matches(entries[i], patterns[j]) ? best[i + 1][j + 1] + 1 : Math.max(best[i + 1][j], best[i][j + 1]);
    }
  }
  const pairs = [];
  const extra = [];
  const missing = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (matches(entries[i], patterns[j]) && best[i][j] === best[i + 1][j + 1] + 1) {
      pairs.push([entries[i++], patterns[j++]]);
    } else if (best[i + 1][j] >= best[i][j + 1]) extra.push(entries[i++]);
    else missing.push(patterns[j++]);
  }
  return { pairs, extra: [...extra, ...entries.slice(i)], missing: [...missing, ...patterns.slice(j)] };
}

// stackPairs pairs a version list with the patterns of a versions check
// as the check compares them: key by key (byKey), or the whole list at
// once when a pattern has no key (one group, key ""). Each group, keys
// ascending, holds align's pairs, extra entries and missing patterns.
export function stackPairs(versions, patterns) {
  const byKey = patterns.every((p) => p.key !== undefined);
  const groups = new Map();
  const group = (key) => groups.get(key) ?? groups.set(key, { entries: [], patterns: [] }).get(key);
  for (const s of groupStacks(versions)) group(byKey ? s.key : "").entries.push(...s.entries);
  for (const p of patterns) group(byKey ? p.key : "").patterns.push(p);
  const sorted = [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { byKey, groups: sorted.map(([key, g]) => ({ key, ...align(g.entries, g.patterns) })) };
}

// stackDifference says, key by key, how the versions the student has
// differ from the ones asked for (patterns): what should not be there,
// what is missing, and what should be otherwise. Patterns without a key
// are compared with the whole list.
export function stackDifference(versions, patterns) {
  const { byKey, groups } = stackPairs(versions, patterns);
  const lines = [];
  for (const { key, extra, missing } of groups) {
    const on = (v) => (byKey ? `${isolate(key)}: ` : `${isolate(v.key)}: `);
    for (const want of missing) {
      const have = want.versionId === undefined ? -1 : extra.findIndex((v) => v.versionId === want.versionId);
      if (have >= 0) {
        const [v] = extra.splice(have, 1);
        const wrong = Object.keys(SHOULD_BE).filter((k) => want[k] !== undefined && v[k] !== want[k]);
        lines.push(`${on(v)}${isolate(v.versionId)} should be ${wrong.map((k) => SHOULD_BE[k](want[k])).join(", ") || "as asked"}`);
      } else lines.push(`${byKey ? `${isolate(key)}: ` : ""}${entryWords(want)} should be there`);
    }
    for (const v of extra) lines.push(`${on(v)}${entryWords(v)} should not be there`);
  }
  return lines;
}

// The fields of a chapter rule, in words.
const RULE_FIELD = { id: "ID", prefix: "prefix", expireCurrentAfter: "current threshold", expireNoncurrentAfter: "noncurrent threshold" };

// matchAnyOrder pairs each pattern with a rule of its own, in any order;
// it returns whether every pattern found one.
function matchAnyOrder(rules, patterns, used = new Set(), j = 0) {
  if (j === patterns.length) return true;
  return rules.some((r, i) => !used.has(i) && matchesDeep(r, patterns[j]) && matchAnyOrder(rules, patterns, new Set([...used, i]), j + 1));
}

// The evaluation of each predicate: (check, facts, task) => { pass,
// detail, lines? }, where detail and lines say what the student has done
// or has, never what the check asks for.
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
    return { pass: chosen && n === c.choice, detail: chosen ? `you chose answer ${n}` : "no choice yet" };
  },
  versions: (c, { versions }) => {
    const lines = stackDifference(versions, c.versions);
    return lines.length === 0 ? { pass: true, detail: "as asked" } : { pass: false, detail: "not yet as asked:", lines };
  },
  rules: (c, { rules, ruleErrors }) => {
    if (ruleErrors > 0) return { pass: false, detail: `${ruleErrors} of your rules ${ruleErrors === 1 ? "has an error" : "have errors"}: see the rule editor` };
    if (rules.length !== c.rules.length) return { pass: false, detail: `your rule editor holds ${rules.length} rule${rules.length === 1 ? "" : "s"}` };
    const lines = c.rules.flatMap((p, i) => {
      const wrong = Object.keys(p).filter((k) => rules[i][k] !== p[k]);
      return wrong.length === 0 ? [] : [`your rule ${i + 1} (${isolate(rules[i].id)}): its ${listed(wrong.map((k) => RULE_FIELD[k] ?? k))} ${wrong.length === 1 ? "is" : "are"} not what is asked`];
    });
    return lines.length === 0 ? { pass: true, detail: "as asked" } : { pass: false, detail: "not yet as asked:", lines };
  },
  s3Rules: (c, { s3Rules }) => {
    const stored = s3Rules ?? [];
    if (c.s3Rules.length === 0) return stored.length === 0 ? { pass: true, detail: "nothing stored" } : { pass: false, detail: `a configuration of ${stored.length} rule${stored.length === 1 ? "" : "s"} is stored on the bucket` };
    if (stored.length === 0) return { pass: false, detail: "nothing is stored on the bucket yet" };
    if (stored.length !== c.s3Rules.length) return { pass: false, detail: `the stored configuration has ${stored.length} rule${stored.length === 1 ? "" : "s"}` };
    if (matchAnyOrder(stored, c.s3Rules)) return { pass: true, detail: "as asked" };
    // Each pattern is compared with the stored rule it differs least from.
    const lines = c.s3Rules.map((p) => {
      const closest = stored.map((r) => ({ r, misses: deepMisses(r, p) })).sort((a, b) => a.misses.length - b.misses.length)[0];
      return closest.misses.length === 0 ? "" : `rule ${isolate(closest.r.ID ?? "")}: its ${listed(closest.misses)} ${closest.misses.length === 1 ? "is" : "are"} not what is asked`;
    }).filter(Boolean);
    return { pass: false, detail: "not yet as asked:", lines };
  },
  did: (c, { taken }) => {
    const found = taken.filter((r) => matches(r, c.did));
    const latest = (records) => records.slice(-NAMED_STEPS).map(doneWords);
    const notYet = `you have not ${NOT_YET[c.did.op] ?? "done it"}`;
    if (c.count !== undefined && found.length !== c.count) {
      return { pass: false, detail: found.length === 0 ? `${notYet} yet` : `you ${listed(latest(found))}` };
    }
    if (c.count === undefined && found.length === 0) {
      const sameOp = c.did.op === undefined ? [] : taken.filter((r) => r.op === c.did.op);
      if (sameOp.length === 0) return { pass: false, detail: `${notYet} yet` };
      return { pass: false, detail: `not yet: you ${listed(latest(sameOp))}` };
    }
    if (found.length === 0) return { pass: true, detail: notYet };
    const last = found[found.length - 1];
    if (!c.expect) return { pass: true, detail: `you ${doneWords(last)}` };
    const pass = checkExpect(c.expect, last.outcome).every((r) => r.pass);
    return { pass, detail: `you ${doneWords(last)}, and it ${outcomeWords(last.outcome)}` };
  },
  ran: (c, { taken, describe }) => {
    const want = describe(c.ran);
    if (!want) return { pass: false, detail: "the exercise's own command line cannot be read: tell its author" };
    const lines = taken.filter((r) => r.op === "command");
    const asked = (r) => (r.outcome.command !== undefined ? r.outcome.command : describe(r.line));
    const found = lines.filter((r) => (c.at === undefined || r.at === c.at) && (c.ok === undefined || r.ok === c.ok) && sameCommand(asked(r), want));
    const latest = (records) => records.slice(-5).map((r) => `${isolate(r.line)} at ${fmt(r.at)}`).join("; ");
    if (c.count !== undefined && found.length !== c.count) return { pass: false, detail: found.length === 0 ? "you have not run it yet" : `you ran it ${found.length} time(s): ${latest(found)}` };
    if (found.length === 0 && c.count === 0) return { pass: true, detail: "you have not run it" };
    if (found.length === 0) return { pass: false, detail: lines.length === 0 ? "you have not run a command yet" : `not yet: you ran ${latest(lines)}` };
    const last = found[found.length - 1];
    if (!c.expect) return { pass: true, detail: `you ran ${latest([last])}` };
    const pass = checkExpect(c.expect, last.outcome).every((r) => r.pass);
    if (pass) return { pass, detail: `you ran ${latest([last])}` };
    return { pass, detail: `you ran ${latest([last])}, and ${last.outcome.ok ? "what it printed is not what the task asks for" : `it failed with ${last.outcome.code}`}` };
  },
};

// sameCommand: the command line the student ran (got, as term.describe
// read it when it ran) does what the exercise's (want) does: for aws, the
// same command and operation, and every option want gives, given with the
// same value (in any spelling, order or place, a structured value as the
// parameter the CLI sends, whether typed as shorthand, JSON or file://;
// the student may give more, global options such as --output are not
// compared, and the file a download writes is the student's to name); for
// another command, the same name and want's words first.
function sameCommand(got, want) {
  if (!got || got.name !== want.name) return false;
  if (want.aws) {
    if (!got.aws || got.aws.command !== want.aws.command || got.aws.operation !== want.aws.operation) return false;
    return Object.entries(want.aws.options).every(([k, v]) => k === "outfile" || JSON.stringify(got.aws.options[k]) === JSON.stringify(v));
  }
  return want.args.every((w, i) => got.args[i] === w);
}

const kindOfCheck = (c) => Object.keys(c).find((k) => Object.hasOwn(EVALUATE, k));

// evaluateTask runs every check of a task over the facts, in order. It
// returns { solved, checks: [{ label, pass, detail, lines? }] }.
export function evaluateTask(task, facts) {
  const checks = task.checks.map((c) => ({ label: c.label, ...EVALUATE[kindOfCheck(c)](c, facts, task) }));
  return { solved: checks.every((c) => c.pass), checks };
}

// panelsUsed names the panels an exercise is done in (as steps.js names
// them): the task, the clock and the stacks, and those where the steps of
// its solution and of its checks are taken, or whose contents it checks.
export function panelsUsed(task) {
  const used = new Set(["task", "clock", "stacks"]);
  const steps = [...task.solution.steps, ...task.checks.map((c) => c.did).filter((did) => did?.op !== undefined)];
  for (const step of steps) {
    const { panel } = kindOf(step.op);
    used.add(typeof panel === "function" ? panel(step) : panel);
  }
  if (task.checks.some((c) => c.rules)) used.add("lifecycle");
  if (task.checks.some((c) => c.s3Rules)) used.add("s3");
  if (task.checks.some((c) => c.ran)) used.add("terminal");
  return used;
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
// changed since), is dropped whole and the exercise starts afresh. After
// Start again there are attempts but no last result.
export function restoredProgress(raw, task) {
  if (!isObject(raw)) return null;
  const { taken, hintsShown, attempts, last, solutionShown } = raw;
  const counts = (n) => Number.isSafeInteger(n) && n >= 0;
  if (!Array.isArray(taken) || !taken.every(isTakenStep)) return null;
  if (!counts(hintsShown) || hintsShown > task.hints.length || !counts(attempts)) return null;
  if (typeof solutionShown !== "boolean" || (solutionShown && attempts === 0)) return null;
  if (last !== null && (attempts === 0 || !isResultOf(last, task))) return null;
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
// expectation's: { label, pass, detail, lines? }.
export const isCheckResult = (c) => isObject(c) && typeof c.label === "string" && typeof c.pass === "boolean" && typeof c.detail === "string" &&
  (c.lines === undefined || (Array.isArray(c.lines) && c.lines.every((l) => typeof l === "string")));

// canShowSolution: the solution is offered once the student has tried.
export const canShowSolution = (progress) => progress.attempts > 0;

// restartedProgress is the progress of an exercise started again: the
// steps taken and the last verdict go; the attempts, the hints and the
// solution already shown stay.
export function restartedProgress(progress) {
  return { ...progress, taken: [], last: null };
}

// nextHint is the progress with one more hint shown (no more than there are).
export function nextHint(progress, task) {
  return { ...progress, hintsShown: Math.min(progress.hintsShown + 1, task.hints.length) };
}
