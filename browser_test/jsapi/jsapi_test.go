//go:build !js

// Package jsapi_test drives MiniS3's JavaScript API in a real page: headless
// Chromium loads testdata/jsapi.html, which imports static/minis3.js, under a
// strict Content-Security-Policy. The tests run the course chapter's worked
// example through window.minis3, reload the page to check that IndexedDB
// kept everything, speak S3 to store.fetch, and check the in-memory
// fallback of a sandboxed iframe.
package jsapi_test

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
)

// csp is the policy of the playground: no inline script, no eval, wasm
// allowed.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'"

// openPage serves static/ (with a fresh wasm build) and testdata/, and opens
// path in a new browser with MiniS3 loaded.
func openPage(t *testing.T, path string) (*chrome.Browser, *chrome.Page, string) {
	t.Helper()
	srv := chrome.Serve(t, chrome.Mounts{"/": chrome.Static(t), "/test/": "testdata"}, http.Header{
		"Content-Security-Policy": {csp},
		// The sandboxed iframe has an opaque origin: its module and wasm
		// fetches are cross-origin.
		"Access-Control-Allow-Origin": {"*"},
	})
	b := chrome.Launch(t)
	p := b.Open(t, srv.URL+path)
	return b, p, srv.URL
}

func waitLoaded(t *testing.T, p *chrome.Page) {
	t.Helper()
	p.WaitFor(t, `globalThis.loaded`)
	if got := chrome.Eval[string](t, p, `return await globalThis.loaded`); got != "ok" {
		t.Fatalf("loading minis3.js: %s", got)
	}
}

type action struct {
	RuleID    string `json:"ruleId"`
	Key       string `json:"key"`
	VersionID string `json:"versionId"`
	Kind      string `json:"kind"`
}

type version struct {
	Key            string  `json:"key"`
	VersionID      string  `json:"versionId"`
	IsDeleteMarker bool    `json:"isDeleteMarker"`
	IsLatest       bool    `json:"isLatest"`
	CreatedAt      float64 `json:"createdAt"`
	Size           *int64  `json:"size"`
	ETag           *string `json:"etag"`
}

type jsError struct {
	Code         string `json:"code"`
	Message      string `json:"message"`
	Name         string `json:"name"`
	DeleteMarker bool   `json:"deleteMarker"`
	VersionID    string `json:"versionId"`
	IsError      bool   `json:"isError"`
}

func ptr[T any](v T) *T { return &v }

// md5Hex is the ETag core gives a body: its hex MD5, unquoted.
func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// wantVersions is listVersions after the worked example: the marker the
// expiration added (no size, no ETag) and the version it made noncurrent.
var wantVersions = []version{
	{Key: "logs/app.log", VersionID: "v00000003", IsDeleteMarker: true, IsLatest: true, CreatedAt: 15},
	{Key: "logs/app.log", VersionID: "v00000002", IsLatest: false, CreatedAt: 5, Size: ptr[int64](7), ETag: ptr(md5Hex("current"))},
}

func checkVersions(t *testing.T, got []version) {
	t.Helper()
	if !reflect.DeepEqual(got, wantVersions) {
		t.Errorf("listVersions:\n%s\nwant:\n%s", describe(got), describe(wantVersions))
	}
}

func describe(vs []version) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%s %s marker=%v latest=%v createdAt=%v", v.Key, v.VersionID, v.IsDeleteMarker, v.IsLatest, v.CreatedAt)
		if v.Size != nil {
			fmt.Fprintf(&b, " size=%d", *v.Size)
		}
		if v.ETag != nil {
			fmt.Fprintf(&b, " etag=%s", *v.ETag)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestWorkedExampleSurvivesReload runs the chapter's hands-on experiment
// (08-lifecycle-expiration.txt) through window.minis3, then reloads the page
// and opens the same database again.
func TestWorkedExampleSurvivesReload(t *testing.T) {
	_, p, _ := openPage(t, "/test/jsapi.html")
	waitLoaded(t, p)

	type run struct {
		Storage      string    `json:"storage"`
		StorageError *string   `json:"storageError"`
		Tick12       []action  `json:"tick12"`
		Preview15    []action  `json:"preview15"`
		Tick15       []action  `json:"tick15"`
		Get          jsError   `json:"get"`
		Versions     []version `json:"versions"`
		Objects      []any     `json:"objects"`
		Now          float64   `json:"now"`
		PutOld       struct {
			VersionID string `json:"versionId"`
			ETag      string `json:"etag"`
		} `json:"putOld"`
	}
	got := chrome.Eval[run](t, p, `
		const store = await minis3.open({ db: "chapter" });
		const out = { storage: store.storage, storageError: store.storageError };
		await store.createBucket("demo");
		await store.setBucketVersioning("demo", "enabled");
		out.putOld = await store.put("demo", "logs/app.log", "old");
		await store.setClock(5);
		await store.put("demo", "logs/app.log", new TextEncoder().encode("current"));
		const rules = [{ id: "logs", prefix: "logs/", expireCurrentAfter: 10, expireNoncurrentAfter: 12 }];
		await store.setClock(12);
		out.tick12 = await store.tick("demo", rules);
		await store.setClock(15);
		out.preview15 = await store.evaluate("demo", rules);
		out.tick15 = await store.tick("demo", rules);
		try {
			await store.get("demo", "logs/app.log");
		} catch (e) {
			out.get = { code: e.code, message: e.message, name: e.name, deleteMarker: e.deleteMarker, versionId: e.versionId, isError: e instanceof Error };
		}
		out.versions = await store.listVersions("demo");
		out.objects = await store.listObjects("demo");
		out.now = store.now();
		return out;`)

	if got.Storage != "indexeddb" || got.StorageError != nil {
		t.Fatalf("storage = %q (error %v), want indexeddb", got.Storage, got.StorageError)
	}
	if got.PutOld.VersionID != "v00000001" || got.PutOld.ETag != md5Hex("old") {
		t.Errorf("first put: %+v, want version v00000001 with the MD5 of old", got.PutOld)
	}
	if want := []action{{"logs", "logs/app.log", "v00000001", "expire_noncurrent"}}; !reflect.DeepEqual(got.Tick12, want) {
		t.Errorf("tick at 12 = %+v, want %+v", got.Tick12, want)
	}
	want15 := []action{{"logs", "logs/app.log", "v00000002", "expire_current"}}
	if !reflect.DeepEqual(got.Preview15, want15) || !reflect.DeepEqual(got.Tick15, want15) {
		t.Errorf("at 15: preview %+v, tick %+v; want both %+v", got.Preview15, got.Tick15, want15)
	}
	if g := got.Get; g.Code != "NoSuchKey" || !g.DeleteMarker || g.VersionID != "v00000003" || !g.IsError || g.Name != "MiniS3Error" || g.Message == "" {
		t.Errorf("current GET rejected with %+v, want an Error with code NoSuchKey, deleteMarker, versionId v00000003", g)
	}
	checkVersions(t, got.Versions)
	if len(got.Objects) != 0 {
		t.Errorf("listObjects = %v, want none (the current entry is a marker)", got.Objects)
	}
	if got.Now != 15 {
		t.Errorf("now() = %v, want 15", got.Now)
	}

	p.Reload(t)
	waitLoaded(t, p)
	type reopened struct {
		Storage string `json:"storage"`
		Buckets []struct {
			Name       string  `json:"name"`
			CreatedAt  float64 `json:"createdAt"`
			Versioning string  `json:"versioning"`
		} `json:"buckets"`
		Versioning string    `json:"versioning"`
		Versions   []version `json:"versions"`
		Now        float64   `json:"now"`
		Text       string    `json:"text"`
		Body       []byte    `json:"body"`
	}
	after := chrome.Eval[reopened](t, p, `
		const store = await minis3.open({ db: "chapter" });
		const v2 = await store.get("demo", "logs/app.log", { versionId: "v00000002" });
		return {
			storage: store.storage,
			buckets: await store.listBuckets(),
			versioning: await store.getBucketVersioning("demo"),
			versions: await store.listVersions("demo", { prefix: "logs/" }),
			now: store.now(),
			text: v2.text,
			body: btoa(String.fromCharCode(...v2.body)),
		};`)
	if after.Storage != "indexeddb" || len(after.Buckets) != 1 || after.Buckets[0].Name != "demo" ||
		after.Buckets[0].CreatedAt != 0 || after.Buckets[0].Versioning != "enabled" || after.Versioning != "enabled" {
		t.Errorf("after reload: %+v, want bucket demo created at 0, enabled, in IndexedDB", after)
	}
	checkVersions(t, after.Versions)
	if after.Now != 15 {
		t.Errorf("clock after reload = %v, want 15", after.Now)
	}
	if after.Text != "current" || string(after.Body) != "current" {
		t.Errorf("GET v00000002 after reload: text %q, body %q; want current", after.Text, after.Body)
	}
}

// listVersionsResult is the part of S3's ListObjectVersions XML the test
// reads; Versions and DeleteMarkers keep their own order.
type listVersionsResult struct {
	XMLName       xml.Name `xml:"ListVersionsResult"`
	Name          string
	Versions      []xmlVersion `xml:"Version"`
	DeleteMarkers []xmlVersion `xml:"DeleteMarker"`
}

type xmlVersion struct {
	Key       string
	VersionID string `xml:"VersionId"`
	IsLatest  bool
	Size      int64
}

// TestFetchServesS3 speaks S3 REST to store.fetch, on two stores of one
// page: each request reaches the store whose fetch sent it.
func TestFetchServesS3(t *testing.T) {
	_, p, _ := openPage(t, "/test/jsapi.html")
	waitLoaded(t, p)

	type response struct {
		Status       int    `json:"status"`
		VersionID    string `json:"versionId"`
		DeleteMarker string `json:"deleteMarker"`
		ETag         string `json:"etag"`
		Body         string `json:"body"`
	}
	type results struct {
		CreateBucket response `json:"createBucket"`
		Versioning   response `json:"versioning"`
		Put          response `json:"put"`
		Delete       response `json:"delete"`
		GetMarker    response `json:"getMarker"`
		GetVersion   response `json:"getVersion"`
		Versions     response `json:"versions"`
		Clock        response `json:"clock"`
		NowAfterPut  float64  `json:"nowAfterPut"`
		Text         string   `json:"text"`
		MemList      response `json:"memList"`
		IDBList      response `json:"idbList"`
		Closed       string   `json:"closed"`
	}
	got := chrome.Eval[results](t, p, `
		const read = async (res) => ({
			status: res.status,
			versionId: res.headers.get("x-amz-version-id") ?? "",
			deleteMarker: res.headers.get("x-amz-delete-marker") ?? "",
			etag: res.headers.get("etag") ?? "",
			body: await res.text(),
		});
		const store = await minis3.open({ db: "s3" });
		const mem = await minis3.open({ memory: true });
		const out = {};
		// A request without a body (the in-page server hands the handler
		// a nil Body for those) and S3's versioning XML.
		out.createBucket = await read(await store.fetch("/demo", { method: "PUT" }));
		out.versioning = await read(await store.fetch("/demo?versioning", {
			method: "PUT",
			body: '<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>Enabled</Status></VersioningConfiguration>',
		}));
		await mem.createBucket("scratch");
		out.put = await read(await store.fetch(new Request("/demo/notes.txt", { method: "PUT", body: "hello" })));
		out.delete = await read(await store.fetch("/demo/notes.txt", { method: "DELETE" }));
		out.getMarker = await read(await store.fetch("/demo/notes.txt"));
		out.getVersion = await read(await store.fetch("/demo/notes.txt?versionId=v00000001"));
		out.versions = await read(await store.fetch("/demo?versions"));
		out.clock = await read(await store.fetch("/_minis3/clock", { method: "PUT", body: JSON.stringify({ now: 20 }) }));
		out.nowAfterPut = store.now();
		out.text = (await store.get("demo", "notes.txt", { versionId: "v00000001" })).text;
		out.memList = await read(await mem.fetch("/"));
		out.idbList = await read(await store.fetch("/"));
		await mem.close();
		try { await mem.fetch("/"); out.closed = "resolved"; } catch (e) { out.closed = e.code; }
		return out;`)

	if got.CreateBucket.Status != 200 || got.Versioning.Status != 200 {
		t.Errorf("PUT /demo: %+v; PUT /demo?versioning: %+v; want 200 and 200", got.CreateBucket, got.Versioning)
	}
	if got.Put.Status != 200 || got.Put.VersionID != "v00000001" || got.Put.ETag != `"`+md5Hex("hello")+`"` {
		t.Errorf("PUT: %+v, want 200, version v00000001, the MD5 of hello", got.Put)
	}
	if got.Delete.Status != 204 || got.Delete.DeleteMarker != "true" || got.Delete.VersionID != "v00000002" {
		t.Errorf("DELETE: %+v, want 204 adding marker v00000002", got.Delete)
	}
	if got.GetMarker.Status != 404 || got.GetMarker.DeleteMarker != "true" || !strings.Contains(got.GetMarker.Body, "<Code>NoSuchKey</Code>") {
		t.Errorf("GET of a delete marker: %+v, want 404 NoSuchKey with x-amz-delete-marker: true", got.GetMarker)
	}
	if got.GetVersion.Status != 200 || got.GetVersion.Body != "hello" {
		t.Errorf("GET ?versionId=v00000001: %+v, want 200 hello", got.GetVersion)
	}
	if got.Versions.Status != 200 {
		t.Fatalf("GET ?versions: %+v", got.Versions)
	}
	var lv listVersionsResult
	if err := xml.Unmarshal([]byte(got.Versions.Body), &lv); err != nil {
		t.Fatalf("?versions XML: %v\n%s", err, got.Versions.Body)
	}
	wantXML := listVersionsResult{
		XMLName:       xml.Name{Space: "http://s3.amazonaws.com/doc/2006-03-01/", Local: "ListVersionsResult"},
		Name:          "demo",
		Versions:      []xmlVersion{{Key: "notes.txt", VersionID: "v00000001", Size: 5}},
		DeleteMarkers: []xmlVersion{{Key: "notes.txt", VersionID: "v00000002", IsLatest: true}},
	}
	if lv.XMLName.Space == "" {
		wantXML.XMLName.Space = ""
	}
	if !reflect.DeepEqual(lv, wantXML) {
		t.Errorf("?versions = %+v, want %+v\n%s", lv, wantXML, got.Versions.Body)
	}
	if got.Clock.Status != 200 || got.NowAfterPut != 20 {
		t.Errorf("PUT /_minis3/clock: %+v, store.now() = %v; want 200 and 20", got.Clock, got.NowAfterPut)
	}
	if got.Text != "hello" {
		t.Errorf("store.get of the version PUT through fetch = %q, want hello", got.Text)
	}
	if !strings.Contains(got.MemList.Body, "<Name>scratch</Name>") || strings.Contains(got.MemList.Body, "<Name>demo</Name>") {
		t.Errorf("memory store's fetch GET / = %s, want only bucket scratch", got.MemList.Body)
	}
	if !strings.Contains(got.IDBList.Body, "<Name>demo</Name>") || strings.Contains(got.IDBList.Body, "<Name>scratch</Name>") {
		t.Errorf("IndexedDB store's fetch GET / = %s, want only bucket demo", got.IDBList.Body)
	}
	if got.Closed != "InternalError" {
		t.Errorf("fetch on a closed store: %q, want a rejection with InternalError", got.Closed)
	}
}

// TestSandboxedIframeFallsBackToMemory loads the page in an iframe with
// sandbox="allow-scripts" (an opaque origin: IndexedDB throws
// SecurityError): minis3.open still opens a store, in memory, and says why.
func TestSandboxedIframeFallsBackToMemory(t *testing.T) {
	_, p, _ := openPage(t, "/test/sandboxed.html")
	p.WaitFor(t, `globalThis.framed`)
	type framed struct {
		Storage      string `json:"storage"`
		StorageError string `json:"storageError"`
		Error        string `json:"error"`
	}
	got := chrome.Eval[framed](t, p, `return await globalThis.framed`)
	if got.Error != "" || got.Storage != "memory" || !strings.Contains(got.StorageError, "SecurityError") {
		t.Fatalf("minis3.open in a sandboxed iframe: %+v, want memory storage with a SecurityError", got)
	}
}
