// s3test.js is the page side of the service worker's browser test, bundled
// with the AWS SDK for JavaScript v3 by esbuild when the test starts. It
// puts globalThis.s3test = { startMiniS3, s3Client, scenario, ... } on the
// page; the Go test (sw_test.go) calls them and checks what they return.

import {
  S3Client,
  CreateBucketCommand,
  PutBucketVersioningCommand,
  GetBucketVersioningCommand,
  PutObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  ListObjectVersionsCommand,
  ListBucketsCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  CompleteMultipartUploadCommand,
  PutBucketLifecycleConfigurationCommand,
  GetBucketLifecycleConfigurationCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";

// startMiniS3 registers MiniS3's service worker for the S3 endpoint
// `endpoint` over IndexedDB database `db` (the worker's defaults when
// unset), and resolves once it controls this page. The page may already be
// controlled by another worker (one registered for a wider scope): it waits
// for this one, which claims the page once it is active.
export async function startMiniS3({ endpoint, db, scope } = {}) {
  const params = new URLSearchParams();
  if (endpoint) params.set("endpoint", endpoint);
  if (db) params.set("db", db);
  const script = new URL(`/minis3-sw.js?${params}`, location.href).href;
  await navigator.serviceWorker.register(script, { type: "module", scope });
  while (navigator.serviceWorker.controller?.scriptURL !== script) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
}

// s3Client is an S3Client of the AWS SDK for JavaScript pointed at the
// worker: path-style, any credentials.
export function s3Client(endpoint, options = {}) {
  return new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "minis3", secretAccessKey: "minis3" },
    ...options,
  });
}

// setClock moves the store's manual clock to `now` seconds; the answer
// lists what S3's daily lifecycle runs it passed did.
export async function setClock(endpoint, now) {
  const res = await fetch(new URL("_minis3/clock", endpoint), { method: "PUT", body: JSON.stringify({ now }) });
  if (!res.ok) throw new Error(`PUT /_minis3/clock: ${res.status} ${await res.text()}`);
  return res.json();
}

// reset empties the store: every bucket goes, and the clock is 0 again.
export async function reset(endpoint) {
  const res = await fetch(new URL("_minis3/reset", endpoint), { method: "POST" });
  if (!res.ok) throw new Error(`POST /_minis3/reset: ${res.status} ${await res.text()}`);
}

// failure is what an SDK call's error says: its name and HTTP status.
async function failure(promise) {
  try {
    await promise;
    return "no error";
  } catch (e) {
    return `${e.name} ${e.$metadata?.httpStatusCode ?? "(no response)"}`;
  }
}

const text = async (out) => out.Body.transformToString();

// allVersions pages through ListObjectVersions, maxKeys at a time.
async function allVersions(s3, Bucket, MaxKeys) {
  const pages = [];
  let KeyMarker, VersionIdMarker;
  for (;;) {
    const page = await s3.send(new ListObjectVersionsCommand({ Bucket, MaxKeys, KeyMarker, VersionIdMarker }));
    const entries = [
      ...(page.Versions ?? []).map((v) => ({ ...v, marker: false })),
      ...(page.DeleteMarkers ?? []).map((v) => ({ ...v, marker: true })),
    ];
    // S3 lists versions and markers of a page apart; put them back in key
    // and age order, as the listing walked them.
    entries.sort((a, b) => (a.Key < b.Key ? -1 : a.Key > b.Key ? 1 : b.VersionId.localeCompare(a.VersionId)));
    pages.push(entries.map((v) => `${v.Key} ${v.VersionId}${v.marker ? " marker" : ""}${v.IsLatest ? " latest" : ""}`));
    if (!page.IsTruncated) return pages;
    KeyMarker = page.NextKeyMarker;
    VersionIdMarker = page.NextVersionIdMarker;
  }
}

// scenario drives every kind of S3 call the test checks through the worker
// at endpoint, with clients made with options, and returns what each
// answered.
export async function scenario(endpoint, options = {}) {
  const s3 = s3Client(endpoint, options);
  const Bucket = "photos";
  const out = {};

  await s3.send(new CreateBucketCommand({ Bucket }));
  await s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: "Enabled" } }));
  out.versioning = (await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status;
  out.buckets = (await s3.send(new ListBucketsCommand({}))).Buckets.map((b) => b.Name);

  const one = await s3.send(new PutObjectCommand({ Bucket, Key: "cat.txt", Body: "one" }));
  const two = await s3.send(new PutObjectCommand({ Bucket, Key: "cat.txt", Body: new TextEncoder().encode("two!") }));
  out.putVersions = [one.VersionId, two.VersionId];
  out.putChecksum = one.ChecksumCRC32;
  const current = await s3.send(new GetObjectCommand({ Bucket, Key: "cat.txt", ChecksumMode: "ENABLED" }));
  out.getCurrent = [current.VersionId, await text(current)];
  const first = await s3.send(new GetObjectCommand({ Bucket, Key: "cat.txt", VersionId: one.VersionId }));
  out.getFirst = [first.VersionId, await text(first)];
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key: "cat.txt", VersionId: one.VersionId }));
  out.headFirst = [head.VersionId, head.ContentLength, head.ETag];

  const del = await s3.send(new DeleteObjectCommand({ Bucket, Key: "cat.txt" }));
  out.deleteMarker = [del.VersionId, del.DeleteMarker];
  out.getAfterDelete = await failure(s3.send(new GetObjectCommand({ Bucket, Key: "cat.txt" })));
  out.headAfterDelete = await failure(s3.send(new HeadObjectCommand({ Bucket, Key: "cat.txt" })));
  out.getMarker = await failure(s3.send(new GetObjectCommand({ Bucket, Key: "cat.txt", VersionId: del.VersionId })));
  out.getUnknownVersion = await failure(s3.send(new GetObjectCommand({ Bucket, Key: "cat.txt", VersionId: "v00000099" })));
  out.getStillThere = await text(await s3.send(new GetObjectCommand({ Bucket, Key: "cat.txt", VersionId: two.VersionId })));

  for (const Key of ["dog.txt", "dog.txt", "eel.txt"]) {
    await s3.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
  }
  out.versionPages = await allVersions(s3, Bucket, 2);

  const Key = "big.bin";
  const upload = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key }));
  const part1 = new Uint8Array(5 * 1024 * 1024).fill(97);
  const part2 = new TextEncoder().encode("end");
  const p1 = await s3.send(new UploadPartCommand({ Bucket, Key, UploadId: upload.UploadId, PartNumber: 1, Body: part1 }));
  const p2 = await s3.send(new UploadPartCommand({ Bucket, Key, UploadId: upload.UploadId, PartNumber: 2, Body: part2 }));
  const done = await s3.send(new CompleteMultipartUploadCommand({
    Bucket, Key, UploadId: upload.UploadId,
    MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p1.ETag }, { PartNumber: 2, ETag: p2.ETag }] },
  }));
  const big = await (await s3.send(new GetObjectCommand({ Bucket, Key }))).Body.transformToByteArray();
  out.multipart = [done.ETag.endsWith('-2"'), done.VersionId, big.length, String.fromCharCode(...big.slice(-4))];

  const deleted = await s3.send(new DeleteObjectsCommand({
    Bucket, Delete: { Objects: [{ Key: "dog.txt" }, { Key: "eel.txt" }, { Key: "cat.txt", VersionId: one.VersionId }] },
  }));
  out.deleteObjects = deleted.Deleted
    .map((d) => (d.DeleteMarker ? `${d.Key}: marker ${d.DeleteMarkerVersionId}` : `${d.Key}: ${d.VersionId} deleted`)).sort();

  const getURL = await getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: "cat.txt", VersionId: two.VersionId }), { expiresIn: 300 });
  const got = await fetch(getURL);
  out.presignedGet = [got.status, await got.text()];
  const putURL = await getSignedUrl(s3, new PutObjectCommand({ Bucket, Key: "note.txt" }), { expiresIn: 300 });
  const put = await fetch(putURL, { method: "PUT", body: "sent to a presigned URL" });
  await put.text();
  out.presignedPut = [put.status, put.headers.get("x-amz-version-id"),
    await text(await s3.send(new GetObjectCommand({ Bucket, Key: "note.txt" })))];

  // A Blob body needs requestChecksumCalculation: "WHEN_REQUIRED" in a
  // browser (aws/aws-sdk-js-v3#6834): with the default checksums, the
  // browser's fetch refuses the SDK's aws-chunked stream of it, and nothing
  // reaches the worker.
  const refused = await failure(s3.send(new PutObjectCommand({ Bucket, Key: "blob.txt", Body: new Blob(["refused"]) })));
  out.blobDefaultChecksums = [refused, await failure(s3.send(new HeadObjectCommand({ Bucket, Key: "blob.txt" })))];
  const blobClient = s3Client(endpoint, { ...options, requestChecksumCalculation: "WHEN_REQUIRED" });
  await blobClient.send(new PutObjectCommand({ Bucket, Key: "blob.txt", Body: new Blob(["a Blob body"]) }));
  out.blob = await text(await s3.send(new GetObjectCommand({ Bucket, Key: "blob.txt" })));

  await s3.send(new PutBucketLifecycleConfigurationCommand({
    Bucket,
    LifecycleConfiguration: {
      Rules: [{ ID: "logs", Status: "Enabled", Filter: { Prefix: "logs/" }, Expiration: { Days: 1 } }],
    },
  }));
  out.lifecycle = (await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket }))).Rules
    .map((r) => `${r.ID} ${r.Status} ${r.Filter.Prefix} ${r.Expiration.Days}`);
  const log = await s3.send(new PutObjectCommand({ Bucket, Key: "logs/app.log", Body: "log" }));
  const moved = await setClock(endpoint, 3 * 86400);
  out.clockRuns = moved.runs.flatMap((run) => run.actions.map((a) => `${a.kind} ${a.key} ${a.versionId}`));
  out.logAfterRun = await failure(s3.send(new GetObjectCommand({ Bucket, Key: "logs/app.log" })));
  out.logVersion = await text(await s3.send(new GetObjectCommand({ Bucket, Key: "logs/app.log", VersionId: log.VersionId })));
  return out;
}

globalThis.s3test = {
  startMiniS3, s3Client, setClock, reset, scenario, allVersions, failure,
  CreateBucketCommand, PutBucketVersioningCommand, PutObjectCommand, GetObjectCommand, DeleteObjectCommand, ListBucketsCommand,
};
