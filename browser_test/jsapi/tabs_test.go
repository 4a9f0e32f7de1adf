//go:build !js

package jsapi_test

import (
	"fmt"
	"slices"
	"testing"

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
