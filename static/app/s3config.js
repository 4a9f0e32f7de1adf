// A bucket's S3 lifecycle configuration in the page: the AWS CLI's JSON
// shape ({ Rules: [{ ID, Status, Filter, Expiration, ... }] }, what the
// store takes and gives) and the rows of strings of the page's form. Pure
// functions, no DOM. The form checks only that numbers are numbers; what
// S3 allows is the store's to say, with S3's error codes.
import { isolate } from "./model.js";

// The storage classes a transition may name, warmest first.
export const TRANSITION_CLASSES = ["STANDARD_IA", "INTELLIGENT_TIERING", "ONEZONE_IA", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"];

// The storage classes a PUT may ask for.
export const PUT_CLASSES = ["STANDARD", "REDUCED_REDUNDANCY", ...TRANSITION_CLASSES];

// AWS's example configuration, which Insert example puts into the editor
// shown: one rule. The editors start empty, so that nothing runs at the
// next midnight unless the learner stored it.
export const EXAMPLE = {
  Rules: [{
    ID: "expire-logs",
    Status: "Enabled",
    Filter: { Prefix: "logs/" },
    Expiration: { Days: 3 },
    NoncurrentVersionExpiration: { NoncurrentDays: 1 },
  }],
};

const EXAMPLE_RULE_XML = `  <Rule>
    <ID>expire-logs</ID>
    <Status>Enabled</Status>
    <Filter>
      <Prefix>logs/</Prefix>
    </Filter>
    <Expiration>
      <Days>3</Days>
    </Expiration>
    <NoncurrentVersionExpiration>
      <NoncurrentDays>1</NoncurrentDays>
    </NoncurrentVersionExpiration>
  </Rule>
`;

const CLOSE_XML = "</LifecycleConfiguration>";

export const EXAMPLE_XML = `<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
${EXAMPLE_RULE_XML}${CLOSE_XML}`;

// withExample is a draft of the editor of mode ("form": rows, "json" or
// "xml": text) with the example's rule added: { draft }, or { error } when
// the text is not a configuration to add a rule to.
export function withExample(mode, draft) {
  if (mode === "form") return { draft: [...draft, ...configToRows(EXAMPLE)] };
  if (String(draft).trim() === "") return { draft: mode === "json" ? JSON.stringify(EXAMPLE, null, 2) : EXAMPLE_XML };
  if (mode === "xml") {
    const at = draft.lastIndexOf(CLOSE_XML);
    if (at < 0) return { error: `The XML above has no ${CLOSE_XML} to add the example before: fix it, or empty it.` };
    return { draft: `${draft.slice(0, at).replace(/\s*$/, "\n")}${EXAMPLE_RULE_XML}${draft.slice(at)}` };
  }
  let config;
  try {
    config = JSON.parse(draft);
  } catch {
    config = null;
  }
  if (config === null || typeof config !== "object" || !Array.isArray(config.Rules)) {
    return { error: "The JSON above is not a configuration with a Rules list to add the example to: fix it, or empty it." };
  }
  return { draft: JSON.stringify({ ...config, Rules: [...config.Rules, ...EXAMPLE.Rules] }, null, 2) };
}

// emptyRule is a new row of the form.
export function emptyRule(n) {
  return {
    id: `rule-${n}`, status: "Enabled", legacyPrefix: false, prefix: "", tags: "", greaterThan: "", lessThan: "",
    days: "", date: "", deleteMarker: false, noncurrentDays: "", newer: "", abortDays: "",
    transitions: [], noncurrentTransitions: [],
  };
}

export const emptyTransition = () => ({ days: "", date: "", storageClass: "GLACIER" });
export const emptyNoncurrentTransition = () => ({ days: "", storageClass: "GLACIER", newer: "" });

const text = (v) => (v === undefined || v === null ? "" : String(v));

// A Date as the form shows it: the day alone when it is a midnight UTC.
const dateField = (v) => text(v).replace(/T00:00:00(\.0+)?Z$/, "");

function tagLines(tags) {
  return (tags || []).map((t) => `${text(t.Key)}=${text(t.Value)}`).join("\n");
}

// configToRows turns a configuration (JSON shape) into rows of the form.
export function configToRows(config) {
  return (config?.Rules || []).map((r, i) => {
    const row = emptyRule(i + 1);
    row.id = text(r.ID);
    row.status = r.Status === "Disabled" ? "Disabled" : "Enabled";
    const f = r.Filter || {};
    const and = f.And || {};
    if (r.Prefix !== undefined) {
      row.legacyPrefix = true;
      row.prefix = text(r.Prefix);
    } else {
      row.prefix = text(f.Prefix ?? and.Prefix);
    }
    row.tags = tagLines(f.Tag ? [f.Tag] : and.Tags);
    row.greaterThan = text(f.ObjectSizeGreaterThan ?? and.ObjectSizeGreaterThan);
    row.lessThan = text(f.ObjectSizeLessThan ?? and.ObjectSizeLessThan);
    row.days = text(r.Expiration?.Days);
    row.date = dateField(r.Expiration?.Date);
    row.deleteMarker = r.Expiration?.ExpiredObjectDeleteMarker === true;
    row.noncurrentDays = text(r.NoncurrentVersionExpiration?.NoncurrentDays);
    row.newer = text(r.NoncurrentVersionExpiration?.NewerNoncurrentVersions);
    row.abortDays = text(r.AbortIncompleteMultipartUpload?.DaysAfterInitiation);
    row.transitions = (r.Transitions || []).map((t) => ({ days: text(t.Days), date: dateField(t.Date), storageClass: text(t.StorageClass) }));
    row.noncurrentTransitions = (r.NoncurrentVersionTransitions || []).map((t) => ({
      days: text(t.NoncurrentDays), storageClass: text(t.StorageClass), newer: text(t.NewerNoncurrentVersions),
    }));
    return row;
  });
}

// wholeNumber reads a field that holds a count (days, bytes, versions):
// empty is absent.
function wholeNumber(s, what) {
  const v = String(s ?? "").trim();
  if (v === "") return { value: undefined };
  if (!/^\d+$/.test(v)) return { error: `${what} must be a whole number, not "${v}"` };
  return { value: Number(v) };
}

// A Date field: a day alone means its midnight UTC; anything else goes to
// the store as written, for it to accept or refuse.
function dateValue(s) {
  const v = String(s ?? "").trim();
  if (v === "") return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v;
}

// parseTags reads "key=value" lines (the first "=" splits; blank lines are
// skipped). It returns { tags } or { error }.
export function parseTags(lines) {
  const tags = [];
  for (const line of String(lines ?? "").split("\n")) {
    if (line.trim() === "") continue;
    const at = line.indexOf("=");
    if (at < 0) return { error: `"${line}" is not key=value` };
    tags.push({ key: line.slice(0, at), value: line.slice(at + 1) });
  }
  return { tags };
}

// only keeps the members of obj that are not undefined, or returns
// undefined when none is left.
function only(obj) {
  const out = Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
  return Object.keys(out).length === 0 ? undefined : out;
}

// filterOf builds a rule's Filter: nothing selects the whole bucket, one
// predicate stands alone, two or more go into And, as S3 requires.
function filterOf(prefix, tags, greaterThan, lessThan) {
  const awsTags = tags.map((t) => ({ Key: t.key, Value: t.value }));
  const count = (prefix !== "" ? 1 : 0) + awsTags.length + (greaterThan !== undefined ? 1 : 0) + (lessThan !== undefined ? 1 : 0);
  if (count === 0) return {};
  if (count > 1) {
    return { And: only({ Prefix: prefix === "" ? undefined : prefix, Tags: awsTags.length ? awsTags : undefined, ObjectSizeGreaterThan: greaterThan, ObjectSizeLessThan: lessThan }) };
  }
  if (prefix !== "") return { Prefix: prefix };
  if (awsTags.length === 1) return { Tag: awsTags[0] };
  return greaterThan !== undefined ? { ObjectSizeGreaterThan: greaterThan } : { ObjectSizeLessThan: lessThan };
}

// rowsToConfig turns the form's rows into a configuration (JSON shape).
// It returns { config, errors }: errors lists { row, field, message } for
// fields that do not hold what they must (a number, key=value lines); the
// configuration is usable only when errors is empty.
export function rowsToConfig(rows) {
  const errors = [];
  const rules = rows.map((row, i) => {
    const num = (field, what) => {
      const r = wholeNumber(row[field], what);
      if (r.error) errors.push({ row: i, field, message: r.error });
      return r.value;
    };
    const sub = (list, j, field, what) => {
      const r = wholeNumber(list[j][field], what);
      if (r.error) errors.push({ row: i, field: `${list === row.transitions ? "t" : "nt"}${j}-${field}`, message: r.error });
      return r.value;
    };
    const { tags, error } = parseTags(row.tags);
    if (error) errors.push({ row: i, field: "tags", message: `Tags: ${error}` });
    const greaterThan = num("greaterThan", "A size");
    const lessThan = num("lessThan", "A size");
    const rule = { ID: row.id === "" ? undefined : row.id, Status: row.status };
    const onlyPrefix = (tags || []).length === 0 && greaterThan === undefined && lessThan === undefined;
    if (row.legacyPrefix && onlyPrefix) rule.Prefix = row.prefix;
    else rule.Filter = filterOf(row.prefix, tags || [], greaterThan, lessThan);
    rule.Expiration = only({
      Days: num("days", "Days"),
      Date: dateValue(row.date),
      ExpiredObjectDeleteMarker: row.deleteMarker ? true : undefined,
    });
    rule.NoncurrentVersionExpiration = only({
      NoncurrentDays: num("noncurrentDays", "NoncurrentDays"),
      NewerNoncurrentVersions: num("newer", "NewerNoncurrentVersions"),
    });
    const abort = num("abortDays", "DaysAfterInitiation");
    if (abort !== undefined) rule.AbortIncompleteMultipartUpload = { DaysAfterInitiation: abort };
    const transitions = row.transitions.map((t, j) => only({ Days: sub(row.transitions, j, "days", "Days"), Date: dateValue(t.date), StorageClass: t.storageClass || undefined }));
    if (transitions.length > 0) rule.Transitions = transitions.map((t) => t ?? {});
    const noncurrent = row.noncurrentTransitions.map((t, j) => only({
      NoncurrentDays: sub(row.noncurrentTransitions, j, "days", "NoncurrentDays"),
      StorageClass: t.storageClass || undefined,
      NewerNoncurrentVersions: sub(row.noncurrentTransitions, j, "newer", "NewerNoncurrentVersions"),
    }));
    if (noncurrent.length > 0) rule.NoncurrentVersionTransitions = noncurrent.map((t) => t ?? {});
    return only(rule);
  });
  return { config: { Rules: rules }, errors };
}

// ruleById finds a rule of a configuration by its ID.
export function ruleById(config, id) {
  return (config?.Rules || []).find((r) => r.ID === id);
}

// describeFilter says in words which objects a rule covers.
export function describeFilter(rule) {
  if (!rule) return "";
  if (rule.Prefix !== undefined) return rule.Prefix === "" ? "every object" : `keys starting with ${isolate(rule.Prefix)}`;
  const f = rule.Filter || {};
  const a = f.And || f;
  const parts = [];
  if (a.Prefix) parts.push(`keys starting with ${isolate(a.Prefix)}`);
  for (const t of a.Tags || (f.Tag ? [f.Tag] : [])) parts.push(`tag ${isolate(t.Key)}=${isolate(t.Value)}`);
  if (a.ObjectSizeGreaterThan !== undefined) parts.push(`more than ${a.ObjectSizeGreaterThan} bytes`);
  if (a.ObjectSizeLessThan !== undefined) parts.push(`fewer than ${a.ObjectSizeLessThan} bytes`);
  return parts.length === 0 ? "every object" : parts.join(" and ");
}
