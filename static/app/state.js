// The page's state, and every change to it. Other modules read `state`;
// only the functions below change it. Each change replaces `state` with a
// new frozen object (an importer's binding follows it, and cannot be
// assigned to), so that a write from anywhere else throws, and whoever
// reads the state sees all of one change or none of it.
//
// What changes it: the store being read (refresh.js), a step run
// (runner.js), and the learner's choices in the panels (panels/). The
// page's own part of it (steps, history, rules, scenario, exercise, the
// selected bucket) is kept across reloads by saved.js.
import { parseRules, tagKey } from "./model.js";
import { newProgress, restoredProgress, takenStep } from "./exercise.js";

// The most history entries the page keeps.
const HISTORY_LIMIT = 300;

// The most command lines the terminal's screen keeps.
const TERMINAL_LOG_LIMIT = 500;

const freeze = Object.freeze;

export let state = freeze({
  // The store (the JavaScript API), its IndexedDB database ("" for none),
  // its storage ("indexeddb" or "memory") and its clock's origin.
  store: null,
  dbName: "",
  storage: "",
  origin: 0,
  // A job is running (jobs.js).
  busy: false,
  // What the store holds, as the views show it: the clock, the buckets,
  // the selected bucket's versioning, versions, uploads in progress and
  // the tags of its data versions (by model.tagKey).
  now: 0,
  buckets: freeze([]),
  bucket: "",
  versioning: "",
  versions: freeze([]),
  tags: new Map(),
  uploads: freeze([]),
  // The chapter's rule editor: its rows of text, the rules they make and
  // the problems of each row. rowsVersion counts the times the rows were
  // set from outside the editor (a step, a reset, a reload), so that its
  // view is rebuilt only then and never takes what a learner is typing.
  rows: freeze([]),
  rules: freeze([]),
  ruleErrors: freeze([]),
  rowsVersion: 0,
  // The bucket's S3 lifecycle configuration: the stored one (JSON shape,
  // or null) and the bucket it was read for (null: read it again), the
  // last error of a step that stores or runs it, and the editors' drafts
  // in each mode. The drafts start again from the stored configuration
  // whenever it changes (sig), and version counts those starts, so that a
  // render rebuilds the editors only then.
  s3: freeze({ config: null, readFor: null, error: null, mode: "form", sig: null, version: 0, form: freeze([]), json: "", xml: "" }),
  // What each version faces next under the chapter's rules (null while
  // the editor's rules are not valid) and under the S3 configuration.
  compare: null,
  // The actions the stacks mark: { actions, now, bucket, source, live }.
  // A live preview is what the next tick would do with the editor's rules
  // at the clock's now, read again whenever either changes; a Preview
  // step's (its own rules, or S3's run) stays until the next change.
  preview: null,
  // What the last tick did ({ actions, diff, now }), and the last S3
  // runs ({ daily, runs, bucket, diff, now }): a run now, or the daily
  // runs a clock move passed.
  lastTick: null,
  lastS3: null,
  // The log of steps (each with its HTTP exchanges and checks), the
  // outcome of the last step that shows one, with the panel it was taken
  // in (from: "" for a scenario's step), which shows it, and the steps
  // themselves, for share links.
  history: freeze([]),
  result: null,
  steps: freeze([]),
  // The built-in scenarios, the one loaded ({ name, title, steps, titles,
  // results }: the checks of the steps run so far), and a scenario the
  // course page asked for before the store started.
  scenarios: freeze([]),
  scenario: null,
  requested: "",
  // The loaded scenario's task and the student's progress (exercise.js):
  // { id, name, title, bucket, task, progress }, where id is the count of
  // exercises started then, so that the task panel builds its answer field
  // once for each.
  exercise: null,
  exercisesStarted: 0,
  // The panels (and parts of panels) an exercise folds away that the
  // learner opened again, by name (panels/folds.js).
  unfolded: new Set(),
  // The versions whose "size and ETag" are shown, by key and version ID.
  openDetails: new Set(),
  // The terminal (store.terminal(): its files, history and undo are its
  // own), what its screen shows since the last clear ({ line, stdout,
  // stderr, status } for each command line), and how many lines it ran.
  terminal: null,
  terminalLog: freeze([]),
  terminalLines: 0,
});

// change replaces the state with one whose fields are those given, the
// rest as they were.
function change(fields) {
  state = freeze({ ...state, ...fields });
}

function changeS3(fields) {
  change({ s3: freeze({ ...state.s3, ...fields }) });
}

// ---- the store ----

// storeOpened records the store the page works on.
export function storeOpened(store, dbName) {
  change({ store, dbName, storage: store.storage, origin: store.origin() });
}

// terminalOpened records the page's terminal.
export function terminalOpened(terminal) {
  change({ terminal });
}

export function setBusy(busy) {
  change({ busy });
}

// jobFailed shows an error no step caught (a bug, a store that failed).
export function jobFailed(err) {
  change({ result: freeze({ ok: false, code: err.code || "InternalError", message: err.message }) });
}

// ---- what the store holds (read by refresh.js) ----

// bucketsRead takes the buckets and the clock: the selected bucket stays
// while it exists; otherwise the first bucket is selected, or none.
export function bucketsRead(buckets, now) {
  const bucket = buckets.some((b) => b.name === state.bucket) ? state.bucket : buckets[0]?.name || "";
  change({ buckets: freeze(buckets), now, bucket });
}

// bucketRead takes what the views show of the selected bucket, and the
// tags of its data versions, as the version list carries them.
export function bucketRead({ versioning, versions, uploads }) {
  const tags = new Map();
  for (const v of versions) {
    if (!v.isDeleteMarker) tags.set(tagKey(state.bucket, v.key, v), v.tags || []);
  }
  change({ versioning, versions: freeze(versions), uploads: freeze(uploads), tags });
}

// noBucketRead: there is no bucket to show.
export function noBucketRead() {
  change({ preview: null, versioning: "", versions: freeze([]), uploads: freeze([]), tags: new Map(), compare: null });
}

export function schedulesRead(compare) {
  change({ compare: freeze(compare) });
}

// livePreviewRead takes what the next tick would do now with the editor's
// rules (or null).
export function livePreviewRead(actions) {
  change({ preview: actions && freeze({ actions, now: state.now, bucket: state.bucket, source: "chapter", live: true }) });
}

// s3ConfigRead takes the stored S3 configuration of bucket (or null).
export function s3ConfigRead(config, bucket) {
  changeS3({ config, readFor: bucket });
}

// s3DraftsStarted starts the editors' drafts again from the configuration
// whose signature is sig.
export function s3DraftsStarted(sig, { form, json, xml }) {
  changeS3({ sig, version: state.s3.version + 1, form: freeze(form), json, xml });
}

// s3ConfigStale: the stored configuration may have changed (another tab);
// the next read reads it again.
export function s3ConfigStale() {
  changeS3({ readFor: null });
}

// ---- the learner's choices ----

// selectBucket selects a bucket from the menu: what a preview marked is
// about another bucket.
export function selectBucket(name) {
  change({ bucket: name, preview: null });
}

// marksCleared: what the stacks marked may be out of date (another tab
// changed the store).
export function marksCleared() {
  change({ preview: null });
}

export function detailsToggled(id, open) {
  const openDetails = new Set(state.openDetails);
  if (open) openDetails.add(id);
  else openDetails.delete(id);
  change({ openDetails });
}

// ---- the chapter's rule editor ----

// setRuleRows sets the editor's rows from outside it (a step, a reset, a
// reload, a move of a rule): the editor is drawn again.
export function setRuleRows(rows) {
  change({ ...parsed(rows), rowsVersion: state.rowsVersion + 1 });
}

// ruleRowsTyped takes the rows as the learner is typing them.
export function ruleRowsTyped(rows) {
  change(parsed(rows));
}

function parsed(rows) {
  const { rules, errors } = parseRules(rows);
  return { rows: freeze(rows), rules: freeze(rules), ruleErrors: freeze(errors) };
}

// rulesEdited: the learner changed the rules. A live preview follows them;
// a preview of other rules, or of S3's run, is not about these rules and
// goes, as does any preview while they are not valid.
export function rulesEdited() {
  if (!state.preview?.live || state.ruleErrors.length > 0) change({ preview: null });
}

// ---- the S3 configuration editor ----

export function s3ModeChosen(mode) {
  changeS3({ mode });
}

// s3FormTyped takes the form's rows as the draft.
export function s3FormTyped(rows) {
  changeS3({ form: freeze(rows) });
}

export function s3JsonTyped(text) {
  changeS3({ json: text });
}

export function s3XmlTyped(text) {
  changeS3({ xml: text });
}

// s3Reverted: the editors start again from the stored configuration, read
// again.
export function s3Reverted() {
  changeS3({ sig: null, readFor: null });
}

// ---- steps ----

// stepRan records a step that ran (its kind in steps.js, its outcome, its
// history entry and the panel it was taken in) and what its kind does to
// the page: a step that changes something leaves no preview marks; a step
// selects its bucket; a preview marks what it found; an S3 configuration
// step shows its error and has the configuration read again; the panel
// the step was taken in shows its outcome, and the terminal's screen a
// command line's; and, once an exercise's stage is set, the student's
// progress records the step.
export function stepRan(step, kind, outcome, entry, from = "") {
  const fields = {};
  if (kind.mutates) fields.preview = null;
  if (step.bucket && !kind.removesBucket) fields.bucket = step.bucket;
  if (outcome.ok && kind.marks) fields.preview = freeze({ actions: outcome.actions, now: state.store.now(), bucket: step.bucket, source: kind.marks });
  if (kind.s3) fields.s3 = freeze({ ...state.s3, error: outcome.ok ? null : freeze({ code: outcome.code, message: outcome.message }), readFor: null });
  if (kind.prints) Object.assign(fields, printed(step, outcome));
  else if (kind.showsResult || !outcome.ok) fields.result = freeze({ ...outcome, title: entry.title, summary: entry.summary || "", from });
  fields.history = freeze([...state.history, freeze(entry)].slice(-HISTORY_LIMIT));
  fields.steps = freeze([...state.steps, step]);
  if (isStaged()) fields.exercise = withProgress({ ...state.exercise.progress, taken: [...state.exercise.progress.taken, takenStep(step, outcome, entry.now)] });
  change(fields);
}

// printed is what a command line does to the page: its output goes on the
// terminal's screen (or clears it), the page selects the bucket it names,
// and reads the stored S3 configuration again, which it may have changed.
// A line the terminal could not run at all shows why.
function printed(step, outcome) {
  const shown = freeze({
    line: step.line,
    stdout: outcome.stdout ?? "",
    stderr: outcome.stderr ?? `${outcome.message}\n`,
    status: outcome.status ?? 1,
  });
  const fields = {
    terminalLog: freeze(outcome.clear ? [] : [...state.terminalLog, shown].slice(-TERMINAL_LOG_LIMIT)),
    terminalLines: state.terminalLines + 1,
    s3: freeze({ ...state.s3, readFor: null }),
  };
  if (outcome.bucket) fields.bucket = outcome.bucket;
  return fields;
}

// lifecycleRan takes what a step's kind shows of the lifecycle run it was
// or caused (its lastRun in steps.js): the chapter's tick, or S3's runs.
export function lifecycleRan({ tick, s3 }) {
  if (tick) change({ lastTick: freeze(tick) });
  if (s3) change({ lastS3: freeze(s3) });
}

// ---- scenarios and exercises ----

export function scenariosListed(scenarios) {
  change({ scenarios: freeze(scenarios) });
}

// scenarioRequested records the scenario the course page asked for.
export function scenarioRequested(name) {
  change({ requested: name });
}

// scenarioStarted loads scenario sc, with the results of the steps run so
// far (none for a scenario just loaded).
export function scenarioStarted(sc, results = []) {
  change({ scenario: freeze({ name: sc.name, title: sc.title, steps: sc.steps, titles: sc.titles, results: freeze(results) }) });
}

// scenarioStepChecked records the checks of the scenario's next step.
export function scenarioStepChecked(checks) {
  const sc = state.scenario;
  change({ scenario: freeze({ ...sc, results: freeze([...sc.results, freeze({ checks })]) }) });
}

// exerciseStarted starts the task of scenario sc (or none), with the
// progress saved for it before a reload, if any (see restoredProgress in
// exercise.js), and the folded panels the learner opened again (kept when
// the same exercise starts again).
export function exerciseStarted(sc, saved = null, unfolded = new Set()) {
  const id = state.exercisesStarted + 1;
  const progress = (sc?.task && saved !== null && restoredProgress(saved, sc.task)) || newProgress();
  change({
    exercisesStarted: id,
    exercise: sc?.task ? freeze({ id, name: sc.name, title: sc.title, bucket: sc.bucket, task: sc.task, progress: freeze(progress) }) : null,
    unfolded,
  });
}

// panelUnfolded: the learner opened again a panel the exercise folded.
export function panelUnfolded(name) {
  change({ unfolded: new Set([...state.unfolded, name]) });
}

// exerciseProgressed takes the student's new progress on the exercise.
export function exerciseProgressed(progress) {
  change({ exercise: withProgress(progress) });
}

function withProgress(progress) {
  return freeze({ ...state.exercise, progress: freeze(progress) });
}

// isStaged: every step of the exercise's scenario has run, so the task is
// the student's.
export function isStaged() {
  const ex = state.exercise;
  const sc = state.scenario;
  return Boolean(ex && sc && sc.name === ex.name && sc.results.length === sc.steps.length);
}

// ---- the whole page ----

// restored brings back what saved.js kept before a reload.
export function restored({ steps, history, bucket }) {
  change({ steps: freeze(steps), history: freeze(history), bucket });
}

// sharedBucketSelected selects the bucket a share link names, once its
// steps ran, when the store has it.
export function sharedBucketSelected(name) {
  if (state.buckets.some((b) => b.name === name)) change({ bucket: name });
}

// emptied: the store was emptied (Reset, or a scenario about to load), and
// the page's own state goes with it.
export function emptied() {
  change({
    steps: freeze([]), history: freeze([]), preview: null, lastTick: null, lastS3: null, result: null, scenario: null, exercise: null, bucket: "", unfolded: new Set(),
    s3: freeze({ ...state.s3, error: null, readFor: null }), openDetails: new Set(), terminalLog: freeze([]),
  });
  setRuleRows([]);
}
