package workertest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// nextMidnight is the first midnight UTC after t.
func nextMidnight(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, time.UTC)
}

// test sends a request to a test route of entry.mjs for accessKey's store
// (query included in what) and decodes its JSON answer into out.
func (w *worker) test(t testing.TB, method, what, accessKey, query string, out any) {
	t.Helper()
	c := &conn{url: w.URL, http: w.http}
	status, body := c.do(t, method, "/_test/"+what+"/"+accessKey+query, "", false)
	if err := json.Unmarshal(body, out); status != 200 || err != nil {
		t.Fatalf("%s /_test/%s/%s%s: %d %s", method, what, accessKey, query, status, body)
	}
}

// alarm returns the time of accessKey's store's alarm (the zero time for
// none), or, with fire, runs the alarm now and returns the next one.
func (w *worker) alarm(t *testing.T, accessKey string, fire bool) time.Time {
	t.Helper()
	method := "GET"
	if fire {
		method = "POST"
	}
	var answer struct{ Alarm *int64 }
	w.test(t, method, "alarm", accessKey, "", &answer)
	if answer.Alarm == nil {
		return time.Time{}
	}
	return time.UnixMilli(*answer.Alarm).UTC()
}

// later moves accessKey's store's wall clock d ahead of the real one.
func (w *worker) later(t *testing.T, accessKey string, d time.Duration) {
	t.Helper()
	w.test(t, "POST", "clock", accessKey, fmt.Sprintf("?offsetMs=%d", d.Milliseconds()), &struct{}{})
}

// evict drops accessKey's store's Durable Object from memory, its Go
// instance with it.
func (w *worker) evict(t *testing.T, accessKey string) {
	t.Helper()
	var answer struct{ Evicted bool }
	if w.test(t, "POST", "evict", accessKey, "", &answer); !answer.Evicted {
		t.Fatalf("%s's store was not evicted", accessKey)
	}
}

// TestWallClockRunsTheLifecycleEveryMidnight runs a class on the wall
// clock, whose time the test moves ahead for a store (entry.mjs): the
// clock cannot be set, each store keeps an alarm at the next midnight UTC,
// the alarm runs the S3 lifecycle that fell due with no request at all
// and sets the next one, and a store evicted from memory while midnights
// passed runs them before it answers again.
func TestWallClockRunsTheLifecycleEveryMidnight(t *testing.T) {
	w := startWorker(t, "wall")
	alice := w.conn(t, "alice")
	alice.bucket(t, "logs", false)
	alice.put(t, "logs", "logs/first.log", []byte("first"))
	must(alice.client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: aws.String("logs"),
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: []types.LifecycleRule{{ID: aws.String("logs"),
			Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(1)}}}}}))(t)

	status, body := alice.do(t, "PUT", "/_minis3/clock", `{"now": 100}`, true)
	if status != 400 || !strings.Contains(string(body), "wall clock") {
		t.Errorf("setting a wall clock: %d %s, want it refused", status, body)
	}
	if got, want := w.alarm(t, "alice", false), nextMidnight(time.Now()); !got.Equal(want) {
		t.Errorf("the alarm after the store opened: %v, want the next midnight UTC, %v", got, want)
	}

	// Three days later, the alarm fires with no request.
	const day = 24 * time.Hour
	w.evict(t, "alice")
	w.later(t, "alice", 3*day)
	if got, want := w.alarm(t, "alice", true), nextMidnight(time.Now().Add(3*day)); !got.Equal(want) {
		t.Errorf("the alarm after it fired: %v, want the next midnight UTC three days on, %v", got, want)
	}
	_, err := alice.get(t, "logs", "logs/first.log", "")
	wantError(t, err, "NoSuchKey", 404)

	// Three more days pass, evicted, with no alarm: the next request runs them.
	alice.put(t, "logs", "logs/second.log", []byte("second"))
	w.evict(t, "alice")
	w.later(t, "alice", 6*day)
	_, err = alice.get(t, "logs", "logs/second.log", "")
	wantError(t, err, "NoSuchKey", 404)
}
