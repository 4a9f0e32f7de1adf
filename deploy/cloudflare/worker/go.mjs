// Starts one long-lived instance of MiniS3's Go program (deploy/cloudflare,
// compiled to minis3.wasm) for a Durable Object.
//
// The stock loader of github.com/syumai/workers starts a new Go instance
// for every request; a store must keep its instance, and its state, while
// its object is active. So this loader instantiates the module once per
// object and runs the program, which serves with workers.ServeNonBlock,
// calls workers.Ready() and then waits forever; every request then goes to
// the handleRequest that syumai/workers put on the program's binding.
import "./wasm_exec.js";
import program from "./minis3.wasm";

// syumai/workers calls a global tryCatch(fn) returning { result } or
// { error }; its generated loader defines it, so this one must too.
globalThis.tryCatch ??= (fn) => {
  try {
    return { result: fn() };
  } catch (error) {
    return { error };
  }
};

/**
 * Runs the Go program for one Durable Object.
 * @param {object} store the object's side (see main.go: accessKey,
 *   secretKey, clock, storage, opened); the program adds runDueLifecycles.
 * @param {() => void} exited called if the program ever stops.
 * @returns {Promise<(request: Request) => Promise<Response>>} handleRequest
 */
export async function startGo(store, exited) {
  const go = new Go();
  let ready = false;
  const instance = await WebAssembly.instantiate(program, {
    ...go.importObject,
    workers: { ready: () => { ready = true; } },
  });
  // The program reads globalThis.context while it starts: syumai/workers
  // at package init, main.go in main. Both run within go.run's first,
  // synchronous step, so no other object's start can come in between.
  const context = { binding: {}, store };
  globalThis.context = context;
  try {
    go.run(instance).finally(exited);
  } finally {
    delete globalThis.context;
  }
  if (!ready) {
    throw new Error("the MiniS3 Go program stopped before it was ready");
  }
  return (request) => context.binding.handleRequest(request);
}
