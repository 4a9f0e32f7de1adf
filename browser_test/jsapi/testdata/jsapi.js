// Loads MiniS3 as a page would. globalThis.loaded settles to "ok" or to the
// loader's error message, so the test can tell a load failure from a hang.
import ready from "../minis3.js";

globalThis.loaded = ready.then(() => "ok", (e) => "error: " + e.message);

// Framed (by sandboxed.html): report what minis3.open chose to the parent.
if (window.parent !== window) {
  ready
    .then(async (minis3) => {
      const store = await minis3.open({ db: "framed" });
      parent.postMessage({ storage: store.storage, storageError: store.storageError ?? null }, "*");
    })
    .catch((e) => parent.postMessage({ error: String(e) }, "*"));
}
