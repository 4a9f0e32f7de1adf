// The Terminal panel (#terminal-panel): one command line, and the screen
// above it (a role=log element) that shows each line run with what it
// printed, as text. Enter runs the line as a step (steps.js command), so
// that the page logs it, shows its requests in the HTTP view, reads the
// store again and draws the stacks and the clock, as for any step; ↑ and ↓
// go through the terminal's history (its state, kept across reloads); Tab
// completes a command or option name (term.complete).
//
// The playground shows the terminal unless ?hide= or ?show= leaves it
// out; an embed shows it when ?show= names it, or when its scenario types
// commands (a command step, in its stage, its solution or a check). It
// sits under the stacks, but under the task of an exercise done in it:
// the command line beside the clock and the stacks it changes, on the
// first screen.
import { $, h, patch } from "../dom.js";
import { params } from "../params.js";
import { state } from "../state.js";
import { enqueue } from "../jobs.js";
import { exec } from "../runner.js";
import { panelsUsed } from "../exercise.js";
import { foldedAway } from "./folds.js";

const input = () => $("terminal-input");

export function wire() {
  input().addEventListener("keydown", onKey);
  input().addEventListener("input", () => {
    recall = null;
    showCompletions([]);
  });
}

function onKey(ev) {
  if (ev.isComposing || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  switch (ev.key) {
    case "Enter":
      ev.preventDefault();
      submit();
      break;
    case "ArrowUp":
      ev.preventDefault();
      browse(-1);
      break;
    case "ArrowDown":
      ev.preventDefault();
      browse(+1);
      break;
    case "Tab":
      // Tab completes what is typed; on an empty line, or with nothing to
      // complete, it moves the focus on as anywhere else.
      if (!ev.shiftKey && complete()) ev.preventDefault();
      break;
    case "Escape":
      showCompletions([]);
      break;
  }
}

// submit runs the line typed, once the steps before it have run.
function submit() {
  const line = input().value;
  input().value = "";
  recall = null;
  showCompletions([]);
  if (line.trim() === "") return;
  enqueue(() => exec({ op: "command", line }));
}

// typeLine shows line on the command line, runs it and clears it again:
// a solution's commands, typed for the student. It runs inside a job.
export async function typeLine(line) {
  input().value = line;
  try {
    await exec({ op: "command", line });
  } finally {
    input().value = "";
  }
}

// ---- history ----

// While ↑ and ↓ go through the history: the lines, the one shown (its
// index; lines.length is the line being typed) and that line.
let recall = null;

function browse(step) {
  if (!state.terminal) return;
  recall ??= { lines: state.terminal.state().history, at: -1, draft: input().value };
  if (recall.at === -1) recall.at = recall.lines.length;
  const at = Math.min(Math.max(recall.at + step, 0), recall.lines.length);
  if (at === recall.at) return;
  recall.at = at;
  const el = input();
  el.value = at === recall.lines.length ? recall.draft : recall.lines[at];
  el.setSelectionRange(el.value.length, el.value.length);
}

// ---- completion ----

// complete completes the last word of the line, when the caret is at its
// end: with the one word that fits, or as far as the words that fit
// agree; when they agree no further, it lists them. It returns whether
// there was anything to complete.
function complete() {
  const el = input();
  const line = el.value;
  if (!state.terminal || line.trim() === "" || el.selectionStart !== line.length || el.selectionEnd !== line.length) return false;
  const words = state.terminal.complete(line);
  if (words.length === 0) return false;
  const partial = /\S*$/.exec(line)[0];
  const common = words.length === 1 ? `${words[0]} ` : commonPrefix(words);
  if (common.length > partial.length) {
    el.value = line.slice(0, line.length - partial.length) + common;
    showCompletions([]);
  } else {
    showCompletions(words);
  }
  return true;
}

function commonPrefix(words) {
  let prefix = words[0];
  for (const w of words) {
    while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

function showCompletions(words) {
  const el = $("terminal-completions");
  el.hidden = words.length === 0;
  el.textContent = words.join("  ");
}

// ---- the screen ----

// The view of each line on the screen (a line's output never changes), so
// that a render builds only the new ones.
const views = new WeakMap();

function lineView(entry) {
  return h("div", { class: "term-entry", "data-status": String(entry.status) },
    h("p", { class: "term-cmd" }, h("span", { class: "term-prompt", "aria-hidden": "true" }, "$ "), h("span", { class: "term-text" }, entry.line)),
    entry.stdout !== "" ? h("pre", { class: "term-out" }, entry.stdout) : null,
    entry.stderr !== "" ? h("pre", { class: "term-err" }, entry.stderr) : null);
}

// The lines the screen shows (state.terminalLog, which a change replaces).
let onScreen = null;

// render draws the screen when its lines changed. The log counts the lines
// run in data-lines, which a test can wait on.
export function render(state) {
  $("terminal-panel").hidden = !shown(state);
  place(state);
  const log = $("terminal-log");
  log.dataset.lines = String(state.terminalLines);
  if (onScreen === state.terminalLog) return;
  onScreen = state.terminalLog;
  patch(log, state.terminalLog.map((e) => {
    let view = views.get(e);
    if (!view) {
      view = lineView(e);
      views.set(e, view);
    }
    return view;
  }));
  keepAtBottom(log);
}

// keepAtBottom scrolls the screen to its last line before the next frame
// is drawn: reading its height there costs no extra layout, however many
// lines ran since the last frame.
let scrolling = false;
function keepAtBottom(log) {
  if (scrolling) return;
  scrolling = true;
  requestAnimationFrame(() => {
    scrolling = false;
    log.scrollTop = log.scrollHeight;
  });
}

// place puts the panel under the task while an exercise done in the
// terminal shows, else under the stacks. The command line keeps the focus
// it has.
function place(state) {
  const panel = $("terminal-panel");
  const ex = state.exercise;
  const above = ex && params.shows("task") && panelsUsed(ex.task).has("terminal") ? $("task") : $("stacks-panel");
  if (above.nextElementSibling === panel) return;
  const focused = panel.contains(document.activeElement) ? document.activeElement : null;
  above.after(panel);
  focused?.focus({ preventScroll: true });
}

function shown(state) {
  if (!params.shows("terminal") || foldedAway(state, "terminal")) return false;
  if (!params.embed || params.asks("terminal")) return true;
  return typesCommands(state.scenario?.steps ?? []) || typesCommands(state.exercise?.task.solution.steps ?? []) ||
    Boolean(state.exercise?.task.checks.some((c) => c.ran !== undefined || c.did?.op === "command"));
}

const typesCommands = (steps) => steps.some((s) => s.op === "command");
