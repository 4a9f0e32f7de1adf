// h builds an element. Children that are strings become text nodes, so data
// (keys, bodies, XML) is always shown as text and never parsed as HTML.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") el.textContent = String(value);
    else if (name.startsWith("on") || name === "style") throw new Error(`h: ${name} is not allowed`);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

export const $ = (id) => document.getElementById(id);

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}
