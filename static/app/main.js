// The playground's boot: read the URL, offer the embed's load button or
// start at once, open the store, wire the panels, bring back what the page
// kept before a reload, and draw the page. What happens after that is in
// the panels (panels/), which turn the reader's actions into steps
// (runner.js runs them as steps.js says) and draw the page's state
// (state.js) after every change.
import { $ } from "./dom.js";
import { decodeShare } from "./share.js";
import { params } from "./params.js";
import { state, storeOpened, terminalOpened, restored, setRuleRows } from "./state.js";
import { enqueue } from "./jobs.js";
import { readStore } from "./refresh.js";
import { loadSaved, loadTerminal, listenToOtherTabs } from "./saved.js";
import { connectCourse, tell } from "./course.js";
import { loadSources, startingName } from "./path.js";
import { addPanel, renderAll, setStatus } from "./view.js";
import { keepOffline } from "./offline.js";
import { keepReadingOrder } from "./layout.js";
import * as header from "./panels/header.js";
import * as clock from "./panels/clock.js";
import * as bucket from "./panels/bucket.js";
import * as stacks from "./panels/stacks.js";
import * as goal from "./panels/goal.js";
import * as sidebyside from "./panels/sidebyside.js";
import * as timeline from "./panels/timeline.js";
import * as rules from "./panels/rules.js";
import * as s3lifecycle from "./panels/s3lifecycle.js";
import * as history from "./panels/history.js";
import * as objects from "./panels/objects.js";
import * as scenarios from "./panels/scenarios.js";
import * as folds from "./panels/folds.js";
import * as task from "./panels/task.js";
import * as path from "./panels/path.js";
import * as terminal from "./panels/terminal.js";
import * as builder from "./panels/builder.js";

// The panels by their names in ?show= and ?hide=, and the sections they
// hide.
const PANELS = {
  clock: "clock-panel", bucket: "bucket-panel", actions: "actions-panel", stacks: "stacks-panel",
  compare: "compare-panel", timeline: "timeline-panel", lifecycle: "lifecycle-panel", s3: "s3-panel",
  scenarios: "scenarios-panel", history: "history-panel", http: "http-panel", task: "task",
  terminal: "terminal-panel",
};

// start loads the store and the page. notices are messages for the reader
// (a damaged share link), shown once the page is ready. Performance marks
// and measures (see BENCHMARKS.md): "minis3:load" runs from navigation
// start to "minis3:interactive" (the first render, with every control
// wired).
async function start(shared, notices) {
  $("load-btn").hidden = true;
  $("loader-progress").hidden = false;
  $("loader-text").textContent = "Compiling the WebAssembly store…";
  setStatus("Loading…");
  const [minis3, scenarioErrors] = await Promise.all([
    import("../minis3.js").then((m) => m.default),
    loadSources().then((sources) => {
      showSourceErrors(sources);
      return params.embed ? scenarios.startingScenario() : scenarios.listScenarios();
    }),
  ]);
  if (scenarioErrors.length > 0) notices.push(`Some built-in scenarios could not be loaded: ${scenarioErrors.join("; ")}`);
  const useMemory = shared !== null || (params.embed && !params.frame);
  const dbName = useMemory ? "" : params.embed ? `minis3-embed-${params.scenario || "blank"}-${params.frame}` : "playground";
  const minPartSize = objects.MIN_PART_SIZE;
  storeOpened(await minis3.open(useMemory ? { memory: true, minPartSize } : { db: dbName, minPartSize }), dbName);
  performance.mark("minis3:store-open");

  addPanel("header", header);
  addPanel("clock", clock);
  addPanel("bucket", bucket);
  addPanel("stacks", stacks);
  addPanel("goal", goal);
  addPanel("sidebyside", sidebyside);
  addPanel("timeline", timeline);
  addPanel("rules", rules);
  addPanel("s3lifecycle", s3lifecycle);
  addPanel("history", history);
  addPanel("objects", objects);
  addPanel("scenarios", scenarios);
  addPanel("folds", folds);
  // The terminal before the task, which keeps its command line in view.
  addPanel("terminal", terminal);
  addPanel("task", task);
  addPanel("path", path);
  addPanel("builder", builder);
  listenToOtherTabs();

  const saved = loadSaved();
  terminalOpened(await openTerminal(state.store, notices));
  if (saved) {
    restored({ steps: saved.steps || [], history: saved.history || [], bucket: saved.bucket || "" });
    setRuleRows(saved.rows || []);
    await scenarios.restoreScenario(saved);
  }
  builder.restoreBuilder();
  // The app is shown with its first render, in one task: shown before the
  // store is read, the browser laid out and painted the empty app while it
  // waited for the store, and then again with the data.
  await readStore();
  $("loader").hidden = true;
  $("app").hidden = false;
  renderAll();
  if (shared) await enqueue(() => header.restoreShare(shared));
  else if (state.requested) await enqueue(() => scenarios.loadRequested(state.requested));
  else if (startingName(saved)) await enqueue(() => scenarios.loadScenarioByName(startingName(saved)));
  else setStatus("Ready.");
  if (notices.length > 0) setStatus(notices.join(" "));
  performance.mark("minis3:interactive");
  performance.measure("minis3:load", { end: "minis3:interactive" });
  document.body.dataset.ready = "true";
  tell("ready", { storage: state.storage });
  keepOffline();
  if (params.embed) {
    const errors = await scenarios.listScenarios();
    if (errors.length > 0) setStatus(`Some built-in scenarios could not be loaded: ${errors.join("; ")}`);
  }
}

// openTerminal makes the page's terminal on the store, with the state it
// had before a reload; a state the terminal cannot take is reported, and
// the terminal starts afresh.
async function openTerminal(store, notices) {
  const saved = loadTerminal();
  if (saved === null) return store.terminal();
  try {
    return await store.terminal(saved);
  } catch (err) {
    notices.push(`The terminal's files and history could not be restored (${err.message}); it starts afresh.`);
    return store.terminal();
  }
}

// showSourceErrors shows, above the playground, each scenario or course
// the link names that could not be loaded, and why.
function showSourceErrors({ errors }) {
  $("source-error").hidden = errors.length === 0;
  $("source-error").textContent = errors.join("\n");
}

function fail(err) {
  $("loader").hidden = false;
  $("loader-progress").hidden = true;
  $("loader-error").hidden = false;
  $("loader-error").textContent = `The playground could not start: ${err.message || err}`;
  setStatus("Failed to start.");
}

function boot() {
  for (const [name, id] of Object.entries(PANELS)) {
    if (!params.shows(name)) $(id).hidden = true;
  }
  document.body.classList.toggle("embed", params.embed);
  keepReadingOrder($("app"));
  // A damaged share link is reported, and the playground opens without it.
  let shared = null;
  const notices = [];
  if (params.unknownPanels.length > 0) {
    notices.push(`show= and hide= name no panel ${params.unknownPanels.map((n) => JSON.stringify(n.slice(0, 40))).join(", ")}: ignored (the panels are ${Object.keys(PANELS).join(", ")}).`);
  }
  try {
    shared = decodeShare(location.hash.slice(1));
  } catch (err) {
    notices.push(`${err.message} The playground opened without it.`);
  }
  // Pasting another share link into the address bar changes only the
  // fragment; load the page again to open it.
  addEventListener("hashchange", () => {
    if (location.hash.startsWith("#s=") || location.hash.startsWith("#scenario=")) location.reload();
  });
  if (params.embed) {
    connectCourse({ win: window, param: params.origin, frame: params.frame, scenario: params.scenario, onRequest: scenarios.followCourse, warn: (text) => console.warn(text) });
    $("loader-progress").hidden = true;
    $("loader-text").textContent = "The store is a WebAssembly module of a few megabytes; it loads when you ask.";
    if (params.scenario) {
      // A scenario that cannot be loaded is reported when the reader starts.
      scenarios.loadOwnScenario().then((sc) => { $("loader-title").textContent = sc.title; }, () => {});
    } else if (params.scenarioUrl || location.hash.startsWith("#scenario=")) {
      loadSources().then((sources) => {
        if (sources.own) $("loader-title").textContent = sources.own.title;
        showSourceErrors(sources);
      });
    }
    $("load-btn").hidden = false;
    setStatus("Click to load.");
    $("load-btn").addEventListener("click", () => start(shared, notices).catch(fail), { once: true });
    return;
  }
  start(shared, notices).catch(fail);
}

boot();
