// offline.js registers the offline worker (offline-sw.js) once a store has
// started, so that the playground and its embeds open offline after a
// first visit. An embed nobody started registers nothing and so downloads
// no wasm, now or in the background.
//
// The worker is registered as offline-sw.js?build=<validator>, where the
// validator is minis3.wasm's ETag, else its Last-Modified, else its
// length: every build of the wasm is a new worker with a new cache.
//
// The wasm is downloaded once: the page asks the loader for a copy of its
// response (index.html's <meta name="minis3-keep-wasm">), and puts it in
// the cache of its build before registering the worker, whose install
// keeps it there. On a host that forbids caching (no-store) the worker
// would otherwise download the whole wasm again.
//
// Its scope is the playground's directory. If another worker already holds
// that exact scope (for instance minis3-sw.js, which serves the S3 API to a
// web app's tests), it is left alone and the playground stays online-only
// there: registering would replace it.
const SCOPE = new URL("../", import.meta.url).href;
const WORKER = new URL("../offline-sw.js", import.meta.url);
const WASM = new URL("../minis3.wasm", import.meta.url);
// The worker's caches are named so, followed by the build.
const CACHE_PREFIX = "minis3-offline-";

// A page that enforces Trusted Types takes a worker's URL only as a
// TrustedScriptURL. The policy "minis3-offline" makes one for this worker
// and refuses any other script.
let policy;
function trustedWorkerURL(url) {
  if (policy === undefined) {
    try {
      policy = globalThis.trustedTypes?.createPolicy("minis3-offline", {
        createScriptURL: (s) => {
          const u = new URL(s);
          if (u.origin + u.pathname !== WORKER.href) throw new TypeError(`minis3-offline: loads only ${WORKER.href}, not ${s}`);
          return s;
        },
      }) ?? null;
    } catch {
      policy = null;
    }
  }
  return policy ? policy.createScriptURL(url.href) : url.href;
}

// validator is what tells a build of the wasm from another, read from the
// headers of a response for it (offline-sw.js reads it the same way).
const validator = (h) => h.get("ETag") ?? h.get("Last-Modified") ?? h.get("Content-Length") ?? "";

// buildOf asks the server for the wasm's validator, without its body.
async function buildOf(url) {
  const response = await fetch(url, { method: "HEAD", cache: "no-cache" });
  if (!response.ok) throw new Error(`HEAD ${url.pathname}: HTTP ${response.status}`);
  return validator(response.headers);
}

// keepWasm puts the wasm the page downloaded (copy, a response) in the
// cache of its build, unless the cache holds it already (this build's
// worker installed on an earlier visit).
async function keepWasm(build, copy) {
  const cache = await caches.open(CACHE_PREFIX + build);
  if (!(await cache.match(WASM))) await cache.put(WASM, copy);
}

// heldByAnother reports whether a worker other than offline-sw.js is
// registered for exactly the playground's scope.
async function heldByAnother(container) {
  const registration = await container.getRegistration(SCOPE);
  if (!registration || registration.scope !== SCOPE) return false;
  const worker = registration.active ?? registration.waiting ?? registration.installing;
  return worker !== null && new URL(worker.scriptURL).pathname !== WORKER.pathname;
}

// keepOffline registers the worker of the current build. It never throws:
// where service workers are unavailable (an insecure origin, a sandboxed
// frame) or the server cannot be asked, the page simply stays online-only,
// and says why on the console.
export async function keepOffline() {
  const copy = (await import("../minis3.js")).wasmResponse();
  try {
    const container = navigator.serviceWorker;
    if (!container) {
      console.info("minis3: no service workers here; the playground works online only");
      return;
    }
    if (await heldByAnother(container)) {
      console.info(`minis3: another service worker holds ${SCOPE}; the playground works online only`);
      return;
    }
    const build = copy ? validator(copy.headers) : await buildOf(WASM);
    if (copy) await keepWasm(build, copy);
    const script = new URL(WORKER);
    script.searchParams.set("build", build);
    await container.register(trustedWorkerURL(script));
  } catch (err) {
    console.info(`minis3: the playground works online only: ${err.message}`);
  } finally {
    // A copy the cache did not take is let go.
    if (copy && !copy.bodyUsed) copy.body.cancel().catch(() => {});
  }
}
