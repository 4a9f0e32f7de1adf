// Views that several panels draw: a version's label, the cache that keeps
// a view while what it shows is the same, lists of lifecycle actions, what
// a tick or a run changed, and the results of checks. Only textContent and
// attributes, never HTML.
import { h } from "./dom.js";
import { diffIsEmpty } from "./model.js";
import { actionName } from "./compare.js";

// What the preview marks say on a version: which lifecycle acts next.
export const NEXT = { chapter: "next tick", s3: "next S3 run" };

export function versionLabel(v) {
  return v.versionId === "null" ? h("span", { class: "null-badge", title: "The null version: written while the bucket was unversioned or suspended" }, "null version") : h("code", { class: "vid" }, v.versionId);
}

// reuse returns the cached view of key ({ sig, el, now }) when its
// signature is sig, else a new one from build drawn at now, and records it
// in next (the cache of this render).
export function reuse(cache, next, key, sig, now, build) {
  let hit = cache.get(key);
  if (!hit || hit.sig !== sig) hit = { sig, el: build(), now };
  next.set(key, hit);
  return hit;
}

// actionList lists lifecycle actions, or says there are none.
export function actionList(actions) {
  if (actions.length === 0) return h("p", { class: "none" }, "No actions: nothing is old enough.");
  return h("ul", { class: "actions" }, actions.map((a) => h("li", { class: `action ${a.kind}` },
    h("strong", {}, actionName(a)), " ", h("code", {}, a.key), " ", a.uploadId ? ["upload ", h("code", {}, a.uploadId)] : h("code", {}, a.versionId), ` — rule ${a.ruleId}`)));
}

// diffView lists what a tick or a lifecycle run changed in a bucket.
export function diffView(d) {
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

// checksView lists the results of checks, or is nothing when there are none.
export function checksView(checks) {
  if (!checks || checks.length === 0) return null;
  return h("ul", { class: "checks" }, checks.map((c) => h("li", { class: c.pass ? "pass" : "fail" },
    h("strong", {}, c.pass ? "✓ passed" : "✗ failed"), ` ${c.label} — ${c.detail}`)));
}

// The time axis and the side-by-side view are drawn once their panel comes
// near the viewport, and from then on by every render. Below the stacks of
// a large bucket they start far out of view, and drawing the time axis's
// row per version was about a third of the first render of 1,000
// versions. A panel hidden with ?hide= is never drawn. Until then the
// placeholder's "Draw it now" button draws it for whoever reaches it
// without scrolling (a screen reader's cursor); focus that was on the
// button moves to the view it drew.
//
// drawWhenInView calls draw once panel comes near the viewport, the page
// is printed or button is pressed; box is the view draw fills. It returns
// a function that tells whether draw was called.
export function drawWhenInView(panel, box, button, draw) {
  let shown = false;
  const show = () => {
    if (shown || panel.hidden) return;
    watch.disconnect();
    removeEventListener("beforeprint", show);
    shown = true;
    const hadFocus = box.contains(document.activeElement);
    draw();
    if (hadFocus) box.focus();
  };
  button.addEventListener("click", show);
  const watch = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) show();
  }, { rootMargin: "50% 0px" });
  watch.observe(panel);
  // A printout has every panel in it.
  addEventListener("beforeprint", show);
  return () => shown;
}
