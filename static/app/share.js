// The share-link codec: the playground's state as base64url JSON in the URL
// fragment. The fragment never reaches a server. A link is input from
// anyone: decodeShare checks all of it and either returns a state the page
// can replay as it is, or throws an Error whose message, meant for the
// reader, starts with "The share link".
import { checkSteps } from "./scenarios.js";
import { MAX_RULES, inside, shown } from "./steps.js";
import { readLinkJSON, writeLinkJSON } from "./linkjson.js";

const PREFIX = "s=";
const VERSION = 1;

// MAX_LINK_CHARS bounds the fragment (browsers keep URLs up to 2 MB).
export const MAX_LINK_CHARS = 1 << 20;

const FIELDS = new Set(["v", "steps", "rules", "bucket", "scenario"]);
const ROW_FIELDS = new Set(["id", "prefix", "current", "noncurrent"]);

const damaged = (why) => new Error(`The share link is damaged: ${why}.`);

// checkRows checks the rule editor's rows: objects of text fields.
function checkRows(rows) {
  if (!Array.isArray(rows)) return "its rules are not a list";
  if (rows.length > MAX_RULES) return `it holds ${rows.length} rules; at most ${MAX_RULES}`;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (r === null || typeof r !== "object" || Array.isArray(r)) return `rule ${i + 1} is not an object`;
    for (const [k, v] of Object.entries(r)) {
      if (!ROW_FIELDS.has(k)) return `rule ${i + 1} has an unknown field ${JSON.stringify(k.slice(0, 80))}`;
      if (typeof v !== "string") return `rule ${i + 1}: ${k} must be text`;
    }
  }
  return "";
}

// checkState checks a { v, steps, rules, bucket, scenario } state. It
// returns { state } with the steps normalized, or { problem }.
function checkState(p) {
  for (const k of Object.keys(p)) {
    if (!FIELDS.has(k)) return { problem: `it has an unknown field ${JSON.stringify(k.slice(0, 80))}` };
  }
  for (const k of ["bucket", "scenario"]) {
    if (p[k] !== undefined && typeof p[k] !== "string") return { problem: `its ${k} is not text` };
  }
  const rowsProblem = checkRows(p.rules);
  if (rowsProblem) return { problem: rowsProblem };
  const { steps, problem } = checkSteps(p.steps, "");
  if (problem) return { problem: shown(inside("steps", problem)) };
  return { state: { steps, rules: p.rules, bucket: p.bucket ?? "", scenario: p.scenario ?? "" } };
}

// encodeShare turns { steps, rules, bucket, scenario } into a fragment. It
// throws an Error for the reader when the state cannot travel in a link.
export function encodeShare(state) {
  const payload = { v: VERSION, steps: state.steps, rules: state.rules, bucket: state.bucket || "", scenario: state.scenario || "" };
  const { problem } = checkState(payload);
  if (problem) throw new Error(`This playground cannot be shared as a link: ${problem}.`);
  const fragment = PREFIX + writeLinkJSON(payload);
  if (fragment.length > MAX_LINK_CHARS) {
    throw new Error(`This playground is too big for a share link (${fragment.length} characters; at most ${MAX_LINK_CHARS}). Reset, or share fewer steps.`);
  }
  return fragment;
}

// decodeShare reads a fragment (without "#"). It returns null when the
// fragment holds no share state, the checked state when it does, and throws
// an Error for the reader when the state is too large or damaged.
export function decodeShare(fragment) {
  if (!fragment.startsWith(PREFIX)) return null;
  if (fragment.length > MAX_LINK_CHARS) {
    throw new Error(`The share link is too long (${fragment.length} characters; at most ${MAX_LINK_CHARS}).`);
  }
  const { value: p, problem: unread } = readLinkJSON(fragment.slice(PREFIX.length));
  if (unread) throw damaged(unread);
  if (p === null || typeof p !== "object" || Array.isArray(p)) throw damaged("its data is not an object");
  if (p.v !== VERSION) throw new Error("The share link is not a MiniS3 playground link of this version.");
  const { state, problem } = checkState(p);
  if (problem) throw damaged(problem);
  return state;
}
