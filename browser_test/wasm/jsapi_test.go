//go:build js && wasm

// Package wasm_test runs under wasmbrowsertest (make test-wasm): it calls
// the minis3 JavaScript API through syscall/js exactly as a page's
// JavaScript does (method calls returning Promises, plain objects,
// Uint8Array bodies, Errors with codes), over the real IndexedDB storage.
package wasm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"

	"minis3/core"
	"minis3/wasm/idbstore"
	"minis3/wasm/jsapi"
)

const testTimeout = 20 * time.Second

// newAPI is the API as the wasm main package wires it, without the HTTP
// server (syumai/workers cannot load under wasmbrowsertest).
func newAPI() *jsapi.API {
	return jsapi.New(jsapi.Config{
		OpenDurable: func(ctx context.Context, name string) (core.Storage, error) {
			return idbstore.Open(ctx, name)
		},
		DeleteDurable: idbstore.DeleteDatabase,
		DurableKind:   "indexeddb",
	})
}

var dbCounter atomic.Int64

// freshDB returns a database name of the test alone and deletes the
// database when the test ends.
func freshDB(t *testing.T) string {
	name := fmt.Sprintf("jsapi-test-%d-%s", dbCounter.Add(1), t.Name())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		if err := idbstore.DeleteDatabase(ctx, name); err != nil {
			t.Errorf("deleting test database: %v", err)
		}
	})
	return name
}

// settle waits for a Promise: its value, or the value it rejected with.
func settle(t testing.TB, p js.Value) (value js.Value, rejected bool) {
	t.Helper()
	if p.Type() != js.TypeObject || !p.InstanceOf(js.Global().Get("Promise")) {
		t.Fatalf("got %v, want a Promise", p.Type())
	}
	type result struct {
		v        js.Value
		rejected bool
	}
	ch := make(chan result, 1)
	resolve := js.FuncOf(func(_ js.Value, args []js.Value) any { ch <- result{args[0], false}; return nil })
	reject := js.FuncOf(func(_ js.Value, args []js.Value) any { ch <- result{args[0], true}; return nil })
	defer resolve.Release()
	defer reject.Release()
	p.Call("then", resolve, reject)
	select {
	case r := <-ch:
		return r.v, r.rejected
	case <-time.After(testTimeout):
		t.Fatalf("promise not settled after %v", testTimeout)
		return js.Value{}, false
	}
}

// call calls a method as JavaScript does and awaits its Promise, failing
// the test if it rejects.
func call(t *testing.T, obj js.Value, method string, args ...any) js.Value {
	t.Helper()
	v, rejected := settle(t, obj.Call(method, args...))
	if rejected {
		t.Fatalf("%s(%v) rejected: %s (code %s)", method, args, v.Get("message"), v.Get("code"))
	}
	return v
}

// fail calls a method that must reject and returns the Error.
func fail(t *testing.T, obj js.Value, method string, args ...any) js.Value {
	t.Helper()
	v, rejected := settle(t, obj.Call(method, args...))
	if !rejected {
		t.Fatalf("%s(%v) resolved to %s, want a rejection", method, args, jsonOf(v))
	}
	if !v.InstanceOf(js.Global().Get("Error")) {
		t.Fatalf("%s(%v) rejected with %s, want an Error", method, args, jsonOf(v))
	}
	return v
}

func jsonOf(v js.Value) string {
	if v.IsUndefined() {
		return "undefined"
	}
	return js.Global().Get("JSON").Call("stringify", v).String()
}

// object builds a JavaScript object from JSON, as a page writes a literal.
func object(jsonText string) js.Value {
	return js.Global().Get("JSON").Call("parse", jsonText)
}

func openStore(t *testing.T, minis3 js.Value, options string) js.Value {
	t.Helper()
	store := call(t, minis3, "open", object(options))
	t.Cleanup(func() { settle(t, store.Call("close")) })
	return store
}

// TestWorkedExample is the chapter's hands-on experiment
// (08-lifecycle-expiration.txt), then a close and reopen of the database.
func TestWorkedExample(t *testing.T) {
	db := freshDB(t)
	minis3 := newAPI().Value()
	store := openStore(t, minis3, fmt.Sprintf(`{"db": %q}`, db))
	if got := store.Get("storage").String(); got != "indexeddb" {
		t.Fatalf("storage = %s (%s), want indexeddb", got, store.Get("storageError"))
	}
	call(t, store, "createBucket", "demo")
	call(t, store, "setBucketVersioning", "demo", "enabled")
	call(t, store, "put", "demo", "logs/app.log", "old")
	call(t, store, "setClock", 5)
	call(t, store, "put", "demo", "logs/app.log", "current")
	rules := object(`[{"id": "logs", "prefix": "logs/", "expireCurrentAfter": 10, "expireNoncurrentAfter": 12}]`)
	call(t, store, "setClock", 12)
	if got, want := jsonOf(call(t, store, "tick", "demo", rules)), `[{"ruleId":"logs","key":"logs/app.log","versionId":"v00000001","kind":"expire_noncurrent"}]`; got != want {
		t.Errorf("tick at 12 = %s, want %s", got, want)
	}
	call(t, store, "setClock", 15)
	if got, want := jsonOf(call(t, store, "tick", "demo", rules)), `[{"ruleId":"logs","key":"logs/app.log","versionId":"v00000002","kind":"expire_current"}]`; got != want {
		t.Errorf("tick at 15 = %s, want %s", got, want)
	}
	e := fail(t, store, "get", "demo", "logs/app.log")
	if e.Get("code").String() != "NoSuchKey" || !e.Get("deleteMarker").Truthy() || e.Get("versionId").String() != "v00000003" {
		t.Errorf("current GET rejected with %s (code %s), want NoSuchKey on marker v00000003", e.Get("message"), e.Get("code"))
	}
	wantVersions := `[{"key":"logs/app.log","versionId":"v00000003","isDeleteMarker":true,"isLatest":true,"createdAt":15},` +
		`{"key":"logs/app.log","versionId":"v00000002","isDeleteMarker":false,"isLatest":false,"createdAt":5,"size":7,"etag":"1fd5b8c3b7a1e1a1b3d2ac6b2d0b3bd8","storageClass":"STANDARD"}]`
	gotVersions := jsonOf(call(t, store, "listVersions", "demo"))
	// The ETag is the body's MD5; check the rest exactly, then the ETag.
	etag := call(t, store, "get", "demo", "logs/app.log", object(`{"versionId": "v00000002"}`)).Get("etag").String()
	wantVersions = strings.Replace(wantVersions, "1fd5b8c3b7a1e1a1b3d2ac6b2d0b3bd8", etag, 1)
	if gotVersions != wantVersions {
		t.Errorf("listVersions = %s\nwant %s", gotVersions, wantVersions)
	}
	if len(etag) != 32 {
		t.Errorf("ETag %q is not a hex MD5", etag)
	}
	if now := store.Call("now"); now.Float() != 15 {
		t.Errorf("now() = %v, want 15", now)
	}
	call(t, store, "close")
	if e := fail(t, store, "listBuckets"); e.Get("code").String() != "InternalError" {
		t.Errorf("a call after close rejected with code %s, want InternalError", e.Get("code"))
	}

	again := openStore(t, newAPI().Value(), fmt.Sprintf(`{"db": %q}`, db))
	if got := jsonOf(call(t, again, "listVersions", "demo")); got != wantVersions {
		t.Errorf("listVersions after reopen = %s\nwant %s", got, wantVersions)
	}
	if got, want := jsonOf(call(t, again, "listBuckets")), `[{"name":"demo","createdAt":0,"versioning":"enabled"}]`; got != want {
		t.Errorf("listBuckets after reopen = %s, want %s", got, want)
	}
	if now := again.Call("now"); now.Float() != 15 {
		t.Errorf("now() after reopen = %v, want 15", now)
	}
	got := call(t, again, "get", "demo", "logs/app.log", object(`{"versionId": "v00000002"}`))
	if got.Get("text").String() != "current" || got.Get("createdAt").Float() != 5 || got.Get("size").Int() != 7 {
		t.Errorf("GET v00000002 after reopen = %s (text %s)", jsonOf(got), got.Get("text"))
	}
}

// TestErrorsCarryCodes checks that failures reject with an Error whose code
// is the S3 code and whose extras name what failed.
func TestErrorsCarryCodes(t *testing.T) {
	store := openStore(t, newAPI().Value(), `{"memory": true}`)
	call(t, store, "createBucket", "demo")
	call(t, store, "setBucketVersioning", "demo", "enabled")
	call(t, store, "put", "demo", "k", "body")
	call(t, store, "delete", "demo", "k")
	cases := []struct {
		name   string
		method string
		args   []any
		code   string
		extras map[string]any
	}{
		{"MissingBucket", "get", []any{"nope", "k"}, "NoSuchBucket", map[string]any{"bucketName": "nope"}},
		{"BucketExists", "createBucket", []any{"demo"}, "BucketAlreadyOwnedByYou", nil},
		{"BadBucketName", "createBucket", []any{"Bad_Name"}, "InvalidBucketName", nil},
		{"BucketNotEmpty", "deleteBucket", []any{"demo"}, "BucketNotEmpty", nil},
		{"UnknownVersion", "get", []any{"demo", "k", object(`{"versionId": "v00000099"}`)}, "NoSuchVersion", map[string]any{"versionId": "v00000099"}},
		{"MalformedVersion", "get", []any{"demo", "k", object(`{"versionId": "x"}`)}, "InvalidArgument", nil},
		{"GetByMarkerVersion", "get", []any{"demo", "k", object(`{"versionId": "v00000002"}`)}, "MethodNotAllowed", map[string]any{"deleteMarker": true}},
		{"BackToUnversioned", "setBucketVersioning", []any{"demo", "unversioned"}, "InvalidArgument", nil},
		{"StatusInCapitals", "setBucketVersioning", []any{"demo", "Enabled"}, "InvalidArgument", nil},
		{"RuleWithoutThreshold", "tick", []any{"demo", object(`[{"id": "r", "prefix": ""}]`)}, "InvalidArgument", nil},
		{"NegativeThreshold", "evaluate", []any{"demo", object(`[{"id": "r", "expireCurrentAfter": -1}]`)}, "InvalidArgument", nil},
		{"MisspeltRuleField", "evaluate", []any{"demo", object(`[{"id": "r", "expireCurentAfter": 1}]`)}, "InvalidArgument", nil},
		{"RulesNotArray", "tick", []any{"demo", object(`{"id": "r"}`)}, "InvalidArgument", nil},
		{"BucketNotString", "createBucket", []any{42}, "InvalidArgument", map[string]any{"argumentName": "bucket"}},
		{"BodyNotBytes", "put", []any{"demo", "k", 42}, "InvalidArgument", map[string]any{"argumentName": "body"}},
		{"MisspeltOption", "get", []any{"demo", "k", object(`{"version": "v00000001"}`)}, "InvalidArgument", nil},
		{"UnknownUpload", "uploadPart", []any{"demo", "k", "u-none", 1, "x"}, "NoSuchUpload", nil},
		{"ClockNotNumber", "setClock", []any{"12"}, "InvalidArgument", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := fail(t, store, c.method, c.args...)
			if got := e.Get("code").String(); got != c.code {
				t.Errorf("code = %s (%s), want %s", got, e.Get("message"), c.code)
			}
			if e.Get("name").String() != "MiniS3Error" || e.Get("message").String() == "" {
				t.Errorf("name %s, message %q; want MiniS3Error with a message", e.Get("name"), e.Get("message"))
			}
			for k, want := range c.extras {
				if got := e.Get(k); !got.Equal(js.ValueOf(want)) {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
		})
	}
}

// TestFallsBackToMemory opens a store when durable storage fails: it is in
// memory, and says why.
func TestFallsBackToMemory(t *testing.T) {
	api := jsapi.New(jsapi.Config{
		OpenDurable: func(context.Context, string) (core.Storage, error) {
			return nil, errors.New("idbstore: IndexedDB is unavailable: SecurityError: access denied")
		},
		DurableKind: "indexeddb",
	})
	store := openStore(t, api.Value(), `{"db": "any"}`)
	if got := store.Get("storage").String(); got != "memory" {
		t.Errorf("storage = %s, want memory", got)
	}
	if got := store.Get("storageError"); got.Type() != js.TypeString || !strings.Contains(got.String(), "SecurityError") {
		t.Errorf("storageError = %v, want the reason", got)
	}
	call(t, store, "createBucket", "works")
	if e := fail(t, api.Value(), "deleteDatabase", "any"); e.Get("code").String() != "NotImplemented" {
		t.Errorf("deleteDatabase without durable storage: code %s", e.Get("code"))
	}

	mem := openStore(t, newAPI().Value(), `{"memory": true}`)
	if mem.Get("storage").String() != "memory" || !mem.Get("storageError").IsUndefined() || !mem.Get("db").IsNull() {
		t.Errorf("{memory: true}: storage %s, storageError %v, db %v; want memory, undefined, null", mem.Get("storage"), mem.Get("storageError"), mem.Get("db"))
	}
}

// TestBodiesCrossAsBytes puts every byte value and reads it back exactly;
// the caller's array is copied at the call.
func TestBodiesCrossAsBytes(t *testing.T) {
	store := openStore(t, newAPI().Value(), `{"memory": true}`)
	call(t, store, "createBucket", "bkt")
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	arr := js.Global().Get("Uint8Array").New(len(all))
	js.CopyBytesToJS(arr, all)
	p := store.Call("put", "bkt", "bytes", arr)
	arr.Call("fill", 0) // after the call, before the Promise settles
	if v, rejected := settle(t, p); rejected {
		t.Fatalf("put rejected: %s", v.Get("message"))
	}
	got := call(t, store, "get", "bkt", "bytes")
	body := got.Get("body")
	if !body.InstanceOf(js.Global().Get("Uint8Array")) || body.Length() != 256 {
		t.Fatalf("body = %s, want a Uint8Array of 256 bytes", jsonOf(body))
	}
	b := make([]byte, 256)
	js.CopyBytesToGo(b, body)
	if string(b) != string(all) {
		t.Errorf("body bytes differ from what was put")
	}
	call(t, store, "put", "bkt", "text", "héllo ✓")
	if got := call(t, store, "get", "bkt", "text"); got.Get("text").String() != "héllo ✓" || got.Get("size").Int() != len("héllo ✓") {
		t.Errorf("string body read back as %q, size %v", got.Get("text"), got.Get("size"))
	}
	objects := jsonOf(call(t, store, "listObjects", "bkt", object(`{"prefix": "t"}`)))
	if !strings.HasPrefix(objects, `[{"key":"text","versionId":"null",`) || strings.Contains(objects, `"bytes"`) {
		t.Errorf("listObjects with prefix t = %s", objects)
	}
}

// TestMultipartUpload uploads two parts with a lowered minimum part size.
func TestMultipartUpload(t *testing.T) {
	store := openStore(t, newAPI().Value(), `{"memory": true, "minPartSize": 5}`)
	call(t, store, "createBucket", "bkt")
	up := call(t, store, "createMultipartUpload", "bkt", "big")
	id := up.Get("uploadId").String()
	p1 := call(t, store, "uploadPart", "bkt", "big", id, 1, "hello ")
	p2 := call(t, store, "uploadPart", "bkt", "big", id, 2, "world")
	if got := jsonOf(call(t, store, "listMultipartUploads", "bkt")); !strings.Contains(got, id) {
		t.Errorf("listMultipartUploads = %s, want upload %s", got, id)
	}
	if got := call(t, store, "listParts", "bkt", "big", id); got.Length() != 2 || got.Index(1).Get("size").Int() != 5 {
		t.Errorf("listParts = %s", jsonOf(got))
	}
	parts := js.Global().Get("Array").New(
		object(fmt.Sprintf(`{"partNumber": 1, "etag": %q}`, p1.Get("etag").String())),
		object(fmt.Sprintf(`{"partNumber": 2, "etag": %q}`, p2.Get("etag").String())),
	)
	res := call(t, store, "completeMultipartUpload", "bkt", "big", id, parts)
	if !strings.HasSuffix(res.Get("etag").String(), "-2") || res.Get("size").Int() != 11 {
		t.Errorf("complete = %s, want an ETag ending in -2 and size 11", jsonOf(res))
	}
	if got := call(t, store, "get", "bkt", "big").Get("text").String(); got != "hello world" {
		t.Errorf("GET after complete = %q", got)
	}
	small := call(t, store, "createMultipartUpload", "bkt", "small").Get("uploadId").String()
	call(t, store, "abortMultipartUpload", "bkt", "small", small)
	if e := fail(t, store, "listParts", "bkt", "small", small); e.Get("code").String() != "NoSuchUpload" {
		t.Errorf("listParts of an aborted upload: code %s", e.Get("code"))
	}
}

// TestFetchNeedsServer: without the page's HTTP server, fetch rejects.
func TestFetchNeedsServer(t *testing.T) {
	store := openStore(t, newAPI().Value(), `{"memory": true}`)
	if e := fail(t, store, "fetch", "/"); e.Get("code").String() != "NotImplemented" {
		t.Errorf("fetch without a server: code %s", e.Get("code"))
	}
}

// TestHandlerRoutesByStore sends requests to the router directly: a
// request marked with a store's ID reaches that store; others are refused.
func TestHandlerRoutesByStore(t *testing.T) {
	api := newAPI()
	minis3 := api.Value()
	a := openStore(t, minis3, `{"memory": true}`)
	b := openStore(t, minis3, `{"memory": true}`)
	call(t, a, "createBucket", "only-in-a")
	call(t, b, "createBucket", "only-in-b")
	get := func(id string) (int, string) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if id != "" {
			req.Header.Set(jsapi.StoreHeader, id)
		}
		w := httptest.NewRecorder()
		api.Handler().ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	// Store IDs are assigned in open order.
	if code, body := get("1"); code != 200 || !strings.Contains(body, "only-in-a") || strings.Contains(body, "only-in-b") {
		t.Errorf("store 1: %d %s", code, body)
	}
	if code, body := get("2"); code != 200 || !strings.Contains(body, "only-in-b") || strings.Contains(body, "only-in-a") {
		t.Errorf("store 2: %d %s", code, body)
	}
	if code, body := get(""); code != 500 || !strings.Contains(body, "InternalError") {
		t.Errorf("unmarked request: %d %s, want 500 InternalError", code, body)
	}
	// The in-page server hands over a request without a body with a nil
	// Body; the router must not pass that on.
	put := httptest.NewRequest(http.MethodPut, "/made-by-put", nil)
	put.Body = nil
	put.Header.Set(jsapi.StoreHeader, "2")
	w := httptest.NewRecorder()
	api.Handler().ServeHTTP(w, put)
	if w.Code != 200 {
		t.Errorf("PUT /made-by-put with a nil Body: %d %s", w.Code, w.Body)
	}
	call(t, a, "close")
	if code, _ := get("1"); code != 500 {
		t.Errorf("request for a closed store: %d, want 500", code)
	}
}
