// A list of version stacks, drawn from a version list: the Version stacks
// panel's, and any other view of a bucket's versions. Each key's stack
// view is kept while what it shows is the same (and its ages updated when
// the clock moved), so that a render of 1,000 versions rebuilds only the
// keys whose versions or preview marks changed and leaves the other views
// (and their layout) in place. Only textContent and attributes, never HTML.
import { h, replace, patch } from "./dom.js";
import { fmt, isolate, groupStacks, previewMarks, markFor, tagKey } from "./model.js";
import { actionName } from "./compare.js";
import { NEXT, versionLabel, reuse } from "./views.js";

// A view of stacks holds the fields of the page's state it draws: bucket,
// versions, now, tags (by model.tagKey), preview (the marks, or null) and
// openDetails (the versions whose size and ETag are shown).

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
const tagsOf = (view, key, v) => view.tags.get(tagKey(view.bucket, key, v)) || [];

function entryView(view, key, v, marks) {
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
  age.firstChild.data = fmt(view.now - v.createdAt);
  if (!marker) meta.append(" · ", h("span", { class: `class-badge${v.storageClass && v.storageClass !== "STANDARD" ? " cold" : ""}`, title: "storage class" }, v.storageClass || "STANDARD"));
  const tags = marker ? [] : tagsOf(view, key, v);
  if (tags.length > 0) li.insertBefore(h("p", { class: "entry-tags" }, "tags ", tags.map((t, i) => [i > 0 ? ", " : "", h("code", {}, `${t.key}=${t.value}`)])), actions);
  if (mark) li.insertBefore(h("p", { class: "expire-mark" }, `⚠ ${NEXT[view.preview.source]}: ${actionName(mark)} (rule ${isolate(mark.ruleId)})`), actions);
  const del = actionButton(actions.firstChild, "DELETE", key, v);
  if (!marker) {
    const id = `${key}\u0000${v.versionId}`;
    const toggle = detailsShape.cloneNode(true);
    toggle.setAttribute("data-id", id);
    detailsOf.set(toggle, v);
    li.insertBefore(toggle, actions);
    if (view.openDetails.has(id)) setDetailsOpen(toggle, true);
    actions.insertBefore(actionButton(h("button", { type: "button", class: "small", "data-act": "get" }, "GET"), "GET", key, v), del);
  }
  return li;
}

// stackSignature is everything a key's stack view shows but the ages, as
// one string: a render reuses the previous view of a key while its
// signature is the same, and only updates the ages when the clock moved.
export function stackSignature(view, s, marks) {
  const parts = [view.bucket, s.key];
  for (const v of s.entries) {
    const m = markFor(marks, s.key, v.versionId);
    parts.push(v.versionId, v.isDeleteMarker, v.isLatest, v.createdAt, v.size, v.etag, v.storageClass, tagsOf(view, s.key, v), m ? [m.kind, m.ruleId, m.storageClass, view.preview.source] : null);
  }
  return JSON.stringify(parts);
}

// setAges rewrites the ages of a kept stack view for the clock now.
function setAges(kept, now) {
  if (kept.now === now) return;
  for (const el of kept.el.querySelectorAll(".age")) el.textContent = fmt(now - Number(el.dataset.created));
  kept.now = now;
}

// stackList draws version stacks into box. Its show(message) puts a
// message in place of the stacks; its draw(view) draws the stacks of
// view.versions, grouped by key, with the marks of view.preview.
export function stackList(box) {
  let views = new Map();
  return {
    show(message) {
      views = new Map();
      replace(box, h("p", { class: "empty" }, message));
    },
    draw(view) {
      const stacks = groupStacks(view.versions);
      const marks = previewMarks(view.preview?.actions);
      const next = new Map();
      // A list of stacks, each a list of versions: a screen reader says how
      // many there are and where it is. role="list" keeps that in browsers
      // that drop it from a list drawn without bullets.
      let list = box.firstElementChild;
      if (!list || !list.classList.contains("stack-list")) {
        list = h("ul", { class: "stack-list", role: "list" });
        replace(box, list);
      }
      list.setAttribute("aria-label", `Version stacks of bucket ${view.bucket}`);
      patch(list, stacks.map((s) => {
        const kept = reuse(views, next, s.key, stackSignature(view, s, marks), view.now, () => h("li", { class: "stack", "data-key": s.key },
          h("h3", { class: "stack-key" }, h("code", {}, s.key), h("span", { class: "count" }, `${s.entries.length} ${s.entries.length === 1 ? "entry" : "entries"}, newest on top`)),
          h("ol", { class: "entries", role: "list", "aria-label": `Versions of ${s.key}, newest first` }, s.entries.map((v) => entryView(view, s.key, v, marks))),
        ));
        setAges(kept, view.now);
        return kept.el;
      }));
      views = next;
    },
  };
}
