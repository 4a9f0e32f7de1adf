// Drawing the page: its panels, the status line and the confirmation
// dialog. A panel (panels/) is a module with render(state), which shows
// its part of the state, and, when it has controls, wire(), which listens
// to them beside that rendering. main.js adds every panel here; renderAll
// draws them all after a change, render a few by name.
import { $ } from "./dom.js";
import { state } from "./state.js";

const panels = new Map();

// addPanel wires a panel and adds it, as name, to those renderAll draws,
// in the order added.
export function addPanel(name, panel) {
  panel.wire?.();
  panels.set(name, panel);
}

// render draws the panels named.
export function render(...names) {
  for (const name of names) panels.get(name).render(state);
}

// Performance marks and measures (see BENCHMARKS.md): "minis3:render" is
// one renderAll.
export function renderAll() {
  performance.mark("minis3:render-start");
  for (const panel of panels.values()) panel.render(state);
  performance.measure("minis3:render", "minis3:render-start");
}

export function setStatus(text) {
  $("status").textContent = text;
}

// confirmDialog asks the reader to confirm text with a button labelled
// okLabel; it resolves to whether they did.
export function confirmDialog(text, okLabel) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = okLabel;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
  });
}
