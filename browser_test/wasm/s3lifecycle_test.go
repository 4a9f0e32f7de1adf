//go:build js && wasm

package wasm_test

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"syscall/js"
	"testing"
	"time"

	"minis3/core"
)

// S3's own lifecycle through the JavaScript API: a bucket's stored
// configuration in the AWS shape, the daily runs of setClock, the
// schedules, tags and storage classes. The examples are AWS's
// (s3-semantics.md §5.5), on a clock whose 0 is a midnight UTC (a store's
// origin), so "10:30 on the first day" is clock 37800.

const oneDay = core.SecondsPerDay

// clockTime is the RFC 3339 time store's clock shows at secs.
func clockTime(store js.Value, secs float64) string {
	return time.Unix(int64(store.Call("origin").Float()+secs), 0).UTC().Format(time.RFC3339)
}

// wantJSON fails unless got, as JSON, is want.
func wantJSON(t *testing.T, what string, got js.Value, want string) {
	t.Helper()
	if g := jsonOf(got); g != want {
		t.Errorf("%s =\n%s\nwant\n%s", what, g, want)
	}
}

// wantCode fails unless e has the S3 code.
func wantCode(t *testing.T, what string, e js.Value, code string) {
	t.Helper()
	if got := e.Get("code").String(); got != code {
		t.Errorf("%s rejected with %s (%s), want %s", what, got, e.Get("message"), code)
	}
}

// refusal is a call the store must refuse: its code, and for a wrong
// argument the argument's name.
type refusal struct {
	name, method string
	args         []any
	code         string
	argument     string
}

// refuse makes each call, one subtest each, and checks that it rejects
// with a MiniS3Error of the code, a message, and the argument's name.
func refuse(t *testing.T, store js.Value, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := fail(t, store, c.method, c.args...)
			wantCode(t, c.method, e, c.code)
			if c.argument != "" && e.Get("argumentName").String() != c.argument {
				t.Errorf("argumentName = %v, want %s", e.Get("argumentName"), c.argument)
			}
			if e.Get("name").String() != "MiniS3Error" || e.Get("message").String() == "" {
				t.Errorf("name %s, message %q; want MiniS3Error with a message", e.Get("name"), e.Get("message"))
			}
		})
	}
}

// md5Of is the ETag of a body: its hex MD5.
func md5Of(body string) string {
	sum := md5.Sum([]byte(body))
	return hex.EncodeToString(sum[:])
}

// openLifecycleStore opens a memory store with a bucket demo, versioned
// when versioning is not "".
func openLifecycleStore(t *testing.T, versioning string) js.Value {
	t.Helper()
	store := openStore(t, newAPI().Value(), `{"memory": true, "minPartSize": 1}`)
	call(t, store, "createBucket", "demo")
	if versioning != "" {
		call(t, store, "setBucketVersioning", "demo", versioning)
	}
	return store
}

// The origin is the midnight UTC before the store was made, and the
// clock's 0: the time of every clock reading is the origin plus it.
func TestOriginIsTheMidnightBeforeTheStoreWasMade(t *testing.T) {
	before := float64(time.Now().Unix())
	store := openStore(t, newAPI().Value(), `{"memory": true}`)
	after := float64(time.Now().Unix())
	origin := store.Call("origin")
	if origin.Type() != js.TypeNumber {
		t.Fatalf("origin() = %s, want a number", jsonOf(origin))
	}
	o := origin.Float()
	if o != float64(int64(o)/oneDay*oneDay) || o < before-oneDay || o > after {
		t.Errorf("origin() = %v, want the midnight UTC at or before %v..%v", o, before, after)
	}
	call(t, store, "createBucket", "demo")
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [{"ID": "r", "Status": "Enabled", "Filter": {}, "Expiration": {"Days": 1}}]}`))
	put := call(t, store, "put", "demo", "k", "x")
	if got, want := put.Get("expiration").Get("date").String(), clockTime(store, 2*oneDay); got != want {
		t.Errorf("expiration of an object made at clock 0 with Days 1 = %s, want %s (origin + 2 days)", got, want)
	}
}

// setClock runs the stored configurations of every bucket at each
// midnight it passes, in order of time, then of bucket name, and answers
// the runs that did something.
func TestSetClockRunsEachMidnightInOrder(t *testing.T) {
	store := openStore(t, newAPI().Value(), `{"memory": true, "minPartSize": 1}`)
	call(t, store, "createBucket", "alpha")
	call(t, store, "createBucket", "beta")
	call(t, store, "putBucketLifecycle", "alpha", object(`{"Rules": [
		{"ID": "cold", "Status": "Enabled", "Filter": {"Prefix": "cold/"}, "Transitions": [{"Days": 0, "StorageClass": "GLACIER"}]},
		{"ID": "tmp", "Status": "Enabled", "Filter": {"Prefix": "tmp/"}, "Expiration": {"Days": 1}},
		{"ID": "uploads", "Status": "Enabled", "Filter": {"Prefix": "up/"}, "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 2}}]}`))
	// The configuration may also be given as JSON text.
	call(t, store, "putBucketLifecycle", "beta", `{"Rules": [{"ID": "all", "Status": "Enabled", "Filter": {}, "Expiration": {"Days": 1}}]}`)
	wantJSON(t, "setClock(3600)", call(t, store, "setClock", 3600), `[]`)
	call(t, store, "put", "alpha", "cold/a", "a")
	call(t, store, "put", "alpha", "tmp/a", "a")
	call(t, store, "put", "beta", "x", "x")
	upload := call(t, store, "createMultipartUpload", "alpha", "up/big").Get("uploadId").String()

	runs := call(t, store, "setClock", 3*oneDay+5)
	wantJSON(t, "setClock over three midnights", runs, fmt.Sprintf(
		`[{"bucket":"alpha","at":86400,"time":%q,"actions":[{"ruleId":"cold","key":"cold/a","versionId":"null","kind":"transition","storageClass":"GLACIER"}]},`+
			`{"bucket":"alpha","at":172800,"time":%q,"actions":[{"ruleId":"tmp","key":"tmp/a","versionId":"null","kind":"expire_current"}]},`+
			`{"bucket":"beta","at":172800,"time":%q,"actions":[{"ruleId":"all","key":"x","versionId":"null","kind":"expire_current"}]},`+
			`{"bucket":"alpha","at":259200,"time":%q,"actions":[{"ruleId":"uploads","key":"up/big","versionId":"","kind":"abort_multipart_upload","uploadId":%q}]}]`,
		clockTime(store, oneDay), clockTime(store, 2*oneDay), clockTime(store, 2*oneDay), clockTime(store, 3*oneDay), upload))
	if now := store.Call("now").Float(); now != 3*oneDay+5 {
		t.Errorf("now() = %v, want %v", now, 3*oneDay+5)
	}
	if got := call(t, store, "head", "alpha", "cold/a").Get("storageClass").String(); got != "GLACIER" {
		t.Errorf("storage class of cold/a = %s, want GLACIER", got)
	}
	wantCode(t, "get of tmp/a", fail(t, store, "get", "alpha", "tmp/a"), "NoSuchKey")
	wantCode(t, "get of x", fail(t, store, "get", "beta", "x"), "NoSuchKey")
	wantJSON(t, "listMultipartUploads", call(t, store, "listMultipartUploads", "alpha"), `[]`)
	// No midnight passed: no run.
	wantJSON(t, "setClock to a later time of the same day", call(t, store, "setClock", 3*oneDay+6), `[]`)
}

// A configuration reads back in the AWS shape as it was written, each rule
// without an ID given the first free rule-N; values handed in or out are
// copies; a put replaces the whole configuration, a delete removes it.
func TestLifecycleConfigurationRoundTripsWithGeneratedIDs(t *testing.T) {
	store := openLifecycleStore(t, "")
	cfg := object(`{"Rules": [
		{"Status": "Enabled", "Filter": {"And": {"Prefix": "logs/", "Tags": [{"Key": "keep", "Value": "no"}], "ObjectSizeGreaterThan": 10}}, "Expiration": {"Days": 30}},
		{"ID": "rule-1", "Status": "Disabled", "Filter": {"Prefix": "old/"}, "NoncurrentVersionExpiration": {"NoncurrentDays": 7}},
		{"Status": "Enabled", "Filter": {"Prefix": ""}, "Expiration": {"Days": 365},
		 "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 1},
		 "Transitions": [{"Days": 30, "StorageClass": "STANDARD_IA"}, {"Days": 90, "StorageClass": "GLACIER"}],
		 "NoncurrentVersionTransitions": [{"NoncurrentDays": 30, "StorageClass": "GLACIER", "NewerNoncurrentVersions": 2}]},
		{"ID": "dated", "Status": "Enabled", "Filter": {"Prefix": "d/"}, "Expiration": {"Date": "2030-01-01T00:00:00Z"}}]}`)
	p := store.Call("putBucketLifecycle", "demo", cfg)
	cfg.Get("Rules").Index(0).Set("Status", "Disabled") // after the call: not stored
	if v, rejected := settle(t, p); rejected || !v.IsUndefined() {
		t.Fatalf("putBucketLifecycle = %s (rejected %v), want undefined", jsonOf(v), rejected)
	}
	want := `{"Rules":[` +
		`{"ID":"rule-2","Status":"Enabled","Filter":{"And":{"Prefix":"logs/","Tags":[{"Key":"keep","Value":"no"}],"ObjectSizeGreaterThan":10}},"Expiration":{"Days":30}},` +
		`{"ID":"rule-1","Status":"Disabled","Filter":{"Prefix":"old/"},"NoncurrentVersionExpiration":{"NoncurrentDays":7}},` +
		`{"ID":"rule-3","Status":"Enabled","Filter":{"Prefix":""},"Expiration":{"Days":365},` +
		`"AbortIncompleteMultipartUpload":{"DaysAfterInitiation":1},` +
		`"Transitions":[{"Days":30,"StorageClass":"STANDARD_IA"},{"Days":90,"StorageClass":"GLACIER"}],` +
		`"NoncurrentVersionTransitions":[{"NoncurrentDays":30,"StorageClass":"GLACIER","NewerNoncurrentVersions":2}]},` +
		`{"ID":"dated","Status":"Enabled","Filter":{"Prefix":"d/"},"Expiration":{"Date":"2030-01-01T00:00:00Z"}}]}`
	got := call(t, store, "getBucketLifecycle", "demo")
	wantJSON(t, "getBucketLifecycle", got, want)
	got.Get("Rules").Index(0).Set("ID", "changed")
	wantJSON(t, "getBucketLifecycle after changing what it answered", call(t, store, "getBucketLifecycle", "demo"), want)

	// What get answers, put back, is the same configuration.
	call(t, store, "putBucketLifecycle", "demo", call(t, store, "getBucketLifecycle", "demo"))
	wantJSON(t, "getBucketLifecycle after putting back what it answered", call(t, store, "getBucketLifecycle", "demo"), want)

	call(t, store, "putBucketLifecycle", "demo", `{"Rules": [{"Status": "Enabled", "Filter": {}, "Expiration": {"ExpiredObjectDeleteMarker": true}}]}`)
	wantJSON(t, "getBucketLifecycle after a second put", call(t, store, "getBucketLifecycle", "demo"),
		`{"Rules":[{"ID":"rule-1","Status":"Enabled","Filter":{},"Expiration":{"ExpiredObjectDeleteMarker":true}}]}`)

	if v := call(t, store, "deleteBucketLifecycle", "demo"); !v.IsUndefined() {
		t.Errorf("deleteBucketLifecycle = %s, want undefined", jsonOf(v))
	}
	e := fail(t, store, "getBucketLifecycle", "demo")
	wantCode(t, "getBucketLifecycle after the delete", e, "NoSuchLifecycleConfiguration")
	if got := e.Get("bucketName").String(); got != "demo" {
		t.Errorf("bucketName = %s, want demo", got)
	}
	call(t, store, "deleteBucketLifecycle", "demo") // deleting none is no error
}

// A configuration S3 refuses is refused with S3's code, and changes
// nothing; a missing bucket is NoSuchBucket whatever the configuration.
func TestLifecycleConfigurationErrors(t *testing.T) {
	store := openLifecycleStore(t, "")
	rule := func(fields string) js.Value {
		return object(`{"Rules": [{"ID": "r", "Status": "Enabled", ` + fields + `}]}`)
	}
	cases := []refusal{
		{"ExpirationDaysZero", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "Expiration": {"Days": 0}`)}, "InvalidArgument", "Days"},
		{"DateNotAtMidnight", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "Expiration": {"Date": "2030-01-01T12:00:00Z"}`)}, "InvalidArgument", "Date"},
		{"DateNotRFC3339", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "Expiration": {"Date": "20300101"}`)}, "InvalidArgument", "Date"},
		{"StatusLowerCase", "putBucketLifecycle", []any{"demo", object(`{"Rules": [{"Status": "enabled", "Filter": {}, "Expiration": {"Days": 1}}]}`)}, "MalformedXML", ""},
		{"NoFilterNorPrefix", "putBucketLifecycle", []any{"demo", rule(`"Expiration": {"Days": 1}`)}, "MalformedXML", ""},
		{"TwoPredicatesOutsideAnd", "putBucketLifecycle", []any{"demo", rule(`"Filter": {"Prefix": "a", "ObjectSizeGreaterThan": 1}, "Expiration": {"Days": 1}`)}, "MalformedXML", ""},
		{"DuplicateTagKeys", "putBucketLifecycle", []any{"demo", rule(`"Filter": {"And": {"Tags": [{"Key": "k", "Value": "1"}, {"Key": "k", "Value": "2"}]}}, "Expiration": {"Days": 1}`)}, "InvalidRequest", ""},
		{"AbortWithTags", "putBucketLifecycle", []any{"demo", rule(`"Filter": {"Tag": {"Key": "k", "Value": "v"}}, "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 1}`)}, "InvalidRequest", ""},
		{"TransitionToStandard", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "Transitions": [{"Days": 1, "StorageClass": "STANDARD"}]`)}, "InvalidArgument", "StorageClass"},
		{"InfrequentAccessBefore30Days", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "Transitions": [{"Days": 29, "StorageClass": "STANDARD_IA"}]`)}, "InvalidArgument", "Days"},
		{"NoAction", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}`)}, "InvalidRequest", ""},
		{"NewerNoncurrentVersionsAlone", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "NoncurrentVersionExpiration": {"NewerNoncurrentVersions": 2}`)}, "MalformedXML", ""},
		{"ExpirationNotAfterTransition", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "Expiration": {"Days": 30}, "Transitions": [{"Days": 30, "StorageClass": "GLACIER"}]`)}, "InvalidArgument", "Days"},
		{"LegacyBesideFilter", "putBucketLifecycle", []any{"demo", object(`{"Rules": [{"Status": "Enabled", "Prefix": "a", "Expiration": {"Days": 1}}, {"Status": "Enabled", "Filter": {}, "Expiration": {"Days": 1}}]}`)}, "InvalidRequest", ""},
		{"NoRules", "putBucketLifecycle", []any{"demo", object(`{"Rules": []}`)}, "InvalidArgument", "Rule"},
		{"UnknownField", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "Expiration": {"Days": 1}, "Expiry": {}`)}, "InvalidArgument", ""},
		{"DaysAsText", "putBucketLifecycle", []any{"demo", rule(`"Filter": {}, "Expiration": {"Days": "1"}`)}, "InvalidArgument", ""},
		{"JSONTextSyntax", "putBucketLifecycle", []any{"demo", `{"Rules": [`}, "InvalidArgument", ""},
		{"ConfigurationNumber", "putBucketLifecycle", []any{"demo", 42}, "InvalidArgument", "configuration"},
		{"ConfigurationArray", "putBucketLifecycle", []any{"demo", object(`[{"ID": "r"}]`)}, "InvalidArgument", "configuration"},
		{"ConfigurationMissing", "putBucketLifecycle", []any{"demo"}, "InvalidArgument", "configuration"},
		{"MissingBucketBeforeBadConfiguration", "putBucketLifecycle", []any{"nope", 42}, "NoSuchBucket", ""},
		{"GetWithoutConfiguration", "getBucketLifecycle", []any{"demo"}, "NoSuchLifecycleConfiguration", ""},
		{"GetOfMissingBucket", "getBucketLifecycle", []any{"nope"}, "NoSuchBucket", ""},
		{"DeleteOfMissingBucket", "deleteBucketLifecycle", []any{"nope"}, "NoSuchBucket", ""},
		{"RunOfMissingBucket", "runLifecycle", []any{"nope"}, "NoSuchBucket", ""},
		{"PreviewOfMissingBucket", "previewLifecycle", []any{"nope"}, "NoSuchBucket", ""},
		{"ScheduleOfMissingBucket", "lifecycleSchedule", []any{"nope"}, "NoSuchBucket", ""},
		{"BucketNotString", "lifecycleSchedule", []any{7}, "InvalidArgument", "bucket"},
		{"ChapterRuleWithoutThreshold", "expirationSchedule", []any{"demo", object(`[{"id": "r", "prefix": ""}]`)}, "InvalidArgument", ""},
		{"ChapterRulesNotArray", "expirationSchedule", []any{"demo", object(`{"id": "r"}`)}, "InvalidArgument", "rules"},
		{"ChapterRulesOfMissingBucket", "expirationSchedule", []any{"nope", 5}, "NoSuchBucket", ""},
	}
	refuse(t, store, cases)
	wantCode(t, "getBucketLifecycle after the refusals", fail(t, store, "getBucketLifecycle", "demo"), "NoSuchLifecycleConfiguration")
}

// AWS: an object created 2014-01-15 10:30 UTC under Expiration Days 3
// expires 2014-01-19 00:00 UTC: its day plus 3, rounded up to the next
// midnight. An object made exactly at a midnight still gets the extra day.
// In a versioned bucket the expiration adds a delete marker.
func TestExpirationDaysRoundUpToTheNextMidnight(t *testing.T) {
	store := openLifecycleStore(t, "enabled")
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [{"ID": "three-days", "Status": "Enabled", "Filter": {}, "Expiration": {"Days": 3}}]}`))
	call(t, store, "setClock", 37800) // 10:30 of day 0
	expiry := fmt.Sprintf(`{"date":%q,"ruleId":"three-days"}`, clockTime(store, 4*oneDay))
	wantJSON(t, "put at 10:30", call(t, store, "put", "demo", "k", "x"), fmt.Sprintf(
		`{"versionId":"v00000001","etag":%q,"size":1,"createdAt":37800,"expiration":%s}`, md5Of("x"), expiry))
	wantJSON(t, "head", call(t, store, "head", "demo", "k"), fmt.Sprintf(
		`{"key":"k","versionId":"v00000001","etag":%q,"size":1,"createdAt":37800,"storageClass":"STANDARD","expiration":%s}`, md5Of("x"), expiry))
	if got := jsonOf(call(t, store, "get", "demo", "k").Get("expiration")); got != expiry {
		t.Errorf("get's expiration = %s, want %s", got, expiry)
	}
	// A version read by its ID has no expiration: only the current one expires.
	if got := call(t, store, "head", "demo", "k", object(`{"versionId": "v00000001"}`)).Get("expiration"); !got.IsUndefined() {
		t.Errorf("head by version ID: expiration = %s, want none", jsonOf(got))
	}

	wantJSON(t, "setClock to a second before the due midnight", call(t, store, "setClock", 4*oneDay-1), `[]`)
	wantJSON(t, "setClock to the due midnight", call(t, store, "setClock", 4*oneDay), fmt.Sprintf(
		`[{"bucket":"demo","at":345600,"time":%q,"actions":[{"ruleId":"three-days","key":"k","versionId":"v00000001","kind":"expire_current"}]}]`,
		clockTime(store, 4*oneDay)))
	wantJSON(t, "listVersions", call(t, store, "listVersions", "demo"), fmt.Sprintf(
		`[{"key":"k","versionId":"v00000002","isDeleteMarker":true,"isLatest":true,"createdAt":345600},`+
			`{"key":"k","versionId":"v00000001","isDeleteMarker":false,"isLatest":false,"createdAt":37800,"size":1,"etag":%q,"storageClass":"STANDARD"}]`, md5Of("x")))

	// Made at midnight (clock 4 days): due 3 + 1 days later.
	put := call(t, store, "put", "demo", "m", "y")
	if got, want := put.Get("expiration").Get("date").String(), clockTime(store, 8*oneDay); got != want {
		t.Errorf("expiration of an object made at a midnight = %s, want %s", got, want)
	}
}

// AWS: NoncurrentDays count from when the version became noncurrent, the
// creation of its successor: a successor made 2014-01-15 10:30 with 3 days
// → 2014-01-19 00:00; a delete marker made 2014-01-02 11:30 with 5 days →
// the old version goes 2014-01-08 00:00. A delete marker left alone then
// goes with ExpiredObjectDeleteMarker, at the next daily run.
func TestNoncurrentDaysCountFromTheSuccessor(t *testing.T) {
	store := openLifecycleStore(t, "enabled")
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [
		{"ID": "three", "Status": "Enabled", "Filter": {"Prefix": "a/"}, "NoncurrentVersionExpiration": {"NoncurrentDays": 3}},
		{"ID": "five", "Status": "Enabled", "Filter": {"Prefix": "b/"}, "NoncurrentVersionExpiration": {"NoncurrentDays": 5},
		 "Expiration": {"ExpiredObjectDeleteMarker": true}}]}`))
	call(t, store, "put", "demo", "a/k", "1") // v00000001
	call(t, store, "put", "demo", "b/k", "2") // v00000002
	call(t, store, "setClock", 37800)         // 10:30
	call(t, store, "put", "demo", "a/k", "3") // v00000003
	call(t, store, "setClock", 41400)         // 11:30
	call(t, store, "delete", "demo", "b/k")   // marker v00000004
	wantJSON(t, "setClock to 4 days less a second", call(t, store, "setClock", 4*oneDay-1), `[]`)
	wantJSON(t, "setClock to 4 days", call(t, store, "setClock", 4*oneDay), fmt.Sprintf(
		`[{"bucket":"demo","at":345600,"time":%q,"actions":[{"ruleId":"three","key":"a/k","versionId":"v00000001","kind":"expire_noncurrent"}]}]`,
		clockTime(store, 4*oneDay)))
	wantJSON(t, "setClock to 6 days less a second", call(t, store, "setClock", 6*oneDay-1), `[]`)
	wantJSON(t, "setClock to 7 days", call(t, store, "setClock", 7*oneDay), fmt.Sprintf(
		`[{"bucket":"demo","at":518400,"time":%q,"actions":[{"ruleId":"five","key":"b/k","versionId":"v00000002","kind":"expire_noncurrent"}]},`+
			`{"bucket":"demo","at":604800,"time":%q,"actions":[{"ruleId":"five","key":"b/k","versionId":"v00000004","kind":"expire_delete_marker"}]}]`,
		clockTime(store, 6*oneDay), clockTime(store, 7*oneDay)))
	wantJSON(t, "listVersions of b/", call(t, store, "listVersions", "demo", object(`{"prefix": "b/"}`)), `[]`)
	if got := call(t, store, "listVersions", "demo", object(`{"prefix": "a/"}`)); got.Length() != 1 || got.Index(0).Get("versionId").String() != "v00000003" {
		t.Errorf("listVersions of a/ = %s, want v00000003 alone", jsonOf(got))
	}
}

// AWS's example of a log rotation: to STANDARD_IA after 30 days, to
// GLACIER after 90, expired after 365. An object made at the clock's 0, a
// midnight, moves at the midnights after 31, 91 and 366 days. A GLACIER
// object cannot be read (InvalidObjectState) but can be listed and headed.
func TestTransitionsMoveThenExpire(t *testing.T) {
	store := openLifecycleStore(t, "")
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [{"ID": "logs", "Status": "Enabled", "Filter": {"Prefix": "logs/"},
		"Transitions": [{"Days": 30, "StorageClass": "STANDARD_IA"}, {"Days": 90, "StorageClass": "GLACIER"}],
		"Expiration": {"Days": 365}}]}`))
	call(t, store, "put", "demo", "logs/app.log", "log")
	call(t, store, "put", "demo", "other", "o")
	run := func(at float64, kind, class string) string {
		action := fmt.Sprintf(`{"ruleId":"logs","key":"logs/app.log","versionId":"null","kind":%q`, kind)
		if class != "" {
			action += fmt.Sprintf(`,"storageClass":%q`, class)
		}
		return fmt.Sprintf(`[{"bucket":"demo","at":%d,"time":%q,"actions":[%s}]}]`, int64(at), clockTime(store, at), action)
	}
	wantJSON(t, "setClock to 31 days less a second", call(t, store, "setClock", 31*oneDay-1), `[]`)
	wantJSON(t, "setClock to 31 days", call(t, store, "setClock", 31*oneDay), run(31*oneDay, "transition", "STANDARD_IA"))
	wantJSON(t, "listObjects after 31 days", call(t, store, "listObjects", "demo"), fmt.Sprintf(
		`[{"key":"logs/app.log","versionId":"null","etag":%q,"size":3,"createdAt":0,"storageClass":"STANDARD_IA"},`+
			`{"key":"other","versionId":"null","etag":%q,"size":1,"createdAt":0,"storageClass":"STANDARD"}]`, md5Of("log"), md5Of("o")))
	if got := call(t, store, "get", "demo", "logs/app.log").Get("text").String(); got != "log" {
		t.Errorf("get of a STANDARD_IA object = %q, want log", got)
	}
	wantJSON(t, "setClock to 91 days", call(t, store, "setClock", 91*oneDay), run(91*oneDay, "transition", "GLACIER"))
	e := fail(t, store, "get", "demo", "logs/app.log")
	wantCode(t, "get of a GLACIER object", e, "InvalidObjectState")
	if got := e.Get("storageClass").String(); got != "GLACIER" {
		t.Errorf("the error's storageClass = %s, want GLACIER", got)
	}
	wantJSON(t, "head of a GLACIER object", call(t, store, "head", "demo", "logs/app.log"), fmt.Sprintf(
		`{"key":"logs/app.log","versionId":"null","etag":%q,"size":3,"createdAt":0,"storageClass":"GLACIER","expiration":{"date":%q,"ruleId":"logs"}}`,
		md5Of("log"), clockTime(store, 366*oneDay)))
	wantJSON(t, "setClock to 366 days", call(t, store, "setClock", 366*oneDay), run(366*oneDay, "expire_current", ""))
	if got := call(t, store, "listObjects", "demo"); got.Length() != 1 || got.Index(0).Get("key").String() != "other" {
		t.Errorf("listObjects after 366 days = %s, want other alone", jsonOf(got))
	}
}

// CEPH's test of NewerNoncurrentVersions: 10 versions, NoncurrentDays 1,
// NewerNoncurrentVersions 5; once the day has passed, the current version
// and the 5 newest noncurrent ones remain.
func TestNewerNoncurrentVersionsKeepTheNewest(t *testing.T) {
	store := openLifecycleStore(t, "enabled")
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [{"ID": "keep5", "Status": "Enabled", "Filter": {},
		"NoncurrentVersionExpiration": {"NoncurrentDays": 1, "NewerNoncurrentVersions": 5}}]}`))
	for i := range 10 {
		call(t, store, "setClock", i)
		call(t, store, "put", "demo", "k", fmt.Sprint(i))
	}
	action := func(id int) string {
		return fmt.Sprintf(`{"ruleId":"keep5","key":"k","versionId":"v%08d","kind":"expire_noncurrent"}`, id)
	}
	wantJSON(t, "setClock to 2 days", call(t, store, "setClock", 2*oneDay), fmt.Sprintf(
		`[{"bucket":"demo","at":172800,"time":%q,"actions":[%s,%s,%s,%s]}]`, clockTime(store, 2*oneDay), action(4), action(3), action(2), action(1)))
	if got := call(t, store, "listVersions", "demo"); got.Length() != 6 || got.Index(5).Get("versionId").String() != "v00000005" {
		t.Errorf("listVersions = %s, want v00000010 down to v00000005", jsonOf(got))
	}
}

// previewLifecycle says what runLifecycle would do now and changes
// nothing; runLifecycle does it at once, without waiting for a midnight.
// Without a configuration both do nothing.
func TestPreviewAndRunLifecycleActNow(t *testing.T) {
	store := openLifecycleStore(t, "")
	call(t, store, "put", "demo", "k", "x")
	wantJSON(t, "previewLifecycle without a configuration", call(t, store, "previewLifecycle", "demo"), `[]`)
	wantJSON(t, "runLifecycle without a configuration", call(t, store, "runLifecycle", "demo"), `[]`)
	wantJSON(t, "setClock past a midnight with no configuration", call(t, store, "setClock", 1.5*oneDay), `[]`)
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [{"ID": "cold", "Status": "Enabled", "Filter": {}, "Transitions": [{"Days": 0, "StorageClass": "GLACIER"}]}]}`))
	want := `[{"ruleId":"cold","key":"k","versionId":"null","kind":"transition","storageClass":"GLACIER"}]`
	wantJSON(t, "previewLifecycle", call(t, store, "previewLifecycle", "demo"), want)
	wantJSON(t, "previewLifecycle again", call(t, store, "previewLifecycle", "demo"), want)
	if got := call(t, store, "head", "demo", "k").Get("storageClass").String(); got != "STANDARD" {
		t.Errorf("storage class after the preview = %s, want STANDARD", got)
	}
	wantJSON(t, "runLifecycle", call(t, store, "runLifecycle", "demo"), want)
	if got := call(t, store, "head", "demo", "k").Get("storageClass").String(); got != "GLACIER" {
		t.Errorf("storage class after the run = %s, want GLACIER", got)
	}
	wantJSON(t, "previewLifecycle after the run", call(t, store, "previewLifecycle", "demo"), `[]`)
	wantJSON(t, "runLifecycle after the run", call(t, store, "runLifecycle", "demo"), `[]`)
}

// lifecycleSchedule is what the stored configuration will do next to each
// version and upload, and when (the action due first); expirationSchedule
// is when the chapter's rules will expire each data version.
func TestSchedulesSayWhatComesNextAndWhen(t *testing.T) {
	store := openLifecycleStore(t, "enabled")
	call(t, store, "setClock", 3600)
	call(t, store, "put", "demo", "k", "1") // v00000001
	call(t, store, "setClock", 7200)
	call(t, store, "put", "demo", "k", "2") // v00000002
	upload := call(t, store, "createMultipartUpload", "demo", "up/x").Get("uploadId").String()
	wantJSON(t, "lifecycleSchedule without a configuration", call(t, store, "lifecycleSchedule", "demo"), `[]`)
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [
		{"ID": "expire", "Status": "Enabled", "Filter": {}, "Expiration": {"Days": 5}, "NoncurrentVersionExpiration": {"NoncurrentDays": 2}},
		{"ID": "archive", "Status": "Enabled", "Filter": {"Prefix": "k"}, "Transitions": [{"Days": 1, "StorageClass": "GLACIER"}]},
		{"ID": "uploads", "Status": "Enabled", "Filter": {"Prefix": "up/"}, "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 3}}]}`))
	wantJSON(t, "lifecycleSchedule", call(t, store, "lifecycleSchedule", "demo"),
		`[{"ruleId":"archive","key":"k","versionId":"v00000002","kind":"transition","storageClass":"GLACIER","due":172800},`+
			`{"ruleId":"expire","key":"k","versionId":"v00000001","kind":"expire_noncurrent","due":259200},`+
			`{"ruleId":"uploads","key":"up/x","versionId":"","kind":"abort_multipart_upload","uploadId":"`+upload+`","due":345600}]`)
	call(t, store, "setClock", 2*oneDay)
	// In GLACIER, the current version faces its expiration next.
	wantJSON(t, "lifecycleSchedule after the transition", call(t, store, "lifecycleSchedule", "demo"),
		`[{"ruleId":"expire","key":"k","versionId":"v00000002","kind":"expire_current","due":518400},`+
			`{"ruleId":"expire","key":"k","versionId":"v00000001","kind":"expire_noncurrent","due":259200},`+
			`{"ruleId":"uploads","key":"up/x","versionId":"","kind":"abort_multipart_upload","uploadId":"`+upload+`","due":345600}]`)

	rules := object(`[{"id": "chapter", "prefix": "", "expireCurrentAfter": 100, "expireNoncurrentAfter": 50}, {"id": "k-only", "prefix": "k", "expireCurrentAfter": 10}]`)
	wantJSON(t, "expirationSchedule", call(t, store, "expirationSchedule", "demo", rules),
		`[{"ruleId":"k-only","key":"k","versionId":"v00000002","kind":"expire_current","due":7210},`+
			`{"ruleId":"chapter","key":"k","versionId":"v00000001","kind":"expire_noncurrent","due":3650}]`)
	wantJSON(t, "expirationSchedule of rules for other keys", call(t, store, "expirationSchedule", "demo", object(`[{"id": "r", "prefix": "logs/", "expireCurrentAfter": 1}]`)), `[]`)
}

// put takes tags and a storage class, and says when a stored rule (here
// one selecting a tag) will expire the object; head, get and the listings
// show the storage class, head and get the number of tags.
func TestPutTakesTagsAndStorageClass(t *testing.T) {
	store := openLifecycleStore(t, "")
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [{"ID": "temp", "Status": "Enabled", "Filter": {"Tag": {"Key": "temp", "Value": "yes"}}, "Expiration": {"Days": 1}}]}`))
	opts := object(`{"contentType": "text/plain", "storageClass": "STANDARD_IA", "tags": [{"key": "temp", "value": "yes"}, {"key": "team", "value": "web"}]}`)
	p := store.Call("put", "demo", "k1", "x", opts)
	opts.Get("tags").Index(0).Set("value", "no") // after the call: not stored
	res, rejected := settle(t, p)
	if rejected {
		t.Fatalf("put rejected: %s", res.Get("message"))
	}
	expiry := fmt.Sprintf(`{"date":%q,"ruleId":"temp"}`, clockTime(store, 2*oneDay))
	wantJSON(t, "put", res, fmt.Sprintf(`{"versionId":"null","etag":%q,"size":1,"createdAt":0,"expiration":%s}`, md5Of("x"), expiry))
	wantJSON(t, "put of an object no rule selects", call(t, store, "put", "demo", "k2", "y", object(`{"tags": [{"key": "temp", "value": "no"}]}`)),
		fmt.Sprintf(`{"versionId":"null","etag":%q,"size":1,"createdAt":0}`, md5Of("y")))
	call(t, store, "put", "demo", "k3", "z", object(`{"storageClass": "STANDARD", "tags": []}`))

	wantJSON(t, "head k1", call(t, store, "head", "demo", "k1"), fmt.Sprintf(
		`{"key":"k1","versionId":"null","etag":%q,"size":1,"createdAt":0,"storageClass":"STANDARD_IA","contentType":"text/plain","tagCount":2,"expiration":%s}`, md5Of("x"), expiry))
	got := call(t, store, "get", "demo", "k1")
	if got.Get("storageClass").String() != "STANDARD_IA" || got.Get("tagCount").Int() != 2 || got.Get("text").String() != "x" {
		t.Errorf("get k1 = %s, want STANDARD_IA with 2 tags", jsonOf(got))
	}
	wantJSON(t, "head k2", call(t, store, "head", "demo", "k2"), fmt.Sprintf(
		`{"key":"k2","versionId":"null","etag":%q,"size":1,"createdAt":0,"storageClass":"STANDARD","tagCount":1}`, md5Of("y")))
	wantJSON(t, "head k3", call(t, store, "head", "demo", "k3"), fmt.Sprintf(
		`{"key":"k3","versionId":"null","etag":%q,"size":1,"createdAt":0,"storageClass":"STANDARD"}`, md5Of("z")))
	wantJSON(t, "getObjectTagging k1", call(t, store, "getObjectTagging", "demo", "k1"),
		`{"versionId":"null","tags":[{"key":"temp","value":"yes"},{"key":"team","value":"web"}]}`)
	wantJSON(t, "listObjects", call(t, store, "listObjects", "demo"), fmt.Sprintf(
		`[{"key":"k1","versionId":"null","etag":%q,"size":1,"createdAt":0,"storageClass":"STANDARD_IA"},`+
			`{"key":"k2","versionId":"null","etag":%q,"size":1,"createdAt":0,"storageClass":"STANDARD"},`+
			`{"key":"k3","versionId":"null","etag":%q,"size":1,"createdAt":0,"storageClass":"STANDARD"}]`, md5Of("x"), md5Of("y"), md5Of("z")))
	wantJSON(t, "listVersions", call(t, store, "listVersions", "demo"), fmt.Sprintf(
		`[{"key":"k1","versionId":"null","isDeleteMarker":false,"isLatest":true,"createdAt":0,"size":1,"etag":%q,"storageClass":"STANDARD_IA",`+
			`"tags":[{"key":"temp","value":"yes"},{"key":"team","value":"web"}]},`+
			`{"key":"k2","versionId":"null","isDeleteMarker":false,"isLatest":true,"createdAt":0,"size":1,"etag":%q,"storageClass":"STANDARD","tags":[{"key":"temp","value":"no"}]},`+
			`{"key":"k3","versionId":"null","isDeleteMarker":false,"isLatest":true,"createdAt":0,"size":1,"etag":%q,"storageClass":"STANDARD"}]`,
		md5Of("x"), md5Of("y"), md5Of("z")))
}

// createMultipartUpload takes the options of put, which the completed
// object gets, and says when a stored rule will abort the upload.
func TestCreateMultipartUploadTakesTagsAndStorageClass(t *testing.T) {
	store := openLifecycleStore(t, "")
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [{"ID": "uploads", "Status": "Enabled", "Filter": {"Prefix": "up/"}, "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 1}}]}`))
	call(t, store, "setClock", 100)
	up := call(t, store, "createMultipartUpload", "demo", "up/big", object(`{"contentType": "text/plain", "storageClass": "GLACIER_IR", "tags": [{"key": "team", "value": "web"}]}`))
	id := up.Get("uploadId").String()
	abort := fmt.Sprintf(`"abort":{"date":%q,"ruleId":"uploads"}`, clockTime(store, 2*oneDay))
	wantJSON(t, "createMultipartUpload", up, fmt.Sprintf(`{"key":"up/big","uploadId":%q,"initiated":100,%s}`, id, abort))
	wantJSON(t, "createMultipartUpload of a key no rule selects", call(t, store, "createMultipartUpload", "demo", "other"),
		`{"key":"other","uploadId":"u00000002","initiated":100}`)
	// As S3's ListMultipartUploads, the listing does not say when.
	wantJSON(t, "listMultipartUploads", call(t, store, "listMultipartUploads", "demo", object(`{"prefix": "up/"}`)),
		fmt.Sprintf(`[{"key":"up/big","uploadId":%q,"initiated":100}]`, id))
	part := call(t, store, "uploadPart", "demo", "up/big", id, 1, "hello")
	parts := js.Global().Get("Array").New(object(fmt.Sprintf(`{"partNumber": 1, "etag": %q}`, part.Get("etag").String())))
	call(t, store, "completeMultipartUpload", "demo", "up/big", id, parts)
	got := call(t, store, "head", "demo", "up/big")
	if got.Get("storageClass").String() != "GLACIER_IR" || got.Get("contentType").String() != "text/plain" || got.Get("tagCount").Int() != 1 {
		t.Errorf("head of the completed object = %s, want GLACIER_IR, text/plain, 1 tag", jsonOf(got))
	}
	wantJSON(t, "getObjectTagging", call(t, store, "getObjectTagging", "demo", "up/big"), `{"versionId":"null","tags":[{"key":"team","value":"web"}]}`)
	// A completed upload is not aborted; no rule selects the other one.
	wantJSON(t, "setClock to 2 days", call(t, store, "setClock", 2*oneDay), `[]`)
}

// The tagging calls address the current version, or one by its ID, and
// answer the version they read or changed. Tags decide what a rule with a
// tag filter selects.
func TestTaggingAddressesVersions(t *testing.T) {
	store := openLifecycleStore(t, "enabled")
	call(t, store, "put", "demo", "k", "1", object(`{"tags": [{"key": "a", "value": "1"}]}`)) // v00000001
	call(t, store, "put", "demo", "k", "2")                                                   // v00000002
	v1 := object(`{"versionId": "v00000001"}`)
	wantJSON(t, "getObjectTagging of the current version", call(t, store, "getObjectTagging", "demo", "k"), `{"versionId":"v00000002","tags":[]}`)
	wantJSON(t, "getObjectTagging of v00000001", call(t, store, "getObjectTagging", "demo", "k", v1), `{"versionId":"v00000001","tags":[{"key":"a","value":"1"}]}`)

	tags := object(`[{"key": "b", "value": "2"}]`)
	p := store.Call("putObjectTagging", "demo", "k", tags, v1)
	tags.Index(0).Set("key", "changed") // after the call: not stored
	res, rejected := settle(t, p)
	if rejected {
		t.Fatalf("putObjectTagging rejected: %s", res.Get("message"))
	}
	wantJSON(t, "putObjectTagging of v00000001", res, `{"versionId":"v00000001"}`)
	wantJSON(t, "getObjectTagging of v00000001 after the put", call(t, store, "getObjectTagging", "demo", "k", v1), `{"versionId":"v00000001","tags":[{"key":"b","value":"2"}]}`)
	wantJSON(t, "getObjectTagging of the current version after the put", call(t, store, "getObjectTagging", "demo", "k"), `{"versionId":"v00000002","tags":[]}`)

	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [{"ID": "tagged", "Status": "Enabled", "Filter": {"Tag": {"Key": "c", "Value": "3"}}, "Expiration": {"Days": 1}}]}`))
	wantJSON(t, "lifecycleSchedule before tagging", call(t, store, "lifecycleSchedule", "demo"), `[]`)
	wantJSON(t, "putObjectTagging of the current version", call(t, store, "putObjectTagging", "demo", "k", object(`[{"key": "c", "value": "3"}]`)), `{"versionId":"v00000002"}`)
	wantJSON(t, "lifecycleSchedule after tagging", call(t, store, "lifecycleSchedule", "demo"),
		`[{"ruleId":"tagged","key":"k","versionId":"v00000002","kind":"expire_current","due":172800}]`)
	if got := call(t, store, "head", "demo", "k").Get("expiration").Get("ruleId").String(); got != "tagged" {
		t.Errorf("head's expiration rule after tagging = %s, want tagged", got)
	}
	wantJSON(t, "deleteObjectTagging of the current version", call(t, store, "deleteObjectTagging", "demo", "k"), `{"versionId":"v00000002"}`)
	wantJSON(t, "lifecycleSchedule after removing the tags", call(t, store, "lifecycleSchedule", "demo"), `[]`)

	wantJSON(t, "deleteObjectTagging of v00000001", call(t, store, "deleteObjectTagging", "demo", "k", v1), `{"versionId":"v00000001"}`)
	if got := call(t, store, "head", "demo", "k", v1).Get("tagCount"); !got.IsUndefined() {
		t.Errorf("tagCount after deleteObjectTagging = %s, want none", jsonOf(got))
	}

	// A delete marker has no tags: S3 answers MethodNotAllowed, also for
	// the key whose current entry is one.
	call(t, store, "delete", "demo", "k") // marker v00000003
	e := fail(t, store, "getObjectTagging", "demo", "k")
	wantCode(t, "getObjectTagging of a key under a delete marker", e, "MethodNotAllowed")
	if !e.Get("deleteMarker").Truthy() || e.Get("versionId").String() != "v00000003" {
		t.Errorf("the error has deleteMarker %v, versionId %v; want true, v00000003", e.Get("deleteMarker"), e.Get("versionId"))
	}
	wantCode(t, "putObjectTagging of a delete marker", fail(t, store, "putObjectTagging", "demo", "k", object(`[]`), object(`{"versionId": "v00000003"}`)), "MethodNotAllowed")
	wantCode(t, "deleteObjectTagging of an unknown version", fail(t, store, "deleteObjectTagging", "demo", "k", object(`{"versionId": "v00000099"}`)), "NoSuchVersion")
}

// Tags and storage classes S3 refuses are refused with its codes, and
// store nothing; arguments of the wrong type are InvalidArgument.
func TestTagAndStorageClassErrors(t *testing.T) {
	store := openLifecycleStore(t, "")
	call(t, store, "put", "demo", "k", "x")
	tooMany := "["
	for i := range 11 {
		if i > 0 {
			tooMany += ","
		}
		tooMany += fmt.Sprintf(`{"key": "k%d", "value": "v"}`, i)
	}
	tooMany += "]"
	withTags := func(tags string) js.Value { return object(`{"tags": ` + tags + `}`) }
	cases := []refusal{
		{"ElevenTags", "put", []any{"demo", "n", "x", withTags(tooMany)}, "BadRequest", ""},
		{"TagKeyOfAWS", "put", []any{"demo", "n", "x", withTags(`[{"key": "aws:x", "value": "v"}]`)}, "InvalidTag", ""},
		{"TagKeyTwice", "put", []any{"demo", "n", "x", withTags(`[{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]`)}, "InvalidArgument", ""},
		{"TagKeyTwiceInPutObjectTagging", "putObjectTagging", []any{"demo", "k", object(`[{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]`)}, "InvalidTag", ""},
		{"TagKeyEmpty", "put", []any{"demo", "n", "x", withTags(`[{"key": "", "value": "v"}]`)}, "InvalidTag", ""},
		{"TagValueWithAngleBracket", "put", []any{"demo", "n", "x", withTags(`[{"key": "a", "value": "<b>"}]`)}, "InvalidTag", ""},
		{"UnknownStorageClass", "put", []any{"demo", "n", "x", object(`{"storageClass": "COLD"}`)}, "InvalidStorageClass", ""},
		{"StorageClassNumber", "put", []any{"demo", "n", "x", object(`{"storageClass": 5}`)}, "InvalidArgument", "storageClass"},
		{"TagsString", "put", []any{"demo", "n", "x", object(`{"tags": "a=b"}`)}, "InvalidArgument", "tags"},
		{"TagWithoutValue", "put", []any{"demo", "n", "x", withTags(`[{"key": "a"}]`)}, "InvalidArgument", "tags[0].value"},
		{"TagValueNumber", "put", []any{"demo", "n", "x", withTags(`[{"key": "a", "value": 1}]`)}, "InvalidArgument", "tags[0].value"},
		{"TagWithExtraField", "put", []any{"demo", "n", "x", withTags(`[{"key": "a", "value": "b", "color": "red"}]`)}, "InvalidArgument", "color"},
		{"TagNull", "put", []any{"demo", "n", "x", withTags(`[null]`)}, "InvalidArgument", "tags"},
		{"MisspeltPutOption", "put", []any{"demo", "n", "x", object(`{"storageclass": "GLACIER"}`)}, "InvalidArgument", "storageclass"},
		{"UploadOfUnknownStorageClass", "createMultipartUpload", []any{"demo", "n", object(`{"storageClass": "COLD"}`)}, "InvalidStorageClass", ""},
		{"UploadWithMisspeltOption", "createMultipartUpload", []any{"demo", "n", object(`{"tag": []}`)}, "InvalidArgument", "tag"},
		{"UploadOptionsString", "createMultipartUpload", []any{"demo", "n", "GLACIER"}, "InvalidArgument", ""},
		{"TaggingOfMissingKey", "getObjectTagging", []any{"demo", "missing"}, "NoSuchKey", ""},
		{"TaggingWithTagsMissing", "putObjectTagging", []any{"demo", "k"}, "InvalidArgument", "tags"},
		{"TaggingWithElevenTags", "putObjectTagging", []any{"demo", "k", object(tooMany)}, "BadRequest", ""},
		{"TaggingWithMisspeltOption", "putObjectTagging", []any{"demo", "k", object(`[]`), object(`{"version": "null"}`)}, "InvalidArgument", "version"},
		{"TaggingOfMissingBucket", "deleteObjectTagging", []any{"nope", "k"}, "NoSuchBucket", ""},
		{"TaggingKeyNumber", "getObjectTagging", []any{"demo", 1}, "InvalidArgument", "key"},
	}
	refuse(t, store, cases)
	if got := call(t, store, "listVersions", "demo"); got.Length() != 1 {
		t.Errorf("listVersions after the refused puts = %s, want k alone", jsonOf(got))
	}
	wantJSON(t, "listMultipartUploads after the refused uploads", call(t, store, "listMultipartUploads", "demo"), `[]`)
	wantJSON(t, "getObjectTagging after the refused taggings", call(t, store, "getObjectTagging", "demo", "k"), `{"versionId":"null","tags":[]}`)
	call(t, store, "put", "demo", "deep", "x", object(`{"storageClass": "DEEP_ARCHIVE"}`))
	e := fail(t, store, "get", "demo", "deep")
	wantCode(t, "get of a DEEP_ARCHIVE object", e, "InvalidObjectState")
	if got := e.Get("storageClass").String(); got != "DEEP_ARCHIVE" {
		t.Errorf("the error's storageClass = %s, want DEEP_ARCHIVE", got)
	}
}

// A store in IndexedDB keeps its lifecycle configuration, tags, storage
// classes, clock and origin across a close and reopen, and the reopened
// store's setClock runs the stored configuration.
func TestLifecycleSurvivesReopen(t *testing.T) {
	db := freshDB(t)
	options := fmt.Sprintf(`{"db": %q}`, db)
	store := openStore(t, newAPI().Value(), options)
	if got := store.Get("storage").String(); got != "indexeddb" {
		t.Fatalf("storage = %s (%s), want indexeddb", got, store.Get("storageError"))
	}
	origin := store.Call("origin").Float()
	call(t, store, "createBucket", "demo")
	call(t, store, "setBucketVersioning", "demo", "enabled")
	call(t, store, "putBucketLifecycle", "demo", object(`{"Rules": [
		{"ID": "temp", "Status": "Enabled", "Filter": {"Tag": {"Key": "temp", "Value": "yes"}}, "Expiration": {"Days": 1}},
		{"ID": "archive", "Status": "Enabled", "Filter": {"Prefix": "cold/"}, "Transitions": [{"Days": 0, "StorageClass": "GLACIER"}]}]}`))
	config := jsonOf(call(t, store, "getBucketLifecycle", "demo"))
	call(t, store, "setClock", 100)
	call(t, store, "put", "demo", "k", "x", object(`{"storageClass": "STANDARD_IA", "tags": [{"key": "temp", "value": "yes"}]}`))
	call(t, store, "put", "demo", "cold/x", "y")
	head := jsonOf(call(t, store, "head", "demo", "k"))
	call(t, store, "close")

	again := openStore(t, newAPI().Value(), options)
	if got := again.Call("origin").Float(); got != origin {
		t.Errorf("origin() after reopen = %v, want %v", got, origin)
	}
	if got := again.Call("now").Float(); got != 100 {
		t.Errorf("now() after reopen = %v, want 100", got)
	}
	wantJSON(t, "getBucketLifecycle after reopen", call(t, again, "getBucketLifecycle", "demo"), config)
	wantJSON(t, "head after reopen", call(t, again, "head", "demo", "k"), head)
	wantJSON(t, "getObjectTagging after reopen", call(t, again, "getObjectTagging", "demo", "k"), `{"versionId":"v00000001","tags":[{"key":"temp","value":"yes"}]}`)
	wantJSON(t, "setClock to 2 days after reopen", call(t, again, "setClock", 2*oneDay), fmt.Sprintf(
		`[{"bucket":"demo","at":86400,"time":%q,"actions":[{"ruleId":"archive","key":"cold/x","versionId":"v00000002","kind":"transition","storageClass":"GLACIER"}]},`+
			`{"bucket":"demo","at":172800,"time":%q,"actions":[{"ruleId":"temp","key":"k","versionId":"v00000001","kind":"expire_current"}]}]`,
		clockTime(again, oneDay), clockTime(again, 2*oneDay)))
	call(t, again, "close")

	third := openStore(t, newAPI().Value(), options)
	if got := call(t, third, "head", "demo", "cold/x").Get("storageClass").String(); got != "GLACIER" {
		t.Errorf("storage class of cold/x after the second reopen = %s, want GLACIER", got)
	}
	wantCode(t, "get of k after the second reopen", fail(t, third, "get", "demo", "k"), "NoSuchKey")
}
