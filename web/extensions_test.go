package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// call sends a JSON request to an extension endpoint and returns the status
// and the compacted JSON answer.
func (e *env) call(t *testing.T, method, path, body string) (int, string) {
	t.Helper()
	resp, data := e.raw(t, method, path, []byte(body), map[string]string{"Content-Type": "application/json"})
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s %s: answer %q is not JSON: %v", method, path, data, err)
	}
	out, _ := json.Marshal(v)
	return resp.StatusCode, string(out)
}

func (e *env) moveClock(t *testing.T, now float64) {
	t.Helper()
	if status, out := e.call(t, "PUT", "/_minis3/clock", fmt.Sprintf(`{"now": %v}`, now)); status != 200 {
		t.Fatalf("PUT clock %v: %d %s", now, status, out)
	}
}

const chapterRule = `{"rules": [{"id": "logs", "prefix": "logs/", "expireCurrentAfter": 10, "expireNoncurrentAfter": 12}]}`

// chapterSetup is the start of the chapter's hands-on experiment, over
// HTTP: a versioned bucket and two versions of logs/app.log, at 0 and 5.
func chapterSetup(t *testing.T) *env {
	e := newEnv(t, envOptions{})
	if _, err := e.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("demo")}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: aws.String("demo"),
		VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
		t.Fatal(err)
	}
	e.moveClock(t, 0)
	e.put(t, "demo", "logs/app.log", "old")
	e.moveClock(t, 5)
	e.put(t, "demo", "logs/app.log", "current")
	return e
}

// TestChapterWorkedExampleOverHTTP drives the chapter's hands-on experiment
// through the S3 API and the extensions and gets the chapter's results.
func TestChapterWorkedExampleOverHTTP(t *testing.T) {
	e := chapterSetup(t)
	e.moveClock(t, 12)
	status, out := e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-tick", chapterRule)
	if want := `{"actions":[{"key":"logs/app.log","kind":"expire_noncurrent","ruleId":"logs","versionId":"v00000001"}]}`; status != 200 || out != want {
		t.Errorf("tick at 12: %d %s\nwant %s", status, out, want)
	}
	e.moveClock(t, 15)
	status, out = e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-tick", chapterRule)
	if want := `{"actions":[{"key":"logs/app.log","kind":"expire_current","ruleId":"logs","versionId":"v00000002"}]}`; status != 200 || out != want {
		t.Errorf("tick at 15: %d %s\nwant %s", status, out, want)
	}
	_, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("logs/app.log")})
	wantAPIError(t, err, "NoSuchKey", 404)
	versions, err := e.client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String("demo")})
	if err != nil {
		t.Fatal(err)
	}
	if got := versionsPage(versions); got != "logs/app.log@v00000003(marker)* logs/app.log@v00000002" {
		t.Errorf("versions: %s, want [v00000003 marker, v00000002]", got)
	}
}

func TestLifecyclePreviewChangesNothing(t *testing.T) {
	e := chapterSetup(t)
	e.moveClock(t, 15)
	status, out := e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-preview", chapterRule)
	want := `{"actions":[{"key":"logs/app.log","kind":"expire_current","ruleId":"logs","versionId":"v00000002"},` +
		`{"key":"logs/app.log","kind":"expire_noncurrent","ruleId":"logs","versionId":"v00000001"}]}`
	if status != 200 || out != want {
		t.Errorf("preview: %d %s\nwant %s", status, out, want)
	}
	if got := e.getBody(t, "demo", "logs/app.log", ""); got != "current" {
		t.Errorf("after a preview the current body is %q, want current", got)
	}
	if _, again := e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-preview", chapterRule); again != want {
		t.Errorf("a second preview differs: %s", again)
	}
}

func TestLifecycleBoundaryIsInclusive(t *testing.T) {
	e := chapterSetup(t)
	rule := `{"rules": [{"id": "logs", "prefix": "logs/", "expireCurrentAfter": 10}]}`
	e.moveClock(t, 14.999)
	if _, out := e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-tick", rule); out != `{"actions":[]}` {
		t.Errorf("tick at 14.999: %s, want no actions", out)
	}
	e.moveClock(t, 15)
	if _, out := e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-tick", rule); !strings.Contains(out, `"kind":"expire_current"`) {
		t.Errorf("tick at 15: %s, want one expire_current", out)
	}
}

func TestTickWithoutRulesUsesTheStoredConfiguration(t *testing.T) {
	for _, body := range []string{"", "{}", `{"rules": null}`} {
		t.Run(fmt.Sprintf("body %q", body), func(t *testing.T) {
			e := chapterSetup(t)
			status, out := e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-tick", body)
			if status != 404 || !strings.Contains(out, `"code":"NoSuchLifecycleConfiguration"`) {
				t.Errorf("without a configuration: %d %s", status, out)
			}
			cfg := `<LifecycleConfiguration><Rule><ID>days</ID><Status>Enabled</Status><Filter><Prefix>logs/</Prefix></Filter>` +
				`<Expiration><Days>1</Days></Expiration></Rule><Rule><ID>off</ID><Status>Disabled</Status><Prefix></Prefix>` +
				`<Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>`
			if resp, data := e.raw(t, "PUT", "/demo?lifecycle", []byte(cfg), nil); resp.StatusCode != 200 {
				t.Fatalf("PUT lifecycle: %d %s", resp.StatusCode, data)
			}
			e.moveClock(t, 5+86399)
			if _, out := e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-tick", body); out != `{"actions":[]}` {
				t.Errorf("a second before a day: %s", out)
			}
			e.moveClock(t, 5+86400)
			want := `{"actions":[{"key":"logs/app.log","kind":"expire_current","ruleId":"days","versionId":"v00000002"}]}`
			if _, out := e.call(t, "POST", "/_minis3/buckets/demo/lifecycle-tick", body); out != want {
				t.Errorf("a day after: %s\nwant %s", out, want)
			}
		})
	}
}

func TestExtensionErrors(t *testing.T) {
	e := chapterSetup(t)
	tests := []struct {
		name, method, path, body, code string
		status                         int
	}{
		{"a negative threshold", "POST", "/_minis3/buckets/demo/lifecycle-tick", `{"rules": [{"id": "r", "expireCurrentAfter": -1}]}`, "InvalidArgument", 400},
		{"a rule without a threshold", "POST", "/_minis3/buckets/demo/lifecycle-tick", `{"rules": [{"id": "r", "prefix": "logs/"}]}`, "InvalidArgument", 400},
		{"a threshold that is not a number", "POST", "/_minis3/buckets/demo/lifecycle-tick", `{"rules": [{"id": "r", "expireCurrentAfter": "10"}]}`, "InvalidArgument", 400},
		{"a misspelt field", "POST", "/_minis3/buckets/demo/lifecycle-tick", `{"rules": [{"id": "r", "expireCurentAfter": 1}]}`, "InvalidArgument", 400},
		{"a body that is not JSON", "POST", "/_minis3/buckets/demo/lifecycle-preview", `rules please`, "InvalidArgument", 400},
		{"a missing bucket", "POST", "/_minis3/buckets/nothere/lifecycle-tick", chapterRule, "NoSuchBucket", 404},
		{"a clock without now", "PUT", "/_minis3/clock", `{}`, "InvalidArgument", 400},
		{"a clock that is not a number", "PUT", "/_minis3/clock", `{"now": "soon"}`, "InvalidArgument", 400},
		{"GET on a tick", "GET", "/_minis3/buckets/demo/lifecycle-tick", "", "MethodNotAllowed", 405},
		{"an unknown endpoint", "GET", "/_minis3/nothing", "", "NotFound", 404},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is "+tt.code, func(t *testing.T) {
			status, out := e.call(t, tt.method, tt.path, tt.body)
			var got struct{ Code, Message string }
			if err := json.Unmarshal([]byte(out), &got); err != nil || status != tt.status || got.Code != tt.code || got.Message == "" {
				t.Errorf("got %d %s, want %d with code %s and a message", status, out, tt.status, tt.code)
			}
		})
	}
	if got := e.getBody(t, "demo", "logs/app.log", ""); got != "current" {
		t.Errorf("refused ticks changed the bucket: body %q", got)
	}
	if status, out := e.call(t, "GET", "/_minis3/clock", ""); status != 200 || out != `{"now":5}` {
		t.Errorf("GET clock: %d %s, want {\"now\":5}", status, out)
	}
}

func TestWallClockCannotBeSet(t *testing.T) {
	e := newEnv(t, envOptions{wallClock: true})
	status, out := e.call(t, "PUT", "/_minis3/clock", `{"now": 15}`)
	if status != 400 || !strings.Contains(out, `"code":"InvalidRequest"`) || !strings.Contains(out, "--clock manual") {
		t.Errorf("got %d %s, want a 400 InvalidRequest that says how to get a manual clock", status, out)
	}
}
