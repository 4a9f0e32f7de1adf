// Built-in scenarios: plain JSON files under scenarios/, listed in
// scenarios/index.json. docs/SCENARIOS.md describes the format. Scenario
// files and share links are input: checkSteps refuses anything the page
// could not run as written, with the step number in the message, before a
// single step runs.
import { normalizeSteps, describeStep } from "./model.js";

const BASE = new URL("../scenarios/", import.meta.url);
const FETCH_TIMEOUT_MS = 15000;

// What a scenario or a share link may ask the page to replay: every step is
// at least one request (a multipart step one per part, plus two), run one at
// a time.
export const MAX_STEPS = 2000;
export const MAX_REQUESTS = 10000;
export const MAX_RULES = 1000;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isSeconds = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isScalar = (v) => typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

// unknownField names the first field of obj that allowed lacks, or "".
function unknownField(obj, allowed) {
  return Object.keys(obj).find((k) => !Object.hasOwn(allowed, k)) ?? "";
}

const RULE_FIELDS = { id: "string", prefix: "string", expireCurrentAfter: "seconds", expireNoncurrentAfter: "seconds" };

function checkRules(rules) {
  if (!Array.isArray(rules)) return "must be a list of rules";
  if (rules.length > MAX_RULES) return `holds ${rules.length} rules; at most ${MAX_RULES}`;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    if (!isObject(r)) return `rule ${i + 1} is not an object`;
    const extra = unknownField(r, RULE_FIELDS);
    if (extra) return `rule ${i + 1} has an unknown field ${JSON.stringify(extra)}`;
    for (const [name, type] of Object.entries(RULE_FIELDS)) {
      if (r[name] === undefined) continue;
      if (type === "string" ? typeof r[name] !== "string" : !isSeconds(r[name])) {
        return `rule ${i + 1}: ${name} must be ${type === "string" ? "text" : "a number of seconds ≥ 0"}`;
      }
    }
  }
  return "";
}

function checkPatterns(list, withCount) {
  if (!Array.isArray(list)) return "must be a list";
  for (let i = 0; i < list.length; i++) {
    const p = list[i];
    if (!isObject(p)) return `item ${i + 1} is not an object`;
    for (const [k, v] of Object.entries(p)) {
      if (withCount && k === "count") {
        if (!Number.isSafeInteger(v) || v < 0) return `item ${i + 1}: count must be a whole number ≥ 0`;
      } else if (!isScalar(v)) {
        return `item ${i + 1}: ${JSON.stringify(k)} must be text, a number or true/false`;
      }
    }
  }
  return "";
}

const EXPECT_FIELDS = {
  error: (v) => (typeof v === "string" ? "" : "must be an S3 error code"),
  versionId: (v) => (typeof v === "string" ? "" : "must be text"),
  body: (v) => (typeof v === "string" ? "" : "must be text"),
  deleteMarker: (v) => (typeof v === "boolean" ? "" : "must be true or false"),
  actions: (v) => checkPatterns(v, false),
  include: (v) => checkPatterns(v, true),
  exclude: (v) => checkPatterns(v, false),
  versions: (v) => checkPatterns(v, false),
};

function checkExpect(expect) {
  if (!isObject(expect)) return "must be an object";
  const extra = unknownField(expect, EXPECT_FIELDS);
  if (extra) return `has an unknown field ${JSON.stringify(extra)}`;
  for (const [name, check] of Object.entries(EXPECT_FIELDS)) {
    if (expect[name] === undefined) continue;
    const problem = check(expect[name]);
    if (problem) return `${name} ${problem}`;
  }
  return "";
}

const text = (v) => (typeof v === "string" ? "" : "must be text");
const COMMON = { op: text, note: text, expect: checkExpect };
const OBJECT = { bucket: text, key: text };
const LIFECYCLE = { bucket: text, rules: checkRules };
const OP_FIELDS = {
  clock: { now: (v) => (isSeconds(v) ? "" : "must be a number of seconds ≥ 0") },
  createBucket: { bucket: text },
  deleteBucket: { bucket: text },
  versioning: { bucket: text, status: text },
  put: { ...OBJECT, body: text },
  get: { ...OBJECT, versionId: text },
  delete: { ...OBJECT, versionId: text },
  multipart: { ...OBJECT, parts: (v) => (Array.isArray(v) && v.every((p) => typeof p === "string") ? "" : "must be a list of texts") },
  rules: { rules: checkRules },
  preview: LIFECYCLE,
  tick: LIFECYCLE,
  check: { bucket: text, prefix: text },
};

// checkSteps checks raw steps (parsed JSON) strictly: known ops and fields
// only, each of the right type, thresholds and clock values finite and
// ≥ 0, within the limits above. It returns { steps } (each bucket filled
// from defaultBucket) or { error }.
export function checkSteps(raw, defaultBucket) {
  if (!Array.isArray(raw)) return { error: "steps must be a list" };
  if (raw.length > MAX_STEPS) return { error: `${raw.length} steps; at most ${MAX_STEPS}` };
  let requests = 0;
  for (let i = 0; i < raw.length; i++) {
    const s = raw[i];
    if (!isObject(s)) return { error: `step ${i + 1} is not an object` };
    const fields = Object.hasOwn(OP_FIELDS, s.op) ? OP_FIELDS[s.op] : null;
    if (!fields) return { error: `step ${i + 1} has an unknown op ${typeof s.op === "string" ? JSON.stringify(s.op.slice(0, 80)) : "(op must be text)"}` };
    const allowed = { ...COMMON, ...fields };
    const extra = unknownField(s, allowed);
    if (extra) return { error: `step ${i + 1} (${s.op}) has an unknown field ${JSON.stringify(extra).slice(0, 80)}` };
    for (const [name, check] of Object.entries(allowed)) {
      if (s[name] === undefined) continue;
      const problem = check(s[name]);
      if (problem) return { error: `step ${i + 1} (${s.op}): ${name} ${problem}` };
    }
    requests += s.op === "multipart" && Array.isArray(s.parts) ? s.parts.length + 2 : 1;
    if (requests > MAX_REQUESTS) return { error: `the steps up to step ${i + 1} send more than ${MAX_REQUESTS} requests` };
  }
  return normalizeSteps(raw, defaultBucket);
}

// parseScenario checks a scenario object (parsed JSON) and returns it ready
// to run; it throws an Error naming the scenario and the problem.
export function parseScenario(raw, name) {
  if (!isObject(raw)) throw new Error(`scenario ${name}: not a JSON object`);
  for (const field of ["title", "description", "bucket"]) {
    if (raw[field] !== undefined && typeof raw[field] !== "string") throw new Error(`scenario ${name}: ${field} must be text`);
  }
  const bucket = raw.bucket ?? "";
  const { steps, error } = checkSteps(raw.steps, bucket);
  if (error) throw new Error(`scenario ${name}: ${error}`);
  return {
    name,
    title: raw.title ?? name,
    description: raw.description ?? "",
    steps,
    titles: steps.map(describeStep),
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
  const results = await Promise.allSettled(index.scenarios.map(async (name) => parseScenario(await getJSON(new URL(`${encodeURIComponent(name)}.json`, BASE)), name)));
  return {
    scenarios: results.filter((r) => r.status === "fulfilled").map((r) => r.value),
    errors: results.filter((r) => r.status === "rejected").map((r) => r.reason.message),
  };
}
