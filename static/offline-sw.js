// offline-sw.js keeps the playground working offline after a first visit.
// static/app/offline.js registers it once a store has started, as
// offline-sw.js?build=<the validator of minis3.wasm>, over the directory it
// sits in (its default scope).
//
// It keeps one build of the app shell in the cache "minis3-offline-<build>":
// the page, its modules, styles, scenarios, the loader and the wasm. A new
// build is a new script URL, so the browser installs a new worker, which
// fills a new cache with the current files and, once active, deletes the
// caches of the old builds. Online, every request goes to the network as if
// there were no worker (the HTTP cache and V8's code cache work as ever);
// only when the network fails does it answer from the cache.
//
// It answers nothing else: other requests, other directories and other
// methods reach the network untouched.
"use strict";

const CACHE_PREFIX = "minis3-offline-";
const build = new URL(self.location.href).searchParams.get("build") || "unversioned";
const cacheName = CACHE_PREFIX + build;
const base = new URL("./", self.location.href);

// The shell, relative to this worker. The page itself is kept as "./",
// which is where a static host serves index.html; scenarios/index.json
// names the scenario files, which are added to it.
const SHELL = [
  "./",
  "style.css",
  "favicon.png",
  "minis3.js",
  "wasm_exec.js",
  "minis3.wasm",
  "app/builder.js",
  "app/compare.js",
  "app/course.js",
  "app/dates.js",
  "app/dom.js",
  "app/exercise.js",
  "app/goal.js",
  "app/host.js",
  "app/jobs.js",
  "app/layout.js",
  "app/linkjson.js",
  "app/main.js",
  "app/model.js",
  "app/offline.js",
  "app/panels/bucket.js",
  "app/panels/builder.js",
  "app/panels/clock.js",
  "app/panels/folds.js",
  "app/panels/goal.js",
  "app/panels/header.js",
  "app/panels/history.js",
  "app/panels/objects.js",
  "app/panels/path.js",
  "app/panels/rules.js",
  "app/panels/s3lifecycle.js",
  "app/panels/scenarios.js",
  "app/panels/sidebyside.js",
  "app/panels/stacks.js",
  "app/panels/task.js",
  "app/panels/terminal.js",
  "app/panels/timeline.js",
  "app/params.js",
  "app/path.js",
  "app/play.js",
  "app/preload.js",
  "app/prove.js",
  "app/refresh.js",
  "app/runner.js",
  "app/s3.js",
  "app/s3config.js",
  "app/s3editor.js",
  "app/saved.js",
  "app/scenarios.js",
  "app/share.js",
  "app/sources.js",
  "app/stackview.js",
  "app/state.js",
  "app/steps.js",
  "app/view.js",
  "app/views.js",
  "scenarios/index.json",
];

// shellFiles lists every file of the shell: SHELL and the scenarios that
// scenarios/index.json names.
async function shellFiles() {
  const response = await fetch(new URL("scenarios/index.json", base), { cache: "no-cache" });
  if (!response.ok) throw new Error(`scenarios/index.json: HTTP ${response.status}`);
  const { scenarios } = await response.json();
  return [...SHELL, ...scenarios.map((name) => `scenarios/${name}.json`)];
}

// validator is what tells a build of the wasm from another, read from the
// headers of a response for it (app/offline.js reads it the same way).
const validator = (h) => h.get("ETag") ?? h.get("Last-Modified") ?? h.get("Content-Length") ?? "";

// precache fills this build's cache with the current version of every
// shell file, asking the server rather than trusting the HTTP cache's
// guess of freshness. The page that registered the worker has put the
// wasm it downloaded there already (app/offline.js): that one is kept,
// when it is this build's, rather than downloaded again. One missing file
// fails the install: the old build then stays in charge.
async function precache() {
  const files = await shellFiles();
  const cache = await caches.open(cacheName);
  const kept = await cache.match(new URL("minis3.wasm", base));
  const missing = kept && validator(kept.headers) === build ? files.filter((file) => file !== "minis3.wasm") : files;
  await cache.addAll(missing.map((file) => new Request(new URL(file, base), { cache: "no-cache" })));
}

// dropOldBuilds deletes the caches of every other build of this worker,
// and nothing else.
async function dropOldBuilds() {
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== cacheName).map((n) => caches.delete(n)));
}

// shellKey is the cache key of a request for a shell file, or null for a
// request this worker leaves alone. The page is asked for as the directory
// or as index.html, with any query (?embed=1&scenario=…).
function shellKey(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  const file = url.pathname.slice(base.pathname.length);
  if (file === "" || file === "index.html") return new URL("./", base).href;
  if (SHELL.includes(file) || (file.startsWith("scenarios/") && file.endsWith(".json"))) {
    return new URL(file, base).href;
  }
  return null;
}

// fromNetworkOrCache answers from the network, and from the cache only when
// the network cannot be reached: an HTTP error is the server's answer.
async function fromNetworkOrCache(request, key) {
  try {
    return await fetch(request);
  } catch (err) {
    const cached = await (await caches.open(cacheName)).match(key);
    if (cached) return cached;
    throw err;
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropOldBuilds());
});

self.addEventListener("fetch", (event) => {
  const key = shellKey(event.request);
  if (key !== null) event.respondWith(fromNetworkOrCache(event.request, key));
});
