// The page's S3 client: the requests of every step (steps.js) as real S3
// REST requests sent through store.fetch, with each request and response
// kept for the HTTP panel.
import { parseExpiryHeader } from "./dates.js";

const ORIGIN = "http://minis3.localhost";

// What each S3 error code means, in plain words.
const MEANINGS = {
  NoSuchBucket: "There is no bucket with that name. Create it first.",
  NoSuchKey: "There is no current object under this key: it never existed, it was deleted, or its newest entry is a delete marker.",
  NoSuchVersion: "The key has no version with that ID (maybe lifecycle or a DELETE by version ID removed it).",
  NoSuchUpload: "That multipart upload does not exist: it was completed, aborted, or never started.",
  BucketAlreadyOwnedByYou: "You already have a bucket with that name.",
  BucketAlreadyExists: "A bucket with that name already exists.",
  BucketNotEmpty: "The bucket still holds versions or delete markers. Delete every version (by ID) first.",
  InvalidBucketName: "Bucket names are 3–63 characters: lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit.",
  InvalidArgument: "A value in the request is not allowed (for example a malformed version ID, a chapter rule without a threshold or with a negative one, an S3 lifecycle rule with Days 0, a Date not at midnight UTC, or two rules with one ID).",
  InvalidRequest: "The request is not valid as a whole (for example a multipart upload completed without parts, or an S3 lifecycle rule that combines a tag filter with AbortIncompleteMultipartUpload).",
  MethodNotAllowed: "That version ID names a delete marker. A marker has no body; you can only DELETE it, which brings back the version under it.",
  InvalidPart: "A listed part was never uploaded or its ETag does not match.",
  InvalidPartOrder: "Parts must be listed in ascending part-number order.",
  EntityTooSmall: "Every part except the last must reach the minimum part size.",
  EntityTooLarge: "The body is larger than allowed.",
  KeyTooLongError: "Keys are at most 1024 bytes of UTF-8.",
  MalformedXML: "The XML body is not well formed or does not follow S3's schema (for a lifecycle rule: a Status other than Enabled or Disabled, no Filter or Prefix, two predicates outside And, ExpiredObjectDeleteMarker with Days or Date).",
  NoSuchLifecycleConfiguration: "The bucket has no S3 lifecycle configuration stored.",
  InvalidObjectState: "The object is in an archive storage class (GLACIER or DEEP_ARCHIVE): S3 serves it only after a restore.",
  InvalidStorageClass: "That is not a storage class S3 knows.",
  InvalidTag: "A tag is not valid: keys and values of letters, digits, spaces and + - = . _ : / @, no key twice, no aws: prefix.",
  IllegalVersioningConfigurationException: "The versioning request must give a Status (Enabled or Suspended).",
  NotImplemented: "MiniS3 does not implement that feature.",
  InternalError: "The store failed internally; nothing was changed.",
  CommandFailed: "The command ended with an exit status other than 0: the terminal shows what it printed.",
};

export function explain(code) {
  return MEANINGS[code] || "The store refused the request.";
}

// S3 paths are path-style: /bucket/key, each key segment percent-encoded.
function objectPath(bucket, key) {
  return `/${encodeURIComponent(bucket)}/${key.split("/").map(encodeURIComponent).join("/")}`;
}

const SHOWN_HEADERS = ["content-type", "content-length", "etag", "x-amz-version-id", "x-amz-delete-marker", "allow", "last-modified", "location",
  "x-amz-storage-class", "x-amz-tagging-count", "x-amz-expiration", "x-amz-abort-date", "x-amz-abort-rule-id"];

function pickHeaders(headers) {
  const out = [];
  for (const name of SHOWN_HEADERS) {
    const v = headers.get(name);
    if (v !== null) out.push([name, v]);
  }
  return out;
}

// S3Error is how a failed request surfaces: code is the S3 error code.
class S3Error extends Error {
  constructor(code, message, status) {
    super(message || code);
    this.code = code;
    this.status = status;
  }
}

// The page enforces Trusted Types (require-trusted-types-for 'script'), so
// DOMParser.parseFromString takes a TrustedHTML. The policy "minis3-xml"
// makes one only here, for XML parsed into a document of its own, which
// runs no script and never enters the page; nothing else can reach it.
let xmlPolicy;
try {
  xmlPolicy = globalThis.trustedTypes?.createPolicy("minis3-xml", { createHTML: (s) => s });
} catch {
  // The embedding page's trusted-types directive does not allow the name:
  // parsing then fails only if that page also enforces Trusted Types.
}

// parseXML parses an S3 response body, or any XML text, into its own
// document (with a parsererror element when it is not well formed).
export function parseXML(text) {
  return new DOMParser().parseFromString(xmlPolicy ? xmlPolicy.createHTML(text) : text, "application/xml");
}

// prettyXML indents an XML text; anything else is returned as it is.
export function prettyXML(text) {
  if (!text.trimStart().startsWith("<")) return text;
  const doc = parseXML(text);
  if (doc.getElementsByTagName("parsererror").length > 0) return text;
  const lines = [];
  const walk = (node, depth) => {
    const pad = "  ".repeat(depth);
    const kids = [...node.childNodes].filter((n) => n.nodeType === Node.ELEMENT_NODE || n.textContent.trim() !== "");
    if (kids.length === 0) {
      lines.push(`${pad}<${node.nodeName}/>`);
    } else if (kids.length === 1 && kids[0].nodeType !== Node.ELEMENT_NODE) {
      lines.push(`${pad}<${node.nodeName}>${kids[0].textContent}</${node.nodeName}>`);
    } else {
      lines.push(`${pad}<${node.nodeName}>`);
      for (const k of kids) {
        if (k.nodeType === Node.ELEMENT_NODE) walk(k, depth + 1);
        else lines.push(pad + "  " + k.textContent.trim());
      }
      lines.push(`${pad}</${node.nodeName}>`);
    }
  };
  walk(doc.documentElement, 0);
  return lines.join("\n");
}

function xmlText(doc, tag) {
  const el = doc.getElementsByTagName(tag)[0];
  return el ? el.textContent : undefined;
}

// errorFrom reads an S3 XML error body, or a JSON one from the MiniS3
// extension endpoints.
function errorFrom(res, text) {
  const type = res.headers.get("content-type") || "";
  if (type.includes("json")) {
    try {
      const j = JSON.parse(text);
      const e = j.error && typeof j.error === "object" ? j.error : j;
      return new S3Error(e.code || e.Code || "InternalError", e.message || e.Message, res.status);
    } catch {
      return new S3Error("InternalError", text, res.status);
    }
  }
  if (type.includes("xml") && text.trim() !== "") {
    const doc = parseXML(text);
    const code = xmlText(doc, "Code");
    if (code) return new S3Error(code, xmlText(doc, "Message"), res.status);
  }
  return new S3Error(res.status === 404 ? "NoSuchKey" : "InternalError", `HTTP ${res.status}`, res.status);
}

// A request the store has not answered in this time means the Go instance
// stopped (a crash is printed to the browser console).
const ANSWER_TIMEOUT_MS = 20000;

function answered(promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new S3Error("InternalError", "the store did not answer within 20 s; it may have stopped (see the browser console). Reload the page.")), ANSWER_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const bucketPath = (bucket) => `/${encodeURIComponent(bucket)}`;

const versioningXML = (status) =>
  `<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>${status}</Status></VersioningConfiguration>`;

const xmlEscape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// withVersion adds the subresource (such as "tagging") and the version ID
// to an object's path.
function withVersion(path, versionId, subresource) {
  const query = [];
  if (subresource) query.push(subresource);
  if (versionId !== undefined && versionId !== "") query.push(`versionId=${encodeURIComponent(versionId)}`);
  return query.length === 0 ? path : `${path}?${query.join("&")}`;
}

const taggingXML = (tags) =>
  `<Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><TagSet>${tags.map((t) => `<Tag><Key>${xmlEscape(t.key)}</Key><Value>${xmlEscape(t.value)}</Value></Tag>`).join("")}</TagSet></Tagging>`;

// The x-amz-tagging header: tags as URL query parameters.
const taggingHeader = (tags) => tags.map((t) => `${encodeURIComponent(t.key)}=${encodeURIComponent(t.value)}`).join("&");

// What S3 says about a version in the headers of a PUT, GET or HEAD.
function objectHeaders(res) {
  const count = res.headers.get("x-amz-tagging-count");
  return {
    versionId: versionOf(res),
    etag: res.headers.get("etag"),
    storageClass: res.headers.get("x-amz-storage-class") ?? "STANDARD",
    tagCount: count === null ? 0 : Number(count),
    expiration: parseExpiryHeader(res.headers.get("x-amz-expiration")),
  };
}

// elements lists the child elements of el named name.
const elements = (el, name) => [...el.children].filter((c) => c.localName === name);
const childText = (el, name) => elements(el, name)[0]?.textContent;

const versionOf = (res) => res.headers.get("x-amz-version-id") ?? "null";

// Client wraps store.fetch and records every exchange. Its operations are
// the S3 requests the page's steps send (steps.js); each returns the fields
// of the step's outcome, and throws an S3Error when the store refuses.
export class Client {
  constructor(store) {
    this.store = store;
    this.exchanges = [];
  }

  async send(method, path, { body, contentType, headers = {} } = {}) {
    const init = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = body;
      if (contentType) init.headers["content-type"] = contentType;
    }
    const req = new Request(ORIGIN + path, init);
    const exchange = {
      method,
      path,
      requestHeaders: Object.entries(init.headers),
      requestBody: body === undefined ? "" : body,
    };
    this.exchanges.push(exchange);
    const res = await answered(this.store.fetch(req));
    const text = method === "HEAD" ? "" : await res.text();
    exchange.status = res.status;
    exchange.statusText = res.statusText;
    exchange.responseHeaders = pickHeaders(res.headers);
    exchange.responseBody = text;
    if (!res.ok) throw errorFrom(res, text);
    return { res, text };
  }

  // keep keeps exchanges another client sent (the terminal's), as this
  // client's.
  keep(exchanges) {
    this.exchanges.push(...exchanges);
  }

  async json(method, path, value) {
    const { text } = await this.send(method, path, { body: JSON.stringify(value), contentType: "application/json" });
    return text === "" ? {} : JSON.parse(text);
  }

  // setClock moves the clock to { now } (seconds) or { time } (RFC 3339).
  // Its outcome has the runs of S3's daily lifecycle that the move passed
  // (those that did something), and their actions in one list, each with
  // its run's bucket, at (clock seconds) and time (RFC 3339).
  async setClock(move) {
    const j = await this.json("PUT", "/_minis3/clock", move);
    const runs = j.runs || [];
    return {
      now: j.now,
      origin: j.origin,
      time: j.time,
      runs,
      actions: runs.flatMap((r) => r.actions.map((a) => ({ ...a, bucket: r.bucket, at: r.at, time: r.time }))),
    };
  }

  async createBucket(bucket) {
    await this.send("PUT", bucketPath(bucket));
    return {};
  }

  async deleteBucket(bucket) {
    await this.send("DELETE", bucketPath(bucket));
    return {};
  }

  // status: "Enabled" or "Suspended", as S3 spells them.
  async putBucketVersioning(bucket, status) {
    await this.send("PUT", `${bucketPath(bucket)}?versioning`, { body: versioningXML(status), contentType: "application/xml" });
    return {};
  }

  async putObject(bucket, key, body, { tags, storageClass } = {}) {
    const headers = {};
    if (tags && tags.length > 0) headers["x-amz-tagging"] = taggingHeader(tags);
    if (storageClass) headers["x-amz-storage-class"] = storageClass;
    const { res } = await this.send("PUT", objectPath(bucket, key), { body, contentType: "text/plain; charset=utf-8", headers });
    const { versionId, etag, expiration } = objectHeaders(res);
    return { versionId, etag, expiration };
  }

  async getObject(bucket, key, versionId) {
    const { res, text } = await this.send("GET", withVersion(objectPath(bucket, key), versionId));
    return { body: text, ...objectHeaders(res) };
  }

  async putObjectTagging(bucket, key, versionId, tags) {
    const { res } = await this.send("PUT", withVersion(objectPath(bucket, key), versionId, "tagging"), { body: taggingXML(tags), contentType: "application/xml" });
    return { versionId: versionOf(res) };
  }

  async getObjectTagging(bucket, key, versionId) {
    const { res, text } = await this.send("GET", withVersion(objectPath(bucket, key), versionId, "tagging"));
    const doc = parseXML(text);
    const tags = [...doc.getElementsByTagName("Tag")].map((t) => ({ key: childText(t, "Key") ?? "", value: childText(t, "Value") ?? "" }));
    return { versionId: versionOf(res), tags };
  }

  async deleteObject(bucket, key, versionId) {
    const { res } = await this.send("DELETE", withVersion(objectPath(bucket, key), versionId));
    return {
      versionId: res.headers.get("x-amz-version-id") ?? undefined,
      deleteMarker: res.headers.get("x-amz-delete-marker") === "true",
    };
  }

  // multipartUpload creates an upload, sends one request per part and
  // completes it.
  async multipartUpload(bucket, key, parts) {
    const path = objectPath(bucket, key);
    const { text } = await this.send("POST", `${path}?uploads`);
    const uploadId = xmlText(parseXML(text), "UploadId");
    const q = `uploadId=${encodeURIComponent(uploadId)}`;
    try {
      const etags = [];
      for (let i = 0; i < parts.length; i++) {
        const { res } = await this.send("PUT", `${path}?partNumber=${i + 1}&${q}`, { body: parts[i], contentType: "application/octet-stream" });
        etags.push(res.headers.get("etag"));
      }
      const list = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${xmlEscape(etag || "")}</ETag></Part>`).join("");
      const { res, text: done } = await this.send("POST", `${path}?${q}`, {
        body: `<CompleteMultipartUpload>${list}</CompleteMultipartUpload>`,
        contentType: "application/xml",
      });
      return { versionId: versionOf(res), etag: xmlText(parseXML(done), "ETag") };
    } catch (err) {
      // Leave no unfinished upload behind: abort, then report the first error.
      await this.send("DELETE", `${path}?${q}`).catch(() => {});
      throw err;
    }
  }

  // createMultipartUpload starts an upload and leaves it in progress.
  async createMultipartUpload(bucket, key) {
    const { text } = await this.send("POST", `${objectPath(bucket, key)}?uploads`);
    return { uploadId: xmlText(parseXML(text), "UploadId") };
  }

  // lifecycle runs a MiniS3 extension: phase "preview" tells what the next
  // tick would do and changes nothing, "tick" applies it. rules: the rules
  // it uses.
  async lifecycle(bucket, phase, rules) {
    const j = await this.json("POST", `/_minis3/buckets/${encodeURIComponent(bucket)}/lifecycle-${phase}`, { rules });
    return { actions: j.actions || [] };
  }

  // runLifecycle runs the bucket's stored S3 lifecycle configuration now
  // (phase "run"), or tells what that would do and changes nothing
  // ("run-preview").
  async runLifecycle(bucket, phase) {
    const { text } = await this.send("POST", `/_minis3/buckets/${encodeURIComponent(bucket)}/lifecycle-${phase}`);
    return { actions: JSON.parse(text).actions || [] };
  }

  // putBucketLifecycle sends S3's PutBucketLifecycleConfiguration with an
  // XML body, as written.
  async putBucketLifecycle(bucket, xml) {
    await this.send("PUT", `${bucketPath(bucket)}?lifecycle`, { body: xml, contentType: "application/xml" });
    return {};
  }

  // getBucketLifecycle reads the stored configuration as S3's XML, with the
  // ID and Status of each rule.
  async getBucketLifecycle(bucket) {
    const { text } = await this.send("GET", `${bucketPath(bucket)}?lifecycle`);
    const root = parseXML(text).documentElement;
    const rules = elements(root, "Rule").map((r) => ({ ID: childText(r, "ID") ?? "", Status: childText(r, "Status") ?? "" }));
    return { xml: text, rules };
  }

  async deleteBucketLifecycle(bucket) {
    await this.send("DELETE", `${bucketPath(bucket)}?lifecycle`);
    return {};
  }
}
