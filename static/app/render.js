// Rendering: state in, DOM out. Only textContent and attributes, never HTML.
import { h, $, replace, patch } from "./dom.js";
import { fmt, isolate, groupStacks, thresholds, lifetimes, previewMarks, markFor, diffIsEmpty, tagKey } from "./model.js";
import { explain, parseXML } from "./s3.js";
import { KIND_LABEL, actionName, compareRows, whyNone } from "./compare.js";
import { nextMidnight, showDate } from "./dates.js";

// What the preview marks say on a version: which lifecycle acts next.
const NEXT = { chapter: "next tick", s3: "next S3 run" };

function versionLabel(v) {
  return v.versionId === "null" ? h("span", { class: "null-badge", title: "The null version: written while the bucket was unversioned or suspended" }, "null version") : h("code", { class: "vid" }, v.versionId);
}

// Entry views are clones of these shapes, filled in: cloning a subtree is
// several times faster than creating its nodes one by one, and a first
// render of 1,000 versions makes about 20,000 of them.
let entryShape = null;
let detailsShape = null;
let detailsSeq = 0;

function shapes() {
  entryShape ??= h("li", {},
    h("div", { class: "entry-head" }, h("span", { class: "kind-badge" }, h("span", { "aria-hidden": "true" }, ""), ""), h("span", { class: "state-badge" }, "")),
    h("p", { class: "entry-meta" }, "", h("span", { class: "age" }, "")),
    h("div", { class: "entry-actions" }, h("button", { type: "button", class: "small", "data-act": "delete" }, "DELETE this version")),
  );
  // A disclosure button rather than <details>: each <details> carries a
  // shadow tree of its own, which a profile of the first-render budget
  // showed to be most of its cost.
  detailsShape ??= h("button", { type: "button", class: "disclose", "aria-expanded": "false" }, "size and ETag");
}

// The version each "size and ETag" button shows once opened: its list is
// built then (setDetailsOpen), since a learner opens few of them and a first
// render of 1,000 versions would otherwise build 9,000 more nodes.
const detailsOf = new WeakMap();

// setDetailsOpen shows or hides the size and ETag list of a version's
// "size and ETag" button, building the list the first time it is shown.
export function setDetailsOpen(toggle, open) {
  let list = toggle.nextElementSibling;
  if (!list?.classList.contains("entry-details")) {
    if (!open) return;
    const v = detailsOf.get(toggle);
    list = h("dl", { class: "entry-details", id: `entry-details-${++detailsSeq}` },
      h("dt", {}, "size"), h("dd", {}, `${v.size} bytes`),
      h("dt", {}, "ETag"), h("dd", {}, h("code", {}, v.etag || "")),
    );
    toggle.after(list);
    toggle.setAttribute("aria-controls", list.id);
  }
  list.hidden = !open;
  toggle.setAttribute("aria-expanded", String(open));
}

function actionButton(button, act, key, v) {
  button.setAttribute("data-key", key);
  button.setAttribute("data-version-id", v.versionId);
  button.setAttribute("aria-label", `${act} ${key} version ${v.versionId}`);
  return button;
}

// tagsOf is a data version's tags as the page has read them, or none.
const tagsOf = (state, key, v) => state.tags.get(tagKey(state.bucket, key, v)) || [];

function entryView(state, key, v, marks) {
  shapes();
  const marker = v.isDeleteMarker;
  const mark = markFor(marks, key, v.versionId);
  const classes = ["entry", marker ? "marker" : "data", v.isLatest ? "current" : "noncurrent"];
  if (v.versionId === "null") classes.push("is-null");
  if (mark) classes.push("expiring");
  const li = entryShape.cloneNode(true);
  li.setAttribute("class", classes.join(" "));
  li.setAttribute("data-key", key);
  li.setAttribute("data-version-id", v.versionId);
  const [head, meta, actions] = li.children;
  const [glyph, kind] = head.children[0].childNodes;
  glyph.textContent = marker ? "✕ " : "▮ ";
  kind.data = marker ? "delete marker" : "data";
  head.children[1].firstChild.data = v.isLatest ? "current" : "noncurrent";
  head.append(versionLabel(v));
  meta.firstChild.data = `created ${fmt(v.createdAt)} · age `;
  const age = meta.lastChild;
  age.setAttribute("data-created", String(v.createdAt));
  age.firstChild.data = fmt(state.now - v.createdAt);
  if (!marker) meta.append(" · ", h("span", { class: `class-badge${v.storageClass && v.storageClass !== "STANDARD" ? " cold" : ""}`, title: "storage class" }, v.storageClass || "STANDARD"));
  const tags = marker ? [] : tagsOf(state, key, v);
  if (tags.length > 0) li.insertBefore(h("p", { class: "entry-tags" }, "tags ", tags.map((t, i) => [i > 0 ? ", " : "", h("code", {}, `${t.key}=${t.value}`)])), actions);
  if (mark) li.insertBefore(h("p", { class: "expire-mark" }, `⚠ ${NEXT[state.preview.source]}: ${actionName(mark)} (rule ${isolate(mark.ruleId)})`), actions);
  const del = actionButton(actions.firstChild, "DELETE", key, v);
  if (!marker) {
    const id = `${key}\u0000${v.versionId}`;
    const toggle = detailsShape.cloneNode(true);
    toggle.setAttribute("data-id", id);
    detailsOf.set(toggle, v);
    li.insertBefore(toggle, actions);
    if (state.openDetails.has(id)) setDetailsOpen(toggle, true);
    actions.insertBefore(actionButton(h("button", { type: "button", class: "small", "data-act": "get" }, "GET"), "GET", key, v), del);
  }
  return li;
}

// stackSignature is everything a key's stack view shows but the ages, as
// one string: a render reuses the previous view of a key while its
// signature is the same, and only updates the ages when the clock moved.
function stackSignature(state, s, marks) {
  const parts = [state.bucket, s.key];
  for (const v of s.entries) {
    const m = markFor(marks, s.key, v.versionId);
    parts.push(v.versionId, v.isDeleteMarker, v.isLatest, v.createdAt, v.size, v.etag, v.storageClass, tagsOf(state, s.key, v), m ? [m.kind, m.ruleId, m.storageClass, state.preview.source] : null);
  }
  return JSON.stringify(parts);
}

// reuse returns the cached view of key ({ sig, el, now }) when its
// signature is sig, else a new one from build drawn at now, and records it
// in next (the cache of this render).
function reuse(cache, next, key, sig, now, build) {
  let hit = cache.get(key);
  if (!hit || hit.sig !== sig) hit = { sig, el: build(), now };
  next.set(key, hit);
  return hit;
}

// setAges rewrites the ages of a reused stack view for the clock now.
function setAges(view, now) {
  if (view.now === now) return;
  for (const el of view.el.querySelectorAll(".age")) el.textContent = fmt(now - Number(el.dataset.created));
  view.now = now;
}

// The stack and timeline views of the last render, by key. A render of 1,000
// versions rebuilds only the keys whose versions or preview marks changed
// (and, on the time axis, the scale: a clock move redraws it), and leaves
// the other views (and their layout) in place; a clock move only rewrites
// the ages in the stacks.
let stackViews = new Map();
let timelineViews = new Map();

export function renderStacks(state) {
  const box = $("stacks");
  if (!state.bucket) {
    stackViews = new Map();
    replace(box, h("p", { class: "empty" }, "No bucket yet. Create one (for example demo), or load a scenario."));
    return;
  }
  const stacks = groupStacks(state.versions);
  if (stacks.length === 0) {
    stackViews = new Map();
    replace(box, h("p", { class: "empty" }, `Bucket ${state.bucket} holds no versions yet. PUT an object.`));
    return;
  }
  const marks = previewMarks(state.preview?.actions);
  const next = new Map();
  // A list of stacks, each a list of versions: a screen reader says how
  // many there are and where it is. role="list" keeps that in browsers that
  // drop it from a list drawn without bullets.
  let list = box.firstElementChild;
  if (!list || !list.classList.contains("stack-list")) {
    list = h("ul", { class: "stack-list", role: "list" });
    replace(box, list);
  }
  list.setAttribute("aria-label", `Version stacks of bucket ${state.bucket}`);
  patch(list, stacks.map((s) => {
    const view = reuse(stackViews, next, s.key, stackSignature(state, s, marks), state.now, () => h("li", { class: "stack", "data-key": s.key },
      h("h3", { class: "stack-key" }, h("code", {}, s.key), h("span", { class: "count" }, `${s.entries.length} ${s.entries.length === 1 ? "entry" : "entries"}, newest on top`)),
      h("ol", { class: "entries", role: "list", "aria-label": `Versions of ${s.key}, newest first` }, s.entries.map((v) => entryView(state, s.key, v, marks))),
    ));
    setAges(view, state.now);
    return view.el;
  }));
  stackViews = next;
}

// The units a time axis counts in, largest first, each used once the axis
// spans three of it; below that it counts seconds.
const UNITS = [{ size: 86400, name: "d" }, { size: 3600, name: "h" }, { size: 60, name: "min" }];
const SECONDS = { size: 1, name: "s" };

// axisScale is a readable scale for an axis that must show the instants
// first to last (seconds): about five ticks on round values (1, 2 or 5
// times a power of ten of seconds, minutes, hours or days), from the tick
// at or before first to the one at or after last, spanning at least ten
// seconds, so that an axis at t = 0 reads 0 s, 2 s, … 10 s.
function axisScale(first, last) {
  const span = Math.max(last - first, 10);
  const unit = UNITS.find((u) => span >= 3 * u.size) ?? SECONDS;
  const raw = span / unit.size / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = unit.size * power * [1, 2, 5, 10].find((m) => m * power >= raw);
  const lo = Math.floor(first / step) * step;
  const hi = Math.max(Math.ceil(last / step), Math.ceil((first + span) / step)) * step;
  const ticks = [];
  for (let i = 0; i <= Math.round((hi - lo) / step); i++) {
    const t = lo + i * step;
    ticks.push({ t, label: `${fmt(t / unit.size)} ${unit.name}` });
  }
  return { lo, hi, ticks };
}

// The time axis: one row per version, bars from creation to now, split at
// the instant the version stopped being current, and threshold marks.
export function renderTimeline(state) {
  const box = $("timeline");
  const stacks = groupStacks(state.versions);
  if (stacks.length === 0) {
    timelineViews = new Map();
    replace(box, h("p", { class: "empty" }, "Nothing to draw yet."));
    return;
  }
  const rules = state.rules;
  let first = 0;
  let last = state.now;
  for (const s of stacks) {
    for (const e of s.entries) {
      first = Math.min(first, e.createdAt);
      last = Math.max(last, e.createdAt);
      for (const t of thresholds(s.key, e, rules)) last = Math.max(last, t.at);
    }
  }
  // Room after the last instant for its mark's label.
  const { lo, hi, ticks } = axisScale(first, last + (last - first) * 0.05);
  const pct = (t) => `${((t - lo) / (hi - lo)) * 100}%`;
  const place = (el, from, to) => {
    el.style.left = pct(from);
    if (to !== undefined) el.style.width = `${((to - from) / (hi - lo)) * 100}%`;
    return el;
  };
  const expiring = previewMarks(state.preview?.actions);
  // One group of rows per key, reused while the key's versions, marks and
  // the scale (lo, hi, now, rules) stay the same.
  const scale = JSON.stringify([lo, hi, state.now, rules]);
  const group = (s) => {
    const rows = [h("p", { class: "tl-key" }, h("code", {}, s.key))];
    for (const { entry: e, supersededAt } of lifetimes(s)) {
      const end = state.now;
      const curEnd = supersededAt === null ? end : supersededAt;
      const marks = thresholds(s.key, e, rules);
      const desc = [
        `${isolate(e.versionId)} ${e.isDeleteMarker ? "delete marker" : "data"}, created ${fmt(e.createdAt)}`,
        supersededAt === null ? "current" : `current until ${fmt(supersededAt)}, noncurrent since`,
        ...marks.map((m) => `rule ${isolate(m.ruleId)} ${KIND_LABEL[m.kind]} when age ≥ ${fmt(m.after)}, at ≥ ${fmt(m.at)}`),
      ].join("; ");
      const lifetime = e.isDeleteMarker
        ? [place(h("span", { class: "tl-bar tl-marker" }), e.createdAt, Math.max(end, e.createdAt)), place(h("span", { class: "tl-dm" }, "✕"), e.createdAt)]
        : [place(h("span", { class: "tl-bar tl-cur" }), e.createdAt, Math.max(curEnd, e.createdAt)),
          supersededAt === null ? null : place(h("span", { class: "tl-bar tl-non" }), supersededAt, Math.max(end, supersededAt))];
      const track = h("div", { class: "tl-track", "aria-hidden": "true" },
        lifetime,
        marks.map((m) => place(h("span", { class: `tl-th ${m.at <= state.now ? "crossed" : ""}`, title: `rule ${isolate(m.ruleId)}` }, `≥ ${fmt(m.at)}`), m.at)),
        place(h("span", { class: "tl-now" }), state.now),
      );
      const mark = markFor(expiring, s.key, e.versionId);
      rows.push(h("div", { class: `tl-row${mark ? " tl-expiring" : ""}` },
        h("span", { class: "tl-label", title: mark ? `${NEXT[state.preview.source]}: ${actionName(mark)} (rule ${isolate(mark.ruleId)})` : null }, mark ? "⚠ " : e.isDeleteMarker ? "✕ " : "▮ ", e.versionId),
        track,
        h("span", { class: "visually-hidden" }, desc),
      ));
    }
    return h("div", { class: "tl-group" }, rows);
  };
  const next = new Map();
  const groups = stacks.map((s) => reuse(timelineViews, next, s.key, scale + stackSignature(state, s, expiring), state.now, () => group(s)).el);
  timelineViews = next;
  const axis = h("div", { class: "tl-axis", "aria-hidden": "true" });
  for (const { t, label } of ticks) {
    if (Math.abs(t - state.now) < (hi - lo) * 0.09) continue; // room for the "now" label
    axis.appendChild(place(h("span", { class: "tl-tick" }, label), t));
  }
  axis.appendChild(place(h("span", { class: "tl-tick tl-tick-now" }, `now ${fmt(state.now)} s`), state.now));
  let grid = box.firstElementChild;
  if (!grid || !grid.classList.contains("tl-grid")) {
    grid = h("div", { class: "tl-grid" });
    replace(box, grid);
  }
  patch(grid, [...groups, h("div", { class: "tl-row" }, h("span", { class: "tl-label" }, "t"), axis)]);
}

function actionList(actions) {
  if (actions.length === 0) return h("p", { class: "none" }, "No actions: nothing is old enough.");
  return h("ul", { class: "actions" }, actions.map((a) => h("li", { class: `action ${a.kind}` },
    h("strong", {}, actionName(a)), " ", h("code", {}, a.key), " ", a.uploadId ? ["upload ", h("code", {}, a.uploadId)] : h("code", {}, a.versionId), ` — rule ${a.ruleId}`)));
}

// diffView lists what a tick or a lifecycle run changed in a bucket.
function diffView(d) {
  if (diffIsEmpty(d)) return h("p", { class: "none" }, "Nothing changed.");
  return h("div", { class: "diff" },
    diffSection("Removed noncurrent versions", d.removedNoncurrent, (v) => [h("code", {}, v.versionId), v.isDeleteMarker ? " (delete marker)" : ""]),
    diffSection("Removed current versions", d.removedCurrent, (v) => [h("code", {}, v.versionId), v.isDeleteMarker ? " (delete marker)" : ""]),
    diffSection("Removed null versions", d.removedNull, (v) => `null ${v.isDeleteMarker ? "delete marker" : "data version"}`),
    diffSection("New delete markers", d.newMarkers, (v) => h("code", {}, v.versionId)),
    diffSection("Now current", d.becameCurrent, (v) => h("code", {}, v.versionId)),
    diffSection("Added versions", d.added, (v) => h("code", {}, v.versionId)),
    diffSection("Storage class changed", d.changedClass, (v) => [h("code", {}, v.versionId), ` ${v.was} → ${v.storageClass}`]));
}

function diffSection(title, list, describe) {
  if (list.length === 0) return null;
  return h("div", { class: "diff-group" }, h("h4", {}, title), h("ul", {}, list.map((v) => h("li", {}, h("code", {}, v.key), " ", describe(v)))));
}

export function renderLifecycle(state) {
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

const when = (state, now) => `${showDate(state.origin + now)} (t = ${fmt(now)} s)`;

// renderS3Out shows the last preview of an S3 lifecycle run, and what the
// last run did: run now, or the daily runs of a clock move.
export function renderS3Out(state) {
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
export function renderS3Status(state) {
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

// renderUploads lists the bucket's multipart uploads in progress.
export function renderUploads(state) {
  const ups = state.uploads;
  replace($("uploads"), ups.length === 0 ? null : [
    h("h3", {}, "Multipart uploads in progress"),
    h("ul", { class: "upload-list" }, ups.map((u) => h("li", {},
      h("code", {}, u.key), " upload ", h("code", {}, u.uploadId), ` started ${fmt(u.initiated)} · age ${fmt(state.now - u.initiated)}`))),
  ]);
}

// The side-by-side view of each key at the last render, reused while what
// it shows is the same.
let compareViews = new Map();

// renderCompare draws the chapter's rules and the S3 configuration side by
// side on the bucket's versions.
export function renderCompare(state) {
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

// renderRuleErrors writes each problem next to its field.
export function renderRuleErrors(errors) {
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
export function renderRuleRows(rows) {
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

// prettyXML indents an XML text; anything else is returned as it is.
export function prettyXML(text) {
  if (!text.trimStart().startsWith("<")) return text;
  const doc = parseXML(text);
  if (doc.getElementsByTagName("parsererror").length > 0) return text;
  const lines = [];
  const walk = (node, depth) => {
    const pad = "  ".repeat(depth);
    const kids = [...node.childNodes].filter((n) => n.nodeType === Node.ELEMENT_NODE || n.textContent.trim() !== "");
    if (kids.length === 0) {
      lines.push(`${pad}<${node.nodeName}/>`);
    } else if (kids.length === 1 && kids[0].nodeType !== Node.ELEMENT_NODE) {
      lines.push(`${pad}<${node.nodeName}>${kids[0].textContent}</${node.nodeName}>`);
    } else {
      lines.push(`${pad}<${node.nodeName}>`);
      for (const k of kids) {
        if (k.nodeType === Node.ELEMENT_NODE) walk(k, depth + 1);
        else lines.push(pad + "  " + k.textContent.trim());
      }
      lines.push(`${pad}</${node.nodeName}>`);
    }
  };
  walk(doc.documentElement, 0);
  return lines.join("\n");
}

// showBody indents XML bodies; everything else is shown as it is. Only bodies
// labelled XML are parsed, so an object's body is never touched.
function showBody(headers, body) {
  const type = headers.find(([k]) => k === "content-type")?.[1] || "";
  return type.includes("xml") ? prettyXML(body) : body;
}

function exchangeView(x) {
  const req = [`${x.method} ${x.path}`, ...x.requestHeaders.map(([k, v]) => `${k}: ${v}`)];
  if (x.requestBody !== "") req.push("", showBody(x.requestHeaders, x.requestBody));
  const res = [`${x.status ?? "—"} ${x.statusText || ""}`.trim(), ...(x.responseHeaders || []).map(([k, v]) => `${k}: ${v}`)];
  if (x.responseBody) res.push("", showBody(x.responseHeaders || [], x.responseBody));
  return h("div", { class: `exchange ${x.status >= 400 ? "failed" : ""}` },
    h("pre", { class: "req", "aria-label": "request" }, req.join("\n")),
    h("pre", { class: "res", "aria-label": "response" }, res.join("\n")));
}

function outcomeText(entry) {
  if (entry.ok) return entry.summary || "OK";
  return `${entry.code}: ${explain(entry.code)}${entry.message && entry.message !== entry.code ? ` (${entry.message})` : ""}`;
}

function checksView(checks) {
  if (!checks || checks.length === 0) return null;
  return h("ul", { class: "checks" }, checks.map((c) => h("li", { class: c.pass ? "pass" : "fail" },
    h("strong", {}, c.pass ? "✓ passed" : "✗ failed"), ` ${c.label} — ${c.detail}`)));
}

// historyViews keeps the view of every history entry (entries do not change
// once logged), so a render builds only the new ones and its exchanges'
// XML is parsed once.
const historyViews = new WeakMap();

export function renderHistory(state) {
  const n = state.history.length;
  patch($("history"), state.history.slice().reverse().map((e, i) => {
    let li = historyViews.get(e);
    if (!li) {
      li = historyEntry(e);
      historyViews.set(e, li);
    }
    li.value = n - i;
    return li;
  }));
  const last = state.history.findLast((e) => e.exchanges.length > 0);
  replace($("http"), last ? [h("p", { class: "hint" }, last.title), last.exchanges.map(exchangeView)] : h("p", { class: "empty" }, "No request yet."));
}

function historyEntry(e) {
  return h("li", { class: `hist ${e.ok ? "ok" : "err"}` },
    h("p", { class: "hist-line" },
      h("span", { class: "hist-time" }, `t=${fmt(e.now)}`), " ",
      h("span", { class: "hist-what" }, e.title), " → ",
      h("span", { class: "hist-result" }, e.ok ? "✓ " : "✗ ", outcomeText(e))),
    checksView(e.checks),
    e.exchanges.length > 0 ? h("details", {}, h("summary", {}, `${e.exchanges.length} HTTP request${e.exchanges.length === 1 ? "" : "s"}`), e.exchanges.map(exchangeView)) : null,
  );
}

export function renderResult(state) {
  const r = state.result;
  const box = $("result");
  if (!r) {
    replace(box);
    return;
  }
  if (!r.ok) {
    replace(box, h("div", { class: "error-box", role: "alert" },
      h("strong", {}, r.code), ` — ${explain(r.code)}`,
      r.message && r.message !== r.code ? h("p", { class: "raw" }, r.message) : null));
    return;
  }
  const rows = [];
  if (r.versionId !== undefined) rows.push(["version ID", r.versionId]);
  if (r.deleteMarker) rows.push(["delete marker", "yes"]);
  if (r.etag) rows.push(["ETag", r.etag]);
  if (r.storageClass) rows.push(["storage class", r.storageClass]);
  if (r.tagCount) rows.push(["tags", String(r.tagCount)]);
  if (r.tags) rows.push(["tags", r.tags.length === 0 ? "none" : r.tags.map((t) => `${t.key}=${t.value}`).join(", ")]);
  if (r.expiration) rows.push(["S3 expiry", `${r.expiration.date} (rule ${r.expiration.ruleId})`]);
  if (r.uploadId) rows.push(["upload ID", r.uploadId]);
  replace(box, h("div", { class: "ok-box" },
    h("p", {}, h("strong", {}, "✓ "), h("span", { class: "result-title" }, r.title), `: ${r.summary}`),
    rows.length ? h("dl", {}, rows.map(([k, v]) => [h("dt", {}, k), h("dd", {}, h("code", {}, v))])) : null,
    r.body !== undefined ? [h("p", {}, "Body:"), h("pre", { class: "body" }, r.body)] : null));
}

export function renderBuckets(state) {
  const sel = $("bucket-select");
  replace(sel, state.buckets.length === 0
    ? h("option", { value: "" }, "(no buckets)")
    : state.buckets.map((b) => h("option", { value: b.name, selected: b.name === state.bucket }, b.name)));
  sel.disabled = state.buckets.length === 0;
  const v = state.versioning || "—";
  $("versioning-state").textContent = v;
  $("enable-btn").disabled = !state.bucket || v === "enabled";
  $("suspend-btn").disabled = !state.bucket || v === "suspended";
  for (const id of ["delete-bucket-btn", "put-btn", "get-btn", "delete-btn", "tags-put-btn", "tags-get-btn", "mp-btn", "mp-start-btn"]) $(id).disabled = !state.bucket;
}

export function renderClock(state) {
  $("clock-now").textContent = fmt(state.now);
  $("clock-date").textContent = showDate(state.origin + state.now);
  const slider = $("clock-slider");
  const max = Math.max(60, Math.ceil((state.now * 1.5) / 10) * 10);
  slider.min = String(Math.min(0, Math.floor(state.now)));
  slider.max = String(max);
  slider.value = String(state.now);
  slider.setAttribute("aria-valuetext", `${fmt(state.now)} seconds`);
}

export function renderScenario(state) {
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
  const allChecks = sc.results.flatMap((r) => r.checks);
  const failed = allChecks.filter((c) => !c.pass).length;
  let summary = `${isolate(sc.title)}: ${done} of ${sc.steps.length} steps run`;
  if (allChecks.length > 0) summary += failed === 0 ? ` — all ${allChecks.length} checks passed` : ` — ${failed} of ${allChecks.length} checks failed`;
  $("scenario-summary").textContent = summary;
  $("scenario-summary").className = `scenario-summary ${allChecks.length === 0 ? "" : failed === 0 ? "pass" : "fail"}`;
  replace(list, sc.steps.map((s, i) => {
    const r = sc.results[i];
    const status = !r ? "pending" : r.checks.length === 0 ? "done" : r.checks.every((c) => c.pass) ? "pass" : "fail";
    return h("li", { class: `sc-step ${status}`, "aria-current": i === done ? "step" : null },
      h("span", { class: "sc-title" }, s.note ? `${sc.titles[i]} — ${isolate(s.note)}` : sc.titles[i]),
      r ? checksView(r.checks) : s.expect ? h("p", { class: "hint" }, "has checks") : null);
  }));
}
