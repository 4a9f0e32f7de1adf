// The playground's URL parameters (docs/EMBEDDING.md): embed=1 for an
// embed in a course page, show= the only panels to show and hide= panels
// to hide, scenario= the one to load, frame= the embed's name on its
// course page, and origin= the course page's origin.
const search = new URLSearchParams(location.search);

const names = (param) => new Set((search.get(param) || "").split(",").map((s) => s.trim()).filter(Boolean));
const show = names("show");
const hide = names("hide");

export const params = Object.freeze({
  embed: search.get("embed") === "1",
  // shows: the panel of this name (as ?hide= names them) is not hidden
  // by the URL: show= names it, or there is no show=, and hide= does not.
  shows: (name) => (show.size === 0 || show.has(name)) && !hide.has(name),
  // asks: show= names the panel, which an embed then shows even where it
  // would leave it out (the terminal).
  asks: (name) => show.has(name) && !hide.has(name),
  scenario: search.get("scenario") || "",
  frame: search.get("frame") || "",
  origin: search.get("origin"),
});
