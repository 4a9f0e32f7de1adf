// JSON carried in a link's fragment, as base64url of its UTF-8 text: how
// share links (share.js) and scenarios in the link (sources.js) travel.
// The fragment never reaches a server. A link is input from anyone:
// readLinkJSON says what is wrong with it rather than throw.

// writeLinkJSON is value as JSON in base64url, without padding.
export function writeLinkJSON(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const chunks = [];
  for (let i = 0; i < bytes.length; i += 0x8000) chunks.push(String.fromCharCode(...bytes.subarray(i, i + 0x8000)));
  return btoa(chunks.join("")).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// readLinkJSON reads what writeLinkJSON wrote. It returns { value }, or
// { problem } saying, for the reader, what is wrong with text.
export function readLinkJSON(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return { problem: "it holds characters that are not base64url (was it cut or changed?)" };
  if (text.length % 4 === 1) return { problem: "it is cut short" };
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  let json;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return { problem: "its data is not UTF-8 text" };
  }
  try {
    return { value: JSON.parse(json) };
  } catch {
    return { problem: "its data is not JSON" };
  }
}
