// The Scenarios panel (#scenarios-panel): the built-in scenarios
// (scenarios.js loads and checks them), loading one, and running its steps
// one by one or all at once, with their checks. A scenario is also loaded
// by the URL (?scenario=), by the course page that embeds the playground,
// and brought back after a reload.
import { $, h, replace } from "../dom.js";
import { isolate } from "../model.js";
import { loadScenario, loadScenarios } from "../scenarios.js";
import { extraScenarios, menuText } from "../path.js";
import { isCheckResult, restartedProgress } from "../exercise.js";
import { params } from "../params.js";
import { state, scenariosListed, scenarioRequested, scenarioStarted, scenarioStepChecked, exerciseStarted } from "../state.js";
import { enqueue } from "../jobs.js";
import { refresh } from "../refresh.js";
import { exec, wipe } from "../runner.js";
import { save } from "../saved.js";
import { tell, tellScenario } from "../course.js";
import { confirmDialog, setStatus } from "../view.js";
import { checksView } from "../views.js";

export function wire() {
  $("scenario-select").addEventListener("change", showScenarioChoice);
  $("scenario-load-btn").addEventListener("click", () => enqueue(() => loadScenarioByName($("scenario-select").value)));
  $("scenario-step-btn").addEventListener("click", () => enqueue(() => scenarioStep()));
  $("scenario-run-btn").addEventListener("click", () => enqueue(() => runStage()));
}

// ---- the list ----

// The built-in scenarios. The playground lists them all when it starts. An
// embed fetches only the scenario it runs (its title goes on the load
// button) and lists the others once it is interactive: a course page of
// several embeds then fetches one small file per embed before a click, and
// a started embed waits for that one file alone.
let listing = null;
let ownScenario = null;

// listScenarios loads every built-in scenario, once, into the state and
// the panel's menu, after those from elsewhere (path.js); it resolves to
// the errors of the files left out.
export function listScenarios() {
  listing ??= loadScenarios().then(({ scenarios, errors }) => {
    scenariosListed([...extraScenarios(), ...scenarios]);
    fillScenarioChoice();
    return errors;
  });
  return listing;
}

// loadOwnScenario fetches the embed's own scenario (?scenario=), before
// the reader starts the store; it resolves to it.
export function loadOwnScenario() {
  ownScenario = loadScenario(params.scenario);
  return ownScenario;
}

// startingScenario loads the one scenario an embed's start runs (the course
// page's choice, else ?scenario=); it resolves to the errors.
export async function startingScenario() {
  const name = state.requested || params.scenario;
  try {
    const own = name ? [await (name === params.scenario && ownScenario ? ownScenario : loadScenario(name))] : [];
    scenariosListed([...extraScenarios(), ...own]);
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

// fillScenarioChoice lists the scenarios in the panel's menu, keeping the
// scenario chosen there.
function fillScenarioChoice() {
  const sel = $("scenario-select");
  const chosen = sel.value || params.scenario;
  sel.replaceChildren(...state.scenarios.map((sc) => Object.assign(document.createElement("option"), { value: sc.name, textContent: menuText(sc, state.scenarios) })));
  if (chosen) sel.value = chosen;
  showScenarioChoice();
}

function showScenarioChoice() {
  const sel = $("scenario-select");
  const sc = state.scenarios.find((s) => s.name === sel.value);
  $("scenario-desc").textContent = sc ? sc.description : "";
}

// ---- loading and running one ----

// startScenario empties the playground and loads sc (a built-in one, or
// the one being built: panels/builder.js), an exercise with the
// progress given (a fresh one without) and the folded panels the learner
// opened again (none without).
export async function startScenario(sc, progress = null, unfolded) {
  await wipe();
  scenarioStarted(sc);
  exerciseStarted(sc, progress, unfolded);
  tellScenario(sc.name);
  await refresh();
  save();
  setStatus(`Loaded scenario: ${isolate(sc.title)}`);
  tell("loaded", { title: sc.title, exercise: Boolean(sc.task), steps: sc.steps.length });
}

// scenarioStep runs the loaded scenario's next step, for the panel from
// ("" for this one: the Objects panel shows its outcome).
async function scenarioStep(from = "") {
  const sc = state.scenario;
  if (!sc || sc.results.length >= sc.steps.length) return;
  const i = sc.results.length;
  setStatus(`Running step ${i + 1} of ${sc.steps.length}…`);
  await exec(sc.steps[i], scenarioStepChecked, from);
}

// runStage runs the loaded scenario's remaining steps, for the panel from
// (scenarioStep).
export async function runStage(from = "") {
  while (state.scenario && state.scenario.results.length < state.scenario.steps.length) await scenarioStep(from);
}

// startAgain loads the exercise's scenario again and sets its stage: the
// student's steps go, the attempts, hints and solution shown stay
// (restartedProgress), and so do the panels they unfolded. The course page
// hears of it as of a reset.
export async function startAgain() {
  const ex = state.exercise;
  const sc = ex && (await scenarioNamed(ex.name));
  if (!sc) return;
  await startScenario(sc, restartedProgress(ex.progress), state.unfolded);
  await runStage("task");
  tell("reset", {});
}

// loadScenarioByName loads a scenario the reader chose (or ?scenario=),
// once they confirm that the buckets there go.
export async function loadScenarioByName(name) {
  const sc = await scenarioNamed(name);
  if (!sc) {
    setStatus(`There is no built-in scenario named "${name}".`);
    return;
  }
  if (state.buckets.length > 0 && !(await confirmDialog(`Loading "${isolate(sc.title)}" deletes every bucket in this playground first.`, "Load scenario"))) return;
  await startScenario(sc);
}

// restoreScenario brings back the scenario the page had loaded before a
// reload, as far as its steps had run, and an exercise's progress (see
// restoredProgress in exercise.js). A scenario no longer built in, or
// whose steps changed since, is left out: the store keeps what its steps
// did.
export async function restoreScenario(saved) {
  const name = saved.scenario?.name;
  const sc = typeof name === "string" ? await scenarioNamed(name) : undefined;
  if (!sc || !sameTitles(saved.scenario.titles, sc.titles) || !isResults(saved.scenario.results, sc.steps.length)) return;
  scenarioStarted(sc, saved.scenario.results);
  exerciseStarted(sc, saved.exercise?.name === sc.name ? saved.exercise.progress : null);
  $("scenario-select").value = sc.name;
  showScenarioChoice();
  tellScenario(sc.name);
}

const sameTitles = (saved, titles) => Array.isArray(saved) && saved.length === titles.length && saved.every((t, i) => t === titles[i]);

// isResults: the results of a scenario's first steps, as scenarioStep
// records them.
const isResults = (results, steps) => Array.isArray(results) && results.length <= steps &&
  results.every((r) => Array.isArray(r?.checks) && r.checks.every(isCheckResult));

// ---- the course page's requests ----

// followCourse follows a request of the course page that embeds the
// playground. Before the reader starts the store, a load only chooses what
// the start loads: the page downloads nothing until the reader asks.
export function followCourse(request) {
  if (!state.store) {
    if (request.type !== "load") return Promise.reject(new Error("the reader has not started the playground yet"));
    scenarioRequested(request.scenario);
    tellScenario(request.scenario);
    setStatus(`Click to load (scenario ${isolate(request.scenario)}).`);
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
export async function loadRequested(name) {
  const sc = await scenarioNamed(name);
  if (!sc) {
    tell("error", { message: `minis3:load: there is no built-in scenario named ${name}` });
    return;
  }
  $("scenario-select").value = sc.name;
  showScenarioChoice();
  await startScenario(sc);
}

// ---- the view ----

export function render(state) {
  const sc = state.scenario;
  const list = $("scenario-steps");
  if (!sc) {
    replace(list);
    $("scenario-summary").textContent = "";
    $("scenario-step-btn").disabled = true;
    $("scenario-run-btn").disabled = true;
    return;
  }
  const done = sc.results.length;
  $("scenario-step-btn").disabled = state.busy || done >= sc.steps.length;
  $("scenario-run-btn").disabled = state.busy || done >= sc.steps.length;
  // The steps' checks are what the store is expected to do: the scenario's
  // claims about S3 and the chapter, not a learner's score, so they are
  // reported as met, and in red only when one is not.
  const allChecks = sc.results.flatMap((r) => r.checks);
  const failed = allChecks.filter((c) => !c.pass).length;
  const expectations = (n) => `${n} expectation${n === 1 ? "" : "s"}`;
  let summary = `${isolate(sc.title)}: ${done} of ${sc.steps.length} steps run`;
  if (allChecks.length > 0) summary += failed === 0 ? ` — the store did what each step expects (${expectations(allChecks.length)})` : ` — ${failed} of ${expectations(allChecks.length)} not met`;
  $("scenario-summary").textContent = summary;
  $("scenario-summary").className = `scenario-summary${failed > 0 ? " fail" : ""}`;
  replace(list, sc.steps.map((s, i) => {
    const r = sc.results[i];
    const status = !r ? "pending" : r.checks.length === 0 ? "done" : r.checks.every((c) => c.pass) ? "pass" : "fail";
    return h("li", { class: `sc-step ${status}`, "aria-current": i === done ? "step" : null },
      h("span", { class: "sc-title" }, s.note ? `${sc.titles[i]} — ${isolate(s.note)}` : sc.titles[i]),
      r ? checksView(r.checks) : s.expect ? h("p", { class: "hint" }, "has checks") : null);
  }));
}
