// Running steps. exec runs one step as its kind in steps.js says (S3
// requests through the store's fetch, recorded by s3.js's Client), has
// state.js record it and what it does to the page, reads the store again
// and draws the page; run queues a step as a job. wipe empties the store.
import { state, stepRan, lifecycleRan, setRuleRows, emptied } from "./state.js";
import { kindOf } from "./steps.js";
import { Client } from "./s3.js";
import { checkExpect, diffVersions, rulesToRows } from "./model.js";
import { enqueue } from "./jobs.js";
import { readStore } from "./refresh.js";
import { renderAll, setStatus } from "./view.js";
import { save } from "./saved.js";
import { tell } from "./course.js";

// exec runs one step, logs it with its HTTP exchanges and checks, records
// it for share links, and refreshes the view. It returns the checks;
// keepChecks, when given, gets them before the view and the page's saved
// state are (a scenario keeps its steps' checks). from names the panel
// the learner took the step in, which shows its outcome ("" for none).
// Performance measures (see BENCHMARKS.md): "minis3:OP" for a timed kind,
// with its refresh.
export async function exec(step, keepChecks, from = "") {
  const started = performance.now();
  const store = state.store;
  const kind = kindOf(step.op);
  const client = new Client(store);
  const entry = { title: kind.describe(step), now: state.now, ok: true, exchanges: client.exchanges, checks: [] };
  const page = { client, store, terminal: state.terminal, editorRules: state.rules, setEditorRules: (rules) => setRuleRows(rulesToRows(rules)) };
  const diffBucket = kind.diffs?.(step, { bucket: state.bucket, s3Config: state.s3.config }) ?? "";
  let before = null;
  let outcome;
  try {
    if (diffBucket) before = await store.listVersions(diffBucket, {});
    outcome = { ok: true, ...(await kind.run(step, page)) };
  } catch (err) {
    outcome = { ok: false, code: err.code || "InternalError", message: err.message };
  }
  entry.ok = outcome.ok;
  if (outcome.ok) entry.summary = kind.summarize(step, outcome);
  else Object.assign(entry, { code: outcome.code, message: outcome.message });
  entry.checks = checkExpect(step.expect, outcome);
  if (kind.movesClock) entry.now = store.now();
  stepRan(step, kind, outcome, entry, from);
  keepChecks?.(entry.checks);
  await readStore();
  // What the step did, or caused, as a lifecycle run (steps.js lastRun),
  // with what it changed in the bucket the kind compares (diffs).
  if (outcome.ok && kind.lastRun) {
    const diff = diffBucket ? diffVersions(before, diffBucket === state.bucket ? state.versions : await store.listVersions(diffBucket, {})) : null;
    const shown = kind.lastRun(step, outcome, { bucket: diffBucket, diff, now: store.now() });
    if (shown) lifecycleRan(shown);
  }
  renderAll();
  save();
  setStatus(outcome.ok ? `Done: ${entry.title}` : `Failed: ${entry.title} — ${outcome.code}`);
  if (kind.timed) performance.measure(`minis3:${step.op}`, { start: started });
  tellStep(entry, step);
  return entry.checks;
}

// run queues step, taken in the panel from, as a job.
export function run(step, from = "") {
  return enqueue(() => exec(step, undefined, from));
}

function tellStep(entry, step) {
  const failed = entry.checks.filter((c) => !c.pass).length;
  tell("step", { index: state.steps.length, op: step.op, title: entry.title, ok: entry.ok, code: entry.code ?? null, checks: entry.checks.length, failed });
}

// wipe deletes every version, upload and bucket, sets the clock to 0, and
// empties the page's own state with them.
export async function wipe() {
  const store = state.store;
  for (const b of await store.listBuckets()) {
    for (const v of await store.listVersions(b.name, {})) {
      await store.delete(b.name, v.key, { versionId: v.versionId });
    }
    for (const u of await store.listMultipartUploads(b.name, {})) {
      await store.abortMultipartUpload(b.name, u.key, u.uploadId);
    }
    await store.deleteBucket(b.name);
  }
  await store.setClock(0);
  emptied();
}
