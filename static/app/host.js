// The embed's conversation with the page that embeds it (docs/EMBEDDING.md):
// an embed (?embed=1) posts what happens to its parent window — ready, each
// step, an exercise solved or failed, a reset, its height — and accepts two
// requests from it: load a scenario, reset. Every message is an object
// { type: "minis3:NAME", version: 1, … }. Messages go only to the allowed
// origin, and requests are taken only from the parent window at that
// origin, so a student's answers never reach a page the course author did
// not name.
export const PROTOCOL = 1;
const PREFIX = "minis3:";

// The longest scenario name a request may carry.
const MAX_NAME = 200;

// allowedOrigin reads the embed's origin parameter: the origin of the
// course page (scheme://host[:port]), or "*" for any page. Without it the
// embed talks only to a page of its own origin. It returns { origin } or
// { error } for a parameter that is not an origin.
export function allowedOrigin(param, ownOrigin) {
  if (param === null || param === undefined || param === "") return { origin: ownOrigin };
  if (param === "*") return { origin: "*" };
  let url;
  try {
    url = new URL(param);
  } catch {
    return { error: `origin=${param} is not an origin such as https://course.example.org` };
  }
  if (url.origin === "null" || param.replace(/\/$/, "") !== url.origin) {
    return { error: `origin=${param} is not an origin: give scheme://host[:port] and nothing after it` };
  }
  return { origin: url.origin };
}

// readRequest decides what to do with a message event's data, its origin,
// and whether it came from the parent window: { ignore } (not for the
// embed, or from a page it must not listen to: the reason, for the
// console), { error } (a MiniS3 message it cannot follow: the reply's
// message) or { request: { type: "load", scenario } | { type: "reset" } }.
export function readRequest(data, origin, fromParent, allowed) {
  if (!fromParent) return { ignore: "it does not come from the parent window" };
  if (allowed !== "*" && origin !== allowed) return { ignore: `it comes from ${origin}, and this embed listens only to ${allowed}` };
  if (data === null || typeof data !== "object" || typeof data.type !== "string" || !data.type.startsWith(PREFIX)) {
    return { ignore: "it is not a MiniS3 message" };
  }
  if (data.version !== PROTOCOL) return { error: `${data.type}: version must be ${PROTOCOL}` };
  switch (data.type) {
    case `${PREFIX}load`:
      if (typeof data.scenario !== "string" || !/^[A-Za-z0-9-]+$/.test(data.scenario) || data.scenario.length > MAX_NAME) {
        return { error: `${PREFIX}load: scenario must be the name of a built-in scenario (letters, digits and -)` };
      }
      return { request: { type: "load", scenario: data.scenario } };
    case `${PREFIX}reset`:
      return { request: { type: "reset" } };
    default:
      return { error: `${data.type.slice(0, 80)}: not a request this embed accepts (${PREFIX}load, ${PREFIX}reset)` };
  }
}

// message is one outgoing message: its type, the protocol version, the
// embed's frame and scenario, and the fields of that type.
export function message(type, about, fields) {
  return { type: PREFIX + type, version: PROTOCOL, frame: about.frame, scenario: about.scenario, ...fields };
}

// connectHost starts the conversation with the parent window: it reports
// the embed's height whenever it changes, and hands each accepted request
// to onRequest (which returns a Promise). It returns post(type, fields)
// and about, whose scenario the page keeps up to date. Outside an iframe,
// or with an origin parameter that is not one, it returns null and says
// why through warn.
export function connectHost({ win, param, frame, scenario, onRequest, warn }) {
  if (win.parent === win) return null;
  const { origin, error } = allowedOrigin(param, win.location.origin);
  if (error) {
    warn(`MiniS3 embed: ${error}; it sends and accepts no messages.`);
    return null;
  }
  const about = { frame, scenario };
  const post = (type, fields = {}) => win.parent.postMessage(message(type, about, fields), origin);

  win.addEventListener("message", (ev) => {
    const { ignore, error: problem, request } = readRequest(ev.data, ev.origin, ev.source === win.parent, origin);
    if (ignore) {
      if (ev.data?.type?.startsWith?.(PREFIX)) warn(`MiniS3 embed: ignored ${String(ev.data.type).slice(0, 80)}: ${ignore}.`);
      return;
    }
    if (problem) {
      post("error", { message: problem });
      return;
    }
    onRequest(request).catch((err) => post("error", { message: `${PREFIX}${request.type}: ${err.message}` }));
  });

  let height = -1;
  const report = () => {
    const h = Math.ceil(win.document.documentElement.getBoundingClientRect().height);
    if (h === height) return;
    height = h;
    post("height", { height: h });
  };
  new win.ResizeObserver(report).observe(win.document.documentElement);
  return { post, about };
}
