// The Bucket panel (#bucket-panel): the bucket selected (every other
// panel shows it), its versioning, and creating and deleting buckets.
import { $, h, replace } from "../dom.js";
import { state, selectBucket } from "../state.js";
import { enqueue } from "../jobs.js";
import { refresh } from "../refresh.js";
import { keep } from "../saved.js";
import { confirmDialog } from "../view.js";
import { run } from "../runner.js";

export function wire() {
  // The bucket chosen is kept across a reload, as the one a step used is.
  $("bucket-select").addEventListener("change", (ev) => {
    selectBucket(ev.target.value);
    enqueue(async () => {
      await refresh();
      keep();
    });
  });
  $("enable-btn").addEventListener("click", () => run({ op: "versioning", bucket: state.bucket, status: "enabled" }));
  $("suspend-btn").addEventListener("click", () => run({ op: "versioning", bucket: state.bucket, status: "suspended" }));
  $("create-bucket-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    run({ op: "createBucket", bucket: $("new-bucket").value.trim() });
  });
  $("delete-bucket-btn").addEventListener("click", async () => {
    const bucket = state.bucket;
    if (await confirmDialog(`Delete bucket "${bucket}"? S3 refuses while any version or delete marker is left.`, "Delete bucket")) run({ op: "deleteBucket", bucket });
  });
}

export function render(state) {
  const sel = $("bucket-select");
  replace(sel, state.buckets.length === 0
    ? h("option", { value: "" }, "(no buckets)")
    : state.buckets.map((b) => h("option", { value: b.name, selected: b.name === state.bucket }, b.name)));
  sel.disabled = state.buckets.length === 0;
  const v = state.versioning || "—";
  $("versioning-state").textContent = v;
  $("enable-btn").disabled = !state.bucket || v === "enabled";
  $("suspend-btn").disabled = !state.bucket || v === "suspended";
  $("delete-bucket-btn").disabled = !state.bucket;
}
