// preload.js starts the store while the page's modules are still loading:
// it imports minis3.js, which fetches and compiles minis3.wasm and starts
// the Go program, so that these overlap the modules instead of waiting for
// main.js to run (main.js's own import then finds the module started): the
// cold-load budget. A <link rel="preload"> of the wasm is not used: the
// page would read the preloaded wasm while its modules load. An embedded page
// (?embed=1) loads the store only when the reader asks, so nothing starts
// here.
"use strict";
if (new URLSearchParams(location.search).get("embed") !== "1") {
  // A failure is main.js's to report, through its own import.
  import("../minis3.js").then((m) => m.default).catch(() => {});
  // A profile's first use of IndexedDB sets up its storage: asking for the
  // list of databases does that (and creates nothing) while the wasm loads,
  // rather than in the store's open on a first visit.
  try {
    globalThis.indexedDB?.databases?.().catch(() => {});
  } catch {
    // IndexedDB is not available here: the store says so when it opens.
  }
}
