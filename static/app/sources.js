// Scenarios from wherever their author keeps them (docs/EMBEDDING.md): a
// scenario file at a URL the link names (?scenario-url=), one carried in
// the link itself (#scenario=, base64url JSON, as share links carry
// steps), and a course file (?course=) that names a path of scenario
// files. They are input from anyone: fetched as data (never as script,
// never with the reader's cookies), parsed as JSON and checked as the
// built-in ones are (scenarios.js parseScenario). Each is named by where
// it comes from: its file's URL, or "inline-" and a hash of its text.
import { parseScenario } from "./scenarios.js";
import { readLinkJSON, writeLinkJSON } from "./linkjson.js";

const FETCH_TIMEOUT_MS = 15000;

// The largest scenario or course file read, in bytes.
export const MAX_FILE_BYTES = 1 << 20;

// The most exercises a course file may name.
export const MAX_COURSE_EXERCISES = 200;

// The fragment that carries a scenario in the link.
export const INLINE_PREFIX = "scenario=";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// fileURL reads a URL the link names, relative to base: http or https
// only. It throws an Error for the reader.
export function fileURL(text, base, what) {
  let url;
  try {
    url = new URL(text, base);
  } catch {
    throw new Error(`${what} ${JSON.stringify(text.slice(0, 200))} is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`${what} ${url.href.slice(0, 200)} is not an http or https URL.`);
  return url;
}

// fetchJSON fetches one file as data and parses it; it rejects with an
// Error that names the file and says what went wrong.
async function fetchJSON(url) {
  let res;
  try {
    res = await fetch(url, { mode: "cors", credentials: "omit", redirect: "follow", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (err) {
    throw new Error(`${url.href}: could not be fetched (${err.message}): is it on this site, or does its host allow other sites to read it (CORS)?`);
  }
  if (!res.ok) throw new Error(`${url.href}: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`);
  const body = await res.text();
  if (body.length > MAX_FILE_BYTES) throw new Error(`${url.href}: ${body.length} characters; at most ${MAX_FILE_BYTES}`);
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`${url.href}: not valid JSON`);
  }
}

// fetchScenario fetches and checks the scenario file at url (a URL); the
// scenario is named by its URL.
export async function fetchScenario(url) {
  return parseScenario(await fetchJSON(url), url.href);
}

// fetchCourse fetches a course file, { "title": text, "exercises": [URL
// of a scenario file, relative to the course file] }, and the scenarios
// it names. It resolves to { title, scenarios, errors }: the scenarios in
// the course's order, those that could not be loaded left out and named
// in errors; it rejects when the course file itself cannot be used.
export async function fetchCourse(url) {
  const raw = await fetchJSON(url);
  if (!isObject(raw)) throw new Error(`course ${url.href}: not a JSON object`);
  const extra = Object.keys(raw).find((k) => k !== "title" && k !== "exercises");
  if (extra !== undefined) throw new Error(`course ${url.href}: unknown field ${JSON.stringify(extra.slice(0, 80))} (a course has title and exercises)`);
  if (raw.title !== undefined && typeof raw.title !== "string") throw new Error(`course ${url.href}: title must be text`);
  const list = raw.exercises;
  if (!Array.isArray(list) || list.length === 0 || !list.every((e) => typeof e === "string")) throw new Error(`course ${url.href}: exercises must be a list of the URLs of scenario files`);
  if (list.length > MAX_COURSE_EXERCISES) throw new Error(`course ${url.href}: ${list.length} exercises; at most ${MAX_COURSE_EXERCISES}`);
  const results = await Promise.allSettled(list.map((e, i) => fetchScenario(fileURL(e, url, `course exercise ${i + 1}`))));
  return {
    title: raw.title ?? url.href,
    scenarios: results.filter((r) => r.status === "fulfilled").map((r) => r.value),
    errors: results.filter((r) => r.status === "rejected").map((r) => r.reason.message),
  };
}

// encodeInline turns a scenario (an object, as its file holds it) into
// the fragment that carries it, without "#".
export function encodeInline(raw) {
  return INLINE_PREFIX + writeLinkJSON(raw);
}

// decodeInline reads the scenario a fragment (without "#") carries: null
// when it carries none, the checked scenario when it does. It throws an
// Error for the reader when it is damaged or not a valid scenario.
export function decodeInline(fragment) {
  if (!fragment.startsWith(INLINE_PREFIX)) return null;
  const text = fragment.slice(INLINE_PREFIX.length);
  const damaged = (why) => new Error(`The scenario in this link is damaged: ${why}.`);
  if (text.length > MAX_FILE_BYTES * 2) throw damaged(`it is ${text.length} characters long; at most ${MAX_FILE_BYTES * 2}`);
  const { value: raw, problem } = readLinkJSON(text);
  if (problem) throw damaged(problem);
  try {
    return parseScenario(raw, `inline-${hash(text)}`);
  } catch (err) {
    throw new Error(`The scenario in this link cannot be used: ${err.message.replace(/^scenario inline-[0-9a-f]+: /, "")}.`);
  }
}

// hash is a short name for a text (FNV-1a, 32 bits, in hex): the same
// inline scenario keeps its name, and its solved mark, across reloads.
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}
