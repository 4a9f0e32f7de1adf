// A DOMParser for Node, which has none, so that the page's S3 client
// (app/s3.js) can read S3's XML answers there. Only scenario-check.mjs
// uses it; the page has the browser's.
//
// It parses XML as S3 writes it: elements with attributes, text, character
// and entity references, CDATA sections, comments and processing
// instructions; no DTD. The nodes have what s3.js reads: nodeType,
// nodeName, localName, childNodes, children, textContent,
// getElementsByTagName, and a document's documentElement. Text that is not
// well-formed XML gives, as in a browser, a document holding a parsererror
// element that says why.

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const DOCUMENT_NODE = 9;

// A parent holds child nodes: a document or an element.
class Parent {
  constructor(nodeType, nodeName) {
    this.nodeType = nodeType;
    this.nodeName = nodeName;
    this.childNodes = [];
  }

  get children() {
    return this.childNodes.filter((n) => n.nodeType === ELEMENT_NODE);
  }

  // getElementsByTagName lists the elements below this node named name
  // ("*": every one), in document order.
  getElementsByTagName(name) {
    const found = [];
    const walk = (node) => {
      for (const child of node.children) {
        if (name === "*" || child.nodeName === name) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }
}

class Element extends Parent {
  constructor(name, attributes) {
    super(ELEMENT_NODE, name);
    this.tagName = name;
    this.localName = name.slice(name.indexOf(":") + 1);
    this.attributes = attributes;
  }

  get textContent() {
    return this.childNodes.map((n) => n.textContent).join("");
  }

  getAttribute(name) {
    return Object.hasOwn(this.attributes, name) ? this.attributes[name] : null;
  }
}

class Text {
  constructor(data) {
    this.nodeType = TEXT_NODE;
    this.nodeName = "#text";
    this.childNodes = [];
    this.textContent = data;
  }
}

class Document extends Parent {
  constructor() {
    super(DOCUMENT_NODE, "#document");
  }

  get documentElement() {
    return this.children[0] ?? null;
  }

  get textContent() {
    return null;
  }
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

// decode replaces the references in text by the characters they stand for.
function decode(text) {
  return text.replace(/&([^;&]*);?/g, (ref, name) => {
    if (!ref.endsWith(";")) throw new SyntaxError(`a bare & in ${JSON.stringify(text)}`);
    const code = /^#x[0-9a-fA-F]+$/.test(name) ? parseInt(name.slice(2), 16) : /^#[0-9]+$/.test(name) ? parseInt(name.slice(1), 10) : null;
    if (code !== null && code <= 0x10ffff) return String.fromCodePoint(code);
    if (code === null && Object.hasOwn(ENTITIES, name)) return ENTITIES[name];
    throw new SyntaxError(`an unknown reference ${ref}`);
  });
}

const NAME = "[A-Za-z_][\\w.:-]*";
const START_TAG = new RegExp(`<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`, "y");
const ATTRIBUTE = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`, "g");
const END_TAG = new RegExp(`</(${NAME})\\s*>`, "y");

// parse reads text into a Document; it throws a SyntaxError saying what
// is not well formed, and where.
function parse(text) {
  const doc = new Document();
  const open = [doc];
  const top = () => open[open.length - 1];
  let i = 0;
  const fail = (why) => {
    throw new SyntaxError(`${why} at character ${i}`);
  };
  // skipPast moves i past the next end, or fails: the construct is unclosed.
  const skipPast = (end, what) => {
    const at = text.indexOf(end, i);
    if (at < 0) fail(`an unclosed ${what}`);
    const inside = text.slice(i, at);
    i = at + end.length;
    return inside;
  };
  const addText = (data) => {
    if (open.length === 1) {
      if (data.trim() !== "") fail("text outside the root element");
      return;
    }
    top().childNodes.push(new Text(data));
  };
  while (i < text.length) {
    if (text.startsWith("<?", i)) {
      skipPast("?>", "processing instruction");
    } else if (text.startsWith("<!--", i)) {
      skipPast("-->", "comment");
    } else if (text.startsWith("<![CDATA[", i)) {
      i += "<![CDATA[".length;
      const data = skipPast("]]>", "CDATA section");
      if (open.length === 1) fail("a CDATA section outside the root element");
      addText(data);
    } else if (text.startsWith("<!", i)) {
      fail("a document type declaration, which is not supported");
    } else if (text.startsWith("</", i)) {
      END_TAG.lastIndex = i;
      const m = END_TAG.exec(text);
      if (!m) fail("a malformed end tag");
      if (open.length === 1 || m[1] !== top().nodeName) fail(`an end tag </${m[1]}> that closes no open element`);
      open.pop();
      i = END_TAG.lastIndex;
    } else if (text[i] === "<") {
      START_TAG.lastIndex = i;
      const m = START_TAG.exec(text);
      if (!m) fail("a malformed start tag");
      if (open.length === 1 && doc.documentElement) fail("a second root element");
      const attributes = {};
      for (const [, name, double, single] of m[2].matchAll(ATTRIBUTE)) {
        if (Object.hasOwn(attributes, name)) fail(`the attribute ${name} twice`);
        attributes[name] = decode(double ?? single);
      }
      const element = new Element(m[1], attributes);
      top().childNodes.push(element);
      if (m[3] !== "/") open.push(element);
      i = START_TAG.lastIndex;
    } else {
      const end = text.indexOf("<", i);
      const data = text.slice(i, end < 0 ? text.length : end);
      i += data.length;
      addText(decode(data));
    }
  }
  if (open.length > 1) fail(`an unclosed element <${top().nodeName}>`);
  if (!doc.documentElement) fail("no root element");
  return doc;
}

export class DOMParser {
  // parseFromString parses XML (type "application/xml" or "text/xml") into
  // a document of its own.
  parseFromString(text, type) {
    if (type !== "application/xml" && type !== "text/xml") throw new TypeError(`this DOMParser reads XML only, not ${type}`);
    try {
      return parse(String(text));
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      const doc = new Document();
      const error = new Element("parsererror", {});
      error.childNodes.push(new Text(`not well-formed XML: ${err.message}`));
      doc.childNodes.push(error);
      return doc;
    }
  }
}
