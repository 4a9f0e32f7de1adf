// Package model is MiniS3's executable specification: a small, obviously
// correct description of what the store does, written for reading rather
// than speed. It is a bucket set in plain maps and slices, with the same
// operations as the store: buckets and their versioning, objects and their
// version stacks, their tags and storage classes, listings with paging,
// multipart uploads, the chapter's lifecycle evaluation and tick, and S3's
// own lifecycle: stored configurations, their daily runs at each midnight
// UTC the clock passes (the clock counts from an origin), runs and
// previews on demand, and the expiry dates answers carry.
//
// It shares no code with package core. Random sequences of operations run
// on both (package modelcheck) and must give the same answers; where they
// differ, one of them is wrong, and every rule here says where it comes
// from, so the argument can be settled:
//
//	[chapter]      ../shared/seed/08-lifecycle-expiration.txt, the course chapter
//	[ref §n]       ../shared/reference/s3-semantics.md, Amazon S3's behaviour
//	[DIFFERENCES]  docs/DIFFERENCES.md, where MiniS3 departs from S3 on purpose
//	[DESIGN]       ../shared/DESIGN.md, MiniS3's contracts
//	[S3 UG x]      the Amazon S3 User Guide, page x
//	[S3 API x]     the Amazon S3 API Reference, operation x
//	[LS test]      LocalStack's test of that name, whose answers were
//	               recorded from AWS (the ref's LS source)
//
// Every operation looks up its bucket first, then checks its arguments,
// then the state it acts on: S3 resolves a request's bucket before it reads
// the rest, so a request to a missing bucket is NoSuchBucket whatever else
// is wrong with it. An operation that fails changes nothing: an error
// leaves the model exactly as it was.
package model
