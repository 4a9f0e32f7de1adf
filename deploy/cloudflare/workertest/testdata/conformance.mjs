// StorageConformance runs the tests of package dostore (a Go test binary
// compiled to wasm, which miniflare.mjs names dostore.test.wasm) inside a Durable Object, over the
// object's own SQLite storage through the bridge of sqlstorage.mjs, and
// answers { code, output }: the binary's exit code and what it printed.
// The query's arg parameters are the binary's arguments (-test.v, ...).
// miniflare.mjs runs this module alone, as the entry of its own worker.
//
// The binary reaches the storage through globalThis.context:
//   openStorage()        a bridge over the object's storage, as it is
//   freshStorage()       the same, emptied first
//   failingStorage(n)    a fresh bridge whose nth INSERT throws
//   partSize             the bytes of a value one row holds
import { DurableObject } from "cloudflare:workers";
import "../../worker/wasm_exec.js";
import { PART_SIZE, sqlStorage } from "../../worker/sqlstorage.mjs";
import tests from "./dostore.test.wasm";

export class StorageConformance extends DurableObject {
  async fetch(request) {
    const storage = this.ctx.storage;
    const empty = () => storage.sql.exec("DROP TABLE IF EXISTS items");
    const go = new Go();
    go.argv = ["dostore.test", ...new URL(request.url).searchParams.getAll("arg")];
    let code = null;
    go.exit = (c) => { code = c; };
    let output = "";
    const decoder = new TextDecoder();
    const writeSync = globalThis.fs.writeSync;
    globalThis.fs.writeSync = (fd, buf) => {
      output += decoder.decode(buf, { stream: true });
      return buf.length;
    };
    globalThis.context = {
      partSize: PART_SIZE,
      openStorage: () => sqlStorage(storage),
      freshStorage: () => {
        empty();
        return sqlStorage(storage);
      },
      failingStorage: (n) => {
        empty();
        return sqlStorage(failingAt(storage, n));
      },
    };
    try {
      const instance = await WebAssembly.instantiate(tests, go.importObject);
      await go.run(instance);
    } finally {
      globalThis.fs.writeSync = writeSync;
      delete globalThis.context;
    }
    return Response.json({ code, output });
  }
}

/** storage, except that its nth INSERT statement throws. */
function failingAt(storage, n) {
  let inserts = 0;
  const sql = {
    exec(query, ...bindings) {
      if (query.startsWith("INSERT") && ++inserts === n) {
        throw new Error(`INSERT number ${n} fails, as the test asked`);
      }
      return storage.sql.exec(query, ...bindings);
    },
  };
  return { sql, transactionSync: (fn) => storage.transactionSync(fn) };
}

export default {
  fetch(request, env) {
    return env.CONFORMANCE.get(env.CONFORMANCE.idFromName("conformance")).fetch(request);
  },
};
