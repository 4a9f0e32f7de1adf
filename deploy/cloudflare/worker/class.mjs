// The class: who may use the worker, and with which keys.
//
// A class has one secret, CLASS_SECRET (a Worker secret, never in a file).
// A student's access key is a name the instructor chooses (letters,
// digits, ".", "_" and "-", at most 64), and its secret key is derived from
// the class secret:
//
//   secret key = the first 40 hex digits of
//                HMAC-SHA256(CLASS_SECRET, "minis3 student " + access key)
//
// so the worker keeps no list: any name is a student, and only whoever
// holds the class secret can make (or be given) the key pair that opens
// that student's store.

/** A student's access key: a name of letters, digits, ".", "_" and "-". */
const ACCESS_KEY = /^[A-Za-z0-9._-]{1,64}$/;

/** Whether accessKey can name a student. */
export function isStudentKey(accessKey) {
  return typeof accessKey === "string" && ACCESS_KEY.test(accessKey);
}

/** The secret key of a student's access key. */
export async function secretKeyOf(classSecret, accessKey) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(classSecret),
    { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode("minis3 student " + accessKey));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 40);
}

/**
 * The access key a request is signed with, as AWS Signature Version 4
 * names it: in the Authorization header ("AWS4-HMAC-SHA256
 * Credential=KEY/date/region/s3/aws4_request, ...") or in a presigned URL's
 * X-Amz-Credential. null when the request names none; the signature itself
 * is checked by the store's Go program.
 */
export function accessKeyOf(request) {
  const auth = request.headers.get("Authorization");
  let credential = null;
  if (auth !== null) {
    const match = /^AWS4-HMAC-SHA256 .*?Credential=([^,]*)/.exec(auth);
    credential = match ? match[1] : null;
  } else {
    credential = new URL(request.url).searchParams.get("X-Amz-Credential");
  }
  if (credential === null) {
    return null;
  }
  return credential.split("/")[0];
}

/**
 * Whether a request carries the class secret as its bearer token
 * ("Authorization: Bearer CLASS_SECRET"), compared in constant time.
 */
export async function isInstructor(request, classSecret) {
  const auth = request.headers.get("Authorization") ?? "";
  if (!classSecret || !auth.startsWith("Bearer ")) {
    return false;
  }
  const digest = async (s) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  const [given, wanted] = await Promise.all([digest(auth.slice("Bearer ".length)), digest(classSecret)]);
  return crypto.subtle.timingSafeEqual(given, wanted);
}
