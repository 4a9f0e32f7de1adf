// The chapter's rules and the bucket's S3 lifecycle configuration side by
// side, on the same versions: for each version what each will do to it
// next, when, and why the two differ. Pure functions over the schedules
// the store gives (expirationSchedule, lifecycleSchedule), the versions,
// the uploads in progress and the stored configuration; no DOM.
import { DAY, midnightBefore, nextMidnight, showDate } from "./dates.js";
import { fmt, groupStacks } from "./model.js";
import { ruleById, describeFilter } from "./s3config.js";

export const KIND_LABEL = {
  expire_current: "expire current",
  expire_noncurrent: "expire noncurrent",
  expire_delete_marker: "remove delete marker",
  abort_multipart_upload: "abort upload",
  transition: "transition",
  transition_noncurrent: "transition noncurrent",
};

// actionName is an action's kind in words, with the storage class of a
// transition.
export function actionName(a) {
  const label = KIND_LABEL[a.kind] || a.kind;
  return a.storageClass ? `${label} to ${a.storageClass}` : label;
}

const at = (t) => `t = ${fmt(t)} s`;
const days = (n) => `${n} day${n === 1 ? "" : "s"}`;

// firstMidnightFrom is the clock reading of the first midnight UTC at or
// after the reading t: when S3's daily run takes an action due at t.
function firstMidnightFrom(origin, t) {
  return midnightBefore(origin + t) === origin + t ? t : nextMidnight(origin, t);
}

// The day count of the rule's action of kind a.kind, when it has one.
function daysOf(rule, a) {
  switch (a.kind) {
    case "expire_current":
      return rule.Expiration?.Days;
    case "expire_noncurrent":
      return rule.NoncurrentVersionExpiration?.NoncurrentDays;
    case "transition":
      return (rule.Transitions || []).find((t) => t.StorageClass === a.storageClass)?.Days;
    case "transition_noncurrent":
      return (rule.NoncurrentVersionTransitions || []).find((t) => t.StorageClass === a.storageClass)?.NoncurrentDays;
    case "abort_multipart_upload":
      return rule.AbortIncompleteMultipartUpload?.DaysAfterInitiation;
    default:
      return undefined;
  }
}

// roundingNote says how S3 got from a start (a version's creation, the
// instant it was replaced, an upload's start) and a day count to the
// midnight it acts at, when that is how it did.
function roundingNote(origin, base, n, due) {
  if (n === undefined || midnightBefore(origin + base) + (n + 1) * DAY !== origin + due) return null;
  return `Midnight rounding: S3 counts whole days: ${showDate(origin + base)} + ${n} d = ${showDate(origin + base + n * DAY)}, and acts at the next midnight UTC after that, ${showDate(origin + due)}.`;
}

// notesFor says why the two views differ on one version (or upload).
function notesFor(row, ctx) {
  const { origin } = ctx;
  const notes = [];
  const s3 = row.s3;
  const rule = s3 ? ruleById(ctx.config, s3.ruleId) : undefined;
  const noncurrentKind = (a) => a && (a.kind === "expire_noncurrent" || a.kind === "transition_noncurrent");
  if (row.upload) {
    if (s3 && rule) {
      const n = daysOf(rule, s3);
      notes.push(`Uploads: S3 aborts an upload still in progress ${days(n)} after it started (AbortIncompleteMultipartUpload); the chapter's rules ignore uploads.`);
      notes.push(roundingNote(origin, row.upload.initiated, n, s3.due));
    }
    return notes.filter(Boolean);
  }
  const e = row.entry;
  if (e.isDeleteMarker) {
    if (s3?.kind === "expire_delete_marker") {
      notes.push(rule?.Expiration?.ExpiredObjectDeleteMarker
        ? "Marker cleanup: S3 removes a delete marker left alone, with no versions under it (ExpiredObjectDeleteMarker); the chapter's rules never remove delete markers."
        : `Marker cleanup: with Expiration Days, S3 also removes a delete marker left alone once the marker itself is old enough (${days(rule?.Expiration?.Days)}, to the next midnight); the chapter's rules never remove delete markers.`);
    } else if (s3?.kind === "expire_noncurrent") {
      notes.push("Noncurrent delete markers: S3's NoncurrentVersionExpiration removes them too; the chapter's rules expire data versions only.");
    }
    return notes;
  }
  if (!e.isLatest && (noncurrentKind(row.chapter) || noncurrentKind(s3))) {
    notes.push(`Noncurrent age: the chapter counts from this version's own creation (${at(e.createdAt)}); S3 counts from when ${row.successor.versionId} replaced it (${at(row.successor.createdAt)}, ${showDate(origin + row.successor.createdAt)}).`);
  }
  if (s3 && rule) {
    const rounding = roundingNote(origin, e.isLatest ? e.createdAt : row.successor.createdAt, daysOf(rule, s3), s3.due);
    if (rounding) {
      notes.push(rounding);
    } else if (s3.kind === "expire_current" && rule.Expiration?.Date !== undefined) {
      notes.push(`Expiration Date: from ${showDate(Date.parse(rule.Expiration.Date) / 1000)} S3 expires every object the rule covers, however young; the chapter's rules know only ages.`);
    }
    const newer = s3.kind === "expire_noncurrent" ? rule.NoncurrentVersionExpiration?.NewerNoncurrentVersions : undefined;
    if (newer !== undefined) notes.push(`Newest kept: S3 keeps the ${newer} newest noncurrent versions whatever their age (NewerNoncurrentVersions): this one goes only once ${newer} newer ones exist; the chapter's rules keep none.`);
    if (s3.kind === "transition" || s3.kind === "transition_noncurrent") {
      notes.push(`Storage class: S3 moves it to ${s3.storageClass} and keeps it; the chapter's rules only expire.`);
    }
    const f = rule.Filter?.And || rule.Filter || {};
    if (f.Tag || f.Tags || f.ObjectSizeGreaterThan !== undefined || f.ObjectSizeLessThan !== undefined) {
      notes.push(`Filter: the S3 rule covers ${describeFilter(rule)}; the chapter's rules select by prefix only.`);
    }
  }
  return notes;
}

// The clock readings at which each side acts, shown beside the version.
function chapterSide(item, now) {
  if (!item) return null;
  return { kind: item.kind, ruleId: item.ruleId, due: item.due, dueNow: item.due <= now, text: `${actionName(item)} at ${at(item.due)}` };
}

function s3Side(item, ctx) {
  if (!item) return null;
  const { origin, now } = ctx;
  const runAt = firstMidnightFrom(origin, item.due);
  const dueNow = item.due <= now;
  // Once due, what counts is the next run, not the midnight that passed.
  return {
    kind: item.kind, ruleId: item.ruleId, due: item.due, runAt, storageClass: item.storageClass, dueNow,
    text: dueNow ? actionName(item) : `${actionName(item)} at ${showDate(origin + runAt)} (${at(runAt)})`,
  };
}

const keyOf = (key, id) => `${key}\u0000${id}`;

// byCodePoints orders keys as the store lists them: by their UTF-8 bytes,
// which is the order of their code points (not of UTF-16 units).
function byCodePoints(a, b) {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

// compareRows builds the side-by-side view: one group per key (keys in
// the store's order, versions newest first, then the key's uploads in
// progress),
// each row with the chapter's next action, S3's and the notes. ctx holds
// versions, uploads, chapter (expirationSchedule, or null when the
// editor's rules are not valid), s3 (lifecycleSchedule), config (the
// stored configuration, or null), origin and now.
export function compareRows(ctx) {
  const chapter = new Map((ctx.chapter || []).map((a) => [keyOf(a.key, a.versionId), a]));
  const s3 = new Map((ctx.s3 || []).map((a) => [keyOf(a.key, a.uploadId || a.versionId), a]));
  const groups = groupStacks(ctx.versions).map((stack) => ({
    key: stack.key,
    rows: stack.entries.map((entry, i) => {
      const row = { id: entry.versionId, entry, successor: i > 0 ? stack.entries[i - 1] : null };
      row.chapter = chapterSide(chapter.get(keyOf(stack.key, entry.versionId)), ctx.now);
      row.s3 = s3Side(s3.get(keyOf(stack.key, entry.versionId)), ctx);
      row.notes = notesFor(row, ctx);
      return row;
    }),
  }));
  let added = false;
  for (const u of ctx.uploads || []) {
    let group = groups.find((g) => g.key === u.key);
    if (!group) {
      group = { key: u.key, rows: [] };
      groups.push(group);
      added = true;
    }
    const row = { id: u.uploadId, upload: u };
    row.chapter = null;
    row.s3 = s3Side(s3.get(keyOf(u.key, u.uploadId)), ctx);
    row.notes = notesFor(row, ctx);
    group.rows.push(row);
  }
  if (added) groups.sort((a, b) => byCodePoints(a.key, b.key));
  return groups;
}

// whyNone says why a side does nothing to a row.
export function whyNone(side, row, ctx) {
  if (side === "chapter") {
    if (ctx.chapter === null) return "the rules in the editor have errors";
    if (row.upload) return "the chapter's rules ignore uploads";
    if (row.entry.isDeleteMarker) return "the chapter's rules never touch delete markers";
    return ctx.rulesCount === 0 ? "no rules in the editor" : "no rule matches it";
  }
  if (!ctx.config) return "no configuration stored on the bucket";
  if (row.entry?.isDeleteMarker && row.entry.isLatest) return "a delete marker over versions stays";
  const keeps = ctx.config.Rules.some((r) => r.Status === "Enabled" && r.NoncurrentVersionExpiration?.NewerNoncurrentVersions !== undefined);
  if (keeps && row.entry && !row.entry.isLatest) return "no enabled rule acts on it, or it is among the newest noncurrent versions a rule keeps (NewerNoncurrentVersions)";
  return "no enabled rule acts on it";
}
