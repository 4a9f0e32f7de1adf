// compile.js starts MiniS3's Go program from minis3.wasm in one of two ways,
// chosen by ?path=: "bytes" reads the whole response and compiles its bytes
// (WebAssembly.compile), "streaming" compiles the response as it arrives
// (WebAssembly.compileStreaming), the only way V8 keeps and reuses compiled
// code across visits. Everything after the compile is what minis3.js does.
// It sets globalThis.started to a Promise of the marks, in ms from
// navigation start: compiled, and ready (the Go program's minis3 defined).
const path = new URLSearchParams(location.search).get("path");
const wasmURL = new URL("/minis3.wasm", location.href);

async function compile() {
  if (path === "streaming") {
    return WebAssembly.compileStreaming(fetch(wasmURL));
  }
  if (path === "bytes") {
    const response = await fetch(wasmURL);
    return WebAssembly.compile(await (await response.blob()).arrayBuffer());
  }
  throw new Error(`unknown path ${path}`);
}

globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (error) {
    return { error };
  }
};

async function start() {
  const module = await compile();
  const compiled = performance.now();
  const go = new Go();
  let ready;
  const isReady = new Promise((resolve) => { ready = resolve; });
  const instance = await WebAssembly.instantiate(module, { ...go.importObject, workers: { ready: () => ready() } });
  globalThis.context = { binding: {} };
  go.run(instance);
  await isReady;
  return { compiled, ready: performance.now() };
}

globalThis.started = start();

// use works the store for a while, as a reader would on a first visit, so
// that V8 optimises the hot functions: what it caches is compiled code.
globalThis.use = async () => {
  await globalThis.started;
  const store = await globalThis.minis3.open({ memory: true });
  await store.createBucket("use");
  await store.setBucketVersioning("use", "enabled");
  const until = performance.now() + 3000;
  let versions = [];
  for (let i = 0; performance.now() < until; i++) {
    await store.put("use", `k/${i % 30}`, `body ${i}`);
    if (i % 100 === 99) {
      versions = await store.listVersions("use", {});
      await store.evaluate("use", [{ id: "r", prefix: "k/", expireNoncurrentAfter: 0 }]);
      const res = await store.fetch(new Request("http://s3/use?versions"));
      await res.text();
    }
  }
  store.close();
  return versions.length;
};
