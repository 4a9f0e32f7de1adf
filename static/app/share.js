// The share-link codec: the playground's state as base64url JSON in the URL
// fragment. The fragment never reaches a server.

const PREFIX = "s=";
const VERSION = 1;

function toBase64url(bytes) {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("the link holds characters that are not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  const bin = atob(b64);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

// encodeShare turns { steps, rules, bucket, scenario } into a fragment.
export function encodeShare(state) {
  const payload = { v: VERSION, steps: state.steps, rules: state.rules, bucket: state.bucket || "", scenario: state.scenario || "" };
  return PREFIX + toBase64url(new TextEncoder().encode(JSON.stringify(payload)));
}

// decodeShare reads a fragment (without "#"); it returns null when there is
// no share state and throws when the state is damaged.
export function decodeShare(fragment) {
  if (!fragment.startsWith(PREFIX)) return null;
  const json = new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(fragment.slice(PREFIX.length)));
  const p = JSON.parse(json);
  if (!p || p.v !== VERSION || !Array.isArray(p.steps) || !Array.isArray(p.rules)) {
    throw new Error("the link is not a MiniS3 playground link of this version");
  }
  return { steps: p.steps, rules: p.rules, bucket: String(p.bucket || ""), scenario: String(p.scenario || "") };
}
