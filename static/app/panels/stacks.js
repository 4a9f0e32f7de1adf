// The Version stacks panel (#stacks-panel): the selected bucket's version
// stacks, each version with its own GET and DELETE and its size and ETag
// on request, and the multipart uploads in progress.
import { $, h, replace } from "../dom.js";
import { fmt } from "../model.js";
import { state, detailsToggled } from "../state.js";
import { stackList, setDetailsOpen } from "../stackview.js";
import { run } from "../runner.js";

const stacks = stackList($("stacks"));

export function wire() {
  // A version's own GET and DELETE act on that version and leave the
  // Objects form as it is: a version ID left in the form would make its
  // next plain DELETE delete that version for good.
  $("stacks").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-act]");
    if (!b) return;
    const { act, key, versionId } = b.dataset;
    const hadFocus = document.activeElement === b;
    run({ op: act, bucket: state.bucket, key, versionId }).then(() => {
      if (hadFocus && !b.isConnected) focusInStack(key);
    });
  });
  // A version's "size and ETag" button shows or hides its list (built when
  // first shown); the open ones stay open when their views are built again.
  $("stacks").addEventListener("click", (ev) => {
    const toggle = ev.target.closest("button.disclose");
    if (!toggle) return;
    const open = toggle.getAttribute("aria-expanded") !== "true";
    setDetailsOpen(toggle, open);
    detailsToggled(toggle.dataset.id, open);
  });
}

// focusInStack puts focus back in key's stack after the button that had it
// went with its version: on the stack's first version button, or on the
// stacks panel when the key has no version left.
function focusInStack(key) {
  const stack = [...document.querySelectorAll("#stacks .stack")].find((s) => s.dataset.key === key);
  (stack?.querySelector("button[data-act]") ?? $("stacks-panel")).focus();
}

export function render(state) {
  if (!state.bucket) stacks.show("No bucket yet. Create one (for example demo), or load a scenario.");
  else if (state.versions.length === 0) stacks.show(`Bucket ${state.bucket} holds no versions yet. PUT an object.`);
  else stacks.draw(state);
  renderUploads(state);
}

// renderUploads lists the bucket's multipart uploads in progress.
function renderUploads(state) {
  const ups = state.uploads;
  replace($("uploads"), ups.length === 0 ? null : [
    h("h3", {}, "Multipart uploads in progress"),
    h("ul", { class: "upload-list" }, ups.map((u) => h("li", {},
      h("code", {}, u.key), " upload ", h("code", {}, u.uploadId), ` started ${fmt(u.initiated)} · age ${fmt(state.now - u.initiated)}`))),
  ]);
}
