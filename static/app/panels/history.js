// The History panel (#history-panel) and the HTTP panel (#http-panel):
// every step logged with its outcome, checks and HTTP exchanges, and the
// exchanges of the last step that sent any.
import { $, h, replace, patch } from "../dom.js";
import { fmt } from "../model.js";
import { explain, prettyXML } from "../s3.js";
import { checksView } from "../views.js";

// showBody indents XML bodies; everything else is shown as it is. Only bodies
// labelled XML are parsed, so an object's body is never touched.
function showBody(headers, body) {
  const type = headers.find(([k]) => k === "content-type")?.[1] || "";
  return type.includes("xml") ? prettyXML(body) : body;
}

function exchangeView(x) {
  const req = [`${x.method} ${x.path}`, ...x.requestHeaders.map(([k, v]) => `${k}: ${v}`)];
  if (x.requestBody !== "") req.push("", showBody(x.requestHeaders, x.requestBody));
  const res = [`${x.status ?? "—"} ${x.statusText || ""}`.trim(), ...(x.responseHeaders || []).map(([k, v]) => `${k}: ${v}`)];
  if (x.responseBody) res.push("", showBody(x.responseHeaders || [], x.responseBody));
  return h("div", { class: `exchange ${x.status >= 400 ? "failed" : ""}` },
    h("pre", { class: "req", "aria-label": "request" }, req.join("\n")),
    h("pre", { class: "res", "aria-label": "response" }, res.join("\n")));
}

function outcomeText(entry) {
  if (entry.ok) return entry.summary || "OK";
  return `${entry.code}: ${explain(entry.code)}${entry.message && entry.message !== entry.code ? ` (${entry.message})` : ""}`;
}

// historyViews keeps the view of every history entry (entries do not change
// once logged), so a render builds only the new ones and its exchanges'
// XML is parsed once.
const historyViews = new WeakMap();

export function render(state) {
  const n = state.history.length;
  patch($("history"), state.history.slice().reverse().map((e, i) => {
    let li = historyViews.get(e);
    if (!li) {
      li = historyEntry(e);
      historyViews.set(e, li);
    }
    li.value = n - i;
    return li;
  }));
  const last = state.history.findLast((e) => e.exchanges.length > 0) ?? null;
  if (last === httpShown) return;
  httpShown = last;
  replace($("http"), last ? [h("p", { class: "hint" }, last.title), last.exchanges.map(exchangeView)] : h("p", { class: "empty" }, "No request yet."));
}

// The entry whose exchanges the HTTP panel shows: it is drawn again only
// for another (undefined: never drawn).
let httpShown;

function historyEntry(e) {
  return h("li", { class: `hist ${e.ok ? "ok" : "err"}` },
    h("p", { class: "hist-line" },
      h("span", { class: "hist-time" }, `t=${fmt(e.now)}`), " ",
      h("span", { class: "hist-what" }, e.title), " → ",
      h("span", { class: "hist-result" }, e.ok ? "✓ " : "✗ ", outcomeText(e))),
    checksView(e.checks),
    e.exchanges.length > 0 ? h("details", {}, h("summary", {}, `${e.exchanges.length} HTTP request${e.exchanges.length === 1 ? "" : "s"}`), e.exchanges.map(exchangeView)) : null,
  );
}
