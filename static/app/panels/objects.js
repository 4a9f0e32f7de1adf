// The Objects panel (#actions-panel): the object form (PUT, GET, DELETE,
// tags, with a version ID or not), multipart uploads, and the outcome of
// the last step taken here.
import { $ } from "../dom.js";
import { PUT_CLASSES, parseTags } from "../s3config.js";
import { state } from "../state.js";
import { run } from "../runner.js";
import { resultFrom, showResult } from "../views.js";
import { MIN_PART_SIZE } from "../steps.js";

export { MIN_PART_SIZE };

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
    run({ op: "multipart", bucket: state.bucket, key: $("mp-key").value, parts }, "actions");
  });
  $("mp-start-btn").addEventListener("click", () => {
    if ($("mp-key").reportValidity()) run({ op: "createMultipartUpload", bucket: state.bucket, key: $("mp-key").value }, "actions");
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
  if (step) run(step, "actions");
}

export function render(state) {
  for (const id of ["put-btn", "get-btn", "delete-btn", "tags-put-btn", "tags-get-btn", "mp-btn", "mp-start-btn"]) $(id).disabled = !state.bucket;
  // The outcome of a step taken here, or of one taken in no panel (a
  // scenario's, a solution's).
  showResult($("result"), resultFrom(state, "") ?? resultFrom(state, "actions"));
}
