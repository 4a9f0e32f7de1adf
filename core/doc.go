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
// exactly as in the course chapter. Everything the store returns is a copy:
// changing it changes nothing in the store.
//
// # Versioning
//
// A new bucket is unversioned. It can be enabled or suspended, never returned
// to unversioned. In an enabled bucket every new version and delete marker gets
// the next ID of a per-bucket counter (v00000001, v00000002, ...); unversioned
// and suspended buckets write the single "null" entry of a key, replacing any
// older null entry. DELETE without a version ID adds a delete marker in enabled
// and suspended buckets and removes the object in unversioned ones; DELETE with
// a version ID removes exactly that entry. These transitions are in
// versioning.go, and every write goes through them.
//
// # Lifecycle
//
// Lifecycle expiration has two phases, as in the chapter (lifecycle.go).
// [EvaluateExpiration] is pure: given records, rules and an explicit now, it
// returns the actions a tick would take and changes nothing.
// [Store.LifecycleTick] takes the store's lock, samples the clock once,
// evaluates the records under the rules' prefixes, applies every action
// through the bucket's delete transitions, and commits the result at once.
//
// S3's own lifecycle runs beside it, never mixed with it: a bucket's stored
// [LifecycleConfiguration] (lifecycle_config.go), checked as S3 checks one
// (lifecycle_validate.go), decided as S3 decides (s3lifecycle.go:
// [EvaluateLifecycle], pure), run on a bucket (s3lifecycle_run.go) once a
// day, at each midnight UTC of the clock (clock.go).
//
// # A tick, step by step
//
// A tick passes through five files, from the clock sample to the commit:
//
//  1. [Store.LifecycleTick] (lifecycle.go) asks [Store.update] (store.go)
//     for a transaction: it takes the store's lock, finds the bucket and
//     samples the clock once (sampleClock); that time is the tick's now.
//  2. checkEvaluation checks the rules; under finds the records whose keys
//     start with a rule's prefix, through the bucket's key index
//     (index.go), without reading the others.
//  3. evaluate (lifecycle.go) is EvaluateExpiration's loop: keys in order,
//     rules in the caller's order, the current entry, then the noncurrent
//     ones newest first; it selects each action once.
//  4. Each action is applied by tx.apply (lifecycle_apply.go), the one
//     place both lifecycles change a bucket, through the versioning
//     transitions (versioning.go): deleteCurrent for a current version,
//     removeAt for a noncurrent one, only if the entry is still where it
//     was.
//  5. The transaction (tx.go) hands the storage one [ChangeSet] of what
//     changed; only once the storage has committed it does the bucket's new
//     state become live (publish). A tick that selects nothing writes
//     nothing.
//
// An S3 daily run takes the same path from step 3 on: [Store.SetClock]
// (clock.go) calls runAll at each midnight it passes, which runs each
// bucket's configuration (runLifecycle, s3lifecycle_run.go): the
// evaluation is evaluateLifecycle (s3lifecycle.go), the application
// tx.apply, the commit the transaction's, with the clock's midnight in it.
//
// # Storage and atomicity
//
// Every mutation is a transaction (tx.go): it reads the live bucket, makes its
// changes to copies, and hands the storage one [ChangeSet] that it commits
// all-or-nothing. Only then do the copies become live, so a failing storage
// leaves the store exactly as it was. A commit carries only what changed: every
// version and delete marker is a stored item of its own (format.go says what
// is stored and how), so a PUT writes one entry, one body and the bucket's
// metadata, whatever the bucket holds.
//
// [MemoryStorage] is here; bbolt (package boltstore, native) and IndexedDB (the
// wasm build) implement [Storage] too, and package storagetest checks them all
// and wraps any of them to inject failures in tests.
//
// # Errors
//
// Errors are [*Error] values carrying an S3 error [Code]. A Code is itself an
// error, so errors.Is(err, core.NoSuchKey) works, and errors.As gives the
// details (key, version ID, whether a delete marker was hit, ...). A request
// to a missing bucket is NoSuchBucket before anything else is checked.
package core
