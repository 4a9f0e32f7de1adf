//go:build !js

// Package sw_test checks static/minis3-sw.js, MiniS3 as a service worker,
// as a web app's own browser tests use it: headless Chromium opens a page
// that registers the worker, and the AWS SDK for JavaScript v3 in the page
// (testdata/s3test.js, bundled by esbuild from the pinned packages of
// package-lock.json when the test starts) talks S3 to it, same-origin and
// cross-origin, with presigned URLs, across a forced stop of the worker.
//
// The npm packages are test tooling only: `make test` installs them into
// node_modules here (npm ci); nothing of them is served by the playground.
package sw_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"minis3/browser_test/chrome"
)

// bundle runs esbuild on testdata/s3test.js into a fresh directory and
// returns it.
func bundle(t *testing.T) string {
	t.Helper()
	esbuild := filepath.Join("node_modules", ".bin", "esbuild")
	if _, err := os.Stat(esbuild); err != nil {
		t.Fatalf("%s is missing: install the test's npm packages with `npm ci --prefix browser_test/sw` (make test does it)", esbuild)
	}
	out := t.TempDir()
	cmd := exec.Command(esbuild, filepath.Join("testdata", "s3test.js"), "--bundle", "--format=esm",
		"--log-level=warning", "--outfile="+filepath.Join(out, "s3test.js"))
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("esbuild: %v\n%s", err, msg)
	}
	return out
}

// openPage serves static/ (with a fresh wasm build), testdata/ and the
// bundle, and opens path in a new browser.
func openPage(t *testing.T, path string) (*chrome.Page, string) {
	t.Helper()
	srv := chrome.Serve(t, chrome.Mounts{"/": chrome.Static(t), "/test/": "testdata", "/test/out/": bundle(t)}, nil)
	p := chrome.Launch(t).Open(t, srv.URL+path)
	p.WaitFor(t, `globalThis.s3test`)
	return p, srv.URL
}

// want is what scenario (testdata/s3test.js) must answer, as S3 answers:
// version IDs are MiniS3's deterministic ones.
const want = `{
	"versioning": "Enabled",
	"buckets": ["photos"],
	"putVersions": ["v00000001", "v00000002"],
	"putChecksum": "emyG8Q==",
	"getCurrent": ["v00000002", "two!"],
	"getFirst": ["v00000001", "one"],
	"headFirst": ["v00000001", 3, "\"f97c5d29941bfb1b2fdab0874906ab82\""],
	"deleteMarker": ["v00000003", true],
	"getAfterDelete": "NoSuchKey 404",
	"headAfterDelete": "NotFound 404",
	"getMarker": "MethodNotAllowed 405",
	"getUnknownVersion": "NoSuchVersion 404",
	"getStillThere": "two!",
	"versionPages": [
		["cat.txt v00000003 marker latest", "cat.txt v00000002"],
		["cat.txt v00000001", "dog.txt v00000005 latest"],
		["dog.txt v00000004", "eel.txt v00000006 latest"]
	],
	"multipart": [true, "v00000007", 5242883, "aend"],
	"deleteObjects": ["cat.txt: v00000001 deleted", "dog.txt: marker v00000008", "eel.txt: marker v00000009"],
	"presignedGet": [200, "two!"],
	"presignedPut": [200, "v00000010", "sent to a presigned URL"],
	"blobDefaultChecksums": ["TypeError (no response)", "NotFound 404"],
	"blob": "a Blob body",
	"lifecycle": ["logs Enabled logs/ 1"],
	"clockRuns": ["expire_current logs/app.log v00000012"],
	"logAfterRun": "NoSuchKey 404",
	"logVersion": "log"
}`

// TestSDKThroughServiceWorker runs the scenario with the AWS SDK for
// JavaScript through the worker, at a same-origin endpoint (the default,
// s3/ under the worker's scope) and at a cross-origin one, path-style and
// virtual-hosted: buckets,
// versioning, PUT, GET and HEAD by version with the SDK's CRC32 checksums,
// delete markers, ListObjectVersions two at a time, multipart,
// DeleteObjects, presigned GET and PUT URLs, a Blob body, a lifecycle
// configuration, and a clock move whose daily run expires an object.
func TestSDKThroughServiceWorker(t *testing.T) {
	var expected map[string]any
	if err := json.Unmarshal([]byte(want), &expected); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, page, start, endpoint string
	}{
		{"same-origin", "/test/sw.html", `{ db: "same" }`, `location.origin + "/s3/"`},
		{"cross-origin", "/test/cross/sw.html", `{ endpoint: "http://s3.test/", db: "cross", scope: "/test/cross/" }`, `"http://s3.test/"`},
		// The SDK's default addressing: the bucket in the host name,
		// http://photos.s3.test/cat.txt.
		{"cross-origin, virtual-hosted", "/test/cross/sw.html", `{ endpoint: "http://s3.test/", db: "vhost", scope: "/test/cross/" }`, `"http://s3.test/", { forcePathStyle: false }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := openPage(t, tc.page)
			got := chrome.Eval[map[string]any](t, p, `
				await s3test.startMiniS3(`+tc.start+`);
				return await s3test.scenario(`+tc.endpoint+`);`)
			for k, w := range expected {
				if g := got[k]; !reflect.DeepEqual(g, w) {
					t.Errorf("%s: got %v, want %v", k, g, w)
				}
			}
			for k, g := range got {
				if _, ok := expected[k]; !ok {
					t.Errorf("%s: got %v, and the test expects nothing", k, g)
				}
			}
		})
	}
}

// workers follows the running status of the page's service workers through
// the DevTools protocol's ServiceWorker domain.
type workers struct {
	p *chrome.Page

	mu     sync.Mutex
	status map[string]serviceworker.VersionRunningStatus // by version ID
	starts int                                           // times a version went to "starting"
}

func watchWorkers(t testing.TB, p *chrome.Page) *workers {
	t.Helper()
	w := &workers{p: p, status: map[string]serviceworker.VersionRunningStatus{}}
	err := chromedp.Listen(p.Context(), func(ev any) {
		e, ok := ev.(*serviceworker.EventWorkerVersionUpdated)
		if !ok {
			return
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		for _, v := range e.Versions {
			if v.RunningStatus == serviceworker.VersionRunningStatusStarting && w.status[v.VersionID] != v.RunningStatus {
				w.starts++
			}
			w.status[v.VersionID] = v.RunningStatus
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	w.call(t, serviceworker.Enable)
	return w
}

func (w *workers) call(t testing.TB, cmd cdp.Command[cdp.Empty, cdp.Empty]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(w.p.Context(), chrome.EvalTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, cmd, cdp.Empty{}); err != nil {
		t.Fatalf("%s: %v", cmd.Method, err)
	}
}

// state is the number of starts seen and whether every known version is
// stopped.
func (w *workers) state() (starts int, allStopped bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	allStopped = len(w.status) > 0
	for _, s := range w.status {
		allStopped = allStopped && s == serviceworker.VersionRunningStatusStopped
	}
	return w.starts, allStopped
}

// stopAll stops every service worker, as the browser does to an idle one,
// and waits until the protocol reports them stopped.
func (w *workers) stopAll(t testing.TB) {
	t.Helper()
	w.call(t, serviceworker.StopAllWorkers)
	deadline := time.Now().Add(chrome.WaitTimeout)
	for {
		if _, stopped := w.state(); stopped {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the service workers did not stop: %v", w.status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServiceWorkerRestartLosesNothing writes through a worker at the
// same-origin endpoint, reads it back through a second worker over the same
// database at a cross-origin endpoint (in another tab, under another
// scope), stops both, and reads everything again through new starts of
// both: the versions, the bodies, the delete marker and the clock.
func TestServiceWorkerRestartLosesNothing(t *testing.T) {
	srv := chrome.Serve(t, chrome.Mounts{"/": chrome.Static(t), "/test/": "testdata", "/test/out/": bundle(t)}, nil)
	b := chrome.Launch(t)
	same := b.Open(t, srv.URL+"/test/sw.html")
	cross := b.Open(t, srv.URL+"/test/cross/sw.html")
	for _, p := range []*chrome.Page{same, cross} {
		p.WaitFor(t, `globalThis.s3test`)
	}
	w := watchWorkers(t, same)
	chrome.Eval[any](t, same, `
		await s3test.startMiniS3({ db: "restart" });
		const s3 = s3test.s3Client(location.origin + "/s3/");
		const Bucket = "kept";
		await s3.send(new s3test.CreateBucketCommand({ Bucket }));
		await s3.send(new s3test.PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: "Enabled" } }));
		for (const Body of ["first", "second"]) await s3.send(new s3test.PutObjectCommand({ Bucket, Key: "k", Body }));
		await s3.send(new s3test.DeleteObjectCommand({ Bucket, Key: "k" }));
		await s3test.setClock(location.origin + "/s3/", 100);`)
	chrome.Eval[any](t, cross, `await s3test.startMiniS3({ endpoint: "http://s3.test/", db: "restart", scope: "/test/cross/" });`)
	read := func(p *chrome.Page, endpoint string) string {
		t.Helper()
		got := chrome.Eval[any](t, p, `
			const endpoint = `+endpoint+`;
			const s3 = s3test.s3Client(endpoint);
			const body = async (VersionId) => (await s3.send(new s3test.GetObjectCommand({ Bucket: "kept", Key: "k", VersionId }))).Body.transformToString();
			const clock = await (await fetch(new URL("_minis3/clock", endpoint))).json();
			return { versions: await s3test.allVersions(s3, "kept", 1000), bodies: [await body("v00000001"), await body("v00000002")],
				current: await s3test.failure(s3.send(new s3test.GetObjectCommand({ Bucket: "kept", Key: "k" }))), now: clock.now };`)
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const want = `{"bodies":["first","second"],"current":"NoSuchKey 404","now":100,"versions":[["k v00000003 marker latest","k v00000002","k v00000001"]]}`
	check := func(when string) {
		t.Helper()
		if got := read(same, `location.origin + "/s3/"`); got != want {
			t.Errorf("%s, same-origin:\n got %s\nwant %s", when, got, want)
		}
		if got := read(cross, `"http://s3.test/"`); got != want {
			t.Errorf("%s, cross-origin:\n got %s\nwant %s", when, got, want)
		}
	}
	check("before the stop")
	startsBefore, _ := w.state()
	w.stopAll(t)
	check("after the stop")
	if starts, _ := w.state(); starts < startsBefore+2 {
		t.Errorf("the workers were not both started again after the stop (%d starts before, %d after)", startsBefore, starts)
	}
}

// TestServiceWorkerExtensions talks to the store's /_minis3/ extensions
// under the endpoint: the clock, a tick of the chapter's rules (its worked
// example), and the worker's own reset, which empties the store and sets
// its clock back to 0.
func TestServiceWorkerExtensions(t *testing.T) {
	p, _ := openPage(t, "/test/sw.html")
	got := chrome.Eval[map[string]any](t, p, `
		await s3test.startMiniS3({ db: "extensions" });
		const call = async (method, path, body) => {
			const res = await fetch("/s3/_minis3/" + path, { method, body: body && JSON.stringify(body) });
			const text = await res.text();
			return res.status + " " + text.trim();
		};
		const s3 = s3test.s3Client(location.origin + "/s3/");
		const out = {};
		await s3.send(new s3test.CreateBucketCommand({ Bucket: "demo" }));
		await s3.send(new s3test.PutBucketVersioningCommand({ Bucket: "demo", VersioningConfiguration: { Status: "Enabled" } }));
		await s3.send(new s3test.PutObjectCommand({ Bucket: "demo", Key: "logs/app.log", Body: "old" }));
		out.setClock = (await s3test.setClock(location.origin + "/s3/", 5)).now;
		await s3.send(new s3test.PutObjectCommand({ Bucket: "demo", Key: "logs/app.log", Body: "current" }));
		out.clock = JSON.parse((await call("GET", "clock")).slice(4)).now;
		await s3test.setClock(location.origin + "/s3/", 12);
		out.tick = await call("POST", "buckets/demo/lifecycle-tick",
			{ rules: [{ id: "logs", prefix: "logs/", expireCurrentAfter: 10, expireNoncurrentAfter: 12 }] });
		out.resetByGET = await call("GET", "reset");
		out.reset = await call("POST", "reset");
		out.bucketsAfterReset = ((await s3.send(new s3test.ListBucketsCommand({}))).Buckets ?? []).length;
		out.clockAfterReset = JSON.parse((await call("GET", "clock")).slice(4)).now;
		return out;`)
	wantTick := `200 {"actions":[{"ruleId":"logs","key":"logs/app.log","versionId":"v00000001","kind":"expire_noncurrent"}]}`
	for k, w := range map[string]any{
		"setClock": 5.0, "clock": 5.0, "tick": wantTick,
		"resetByGET": `405 <?xml version="1.0" encoding="UTF-8"?>` + "\n" +
			`<Error><Code>MethodNotAllowed</Code><Message>POST /_minis3/reset resets the store; no other method is allowed.</Message></Error>`,
		"reset": "204 ", "bucketsAfterReset": 0.0, "clockAfterReset": 0.0,
	} {
		if !reflect.DeepEqual(got[k], w) {
			t.Errorf("%s: got %#v, want %#v", k, got[k], w)
		}
	}
}

// TestServiceWorkerLeavesOtherRequestsToTheNetwork checks that the worker
// answers only under its endpoint: the page's own files, and a path that
// merely starts like the endpoint, come from the server.
func TestServiceWorkerLeavesOtherRequestsToTheNetwork(t *testing.T) {
	p, _ := openPage(t, "/test/sw.html")
	got := chrome.Eval[[]string](t, p, `
		await s3test.startMiniS3({ endpoint: "s3", db: "network" });
		const answer = async (path) => { const res = await fetch(path); return res.status + " " + (await res.text()).slice(0, 60); };
		return [await answer("/test/sw.html"), await answer("/s3x/demo"), await answer("/s3"), await answer("/s3/")];`)
	want := []string{
		"200 <!doctype html>\n<meta charset=\"utf-8\">\n<title>MiniS3 service",
		"404 404 page not found\n",
		"200 <?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListAllMyBucketsResu",
		"200 <?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListAllMyBucketsResu",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestServiceWorkerSaysWhyTheStoreCannotOpen gives the worker a database of
// a schema MiniS3 does not know: every request under the endpoint gets an
// S3 error saying which database failed and why, and nothing falls back to
// a store that would forget everything when the worker stops. A reset
// deletes that database, and the worker then serves an empty store.
func TestServiceWorkerSaysWhyTheStoreCannotOpen(t *testing.T) {
	p, _ := openPage(t, "/test/sw.html")
	got := chrome.Eval[[]string](t, p, `
		await new Promise((resolve, reject) => {
			const req = indexedDB.open("broken", 99);
			req.onsuccess = () => { req.result.close(); resolve(); };
			req.onerror = () => reject(req.error);
		});
		await s3test.startMiniS3({ db: "broken" });
		const out = [];
		for (const path of ["/s3/", "/s3/demo/k"]) {
			const res = await fetch(path);
			out.push(res.status + " " + await res.text());
		}
		return out;`)
	after := chrome.Eval[[]int](t, p, `
		const reset = await fetch("/s3/_minis3/reset", { method: "POST" });
		const list = await fetch("/s3/");
		await list.text();
		return [reset.status, list.status];`)
	if !reflect.DeepEqual(after, []int{204, 200}) {
		t.Errorf("reset, then ListBuckets: got statuses %v, want [204 200]", after)
	}
	for _, g := range got {
		for _, w := range []string{"500 ", "<Code>InternalError</Code>", `IndexedDB database "broken"`, "cannot be kept in IndexedDB", "schema version"} {
			if !strings.Contains(g, w) {
				t.Errorf("answer %q lacks %q", g, w)
			}
		}
	}
	if len(got) != 2 {
		t.Errorf("got %d answers, want 2", len(got))
	}
}
