// What an exercise folds away (#folds-panel). While an exercise's task is
// shown (in a page whose URL does not choose its panels with show=), the
// panels and parts of panels it is not done in fold away, so that its
// task, the clock, the controls it asks for and the stacks share the first
// screen, and an embed stays about a screen high; this panel has a button
// for each, which brings it back. The views that show when each version
// is due (side by side, the time axis) state what a task may ask the
// student to find: they come back once the task is solved or its
// solution shown.
import { $, h, replace } from "../dom.js";
import { params } from "../params.js";
import { panelsUsed } from "../exercise.js";
import { state, panelUnfolded } from "../state.js";
import { renderAll } from "../view.js";

// What folds: its name (as steps.js and ?hide= name it), its elements (a
// panel, or the elements of a part of one, data-part="name"), its
// button's text, the panel it is a part of (whose ?show= and ?hide= it
// follows), whether it shows when each version is due, and whether the
// panel shows or hides itself (own), asking foldedAway.
const FOLDS = [
  { name: "lifecycle", sel: "#lifecycle-panel", label: "The chapter's rules" },
  { name: "days", sel: '[data-part="days"]', label: "Clock by days", partOf: "clock" },
  { name: "bucket", sel: "#bucket-panel", label: "Bucket" },
  { name: "actions", sel: "#actions-panel", label: "Objects" },
  { name: "tags", sel: '[data-part="tags"]', label: "Tags and storage class", partOf: "actions" },
  { name: "multipart", sel: '[data-part="multipart"]', label: "Multipart upload", partOf: "actions" },
  { name: "s3", sel: "#s3-panel", label: "S3 lifecycle configuration" },
  { name: "compare", sel: "#compare-panel", label: "Side by side", showsDue: true },
  { name: "timeline", sel: "#timeline-panel", label: "Time axis", showsDue: true },
  { name: "terminal", sel: "#terminal-panel", label: "Terminal", own: true },
  { name: "scenarios", sel: "#scenarios-panel", label: "Scenarios" },
  { name: "history", sel: "#history-panel", label: "History" },
  { name: "http", sel: "#http-panel", label: "HTTP" },
];

const elementsOf = (fold) => document.querySelectorAll(fold.sel);

export function wire() {
  $("folds").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-fold]");
    if (!b) return;
    const fold = FOLDS.find((f) => f.name === b.dataset.fold);
    panelUnfolded(fold.name);
    if (fold.partOf) panelUnfolded(fold.partOf);
    renderAll();
    focusOn(elementsOf(fold)[0]);
  });
}

// focusOn takes the reader to a part just unfolded: a panel itself (which
// its heading names), or a part's first control.
function focusOn(el) {
  const target = el.matches(".panel") ? el : el.querySelector("button, input, select, textarea") ?? el;
  if (!target.matches("button, input, select, textarea") && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus();
}

// folded lists what the exercise folds away now, each with whether it can
// come back yet.
function folded(state) {
  const ex = state.exercise;
  if (!ex || params.chosen || !params.shows("task")) return [];
  const used = panelsUsed(ex.task);
  // A panel stays when the exercise is done in it or in a part of it.
  const stays = (f) => used.has(f.name) || FOLDS.some((part) => part.partOf === f.name && used.has(part.name));
  const revealed = ex.progress.solutionShown || Boolean(ex.progress.last?.solved);
  return FOLDS.filter((f) => params.shows(f.partOf ?? f.name) && !stays(f) && !state.unfolded.has(f.name))
    .map((f) => ({ ...f, locked: f.showsDue && !revealed }));
}

// The buttons last drawn, as their names.
let drawn = "";

// foldedAway: the exercise loaded folds the panel of this name away now.
export const foldedAway = (state, name) => folded(state).some((f) => f.name === name);

export function render(state) {
  const folds = folded(state);
  const away = new Set(folds.map((f) => f.name));
  for (const f of FOLDS) {
    if (f.own || !params.shows(f.partOf ?? f.name)) continue;
    for (const el of elementsOf(f)) el.hidden = away.has(f.name);
  }
  const offered = folds.filter((f) => !f.locked);
  const names = offered.map((f) => f.name).join(",");
  if (names !== drawn) {
    drawn = names;
    replace($("folds"), offered.map((f) => h("button", { type: "button", class: "small", "data-fold": f.name }, f.label)));
  }
  $("folds-locked").hidden = !folds.some((f) => f.locked);
  $("folds-panel").hidden = folds.length === 0;
}
