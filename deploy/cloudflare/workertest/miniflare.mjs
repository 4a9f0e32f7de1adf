// Runs the worker under Miniflare for the Go tests of this package, with
// no Cloudflare account and no network: node miniflare.mjs OPTIONS_JSON.
//
// OPTIONS_JSON: { root, wasm, wasmExec, persist, secret, clock, testsWasm,
// httpsKey, httpsCert }: root is deploy/cloudflare, wasm the built
// Go program, wasmExec Go's wasm_exec.js, persist the directory that keeps
// the Durable Objects' storage, testsWasm (optional) the dostore test
// binary for the StorageConformance object.
//
// With testsWasm it runs testdata/conformance.mjs alone; without, the
// worker (testdata/entry.mjs, which adds what only tests need).
//
// It prints "url URL" once the worker serves at URL. Each line on stdin is
// a JSON object of options to change, and restarts Miniflare with them:
// every Durable Object and its Go instance is dropped, the storage in
// persist stays. It stops when stdin closes.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import { Miniflare } from "miniflare";

let options = JSON.parse(process.argv[2]);

function config(o) {
  const wrangler = readFileSync(path.join(o.root, "wrangler.jsonc"), "utf8");
  const compatibilityDate = /"compatibility_date":\s*"([^"]+)"/.exec(wrangler)[1];
  const esm = (file) => ({ type: "ESModule", path: path.join(o.root, file) });
  const wasmExec = { type: "ESModule", path: path.join(o.root, "worker/wasm_exec.js"), contents: readFileSync(o.wasmExec) };
  const common = {
    host: "127.0.0.1",
    port: 0,
    httpsKey: o.httpsKey,
    httpsCert: o.httpsCert,
    compatibilityDate,
    modulesRoot: o.root,
    durableObjectsPersist: o.persist,
  };
  if (o.testsWasm) {
    return {
      ...common,
      modules: [
        esm("workertest/testdata/conformance.mjs"),
        esm("worker/sqlstorage.mjs"),
        wasmExec,
        { type: "CompiledWasm", path: path.join(o.root, "workertest/testdata/dostore.test.wasm"), contents: readFileSync(o.testsWasm) },
      ],
      durableObjects: { CONFORMANCE: { className: "StorageConformance", useSQLite: true } },
    };
  }
  return {
    ...common,
    modules: [
      esm("workertest/testdata/entry.mjs"),
      ...["index", "store", "roster", "class", "go", "sqlstorage"].map((m) => esm(`worker/${m}.mjs`)),
      wasmExec,
      { type: "CompiledWasm", path: path.join(o.root, "worker/minis3.wasm"), contents: readFileSync(o.wasm) },
    ],
    durableObjects: {
      STORES: { className: "StudentStore", useSQLite: true },
      ROSTER: { className: "ClassRoster", useSQLite: true },
    },
    bindings: { CLASS_SECRET: o.secret, CLOCK: o.clock },
  };
}

let mf = new Miniflare(config(options));
console.log(`url ${await mf.ready}`);

for await (const line of createInterface({ input: process.stdin })) {
  options = { ...options, ...JSON.parse(line) };
  await mf.dispose();
  mf = new Miniflare(config(options));
  console.log(`url ${await mf.ready}`);
}
await mf.dispose();
