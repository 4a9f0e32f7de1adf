// Playing an exercise away from the page. play runs steps on a store of
// its own, as the page's runner does but with nothing drawn: each step as
// its kind in steps.js says, with the chapter's rule editor kept as a
// plain value. factsOf then gathers what a task's checks look at, as the
// task panel does when a student presses Check. The goal a student can
// look at, the proof that an exercise can be solved, and the checker
// course authors run in their CI are all built on these two.
import { Client } from "./s3.js";
import { takenStep } from "./exercise.js";
import { MIN_PART_SIZE, kindOf } from "./steps.js";
import { checkExpect, parseRules, rulesToRows } from "./model.js";

// openStore opens an empty store in memory, of the kind the page plays
// steps on, from the minis3 object of minis3.js.
export function openStore(minis3) {
  return minis3.open({ memory: true, minPartSize: MIN_PART_SIZE });
}

// A player is one store and what the page would hold beside it: the rule
// editor's rules, the terminal (made on the first command line), and the
// steps taken, as the task panel records them.
export function newPlayer(store) {
  return { store, terminal: null, rules: [], ruleErrors: 0, taken: [] };
}

// play runs steps in order on the player's store. It returns the steps
// that did not do what they expect, each { index, step, problems }: a step
// expects to succeed unless its expect names the error it fails with, and
// its expect's checks (model.js checkExpect) to pass. Such a step does not
// stop the ones after it, as in the page.
export async function play(player, steps) {
  const unmet = [];
  for (const [index, step] of steps.entries()) {
    const outcome = await playStep(player, step);
    const problems = checkExpect(step.expect, outcome).filter((c) => !c.pass).map((c) => `${c.label}: ${c.detail}`);
    if (!outcome.ok && step.expect?.error === undefined && problems.length === 0) problems.push(`failed with ${outcome.code}: ${outcome.message}`);
    if (problems.length > 0) unmet.push({ index, step, problems });
  }
  return unmet;
}

// playStep runs one step and records it as taken; it returns its outcome.
export async function playStep(player, step) {
  const kind = kindOf(step.op);
  const { store } = player;
  if (step.op === "command" && player.terminal === null) player.terminal = await store.terminal();
  const page = {
    client: new Client(store),
    store,
    terminal: player.terminal,
    editorRules: player.rules,
    setEditorRules: (rules) => setRules(player, rules),
  };
  const at = store.now();
  let outcome;
  try {
    outcome = { ok: true, ...(await kind.run(step, page)) };
  } catch (err) {
    outcome = { ok: false, code: err.code || "InternalError", message: err.message };
  }
  player.taken.push(takenStep(step, outcome, kind.movesClock ? store.now() : at));
  return outcome;
}

// setRules sets the editor's rules as the page does: through its rows.
function setRules(player, rules) {
  const { rules: parsed, errors } = parseRules(rulesToRows(rules));
  player.rules = parsed;
  player.ruleErrors = errors.length;
}

// factsOf gathers the facts a task's checks look at (exercise.js), for the
// task's bucket, with answer as the student's answer ("" for none).
export async function factsOf(player, bucket, answer = "") {
  const { store } = player;
  let versions = [];
  let s3Rules = [];
  try {
    versions = await store.listVersions(bucket, {});
    s3Rules = (await store.getBucketLifecycle(bucket)).Rules;
  } catch (err) {
    if (err.code !== "NoSuchBucket" && err.code !== "NoSuchLifecycleConfiguration") throw err;
  }
  if (player.terminal === null) player.terminal = await store.terminal();
  const terminal = player.terminal;
  return {
    versions,
    rules: player.rules,
    ruleErrors: player.ruleErrors,
    s3Rules,
    taken: player.taken,
    answer,
    describe: (line) => terminal.describe(line),
  };
}
