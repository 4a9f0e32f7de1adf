// minis3.js loads MiniS3's WebAssembly build and resolves to the `minis3`
// object of its JavaScript API (also set as globalThis.minis3):
//
//   import ready from "./minis3.js";
//   const minis3 = await ready;
//   const store = await minis3.open({ db: "playground" });
//
// Importing the module starts fetching and compiling minis3.wasm at once, and
// loads wasm_exec.js, Go's runtime glue, with a <script src> element, so it
// works under a Content-Security-Policy without 'unsafe-inline' or
// 'unsafe-eval' (it needs script-src 'self' 'wasm-unsafe-eval'), and under
// Trusted Types through its policy "minis3" (trustedScriptURL). A page may
// also include wasm_exec.js itself before importing this module. Both files
// are looked up next to this module.
//
// One Go instance serves the whole page. A load failure rejects the promise
// with an Error saying what failed; nothing is swallowed.
//
// A page that keeps its files for offline use (the playground, whose
// offline worker caches the wasm) may ask for the wasm's response with
// <meta name="minis3-keep-wasm"> in its head: the loader then keeps a copy
// of it, which wasmResponse() hands over, so that the page's cache takes
// the wasm it downloaded rather than download it again.

const wasmURL = new URL("./minis3.wasm", import.meta.url);
const wasmExecURL = new URL("./wasm_exec.js", import.meta.url);
const keepsCopy = globalThis.document?.querySelector('meta[name="minis3-keep-wasm"]') != null;
let copy = null;

// Start the fetch and compile now: they are the slow part of the start.
const compiled = compile(wasmURL);
// Keep an early failure from being reported as unhandled before start()
// gets to it; start() still rejects with it.
compiled.catch(() => {});

async function compile(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`minis3: could not fetch ${url}: ${e.message}`, { cause: e });
  }
  if (!response.ok) {
    throw new Error(`minis3: fetching ${url} failed: HTTP ${response.status}`);
  }
  if (keepsCopy) copy = response.clone();
  // Served as application/wasm, the module is compiled from the response
  // as it streams in: V8 then keeps the compiled code in its cache, keyed
  // by the URL and checked against the response, and a later visit starts
  // from it instead of compiling again. A host that sends another type
  // gets the same module compiled from the bytes, without that cache.
  let module;
  try {
    module = isWasm(response) ? await WebAssembly.compileStreaming(response) : await compileBytes(response);
  } catch (e) {
    const step = e instanceof WebAssembly.CompileError ? "compile" : "read";
    throw new Error(`minis3: could not ${step} ${url}: ${e.message}`, { cause: e });
  }
  performance.mark("minis3:wasm-compiled");
  return module;
}

// compileBytes reads the whole body, then compiles it.
async function compileBytes(response) {
  const bytes = await response.arrayBuffer();
  return WebAssembly.compile(bytes);
}

// isWasm reports whether a response is typed application/wasm, which
// compileStreaming requires.
function isWasm(response) {
  const type = response.headers.get("Content-Type") ?? "";
  return type.split(";")[0].trim().toLowerCase() === "application/wasm";
}

// A page that enforces Trusted Types (require-trusted-types-for 'script')
// takes a script's src only as a TrustedScriptURL. The policy "minis3"
// makes one for wasm_exec.js next to this module and refuses any other URL.
// A page that restricts policy names (trusted-types) must allow "minis3";
// without it, and without enforcement, the URL is used as a string.
let scriptPolicy;
function trustedScriptURL(url) {
  if (scriptPolicy === undefined) {
    try {
      scriptPolicy = globalThis.trustedTypes?.createPolicy("minis3", {
        createScriptURL: (s) => {
          if (s !== wasmExecURL.href) throw new TypeError(`minis3: the policy "minis3" loads only ${wasmExecURL.href}, not ${s}`);
          return s;
        },
      }) ?? null;
    } catch {
      scriptPolicy = null;
    }
  }
  return scriptPolicy ? scriptPolicy.createScriptURL(url.href) : url.href;
}

// loadGoRuntime makes sure globalThis.Go (from wasm_exec.js) exists.
function loadGoRuntime(url) {
  if (typeof globalThis.Go === "function") {
    return Promise.resolve();
  }
  if (typeof document === "undefined") {
    return Promise.reject(new Error(
      `minis3: no document to load ${url} into; load wasm_exec.js before importing minis3.js`));
  }
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = trustedScriptURL(url);
    script.onload = () => {
      if (typeof globalThis.Go === "function") {
        resolve();
      } else {
        reject(new Error(`minis3: ${url} loaded but defined no Go class`));
      }
    };
    script.onerror = () => reject(new Error(`minis3: could not load ${url} (blocked by the page's Content-Security-Policy, or missing)`));
    document.head.append(script);
  });
}

// tryCatch is called by github.com/syumai/workers on the Go side.
if (typeof globalThis.tryCatch !== "function") {
  globalThis.tryCatch = (fn) => {
    try {
      return { result: fn() };
    } catch (error) {
      return { error };
    }
  };
}

async function start() {
  const [module] = await Promise.all([compiled, loadGoRuntime(wasmExecURL)]);
  const go = new Go();
  let ready;
  const isReady = new Promise((resolve) => { ready = resolve; });
  let instance;
  try {
    instance = await WebAssembly.instantiate(module, {
      ...go.importObject,
      workers: { ready: () => ready() },
    });
  } catch (e) {
    throw new Error(`minis3: could not instantiate ${wasmURL} (is wasm_exec.js from the Go that built it?): ${e.message}`, { cause: e });
  }
  // syumai/workers reads globalThis.context.binding while the Go program
  // initialises, and puts handleRequest on it. The Go side keeps its own
  // reference, so the page's own `context` (if any) is restored afterwards.
  const hadContext = Object.prototype.hasOwnProperty.call(globalThis, "context");
  const previousContext = globalThis.context;
  globalThis.context = { binding: {} };
  const exited = go.run(instance).then(() => {
    throw new Error("minis3: the Go program exited before it was ready (see the console)");
  });
  try {
    await Promise.race([isReady, exited]);
  } finally {
    if (hadContext) {
      globalThis.context = previousContext;
    } else {
      delete globalThis.context;
    }
  }
  if (typeof globalThis.minis3 !== "object" || globalThis.minis3 === null) {
    throw new Error("minis3: the Go program started but defined no minis3 object");
  }
  performance.mark("minis3:go-ready");
  return globalThis.minis3;
}

/** A Promise of the minis3 object; it rejects with an Error if loading fails. */
const minis3 = start();
export default minis3;

/**
 * The copy of minis3.wasm's response a page asked for (see keepsCopy), once
 * the store has started: the first call hands it over, and later calls, as
 * a page that did not ask, get null.
 */
export function wasmResponse() {
  const kept = copy;
  copy = null;
  return kept;
}
