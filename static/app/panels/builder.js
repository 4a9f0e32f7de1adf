// The exercise builder (#builder-panel): an author builds an exercise in
// the page. They start from an empty store or the current one (its
// recorded steps become the stage), set the stage with the page's forms or
// its terminal, write the title, prompt and hints, then record the
// solution; every step the page runs meanwhile is recorded (builder.js).
// The checks are proposed from what the solution changed, played on a
// store of its own (play.js); the author keeps and words them, tries the
// exercise as a student, and exports it once prove.js has proven it
// sound. The draft is kept in localStorage, so a reload loses nothing.
import { $, h, replace, setText, setList } from "../dom.js";
import { isolate } from "../model.js";
import { kindOf } from "../steps.js";
import { parseScenario } from "../scenarios.js";
import { newPlayer, play, factsOf } from "../play.js";
import { prove } from "../prove.js";
import { newDraft, started, recordSteps, closed, proposeChecks, scenarioOf, formatScenario, missing, fileName, embedSnippet, inlineLink, restoredDraft } from "../builder.js";
import { params } from "../params.js";
import { state, scenariosListed } from "../state.js";
import { enqueue } from "../jobs.js";
import { refresh } from "../refresh.js";
import { exec, wipe } from "../runner.js";
import { save } from "../saved.js";
import { confirmDialog, renderAll, setStatus } from "../view.js";
import { startScenario } from "./scenarios.js";
import { MIN_PART_SIZE } from "./objects.js";

// The name the exercise tried as a student goes by among the scenarios.
const TRIED = "exercise-being-built";

// The draft (builder.js), or null when nothing is being built; how many of
// the page's recorded steps (state.steps) it has seen; whether the builder
// is replaying steps itself (not the author's, not recorded); what the
// last export found ({ problems } or { json, name }); and a note for the
// author about the recording.
let draft = null;
let seen = 0;
let replaying = false;
let exported = null;
let note = "";

// The draft the text fields were last filled from, and the proposals the
// checks were last drawn from (counted), so that a render never takes what
// the author is typing.
let drafts = 0;
let filledFor = -1;
let proposals = 0;
let drawnProposals = -1;

const saveKey = () => `minis3-builder:${state.dbName}`;

// keep saves the draft (or its absence) for a reload, where the store is
// kept too.
function keep() {
  if (state.storage !== "indexeddb") return;
  try {
    if (draft) localStorage.setItem(saveKey(), JSON.stringify(draft));
    else localStorage.removeItem(saveKey());
  } catch {
    // Storage full or blocked: the draft lives until the page closes.
  }
}

// change replaces the draft, keeps it, and forgets what the last export
// found, which was about the draft before.
function change(next) {
  draft = next;
  exported = null;
  keep();
}

// restoreBuilder brings back the draft kept before a reload, once the
// page's own steps are back.
export function restoreBuilder() {
  if (state.storage !== "indexeddb") return;
  let raw = null;
  try {
    raw = JSON.parse(localStorage.getItem(saveKey()) ?? "null");
  } catch {
    raw = undefined;
  }
  if (raw === null) return;
  const back = restoredDraft(raw);
  if (back === null) {
    note = "The exercise being built before the reload could not be read back; it is gone.";
    return;
  }
  draft = back;
  drafts++;
  proposals++;
  seen = state.steps.length;
}

// ---- the page's controls ----

// The text fields and the draft's field each one edits.
const TEXT_FIELDS = {
  "builder-title-input": "title", "builder-description": "description", "builder-prompt": "prompt", "builder-hints": "hints",
  "builder-question": "question", "builder-choices": "choices", "builder-answer": "answer", "builder-reasoning": "reasoning",
  "builder-bucket": "bucket", "builder-url": "fileURL", "builder-origin": "courseOrigin",
};

export function wire() {
  build();
  $("builder-open-btn").hidden = params.embed;
  $("builder-open-btn").addEventListener("click", () => {
    if (!draft) {
      change(newDraft());
      drafts++;
      note = "";
    }
    renderAll();
    focusPanel();
  });
  $("builder-empty-btn").addEventListener("click", () => enqueue(startEmpty));
  $("builder-current-btn").addEventListener("click", () => enqueue(startCurrent));
  $("builder-cancel-btn").addEventListener("click", stop);
  $("builder-stop-btn").addEventListener("click", async () => {
    if (await confirmDialog("Stop building this exercise? What you recorded and wrote goes; the playground keeps its store.", "Stop building")) stop();
  });
  // Every change of phase waits for the steps queued before it, which
  // belong to the phase before.
  $("builder-solution-btn").addEventListener("click", () => enqueue(recordSolution));
  $("builder-propose-btn").addEventListener("click", () => enqueue(proposeFromSolution));
  $("builder-restage-btn").addEventListener("click", () => enqueue(backToStage));
  $("builder-try-btn").addEventListener("click", () => enqueue(tryAsStudent));
  $("builder-back-btn").addEventListener("click", () => enqueue(backToBuilding));
  $("builder-export-btn").addEventListener("click", () => enqueue(exportDraft));
  $("builder-download").addEventListener("click", download);
  $("builder-copy-json").addEventListener("click", () => copy("builder-json", "The scenario file is copied."));
  $("builder-copy-snippet").addEventListener("click", () => copy("builder-snippet", "The embed snippet is copied."));
  $("builder-copy-link").addEventListener("click", () => copy("builder-link", "The link is copied."));
  $("builder-panel").addEventListener("input", (ev) => {
    const name = TEXT_FIELDS[ev.target.id];
    // Where the file is served and which page embeds it change the snippet, not the exercise.
    if (name) edit({ [name]: ev.target.value }, name !== "fileURL" && name !== "courseOrigin");
    else if (ev.target.id === "builder-asks") edit({ asks: ev.target.checked }, true);
    else if (ev.target.dataset.proposal !== undefined) editProposal(Number(ev.target.dataset.proposal), ev.target);
  });
}

// edit takes what the author typed; stale: it changes the exercise, so
// that the last export is no longer about it.
function edit(fields, stale) {
  const kept = exported;
  change({ ...draft, ...fields });
  if (!stale) exported = kept;
  render(state);
}

function editProposal(i, input) {
  const fields = input.type === "checkbox" ? { keep: input.checked } : { [input.dataset.field]: input.value };
  change({ ...draft, proposals: draft.proposals.map((p, j) => (j === i ? { ...p, ...fields } : p)) });
  render(state);
}

function focusPanel() {
  const panel = $("builder-panel");
  panel.scrollIntoView({ block: "start" });
  panel.focus({ preventScroll: true });
}

// stop forgets the draft.
function stop() {
  change(null);
  note = "";
  if (state.scenarios.some((s) => s.name === TRIED)) scenariosListed(state.scenarios.filter((s) => s.name !== TRIED));
  renderAll();
  $("builder-open-btn").focus();
}

// The file last downloaded, and its object URL, let go once another is.
let downloaded = { json: "", url: "" };

// download saves the exported file: a link to it, made for the click,
// and gone with it, so that the page holds no link of data.
function download() {
  if (downloaded.json !== exported.json) {
    if (downloaded.url) URL.revokeObjectURL(downloaded.url);
    downloaded = { json: exported.json, url: URL.createObjectURL(new Blob([exported.json], { type: "application/json" })) };
  }
  const link = h("a", { href: downloaded.url, download: `${exported.name}.json`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setStatus(`${exported.name}.json is downloaded.`);
}

async function copy(id, done) {
  $(id).select();
  try {
    await navigator.clipboard.writeText($(id).value);
    setStatus(done);
  } catch {
    setStatus("Copy is blocked here: select the text and copy it by hand.");
  }
}

// ---- starting ----

// startEmpty empties the playground, once the author agrees, and records
// the stage from there.
async function startEmpty() {
  if (state.buckets.length > 0 && !(await confirmDialog("Starting from an empty store deletes every bucket in this playground first.", "Start from empty"))) return;
  replaying = true;
  try {
    await wipe();
    await refresh();
    save();
  } finally {
    replaying = false;
  }
  seen = state.steps.length;
  change(started(draft, [], []));
  note = "";
  setStatus("Building an exercise: set the stage.");
  renderAll();
  $("builder-doing").focus();
}

// startCurrent takes the steps the page recorded as the stage, once they
// are shown to rebuild the store as it is: played on a store of their own,
// they leave the same clock, buckets and versions.
async function startCurrent() {
  const steps = failedMarked(state.steps, state.steps.length);
  const player = newPlayer(await openFresh());
  try {
    await play(player, steps);
    const differs = await storeDifference(player.store, state.store);
    if (differs) {
      note = `The steps this playground recorded do not rebuild its store (${differs}): start from an empty store instead.`;
      renderAll();
      return;
    }
  } finally {
    player.store.close();
  }
  const rules = steps.filter((s) => s.op === "rules").at(-1)?.rules ?? [];
  seen = state.steps.length;
  change(closed(started(draft, steps, rules), state.rules));
  note = "";
  setStatus(`Building an exercise: the stage starts with the playground's ${steps.length} step(s).`);
  renderAll();
  $("builder-doing").focus();
}

// storeDifference says how two stores differ in what an exercise sees
// (the clock, the buckets, their versions), or "".
async function storeDifference(a, b) {
  if (a.now() !== b.now()) return `the clock would be at ${a.now()}, not ${b.now()}`;
  const names = async (s) => (await s.listBuckets()).map((x) => x.name);
  const [na, nb] = [await names(a), await names(b)];
  if (JSON.stringify(na) !== JSON.stringify(nb)) return "the buckets would differ";
  for (const name of na) {
    const stacks = async (s) => JSON.stringify((await s.listVersions(name, {})).map((v) => [v.key, v.versionId, v.isDeleteMarker, v.isLatest]));
    if ((await stacks(a)) !== (await stacks(b))) return `the versions in ${isolate(name)} would differ`;
  }
  return "";
}

// failedMarked is the last n steps of steps, each failed one (as the
// history shows it) expecting the error it failed with.
function failedMarked(steps, n) {
  const added = steps.slice(steps.length - n);
  const entries = state.history.slice(-n);
  const offset = added.length - entries.length;
  return added.map((step, i) => {
    const entry = entries[i - offset];
    return entry && !entry.ok && !step.expect ? { ...step, expect: { error: entry.code } } : step;
  });
}

// ---- recording ----

// follow records the steps the page ran since it last looked, in the phase
// being recorded. When the playground was emptied (Reset, a scenario
// loaded) the stage starts again from an empty store.
function follow() {
  const n = state.steps.length;
  if (!draft || replaying || n === seen) return;
  const recording = !draft.trying && (draft.phase === "stage" || draft.phase === "solution");
  if (n < seen && recording) {
    change(started(draft, [], []));
    note = "The playground was emptied: the stage starts again from an empty store.";
    seen = 0;
  }
  if (n > seen && recording) change(recordSteps(draft, failedMarked(state.steps, n - seen), state.rules));
  seen = n;
}

// rebuild empties the playground and runs steps there, unrecorded, so that
// the store is as the draft says.
async function rebuild(steps) {
  replaying = true;
  try {
    await wipe();
    await refresh();
    for (const step of steps) await exec(step);
    save();
  } finally {
    replaying = false;
  }
  seen = state.steps.length;
}

// recordSolution ends the stage: what the author does next is recorded
// as the solution.
function recordSolution() {
  change({ ...closed(draft, state.rules), phase: "solution", bucket: draft.bucket || state.bucket });
  note = "";
  setStatus("Recording the solution: do what the student should do.");
  renderAll();
  $("builder-doing").focus();
}

// backToStage drops the solution, once the author agrees, and brings the
// store back to the stage, to record more of it.
async function backToStage() {
  if (draft.solution.length > 0 && !(await confirmDialog("Going back to the stage drops the solution recorded; the store goes back to the stage.", "Back to the stage"))) return;
  await rebuild(draft.stage);
  change({ ...draft, phase: "stage", solution: [], proposals: [], recorded: state.rules });
  setStatus("Back at the stage: what you do is recorded as the stage.");
  renderAll();
  $("builder-doing").focus();
}

// ---- the checks ----

// Each store the builder plays on is a store of its own, in memory.
async function openFresh() {
  const minis3 = await (await import("../../minis3.js")).default;
  return minis3.open({ memory: true, minPartSize: MIN_PART_SIZE });
}

// proposeFromSolution ends the solution, plays the stage and the solution
// on a store of their own and proposes the checks from what the solution
// changed.
async function proposeFromSolution() {
  const d = closed(draft, state.rules);
  if (d.bucket.trim() === "") {
    note = "Name the bucket the checks look at (under the task's fields) before the checks are proposed.";
    renderAll();
    return;
  }
  const player = newPlayer(await openFresh());
  const unmet = [];
  let found;
  try {
    const said = (part) => ({ index, step, problems }) => unmet.push(`${part} step ${index + 1} (${kindOf(step.op).describe(step)}): ${problems.join("; ")}`);
    (await play(player, d.stage)).forEach(said("stage"));
    player.taken = [];
    const before = await factsOf(player, d.bucket);
    (await play(player, d.solution)).forEach(said("solution"));
    const after = await factsOf(player, d.bucket, d.asks ? d.answer : "");
    found = proposeChecks(before, after, player.taken, d);
  } finally {
    player.store.close();
  }
  change({ ...d, phase: "checks", proposals: found });
  proposals++;
  note = unmet.length > 0 ? `Played again on a store of its own, some steps did not do what they did here: ${unmet.join(" ")}` : "";
  setStatus(`${found.length} check(s) proposed from what the solution changed.`);
  renderAll();
  $("builder-checks-title").focus();
}

// ---- trying and exporting ----

// scenarioNow is the draft as a scenario ready to run (parseScenario), or
// throws an Error saying what is wrong.
function scenarioNow(name) {
  const lacks = missing(draft);
  if (lacks) throw new Error(lacks);
  return parseScenario(scenarioOf(draft), name);
}

// tryAsStudent loads the exercise as a student gets it: the playground
// emptied, the task shown, its stage to set.
async function tryAsStudent() {
  let sc;
  try {
    sc = scenarioNow(TRIED);
  } catch (err) {
    exported = { problems: [err.message] };
    renderAll();
    $("builder-problems").focus();
    return;
  }
  change({ ...draft, trying: draft.phase });
  exported = null;
  scenariosListed([...state.scenarios.filter((s) => s.name !== TRIED), sc]);
  replaying = true;
  try {
    await startScenario(sc);
  } finally {
    replaying = false;
  }
  seen = state.steps.length;
  setStatus(`Trying ${isolate(sc.title)} as a student: Set the stage, then do the task.`);
}

// backToBuilding leaves the exercise tried and brings the store back to
// where the author was building.
async function backToBuilding() {
  const phase = draft.trying;
  await rebuild(phase === "stage" ? draft.stage : [...draft.stage, ...draft.solution]);
  scenariosListed(state.scenarios.filter((s) => s.name !== TRIED));
  change({ ...draft, trying: "", recorded: state.rules });
  setStatus("Back to building the exercise.");
  renderAll();
  focusPanel();
}

// exportDraft proves the exercise on a store of its own and, when it is
// sound, shows its file and embed snippet; otherwise what is wrong.
async function exportDraft() {
  const name = fileName(draft.title);
  const stores = [];
  try {
    const sc = scenarioNow(name);
    const proof = await prove(sc, async () => {
      stores.push(await openFresh());
      return stores.at(-1);
    });
    exported = proof.ok ? { json: formatScenario(scenarioOf(draft)), name } : { problems: proof.problems };
  } catch (err) {
    exported = { problems: [err.message] };
  } finally {
    for (const s of stores) s.close();
  }
  setStatus(exported.json ? `Proven sound: ${name}.json is ready.` : "Not exported: the exercise is not sound yet.");
  renderAll();
  $(exported.json ? "builder-file-title" : "builder-problems").focus();
}

// ---- the view ----

// build makes the panel's controls, once.
function build() {
  const text = (id, label, attrs = {}) => [h("label", { for: id }, label), h("input", { id, autocomplete: "off", spellcheck: "false", ...attrs })];
  const area = (id, label, rows, attrs = {}) => [h("label", { for: id }, label), h("textarea", { id, rows, spellcheck: "true", ...attrs })];
  replace($("builder-panel"),
    h("h2", { id: "builder-title" }, "Build an exercise"),
    h("p", { id: "builder-note", class: "builder-note", role: "status" }),
    h("div", { id: "builder-start" },
      h("p", {}, "An exercise is a stage, set with this page's forms or its terminal, a task, and the solution you then do here: every step is recorded. Start from"),
      h("div", { class: "row" },
        h("button", { type: "button", id: "builder-empty-btn", class: "primary" }, "An empty store"),
        h("button", { type: "button", id: "builder-current-btn" }, "The current store"),
        h("button", { type: "button", id: "builder-cancel-btn" }, "Cancel")),
      h("p", { class: "hint" }, "From the current store, the steps this playground recorded (as a share link holds them) become the stage.")),
    h("div", { id: "builder-trying" },
      h("p", { id: "builder-trying-text" }),
      h("button", { type: "button", id: "builder-back-btn", class: "primary" }, "Back to building")),
    h("div", { id: "builder-work" },
      h("ol", { class: "builder-phases", id: "builder-phases" },
        h("li", { "data-phase": "stage" }, "The stage"),
        h("li", { "data-phase": "solution" }, "The solution"),
        h("li", { "data-phase": "checks" }, "The checks")),
      h("p", { id: "builder-doing", class: "builder-doing", tabindex: "-1" }),
      h("div", { class: "row" },
        h("button", { type: "button", id: "builder-solution-btn", class: "primary" }, "Record the solution"),
        h("button", { type: "button", id: "builder-propose-btn", class: "primary" }, "Done: propose checks"),
        h("button", { type: "button", id: "builder-export-btn", class: "primary" }, "Export"),
        h("button", { type: "button", id: "builder-try-btn" }, "Try it as a student"),
        h("button", { type: "button", id: "builder-restage-btn" }, "Back to the stage")),
      h("div", { id: "builder-export" },
        h("ul", { id: "builder-problems", class: "builder-problems", role: "alert", tabindex: "-1" }),
        h("div", { id: "builder-file", class: "stack-form" },
          h("h3", { id: "builder-file-title", tabindex: "-1" }, "Proven sound: the scenario file"),
          area("builder-json", "The scenario file", 8, { readonly: true, spellcheck: "false", wrap: "off" }),
          h("div", { class: "row" },
            h("button", { type: "button", id: "builder-download" }, "Download"),
            h("button", { type: "button", id: "builder-copy-json" }, "Copy")),
          text("builder-url", "Where you will serve the file (same origin, or CORS)"),
          text("builder-origin", "Your course page's origin, which hears the embed's messages (https://course.example.org)"),
          area("builder-snippet", "Embed it in a course page", 3, { readonly: true, spellcheck: "false" }),
          h("div", { class: "row" }, h("button", { type: "button", id: "builder-copy-snippet" }, "Copy the snippet")),
          area("builder-link", "Or a link that carries the exercise itself (no file to serve)", 2, { readonly: true, spellcheck: "false" }),
          h("div", { class: "row" }, h("button", { type: "button", id: "builder-copy-link" }, "Copy the link")))),
      h("section", { id: "builder-checks", "aria-labelledby": "builder-checks-title" },
        h("h3", { id: "builder-checks-title", tabindex: "-1" }, "Checks"),
        h("p", { class: "hint" }, "Proposed from what the solution changed. Keep those the task needs; a label says what is checked, never the value asked for; a hint leads toward the reasoning."),
        h("ol", { id: "builder-proposals", class: "builder-proposals" })),
      h("details", { id: "builder-texts", class: "builder-texts", open: true },
        h("summary", {}, "Title, prompt, hints and solution"),
        h("div", { class: "stack-form" },
          text("builder-title-input", "Title"),
          area("builder-description", "Description (optional: under the scenario menu)", 2),
          area("builder-prompt", "Prompt: what the student is asked to do", 3),
          area("builder-hints", "Hints, one per line (revealed one at a time)", 3),
          h("label", { class: "builder-asks" }, h("input", { type: "checkbox", id: "builder-asks" }), " The student also answers a question"),
          h("div", { id: "builder-question-fields", class: "stack-form" },
            text("builder-question", "The question, beside the answer field"),
            area("builder-choices", "Choices, one per line (none: the student writes the answer)", 2),
            text("builder-answer", "The solution's answer (the number of the right choice, or what the student writes)")),
          area("builder-reasoning", "The solution explained (shown to a student who asks)", 3),
          text("builder-bucket", "The bucket the checks look at"))),
      h("details", { id: "builder-steps", class: "builder-steps" },
        h("summary", { id: "builder-steps-summary" }, "Recorded steps"),
        h("h3", { id: "builder-stage-title" }, "Stage"),
        h("ol", { id: "builder-stage" }),
        h("h3", { id: "builder-solution-title" }, "Solution"),
        h("ol", { id: "builder-solution" })),
      h("div", { class: "row" },
        h("button", { type: "button", id: "builder-stop-btn", class: "danger" }, "Stop building…"))));
}

// What the author does in each phase.
const DOING = {
  stage: "Set the stage: create the bucket, write the versions, move the clock, write the rules, with the forms or the terminal. Each step is recorded. Then write the task below and record the solution.",
  solution: "Record the solution: do what the student should do (move the clock, tick, write rules, answer below). Each step is recorded as the solution.",
  checks: "Choose the checks, then try the exercise as a student, and export it once it is sound. What you do in the playground now is not recorded.",
};

export function render(state) {
  follow();
  const panel = $("builder-panel");
  panel.hidden = !draft || params.embed;
  setText($("builder-note"), note);
  $("builder-note").hidden = note === "";
  if (!draft) return;
  const phase = draft.phase;
  const trying = draft.trying !== "";
  $("builder-start").hidden = phase !== "start";
  $("builder-trying").hidden = !trying;
  $("builder-work").hidden = phase === "start" || trying;
  setText($("builder-trying-text"), `You are trying ${isolate(draft.title || "the exercise")} as a student would: Set the stage, do the task, Check. Nothing you do now is recorded.`);
  if (phase === "start" || trying) return;

  for (const li of $("builder-phases").children) {
    if (li.dataset.phase === phase) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
  setText($("builder-doing"), DOING[phase]);
  $("builder-solution-btn").hidden = phase !== "stage";
  $("builder-propose-btn").hidden = phase !== "solution";
  $("builder-export-btn").hidden = phase !== "checks";
  $("builder-try-btn").hidden = phase !== "checks";
  $("builder-restage-btn").hidden = phase === "stage";
  $("builder-solution-btn").disabled = !state.bucket;

  fillTexts();
  $("builder-question-fields").hidden = !draft.asks;
  const describe = (s) => kindOf(s.op).describe(s);
  setList($("builder-stage"), draft.stage.map(describe), (t) => h("li", {}, t));
  setList($("builder-solution"), draft.solution.map(describe), (t) => h("li", {}, t));
  setText($("builder-steps-summary"), `Recorded steps: ${draft.stage.length} for the stage, ${draft.solution.length} for the solution`);
  $("builder-solution-title").hidden = phase === "stage";
  $("builder-solution").hidden = phase === "stage";

  $("builder-checks").hidden = phase !== "checks";
  if (drawnProposals !== proposals) {
    drawnProposals = proposals;
    drawProposals();
  }
  renderExport();
}

// fillTexts puts the draft's texts in their fields, once per draft.
function fillTexts() {
  if (filledFor === drafts) return;
  filledFor = drafts;
  for (const [id, name] of Object.entries(TEXT_FIELDS)) $(id).value = draft[name];
  $("builder-asks").checked = draft.asks;
}

// drawProposals draws the checks proposed, with what the author keeps and
// writes.
function drawProposals() {
  const list = $("builder-proposals");
  if (draft.proposals.length === 0) {
    replace(list, h("li", { class: "empty" }, "Nothing to propose: the solution changed no version, rule or stored configuration, and no answer is asked."));
    return;
  }
  replace(list, draft.proposals.map((p, i) => h("li", { class: "builder-check" },
    h("label", { class: "builder-keep" },
      h("input", { type: "checkbox", id: `builder-keep-${i}`, "data-proposal": String(i), checked: p.keep }), ` Keep: ${kindName(p.check)}`),
    h("ul", { class: "builder-what" }, p.what.map((line) => h("li", {}, line))),
    h("label", { for: `builder-label-${i}` }, "Label"),
    h("input", { id: `builder-label-${i}`, "data-proposal": String(i), "data-field": "label", value: p.label ?? p.check.label, autocomplete: "off" }),
    h("label", { for: `builder-hint-${i}` }, "Hint when it fails (optional)"),
    h("input", { id: `builder-hint-${i}`, "data-proposal": String(i), "data-field": "hint", value: p.hint, autocomplete: "off" }))));
}

// kindName says what a check looks at.
function kindName(check) {
  if (check.versions) return "the versions";
  if (check.rules) return "the chapter's rules";
  if (check.s3Rules) return "the stored S3 rules";
  if (check.answer !== undefined) return "the answer";
  if (check.choice !== undefined) return "the choice";
  if (check.ran) return "a command line run";
  return "a step taken";
}

function renderExport() {
  $("builder-export").hidden = draft.phase !== "checks" || exported === null;
  const problems = exported?.problems ?? [];
  setList($("builder-problems"), problems.length ? ["Not exported: the exercise is not sound yet.", ...problems] : [], (t) => h("li", {}, t));
  $("builder-problems").hidden = problems.length === 0;
  $("builder-file").hidden = !exported?.json;
  if (!exported?.json) return;
  if ($("builder-json").value !== exported.json) $("builder-json").value = exported.json;
  setText($("builder-file-title"), `Proven sound: ${exported.name}.json`);
  const served = draft.fileURL.trim() || new URL(`${exported.name}.json`, location.href).href;
  if (!draft.fileURL.trim()) $("builder-url").placeholder = served;
  $("builder-snippet").value = embedSnippet(location.href, served, draft.title.trim(), exported.name, draft.courseOrigin.trim());
  $("builder-link").value = inlineLink(location.href, JSON.parse(exported.json));
}


