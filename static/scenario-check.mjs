// scenario-check.mjs checks scenario files for course authors' CI, with
// Node (18 or later), from any copy of the playground's files:
//
//   node scenario-check.mjs FILE...
//
// Each file is checked as the playground checks it, by the page's own
// modules: read as the page reads a scenario (app/scenarios.js
// parseScenario: every field known and of its type, every step one the
// page can run), then proven (app/prove.js) on a store of its own in
// MiniS3's wasm, next to this file: every step of the stage and of the
// solution does what it expects, and an exercise's task is not solved on
// the stage alone but is after its solution.
//
// It prints "FILE: OK" for a sound file and "FILE: PROBLEM" for each
// problem of one that is not, then a count. Exit status: 0 when every file
// is sound, 1 when one is not, 2 for a usage error, a file it cannot read,
// or a wasm it cannot start.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { DOMParser } from "./node-domparser.mjs";

const USAGE = "usage: node scenario-check.mjs FILE...\n";

// The page wraps the data it shows in bidi isolates (app/model.js isolate);
// a terminal shows them as they are, so they go.
const plain = (text) => text.replace(/[\u2068\u2069]/g, "");

// The page loads minis3.wasm with fetch, which in Node reads no file: URL.
async function fileFetch(input, init) {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.protocol !== "file:") return nodeFetch(input, init);
  const type = url.pathname.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
  return new Response(await readFile(fileURLToPath(url)), { headers: { "content-type": type } });
}
const nodeFetch = globalThis.fetch;

// start loads the wasm and the page's modules, once the globals they use
// in a browser are there.
async function start() {
  globalThis.fetch = fileFetch;
  globalThis.DOMParser = DOMParser;
  // Node 18 (Debian 12's) has Web Crypto, which Go's wasm_exec.js needs, only as an import.
  globalThis.crypto ??= (await import("node:crypto")).webcrypto;
  await import("./wasm_exec.js");
  const minis3 = await (await import("./minis3.js")).default;
  const { parseScenario } = await import("./app/scenarios.js");
  const { prove } = await import("./app/prove.js");
  const { openStore } = await import("./app/play.js");
  return { open: () => openStore(minis3), parseScenario, prove };
}

// check returns the problems of one scenario file's text, each one line.
async function check(text, name, { open, parseScenario, prove }) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return [`not valid JSON: ${err.message}`];
  }
  let scenario;
  try {
    scenario = parseScenario(raw, name);
  } catch (err) {
    // The message names the scenario, as the page's status line does; the
    // report names its file already.
    return [err.message.replace(`scenario ${name}: `, "")];
  }
  try {
    return (await prove(scenario, open)).problems;
  } catch (err) {
    return [`could not be played to the end: ${err.message}`];
  }
}

async function main(files) {
  if (files.length === 0 || files.some((f) => f.startsWith("-"))) {
    process.stderr.write(USAGE);
    return 2;
  }
  const texts = [];
  for (const file of files) {
    try {
      texts.push(await readFile(file, "utf8"));
    } catch (err) {
      process.stderr.write(`${file}: cannot read it: ${err.message}\n`);
      return 2;
    }
  }
  let page;
  try {
    page = await start();
  } catch (err) {
    process.stderr.write(`scenario-check: cannot start MiniS3's wasm next to this script (is it built? make wasm): ${err.message}\n`);
    return 2;
  }
  let unsound = 0;
  for (const [i, file] of files.entries()) {
    const problems = await check(texts[i], basename(file, ".json"), page);
    if (problems.length === 0) process.stdout.write(`${file}: OK\n`);
    for (const problem of problems) process.stdout.write(plain(`${file}: ${problem}\n`));
    if (problems.length > 0) unsound++;
  }
  process.stdout.write(`${files.length} file(s) checked: ${files.length - unsound} sound, ${unsound} not\n`);
  return unsound === 0 ? 0 : 1;
}

// The Go program keeps running for the store, so the script ends itself.
process.exit(await main(process.argv.slice(2)));
