package workertest

import (
	"encoding/json"
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

// alarm asks the test entry for the time of accessKey's store's alarm, or
// (fire) runs the alarm now and returns the next one; the zero time for
// none.
func (w *worker) alarm(t *testing.T, accessKey string, fire bool) time.Time {
	t.Helper()
	method := "GET"
	if fire {
		method = "POST"
	}
	c := &conn{url: w.URL, http: w.http}
	status, body := c.do(t, method, "/_test/alarm/"+accessKey, "", false)
	var answer struct{ Alarm *int64 }
	if err := json.Unmarshal(body, &answer); status != 200 || err != nil {
		t.Fatalf("%s /_test/alarm/%s: %d %s", method, accessKey, status, body)
	}
	if answer.Alarm == nil {
		return time.Time{}
	}
	return time.UnixMilli(*answer.Alarm).UTC()
}

// TestWallClockRunsTheLifecycleEveryMidnight runs a class on the wall
// clock, whose time the test moves ahead by restarting Miniflare with the
// stores' clock offset (entry.mjs): the clock cannot be set, each store
// keeps an alarm at the next midnight UTC, the alarm runs the S3
// lifecycle that fell due with no request at all and sets the next one,
// and a store opened after midnights it missed runs them before it
// answers.
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
	w.restart(t, map[string]any{"clockOffsetMs": (3 * day).Milliseconds()})
	alice = w.conn(t, "alice")
	if got, want := w.alarm(t, "alice", true), nextMidnight(time.Now().Add(3*day)); !got.Equal(want) {
		t.Errorf("the alarm after it fired: %v, want the next midnight UTC three days on, %v", got, want)
	}
	_, err := alice.get(t, "logs", "logs/first.log", "")
	wantError(t, err, "NoSuchKey", 404)

	// Three more days pass with no alarm: the next request runs them.
	alice.put(t, "logs", "logs/second.log", []byte("second"))
	w.restart(t, map[string]any{"clockOffsetMs": (6 * day).Milliseconds()})
	alice = w.conn(t, "alice")
	_, err = alice.get(t, "logs", "logs/second.log", "")
	wantError(t, err, "NoSuchKey", 404)
}
