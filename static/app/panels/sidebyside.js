// The side-by-side panel (#compare-panel): the chapter's rules and the
// S3 configuration on the selected bucket's versions and uploads, when
// each is due under each and why they differ (compare.js). It is drawn
// once it comes near the viewport (views.js drawWhenInView).
import { $, h, replace, patch } from "../dom.js";
import { fmt, isolate } from "../model.js";
import { compareRows, whyNone } from "../compare.js";
import { nextMidnight, showDate } from "../dates.js";
import { state } from "../state.js";
import { versionLabel, reuse, drawWhenInView } from "../views.js";

// drawn tells whether the view has been drawn (drawWhenInView).
let drawn = () => false;

export function wire() {
  drawn = drawWhenInView($("compare-panel"), $("compare"), $("compare-draw"), () => renderCompare(state));
}

export function render(state) {
  if (drawn()) renderCompare(state);
}

// The side-by-side view of each key at the last render, reused while what
// it shows is the same.
let compareViews = new Map();

// renderCompare draws the chapter's rules and the S3 configuration side by
// side on the bucket's versions.
function renderCompare(state) {
  const box = $("compare");
  const cmp = state.compare;
  if (!state.bucket || !cmp) {
    compareViews = new Map();
    replace(box, h("p", { class: "empty" }, "No bucket yet."));
    return;
  }
  const ctx = { ...cmp, versions: state.versions, uploads: state.uploads, config: state.s3.config, origin: state.origin, now: state.now, rulesCount: state.rules.length };
  const groups = compareRows(ctx);
  if (groups.length === 0) {
    compareViews = new Map();
    replace(box, h("p", { class: "empty" }, `Bucket ${state.bucket} holds no versions yet.`));
    return;
  }
  const nextRun = showDate(state.origin + nextMidnight(state.origin, state.now));
  // Each row as the texts it shows: they are also the view's signature.
  const side = (name, row, s) => {
    if (!s) return { none: `— ${whyNone(name, row, ctx)}` };
    const due = !s.dueNow ? "" : name === "chapter" ? " — due now: the next tick takes it" : ` — due now: the next daily run (${nextRun}) or Run now takes it`;
    return { text: `${s.text}, rule ${isolate(s.ruleId)}${due}`, due: s.dueNow };
  };
  const shown = (row) => ({
    id: row.id,
    upload: row.upload ? row.upload.uploadId : null,
    version: row.entry ? { versionId: row.entry.versionId } : null,
    what: row.upload
      ? ` in progress, started t = ${fmt(row.upload.initiated)} s · ${showDate(state.origin + row.upload.initiated)}`
      : ` ${row.entry.isLatest ? "current" : "noncurrent"} ${row.entry.isDeleteMarker ? "delete marker" : "data"}, created t = ${fmt(row.entry.createdAt)} s · ${showDate(state.origin + row.entry.createdAt)}`,
    chapter: side("chapter", row, row.chapter),
    s3: side("s3", row, row.s3),
    notes: row.notes,
  });
  const dd = (name, v) => (v.none ? h("dd", { class: "cmp-none" }, v.none) : h("dd", { class: `cmp-${name}${v.due ? " cmp-due" : ""}` }, v.text));
  const build = (key, rows) => h("article", { class: "cmp-group" },
    h("h3", { class: "cmp-key" }, h("code", {}, key)),
    h("ol", { class: "cmp-rows" }, rows.map((r) => h("li", { class: "cmp-row", "data-key": key, "data-id": r.id },
      h("p", { class: "cmp-what" }, r.upload ? ["upload ", h("code", {}, r.upload)] : versionLabel(r.version), r.what),
      h("dl", {},
        h("dt", {}, "Chapter"), dd("chapter", r.chapter),
        h("dt", {}, "S3"), dd("s3", r.s3),
        r.notes.length > 0 ? [h("dt", {}, "Why they differ"), h("dd", {}, h("ul", { class: "cmp-notes" }, r.notes.map((n) => h("li", {}, n))))] : null)))));
  const next = new Map();
  patch(box, groups.map((g) => {
    const rows = g.rows.map(shown);
    return reuse(compareViews, next, g.key, JSON.stringify(rows), state.now, () => build(g.key, rows)).el;
  }));
  compareViews = next;
}
