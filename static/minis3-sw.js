// minis3-sw.js is MiniS3 as a service worker: an exact S3 for the pages it
// controls, with no server and no network. Register it as a module worker
// beside minis3.js, minis3.wasm and wasm_exec.js:
//
//   await navigator.serviceWorker.register(
//     "minis3-sw.js?endpoint=http://s3.test/&db=my-tests", { type: "module" });
//
// and let the page's S3 requests go once the worker controls the page (its
// controller's scriptURL is this worker's; docs/TESTING-WITH-MINIS3.md).
//
// Every request of a controlled page under `endpoint` (a URL prefix, resolved
// against the worker's scope; default "s3/" under the scope; another origin,
// such as "http://s3.test/", works too, since a service worker sees the
// requests of its pages to any URL) is answered by the S3 REST API of a
// MiniS3 store, the prefix stripped: with endpoint "s3/", a PUT of
// /s3/demo/k writes key k of bucket demo. Virtual-hosted URLs work too:
// with endpoint "http://s3.test/", http://demo.s3.test/k is the same key.
// Requests elsewhere go to the network as usual. The store lives in the
// IndexedDB database `db` (default "minis3-sw"), opened once per start of
// the worker, so a browser may stop the worker between requests and lose
// nothing.
//
// Under the same endpoint, the MiniS3 extensions answer too (JSON):
// /_minis3/clock, the lifecycle ticks and runs of the store's
// `/_minis3/` API, and one the worker adds, POST /_minis3/reset, which
// deletes the database and starts again with an empty store (clock 0).
// Signatures are not checked: any credentials and presigned URLs work.
//
// When the store cannot be opened, every request under the endpoint gets an
// S3 error (XML, code InternalError) saying why; the next request tries
// again.

import "./wasm_exec.js";
import ready from "./minis3.js";

const params = new URL(self.location.href).searchParams;
const endpoint = withSlash(new URL(params.get("endpoint") || "s3/", self.registration.scope).href);
const db = params.get("db") || "minis3-sw";

// A page the worker controls from the start needs no reload: the worker
// takes over at once, and claims the pages already open.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const path = underEndpoint(event.request.url);
  if (path !== null) {
    event.respondWith(answer(event.request, path));
  }
});

// withSlash ends url with "/", so that the endpoint "http://h/s3" does not
// take in http://h/s3x.
function withSlash(url) {
  return url.endsWith("/") ? url : url + "/";
}

// underEndpoint is the path-style path and query of url below the
// endpoint, starting with "/", or null when url is not under it. The
// endpoint itself, with or without its final slash, is "/" (ListBuckets).
// A virtual-hosted URL, the bucket in a subdomain of the endpoint's host
// (what S3 clients send unless told to use path style), is made path-style:
// http://photos.s3.test/cat.jpg is /photos/cat.jpg under http://s3.test/.
function underEndpoint(url) {
  if (url.startsWith(endpoint)) {
    return "/" + url.slice(endpoint.length);
  }
  const bare = endpoint.slice(0, -1);
  if (url === bare || url.startsWith(bare + "?")) {
    return "/" + url.slice(bare.length);
  }
  const u = new URL(url);
  const e = new URL(endpoint);
  const rest = u.pathname + u.search;
  if (u.protocol !== e.protocol || u.port !== e.port || !u.hostname.endsWith("." + e.hostname) || !rest.startsWith(e.pathname)) {
    return null;
  }
  const bucket = u.hostname.slice(0, -e.hostname.length - 1);
  const inBucket = rest.slice(e.pathname.length);
  return inBucket === "" || inBucket.startsWith("?") ? `/${bucket}${inBucket}` : `/${bucket}/${inBucket}`;
}

// The store of this start of the worker: its opening begins as the worker
// starts, and every request shares it. A failed open is forgotten, so the
// next request tries again.
let opening = null;

function store() {
  if (opening === null) {
    share(openStore());
  }
  return opening;
}

// share makes p the store every request awaits, until it fails.
function share(p) {
  opening = p;
  p.catch(() => {
    if (opening === p) opening = null;
  });
}

// Open the store as the worker starts, while it activates and claims its
// pages; a failure is reported to the first request.
store().catch(() => {});

async function openStore() {
  const minis3 = await ready;
  const s = await minis3.open({ db });
  if (s.storage !== "indexeddb") {
    s.close();
    throw new Error(`the store cannot be kept in IndexedDB (${s.storageError}), and a service worker's store must outlive the worker`);
  }
  return s;
}

async function answer(request, path) {
  if (path === "/_minis3/reset" || path.startsWith("/_minis3/reset?")) {
    return reset(request);
  }
  let s;
  try {
    s = await store();
  } catch (e) {
    return s3Error(500, "InternalError", `The MiniS3 service worker could not open its store in IndexedDB database "${db}": ${e.message}`);
  }
  const init = { method: request.method, headers: request.headers };
  if (request.method !== "GET" && request.method !== "HEAD") {
    init.body = await request.arrayBuffer();
  }
  // The host does not matter to the store (requests are path-style).
  try {
    return await s.fetch(new URL(endpoint).origin + path, init);
  } catch (e) {
    return s3Error(500, "InternalError", `The MiniS3 service worker's store failed: ${e.message}`);
  }
}

// reset closes the store, deletes its database and opens a new, empty store
// in it; requests that arrive meanwhile wait for the new store. It also
// clears a database the store could not open.
async function reset(request) {
  if (request.method !== "POST") {
    return s3Error(405, "MethodNotAllowed", "POST /_minis3/reset resets the store; no other method is allowed.");
  }
  const previous = opening;
  const fresh = (async () => {
    if (previous !== null) {
      await previous.then((s) => s.close(), () => {});
    }
    await (await ready).deleteDatabase(db);
    return openStore();
  })();
  share(fresh);
  try {
    await fresh;
  } catch (e) {
    return s3Error(500, "InternalError", `The MiniS3 service worker could not reset IndexedDB database "${db}": ${e.message}`);
  }
  return new Response(null, { status: 204 });
}

function s3Error(status, code, message) {
  const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escape(message)}</Message></Error>`;
  return new Response(xml, { status, headers: { "Content-Type": "application/xml" } });
}
