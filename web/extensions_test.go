package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"minis3/core"
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

// A tick runs the chapter's rules, which it must be given: the stored S3
// configuration never runs in a tick, only at midnight or at lifecycle-run.
// A request without them, an empty body included, is told both.
func TestTickNeedsTheChapterRules(t *testing.T) {
	e := chapterSetup(t)
	putLifecycle(t, e, "demo", oneDay)
	e.moveClock(t, 2*day)
	for _, body := range []string{"", "{}", `{"rules": null}`} {
		for _, path := range []string{"/_minis3/buckets/demo/lifecycle-tick", "/_minis3/buckets/demo/lifecycle-preview"} {
			status, out := e.call(t, "POST", path, body)
			if status != 400 || !strings.Contains(out, `"code":"InvalidArgument"`) || !strings.Contains(out, `the chapter's rules`) || !strings.Contains(out, `lifecycle-run`) {
				t.Errorf("POST %s with %q: %d %s, want 400 InvalidArgument saying what to send", path, body, status, out)
			}
		}
	}
}

const day = 86400

// oneDay is an S3 configuration that expires logs/ a day after creation.
const oneDay = `<LifecycleConfiguration><Rule><ID>days</ID><Status>Enabled</Status><Filter><Prefix>logs/</Prefix></Filter>` +
	`<Expiration><Days>1</Days></Expiration></Rule><Rule><ID>off</ID><Status>Disabled</Status><Filter><Prefix></Prefix></Filter>` +
	`<Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>`

func putLifecycle(t *testing.T, e *env, bucket, cfg string) {
	t.Helper()
	if resp, data := e.raw(t, "PUT", "/"+bucket+"?lifecycle", []byte(cfg), nil); resp.StatusCode != 200 {
		t.Fatalf("PUT lifecycle: %d %s", resp.StatusCode, data)
	}
}

// lifecycle-run runs the stored configuration at the clock's instant, as
// S3's daily run would: Days count to the midnight after creation plus
// Days [ref §5.5]; lifecycle-run-preview says what it would do.
func TestLifecycleRunRunsTheStoredConfigurationNow(t *testing.T) {
	e := chapterSetup(t) // logs/app.log: v00000001 at 0, v00000002 at 5
	putLifecycle(t, e, "demo", oneDay)
	run := func(path string) string {
		t.Helper()
		status, out := e.call(t, "POST", "/_minis3/buckets/demo/"+path, "")
		if status != 200 {
			t.Fatalf("POST %s: %d %s", path, status, out)
		}
		return out
	}
	// The clock moves by setting it to the second before each midnight, so
	// that no daily run takes the action before lifecycle-run does.
	e.moveClock(t, 2*day-1)
	if out := run("lifecycle-run-preview"); out != `{"actions":[]}` {
		t.Errorf("preview a second before the second midnight: %s", out)
	}
	status, out := e.call(t, "PUT", "/_minis3/clock", fmt.Sprintf(`{"now": %d}`, 2*day))
	want := `{"now":172800,"origin":1764806400,"runs":[{"actions":[{"key":"logs/app.log","kind":"expire_current","ruleId":"days","versionId":"v00000002"}],` +
		`"at":172800,"bucket":"demo","time":"2025-12-06T00:00:00Z"}],"time":"2025-12-06T00:00:00Z"}`
	if status != 200 || out != want {
		t.Errorf("the clock at the second midnight: %d %s\nwant %s", status, out, want)
	}
	if out := run("lifecycle-run"); out != `{"actions":[]}` {
		t.Errorf("a run after the daily run: %s", out)
	}
}

// Moving the clock by a time of day, or backwards, runs nothing; a move by
// RFC 3339 time lands where it says.
func TestClockMovesByTimeAndRunsEachMidnightPassed(t *testing.T) {
	e := chapterSetup(t)
	putLifecycle(t, e, "demo", `<LifecycleConfiguration><Rule><ID>nc</ID><Status>Enabled</Status><Filter/>`+
		`<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration></Rule></LifecycleConfiguration>`)
	status, out := e.call(t, "PUT", "/_minis3/clock", `{"time": "2025-12-04T23:59:59Z"}`)
	if status != 200 || out != `{"now":86399,"origin":1764806400,"runs":[],"time":"2025-12-04T23:59:59Z"}` {
		t.Errorf("before the first midnight: %d %s", status, out)
	}
	status, out = e.call(t, "PUT", "/_minis3/clock", `{"time": "2025-12-09T12:00:00+01:00"}`)
	want := `{"now":471600,"origin":1764806400,"runs":[{"actions":[{"key":"logs/app.log","kind":"expire_noncurrent","ruleId":"nc","versionId":"v00000001"}],` +
		`"at":172800,"bucket":"demo","time":"2025-12-06T00:00:00Z"}],"time":"2025-12-09T11:00:00Z"}`
	if status != 200 || out != want {
		t.Errorf("five midnights later: %d %s\nwant %s", status, out, want)
	}
	if status, out := e.call(t, "PUT", "/_minis3/clock", `{"now": 0}`); status != 200 || !strings.Contains(out, `"runs":[]`) {
		t.Errorf("back to 0: %d %s", status, out)
	}
}

func TestExtensionErrors(t *testing.T) {
	e := chapterSetup(t)
	rules := make([]string, core.MaxLifecycleRules+1)
	for i := range rules {
		rules[i] = fmt.Sprintf(`{"id": "r%d", "expireCurrentAfter": 0}`, i)
	}
	tooManyRules := `{"rules": [` + strings.Join(rules, ",") + `]}`
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
		{"a clock with now and time", "PUT", "/_minis3/clock", `{"now": 1, "time": "2025-12-04T00:00:00Z"}`, "InvalidArgument", 400},
		{"a time that is not RFC 3339", "PUT", "/_minis3/clock", `{"time": "tomorrow"}`, "InvalidArgument", 400},
		{"a time before the year 1", "PUT", "/_minis3/clock", `{"now": -1e12}`, "InvalidArgument", 400},
		{"a time after the year 9999", "PUT", "/_minis3/clock", `{"now": 1e12}`, "InvalidArgument", 400},
		{"a tick of 1001 rules", "POST", "/_minis3/buckets/demo/lifecycle-tick", tooManyRules, "InvalidArgument", 400},
		{"a preview of 1001 rules", "POST", "/_minis3/buckets/demo/lifecycle-preview", tooManyRules, "InvalidArgument", 400},
		{"a run with a body", "POST", "/_minis3/buckets/demo/lifecycle-run", `{"rules": []}`, "InvalidArgument", 400},
		{"a run of a missing bucket", "POST", "/_minis3/buckets/nothere/lifecycle-run", "", "NoSuchBucket", 404},
		{"GET on a run", "GET", "/_minis3/buckets/demo/lifecycle-run-preview", "", "MethodNotAllowed", 405},
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
	want := `{"now":5,"origin":1764806400,"time":"2025-12-04T00:00:05Z"}`
	if status, out := e.call(t, "GET", "/_minis3/clock", ""); status != 200 || out != want {
		t.Errorf("GET clock: %d %s, want %s", status, out, want)
	}
}

func TestWallClockCannotBeSet(t *testing.T) {
	e := newEnv(t, envOptions{wallClock: true})
	status, out := e.call(t, "PUT", "/_minis3/clock", `{"now": 15}`)
	if status != 400 || !strings.Contains(out, `"code":"InvalidRequest"`) || !strings.Contains(out, "--clock manual") {
		t.Errorf("got %d %s, want a 400 InvalidRequest that says how to get a manual clock", status, out)
	}
}
