// Building an exercise in the page: what the author has built so far (a
// draft) and how it becomes a scenario file. The author sets the stage with
// the page's own controls, then records the solution; every step the page
// runs meanwhile is recorded (recordSteps). The checks are proposed from
// what the solution changed (proposeChecks), the author keeps some and
// words them, and scenarioOf writes the scenario, in the format of
// docs/SCENARIOS.md. Nothing here reads the page or the store:
// panels/builder.js does, and plays the draft on a store of its own.
import { checkSteps } from "./scenarios.js";
import { readNumber } from "./exercise.js";
import { isolate } from "./model.js";
import { encodeInline } from "./sources.js";

// The version of the draft's shape kept in localStorage.
const DRAFT_VERSION = 2;

// The phases of a draft, in order: the author chooses where to start,
// sets the stage, records the solution, chooses the checks; and may try
// the exercise as a student meanwhile (trying names the phase to go back
// to).
export const PHASES = ["start", "stage", "solution", "checks"];

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isText = (v) => typeof v === "string";
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// newDraft is a draft about to start: nothing recorded, nothing written.
export function newDraft() {
  return {
    v: DRAFT_VERSION,
    phase: "start",
    trying: "",
    stage: [],
    solution: [],
    // The chapter's rules the recorded steps leave in the rule editor: a
    // rules step is recorded whenever the editor holds others.
    recorded: [],
    bucket: "",
    title: "",
    description: "",
    prompt: "",
    hints: "",
    asks: false,
    question: "",
    choices: "",
    answer: "",
    reasoning: "",
    proposals: [],
    fileURL: "",
    courseOrigin: "",
  };
}

// started is the draft set to record the stage from the steps given (none
// for an empty store; the page's recorded steps for the current one) with
// the rule editor as they leave it.
export function started(draft, steps, editorRules) {
  return { ...draft, phase: "stage", stage: [...steps], solution: [], recorded: editorRules, proposals: [] };
}

// recordSteps records steps the page ran, in the phase being recorded:
// first the rule editor's rules as a rules step when the author changed
// them since (they are typed, not run), then the steps.
export function recordSteps(draft, steps, editorRules) {
  const part = draft.phase === "solution" ? "solution" : "stage";
  const typed = !same(draft.recorded, editorRules) && steps[0]?.op !== "rules" ? [{ op: "rules", rules: editorRules }] : [];
  return { ...draft, [part]: [...draft[part], ...typed, ...steps], recorded: editorRules };
}

// closed is the draft at the end of the phase being recorded: the rule
// editor's rules recorded when the author changed them since the last step.
export function closed(draft, editorRules) {
  if (same(draft.recorded, editorRules)) return draft;
  const part = draft.phase === "solution" ? "solution" : "stage";
  return { ...draft, [part]: [...draft[part], { op: "rules", rules: editorRules }], recorded: editorRules };
}

// ---- the checks proposed ----

// stacksOf groups a version list by key: key → [{ versionId,
// isDeleteMarker, isLatest }], newest first.
function stacksOf(versions) {
  const stacks = new Map();
  for (const v of versions) {
    if (!stacks.has(v.key)) stacks.set(v.key, []);
    stacks.get(v.key).push({ versionId: v.versionId, isDeleteMarker: v.isDeleteMarker, isLatest: v.isLatest });
  }
  return stacks;
}

// entryText names a version pattern for the author.
function entryText(p) {
  const kind = p.isDeleteMarker ? "delete marker" : "data version";
  return `${kind} ${p.versionId === undefined ? "(any version ID)" : isolate(p.versionId)}, ${p.isLatest ? "current" : "noncurrent"}`;
}

// versionsCheck proposes the version list the solution leaves, when it
// changed a stack. A versions check reads the whole bucket, so it names
// every key; a version ID is given where it does not depend on what the
// student does: a version already there on the stage, or the ID "null"
// (unversioned and suspended buckets), but not a version the solution
// made, whose ID counts the versions the student made before it.
function versionsCheck(before, after) {
  const was = stacksOf(before);
  const now = stacksOf(after);
  const keys = [...new Set([...was.keys(), ...now.keys()])];
  const changed = keys.filter((k) => !same(was.get(k) ?? [], now.get(k) ?? []));
  if (changed.length === 0) return null;
  const staged = new Set(before.map((v) => `${v.key}\u0000${v.versionId}`));
  const patterns = after.map((v) => {
    const p = { key: v.key };
    if (v.versionId === "null" || staged.has(`${v.key}\u0000${v.versionId}`)) p.versionId = v.versionId;
    p.isDeleteMarker = v.isDeleteMarker;
    p.isLatest = v.isLatest;
    return p;
  });
  const what = patterns.length === 0 ? ["no version left in the bucket"] : patterns.map((p) => `${isolate(p.key)}: ${entryText(p)}`);
  return {
    check: { label: keys.length === 1 ? `The versions of ${keys[0]}` : "The versions of every key", versions: patterns },
    what: [`changed by the solution: ${changed.map(isolate).join(", ")}`, ...what],
  };
}

// rulesCheck proposes the chapter's rules the editor ends with, when the
// solution changed them: their prefixes and thresholds, whatever their IDs.
function rulesCheck(before, after) {
  if (same(before, after)) return null;
  const patterns = after.map(({ id, ...rest }) => rest);
  return {
    check: { label: "The rules in your rule editor", rules: patterns },
    what: patterns.length === 0 ? ["no rule in the editor"] : patterns.map((p) => JSON.stringify(p)),
  };
}

// s3RulesCheck proposes the S3 rules stored on the bucket when the
// solution changed them, whatever their IDs.
function s3RulesCheck(before, after) {
  if (same(before, after)) return null;
  const patterns = after.map(({ ID, ...rest }) => rest);
  return {
    check: { label: "The S3 lifecycle configuration stored on the bucket", s3Rules: patterns },
    what: patterns.length === 0 ? ["no configuration stored"] : patterns.map((p) => JSON.stringify(p)),
  };
}

// answerCheck proposes the solution's answer: the choice, a number of
// seconds, or the text.
function answerCheck(task) {
  if (!task.asks || task.answer.trim() === "") return null;
  if (choicesOf(task.choices).length > 0) {
    const n = Number(task.answer);
    return { check: { label: "Your choice", choice: n }, what: [`choice ${isolate(task.answer.trim())}`] };
  }
  const seconds = readNumber(task.answer);
  const answer = seconds ?? task.answer.trim();
  return { check: { label: "Your answer", answer }, what: [`the answer ${seconds === null ? isolate(JSON.stringify(answer)) : `${answer} (seconds)`}`] };
}

// The steps the solution takes that change nothing a check reads, but
// that a did check can ask for, in the student's words.
const DONE = { tick: "tick", preview: "preview", get: "GET", getObjectTagging: "tag request", previewLifecycle: "simulated S3 run", runLifecycle: "S3 run" };

// didChecks proposes one did check per such step of the solution (taken:
// the records play.js keeps), and one ran check per command line.
function didChecks(taken) {
  return taken.flatMap((r) => {
    if (r.op === "command") return [{ check: { label: "Your command line", ran: r.line, at: r.at }, what: [`ran ${isolate(r.line)} at ${r.at}`] }];
    if (!DONE[r.op]) return [];
    const did = { op: r.op, at: r.at };
    for (const k of ["key", "versionId"]) if (r[k] !== undefined) did[k] = r[k];
    return [{ check: { label: `Your ${DONE[r.op]}`, did }, what: [`${r.op}${r.key === undefined ? "" : ` ${isolate(r.key)}`} at ${r.at}`] }];
  });
}

// proposeChecks proposes the checks of a task from what its solution
// changed: before and after are the facts (play.js factsOf) on the stage
// and after the solution, taken the solution's steps as play.js recorded
// them, task the draft's answer fields. Each proposal is { check, what,
// keep }: what says what it checks, for the author; the checks of what
// changed are kept, the steps taken only when nothing changed.
export function proposeChecks(before, after, taken, task) {
  const changes = [versionsCheck(before.versions, after.versions), rulesCheck(before.rules, after.rules), s3RulesCheck(before.s3Rules, after.s3Rules), answerCheck(task)].filter(Boolean);
  const steps = didChecks(taken);
  return [...changes.map((p) => ({ ...p, keep: true })), ...steps.map((p) => ({ ...p, keep: changes.length === 0 }))]
    .map((p) => ({ ...p, hint: "" }));
}

// ---- the scenario file ----

// choicesOf reads the choices, one per line.
export const choicesOf = (text) => text.split("\n").map((s) => s.trim()).filter(Boolean);

const hintsOf = (text) => text.split("\n").map((s) => s.trim()).filter(Boolean);

// scenarioOf writes the draft as a scenario (parsed JSON, for
// parseScenario and the file): the stage's steps, and a task of the
// prompt, the answer asked for, the checks kept, the hints and the
// solution. A step's bucket is left out where it is the scenario's,
// which parseScenario fills in.
export function scenarioOf(draft) {
  const local = (step) => {
    if (!draft.bucket || step.bucket !== draft.bucket) return step;
    const { bucket, ...rest } = step;
    return rest;
  };
  const task = { prompt: draft.prompt.trim() };
  const choices = choicesOf(draft.choices);
  if (draft.asks) task.answer = choices.length > 0 ? { label: draft.question.trim(), choices } : { label: draft.question.trim() };
  task.checks = draft.proposals.filter((p) => p.keep).map((p) => {
    const check = { ...p.check, label: p.label ?? p.check.label };
    if (p.hint.trim() !== "") check.hint = p.hint.trim();
    return check;
  });
  const hints = hintsOf(draft.hints);
  if (hints.length > 0) task.hints = hints;
  task.solution = { text: draft.reasoning.trim() };
  if (draft.asks) task.solution.answer = draft.answer.trim();
  task.solution.steps = draft.solution.map(local);
  const sc = { title: draft.title.trim() };
  if (draft.description.trim() !== "") sc.description = draft.description.trim();
  if (draft.bucket) sc.bucket = draft.bucket;
  sc.steps = draft.stage.map(local);
  sc.task = task;
  return sc;
}

// formatScenario writes a scenario as its file: the scenario, its task
// and its solution field by field, and every list one item a line, as the
// built-in scenarios are written.
export function formatScenario(sc) {
  const EXPANDED = ["", "task", "task.solution"];
  const line = (v) => {
    if (Array.isArray(v)) return `[${v.map(line).join(", ")}]`;
    if (isObject(v)) return `{${Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${JSON.stringify(k)}: ${line(x)}`).join(", ")}}`;
    return JSON.stringify(v);
  };
  const write = (value, path, indent) => {
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      return `[\n${value.map((v) => inner + line(v)).join(",\n")}\n${indent}]`;
    }
    if (isObject(value) && EXPANDED.includes(path)) {
      const fields = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${write(v, path ? `${path}.${k}` : k, inner)}`);
      return `{\n${fields.join(",\n")}\n${indent}}`;
    }
    return line(value);
  };
  return `${write(sc, "", "")}\n`;
}

// missing says, in plain words, what the draft lacks before it can be
// proven, or "": what parseScenario would refuse, said for the builder's
// fields.
export function missing(draft) {
  const lacks = [];
  if (draft.title.trim() === "") lacks.push("a title");
  if (draft.prompt.trim() === "") lacks.push("a prompt (what the student is asked to do)");
  if (draft.asks && draft.question.trim() === "") lacks.push("the question the student answers");
  if (draft.asks && draft.answer.trim() === "") lacks.push("the solution's answer");
  if (draft.reasoning.trim() === "") lacks.push("the solution explained (its reasoning, shown to the student who asks)");
  if (!draft.proposals.some((p) => p.keep)) {
    lacks.push(draft.proposals.length === 0
      ? "a check: the solution changed nothing a check can look at (no version, rule or stored configuration, and no answer), so the task would be solved from the start or never. Record a solution that changes something, or ask for an answer"
      : "a check: keep at least one");
  }
  if (draft.proposals.some((p) => p.keep && (p.label ?? p.check.label).trim() === "")) lacks.push("a label for every check kept");
  return lacks.length === 0 ? "" : `The exercise needs ${lacks.join("; ")}.`;
}

// fileName is the scenario's file name for its title: letters, digits and
// "-", as the built-in ones are named.
export function fileName(title) {
  const slug = title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60).replace(/-+$/, "");
  return slug || "exercise";
}

// htmlAttr escapes text for an HTML attribute's value in double quotes.
const htmlAttr = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

// embedSnippet is the one line a course page holds to embed the exercise:
// the playground at playground (its URL) loading the scenario file served
// at fileURL (?scenario-url=), its store kept under frame, and talking to
// the course page at origin (none: a page of the playground's own origin).
export function embedSnippet(playground, fileURL, title, frame, origin = "") {
  const src = new URL(playground);
  src.search = "";
  src.hash = "";
  src.searchParams.set("embed", "1");
  src.searchParams.set("scenario-url", fileURL);
  src.searchParams.set("frame", frame);
  if (origin !== "") src.searchParams.set("origin", origin);
  return `<iframe title="${htmlAttr(`MiniS3: ${title}`)}" width="100%" height="640" src="${htmlAttr(src.href)}"></iframe>`;
}

// inlineLink is the playground at playground with the scenario raw carried
// in the link's fragment (#scenario=, sources.js), for an author with no
// server of their own.
export function inlineLink(playground, raw) {
  const url = new URL(playground);
  url.search = "";
  url.hash = encodeInline(raw);
  return url.href;
}

// ---- the draft kept across reloads ----

const TEXTS = ["bucket", "title", "description", "prompt", "hints", "question", "choices", "answer", "reasoning", "fileURL", "courseOrigin"];

// restoredDraft is the draft saved before a reload (parsed JSON from
// localStorage), or null when it is not one: its steps are checked as a
// scenario's are.
export function restoredDraft(raw) {
  if (!isObject(raw) || raw.v !== DRAFT_VERSION || !PHASES.includes(raw.phase)) return null;
  if (raw.trying !== "" && !PHASES.includes(raw.trying)) return null;
  if (typeof raw.asks !== "boolean" || !TEXTS.every((k) => isText(raw[k]))) return null;
  const stage = checkSteps(raw.stage, "");
  const solution = checkSteps(raw.solution, "");
  if (stage.error || solution.error || !checkSteps([{ op: "rules", rules: raw.recorded }], "").steps) return null;
  const proposal = (p) => isObject(p) && isObject(p.check) && typeof p.keep === "boolean" && isText(p.hint) &&
    (p.label === undefined || isText(p.label)) && Array.isArray(p.what) && p.what.every(isText);
  if (!Array.isArray(raw.proposals) || !raw.proposals.every(proposal)) return null;
  return { ...newDraft(), ...raw, stage: stage.steps, solution: solution.steps };
}
