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
