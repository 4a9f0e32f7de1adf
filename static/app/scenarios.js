// Built-in scenarios: plain JSON files under scenarios/, listed in
// scenarios/index.json. docs/SCENARIOS.md describes the format. Scenario
// files and share links are input: parseScenario and checkSteps refuse
// anything the page could not run or check as written, naming the field
// by its path in the file, before a single step runs.
import { checkStep, inside, kindOf, shown, unknownField } from "./steps.js";
import { checkTask } from "./exercise.js";

const BASE = new URL("../scenarios/", import.meta.url);
const FETCH_TIMEOUT_MS = 15000;

// What a scenario or a share link may ask the page to replay, run one step
// at a time (the most rules a step may hold is MAX_RULES in steps.js).
export const MAX_STEPS = 2000;
export const MAX_REQUESTS = 10000;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// checkSteps checks raw steps (parsed JSON) with checkStep (steps.js), and
// that there are not too many of them or of the requests they send. It
// returns { steps } (each bucket filled from defaultBucket), or { problem,
// error }: the problem (steps.js inside) and its line, with the path from
// the list ("[2].key: must be text").
export function checkSteps(raw, defaultBucket) {
  const refused = (problem) => ({ problem, error: shown(problem) });
  if (!Array.isArray(raw)) return refused("must be a list of steps");
  if (raw.length > MAX_STEPS) return refused(`${raw.length} steps; at most ${MAX_STEPS}`);
  const steps = [];
  let requests = 0;
  for (let i = 0; i < raw.length; i++) {
    const { step, problem } = checkStep(raw[i], defaultBucket);
    if (problem) return refused(inside(`[${i}]`, problem));
    // A step that sends no request (rules, check) is still work: it counts as one.
    requests += Math.max(1, kindOf(step.op).requests(step));
    if (requests > MAX_REQUESTS) return refused(inside(`[${i}]`, `the steps up to this one send more than ${MAX_REQUESTS} requests`));
    steps.push(step);
  }
  return { steps };
}

// The fields of a scenario file.
const SCENARIO_FIELDS = ["title", "description", "bucket", "steps", "task"];

// scenarioProblem is what is wrong with a scenario object (parsed JSON) as
// a whole, with the path of the field it is in (steps.js inside), or "".
function scenarioProblem(raw) {
  if (!isObject(raw)) return "not a JSON object";
  const extra = unknownField(raw, SCENARIO_FIELDS);
  if (extra) return extra;
  for (const field of ["title", "description", "bucket"]) {
    if (raw[field] !== undefined && typeof raw[field] !== "string") return inside(field, "must be text");
  }
  if (raw.steps === undefined) return "needs steps: the list of steps that set the stage";
  return "";
}

// parseScenario checks a scenario object (parsed JSON), with its task when
// it ends with one (exercise.js), and returns it ready to run; it throws an
// Error naming the scenario, the field and the problem, in one line:
// scenario NAME: task.checks[4].versions[2]: unknown field "versionID" (did you mean "versionId"?)
export function parseScenario(raw, name) {
  const refuse = (problem) => {
    throw new Error(`scenario ${name}: ${shown(problem)}`);
  };
  const problem = scenarioProblem(raw);
  if (problem) refuse(problem);
  const bucket = raw.bucket ?? "";
  const checked = checkSteps(raw.steps, bucket);
  if (checked.problem) refuse(inside("steps", checked.problem));
  let task = null;
  if (raw.task !== undefined) {
    const checkedTask = checkTask(raw.task, bucket);
    if (checkedTask.problem) refuse(inside("task", checkedTask.problem));
    task = checkedTask.task;
  }
  const { steps } = checked;
  return {
    name,
    title: raw.title ?? name,
    description: raw.description ?? "",
    steps,
    titles: steps.map((step) => kindOf(step.op).describe(step)),
    task,
    bucket,
  };
}

// getJSON fetches and parses one file; it rejects with an Error naming the
// file, also when the host does not answer.
async function getJSON(url) {
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (err) {
    throw new Error(`${url.pathname}: could not fetch (${err.message})`);
  }
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  const body = await res.text();
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`${url.pathname}: not valid JSON`);
  }
}

// loadScenario fetches and checks the one scenario named; it rejects with
// an Error naming the file or the problem.
export async function loadScenario(name) {
  return parseScenario(await getJSON(new URL(`${encodeURIComponent(name)}.json`, BASE)), name);
}

// loadScenarios fetches every scenario the index lists, in index order. It
// never rejects: a file that cannot be fetched or checked is left out and
// named in errors, so the rest of the page still works.
export async function loadScenarios() {
  let index;
  try {
    index = await getJSON(new URL("index.json", BASE));
    if (!isObject(index) || !Array.isArray(index.scenarios) || !index.scenarios.every((n) => typeof n === "string")) {
      throw new Error("scenarios/index.json: needs a scenarios list of names");
    }
  } catch (err) {
    return { scenarios: [], errors: [err.message] };
  }
  const results = await Promise.allSettled(index.scenarios.map(loadScenario));
  return {
    scenarios: results.filter((r) => r.status === "fulfilled").map((r) => r.value),
    errors: results.filter((r) => r.status === "rejected").map((r) => r.reason.message),
  };
}
