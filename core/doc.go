// Package core is MiniS3's object store: buckets, objects, versioning with
// delete markers, listing, multipart upload and lifecycle expiration under an
// injected clock. It is pure Go and builds for every GOOS, so the same store
// runs natively (behind the S3 HTTP API) and in the browser (as WebAssembly).
//
// # Model
//
// A bucket holds one [ObjectRecord] per key. A record's Versions are newest
// first and Versions[0] is the current entry. An entry is either a data
// [*Version] or a [*DeleteMarker]; "is this a data version?" is a type check,
// exactly as in the course chapter. Entries are immutable once published: a
// change builds a new record, so a snapshot handed out by the store never
// changes under its reader.
//
// # Versioning
//
// A new bucket is unversioned. It can be enabled or suspended, never returned
// to unversioned. In an enabled bucket every new version and delete marker gets
// the next ID of a per-bucket counter (v00000001, v00000002, ...); unversioned
// and suspended buckets write the single "null" entry of a key, replacing any
// older null entry. DELETE without a version ID adds a delete marker in enabled
// and suspended buckets and removes the object in unversioned ones; DELETE with
// a version ID removes exactly that entry.
//
// # Lifecycle
//
// Lifecycle expiration has two phases. [EvaluateExpiration] is pure: given a
// snapshot of records, rules and an explicit now, it returns the actions a tick
// would take and changes nothing. [Store.LifecycleTick] takes the store's lock,
// samples the clock once, evaluates, applies every action through the bucket's
// delete transitions (a key's noncurrent actions in one pass, as deletes of
// those version IDs) and persists the result in one atomic commit.
//
// # Storage and atomicity
//
// Every mutation runs as a transaction over the live state: it reads through an
// overlay, records what it changes, and produces a [ChangeSet] that the
// [Storage] commits all-or-nothing. The live state is updated only after the
// commit succeeds, so a failing storage leaves the store exactly as it was.
// A commit carries only what changed. Every entry is stored as an item of
// its own, next to its body, so a PUT writes one entry, one body and the
// bucket's small metadata, whether the bucket holds 100,000 keys or its key
// 1,000 versions; a lifecycle tick writes the entries it adds and removes
// the ones it expires. Stores written by earlier formats, which kept a key's
// whole stack in one item, are upgraded when they open, in one commit.
//
// Three storages implement the interface: [MemoryStorage] here, bbolt in
// package boltstore (native) and IndexedDB in the wasm build. [FaultStorage]
// wraps any of them to inject failures in tests.
//
// # Errors
//
// Errors are [*Error] values carrying an S3 error [Code]. A Code is itself an
// error, so errors.Is(err, core.NoSuchKey) works, and errors.As gives the
// details (key, version ID, whether a delete marker was hit, ...).
package core
