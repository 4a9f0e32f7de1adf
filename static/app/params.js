// The playground's URL parameters (docs/EMBEDDING.md): embed=1 for an
// embed in a course page, hide= the panels to hide, scenario= the one to
// load, frame= the embed's name on its course page, and origin= the
// course page's origin.
const search = new URLSearchParams(location.search);

export const params = Object.freeze({
  embed: search.get("embed") === "1",
  hidden: new Set((search.get("hide") || "").split(",").map((s) => s.trim()).filter(Boolean)),
  scenario: search.get("scenario") || "",
  frame: search.get("frame") || "",
  origin: search.get("origin"),
});
