// The S3 lifecycle configuration panel (#s3-panel): the configuration
// stored on the selected bucket, its editors (a form, JSON, XML: the
// form's fields are built by s3editor.js), and what a preview or a run of
// it did, now or at the midnights a clock move passed.
import { $, h, replace } from "../dom.js";
import { fmt, isolate } from "../model.js";
import { explain } from "../s3.js";
import { showDate } from "../dates.js";
import { rowsToConfig, emptyRule, emptyTransition, emptyNoncurrentTransition } from "../s3config.js";
import { showMode, renderS3Rows, readS3Rows, renderS3Errors } from "../s3editor.js";
import { state, s3ModeChosen, s3FormTyped, s3JsonTyped, s3XmlTyped, s3Reverted } from "../state.js";
import { actionList, diffView } from "../views.js";
import { enqueue } from "../jobs.js";
import { refresh } from "../refresh.js";
import { run } from "../runner.js";

export function wire() {
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

// The drafts the editors were last built from (state.s3.version): they are
// built again only when the drafts start again from the stored
// configuration, so that a render never takes what a learner is typing.
let drawnDrafts = -1;

export function render(state) {
  renderEditors(state);
  renderS3Status(state);
  renderS3Out(state);
}

// renderEditors shows the editor of the mode chosen, and rebuilds the
// editors' views when their drafts started again.
function renderEditors(state) {
  const s3 = state.s3;
  showMode(s3.mode);
  if (drawnDrafts === s3.version) return;
  drawnDrafts = s3.version;
  renderS3Rows(s3.form);
  $("s3-json").value = s3.json;
  $("s3-xml").value = s3.xml;
}

const when = (state, now) => `${showDate(state.origin + now)} (t = ${fmt(now)} s)`;

// renderS3Out shows the last preview of an S3 lifecycle run, and what the
// last run did: run now, or the daily runs of a clock move.
function renderS3Out(state) {
  const out = [];
  if (state.preview?.source === "s3") {
    out.push(h("section", { class: "preview-out", "aria-label": "S3 preview" },
      h("h3", {}, `Preview of a run at ${when(state, state.preview.now)} (nothing changed)`),
      state.preview.actions.length === 0 ? h("p", { class: "none" }, "No actions: nothing is due.") : actionList(state.preview.actions)));
  }
  const last = state.lastS3;
  if (last) {
    const runs = last.runs.map((r) => [h("h4", {}, `Run at ${when(state, r.at)} on `, h("code", {}, r.bucket)), actionList(r.actions)]);
    out.push(h("section", { class: "tick-out", "aria-label": "Last S3 run" },
      h("h3", {}, last.daily ? `Daily runs as the clock moved to ${when(state, last.now)}` : `Run now at ${when(state, last.now)}`),
      last.runs.length === 0 ? h("p", { class: "none" }, "No actions: nothing was due.") : runs,
      last.diff ? [h("h4", {}, "What changed in ", h("code", {}, last.bucket)), diffView(last.diff)] : null));
  }
  replace($("s3-out"), out);
}

// renderS3Status says what is stored on the bucket, and shows the last
// error of the S3 configuration steps: its S3 code and message, as text.
function renderS3Status(state) {
  const stored = state.s3.config;
  $("s3-stored").textContent = !state.bucket ? "No bucket selected."
    : stored ? `Stored on ${isolate(state.bucket)}: ${stored.Rules.length} rule${stored.Rules.length === 1 ? "" : "s"} (${stored.Rules.map((r) => `${isolate(r.ID)} ${r.Status}`).join(", ")}).`
      : `Nothing stored on ${isolate(state.bucket)} (GET ?lifecycle: NoSuchLifecycleConfiguration). The editors hold an example; Save stores it.`;
  const e = state.s3.error;
  replace($("s3-error"), e ? h("div", { class: "error-box", role: "alert" },
    h("strong", {}, e.code), ` — ${explain(e.code)}`,
    e.message && e.message !== e.code ? h("p", { class: "raw" }, e.message) : null) : null);
  for (const id of ["s3-save-btn", "s3-revert-btn", "s3-preview-btn", "s3-run-btn"]) $(id).disabled = !state.bucket;
  $("s3-delete-btn").disabled = !state.bucket || !stored;
}
