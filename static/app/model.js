// Pure functions over plain data: no DOM, no store. Everything the page
// shows is computed here from listVersions output, the clock and the rules.

// fmt prints a clock value or a duration: at most three decimals, no
// trailing zeros (14.999, 15, 0.5).
export function fmt(n) {
  if (typeof n !== "number" || !Number.isFinite(n)) return String(n);
  return String(Math.round(n * 1000) / 1000);
}

// isolate wraps a datum (a key, body, version ID, rule ID, note or
// scenario title) for a one-line message, as Fluent does with placeables:
// between FIRST STRONG ISOLATE (U+2068) and POP DIRECTIONAL ISOLATE
// (U+2069), so that a bidi control inside it, such as U+202E RIGHT-TO-LEFT
// OVERRIDE, cannot reorder the rest of the line. A datum's own unmatched
// PDIs would close the isolate early and its unclosed isolates would take
// the closing PDI, so there is one more FSI per unmatched PDI and one more
// PDI per unclosed isolate.
export function isolate(datum) {
  const s = String(datum);
  let open = 0;
  let stray = 0;
  for (const c of s) {
    if (c === "\u2066" || c === "\u2067" || c === "\u2068") open++;
    else if (c === "\u2069") {
      if (open > 0) open--;
      else stray++;
    }
  }
  return "\u2068".repeat(stray + 1) + s + "\u2069".repeat(open + 1);
}

// parseSeconds reads one threshold field. Empty is unset (null), which the
// chapter distinguishes from 0.
export function parseSeconds(text) {
  const s = String(text ?? "").trim();
  if (s === "") return { value: null };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
    return { error: `"${s}" is not a number of seconds` };
  }
  const v = Number(s);
  if (!Number.isFinite(v)) return { error: `"${s}" is too large` };
  if (v < 0) return { error: `${s} is negative; a threshold must be ≥ 0` };
  return { value: v };
}

// parseRules turns the editor's rows of strings into API rules, and explains
// every problem per row and field. Rules are only usable when errors is empty.
export function parseRules(rows) {
  const rules = [];
  const errors = [];
  const seen = new Set();
  rows.forEach((row, i) => {
    const rowErrors = {};
    const id = String(row.id ?? "").trim();
    if (id === "") rowErrors.id = "Give the rule an ID: actions report it.";
    else if (seen.has(id)) rowErrors.id = `Another rule already has the ID "${id}".`;
    seen.add(id);
    const cur = parseSeconds(row.current);
    const non = parseSeconds(row.noncurrent);
    if (cur.error) rowErrors.current = cur.error;
    if (non.error) rowErrors.noncurrent = non.error;
    if (!cur.error && !non.error && cur.value === null && non.value === null) {
      rowErrors.rule = "Set at least one threshold (0 is allowed; empty means unset).";
    }
    if (Object.keys(rowErrors).length > 0) {
      errors.push({ row: i, ...rowErrors });
      return;
    }
    const rule = { id, prefix: String(row.prefix ?? "") };
    if (cur.value !== null) rule.expireCurrentAfter = cur.value;
    if (non.value !== null) rule.expireNoncurrentAfter = non.value;
    rules.push(rule);
  });
  return { rules, errors };
}

// rulesToRows is the inverse of parseRules for valid rules.
export function rulesToRows(rules) {
  return (rules || []).map((r) => ({
    id: r.id ?? "",
    prefix: r.prefix ?? "",
    current: r.expireCurrentAfter === undefined || r.expireCurrentAfter === null ? "" : String(r.expireCurrentAfter),
    noncurrent: r.expireNoncurrentAfter === undefined || r.expireNoncurrentAfter === null ? "" : String(r.expireNoncurrentAfter),
  }));
}

// groupStacks groups listVersions output by key, keys ascending (bytewise,
// as the store lists them) and each stack newest first.
export function groupStacks(versions) {
  const byKey = new Map();
  for (const v of versions) {
    if (!byKey.has(v.key)) byKey.set(v.key, []);
    byKey.get(v.key).push(v);
  }
  return [...byKey.entries()].map(([key, entries]) => ({ key, entries }));
}

// thresholds lists, for one entry of a stack, the instants at which each
// matching rule's threshold is crossed, with the rule that sets it. Only data
// versions expire: the current one by expireCurrentAfter, noncurrent ones by
// expireNoncurrentAfter (MiniS3 measures both from creation time).
export function thresholds(key, entry, rules) {
  if (entry.isDeleteMarker) return [];
  const out = [];
  for (const r of rules) {
    if (!key.startsWith(r.prefix || "")) continue;
    const after = entry.isLatest ? r.expireCurrentAfter : r.expireNoncurrentAfter;
    if (after === undefined || after === null) continue;
    out.push({
      ruleId: r.id,
      kind: entry.isLatest ? "expire_current" : "expire_noncurrent",
      after,
      at: entry.createdAt + after,
    });
  }
  return out;
}

// lifetimes gives each entry of a stack the instant it stopped being current
// (the creation of the next newer entry), or null while it is current.
export function lifetimes(stack) {
  return stack.entries.map((e, i) => ({
    entry: e,
    supersededAt: i === 0 ? null : stack.entries[i - 1].createdAt,
  }));
}

// tagKey names a version's tags in the page's copy of them: a version's
// tags change only by a tagging request, and a null version replaced by
// another is another version.
export const tagKey = (bucket, key, v) => `${bucket}\u0000${key}\u0000${v.versionId}\u0000${v.createdAt}`;

// A null version replaced by a null delete marker keeps its version ID, so an
// entry is identified by its kind and creation time too.
const entryId = (v) => `${v.key}\u0000${v.versionId}\u0000${v.isDeleteMarker}\u0000${v.createdAt}`;

// diffVersions explains a tick or a lifecycle run by comparing listVersions
// before and after.
export function diffVersions(before, after) {
  const afterIds = new Set(after.map(entryId));
  const beforeIds = new Set(before.map(entryId));
  const classBefore = new Map(before.map((v) => [entryId(v), v.storageClass]));
  const diff = { removedNoncurrent: [], removedCurrent: [], removedNull: [], newMarkers: [], added: [], becameCurrent: [], changedClass: [] };
  for (const v of before) {
    if (afterIds.has(entryId(v))) continue;
    if (v.versionId === "null") diff.removedNull.push(v);
    else if (v.isLatest) diff.removedCurrent.push(v);
    else diff.removedNoncurrent.push(v);
  }
  const wasLatest = new Set(before.filter((v) => v.isLatest).map(entryId));
  for (const v of after) {
    if (!beforeIds.has(entryId(v))) {
      if (v.isDeleteMarker) diff.newMarkers.push(v);
      else diff.added.push(v);
    } else {
      if (v.isLatest && !wasLatest.has(entryId(v))) diff.becameCurrent.push(v);
      const was = classBefore.get(entryId(v));
      if (was !== v.storageClass) diff.changedClass.push({ ...v, was });
    }
  }
  return diff;
}

export function diffIsEmpty(d) {
  return Object.values(d).every((list) => list.length === 0);
}

// previewMarks indexes preview actions by key and version ID.
export function previewMarks(actions) {
  const m = new Map();
  for (const a of actions || []) m.set(`${a.key}\u0000${a.versionId}`, a);
  return m;
}

export function markFor(marks, key, versionId) {
  return marks.get(`${key}\u0000${versionId}`);
}

// matches reports whether obj has every field of pattern (a subset match).
function matches(obj, pattern) {
  return Object.entries(pattern).every(([k, v]) => k === "count" || obj[k] === v);
}

function showPattern(p) {
  return Object.entries(p).filter(([k]) => k !== "count").map(([k, v]) => `${k}=${v}`).join(", ");
}

function listMatches(list, expected) {
  return list.length === expected.length && expected.every((p, i) => matches(list[i], p));
}

function showActions(actions) {
  if (actions.length === 0) return "[]";
  return describeActions(actions);
}

// describeActions is a list of lifecycle actions on one line.
export function describeActions(actions) {
  return actions.map((a) => {
    const target = a.uploadId ? `upload ${isolate(a.uploadId)}` : isolate(a.versionId);
    const to = a.storageClass ? ` to ${isolate(a.storageClass)}` : "";
    return `${a.kind} ${isolate(a.key)} ${target}${to} (rule ${isolate(a.ruleId)})`;
  }).join("; ");
}

// showVersions lists versions (or patterns of them: only the fields they
// give) on one line.
function showVersions(versions) {
  return versions.map((v) => [
    v.key === undefined ? "" : isolate(v.key),
    v.versionId === undefined ? "" : isolate(v.versionId),
    v.isDeleteMarker ? "marker" : "",
    v.storageClass && v.storageClass !== "STANDARD" ? v.storageClass : "",
  ].filter(Boolean).join(" ")).join("; ") || "none";
}

// showList lists schedule items, uploads or rules (or patterns of them)
// on one line: the key, version and kind as they are, the rest as
// name=value.
function showList(list) {
  const plain = new Set(["key", "versionId", "kind", "ID"]);
  return list.map((x) => Object.entries(x).map(([k, v]) => (plain.has(k) ? isolate(v) : `${k}=${typeof v === "string" ? isolate(v) : v}`)).join(" ")).join("; ") || "none";
}

const showTags = (tags) => tags.map((t) => `${t.key}=${t.value}`).join(", ") || "no tags";

// checkExpect compares a step's outcome with its expect block and returns
// one { label, pass, detail } per expectation. outcome: { ok, code, actions,
// body, versionId, deleteMarker, versions, storageClass, time, expiration,
// tags, uploads, rules, s3Schedule, chapterSchedule }.
export function checkExpect(expect, outcome) {
  if (!expect) return [];
  const checks = [];
  const add = (label, pass, detail) => checks.push({ label, pass, detail });
  if (expect.error !== undefined) {
    add(`fails with ${expect.error}`, !outcome.ok && outcome.code === expect.error, outcome.ok ? "succeeded" : `failed with ${outcome.code}`);
  } else if (!outcome.ok) {
    add("succeeds", false, `failed with ${outcome.code}`);
  }
  if (expect.actions !== undefined) {
    const got = outcome.actions || [];
    add(`actions are ${expect.actions.length === 0 ? "none" : expect.actions.map(showPattern).join("; ")}`, listMatches(got, expect.actions), `got ${showActions(got)}`);
  }
  for (const p of expect.include || []) {
    const got = (outcome.actions || []).filter((a) => matches(a, p));
    const want = p.count;
    const pass = want === undefined ? got.length > 0 : got.length === want;
    add(want === undefined ? `an action with ${showPattern(p)}` : `exactly ${want} action(s) with ${showPattern(p)}`, pass, `found ${got.length}`);
  }
  for (const p of expect.exclude || []) {
    const got = (outcome.actions || []).filter((a) => matches(a, p));
    add(`no action with ${showPattern(p)}`, got.length === 0, got.length === 0 ? "none found" : `found ${showActions(got)}`);
  }
  if (expect.body !== undefined) {
    add(`body is ${JSON.stringify(expect.body)}`, outcome.ok && outcome.body === expect.body, outcome.ok ? `body ${JSON.stringify(outcome.body)}` : "no body");
  }
  if (expect.stdout !== undefined) {
    add(`prints ${JSON.stringify(expect.stdout)}`, outcome.stdout === expect.stdout, `printed ${JSON.stringify(outcome.stdout ?? "")}`);
  }
  if (expect.versionId !== undefined) {
    add(`version ID is ${expect.versionId}`, outcome.versionId === expect.versionId, `got ${outcome.versionId ?? "none"}`);
  }
  if (expect.deleteMarker !== undefined) {
    add(expect.deleteMarker ? "is a delete marker" : "is not a delete marker", Boolean(outcome.deleteMarker) === expect.deleteMarker, outcome.deleteMarker ? "delete marker" : "no delete marker");
  }
  if (expect.versions !== undefined) {
    const got = outcome.versions || [];
    add(`versions are ${showVersions(expect.versions)}`, listMatches(got, expect.versions), `got ${showVersions(got)}`);
  }
  if (expect.storageClass !== undefined) {
    add(`storage class is ${expect.storageClass}`, outcome.storageClass === expect.storageClass, `got ${outcome.storageClass ?? "none"}`);
  }
  if (expect.time !== undefined) {
    add(`the clock shows ${expect.time}`, outcome.time === expect.time, `it shows ${outcome.time ?? "nothing"}`);
  }
  if (expect.expiration !== undefined) {
    const got = outcome.expiration ?? null;
    const pass = expect.expiration === null ? got === null : got !== null && matches(got, expect.expiration);
    add(expect.expiration === null ? "S3 lifecycle sets no expiration" : `S3 lifecycle expires it: ${showPattern(expect.expiration)}`, pass,
      got === null ? "no x-amz-expiration" : `x-amz-expiration ${showPattern(got)}`);
  }
  if (expect.tags !== undefined) {
    const got = outcome.tags || [];
    const pass = got.length === expect.tags.length && expect.tags.every((t, i) => got[i].key === t.key && got[i].value === t.value);
    add(`tags are ${showTags(expect.tags)}`, pass, `got ${showTags(got)}`);
  }
  for (const [field, what] of [["uploads", "uploads in progress"], ["rules", "stored rules"], ["s3Schedule", "S3's schedule"], ["chapterSchedule", "the chapter's schedule"]]) {
    if (expect[field] === undefined) continue;
    const got = outcome[field] || [];
    add(`${what}: ${expect[field].length === 0 ? "none" : showList(expect[field])}`, listMatches(got, expect[field]), `got ${showList(got)}`);
  }
  return checks;
}
