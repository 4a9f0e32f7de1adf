// preload.js starts the store while the page's modules are still loading:
// it imports minis3.js, which fetches and compiles minis3.wasm and starts
// the Go program, so that these overlap the modules instead of waiting for
// main.js to run (main.js's own import then finds the module started). This
// took 0.1-0.2 s off the cold load in headless Chromium; a <link
// rel="preload"> of the wasm beside it made the load slower, as the page
// read the preloaded 7 MB while its modules loaded. An embedded page
// (?embed=1) loads the store only when the reader asks, so nothing starts
// here.
"use strict";
if (new URLSearchParams(location.search).get("embed") !== "1") {
  // A failure is main.js's to report, through its own import.
  import("../minis3.js").then((m) => m.default).catch(() => {});
  // A profile's first use of IndexedDB sets up its storage: asking for the
  // list of databases does that (and creates nothing) while the wasm loads,
  // and the store's open then took 20-30 ms less on a first visit.
  try {
    globalThis.indexedDB?.databases?.().catch(() => {});
  } catch {
    // IndexedDB is not available here: the store says so when it opens.
  }
}
