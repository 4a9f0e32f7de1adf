//go:build js && wasm

package wasm_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall/js"
	"testing"

	"minis3/wasm/jsapi"
	"minis3/web"
)

// wantTooLarge checks that err is EntityTooLarge naming limit.
func wantTooLarge(t *testing.T, err js.Value, limit int) {
	t.Helper()
	if code := err.Get("code").String(); code != "EntityTooLarge" {
		t.Errorf("code = %s (%s), want EntityTooLarge", code, err.Get("message"))
	}
	if got := err.Get("maxSizeAllowed"); got.Type() != js.TypeNumber || got.Int() != limit {
		t.Errorf("maxSizeAllowed = %v, want %d", got, limit)
	}
}

// TestBodiesOverMaxObjectSizeAreEntityTooLarge opens a store with
// maxObjectSize 8: put and uploadPart bodies of 9 bytes (strings, also
// ones of fewer characters than bytes, Uint8Arrays, ArrayBuffers) reject
// with EntityTooLarge and store nothing; 8 bytes are stored. The S3 API of
// store.fetch applies the same limit.
func TestBodiesOverMaxObjectSizeAreEntityTooLarge(t *testing.T) {
	api := newAPI()
	store := openStore(t, api.Value(), `{"memory": true, "maxObjectSize": 8, "minPartSize": 1}`)
	if got := store.Get("maxObjectSize").Int(); got != 8 {
		t.Fatalf("store.maxObjectSize = %d, want 8", got)
	}
	call(t, store, "createBucket", "demo")
	upload := call(t, store, "createMultipartUpload", "demo", "mp").Get("uploadId").String()
	over := map[string]js.Value{
		"string":              js.ValueOf("123456789"),
		"string of 5 chars":   js.ValueOf("ééééé"), // 10 bytes of UTF-8
		"Uint8Array":          js.Global().Get("Uint8Array").New(9),
		"ArrayBuffer":         js.Global().Get("ArrayBuffer").New(9),
		"DataView of 9 bytes": js.Global().Get("DataView").New(js.Global().Get("ArrayBuffer").New(12), 1, 9),
		"subarray of 9 bytes": js.Global().Get("Uint8Array").New(100).Call("subarray", 10, 19),
		"string of 3 emoji":   js.ValueOf(strings.Repeat("😀", 3)), // 6 UTF-16 units, 12 bytes
	}
	for name, body := range over {
		t.Run("put "+name, func(t *testing.T) {
			wantTooLarge(t, fail(t, store, "put", "demo", "k", body), 8)
		})
		t.Run("uploadPart "+name, func(t *testing.T) {
			wantTooLarge(t, fail(t, store, "uploadPart", "demo", "mp", upload, 1, body), 8)
		})
	}
	if got := jsonOf(call(t, store, "listVersions", "demo")); got != "[]" {
		t.Errorf("versions after the refused puts: %s, want none", got)
	}
	if got := jsonOf(call(t, store, "listParts", "demo", "mp", upload)); got != "[]" {
		t.Errorf("parts after the refused uploads: %s, want none", got)
	}
	if got := call(t, store, "put", "demo", "k", "12345678").Get("size").Int(); got != 8 {
		t.Errorf("put of exactly the limit stored %d bytes, want 8", got)
	}
	call(t, store, "uploadPart", "demo", "mp", upload, 1, "12345678")

	t.Run("store.fetch", func(t *testing.T) {
		put := func(body string) (int, string) {
			req := httptest.NewRequest(http.MethodPut, "/demo/via-fetch", strings.NewReader(body))
			req.Header.Set(jsapi.StoreHeader, "1") // the API's first store
			w := httptest.NewRecorder()
			api.Handler().ServeHTTP(w, req)
			return w.Code, w.Body.String()
		}
		if code, body := put("123456789"); code != 400 || !strings.Contains(body, "<Code>EntityTooLarge</Code>") ||
			!strings.Contains(body, "<MaxSizeAllowed>8</MaxSizeAllowed>") {
			t.Errorf("PUT of 9 bytes: %d %s, want 400 EntityTooLarge with MaxSizeAllowed 8", code, body)
		}
		if code, body := put("12345678"); code != 200 {
			t.Errorf("PUT of 8 bytes: %d %s, want 200", code, body)
		}
	})
}

// TestMaxObjectSizeDefaultsTo64MiB: without the option a store takes
// bodies up to web.DefaultMaxObjectSize (64 MiB); one byte more is
// EntityTooLarge, refused before its bytes are copied into Go.
func TestMaxObjectSizeDefaultsTo64MiB(t *testing.T) {
	store := openStore(t, newAPI().Value(), `{"memory": true}`)
	if web.DefaultMaxObjectSize != 64<<20 {
		t.Fatalf("web.DefaultMaxObjectSize = %d, want 64 MiB", web.DefaultMaxObjectSize)
	}
	if got := store.Get("maxObjectSize").Int(); got != web.DefaultMaxObjectSize {
		t.Fatalf("store.maxObjectSize = %d, want %d", got, web.DefaultMaxObjectSize)
	}
	call(t, store, "createBucket", "demo")
	big := js.Global().Get("Uint8Array").New(web.DefaultMaxObjectSize + 1)
	wantTooLarge(t, fail(t, store, "put", "demo", "big", big), web.DefaultMaxObjectSize)
}

// TestMaxObjectSizeOptionIsChecked: a maxObjectSize that is not a
// positive whole number is InvalidArgument.
func TestMaxObjectSizeOptionIsChecked(t *testing.T) {
	minis3 := newAPI().Value()
	for _, opts := range []string{
		`{"memory": true, "maxObjectSize": 0}`,
		`{"memory": true, "maxObjectSize": -1}`,
		`{"memory": true, "maxObjectSize": 1.5}`,
		`{"memory": true, "maxObjectSize": "8"}`,
	} {
		if e := fail(t, minis3, "open", object(opts)); e.Get("code").String() != "InvalidArgument" {
			t.Errorf("open(%s): code %s, want InvalidArgument", opts, e.Get("code"))
		}
	}
}
