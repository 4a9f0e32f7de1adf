// The Objects panel (#actions-panel): the object form (PUT, GET, DELETE,
// tags, with a version ID or not), multipart uploads, and the result of
// the last object step.
import { $, h, replace } from "../dom.js";
import { explain } from "../s3.js";
import { PUT_CLASSES, parseTags } from "../s3config.js";
import { state } from "../state.js";
import { run } from "../runner.js";

// The smallest part but the last of a multipart upload, in bytes: the
// store is opened with it (S3's is 5 MiB).
export const MIN_PART_SIZE = 5;

export function wire() {
  $("min-part").textContent = String(MIN_PART_SIZE);
  for (const c of PUT_CLASSES) $("obj-class").appendChild(Object.assign(document.createElement("option"), { value: c === "STANDARD" ? "" : c, textContent: c }));
  $("object-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    runObjectStep("put");
  });
  for (const [id, op] of [["get-btn", "get"], ["delete-btn", "delete"], ["tags-put-btn", "putObjectTagging"], ["tags-get-btn", "getObjectTagging"]]) {
    $(id).addEventListener("click", () => {
      if ($("obj-key").reportValidity()) runObjectStep(op);
    });
  }
  $("multipart-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const parts = $("mp-parts").value.split("\n");
    if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
    run({ op: "multipart", bucket: state.bucket, key: $("mp-key").value, parts });
  });
  $("mp-start-btn").addEventListener("click", () => {
    if ($("mp-key").reportValidity()) run({ op: "createMultipartUpload", bucket: state.bucket, key: $("mp-key").value });
  });
}

// objectTags reads the Tags field, or says what is wrong with it and
// returns null.
function objectTags() {
  const { tags, error } = parseTags($("obj-tags").value);
  $("obj-tags-error").hidden = !error;
  $("obj-tags-error").textContent = error ? `Tags: ${error}.` : "";
  if (error) $("obj-tags").setAttribute("aria-invalid", "true");
  else $("obj-tags").removeAttribute("aria-invalid");
  return error ? null : tags;
}

// objectStep builds a step of op from the Objects form, or returns null
// when a field is wrong (and says so there).
function objectStep(op) {
  const key = $("obj-key").value;
  const versionId = $("obj-version").value.trim();
  const step = { op, bucket: state.bucket, key };
  if (op === "put") {
    step.body = $("obj-body").value;
    const tags = objectTags();
    if (tags === null) return null;
    if (tags.length > 0) step.tags = tags;
    if ($("obj-class").value !== "") step.storageClass = $("obj-class").value;
    return step;
  }
  if (versionId !== "") step.versionId = versionId;
  if (op === "putObjectTagging") {
    step.tags = objectTags();
    if (step.tags === null) return null;
  }
  return step;
}

function runObjectStep(op) {
  const step = objectStep(op);
  if (step) run(step);
}

export function render(state) {
  for (const id of ["put-btn", "get-btn", "delete-btn", "tags-put-btn", "tags-get-btn", "mp-btn", "mp-start-btn"]) $(id).disabled = !state.bucket;
  renderResult(state);
}

// renderResult shows the outcome of the last step that shows one: its
// fields, or its error explained.
function renderResult(state) {
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
