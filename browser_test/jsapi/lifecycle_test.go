//go:build !js

package jsapi_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"minis3/browser_test/chrome"
)

// TestS3LifecycleSurvivesReload stores an S3 lifecycle configuration and
// a tagged object through window.minis3, moves the clock past a midnight,
// reloads the page, and checks that the reopened store has the same
// configuration, tags, storage class, clock and origin, that store.fetch
// serves them as S3 XML, and that the next midnight runs the configuration.
func TestS3LifecycleSurvivesReload(t *testing.T) {
	_, p, _ := openPage(t, "/test/jsapi.html")
	waitLoaded(t, p)

	type state struct {
		Origin float64         `json:"origin"`
		Now    float64         `json:"now"`
		Config json.RawMessage `json:"config"`
		Head   json.RawMessage `json:"head"`
		Tags   json.RawMessage `json:"tags"`
		Runs   json.RawMessage `json:"runs"`
	}
	before := chrome.Eval[state](t, p, `
		const store = await minis3.open({ db: "lifecycle" });
		await store.createBucket("demo");
		await store.setBucketVersioning("demo", "enabled");
		await store.putBucketLifecycle("demo", { Rules: [
			{ ID: "temp", Status: "Enabled", Filter: { Tag: { Key: "temp", Value: "yes" } }, Expiration: { Days: 2 } },
			{ ID: "archive", Status: "Enabled", Filter: { Prefix: "cold/" }, Transitions: [{ Days: 0, StorageClass: "GLACIER" }] },
		] });
		await store.setClock(3600);
		await store.put("demo", "k", "x", { tags: [{ key: "temp", value: "yes" }], storageClass: "STANDARD_IA" });
		await store.put("demo", "cold/x", "y");
		const runs = await store.setClock(86400 + 60);
		return {
			origin: store.origin(), now: store.now(), runs,
			config: await store.getBucketLifecycle("demo"),
			head: await store.head("demo", "k"),
			tags: await store.getObjectTagging("demo", "k"),
		};`)
	day := func(n int) string {
		return time.Unix(int64(before.Origin)+int64(n)*86400, 0).UTC().Format(time.RFC3339)
	}
	if before.Origin != float64(int64(before.Origin)/86400*86400) {
		t.Errorf("origin() = %v, want a midnight UTC", before.Origin)
	}
	wantRuns := `[{"bucket":"demo","at":86400,"time":"` + day(1) + `","actions":[{"ruleId":"archive","key":"cold/x","versionId":"v00000002","kind":"transition","storageClass":"GLACIER"}]}]`
	if string(before.Runs) != wantRuns {
		t.Errorf("setClock past the first midnight = %s, want %s", before.Runs, wantRuns)
	}

	p.Reload(t)
	waitLoaded(t, p)
	type reopened struct {
		state
		LifecycleXML string `json:"lifecycleXML"`
		TaggingXML   string `json:"taggingXML"`
		Clock        struct {
			Origin float64 `json:"origin"`
		} `json:"clock"`
		ColdClass string `json:"coldClass"`
		Get       string `json:"get"`
	}
	after := chrome.Eval[reopened](t, p, `
		const store = await minis3.open({ db: "lifecycle" });
		const out = {
			origin: store.origin(), now: store.now(),
			config: await store.getBucketLifecycle("demo"),
			head: await store.head("demo", "k"),
			tags: await store.getObjectTagging("demo", "k"),
			lifecycleXML: await (await store.fetch("/demo?lifecycle")).text(),
			taggingXML: await (await store.fetch("/demo/k?tagging")).text(),
			clock: await (await store.fetch("/_minis3/clock")).json(),
			coldClass: (await store.head("demo", "cold/x")).storageClass,
		};
		out.runs = await store.setClock(3 * 86400);
		try { await store.get("demo", "k"); out.get = "resolved"; } catch (e) { out.get = e.code; }
		return out;`)
	if after.Origin != before.Origin || after.Clock.Origin != before.Origin || after.Now != 86400+60 {
		t.Errorf("after reload: origin() %v, /_minis3/clock's origin %v, now() %v; want %v, %v, %v",
			after.Origin, after.Clock.Origin, after.Now, before.Origin, before.Origin, 86400+60)
	}
	for name, pair := range map[string][2]json.RawMessage{
		"getBucketLifecycle": {before.Config, after.Config},
		"head":               {before.Head, after.Head},
		"getObjectTagging":   {before.Tags, after.Tags},
	} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("%s after reload = %s, want %s", name, pair[1], pair[0])
		}
	}
	if !strings.Contains(string(before.Head), `"storageClass":"STANDARD_IA","tagCount":1,"expiration":{"date":"`+day(3)+`","ruleId":"temp"}`) {
		t.Errorf("head = %s, want STANDARD_IA, 1 tag, expiring at %s by rule temp", before.Head, day(3))
	}
	for _, want := range []string{"<ID>temp</ID>", "<ID>archive</ID>", "<StorageClass>GLACIER</StorageClass>"} {
		if !strings.Contains(after.LifecycleXML, want) {
			t.Errorf("GET /demo?lifecycle through store.fetch lacks %s:\n%s", want, after.LifecycleXML)
		}
	}
	if !strings.Contains(after.TaggingXML, "<Key>temp</Key>") || !strings.Contains(after.TaggingXML, "<Value>yes</Value>") {
		t.Errorf("GET /demo/k?tagging through store.fetch = %s, want the tag temp=yes", after.TaggingXML)
	}
	if after.ColdClass != "GLACIER" {
		t.Errorf("storage class of cold/x after reload = %s, want GLACIER", after.ColdClass)
	}
	wantRuns = `[{"bucket":"demo","at":259200,"time":"` + day(3) + `","actions":[{"ruleId":"temp","key":"k","versionId":"v00000001","kind":"expire_current"}]}]`
	if string(after.Runs) != wantRuns || after.Get != "NoSuchKey" {
		t.Errorf("setClock to 3 days after reload = %s, then get %s; want %s, then NoSuchKey", after.Runs, after.Get, wantRuns)
	}
}
