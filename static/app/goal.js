// An exercise's goal: what the task's bucket holds once the stage is set
// and the recorded solution performed, played on a store of its own
// (play.js), and how the student's bucket still differs from it. What
// differs is what the task's versions checks compare, with their own
// pairing (exercise.js stackPairs): a key, delete marker or data version,
// current or not, and a version ID or a storage class where the check
// names one. The goal's version IDs come from a store of its own and may
// match the student's by chance: they are compared only where a check
// names them. A versions check asks for the whole bucket, so a key it
// does not name should not be there; without one, nothing is compared.
import { newPlayer, play } from "./play.js";
import { evaluateTask, stackPairs } from "./exercise.js";
import { groupStacks } from "./model.js";

// playGoal plays steps (the stage) and the task's solution on the empty
// store open() resolves to, and closes it. It resolves to { versions,
// unmet }: the bucket's version list then, and how many steps did not do
// what they expect.
export async function playGoal(steps, task, bucket, open) {
  const store = await open();
  try {
    const player = newPlayer(store);
    const unmet = (await play(player, steps)).length + (await play(player, task.solution.steps)).length;
    let versions = [];
    try {
      versions = await store.listVersions(bucket, {});
    } catch (err) {
      if (err.code !== "NoSuchBucket") throw err;
    }
    return { versions, unmet };
  } finally {
    store.close();
  }
}

// What the student's version differs in, where a check names it.
const YOURS_IS = {
  isLatest: (v) => `yours is ${v ? "current" : "noncurrent"}`,
  isDeleteMarker: (v) => `yours is ${v ? "a delete marker" : "a data version"}`,
  storageClass: (v) => `yours is in ${v ?? "STANDARD"}`,
  etag: () => "yours holds another body",
  size: (v) => `yours is ${v} bytes`,
};

// compareStacks compares the student's version list (mine) with the
// goal's (goal), as the task's versions checks do. It returns { checked,
// keys }: checked, whether any check looks at the versions; keys, one per
// key of either list, ascending:
//   { key, checked, yours (the student has versions of it),
//     entries: the goal's stack, each { v, pinned (its check names its
//       version ID), mark: "same" | "missing" | "differs" | null (not
//       compared), yours (what differs in the student's, in words) },
//     extra: the student's versions a check does not expect, newest first,
//     differences: how many marks say something differs }.
export function compareStacks(task, goal, mine) {
  const checks = task.checks.filter((c) => c.versions);
  const marks = new Map();
  const extra = new Map();
  for (const c of checks) {
    const ofPattern = new Map();
    for (const g of stackPairs(goal, c.versions).groups) {
      for (const [entry, p] of g.pairs) ofPattern.set(p, entry);
    }
    for (const g of stackPairs(mine, c.versions).groups) {
      const left = [...g.extra];
      for (const [, p] of g.pairs) marks.set(ofPattern.get(p), { mark: "same", pinned: p.versionId !== undefined });
      for (const p of g.missing) {
        const pinned = p.versionId !== undefined;
        const i = pinned ? left.findIndex((v) => v.versionId === p.versionId) : -1;
        if (i < 0) {
          marks.set(ofPattern.get(p), { mark: "missing", pinned });
          continue;
        }
        const [v] = left.splice(i, 1);
        const wrong = Object.keys(YOURS_IS).filter((k) => p[k] !== undefined && v[k] !== p[k]);
        marks.set(ofPattern.get(p), { mark: "differs", pinned, yours: wrong.map((k) => YOURS_IS[k](v[k])).join(", ") });
      }
      for (const v of left) extra.set(v.key, [...(extra.get(v.key) ?? []), v]);
    }
  }
  marks.delete(undefined);
  const goalStacks = new Map(groupStacks(goal).map((s) => [s.key, s.entries]));
  const mineKeys = new Set(mine.map((v) => v.key));
  const keys = [...new Set([...goalStacks.keys(), ...extra.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    checked: checks.length > 0,
    keys: keys.map((key) => {
      const entries = (goalStacks.get(key) ?? []).map((v) => ({ v, mark: null, pinned: true, yours: "", ...marks.get(v) }));
      const more = extra.get(key) ?? [];
      return {
        key,
        checked: checks.length > 0,
        yours: mineKeys.has(key),
        entries,
        extra: more,
        differences: entries.filter((e) => e.mark === "missing" || e.mark === "differs").length + more.length,
      };
    }),
  };
}

// compareRules gives, for each check of the task on the chapter's rules
// or on the stored S3 configuration, what it asks for (its patterns: the
// fields it compares) and its verdict on the student's facts
// (exercise.js evaluateTask): [{ kind: "rules" | "s3Rules", patterns,
// pass, detail, lines }].
export function compareRules(task, facts) {
  return task.checks.filter((c) => c.rules || c.s3Rules).map((c) => {
    const kind = c.rules ? "rules" : "s3Rules";
    const [result] = evaluateTask({ ...task, checks: [c] }, facts).checks;
    return { kind, patterns: c[kind], pass: result.pass, detail: result.detail, lines: result.lines ?? [] };
  });
}
