// The page's header: where the store keeps its data, the share link (the
// steps taken, the rules and the bucket, as share.js encodes them), and
// Reset.
import { $ } from "../dom.js";
import { isolate } from "../model.js";
import { encodeShare } from "../share.js";
import { state, setRuleRows, sharedBucketSelected } from "../state.js";
import { enqueue } from "../jobs.js";
import { refresh } from "../refresh.js";
import { exec, wipe } from "../runner.js";
import { save } from "../saved.js";
import { tell } from "../course.js";
import { confirmDialog, setStatus } from "../view.js";

export function wire() {
  $("share-btn").addEventListener("click", () => {
    try {
      $("share-url").value = shareURL();
    } catch (err) {
      setStatus(err.message);
      return;
    }
    $("share-dialog").showModal();
    $("share-url").select();
  });
  $("share-copy").addEventListener("click", async () => {
    $("share-url").select();
    try {
      await navigator.clipboard.writeText($("share-url").value);
      setStatus("Link copied.");
    } catch {
      setStatus("Copy is blocked here: select the link and copy it by hand.");
    }
  });
  $("reset-btn").addEventListener("click", async () => {
    if (!(await confirmDialog("Reset deletes every bucket, version and the history, and sets the clock to 0.", "Reset"))) return;
    enqueue(async () => {
      await wipe();
      await refresh();
      save();
      setStatus("The playground is empty again.");
      tell("reset", {});
    });
  });
}

function shareURL() {
  const frag = encodeShare({ steps: state.steps, rules: state.rows, bucket: state.bucket, scenario: state.scenario?.name });
  return `${location.origin}${location.pathname}#${frag}`;
}

// restoreShare replays a state that decodeShare has checked.
export async function restoreShare(shared) {
  for (const step of shared.steps) await exec(step);
  setRuleRows(shared.rules.map((r) => ({ id: String(r.id ?? ""), prefix: String(r.prefix ?? ""), current: String(r.current ?? ""), noncurrent: String(r.noncurrent ?? "") })));
  sharedBucketSelected(shared.bucket);
  await refresh();
  setStatus(`Restored ${shared.steps.length} steps from a share link${shared.scenario ? ` (scenario ${isolate(shared.scenario)})` : ""}.`);
}

// The header shows its controls and where the store keeps its data once
// the store has started.
export function render(state) {
  $("storage-mode").textContent = storageText(state);
  $("storage-mode").hidden = false;
  $("share-btn").hidden = false;
  $("reset-btn").hidden = false;
}

function storageText(state) {
  if (state.storage === "indexeddb") return `Storage: IndexedDB (database "${state.dbName}", kept across reloads)`;
  if (state.dbName) return "Storage: memory — IndexedDB is not available here, so everything is lost on reload";
  return "Storage: memory (nothing is kept after this page closes)";
}
