// The page's own state kept across reloads: its steps, history, rules,
// selected bucket, the scenario loaded and an exercise's progress, in
// localStorage under the store's database (a store in memory keeps
// nothing), and the terminal's state (its files, history and what undo
// needs) beside it, under a key of its own: a terminal too large to keep
// never stops the rest from being kept. Other tabs on the same database
// are told of each change.
import { state, s3ConfigStale, marksCleared } from "./state.js";
import { enqueue } from "./jobs.js";
import { refresh } from "./refresh.js";

const saveKey = () => `minis3-playground:${state.dbName}`;
const terminalKey = () => `minis3-terminal:${state.dbName}`;

// save keeps the page's state, and tells the other tabs that something
// changed.
export function save() {
  if (state.storage !== "indexeddb") return;
  tellOtherTabs();
  keep();
}

// keep keeps the page's state without telling the other tabs: for a
// choice that changes nothing they show, such as the bucket selected.
export function keep() {
  if (state.storage !== "indexeddb") return;
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
  try {
    if (state.terminal) localStorage.setItem(terminalKey(), JSON.stringify(state.terminal.state()));
  } catch {
    // Storage full or blocked: the terminal starts afresh after a reload,
    // rather than as it was some commands ago.
    try {
      localStorage.removeItem(terminalKey());
    } catch {
      // Blocked: nothing is kept.
    }
  }
}

// loadSaved is what save kept for this database, or null.
export function loadSaved() {
  if (state.storage !== "indexeddb") return null;
  try {
    const raw = localStorage.getItem(saveKey());
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

// loadTerminal is the terminal's state that keep kept (term.state()), or
// null.
export function loadTerminal() {
  if (state.storage !== "indexeddb") return null;
  try {
    const raw = localStorage.getItem(terminalKey());
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

// ---- other tabs on the same database ----

// Two playground tabs of one database share the store: the JS API notices
// the other writer's commits and reloads before each operation, so nothing
// is lost. A tab also tells the others when it has done something, so that
// they show it at once rather than at their next action.
let otherTabs = null;

export function listenToOtherTabs() {
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
