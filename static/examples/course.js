// An example course page: it embeds MiniS3 exercises, resizes each iframe
// to the height it reports, shows each exercise's progress, and can ask an
// embed to start again or to load another scenario. The playground is
// found at ../ (the page's own host), or at ?playground=URL. The messages
// are described in docs/EMBEDDING.md.
const PROTOCOL = 1;
const playground = new URL(new URLSearchParams(location.search).get("playground") || "../", location.href);

// Each iframe asks for its scenario in embed mode, names itself (frame),
// and names this page's origin, the only one the embed will talk to.
const frames = new Map();
for (const iframe of document.querySelectorAll("iframe[data-scenario]")) {
  const src = new URL(playground);
  src.search = new URLSearchParams({ embed: "1", scenario: iframe.dataset.scenario, frame: iframe.id, hide: "http,history,s3,compare", origin: location.origin }).toString();
  iframe.src = src.href;
  frames.set(iframe.id, iframe);
}

function send(id, fields) {
  frames.get(id).contentWindow.postMessage({ version: PROTOCOL, ...fields }, playground.origin);
}

for (const b of document.querySelectorAll("button[data-reset]")) {
  b.addEventListener("click", () => send(b.dataset.reset, { type: "minis3:reset" }));
}
for (const b of document.querySelectorAll("button[data-load]")) {
  b.addEventListener("click", () => send(b.dataset.load, { type: "minis3:load", scenario: b.dataset.scenario }));
}

function progress(id, text, solved) {
  const p = document.getElementById(`${id}-progress`);
  p.textContent = text;
  p.classList.toggle("solved", solved);
}

// The path: what the page heard of each of its exercises, by scenario
// name, kept in this browser. A solved exercise stays solved.
const PATH_KEY = "minis3-course-example-path";
const pathItems = new Map([...document.querySelectorAll("#path li[data-scenario]")].map((li) => [li.dataset.scenario, li]));
let heard = {};
try {
  heard = JSON.parse(localStorage.getItem(PATH_KEY) ?? "{}") ?? {};
} catch {
  heard = {};
}

function showPath() {
  let solved = 0;
  for (const [name, li] of pathItems) {
    const h = heard[name];
    const state = !h ? "not started" : h.solved ? `✓ solved after ${h.attempts} attempt(s)` : h.attempts > 0 ? `attempt ${h.attempts}: ${h.left} check(s) to go` : "started";
    li.querySelector(".path-state").textContent = state;
    li.classList.toggle("solved", Boolean(h?.solved));
    if (h?.solved) solved++;
  }
  document.getElementById("path-summary").textContent = `${solved} of ${pathItems.size} exercises solved.`;
}

// heardOf records what a message says of an exercise on the path.
function heardOf(data) {
  if (!pathItems.has(data.scenario)) return;
  const h = heard[data.scenario] ?? { attempts: 0, left: 0, solved: false };
  if (data.type === "minis3:failed" || data.type === "minis3:solved") {
    h.attempts = data.attempts;
    h.left = data.checks.filter((c) => !c.pass).length;
    h.solved ||= data.type === "minis3:solved";
  }
  heard[data.scenario] = h;
  try {
    localStorage.setItem(PATH_KEY, JSON.stringify(heard));
  } catch {
    // Storage blocked: the page shows the progress until it is left.
  }
  showPath();
}
showPath();

function log(data) {
  const li = document.createElement("li");
  li.dataset.frame = data.frame;
  li.dataset.type = data.type;
  const detail = { ...data };
  delete detail.type;
  delete detail.version;
  delete detail.frame;
  li.textContent = `${data.frame} ${data.type} ${JSON.stringify(detail)}`;
  document.getElementById("log").append(li);
}

// Only messages from one of this page's embeds, at the playground's origin,
// in the version this page understands, are read.
addEventListener("message", (ev) => {
  if (ev.origin !== playground.origin) return;
  const id = [...frames.keys()].find((k) => frames.get(k).contentWindow === ev.source);
  const data = ev.data;
  if (!id || data?.version !== PROTOCOL || typeof data.type !== "string" || data.frame !== id) return;
  log(data);
  if (["minis3:loaded", "minis3:failed", "minis3:solved"].includes(data.type)) heardOf(data);
  switch (data.type) {
    case "minis3:height":
      frames.get(id).height = String(Math.max(200, data.height));
      break;
    case "minis3:loaded":
      progress(id, data.exercise ? `Started: ${data.title}.` : `Loaded: ${data.title}.`, false);
      break;
    case "minis3:solved":
      progress(id, `Solved after ${data.attempts} attempt(s). ✓`, true);
      break;
    case "minis3:failed":
      progress(id, `Attempt ${data.attempts}: ${data.checks.filter((c) => !c.pass).length} check(s) to go.`, false);
      break;
    case "minis3:reset":
      progress(id, "Started again.", false);
      break;
  }
});
