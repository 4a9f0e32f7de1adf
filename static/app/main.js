// The playground's wiring: load the store, turn UI events into steps, run
// each step as its kind in steps.js says (S3 requests through store.fetch,
// or the rule editor), then refresh the view from listVersions.
import { $ } from "./dom.js";
import * as model from "./model.js";
import { Client } from "./s3.js";
import { kindOf } from "./steps.js";
import * as render from "./render.js";
import { encodeShare, decodeShare } from "./share.js";
import { loadScenario, loadScenarios } from "./scenarios.js";
import { parseTime, roundClock } from "./dates.js";
import { PUT_CLASSES, EXAMPLE, EXAMPLE_XML, configToRows, rowsToConfig, emptyRule, emptyTransition, emptyNoncurrentTransition, parseTags } from "./s3config.js";
import { showMode, renderS3Rows, readS3Rows, renderS3Errors } from "./s3editor.js";
import { wireTask, startTask, renderTask } from "./task.js";
import { isCheckResult } from "./exercise.js";
import { connectHost } from "./host.js";
import { keepOffline } from "./offline.js";
import {
  state, storeOpened, setBusy, jobFailed, bucketsRead, bucketRead, noBucketRead, schedulesRead, livePreviewRead, s3ConfigRead, s3DraftsStarted,
  s3ConfigStale, selectBucket, marksCleared, detailsToggled, setRuleRows, ruleRowsTyped, rulesEdited, s3ModeChosen, s3FormTyped, s3JsonTyped,
  s3XmlTyped, s3Reverted, stepRan, lifecycleRan, scenariosListed, scenarioStarted, scenarioStepChecked, restored, sharedBucketSelected, emptied,
} from "./state.js";

const params = new URLSearchParams(location.search);
const embed = params.get("embed") === "1";
const hidden = new Set((params.get("hide") || "").split(",").map((s) => s.trim()).filter(Boolean));
const scenarioParam = params.get("scenario") || "";
const frame = params.get("frame") || "";
const MIN_PART_SIZE = 5;

const PANELS = {
  clock: "clock-panel", bucket: "bucket-panel", actions: "actions-panel", stacks: "stacks-panel",
  compare: "compare-panel", timeline: "timeline-panel", lifecycle: "lifecycle-panel", s3: "s3-panel",
  scenarios: "scenarios-panel", history: "history-panel", http: "http-panel",
};

function setStatus(text) {
  $("status").textContent = text;
}

// All work runs one job at a time, in order.
let queue = Promise.resolve();
function enqueue(job) {
  queue = queue.then(async () => {
    setBusy(true);
    document.body.classList.add("busy");
    try {
      await job();
    } catch (err) {
      jobFailed(err);
      render.renderResult(state);
    } finally {
      setBusy(false);
      document.body.classList.remove("busy");
      render.renderScenario(state);
      renderTask();
    }
  });
  return queue;
}

// ---- refresh and render ----

async function refresh() {
  await readStore();
  renderAll();
}

// readStore reads what the views show (buckets, clock, the selected
// bucket's versioning and versions) into state, and changes no view.
async function readStore() {
  const store = state.store;
  // listBuckets first: it picks up another tab's writes, the clock included.
  bucketsRead(await store.listBuckets(), store.now());
  const bucket = state.bucket;
  if (bucket) {
    const versioning = await store.getBucketVersioning(bucket);
    const versions = await store.listVersions(bucket, {});
    bucketRead({ versioning, versions, uploads: await store.listMultipartUploads(bucket, {}) });
    await readConfiguration();
    schedulesRead(await readSchedules());
    if (!state.preview || state.preview.live) livePreviewRead(await livePreview());
  } else {
    noBucketRead();
    await readConfiguration();
  }
}

// readConfiguration reads the selected bucket's stored S3 lifecycle
// configuration, unless it has read it since the last step that may have
// changed it (an s3 step, another tab's), and starts the editors' drafts
// again from it when it is not the one they started from.
async function readConfiguration() {
  const bucket = state.bucket;
  if (state.s3.readFor !== bucket) {
    let config = null;
    if (bucket) {
      try {
        config = await state.store.getBucketLifecycle(bucket);
      } catch (err) {
        if (err.code !== "NoSuchLifecycleConfiguration") throw err;
      }
    }
    s3ConfigRead(config, bucket);
  }
  const config = state.s3.config;
  const sig = JSON.stringify([bucket, config]);
  if (sig === state.s3.sig) return;
  // The XML is the store's own answer to GET ?lifecycle, read outside the
  // history (a Client whose exchanges nobody shows).
  const xml = config ? render.prettyXML((await new Client(state.store).getBucketLifecycle(bucket)).xml) : EXAMPLE_XML;
  s3DraftsStarted(sig, { form: configToRows(config ?? EXAMPLE), json: JSON.stringify(config ?? EXAMPLE, null, 2), xml });
}

// readSchedules reads what each version of the selected bucket faces next
// under the editor's rules and under the stored S3 configuration.
async function readSchedules() {
  const store = state.store;
  return {
    chapter: state.ruleErrors.length > 0 ? null : await store.expirationSchedule(state.bucket, state.rules),
    s3: await store.lifecycleSchedule(state.bucket),
  };
}

// livePreview is what the next tick would do now with the editor's rules
// (the pure phase, store.evaluate), or null while there are none or they
// are not valid.
async function livePreview() {
  if (state.rules.length === 0 || state.ruleErrors.length > 0) return null;
  return state.store.evaluate(state.bucket, state.rules);
}

// Performance marks and measures (see BENCHMARKS.md): "minis3:render" is one
// renderAll, "minis3:preview" and "minis3:tick" are those steps with the
// refresh after them, and "minis3:load" runs from navigation start to
// "minis3:interactive" (the first render, with every control wired).
function renderAll() {
  performance.mark("minis3:render-start");
  render.renderClock(state);
  render.renderBuckets(state);
  render.renderStacks(state);
  render.renderUploads(state);
  if (shown.compare) render.renderCompare(state);
  if (shown.timeline) render.renderTimeline(state);
  render.renderLifecycle(state);
  renderS3Editor();
  render.renderS3Status(state);
  render.renderS3Out(state);
  render.renderHistory(state);
  render.renderResult(state);
  render.renderScenario(state);
  $("preview-btn").disabled = state.ruleErrors.length > 0 || !state.bucket;
  $("tick-btn").disabled = state.ruleErrors.length > 0 || !state.bucket;
  $("rules-error").hidden = state.ruleErrors.length === 0;
  $("rules-error").textContent = state.ruleErrors.length === 0 ? "" : "Fix the rules above before a preview or tick.";
  performance.measure("minis3:render", "minis3:render-start");
}

// renderS3Editor shows the S3 configuration editor's mode, and rebuilds
// its views only when the drafts started again (so a render never takes
// what a learner is typing).
let editorVersion = -1;

function renderS3Editor() {
  const s3 = state.s3;
  showMode(s3.mode);
  if (editorVersion === s3.version) return;
  editorVersion = s3.version;
  renderS3Rows(s3.form);
  $("s3-json").value = s3.json;
  $("s3-xml").value = s3.xml;
}

// The time axis and the side-by-side view are drawn once their panel comes
// near the viewport, and from then on by every render. Below the stacks of
// a large bucket they start far out of view, and drawing the time axis's
// row per version was about a third of the first render of 1,000
// versions; "minis3:timeline" measures that first drawing. A panel hidden
// with ?hide= is never drawn. Until then the placeholder's "Draw it now"
// button draws it for whoever reaches it without scrolling (a screen
// reader's cursor); focus that was on the button moves to the view it drew.
const shown = { timeline: false, compare: false };

function drawWhenInView(name, panel, box, draw) {
  const show = () => {
    if (shown[name] || $(panel).hidden) return;
    watch.disconnect();
    removeEventListener("beforeprint", show);
    shown[name] = true;
    const hadFocus = $(box).contains(document.activeElement);
    draw();
    if (hadFocus) $(box).focus();
  };
  $(`${name}-draw`).addEventListener("click", show);
  const watch = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) show();
  }, { rootMargin: "50% 0px" });
  watch.observe($(panel));
  // A printout has every panel in it.
  addEventListener("beforeprint", show);
}

function watchLazyViews() {
  drawWhenInView("timeline", "timeline-panel", "timeline", () => {
    performance.mark("minis3:timeline-start");
    render.renderTimeline(state);
    performance.measure("minis3:timeline", "minis3:timeline-start");
  });
  drawWhenInView("compare", "compare-panel", "compare", () => render.renderCompare(state));
}

// ---- steps ----

// exec runs one step (its kind in steps.js), logs it with its HTTP
// exchanges and checks, records it for share links, and refreshes the view.
// It returns the checks; keepChecks, when given, gets them before the view
// and the page's saved state are (a scenario keeps its steps' checks).
async function exec(step, keepChecks) {
  const started = performance.now();
  const store = state.store;
  const kind = kindOf(step.op);
  const client = new Client(store);
  const entry = { title: kind.describe(step), now: state.now, ok: true, exchanges: client.exchanges, checks: [] };
  const page = { client, store, editorRules: state.rules, setEditorRules: (rules) => setRows(model.rulesToRows(rules)) };
  let outcome;
  const diffBucket = kind.diffs?.(step, { bucket: state.bucket, s3Config: state.s3.config }) ?? "";
  let before = null;
  try {
    if (diffBucket) before = await store.listVersions(diffBucket, {});
    outcome = { ok: true, ...(await kind.run(step, page)) };
  } catch (err) {
    outcome = { ok: false, code: err.code || "InternalError", message: err.message };
  }
  entry.ok = outcome.ok;
  if (outcome.ok) entry.summary = kind.summarize(step, outcome);
  else Object.assign(entry, { code: outcome.code, message: outcome.message });
  entry.checks = model.checkExpect(step.expect, outcome);
  if (kind.movesClock) entry.now = store.now();
  stepRan(step, kind, outcome, entry);
  keepChecks?.(entry.checks);
  await refresh();
  // What the step did, or caused, as a lifecycle run (steps.js lastRun),
  // with what it changed in the bucket the kind compares (diffs).
  if (outcome.ok && kind.lastRun) {
    const diff = diffBucket ? model.diffVersions(before, diffBucket === state.bucket ? state.versions : await store.listVersions(diffBucket, {})) : null;
    const shown = kind.lastRun(step, outcome, { bucket: diffBucket, diff, now: store.now() });
    if (shown) {
      lifecycleRan(shown);
      render.renderLifecycle(state);
      render.renderS3Out(state);
    }
  }
  save();
  setStatus(outcome.ok ? `Done: ${entry.title}` : `Failed: ${entry.title} — ${outcome.code}`);
  if (kind.timed) performance.measure(`minis3:${step.op}`, { start: started });
  tellStep(entry, step);
  return entry.checks;
}

function run(step) {
  return enqueue(() => exec(step));
}

// ---- persistence of the page's own state (steps, history, rules, the
// scenario loaded and an exercise's progress) ----

const saveKey = () => `minis3-playground:${state.dbName}`;

function save() {
  if (state.storage !== "indexeddb") return;
  tellOtherTabs();
  const sc = state.scenario;
  const ex = state.exercise;
  try {
    localStorage.setItem(saveKey(), JSON.stringify({
      steps: state.steps, history: state.history, rows: state.rows, bucket: state.bucket,
      scenario: sc && { name: sc.name, titles: sc.titles, results: sc.results },
      exercise: ex && { name: ex.name, progress: ex.progress },
    }));
  } catch {
    // Storage full or blocked: the store itself is still durable.
  }
}

// restoreScenario brings back the scenario the page had loaded before a
// reload, as far as its steps had run, and an exercise's progress (see
// restoredProgress in exercise.js). A scenario no longer built in, or
// whose steps changed since, is left out: the store keeps what its steps
// did.
async function restoreScenario(saved) {
  const name = saved.scenario?.name;
  const sc = typeof name === "string" ? await scenarioNamed(name) : undefined;
  if (!sc || !sameTitles(saved.scenario.titles, sc.titles) || !isResults(saved.scenario.results, sc.steps.length)) return;
  scenarioStarted(sc, saved.scenario.results);
  startTask(sc, saved.exercise?.name === sc.name ? saved.exercise.progress : null);
  $("scenario-select").value = sc.name;
  showScenarioChoice();
  if (host) host.about.scenario = sc.name;
}

const sameTitles = (saved, titles) => Array.isArray(saved) && saved.length === titles.length && saved.every((t, i) => t === titles[i]);

// isResults: the results of a scenario's first steps, as scenarioStep
// records them.
const isResults = (results, steps) => Array.isArray(results) && results.length <= steps &&
  results.every((r) => Array.isArray(r?.checks) && r.checks.every(isCheckResult));

// ---- other tabs on the same database ----

// Two playground tabs of one database share the store: the JS API notices
// the other writer's commits and reloads before each operation, so nothing
// is lost. A tab also tells the others when it has done something, so that
// they show it at once rather than at their next action.
let otherTabs = null;

function listenToOtherTabs() {
  if (state.storage !== "indexeddb" || typeof BroadcastChannel !== "function") return;
  otherTabs = new BroadcastChannel(`minis3-playground:${state.dbName}`);
  otherTabs.onmessage = () => enqueue(() => {
    // The other tab may have changed a configuration, and what a preview
    // showed.
    s3ConfigStale();
    marksCleared();
    return refresh();
  });
}

function tellOtherTabs() {
  otherTabs?.postMessage("changed");
}

function loadSaved() {
  if (state.storage !== "indexeddb") return null;
  try {
    const raw = localStorage.getItem(saveKey());
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

// ---- rules editor ----

// setRows sets the editor's rows and draws it again.
function setRows(rows) {
  setRuleRows(rows);
  drawRuleEditor();
}

function drawRuleEditor() {
  render.renderRuleRows(state.rows);
  render.renderRuleErrors(state.ruleErrors);
}

function readRows() {
  return [...document.querySelectorAll("#rules fieldset.rule")].map((fs) => {
    const row = {};
    for (const input of fs.querySelectorAll("input[data-field]")) row[input.dataset.field] = input.value;
    return row;
  });
}

// rulesChanged shows the editor's new rules: at once what does not need
// the store, then the live preview of the next tick and the chapter's
// schedule for the side-by-side view, read again with them. A preview of
// other rules, or of S3's run, is not about these rules and goes.
function rulesChanged() {
  rulesEdited();
  renderAll();
  if (!state.bucket) return;
  enqueue(async () => {
    livePreviewRead(await livePreview());
    schedulesRead(await readSchedules());
    renderAll();
  });
}

// ---- reset ----

async function wipe() {
  const store = state.store;
  for (const b of await store.listBuckets()) {
    for (const v of await store.listVersions(b.name, {})) {
      await store.delete(b.name, v.key, { versionId: v.versionId });
    }
    for (const u of await store.listMultipartUploads(b.name, {})) {
      await store.abortMultipartUpload(b.name, u.key, u.uploadId);
    }
    await store.deleteBucket(b.name);
  }
  await store.setClock(0);
  emptied();
  drawRuleEditor();
}

function confirmDialog(text, okLabel) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = okLabel;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
  });
}

// ---- scenarios ----

// The built-in scenarios. The playground lists them all when it starts. An
// embed fetches only the scenario it runs (its title goes on the load
// button) and lists the others once it is interactive: a course page of
// several embeds then fetches one small file per embed before a click, and
// a started embed waits for that one file alone.
let listing = null;
let ownScenario = null;

// listScenarios loads every built-in scenario, once, into state.scenarios
// and the Scenarios panel; it resolves to the errors of the files left out.
function listScenarios() {
  listing ??= loadScenarios().then(({ scenarios, errors }) => {
    scenariosListed(scenarios);
    fillScenarioChoice();
    return errors;
  });
  return listing;
}

// startingScenario loads the one scenario an embed's start runs (the course
// page's choice, else ?scenario=); it resolves to the errors.
async function startingScenario() {
  const name = requestedScenario || scenarioParam;
  if (!name) return [];
  try {
    scenariosListed([await (name === scenarioParam && ownScenario ? ownScenario : loadScenario(name))]);
  } catch (err) {
    return [err.message];
  }
  fillScenarioChoice();
  return [];
}

// scenarioNamed is the built-in scenario of that name, or undefined.
async function scenarioNamed(name) {
  const named = () => state.scenarios.find((s) => s.name === name);
  if (!named()) await listScenarios();
  return named();
}

// fillScenarioChoice lists state.scenarios in the Scenarios panel, keeping
// the scenario chosen there.
function fillScenarioChoice() {
  const sel = $("scenario-select");
  const chosen = sel.value || scenarioParam;
  sel.replaceChildren(...state.scenarios.map((sc) => Object.assign(document.createElement("option"), { value: sc.name, textContent: sc.title })));
  if (chosen) sel.value = chosen;
  showScenarioChoice();
}

function showScenarioChoice() {
  const sel = $("scenario-select");
  const sc = state.scenarios.find((s) => s.name === sel.value);
  $("scenario-desc").textContent = sc ? sc.description : "";
}

async function startScenario(sc) {
  await wipe();
  scenarioStarted(sc);
  startTask(sc);
  if (host) host.about.scenario = sc.name;
  await refresh();
  save();
  setStatus(`Loaded scenario: ${model.isolate(sc.title)}`);
  tell("loaded", { title: sc.title, exercise: Boolean(sc.task), steps: sc.steps.length });
}

async function scenarioStep() {
  const sc = state.scenario;
  if (!sc || sc.results.length >= sc.steps.length) return;
  const i = sc.results.length;
  setStatus(`Running step ${i + 1} of ${sc.steps.length}…`);
  await exec(sc.steps[i], scenarioStepChecked);
  render.renderScenario(state);
}

// runStage runs the loaded scenario's remaining steps.
async function runStage() {
  while (state.scenario && state.scenario.results.length < state.scenario.steps.length) await scenarioStep();
}

async function loadScenarioByName(name) {
  const sc = await scenarioNamed(name);
  if (!sc) {
    setStatus(`There is no built-in scenario named "${name}".`);
    return;
  }
  if (state.buckets.length > 0 && !(await confirmDialog(`Loading "${model.isolate(sc.title)}" deletes every bucket in this playground first.`, "Load scenario"))) return;
  await startScenario(sc);
}

// ---- the course page that embeds this one ----

// host is the conversation with the course page (host.js) when the page is
// an embed in an iframe, and null otherwise. requestedScenario is a
// scenario the course page asked for before the reader started the store.
let host = null;
let requestedScenario = "";

function tell(type, fields) {
  host?.post(type, fields);
}

function tellStep(entry, step) {
  const failed = entry.checks.filter((c) => !c.pass).length;
  tell("step", { index: state.steps.length, op: step.op, title: entry.title, ok: entry.ok, code: entry.code ?? null, checks: entry.checks.length, failed });
}

// hostRequest follows a request of the course page. Before the reader
// starts the store, a load only chooses what the start loads: the page
// downloads nothing until the reader asks.
function hostRequest(request) {
  if (!state.store) {
    if (request.type !== "load") return Promise.reject(new Error("the reader has not started the playground yet"));
    requestedScenario = request.scenario;
    host.about.scenario = request.scenario;
    setStatus(`Click to load (scenario ${model.isolate(request.scenario)}).`);
    return Promise.resolve();
  }
  if (request.type === "load") return enqueue(() => loadRequested(request.scenario));
  return enqueue(async () => {
    const sc = state.scenario && (await scenarioNamed(state.scenario.name));
    if (sc) await startScenario(sc);
    else {
      await wipe();
      await refresh();
      save();
    }
    tell("reset", {});
  });
}

// loadRequested loads a scenario the course page asked for, without asking
// the reader: the course page chose it.
async function loadRequested(name) {
  const sc = await scenarioNamed(name);
  if (!sc) {
    tell("error", { message: `minis3:load: there is no built-in scenario named ${name}` });
    return;
  }
  $("scenario-select").value = sc.name;
  showScenarioChoice();
  await startScenario(sc);
}

// ---- share links ----

function shareURL() {
  const frag = encodeShare({ steps: state.steps, rules: state.rows, bucket: state.bucket, scenario: state.scenario?.name });
  return `${location.origin}${location.pathname}#${frag}`;
}

// restoreShare replays a state that decodeShare has checked.
async function restoreShare(shared) {
  for (const step of shared.steps) await exec(step);
  setRows(shared.rules.map((r) => ({ id: String(r.id ?? ""), prefix: String(r.prefix ?? ""), current: String(r.current ?? ""), noncurrent: String(r.noncurrent ?? "") })));
  sharedBucketSelected(shared.bucket);
  await refresh();
  setStatus(`Restored ${shared.steps.length} steps from a share link${shared.scenario ? ` (scenario ${model.isolate(shared.scenario)})` : ""}.`);
}

// ---- events ----

function readClock(text) {
  const v = model.parseSeconds(text);
  if (v.error || v.value === null) {
    $("clock-error").textContent = v.error ? `Clock: ${v.error}.` : "Enter a time in seconds, for example 14.999.";
    $("clock-error").hidden = false;
    return null;
  }
  $("clock-error").hidden = true;
  return v.value;
}

// clockStep reads the "Set to" field: seconds, or a date (the clock then
// shows that instant).
function clockStep(text) {
  if (!/^\s*\d{4}-/.test(text)) {
    const v = readClock(text);
    return v === null ? null : { op: "clock", now: v };
  }
  const t = parseTime(text);
  $("clock-error").hidden = !t.error;
  $("clock-error").textContent = t.error ? `Clock: ${t.error}.` : "";
  return t.error ? null : { op: "clock", time: text.trim() };
}

// objectTags reads the Tags field, or says what is wrong with it and
// returns null.
function objectTags() {
  const { tags, error } = parseTags($("obj-tags").value);
  $("obj-tags-error").hidden = !error;
  $("obj-tags-error").textContent = error ? `Tags: ${error}.` : "";
  if (error) $("obj-tags").setAttribute("aria-invalid", "true");
  else $("obj-tags").removeAttribute("aria-invalid");
  return error ? null : tags;
}

// objectStep builds a step of op from the Objects form, or returns null
// when a field is wrong (and says so there).
function objectStep(op) {
  const key = $("obj-key").value;
  const versionId = $("obj-version").value.trim();
  const step = { op, bucket: state.bucket, key };
  if (op === "put") {
    step.body = $("obj-body").value;
    const tags = objectTags();
    if (tags === null) return null;
    if (tags.length > 0) step.tags = tags;
    if ($("obj-class").value !== "") step.storageClass = $("obj-class").value;
    return step;
  }
  if (versionId !== "") step.versionId = versionId;
  if (op === "putObjectTagging") {
    step.tags = objectTags();
    if (step.tags === null) return null;
  }
  return step;
}

// focusInStack puts focus back in key's stack after the button that had it
// went with its version: on the stack's first version button, or on the
// stacks panel when the key has no version left.
function focusInStack(key) {
  const stack = [...document.querySelectorAll("#stacks .stack")].find((s) => s.dataset.key === key);
  (stack?.querySelector("button[data-act]") ?? $("stacks-panel")).focus();
}

function runObjectStep(op) {
  const step = objectStep(op);
  if (step) run(step);
}

// ---- the S3 lifecycle configuration editor ----

// s3FormChanged takes the form's rows as the draft and checks them.
function s3FormChanged() {
  s3FormTyped(readS3Rows());
  renderS3Errors(rowsToConfig(state.s3.form).errors);
}

// setS3Rows makes rows the form's draft and shows them, then puts focus on
// the field focus names (an element ID), when given.
function setS3Rows(rows, focus) {
  s3FormTyped(rows);
  renderS3Rows(rows);
  renderS3Errors(rowsToConfig(rows).errors);
  if (focus) document.getElementById(focus)?.focus();
}

// saveS3 stores the configuration of the mode shown: the form's as JSON
// once its fields hold what they must, the JSON as written (an object
// when it parses, its text otherwise, for the store to refuse), the XML as
// S3's request body.
function saveS3() {
  const s3 = state.s3;
  const bucket = state.bucket;
  if (s3.mode === "form") {
    const { config, errors } = rowsToConfig(readS3Rows());
    renderS3Errors(errors);
    if (errors.length > 0) {
      document.getElementById(`s3r-${errors[0].row}-${errors[0].field}`)?.focus();
      return;
    }
    run({ op: "putBucketLifecycle", bucket, config });
  } else if (s3.mode === "json") {
    let config = $("s3-json").value;
    try {
      const parsed = JSON.parse(config);
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) config = parsed;
    } catch {
      // Sent as text: the store says what is wrong with it.
    }
    run({ op: "putBucketLifecycle", bucket, config });
  } else {
    run({ op: "putBucketLifecycle", bucket, xml: $("s3-xml").value });
  }
}

function wireS3Editor() {
  for (const radio of document.querySelectorAll('input[name="s3-mode"]')) {
    radio.addEventListener("change", () => {
      s3ModeChosen(radio.value);
      showMode(radio.value);
    });
  }
  $("s3-rules").addEventListener("input", s3FormChanged);
  $("s3-rules").addEventListener("change", s3FormChanged);
  $("s3-rules").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-s3-act]");
    if (!b) return;
    const rows = readS3Rows();
    const i = Number(b.dataset.row);
    const list = (row) => (b.dataset.kind === "t" ? row.transitions : row.noncurrentTransitions);
    switch (b.dataset.s3Act) {
      case "remove-rule":
        rows.splice(i, 1);
        setS3Rows(rows, rows.length > 0 ? `s3r-${Math.min(i, rows.length - 1)}-id` : "s3-add-rule-btn");
        break;
      case "add-transition":
        list(rows[i]).push(b.dataset.kind === "t" ? emptyTransition() : emptyNoncurrentTransition());
        setS3Rows(rows, `s3r-${i}-${b.dataset.kind}${list(rows[i]).length - 1}-days`);
        break;
      case "remove-transition":
        list(rows[i]).splice(Number(b.dataset.j), 1);
        setS3Rows(rows, `s3r-${i}-id`);
        break;
    }
  });
  $("s3-add-rule-btn").addEventListener("click", () => {
    const rows = readS3Rows();
    rows.push(emptyRule(rows.length + 1));
    setS3Rows(rows, `s3r-${rows.length - 1}-prefix`);
  });
  $("s3-json").addEventListener("input", () => {
    s3JsonTyped($("s3-json").value);
  });
  $("s3-xml").addEventListener("input", () => {
    s3XmlTyped($("s3-xml").value);
  });
  $("s3-save-btn").addEventListener("click", saveS3);
  $("s3-revert-btn").addEventListener("click", () => enqueue(async () => {
    s3Reverted();
    await refresh();
  }));
  $("s3-delete-btn").addEventListener("click", () => run({ op: "deleteBucketLifecycle", bucket: state.bucket }));
  $("s3-preview-btn").addEventListener("click", () => run({ op: "previewLifecycle", bucket: state.bucket }));
  $("s3-run-btn").addEventListener("click", () => run({ op: "runLifecycle", bucket: state.bucket }));
}

function wire() {
  $("clock-set-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const step = clockStep($("clock-input").value);
    if (step) run(step);
  });
  for (const b of document.querySelectorAll(".day-btn")) {
    b.addEventListener("click", () => run({ op: "advance", days: Number(b.dataset.days) }));
  }
  $("midnight-btn").addEventListener("click", () => run({ op: "nextMidnight" }));
  for (const b of document.querySelectorAll(".step-btn")) {
    b.addEventListener("click", () => run({ op: "clock", now: roundClock(state.now + Number(b.dataset.step)) }));
  }
  $("clock-step-btn").addEventListener("click", () => {
    const v = readClock($("clock-step").value);
    if (v !== null) run({ op: "clock", now: roundClock(state.now + v) });
  });
  $("clock-slider").addEventListener("change", (ev) => run({ op: "clock", now: Number(ev.target.value) }));

  $("bucket-select").addEventListener("change", (ev) => {
    selectBucket(ev.target.value);
    enqueue(refresh);
  });
  $("enable-btn").addEventListener("click", () => run({ op: "versioning", bucket: state.bucket, status: "enabled" }));
  $("suspend-btn").addEventListener("click", () => run({ op: "versioning", bucket: state.bucket, status: "suspended" }));
  $("create-bucket-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    run({ op: "createBucket", bucket: $("new-bucket").value.trim() });
  });
  $("delete-bucket-btn").addEventListener("click", async () => {
    const bucket = state.bucket;
    if (await confirmDialog(`Delete bucket "${bucket}"? S3 refuses while any version or delete marker is left.`, "Delete bucket")) run({ op: "deleteBucket", bucket });
  });

  $("object-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    runObjectStep("put");
  });
  for (const [id, op] of [["get-btn", "get"], ["delete-btn", "delete"], ["tags-put-btn", "putObjectTagging"], ["tags-get-btn", "getObjectTagging"]]) {
    $(id).addEventListener("click", () => {
      if ($("obj-key").reportValidity()) runObjectStep(op);
    });
  }
  // A version's own GET and DELETE act on that version and leave the
  // Objects form as it is: a version ID left in the form would make its
  // next plain DELETE delete that version for good.
  $("stacks").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-act]");
    if (!b) return;
    const { act, key, versionId } = b.dataset;
    const hadFocus = document.activeElement === b;
    run({ op: act, bucket: state.bucket, key, versionId }).then(() => {
      if (hadFocus && !b.isConnected) focusInStack(key);
    });
  });
  // A version's "size and ETag" button shows or hides its list (built when
  // first shown); the open ones stay open when their views are built again.
  $("stacks").addEventListener("click", (ev) => {
    const toggle = ev.target.closest("button.disclose");
    if (!toggle) return;
    const open = toggle.getAttribute("aria-expanded") !== "true";
    render.setDetailsOpen(toggle, open);
    detailsToggled(toggle.dataset.id, open);
  });
  $("multipart-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const parts = $("mp-parts").value.split("\n");
    if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
    run({ op: "multipart", bucket: state.bucket, key: $("mp-key").value, parts });
  });
  $("mp-start-btn").addEventListener("click", () => {
    if ($("mp-key").reportValidity()) run({ op: "createMultipartUpload", bucket: state.bucket, key: $("mp-key").value });
  });

  $("rules").addEventListener("input", () => {
    ruleRowsTyped(readRows());
    render.renderRuleErrors(state.ruleErrors);
    rulesChanged();
  });
  $("rules").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-rule-act]");
    if (!b) return;
    const rows = readRows();
    const i = Number(b.dataset.row);
    if (b.dataset.ruleAct === "remove") rows.splice(i, 1);
    else {
      const j = b.dataset.ruleAct === "up" ? i - 1 : i + 1;
      [rows[i], rows[j]] = [rows[j], rows[i]];
    }
    setRows(rows);
    rulesChanged();
  });
  $("add-rule-btn").addEventListener("click", () => {
    const rows = readRows();
    rows.push({ id: `rule-${rows.length + 1}`, prefix: "", current: "", noncurrent: "" });
    setRows(rows);
    rulesChanged();
    document.getElementById(`rule-${rows.length - 1}-prefix`).focus();
  });
  $("preview-btn").addEventListener("click", () => run({ op: "preview", bucket: state.bucket, rules: state.rules }));
  $("tick-btn").addEventListener("click", () => run({ op: "tick", bucket: state.bucket, rules: state.rules }));

  wireS3Editor();

  $("scenario-select").addEventListener("change", showScenarioChoice);
  $("scenario-load-btn").addEventListener("click", () => enqueue(() => loadScenarioByName($("scenario-select").value)));
  $("scenario-step-btn").addEventListener("click", () => enqueue(scenarioStep));
  $("scenario-run-btn").addEventListener("click", () => enqueue(runStage));
  wireTask({ enqueue, exec, runStage, tell, save });

  $("share-btn").addEventListener("click", () => {
    try {
      $("share-url").value = shareURL();
    } catch (err) {
      setStatus(err.message);
      return;
    }
    $("share-dialog").showModal();
    $("share-url").select();
  });
  $("share-copy").addEventListener("click", async () => {
    $("share-url").select();
    try {
      await navigator.clipboard.writeText($("share-url").value);
      setStatus("Link copied.");
    } catch {
      setStatus("Copy is blocked here: select the link and copy it by hand.");
    }
  });
  $("reset-btn").addEventListener("click", async () => {
    if (!(await confirmDialog("Reset deletes every bucket, version and the history, and sets the clock to 0.", "Reset"))) return;
    enqueue(async () => {
      await wipe();
      await refresh();
      save();
      setStatus("The playground is empty again.");
      tell("reset", {});
    });
  });
}

// ---- start ----

function storageText() {
  if (state.storage === "indexeddb") return `Storage: IndexedDB (database "${state.dbName}", kept across reloads)`;
  if (state.dbName) return "Storage: memory — IndexedDB is not available here, so everything is lost on reload";
  return "Storage: memory (nothing is kept after this page closes)";
}

// start loads the store and the page. notices are messages for the reader
// (a damaged share link), shown once the page is ready.
async function start(shared, notices) {
  $("load-btn").hidden = true;
  $("loader-progress").hidden = false;
  $("loader-text").textContent = "Compiling the WebAssembly store…";
  setStatus("Loading…");
  const [minis3, scenarioErrors] = await Promise.all([
    import("../minis3.js").then((m) => m.default),
    embed ? startingScenario() : listScenarios(),
  ]);
  if (scenarioErrors.length > 0) notices.push(`Some built-in scenarios could not be loaded: ${scenarioErrors.join("; ")}`);
  const useMemory = shared !== null || (embed && !frame);
  const dbName = useMemory ? "" : embed ? `minis3-embed-${scenarioParam || "blank"}-${frame}` : "playground";
  storeOpened(await minis3.open(useMemory ? { memory: true, minPartSize: MIN_PART_SIZE } : { db: dbName, minPartSize: MIN_PART_SIZE }), dbName);
  performance.mark("minis3:store-open");
  $("min-part").textContent = String(MIN_PART_SIZE);
  for (const c of PUT_CLASSES) $("obj-class").appendChild(Object.assign(document.createElement("option"), { value: c === "STANDARD" ? "" : c, textContent: c }));

  wire();
  listenToOtherTabs();

  const saved = loadSaved();
  if (saved) {
    restored({ steps: saved.steps || [], history: saved.history || [], bucket: saved.bucket || "" });
    setRows(saved.rows || []);
    await restoreScenario(saved);
  } else {
    setRows([]);
  }
  // The app is shown with its first render, in one task: shown before the
  // store is read, the browser laid out and painted the empty app while it
  // waited for the store, and then again with the data.
  await readStore();
  $("storage-mode").textContent = storageText();
  $("storage-mode").hidden = false;
  $("loader").hidden = true;
  $("app").hidden = false;
  $("share-btn").hidden = false;
  $("reset-btn").hidden = false;
  renderAll();
  // Watched from the first render on, when the page has its real height.
  watchLazyViews();
  if (shared) await enqueue(() => restoreShare(shared));
  else if (requestedScenario) await enqueue(() => loadRequested(requestedScenario));
  else if (scenarioParam && !saved) await enqueue(() => loadScenarioByName(scenarioParam));
  else setStatus("Ready.");
  if (notices.length > 0) setStatus(notices.join(" "));
  performance.mark("minis3:interactive");
  performance.measure("minis3:load", { end: "minis3:interactive" });
  document.body.dataset.ready = "true";
  tell("ready", { storage: state.storage });
  keepOffline();
  if (embed) {
    const errors = await listScenarios();
    if (errors.length > 0) setStatus(`Some built-in scenarios could not be loaded: ${errors.join("; ")}`);
  }
}

function fail(err) {
  $("loader").hidden = false;
  $("loader-progress").hidden = true;
  $("loader-error").hidden = false;
  $("loader-error").textContent = `The playground could not start: ${err.message || err}`;
  setStatus("Failed to start.");
}

function boot() {
  for (const name of hidden) {
    if (PANELS[name]) $(PANELS[name]).hidden = true;
  }
  document.body.classList.toggle("embed", embed);
  // A damaged share link is reported, and the playground opens without it.
  let shared = null;
  const notices = [];
  try {
    shared = decodeShare(location.hash.slice(1));
  } catch (err) {
    notices.push(`${err.message} The playground opened without it.`);
  }
  // Pasting another share link into the address bar changes only the
  // fragment; load the page again to open it.
  addEventListener("hashchange", () => {
    if (location.hash.startsWith("#s=")) location.reload();
  });
  if (embed) {
    host = connectHost({ win: window, param: params.get("origin"), frame, scenario: scenarioParam, onRequest: hostRequest, warn: (text) => console.warn(text) });
    $("loader-progress").hidden = true;
    $("loader-text").textContent = "The store is a WebAssembly module of a few megabytes; it loads when you ask.";
    if (scenarioParam) {
      ownScenario = loadScenario(scenarioParam);
      // A scenario that cannot be loaded is reported when the reader starts.
      ownScenario.then((sc) => { $("loader-title").textContent = sc.title; }, () => {});
    }
    $("load-btn").hidden = false;
    setStatus("Click to load.");
    $("load-btn").addEventListener("click", () => start(shared, notices).catch(fail), { once: true });
    return;
  }
  start(shared, notices).catch(fail);
}

boot();
