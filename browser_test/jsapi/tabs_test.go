//go:build !js

package jsapi_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"minis3/browser_test/chrome"
)

// TestTwoTabsShareDatabase opens the page in two tabs of one browser (same
// origin, same IndexedDB database) and interleaves PUTs, clock moves and
// lifecycle ticks between them through window.minis3. Every PUT gets a
// version ID of its own, and afterwards each tab lists the versions of both
// and sees the last clock.
func TestTwoTabsShareDatabase(t *testing.T) {
	b, p1, url := openPage(t, "/test/jsapi.html")
	p2 := b.Open(t, url+"/test/jsapi.html")
	tabs := []*chrome.Page{p1, p2}
	for _, p := range tabs {
		waitLoaded(t, p)
		chrome.Eval[any](t, p, `globalThis.store = await minis3.open({ db: "tabs" }); return null`)
	}
	chrome.Eval[any](t, p1, `await store.createBucket("demo"); return null`)
	chrome.Eval[any](t, p2, `await store.setBucketVersioning("demo", "enabled"); return null`)
	var want []string
	for i := range 6 {
		p := tabs[i%2]
		text := fmt.Sprintf("tab%d-%d", i%2+1, i)
		id := chrome.Eval[string](t, p, fmt.Sprintf(`
			const r = await store.put("demo", "k", %q);
			await store.setClock(%d);
			await store.tick("demo", [{ id: "old", prefix: "", expireNoncurrentAfter: 1000 }]);
			return r.versionId;`, text, 10*(i+1)))
		want = append(want, id+" "+text)
	}
	slices.Sort(want)
	if len(slices.Compact(slices.Clone(want))) != len(want) {
		t.Fatalf("a version ID was used twice: %q", want)
	}
	type listing struct {
		Versions []string `json:"versions"`
		Now      float64  `json:"now"`
	}
	for n, p := range tabs {
		got := chrome.Eval[listing](t, p, `
			const versions = [];
			for (const v of await store.listVersions("demo")) {
				const o = await store.get("demo", "k", { versionId: v.versionId });
				versions.push(v.versionId + " " + o.text);
			}
			versions.sort();
			return { versions, now: store.now() };`)
		if !slices.Equal(got.Versions, want) || got.Now != 60 {
			t.Errorf("tab %d lists %q at clock %v, want %q at 60", n+1, got.Versions, got.Now, want)
		}
	}
}

// raceOps is how many operations each tab issues at once in
// TestTwoTabsNeverRefuseAWrite.
const raceOps = 200

// raceOutcome is one operation of TestTwoTabsNeverRefuseAWrite as its tab
// saw it settle.
type raceOutcome struct {
	Kind         string  `json:"kind"` // "put", "delete", "clock", or "failed"
	Key          string  `json:"key"`
	Body         string  `json:"body"`
	VersionID    string  `json:"versionId"`
	ETag         string  `json:"etag"`
	DeleteMarker bool    `json:"deleteMarker"`
	Now          float64 `json:"now"`
	Error        string  `json:"error"`
}

// TestTwoTabsNeverRefuseAWrite has two tabs of one browser write to one
// database at once: each issues raceOps PUTs, DELETEs (delete markers) and
// setClocks without awaiting any of them. Every operation succeeds, no
// version ID is handed out twice, the tabs' writes interleave, and after a
// reload both tabs list exactly the versions that were acknowledged, with
// the same clock.
func TestTwoTabsNeverRefuseAWrite(t *testing.T) {
	b, p1, url := openPage(t, "/test/jsapi.html")
	p2 := b.Open(t, url+"/test/jsapi.html")
	tabs := []*chrome.Page{p1, p2}
	const open = `globalThis.store = await minis3.open({ db: "race" }); return store.writeLock`
	for n, p := range tabs {
		waitLoaded(t, p)
		if lock := chrome.Eval[string](t, p, open); lock != "web-locks" {
			t.Fatalf("tab %d: store.writeLock = %q, want web-locks", n+1, lock)
		}
	}
	chrome.Eval[any](t, p1, `
		await store.createBucket("race");
		await store.setBucketVersioning("race", "enabled");
		return null`)

	start := time.Now()
	for n, p := range tabs {
		chrome.Eval[any](t, p, fmt.Sprintf(`
			const tab = %d, ops = [];
			for (let i = 0; i < %d; i++) {
				const key = "k" + (i %% 7);
				if (i %% 10 === 9) {
					const now = 1000 * tab + i;
					ops.push(store.setClock(now).then(() => ({ kind: "clock", now })));
				} else if (i %% 10 === 3 || i %% 10 === 7) {
					ops.push(store.delete("race", key).then((r) => ({ kind: "delete", key, ...r })));
				} else {
					const body = "tab" + tab + " op" + i;
					ops.push(store.put("race", key, body).then((r) => ({ kind: "put", key, body, ...r })));
				}
			}
			globalThis.race = Promise.allSettled(ops);
			return null`, n+1, raceOps))
	}
	outcomes := make([][]raceOutcome, len(tabs))
	for n, p := range tabs {
		outcomes[n] = chrome.Eval[[]raceOutcome](t, p, `
			return (await race).map((r) => r.status === "fulfilled" ? r.value : { kind: "failed", error: String(r.reason?.message ?? r.reason) });`)
	}
	t.Logf("%d operations from %d tabs settled in %v", len(tabs)*raceOps, len(tabs), time.Since(start).Round(time.Millisecond))

	var want, failed []string
	clocks := map[float64]bool{}
	tabOf := map[string]int{} // version ID → the tab that wrote it
	for n, out := range outcomes {
		if len(out) != raceOps {
			t.Fatalf("tab %d reports %d operations, want %d", n+1, len(out), raceOps)
		}
		for _, o := range out {
			switch o.Kind {
			case "failed":
				failed = append(failed, o.Error)
				continue
			case "clock":
				clocks[o.Now] = true
				continue
			case "put":
				if o.ETag != md5Hex(o.Body) {
					t.Errorf("tab %d: PUT of %q answered ETag %s, want %s", n+1, o.Body, o.ETag, md5Hex(o.Body))
				}
				want = append(want, o.Key+" "+o.VersionID+" "+o.ETag)
			case "delete":
				if !o.DeleteMarker {
					t.Errorf("tab %d: DELETE of %s answered %+v, want a delete marker", n+1, o.Key, o)
				}
				want = append(want, o.Key+" "+o.VersionID+" marker")
			}
			if w, ok := tabOf[o.VersionID]; ok {
				t.Errorf("version ID %s was handed out to tab %d and tab %d", o.VersionID, w+1, n+1)
			}
			tabOf[o.VersionID] = n
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d operations failed, the first: %s", len(failed), len(tabs)*raceOps, failed[0])
	}
	// The tabs really wrote at once: in the order of version IDs (the
	// order of the commits), the writing tab changes again and again.
	ids := slices.Sorted(maps.Keys(tabOf))
	switches := 0
	for i := 1; i < len(ids); i++ {
		if tabOf[ids[i]] != tabOf[ids[i-1]] {
			switches++
		}
	}
	if switches < raceOps/50 {
		t.Errorf("in commit order the writing tab changed %d times, want at least %d: the tabs did not write at once", switches, raceOps/50)
	}
	t.Logf("in commit order the writing tab changed %d times", switches)
	slices.Sort(want)

	type listing struct {
		Versions []string `json:"versions"`
		Now      float64  `json:"now"`
	}
	nows := map[float64]bool{}
	for n, p := range tabs {
		p.Reload(t)
		waitLoaded(t, p)
		got := chrome.Eval[listing](t, p, `
			const store = await minis3.open({ db: "race" });
			const versions = (await store.listVersions("race")).map((v) =>
				v.key + " " + v.versionId + " " + (v.isDeleteMarker ? "marker" : v.etag));
			versions.sort();
			return { versions, now: store.now() };`)
		if !slices.Equal(got.Versions, want) {
			t.Errorf("after a reload tab %d lists %d versions, want the %d acknowledged; missing %q, unexpected %q",
				n+1, len(got.Versions), len(want), difference(want, got.Versions), difference(got.Versions, want))
		}
		if !clocks[got.Now] {
			t.Errorf("after a reload tab %d's clock is %v, which no setClock set", n+1, got.Now)
		}
		nows[got.Now] = true
	}
	if len(nows) != 1 {
		t.Errorf("after a reload the tabs' clocks differ: %v", slices.Collect(maps.Keys(nows)))
	}
}

// difference is the strings of a that are not in b, in a's order.
func difference(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}
