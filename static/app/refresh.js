// Reading the store into the state: what the views show of it, read again
// after every step and whenever another tab changed the store.
import { state, bucketsRead, bucketRead, noBucketRead, schedulesRead, livePreviewRead, s3ConfigRead, s3DraftsStarted } from "./state.js";
import { Client, prettyXML } from "./s3.js";
import { EXAMPLE, EXAMPLE_XML, configToRows } from "./s3config.js";
import { renderAll } from "./view.js";

// refresh reads the store and draws the page.
export async function refresh() {
  await readStore();
  renderAll();
}

// readStore reads what the views show (buckets, clock, the selected
// bucket's versioning, versions, uploads, S3 configuration, schedules and
// live preview) into the state, and draws nothing.
export async function readStore() {
  const store = state.store;
  // listBuckets first: it picks up another tab's writes, the clock included.
  bucketsRead(await store.listBuckets(), store.now());
  const bucket = state.bucket;
  if (bucket) {
    const versioning = await store.getBucketVersioning(bucket);
    const versions = await store.listVersions(bucket, {});
    bucketRead({ versioning, versions, uploads: await store.listMultipartUploads(bucket, {}) });
    await readConfiguration();
    schedulesRead(await readSchedules());
    if (!state.preview || state.preview.live) livePreviewRead(await livePreview());
  } else {
    noBucketRead();
    await readConfiguration();
  }
}

// readRuleViews reads again what follows the editor's rules: the live
// preview of the next tick, and the chapter's schedule.
export async function readRuleViews() {
  livePreviewRead(await livePreview());
  schedulesRead(await readSchedules());
}

// readConfiguration reads the selected bucket's stored S3 lifecycle
// configuration, unless it has read it since the last step that may have
// changed it (an s3 step, another tab's), and starts the editors' drafts
// again from it when it is not the one they started from.
async function readConfiguration() {
  const bucket = state.bucket;
  if (state.s3.readFor !== bucket) {
    let config = null;
    if (bucket) {
      try {
        config = await state.store.getBucketLifecycle(bucket);
      } catch (err) {
        if (err.code !== "NoSuchLifecycleConfiguration") throw err;
      }
    }
    s3ConfigRead(config, bucket);
  }
  const config = state.s3.config;
  const sig = JSON.stringify([bucket, config]);
  if (sig === state.s3.sig) return;
  // The XML is the store's own answer to GET ?lifecycle, read outside the
  // history (a Client whose exchanges nobody shows).
  const xml = config ? prettyXML((await new Client(state.store).getBucketLifecycle(bucket)).xml) : EXAMPLE_XML;
  s3DraftsStarted(sig, { form: configToRows(config ?? EXAMPLE), json: JSON.stringify(config ?? EXAMPLE, null, 2), xml });
}

// readSchedules reads what each version of the selected bucket faces next
// under the editor's rules and under the stored S3 configuration.
async function readSchedules() {
  const store = state.store;
  return {
    chapter: state.ruleErrors.length > 0 ? null : await store.expirationSchedule(state.bucket, state.rules),
    s3: await store.lifecycleSchedule(state.bucket),
  };
}

// livePreview is what the next tick would do now with the editor's rules
// (the pure phase, store.evaluate), or null while there are none or they
// are not valid.
async function livePreview() {
  if (state.rules.length === 0 || state.ruleErrors.length > 0) return null;
  return state.store.evaluate(state.bucket, state.rules);
}
