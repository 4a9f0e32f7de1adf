// MiniS3 for a class, on Cloudflare Workers: the worker's entry.
//
// Every S3 request (and /_minis3/ extension request) goes to the Durable
// Object of the student whose access key signed it, which verifies the
// signature and serves that student's store (store.mjs). The instructor's
// operations live under /_minis3/class/ and need the class secret as a
// bearer token (see README.md and docs/HOSTING.md).
import { accessKeyOf, isInstructor, isStudentKey, secretKeyOf } from "./class.mjs";
import { rosterOf } from "./roster.mjs";
import { ANONYMOUS } from "./store.mjs";

export { ClassRoster } from "./roster.mjs";
export { StudentStore } from "./store.mjs";

/** Where the instructor's operations live. */
const CLASS_PREFIX = "/_minis3/class/";

export default {
  async fetch(request, env) {
    if (!env.CLASS_SECRET) {
      return s3Error(503, "ServiceUnavailable",
        "This MiniS3 has no class yet: its instructor must set CLASS_SECRET (wrangler secret put CLASS_SECRET).");
    }
    const path = new URL(request.url).pathname;
    if (path.startsWith(CLASS_PREFIX)) {
      return instructor(request, env, path.slice(CLASS_PREFIX.length));
    }
    const accessKey = accessKeyOf(request);
    const name = isStudentKey(accessKey) ? accessKey : ANONYMOUS;
    return env.STORES.get(env.STORES.idFromName(name)).fetch(asSent(request));
  },
};

/**
 * The request with the headers its client signed. Cloudflare replaces the
 * Accept-Encoding header of a request (which AWS SDKs sign) with its own,
 * and keeps the client's in request.cf.clientAcceptEncoding ("" for none).
 */
function asSent(request) {
  const sent = request.cf?.clientAcceptEncoding;
  if (sent === undefined) {
    return request;
  }
  const copy = new Request(request);
  if (sent === "") {
    copy.headers.delete("Accept-Encoding");
  } else {
    copy.headers.set("Accept-Encoding", sent);
  }
  return copy;
}

/**
 * The instructor's operations, by method and path under /_minis3/class/.
 * KEY is a student's access key.
 */
const operations = [
  // The stores of the class: { stores: [{ accessKey, since }] }.
  { method: "GET", path: /^stores$/, run: async (env) => Response.json({ stores: await rosterOf(env).list() }) },
  // A student's key pair: { accessKeyId, secretAccessKey }.
  {
    method: "GET", path: /^credentials\/([^/]+)$/,
    run: async (env, key) => Response.json({ accessKeyId: key, secretAccessKey: await secretKeyOf(env.CLASS_SECRET, key) }),
  },
  // Empties a student's store (clock included): { reset: KEY }.
  {
    method: "POST", path: /^stores\/([^/]+)\/reset$/,
    run: async (env, key) => {
      await env.STORES.get(env.STORES.idFromName(key)).reset();
      return Response.json({ reset: key });
    },
  },
];

/** Serves an instructor's operation; path is relative to /_minis3/class/. */
async function instructor(request, env, path) {
  if (!await isInstructor(request, env.CLASS_SECRET)) {
    return jsonError(403, "AccessDenied", "The class operations need the class secret: Authorization: Bearer CLASS_SECRET.");
  }
  for (const op of operations) {
    const match = op.path.exec(path);
    if (match === null) {
      continue;
    }
    if (request.method !== op.method) {
      return jsonError(405, "MethodNotAllowed", `${CLASS_PREFIX}${path} takes ${op.method}, not ${request.method}.`);
    }
    const key = match[1] === undefined ? undefined : decoded(match[1]);
    if (key !== undefined && !isStudentKey(key)) {
      return jsonError(400, "InvalidArgument", "An access key is 1 to 64 letters, digits, '.', '_' or '-'.");
    }
    return op.run(env, key);
  }
  return jsonError(404, "NotFound", `No class operation at ${CLASS_PREFIX}${path}.`);
}

/** A path segment decoded, or null if it is not validly escaped. */
function decoded(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** A JSON error, shaped as the /_minis3/ extensions' errors. */
function jsonError(status, code, message) {
  return Response.json({ code, message }, { status });
}

/** An S3 error document. */
function s3Error(status, code, message) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  return new Response(body, { status, headers: { "Content-Type": "application/xml" } });
}
