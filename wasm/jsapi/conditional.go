//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"minis3/core"
)

// Conditional writes: put and completeMultipartUpload write only if the key
// is as the caller expects, checked atomically with the write, as S3's
// If-None-Match and If-Match headers do.
//
//	await store.put("demo", "k", "x", { ifNoneMatch: "*" })   // only if k has no object
//	await store.put("demo", "k", "y", { ifMatch: etag })      // only if k's object has this ETag
//
// A failed condition rejects with PreconditionFailed (NoSuchKey for ifMatch
// on a key without an object) and writes nothing.

// writeConditions reads { ifNoneMatch, ifMatch } from the options object v
// (whose other options the caller reads). As on S3, ifNoneMatch takes only
// "*", ifMatch an ETag (quotes allowed), and not both at once.
func writeConditions(v js.Value) (core.WriteConditions, error) {
	noneMatch, err := option(v, "ifNoneMatch")
	if err != nil {
		return core.WriteConditions{}, err
	}
	match, err := option(v, "ifMatch")
	if err != nil {
		return core.WriteConditions{}, err
	}
	switch {
	case isSet(v) && isSet(v.Get("ifNoneMatch")) && noneMatch != "*":
		return core.WriteConditions{}, invalidArgument("ifNoneMatch", `ifNoneMatch takes only "*" (write only if the key has no object), not %q`, noneMatch)
	case isSet(v) && isSet(v.Get("ifMatch")) && (match == "" || match == "*"):
		return core.WriteConditions{}, invalidArgument("ifMatch", "ifMatch takes an ETag (write only if the key's object has it), not %q", match)
	case noneMatch != "" && match != "":
		return core.WriteConditions{}, invalidArgument("ifMatch", "give ifNoneMatch or ifMatch, not both")
	}
	return core.WriteConditions{IfNoneMatch: noneMatch == "*", IfMatch: match}, nil
}
