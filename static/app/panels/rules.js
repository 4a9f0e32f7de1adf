// The chapter's Lifecycle rules panel (#lifecycle-panel): the rule
// editor, Preview and Tick, and what the last preview and tick did.
import { $, h, replace } from "../dom.js";
import { fmt } from "../model.js";
import { state, setRuleRows, ruleRowsTyped, rulesEdited } from "../state.js";
import { actionList, diffView } from "../views.js";
import { enqueue } from "../jobs.js";
import { readRuleViews } from "../refresh.js";
import { renderAll } from "../view.js";
import { run } from "../runner.js";

export function wire() {
  $("rules").addEventListener("input", () => {
    ruleRowsTyped(readRows());
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
    setRuleRows(rows);
    rulesChanged();
  });
  $("add-rule-btn").addEventListener("click", () => {
    const rows = readRows();
    rows.push({ id: `rule-${rows.length + 1}`, prefix: "", current: "", noncurrent: "" });
    setRuleRows(rows);
    rulesChanged();
    document.getElementById(`rule-${rows.length - 1}-prefix`).focus();
  });
  $("preview-btn").addEventListener("click", () => run({ op: "preview", bucket: state.bucket, rules: state.rules }));
  $("tick-btn").addEventListener("click", () => run({ op: "tick", bucket: state.bucket, rules: state.rules }));
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
    await readRuleViews();
    renderAll();
  });
}

// The rows the editor was last built from (state.rowsVersion): it is built
// again only when they were set from outside it, never while a learner
// types.
let drawnRows = -1;

export function render(state) {
  if (drawnRows !== state.rowsVersion) {
    drawnRows = state.rowsVersion;
    renderRuleRows(state.rows);
  }
  renderRuleErrors(state.ruleErrors);
  $("preview-btn").disabled = state.ruleErrors.length > 0 || !state.bucket;
  $("tick-btn").disabled = state.ruleErrors.length > 0 || !state.bucket;
  $("rules-error").hidden = state.ruleErrors.length === 0;
  $("rules-error").textContent = state.ruleErrors.length === 0 ? "" : "Fix the rules above before a preview or tick.";
  renderLifecycle(state);
}

// renderLifecycle shows the last preview of the next tick, and what the
// last tick did.
function renderLifecycle(state) {
  const out = [];
  if (state.preview?.source === "chapter") {
    out.push(h("section", { class: "preview-out", "aria-label": "Preview" },
      h("h3", {}, `The next tick at now = ${fmt(state.preview.now)} would take (a preview: nothing changed)`),
      actionList(state.preview.actions)));
  }
  if (state.lastTick) {
    const d = state.lastTick.diff;
    out.push(h("section", { class: "tick-out", "aria-label": "Last tick" },
      h("h3", {}, `Tick at now = ${fmt(state.lastTick.now)}`),
      actionList(state.lastTick.actions),
      h("h4", {}, "What changed"),
      diffView(d)));
  }
  replace($("lifecycle-out"), out);
}

// renderRuleErrors writes each problem next to its field.
function renderRuleErrors(errors) {
  for (const el of document.querySelectorAll("#rules .field-error")) {
    el.hidden = true;
    el.textContent = "";
  }
  for (const el of document.querySelectorAll("#rules input")) el.removeAttribute("aria-invalid");
  for (const e of errors) {
    for (const field of ["id", "current", "noncurrent", "rule"]) {
      if (!e[field]) continue;
      const msg = document.getElementById(`rule-${e.row}-${field}-error`);
      msg.textContent = e[field];
      msg.hidden = false;
      const input = document.getElementById(`rule-${e.row}-${field}`);
      if (input) input.setAttribute("aria-invalid", "true");
    }
  }
}

// renderRuleRows rebuilds the editor from rows of strings.
function renderRuleRows(rows) {
  const field = (i, name, label, value, hint) => h("div", { class: "rule-field" },
    h("label", { for: `rule-${i}-${name}` }, label),
    h("input", { id: `rule-${i}-${name}`, "data-field": name, value, autocomplete: "off", spellcheck: "false", inputmode: hint, "aria-describedby": `rule-${i}-${name}-error` }),
    h("span", { class: "field-error", id: `rule-${i}-${name}-error`, hidden: true }));
  replace($("rules"), rows.map((r, i) => h("fieldset", { class: "rule", "data-row": i },
    h("legend", {}, `Rule ${i + 1}`),
    field(i, "id", "ID", r.id),
    field(i, "prefix", "Prefix", r.prefix),
    field(i, "current", "Current after (s)", r.current, "decimal"),
    field(i, "noncurrent", "Noncurrent after (s)", r.noncurrent, "decimal"),
    h("p", { class: "field-error", id: `rule-${i}-rule-error`, hidden: true }),
    h("div", { class: "row" },
      h("button", { type: "button", class: "small", "data-rule-act": "up", "data-row": i, disabled: i === 0, "aria-label": `Move rule ${i + 1} up` }, "↑"),
      h("button", { type: "button", class: "small", "data-rule-act": "down", "data-row": i, disabled: i === rows.length - 1, "aria-label": `Move rule ${i + 1} down` }, "↓"),
      h("button", { type: "button", class: "small", "data-rule-act": "remove", "data-row": i, "aria-label": `Remove rule ${i + 1}` }, "Remove")),
  )));
}
