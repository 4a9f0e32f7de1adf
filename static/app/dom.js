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

// replace makes children the content of el, building them in a
// DocumentFragment first so that the document takes them in one insertion.
export function replace(el, ...children) {
  const frag = document.createDocumentFragment();
  append(frag, children);
  el.replaceChildren(frag);
}

// patch makes the element nodes the children of el, in order, inserting
// only the nodes not already in place and removing the rest: a child that
// is reused from the previous render keeps its style and layout.
export function patch(el, nodes) {
  const keep = new Set(nodes);
  let cur = el.firstChild;
  for (const n of nodes) {
    while (cur && !keep.has(cur)) {
      const next = cur.nextSibling;
      cur.remove();
      cur = next;
    }
    if (n === cur) {
      cur = cur.nextSibling;
      continue;
    }
    el.insertBefore(n, cur);
  }
  while (cur) {
    const next = cur.nextSibling;
    cur.remove();
    cur = next;
  }
}

// setText sets el's text when it is not that already.
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

// The items each list was last built from, as JSON.
const listed = new WeakMap();

// setList builds el's items from items (one view each) when they are not
// the ones it shows already.
export function setList(el, items, view) {
  const sig = JSON.stringify(items);
  if (listed.get(el) === sig) return;
  listed.set(el, sig);
  replace(el, items.map(view));
}
