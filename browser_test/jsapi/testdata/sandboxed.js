// The iframe of sandboxed.html (scripts allowed, no same origin, so no
// IndexedDB) posts what minis3.open chose; globalThis.framed resolves to it.
globalThis.framed = new Promise((resolve) => {
  addEventListener("message", (e) => resolve(e.data), { once: true });
});
