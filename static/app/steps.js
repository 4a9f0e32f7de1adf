// The page's steps: one entry per kind of step, keyed by its op, with
// everything about that kind. A learner's click, a scenario file and a share
// link all become steps; main.js runs, titles and logs each by its entry,
// and shows what its entry says it does to the page, and scenarios.js
// checks scenario files and share links against the entries.
// A new kind of step is one entry in STEPS, the S3 request it sends (a
// method of the Client in s3.js) and a row in docs/SCENARIOS.md.
//
// An entry has:
//   panel        where a learner takes a step of this kind: a panel's name
//                as ?hide= names it, or a part of one ("days": the clock's
//                day steps, "tags": the Objects panel's tags and storage
//                class, "multipart": its upload form); or (step) => that,
//                when it depends on the step's fields. An exercise shows
//                the panels its steps are taken in and folds the others
//                away.
//   fields       the fields of a step of this kind besides op, note and
//                expect: required(check) or optional(check), where check
//                returns what is wrong with a value (a problem, below),
//                or "".
//   describe     (step) => its one-line title, for the history and the
//                scenario panel.
//   summarize    (step, outcome) => its outcome in one line, for the
//                history and the result panel, when it succeeded.
//   mutates      it changes the store, the clock or the rules, so a shown
//                preview is out of date.
//   showsResult  its outcome goes to the result panel (a failure always does).
//   requests     (step) => how many S3 requests it sends.
//   run          (step, page) => the fields of its outcome; it throws an
//                error with a code when the step fails. page holds client
//                (the S3 client of s3.js, which records each exchange),
//                store (the JS API), terminal (store.terminal()),
//                editorRules (the rule editor's rules) and
//                setEditorRules(rules).
// and, only where needed:
//   check        (step) => what is wrong with the step as a whole (fields
//                that go together), or "".
//   movesClock   the history shows the time after the step, not before.
//   removesBucket  the page does not select the step's bucket after it.
//   marks        "chapter" or "s3": its actions mark the stacks, as what
//                the next tick, or the next S3 run, would do.
//   s3           it is about the bucket's stored S3 lifecycle
//                configuration, not the chapter's rules: the S3 lifecycle
//                panel shows its errors, and the page reads the
//                configuration again.
//   diffs        (step, selected) => the bucket whose versions the page
//                compares before and after the step, or "". selected
//                holds the page's selected bucket and its stored S3
//                configuration (s3Config, or null).
//   lastRun      (step, outcome, { bucket, diff, now }) => what the page
//                shows of the lifecycle run the step was or caused, once
//                it succeeded: { tick } (the chapter's) or { s3 } (S3's
//                runs), or null; diff is what changed in bucket (diffs).
//   timed        the page measures it with its refresh ("minis3:OP").
//   prints       it is a command line: its outcome is what the terminal
//                printed (stdout, stderr, status), shown on the terminal's
//                screen rather than in the result panel. A line that
//                fails is an outcome too, with ok false, a code and a
//                message, rather than a throw, so that what it printed is
//                shown.
import { fmt, isolate, describeActions, parseRules, rulesToRows } from "./model.js";
import { DAY, isoTime, nextMidnight, parseTime, roundClock, showDate } from "./dates.js";

// The most rules a step or a share link may hold.
export const MAX_RULES = 1000;

// The smallest part but the last of a multipart upload, in bytes: every
// store the page plays steps on is opened with it (S3's is 5 MiB), so that
// a multipart step's parts can be a few characters.
export const MIN_PART_SIZE = 5;

// ---- problems with input: where they are, and what is wrong ----
//
// Scenario files and share links are input, checked field by field. A
// check returns "" when the value is right; otherwise a problem: the text
// of what is wrong with the value as a whole, or { at, text } for what is
// wrong inside it, at the path at from the value ("tags[1].key"). inside
// puts a problem one field or item further down, and shown gives its line,
// so that every refusal names the field as the file spells it:
// steps[2].expect.versions[0]: unknown field "versionID" (did you mean "versionId"?)

// inside is problem as seen from the value holding it under segment (a
// field's name, or "[i]" for a list's item); "" stays "".
export function inside(segment, problem) {
  if (!problem) return "";
  const { at, text } = typeof problem === "string" ? { at: "", text: problem } : problem;
  return { at: at === "" ? segment : at.startsWith("[") ? segment + at : `${segment}.${at}`, text };
}

// shown is a problem's line: its path, then what is wrong.
export function shown(problem) {
  if (typeof problem === "string") return problem;
  return problem.at === "" ? problem.text : `${problem.at}: ${problem.text}`;
}

// editDistance counts the characters to insert, delete, change or swap
// with the next to turn a into b.
function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

// closestName is the name of known that name most likely misspells: the
// same but for case, or one or two characters off (one for a name of three
// or fewer); or "".
export function closestName(name, known) {
  const same = known.find((k) => k.toLowerCase() === name.toLowerCase());
  if (same !== undefined) return same;
  const limit = name.length <= 3 ? 1 : 2;
  let best = "";
  let bestDistance = limit + 1;
  for (const k of known) {
    if (Math.abs(k.length - name.length) > limit) continue;
    const d = editDistance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

// unknownName says that name is none of known, suggesting the closest.
function unknownName(what, name, known) {
  const close = closestName(name, known);
  return `unknown ${what} ${JSON.stringify(name.slice(0, 80))}${close ? ` (did you mean ${JSON.stringify(close)}?)` : ""}`;
}

// unknownField is the problem of the first field of obj that is none of
// the names known, or "".
export function unknownField(obj, known) {
  const extra = Object.keys(obj).find((k) => !known.includes(k));
  return extra === undefined ? "" : unknownName("field", extra, known);
}

// ---- field checks ----

const required = (check) => ({ check, required: true });
const optional = (check) => ({ check, required: false });

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isSeconds = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isScalar = (v) => typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

const text = (v) => (typeof v === "string" ? "" : "must be text");
const seconds = (v) => (isSeconds(v) ? "" : "must be a number of seconds ≥ 0");
const clockReading = (v) => (typeof v === "number" && Number.isFinite(v) ? "" : "must be a number of seconds");
const date = (v) => (typeof v !== "string" ? "must be a date in RFC 3339" : parseTime(v).error ?? "");
const days = (v) => (isSeconds(v) ? "" : "must be a number of days ≥ 0");
const textOrObject = (v) => (typeof v === "string" || isObject(v) ? "" : "must be a JSON object or its text");

// eachItem checks a list item by item with check(item): the first
// problem, at its index, or "".
function eachItem(list, check) {
  for (let i = 0; i < list.length; i++) {
    const problem = check(list[i]);
    if (problem) return inside(`[${i}]`, problem);
  }
  return "";
}

// tagList checks tags: a list of { key, value }, both text.
function tagList(v) {
  if (!Array.isArray(v)) return "must be a list of { key, value }";
  return eachItem(v, (t) => {
    if (!isObject(t)) return 'must be { "key": text, "value": text }';
    return unknownField(t, ["key", "value"]) || inside("key", text(t.key)) || inside("value", text(t.value));
  });
}
const texts = (v) => (Array.isArray(v) && v.every((p) => typeof p === "string") ? "" : "must be a list of texts");
// The longest command line a step may hold.
const MAX_LINE = 10000;
const commandLine = (v) => (typeof v !== "string" || v.trim() === "" ? "must be a command line" : /[\r\n]/.test(v) ? "must be one line" : v.length > MAX_LINE ? `is longer than ${MAX_LINE} characters` : "");
const oneOf = (...values) => (v) => (values.includes(v) ? "" : `must be ${values.map((x) => JSON.stringify(x)).join(" or ")}`);

// The fields of a chapter rule, as the API takes it.
const RULE_FIELDS = { id: text, prefix: text, expireCurrentAfter: seconds, expireNoncurrentAfter: seconds };

// ruleList checks a list of API rules: each of the right shape, and all of
// them rules the editor accepts (an ID of its own, a threshold each).
function ruleList(list) {
  if (!Array.isArray(list)) return "must be a list of rules";
  if (list.length > MAX_RULES) return `holds ${list.length} rules; at most ${MAX_RULES}`;
  const shape = eachItem(list, (r) => {
    if (!isObject(r)) return "is not an object";
    const extra = unknownField(r, Object.keys(RULE_FIELDS));
    if (extra) return extra;
    for (const [name, check] of Object.entries(RULE_FIELDS)) {
      if (r[name] !== undefined && check(r[name])) return inside(name, check(r[name]));
    }
    return "";
  });
  if (shape) return shape;
  // The thresholds are numbers by now, so only an ID or a missing threshold can fail here.
  const [first] = parseRules(rulesToRows(list)).errors;
  if (first) return inside(`[${first.row}]`, first.id ? inside("id", "is empty or another rule's ID") : "sets no threshold");
  return "";
}

// The fields a pattern may compare, by what it is compared with: what the
// store answers, as the JavaScript API's listVersions,
// listMultipartUploads, lifecycle actions (with, for the daily runs of a
// clock move, the run's bucket, at and time), lifecycleSchedule and
// expirationSchedule give them, and the rules as the page reads S3's XML.
const ACTION = ["kind", "key", "versionId", "ruleId", "storageClass", "uploadId", "bucket", "at", "time"];
const SCHEDULED = ["kind", "key", "versionId", "ruleId", "storageClass", "uploadId", "due"];
export const PATTERN_FIELDS = {
  action: ACTION,
  version: ["key", "versionId", "isDeleteMarker", "isLatest", "createdAt", "size", "etag", "storageClass"],
  upload: ["key", "uploadId", "initiated"],
  storedRule: ["ID", "Status"],
  s3Scheduled: [...SCHEDULED, "time"],
  chapterScheduled: SCHEDULED,
  chapterRule: Object.keys(RULE_FIELDS),
};

// patternList checks a list of patterns: objects of the fields known, each
// text, a number or true/false (count, when countable: a whole number ≥ 0).
export function patternList(list, known, countable = false) {
  if (!Array.isArray(list)) return "must be a list of patterns";
  return eachItem(list, (p) => {
    if (!isObject(p)) return "is not an object";
    const extra = unknownField(p, countable ? [...known, "count"] : known);
    if (extra) return extra;
    for (const [k, v] of Object.entries(p)) {
      if (countable && k === "count") {
        if (!Number.isSafeInteger(v) || v < 0) return inside(k, "must be a whole number ≥ 0");
      } else if (!isScalar(v)) return inside(k, "must be text, a number or true/false");
    }
    return "";
  });
}

// expiry checks what an expiration is expected to be: { date, ruleId }
// (either may be left out), or null for none.
function expiry(v) {
  if (v === null) return "";
  if (!isObject(v)) return "must be { date, ruleId } or null";
  return unknownField(v, ["date", "ruleId"]) || (v.date !== undefined && inside("date", text(v.date))) || (v.ruleId !== undefined && inside("ruleId", text(v.ruleId))) || "";
}

// What an expect block may hold; model.js checkExpect compares an outcome
// with it.
const EXPECT_FIELDS = {
  error: (v) => (typeof v === "string" ? "" : "must be an S3 error code"),
  versionId: text,
  body: text,
  deleteMarker: (v) => (typeof v === "boolean" ? "" : "must be true or false"),
  storageClass: text,
  time: text,
  expiration: expiry,
  tags: tagList,
  stdout: text,
  actions: (v) => patternList(v, PATTERN_FIELDS.action),
  include: (v) => patternList(v, PATTERN_FIELDS.action, true),
  exclude: (v) => patternList(v, PATTERN_FIELDS.action),
  versions: (v) => patternList(v, PATTERN_FIELDS.version),
  uploads: (v) => patternList(v, PATTERN_FIELDS.upload),
  rules: (v) => patternList(v, PATTERN_FIELDS.storedRule),
  s3Schedule: (v) => patternList(v, PATTERN_FIELDS.s3Scheduled),
  chapterSchedule: (v) => patternList(v, PATTERN_FIELDS.chapterScheduled),
};

// expectation checks an expect block: its problem, or "".
export function expectation(expect) {
  if (!isObject(expect)) return "must be an object";
  const extra = unknownField(expect, Object.keys(EXPECT_FIELDS));
  if (extra) return extra;
  for (const [name, check] of Object.entries(EXPECT_FIELDS)) {
    if (expect[name] === undefined) continue;
    const problem = check(expect[name]);
    if (problem) return inside(name, problem);
  }
  return "";
}

// Every step may have these besides the fields of its kind.
const COMMON = { op: required(text), note: optional(text), expect: optional(expectation) };

// ---- the registry ----

const hasVersion = (step) => step.versionId !== undefined && step.versionId !== "";
const versionQuery = (step) => (hasVersion(step) ? ` ?versionId=${isolate(step.versionId)}` : "");
const shownPath = (step) => `${isolate(step.bucket)}/${isolate(step.key)}`;
const actionsLine = (out) => (out.actions.length === 0 ? "no actions" : describeActions(out.actions));
const expiryLine = (out) => (out.expiration ? `; S3 lifecycle expires it at ${isolate(out.expiration.date)} (rule ${isolate(out.expiration.ruleId)})` : "");
const plural = (n, unit) => `${fmt(n)} ${unit}${n === 1 ? "" : "s"}`;

// clockLine is a clock move's outcome: the reading, its date when asked
// for, and what the daily S3 lifecycle runs it passed did.
function clockLine(out, withDate) {
  let line = `now = ${fmt(out.now)}`;
  if (withDate) line += ` (${showDate(out.origin + out.now)})`;
  for (const r of out.runs) line += `; daily run at ${showDate(out.origin + r.at)} on ${isolate(r.bucket)}: ${describeActions(r.actions)}`;
  return line;
}

// A clock move forward runs S3's daily lifecycle at every midnight it
// passes: the page shows those runs, and what they changed in the
// selected bucket when it has a configuration to run.
const selectedWithS3 = (step, selected) => (selected.s3Config ? selected.bucket : "");
function dailyRuns(step, out, { bucket, diff, now }) {
  if (out.runs.length === 0) return null;
  return { s3: { daily: true, runs: out.runs, bucket, diff: out.runs.some((r) => r.bucket === bucket) ? diff : null, now } };
}

// ---- command lines ----

// commandOutcome is what a command line did, as a step's outcome: what
// the terminal printed and the exit status; the lifecycle actions its
// requests to /_minis3/ report (a tick's, a preview's, a run's, the daily
// runs a clock move passed), for expect.actions, include and exclude; the
// bucket it names, which the page then shows; what it asked for (command:
// term.describe's reading, or null), for a ran check; and, when it
// failed, the S3 error code the aws CLI printed ("An error occurred
// (NoSuchKey) …") or minis3 did, else CommandFailed, with its first line
// of errors.
function commandOutcome(res, described) {
  const outcome = {
    ok: res.status === 0, stdout: res.stdout, stderr: res.stderr, status: res.status, clear: res.clear,
    actions: reportedActions(res.exchanges), bucket: bucketNamed(described), command: described,
  };
  if (res.status !== 0) {
    const code = /An error occurred \(([\w.]+)\)/.exec(res.stderr)?.[1] ?? /^minis3: (\w+): /m.exec(res.stderr)?.[1] ?? "CommandFailed";
    const first = res.stderr.split("\n").find((l) => l.trim() !== "") ?? "";
    Object.assign(outcome, { code, message: `${first.trim()} (exit status ${res.status})`.trimStart() });
  }
  return outcome;
}

function reportedActions(exchanges) {
  const actions = [];
  for (const x of exchanges) {
    if (!x.path.startsWith("/_minis3/") || x.status >= 300) continue;
    let answer;
    try {
      answer = JSON.parse(x.responseBody);
    } catch {
      continue;
    }
    if (Array.isArray(answer.actions)) actions.push(...answer.actions);
    for (const r of answer.runs ?? []) actions.push(...r.actions.map((a) => ({ ...a, bucket: r.bucket, at: r.at, time: r.time })));
  }
  return actions;
}

// bucketNamed is the bucket a command line names (term.describe reads it):
// an s3api --bucket, the first s3:// path of an aws s3 command, the bucket
// of minis3 tick, preview or run; or "".
function bucketNamed(c) {
  if (!c) return "";
  if (c.name === "minis3") return ["tick", "preview", "run"].includes(c.args[0]) ? c.args[1] ?? "" : "";
  if (!c.aws) return "";
  const o = c.aws.options;
  if (typeof o.bucket === "string") return o.bucket;
  const path = [o.paths, o.path].flat().find((p) => typeof p === "string" && p.startsWith("s3://"));
  return path ? path.slice("s3://".length).split("/")[0] : "";
}

// tagsLine shows tags as key=value pairs.
const tagsLine = (tags) => (tags.length === 0 ? "no tags" : tags.map((t) => `${isolate(t.key)}=${isolate(t.value)}`).join(", "));

const STEPS = {
  clock: {
    // now: seconds of the store's clock (the chapter's t); time: a date,
    // which the store turns into seconds from its origin.
    panel: "clock",
    fields: { now: optional(clockReading), time: optional(date) },
    check: (step) => ((step.now === undefined) === (step.time === undefined) ? "needs now or time, not both" : ""),
    describe: (step) => (step.time === undefined ? `Set clock to ${fmt(step.now)}` : `Set clock to ${isolate(step.time)}`),
    summarize: (step, out) => clockLine(out, step.time !== undefined),
    mutates: true,
    showsResult: false,
    movesClock: true,
    diffs: selectedWithS3,
    lastRun: dailyRuns,
    requests: () => 1,
    run: (step, { client }) => client.setClock(step.time === undefined ? { now: step.now } : { time: step.time }),
  },
  advance: {
    panel: "days",
    fields: { days: optional(days), seconds: optional(seconds) },
    check: (step) => (step.days === undefined && step.seconds === undefined ? "needs days or seconds" : ""),
    describe: (step) => `Advance the clock ${[step.days !== undefined ? plural(step.days, "day") : "", step.seconds !== undefined ? plural(step.seconds, "second") : ""].filter(Boolean).join(" and ")}`,
    summarize: (step, out) => clockLine(out, true),
    mutates: true,
    showsResult: false,
    movesClock: true,
    diffs: selectedWithS3,
    lastRun: dailyRuns,
    requests: () => 1,
    run: (step, { client, store }) => client.setClock({ now: roundClock(store.now() + (step.days ?? 0) * DAY + (step.seconds ?? 0)) }),
  },
  nextMidnight: {
    panel: "days",
    fields: {},
    describe: () => "Advance the clock to the next midnight UTC",
    summarize: (step, out) => clockLine(out, true),
    mutates: true,
    showsResult: false,
    movesClock: true,
    diffs: selectedWithS3,
    lastRun: dailyRuns,
    requests: () => 1,
    run: (step, { client, store }) => client.setClock({ now: nextMidnight(store.origin(), store.now()) }),
  },
  createBucket: {
    panel: "bucket",
    fields: { bucket: required(text) },
    describe: (step) => `Create bucket ${isolate(step.bucket)}`,
    summarize: () => "OK",
    mutates: true,
    showsResult: false,
    requests: () => 1,
    run: (step, { client }) => client.createBucket(step.bucket),
  },
  deleteBucket: {
    panel: "bucket",
    fields: { bucket: required(text) },
    describe: (step) => `Delete bucket ${isolate(step.bucket)}`,
    summarize: () => "OK",
    mutates: true,
    showsResult: false,
    removesBucket: true,
    requests: () => 1,
    run: (step, { client }) => client.deleteBucket(step.bucket),
  },
  versioning: {
    // A bucket never goes back to unversioned, so there are two states.
    panel: "bucket",
    fields: { bucket: required(text), status: required(oneOf("enabled", "suspended")) },
    describe: (step) => `Set versioning of ${isolate(step.bucket)} to ${step.status}`,
    summarize: () => "OK",
    mutates: true,
    showsResult: false,
    requests: () => 1,
    run: (step, { client }) => client.putBucketVersioning(step.bucket, step.status === "enabled" ? "Enabled" : "Suspended"),
  },
  put: {
    panel: (step) => (step.tags || step.storageClass ? "tags" : "actions"),
    fields: { bucket: required(text), key: required(text), body: required(text), tags: optional(tagList), storageClass: optional(text) },
    describe: (step) => `PUT ${shownPath(step)} (${isolate(JSON.stringify(step.body))})${step.tags?.length ? ` tagged ${tagsLine(step.tags)}` : ""}${step.storageClass ? ` in ${isolate(step.storageClass)}` : ""}`,
    summarize: (step, out) => `stored as version ${isolate(out.versionId)}${expiryLine(out)}`,
    mutates: true,
    showsResult: true,
    requests: () => 1,
    run: (step, { client }) => client.putObject(step.bucket, step.key, step.body, { tags: step.tags, storageClass: step.storageClass }),
  },
  get: {
    // A version's own GET, under the stacks, names its version ID.
    panel: (step) => (step.versionId === undefined ? "actions" : "stacks"),
    fields: { bucket: required(text), key: required(text), versionId: optional(text) },
    describe: (step) => `GET ${shownPath(step)}${versionQuery(step)}`,
    summarize: (step, out) => `body ${isolate(JSON.stringify(out.body))} (version ${isolate(out.versionId)}, ${isolate(out.storageClass)})${expiryLine(out)}`,
    mutates: false,
    showsResult: true,
    requests: () => 1,
    run: (step, { client }) => client.getObject(step.bucket, step.key, step.versionId),
  },
  delete: {
    panel: (step) => (step.versionId === undefined ? "actions" : "stacks"),
    fields: { bucket: required(text), key: required(text), versionId: optional(text) },
    describe: (step) => `DELETE ${shownPath(step)}${versionQuery(step)}`,
    summarize: (step, out) => {
      if (hasVersion(step)) return `removed version ${isolate(step.versionId)}${out.deleteMarker ? " (a delete marker)" : ""}`;
      return out.deleteMarker ? `added delete marker ${isolate(out.versionId)}` : "removed the object";
    },
    mutates: true,
    showsResult: true,
    requests: () => 1,
    run: (step, { client }) => client.deleteObject(step.bucket, step.key, step.versionId),
  },
  multipart: {
    panel: "multipart",
    fields: { bucket: required(text), key: required(text), parts: required(texts) },
    describe: (step) => `Multipart upload ${shownPath(step)} in ${step.parts.length} part(s)`,
    summarize: (step, out) => `stored as version ${isolate(out.versionId)}`,
    mutates: true,
    showsResult: true,
    // Create the upload, one request per part, complete it.
    requests: (step) => step.parts.length + 2,
    run: (step, { client }) => client.multipartUpload(step.bucket, step.key, step.parts),
  },
  createMultipartUpload: {
    // Starts an upload and leaves it in progress, for S3's
    // AbortIncompleteMultipartUpload.
    panel: "multipart",
    fields: { bucket: required(text), key: required(text) },
    describe: (step) => `Start a multipart upload of ${shownPath(step)} and leave it in progress`,
    summarize: (step, out) => `upload ${isolate(out.uploadId)} in progress`,
    mutates: true,
    showsResult: true,
    requests: () => 1,
    run: (step, { client }) => client.createMultipartUpload(step.bucket, step.key),
  },
  putObjectTagging: {
    panel: "tags",
    fields: { bucket: required(text), key: required(text), versionId: optional(text), tags: required(tagList) },
    describe: (step) => `Set the tags of ${shownPath(step)}${versionQuery(step)} to ${tagsLine(step.tags)}`,
    summarize: (step, out) => `tagged version ${isolate(out.versionId)}`,
    mutates: true,
    showsResult: true,
    requests: () => 1,
    run: (step, { client }) => client.putObjectTagging(step.bucket, step.key, step.versionId, step.tags),
  },
  getObjectTagging: {
    panel: "tags",
    fields: { bucket: required(text), key: required(text), versionId: optional(text) },
    describe: (step) => `Get the tags of ${shownPath(step)}${versionQuery(step)}`,
    summarize: (step, out) => `${tagsLine(out.tags)} (version ${isolate(out.versionId)})`,
    mutates: false,
    showsResult: true,
    requests: () => 1,
    run: (step, { client }) => client.getObjectTagging(step.bucket, step.key, step.versionId),
  },
  rules: {
    panel: "lifecycle",
    fields: { rules: required(ruleList) },
    describe: (step) => `Set lifecycle rules (${step.rules.length})`,
    summarize: (step) => `${step.rules.length} rule(s) in the editor`,
    mutates: true,
    showsResult: false,
    // The rules go into the page's editor, not to the store.
    requests: () => 0,
    run: (step, { setEditorRules }) => {
      setEditorRules(step.rules);
      return {};
    },
  },
  preview: {
    panel: "lifecycle",
    fields: { bucket: required(text), rules: optional(ruleList) },
    describe: (step) => `Preview lifecycle on ${isolate(step.bucket)}`,
    summarize: (step, out) => actionsLine(out),
    mutates: false,
    showsResult: false,
    marks: "chapter",
    timed: true,
    requests: () => 1,
    run: (step, { client, editorRules }) => client.lifecycle(step.bucket, "preview", step.rules ?? editorRules),
  },
  tick: {
    panel: "lifecycle",
    fields: { bucket: required(text), rules: optional(ruleList) },
    describe: (step) => `Lifecycle tick on ${isolate(step.bucket)}`,
    summarize: (step, out) => actionsLine(out),
    mutates: true,
    showsResult: false,
    diffs: (step) => step.bucket,
    lastRun: (step, out, { diff, now }) => ({ tick: { actions: out.actions, diff, now } }),
    timed: true,
    requests: () => 1,
    run: (step, { client, editorRules }) => client.lifecycle(step.bucket, "tick", step.rules ?? editorRules),
  },
  putBucketLifecycle: {
    // config: the AWS CLI's JSON shape (an object, or its text as typed),
    // stored through the JavaScript API; xml: S3's XML, sent as S3's
    // PutBucketLifecycleConfiguration. Either way the page then reads the
    // stored configuration back as XML.
    panel: "s3",
    fields: { bucket: required(text), config: optional(textOrObject), xml: optional(text) },
    check: (step) => ((step.config === undefined) === (step.xml === undefined) ? "needs config or xml, not both" : ""),
    describe: (step) => `Store an S3 lifecycle configuration on ${isolate(step.bucket)} (${step.xml === undefined ? "JSON" : "XML"})`,
    summarize: (step, out) => `stored ${plural(out.rules.length, "rule")}: ${out.rules.map((r) => `${isolate(r.ID)} ${r.Status}`).join(", ")}`,
    mutates: true,
    showsResult: true,
    s3: true,
    requests: (step) => (step.xml === undefined ? 1 : 2),
    run: async (step, { client, store }) => {
      if (step.xml === undefined) await store.putBucketLifecycle(step.bucket, step.config);
      else await client.putBucketLifecycle(step.bucket, step.xml);
      return client.getBucketLifecycle(step.bucket);
    },
  },
  getBucketLifecycle: {
    panel: "s3",
    fields: { bucket: required(text) },
    describe: (step) => `Get the S3 lifecycle configuration of ${isolate(step.bucket)}`,
    summarize: (step, out) => `${plural(out.rules.length, "rule")}: ${out.rules.map((r) => `${isolate(r.ID)} ${r.Status}`).join(", ")}`,
    mutates: false,
    showsResult: true,
    s3: true,
    requests: () => 1,
    run: (step, { client }) => client.getBucketLifecycle(step.bucket),
  },
  deleteBucketLifecycle: {
    panel: "s3",
    fields: { bucket: required(text) },
    describe: (step) => `Delete the S3 lifecycle configuration of ${isolate(step.bucket)}`,
    summarize: () => "OK",
    mutates: true,
    showsResult: true,
    s3: true,
    requests: () => 1,
    run: (step, { client }) => client.deleteBucketLifecycle(step.bucket),
  },
  previewLifecycle: {
    panel: "s3",
    fields: { bucket: required(text) },
    describe: (step) => `Preview a run of the S3 lifecycle configuration of ${isolate(step.bucket)} now`,
    summarize: (step, out) => actionsLine(out),
    mutates: false,
    showsResult: false,
    marks: "s3",
    s3: true,
    requests: () => 1,
    run: (step, { client }) => client.runLifecycle(step.bucket, "run-preview"),
  },
  runLifecycle: {
    panel: "s3",
    fields: { bucket: required(text) },
    describe: (step) => `Run the S3 lifecycle configuration of ${isolate(step.bucket)} now`,
    summarize: (step, out) => actionsLine(out),
    mutates: true,
    showsResult: false,
    s3: true,
    diffs: (step) => step.bucket,
    lastRun: (step, out, { bucket, diff, now }) => ({ s3: { daily: false, runs: [{ bucket: step.bucket, at: now, actions: out.actions }], bucket, diff, now } }),
    requests: () => 1,
    run: (step, { client }) => client.runLifecycle(step.bucket, "run"),
  },
  schedule: {
    // What each version faces next under the stored S3 configuration and
    // under the chapter's rules (the editor's, or the step's), and when.
    panel: "compare",
    fields: { bucket: required(text), rules: optional(ruleList) },
    describe: (step) => `When each version of ${isolate(step.bucket)} is due, under S3 and under the chapter's rules`,
    summarize: (step, out) => `S3: ${out.s3Schedule.length} due, chapter: ${out.chapterSchedule.length} due`,
    mutates: false,
    showsResult: false,
    // It reads both schedules through the JS API.
    requests: () => 0,
    run: async (step, { store, editorRules }) => {
      const origin = store.origin();
      const s3 = await store.lifecycleSchedule(step.bucket);
      return {
        s3Schedule: s3.map((a) => ({ ...a, time: isoTime(origin + a.due) })),
        chapterSchedule: await store.expirationSchedule(step.bucket, step.rules ?? editorRules),
      };
    },
  },
  check: {
    panel: "stacks",
    fields: { bucket: required(text), prefix: optional(text) },
    describe: (step) => `Check the version stacks of ${isolate(step.bucket)}`,
    summarize: (step, out) => `${out.versions.length} entries; uploads in progress: ${out.uploads.length}`,
    mutates: false,
    showsResult: false,
    // It reads the version list and the uploads in progress through the
    // JS API, for expect.versions and expect.uploads.
    requests: () => 0,
    run: async (step, { store }) => ({
      versions: await store.listVersions(step.bucket, { prefix: step.prefix || "" }),
      uploads: await store.listMultipartUploads(step.bucket, { prefix: step.prefix || "" }),
    }),
  },
  command: {
    // A line typed into the terminal, run there (store.terminal): the aws
    // CLI, the shell's files, minis3's clock and tick.
    fields: { line: required(commandLine) },
    panel: "terminal",
    describe: (step) => `$ ${isolate(step.line)}`,
    summarize: (step, out) => `exit status ${out.status}`,
    mutates: true,
    showsResult: false,
    movesClock: true,
    prints: true,
    // A line may send any number; the terminal sends them one at a time.
    requests: () => 1,
    run: async (step, { terminal, client, editorRules }) => {
      // Read before it runs, with the files its file:// values name then.
      const described = terminal.describe(step.line);
      const res = await terminal.run(step.line, { rules: editorRules });
      client.keep(res.exchanges);
      return commandOutcome(res, described);
    },
  },
};

// ---- looking a step up, and checking one ----

// isStepOp: op names a kind of step.
export const isStepOp = (op) => typeof op === "string" && Object.hasOwn(STEPS, op);
const unknownOp = (op) => `unknown op ${typeof op === "string" ? JSON.stringify(op.slice(0, 80)) : "(op must be text)"}`;

// kindOf is the entry of op. The page builds or checks every step it runs,
// so an unknown op here is a bug in the page.
export function kindOf(op) {
  if (!isStepOp(op)) throw new Error(`The page has no step with an ${unknownOp(op)}.`);
  return STEPS[op];
}

// opProblem is what is wrong with op as the op of a step, or "".
export function opProblem(op) {
  if (isStepOp(op)) return "";
  return typeof op === "string" ? unknownName("op", op, Object.keys(STEPS)) : "must be text: the kind of step";
}

// checkStep checks one raw step (parsed JSON) strictly: a known op, only
// the fields of its kind, each of its type, the required ones present. A
// step without a bucket takes defaultBucket when that is not "". It returns
// { step }, or { problem, error }: the problem (see inside) and its line,
// with the path from the step.
export function checkStep(raw, defaultBucket) {
  const refused = (problem) => ({ problem, error: shown(problem) });
  if (!isObject(raw)) return refused("is not an object");
  if (raw.op === undefined) return refused("needs an op: the kind of step");
  if (!isStepOp(raw.op)) return refused(inside("op", opProblem(raw.op)));
  const fields = { ...COMMON, ...STEPS[raw.op].fields };
  const extra = unknownField(raw, Object.keys(fields));
  if (extra) return refused(extra);
  const step = { ...raw };
  if (fields.bucket && step.bucket === undefined && defaultBucket) step.bucket = defaultBucket;
  for (const [name, field] of Object.entries(fields)) {
    if (step[name] === undefined) {
      if (field.required) return refused(`${raw.op} needs ${name}, which ${field.check(undefined)}`);
      continue;
    }
    const problem = field.check(step[name]);
    if (problem) return refused(inside(name, problem));
  }
  const problem = STEPS[raw.op].check?.(step) ?? "";
  if (problem) return refused(`${raw.op} ${problem}`);
  return { step };
}
