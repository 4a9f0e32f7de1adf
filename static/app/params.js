// The playground's URL parameters (docs/EMBEDDING.md): embed=1 for an
// embed in a course page, show= the only panels to show and hide= panels
// to hide, scenario= the one to load, scenario-url= a scenario file to
// load, course= a course file that names the path, frame= the embed's
// name on its course page, and origin= the course page's origin.
const search = new URLSearchParams(location.search);

// The panels show= and hide= name (main.js hides their sections).
export const PANEL_NAMES = ["clock", "bucket", "actions", "stacks", "compare", "timeline", "lifecycle", "s3", "scenarios", "history", "http", "task", "terminal"];

const listed = (param) => (search.get(param) || "").split(",").map((s) => s.trim()).filter(Boolean);
const known = (param) => new Set(listed(param).filter((name) => PANEL_NAMES.includes(name)));
const show = known("show");
const hide = known("hide");

export const params = Object.freeze({
  embed: search.get("embed") === "1",
  // chosen: show= names the panels, so an exercise folds none away.
  chosen: show.size > 0,
  // shows: the panel of this name is not hidden by the URL: show= names
  // it (an exercise's task always shows with show=), or there is no
  // show=, and hide= does not name it.
  shows: (name) => (show.size === 0 || show.has(name) || name === "task") && !hide.has(name),
  // asks: show= names the panel, which an embed then shows even where it
  // would leave it out (the terminal).
  asks: (name) => show.has(name) && !hide.has(name),
  // unknownPanels: the names in show= and hide= that name no panel: the
  // page ignores them, and says so.
  unknownPanels: [...listed("show"), ...listed("hide")].filter((name) => !PANEL_NAMES.includes(name)),
  scenario: search.get("scenario") || "",
  scenarioUrl: search.get("scenario-url") || "",
  course: search.get("course") || "",
  frame: search.get("frame") || "",
  origin: search.get("origin"),
});
