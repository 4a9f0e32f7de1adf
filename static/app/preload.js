// preload.js asks for minis3.wasm while the page's modules are still loading,
// so that the store's download overlaps them (minis3.js then gets the
// preloaded response from its fetch). An embedded page (?embed=1) loads the
// store only when the reader asks, so it is not preloaded there.
"use strict";
if (new URLSearchParams(location.search).get("embed") !== "1") {
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "fetch";
  link.type = "application/wasm";
  link.crossOrigin = "anonymous";
  link.href = "minis3.wasm";
  document.head.append(link);
}
