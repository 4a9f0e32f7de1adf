//go:build js && wasm

package wasm_test

import (
	"fmt"
	"strings"
	"syscall/js"
	"testing"
)

// put writes only if the key is as its ifNoneMatch or ifMatch says, as
// S3's If-None-Match: * and If-Match do; a failed condition writes nothing.
func TestPutIsConditional(t *testing.T) {
	store := openLifecycleStore(t, "enabled")
	first := call(t, store, "put", "demo", "k", "one", object(`{"ifNoneMatch": "*"}`))
	wantCode(t, "put with ifNoneMatch over an object", fail(t, store, "put", "demo", "k", "two", object(`{"ifNoneMatch": "*"}`)), "PreconditionFailed")

	etag := first.Get("etag").String()
	call(t, store, "put", "demo", "k", "two", object(fmt.Sprintf(`{"ifMatch": %q}`, etag)))
	wantCode(t, "put with the old ETag", fail(t, store, "put", "demo", "k", "three", object(fmt.Sprintf(`{"ifMatch": %q}`, etag))), "PreconditionFailed")
	call(t, store, "put", "demo", "k", "three", object(fmt.Sprintf(`{"ifMatch": "\"%s\""}`, md5Of("two"))))
	wantCode(t, "put with ifMatch on a key without an object", fail(t, store, "put", "demo", "missing", "x", object(fmt.Sprintf(`{"ifMatch": %q}`, etag))), "NoSuchKey")

	call(t, store, "delete", "demo", "k")
	call(t, store, "put", "demo", "k", "four", object(`{"ifNoneMatch": "*", "contentType": "text/plain"}`))
	var bodies []string
	for _, v := range listOf(call(t, store, "listVersions", "demo")) {
		if !v.Get("isDeleteMarker").Bool() {
			bodies = append(bodies, call(t, store, "get", "demo", "k", object(fmt.Sprintf(`{"versionId": %q}`, v.Get("versionId").String()))).Get("text").String())
		}
	}
	if got := strings.Join(bodies, ","); got != "four,three,two,one" {
		t.Errorf("versions of k (newest first) = %s, want four,three,two,one: a refused put writes nothing, and a delete marker is no object", got)
	}
}

// completeMultipartUpload takes the same conditions, checked when the upload
// is completed; when they hold but the key was written since the upload
// began, the completion is ConditionalRequestConflict, as on S3.
func TestCompleteMultipartUploadIsConditional(t *testing.T) {
	store := openLifecycleStore(t, "enabled")
	upload := func(key string) (id string, parts js.Value) {
		t.Helper()
		id = call(t, store, "createMultipartUpload", "demo", key).Get("uploadId").String()
		p := call(t, store, "uploadPart", "demo", key, id, 1, "body")
		return id, js.Global().Get("Array").New(object(fmt.Sprintf(`{"partNumber": 1, "etag": %q}`, p.Get("etag").String())))
	}
	call(t, store, "put", "demo", "taken", "x")
	id, parts := upload("taken")
	wantCode(t, "completion with ifNoneMatch over an object", fail(t, store, "completeMultipartUpload", "demo", "taken", id, parts, object(`{"ifNoneMatch": "*"}`)), "PreconditionFailed")
	call(t, store, "completeMultipartUpload", "demo", "taken", id, parts, object(fmt.Sprintf(`{"ifMatch": %q}`, md5Of("x"))))

	id, parts = upload("raced")
	call(t, store, "put", "demo", "raced", "meanwhile")
	holds := object(fmt.Sprintf(`{"ifMatch": %q}`, md5Of("meanwhile")))
	wantCode(t, "completion whose condition holds, after the key changed", fail(t, store, "completeMultipartUpload", "demo", "raced", id, parts, holds), "ConditionalRequestConflict")
	if got := call(t, store, "get", "demo", "raced").Get("text").String(); got != "meanwhile" {
		t.Errorf("after the refused completion raced holds %q, want meanwhile", got)
	}
	call(t, store, "completeMultipartUpload", "demo", "raced", id, parts)
	if got := call(t, store, "get", "demo", "raced").Get("text").String(); got != "body" {
		t.Errorf("after the unconditional completion raced holds %q, want body", got)
	}
}

// A bucket's own tags are stored, read back in order, replaced and removed.
func TestBucketTagging(t *testing.T) {
	store := openLifecycleStore(t, "")
	wantCode(t, "getBucketTagging of a bucket without tags", fail(t, store, "getBucketTagging", "demo"), "NoSuchTagSet")
	tags := object(`[{"key": "course", "value": "s3-101"}, {"key": "term", "value": "autumn"}]`)
	p := store.Call("putBucketTagging", "demo", tags)
	tags.Index(0).Set("value", "changed") // after the call: not stored
	if v, rejected := settle(t, p); rejected {
		t.Fatalf("putBucketTagging rejected: %s", v.Get("message"))
	}
	got := call(t, store, "getBucketTagging", "demo")
	wantJSON(t, "getBucketTagging", got, `[{"key":"course","value":"s3-101"},{"key":"term","value":"autumn"}]`)
	got.Index(0).Set("value", "changed") // a result is the caller's
	wantJSON(t, "getBucketTagging again", call(t, store, "getBucketTagging", "demo"), `[{"key":"course","value":"s3-101"},{"key":"term","value":"autumn"}]`)

	call(t, store, "putBucketTagging", "demo", object(`[{"key": "term", "value": "spring"}]`))
	wantJSON(t, "getBucketTagging after a replacement", call(t, store, "getBucketTagging", "demo"), `[{"key":"term","value":"spring"}]`)
	call(t, store, "deleteBucketTagging", "demo")
	call(t, store, "deleteBucketTagging", "demo") // removing none is no error
	wantCode(t, "getBucketTagging after deleteBucketTagging", fail(t, store, "getBucketTagging", "demo"), "NoSuchTagSet")
}

// Wrong conditions and bucket tag sets are refused, and nothing is written.
func TestConditionAndBucketTaggingErrors(t *testing.T) {
	store := openLifecycleStore(t, "")
	call(t, store, "put", "demo", "k", "x")
	id := call(t, store, "createMultipartUpload", "demo", "up").Get("uploadId").String()
	fiftyOne := make([]string, 51)
	for i := range fiftyOne {
		fiftyOne[i] = fmt.Sprintf(`{"key": "k%d", "value": "v"}`, i)
	}
	cases := []refusal{
		{"IfNoneMatchOtherThanStar", "put", []any{"demo", "n", "x", object(`{"ifNoneMatch": "abc"}`)}, "InvalidArgument", "ifNoneMatch"},
		{"IfNoneMatchEmpty", "put", []any{"demo", "n", "x", object(`{"ifNoneMatch": ""}`)}, "InvalidArgument", "ifNoneMatch"},
		{"IfMatchStar", "put", []any{"demo", "k", "x", object(`{"ifMatch": "*"}`)}, "InvalidArgument", "ifMatch"},
		{"IfMatchEmpty", "put", []any{"demo", "k", "x", object(`{"ifMatch": ""}`)}, "InvalidArgument", "ifMatch"},
		{"IfMatchNumber", "put", []any{"demo", "k", "x", object(`{"ifMatch": 5}`)}, "InvalidArgument", "ifMatch"},
		{"BothConditions", "put", []any{"demo", "k", "x", object(fmt.Sprintf(`{"ifNoneMatch": "*", "ifMatch": %q}`, md5Of("x")))}, "InvalidArgument", "ifMatch"},
		{"MisspeltCondition", "put", []any{"demo", "k", "x", object(`{"ifNonMatch": "*"}`)}, "InvalidArgument", "ifNonMatch"},
		{"ConditionOnAnUpload", "createMultipartUpload", []any{"demo", "k", object(`{"ifNoneMatch": "*"}`)}, "InvalidArgument", "ifNoneMatch"},
		{"CompletionWithAMisspeltCondition", "completeMultipartUpload", []any{"demo", "up", id, object(`[]`), object(`{"if": "*"}`)}, "InvalidArgument", "if"},
		{"CompletionOptionsString", "completeMultipartUpload", []any{"demo", "up", id, object(`[]`), "*"}, "InvalidArgument", ""},
		{"BucketTagsMissing", "putBucketTagging", []any{"demo"}, "InvalidArgument", "tags"},
		{"BucketTagWithoutValue", "putBucketTagging", []any{"demo", object(`[{"key": "a"}]`)}, "InvalidArgument", "tags[0].value"},
		{"BucketTagKeyTwice", "putBucketTagging", []any{"demo", object(`[{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]`)}, "InvalidTag", ""},
		{"FiftyOneBucketTags", "putBucketTagging", []any{"demo", object("[" + strings.Join(fiftyOne, ",") + "]")}, "BadRequest", ""},
		{"BucketTagsOfAMissingBucket", "putBucketTagging", []any{"nope", object(`[]`)}, "NoSuchBucket", ""},
		{"BucketTagsOfAMissingBucketRead", "getBucketTagging", []any{"nope"}, "NoSuchBucket", ""},
		{"BucketNameNumber", "deleteBucketTagging", []any{5}, "InvalidArgument", "bucket"},
	}
	refuse(t, store, cases)
	wantJSON(t, "the objects after the refused calls", call(t, store, "listObjects", "demo"),
		fmt.Sprintf(`[{"key":"k","versionId":"null","etag":%q,"size":1,"createdAt":0,"storageClass":"STANDARD"}]`, md5Of("x")))
	wantCode(t, "getBucketTagging after the refused calls", fail(t, store, "getBucketTagging", "demo"), "NoSuchTagSet")
}

// listOf is a JavaScript array's elements.
func listOf(a js.Value) []js.Value {
	out := make([]js.Value, a.Length())
	for i := range out {
		out[i] = a.Index(i)
	}
	return out
}
