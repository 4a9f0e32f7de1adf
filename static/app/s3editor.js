// The S3 lifecycle configuration editor: the form's rules (rows of
// s3config.js) as fieldsets, read back from the DOM, and the three views
// of one configuration (form, JSON, XML). Only textContent and attributes,
// never HTML.
import { h, $, replace } from "./dom.js";
import { TRANSITION_CLASSES } from "./s3config.js";

const MODES = ["form", "json", "xml"];

// The longest label, with a soft hyphen where a narrow column may break it.
const NEWER = "NewerNoncurrent\u00adVersions";

// showMode shows the view of mode ("form", "json" or "xml") and hides the
// others.
export function showMode(mode) {
  for (const m of MODES) $(`s3-${m}-view`).hidden = m !== mode;
  for (const radio of document.querySelectorAll('input[name="s3-mode"]')) radio.checked = radio.value === mode;
}

const fieldId = (i, name) => `s3r-${i}-${name}`;

function input(i, name, label, value, attrs = {}) {
  const id = fieldId(i, name);
  return h("div", { class: "rule-field" },
    h("label", { for: id }, label),
    h("input", { id, "data-s3-field": name, value, autocomplete: "off", spellcheck: "false", "aria-describedby": `${id}-error`, ...attrs }),
    h("span", { class: "field-error", id: `${id}-error`, hidden: true }));
}

function classSelect(id, value, attrs) {
  const known = TRANSITION_CLASSES.includes(value) || value === "";
  return h("select", { id, ...attrs },
    h("option", { value: "", selected: value === "" }, "(none)"),
    TRANSITION_CLASSES.map((c) => h("option", { value: c, selected: c === value }, c)),
    known ? null : h("option", { value, selected: true }, value));
}

// A transition's fields, for the rule's list of transitions (kind "t") or
// of noncurrent transitions ("nt").
function transitionRow(i, kind, j, t) {
  const base = `${kind}${j}`;
  const n = j + 1;
  const what = kind === "t" ? `transition ${n}` : `noncurrent transition ${n}`;
  const fields = kind === "t"
    ? [input(i, `${base}-days`, "Days", t.days, { inputmode: "numeric", "data-s3-field": null, "data-sub": "days" }),
      input(i, `${base}-date`, "or Date", t.date, { placeholder: "YYYY-MM-DD", "data-s3-field": null, "data-sub": "date" })]
    : [input(i, `${base}-days`, "NoncurrentDays", t.days, { inputmode: "numeric", "data-s3-field": null, "data-sub": "days" }),
      input(i, `${base}-newer`, NEWER, t.newer, { inputmode: "numeric", "data-s3-field": null, "data-sub": "newer" })];
  const classId = fieldId(i, `${base}-class`);
  return h("div", { class: "s3-transition", "data-kind": kind, "data-j": j },
    fields,
    h("div", { class: "rule-field" }, h("label", { for: classId }, "Storage class"), classSelect(classId, t.storageClass, { "data-sub": "storageClass" })),
    h("div", { class: "rule-field s3-remove" },
      h("button", { type: "button", class: "small", "data-s3-act": "remove-transition", "data-kind": kind, "data-row": i, "data-j": j, "aria-label": `Remove ${what} of rule ${i + 1}` }, "Remove")));
}

// group is one part of a rule: a disclosure, open when any of its fields
// holds something (or always, for the filter), so that a rule shows what
// it says and the rest stays one click or Enter away.
function group(name, title, open, ...fields) {
  return h("details", { class: "s3-group", "data-group": name, open },
    h("summary", {}, title),
    h("div", { class: "s3-fields" }, fields));
}

// renderS3Rows rebuilds the form from rows.
export function renderS3Rows(rows) {
  if (rows.length === 0) {
    replace($("s3-rules"), h("p", { class: "empty" }, "No S3 rules. A configuration needs at least one: add one, or insert AWS's example (Delete configuration removes a stored configuration)."));
    return;
  }
  replace($("s3-rules"), rows.map((r, i) => h("fieldset", { class: "rule s3-rule", "data-row": i, "data-legacy": r.legacyPrefix ? "true" : null },
    h("legend", {}, `Rule ${i + 1}`),
    input(i, "id", "ID", r.id),
    h("div", { class: "rule-field" },
      h("label", { for: fieldId(i, "status") }, "Status"),
      h("select", { id: fieldId(i, "status"), "data-s3-field": "status" },
        ["Enabled", "Disabled"].map((v) => h("option", { value: v, selected: r.status === v }, v)))),
    group("filter", r.legacyPrefix ? "Filter (kept as the legacy top-level Prefix)" : "Filter (empty: the whole bucket)", true,
      input(i, "prefix", "Prefix", r.prefix),
      h("div", { class: "rule-field" },
        h("label", { for: fieldId(i, "tags") }, "Tags (key=value lines)"),
        h("textarea", { id: fieldId(i, "tags"), "data-s3-field": "tags", rows: "1", spellcheck: "false", "aria-describedby": `${fieldId(i, "tags")}-error` }, r.tags),
        h("span", { class: "field-error", id: `${fieldId(i, "tags")}-error`, hidden: true })),
      input(i, "greaterThan", "Size > (bytes)", r.greaterThan, { inputmode: "numeric" }),
      input(i, "lessThan", "Size < (bytes)", r.lessThan, { inputmode: "numeric" })),
    group("expiration", "Expiration (current versions)", r.days !== "" || r.date !== "" || r.deleteMarker,
      input(i, "days", "Days", r.days, { inputmode: "numeric" }),
      input(i, "date", "or Date", r.date, { placeholder: "YYYY-MM-DD" }),
      h("div", { class: "rule-field s3-check" },
        h("label", { for: fieldId(i, "deleteMarker") },
          h("input", { type: "checkbox", id: fieldId(i, "deleteMarker"), "data-s3-field": "deleteMarker", checked: r.deleteMarker }),
          " or ExpiredObjectDeleteMarker (remove delete markers left alone)"))),
    group("noncurrent", "NoncurrentVersionExpiration", r.noncurrentDays !== "" || r.newer !== "",
      input(i, "noncurrentDays", "NoncurrentDays", r.noncurrentDays, { inputmode: "numeric" }),
      input(i, "newer", NEWER, r.newer, { inputmode: "numeric" })),
    group("abort", "AbortIncompleteMultipartUpload", r.abortDays !== "",
      input(i, "abortDays", "DaysAfterInitiation", r.abortDays, { inputmode: "numeric" })),
    group("transitions", "Transitions (current versions)", r.transitions.length > 0,
      r.transitions.map((t, j) => transitionRow(i, "t", j, t)),
      h("button", { type: "button", class: "small", "data-s3-act": "add-transition", "data-kind": "t", "data-row": i }, "Add transition")),
    group("noncurrentTransitions", "NoncurrentVersionTransitions", r.noncurrentTransitions.length > 0,
      r.noncurrentTransitions.map((t, j) => transitionRow(i, "nt", j, t)),
      h("button", { type: "button", class: "small", "data-s3-act": "add-transition", "data-kind": "nt", "data-row": i }, "Add noncurrent transition")),
    h("div", { class: "row" },
      h("button", { type: "button", class: "small", "data-s3-act": "remove-rule", "data-row": i, "aria-label": `Remove rule ${i + 1}` }, "Remove rule")),
  )));
}

// readS3Rows reads the form back into rows.
export function readS3Rows() {
  return [...document.querySelectorAll("#s3-rules fieldset.s3-rule")].map((fs) => {
    const row = { legacyPrefix: fs.dataset.legacy === "true", transitions: [], noncurrentTransitions: [] };
    for (const el of fs.querySelectorAll("[data-s3-field]")) {
      row[el.dataset.s3Field] = el.type === "checkbox" ? el.checked : el.value;
    }
    for (const t of fs.querySelectorAll(".s3-transition")) {
      const item = {};
      for (const el of t.querySelectorAll("[data-sub]")) item[el.dataset.sub] = el.value;
      (t.dataset.kind === "t" ? row.transitions : row.noncurrentTransitions).push(item);
    }
    return row;
  });
}

// renderS3Errors writes each problem of rowsToConfig next to its field.
export function renderS3Errors(errors) {
  for (const el of document.querySelectorAll("#s3-rules .field-error")) {
    el.hidden = true;
    el.textContent = "";
  }
  for (const el of document.querySelectorAll("#s3-rules [aria-invalid]")) el.removeAttribute("aria-invalid");
  for (const e of errors) {
    const field = document.getElementById(fieldId(e.row, e.field));
    const msg = document.getElementById(`${fieldId(e.row, e.field)}-error`);
    if (field) field.setAttribute("aria-invalid", "true");
    if (msg) {
      msg.textContent = e.message;
      msg.hidden = false;
    }
  }
}
