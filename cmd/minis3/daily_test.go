package main

import (
	"strings"
	"sync"
	"testing"
	"time"

	"minis3/core"
)

// On the wall clock the stored configurations run when the server starts,
// catching up day by day on the midnights passed while it was stopped, each
// run at its midnight, then after each midnight UTC; the wait asked for
// ends at that midnight.
func TestDailyRunsCatchUpThenRunAfterEachMidnight(t *testing.T) {
	var mu sync.Mutex
	wall := time.Date(2025, 12, 4, 10, 30, 0, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return wall }
	setWall := func(t time.Time) { mu.Lock(); defer mu.Unlock(); wall = t }
	store, err := core.Open(core.NewMemoryStorage(), core.Options{Clock: func() float64 { return float64(now().Unix()) }})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := store.CreateBucket("demo"); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"one", "two"} {
		if _, err := store.PutObject("demo", key, []byte(key), core.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	days := 1
	if err := store.PutBucketLifecycle("demo", core.LifecycleConfiguration{Rules: []core.LifecycleRule{{
		ID: "day", Enabled: true, Filter: &core.LifecycleFilter{}, Expiration: &core.LifecycleExpiration{Days: &days},
	}}}); err != nil {
		t.Fatal(err)
	}
	// The server ran its day on 2025-12-04, then was stopped for two
	// days: it starts on 2025-12-06.
	if _, err := store.RunDueLifecycles(); err != nil {
		t.Fatal(err)
	}
	setWall(time.Date(2025, 12, 6, 9, 0, 0, 0, time.UTC))

	waits := make(chan time.Duration)
	wake := make(chan time.Time)
	after := func(d time.Duration) <-chan time.Time { waits <- d; return wake }
	stop, done := make(chan struct{}), make(chan struct{})
	var log syncBuffer
	go dailyRuns(store, now, after, stop, done, &log)

	if d := <-waits; d != 15*time.Hour {
		t.Errorf("first wait %v, want 15h: until 2025-12-07T00:00Z", d)
	}
	if got := log.String(); got != "lifecycle: bucket demo: 2 actions at 2025-12-06T00:00:00Z\n" {
		t.Errorf("the catch-up run logged %q", got)
	}
	list, err := store.ListObjectsV2("demo", core.ListObjectsOptions{})
	if err != nil || len(list.Objects) != 0 {
		t.Errorf("after the catch-up run: %+v %v, want no objects", list.Objects, err)
	}

	// The next midnight: nothing is left to do; the wait is a whole day.
	setWall(time.Date(2025, 12, 7, 0, 0, 0, 0, time.UTC))
	wake <- wall
	if d := <-waits; d != 24*time.Hour {
		t.Errorf("second wait %v, want 24h", d)
	}
	if got := strings.Count(log.String(), "\n"); got != 1 {
		t.Errorf("a run that did nothing logged: %q", log.String())
	}
	close(stop)
	<-done
}
