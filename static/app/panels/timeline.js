// The Time axis panel (#timeline-panel): one row per version, bars from
// creation to now, split at the instant the version stopped being
// current, and the instants the editor's rules' thresholds are crossed.
// It is drawn once it comes near the viewport (views.js drawWhenInView).
import { $, h, replace, patch } from "../dom.js";
import { fmt, isolate, groupStacks, thresholds, lifetimes, previewMarks, markFor } from "../model.js";
import { KIND_LABEL, actionName } from "../compare.js";
import { state } from "../state.js";
import { NEXT, reuse, drawWhenInView } from "../views.js";
import { stackSignature } from "../stackview.js";

// drawn tells whether the axis has been drawn (drawWhenInView).
let drawn = () => false;

// Performance measures (see BENCHMARKS.md): "minis3:timeline" is the
// first drawing of the axis.
export function wire() {
  drawn = drawWhenInView($("timeline-panel"), $("timeline"), $("timeline-draw"), () => {
    performance.mark("minis3:timeline-start");
    renderTimeline(state);
    performance.measure("minis3:timeline", "minis3:timeline-start");
  });
}

export function render(state) {
  if (drawn()) renderTimeline(state);
}

// The time axis's view of each key at the last render.
let timelineViews = new Map();

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
function renderTimeline(state) {
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
