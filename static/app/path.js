// The path a learner works through, and the scenarios that come from
// elsewhere than the built-in list (sources.js). The path is the course
// file's exercises when the link names one (?course=), else the built-in
// scenarios that end with a task, in the order of scenarios/index.json
// (the chapter's). The exercises a learner solved are kept in this
// browser (localStorage, by scenario name), for every page of the site.
import { params } from "./params.js";
import { decodeInline, fetchCourse, fetchScenario, fileURL } from "./sources.js";

const SOLVED_KEY = "minis3-solved";

// The exercises solved in this page, kept also where storage is blocked.
const solvedHere = new Set();

// What the link brought, once loaded: the scenario it names (own), the
// course, the scenarios from elsewhere, and what could not be loaded.
let sources = { own: null, course: null, scenarios: [], errors: [] };
let loading = null;

// loadSources loads, once, the scenarios the link names from elsewhere:
// the one it carries (#scenario=) or names by URL (?scenario-url=), and
// the course (?course=). It never rejects: what cannot be loaded is said
// in errors, one sentence each.
export function loadSources() {
  loading ??= (async () => {
    const errors = [];
    let own = null;
    try {
      own = decodeInline(location.hash.slice(1));
    } catch (err) {
      errors.push(err.message);
    }
    const [url, course] = await Promise.all([
      own || !params.scenarioUrl ? null : fetchScenario(fileURL(params.scenarioUrl, location.href, "scenario-url")).catch((err) => {
        errors.push(`The scenario file could not be loaded: ${err.message}`);
        return null;
      }),
      !params.course ? null : fetchCourse(fileURL(params.course, location.href, "course")).catch((err) => {
        errors.push(`The course could not be loaded: ${err.message}`);
        return null;
      }),
    ]);
    own ??= url;
    if (course) errors.push(...course.errors.map((e) => `An exercise of the course could not be loaded: ${e}`));
    const scenarios = [...(own ? [own] : []), ...(course?.scenarios ?? []).filter((s) => s.name !== own?.name)];
    sources = { own, course, scenarios, errors };
    return sources;
  })();
  return loading;
}

// extraScenarios are the scenarios from elsewhere, loaded (none before).
export const extraScenarios = () => sources.scenarios;

// ownScenario is the scenario the link carries or names by URL, or null.
export const ownScenario = () => sources.own;

// course is the course the link names, or null.
export const course = () => sources.course;

// isExtra: the scenario of that name came from elsewhere.
const isExtra = (name) => sources.scenarios.some((s) => s.name === name);

// pathOf is the path, as scenarios, from the scenarios listed.
export function pathOf(scenarios) {
  if (sources.course) return sources.course.scenarios;
  return scenarios.filter((s) => s.task && !isExtra(s.name));
}

// nextAfter is the exercise after the one named on the path, or null.
export function nextAfter(scenarios, name) {
  const path = pathOf(scenarios);
  const i = path.findIndex((s) => s.name === name);
  return i >= 0 && i + 1 < path.length ? path[i + 1] : null;
}

// startingName is the scenario the page loads when it starts, with what
// it kept before a reload (saved, or null): the scenario the link carries
// or names, unless it is the one kept; else, on a first visit, ?scenario=
// or the course's first exercise not solved yet; else none ("").
export function startingName(saved) {
  const own = sources.own;
  if (own) return saved?.scenario?.name === own.name ? "" : own.name;
  if (saved) return "";
  if (params.scenario) return params.scenario;
  const solved = solvedNames();
  const path = sources.course?.scenarios ?? [];
  return (path.find((s) => !solved.has(s.name)) ?? path[0])?.name ?? "";
}

// menuText is a scenario's line in the Scenarios menu, among the
// scenarios listed: its title, its place on the path, and whether it is
// solved.
export function menuText(sc, scenarios, solved = solvedNames()) {
  const i = pathOf(scenarios).findIndex((s) => s.name === sc.name);
  if (i < 0) return sc.title;
  return `${i + 1}. ${sc.title}${solved.has(sc.name) ? " — ✓ solved" : ""}`;
}

// solvedNames is the set of the exercises solved in this browser.
export function solvedNames() {
  try {
    const list = JSON.parse(localStorage.getItem(SOLVED_KEY) ?? "[]");
    return new Set([...solvedHere, ...(Array.isArray(list) ? list.filter((n) => typeof n === "string") : [])]);
  } catch {
    return new Set(solvedHere);
  }
}

// markSolved keeps that the exercise named is solved.
export function markSolved(name) {
  const solved = solvedNames();
  if (solved.has(name)) return;
  solvedHere.add(name);
  try {
    localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved, name]));
  } catch {
    // Storage full or blocked: the mark lasts until the page goes.
  }
}
