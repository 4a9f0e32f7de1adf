package main

import (
	"fmt"
	"io"
	"time"

	"minis3/core"
)

// S3 runs a bucket's lifecycle configuration once a day. On the wall clock
// "minis3 serve" does the same: when it starts it runs every bucket's
// stored configuration at each midnight UTC that passed since the last run
// (while it was stopped, say), day by day, then after each midnight UTC.
// On the manual clock the store runs them itself, as the clock is moved.

// dailyRuns runs store's lifecycle configurations at each midnight UTC
// until stop is closed, then closes done. after waits, as time.After does;
// each run is logged to logw.
func dailyRuns(store *core.Store, now func() time.Time, after func(time.Duration) <-chan time.Time, stop <-chan struct{}, done chan<- struct{}, logw io.Writer) {
	defer close(done)
	for {
		runs, err := store.RunDueLifecycles()
		logRuns(logw, runs, err)
		t := now().UTC()
		midnight := time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, time.UTC)
		select {
		case <-stop:
			return
		case <-after(midnight.Sub(t)):
		}
	}
}

// logRuns writes one line for each bucket run that did something, and one
// for a run that failed.
func logRuns(w io.Writer, runs []core.LifecycleRun, err error) {
	for _, r := range runs {
		fmt.Fprintf(w, "lifecycle: bucket %s: %d actions at %s\n", r.Bucket, len(r.Actions), time.Unix(int64(r.At), 0).UTC().Format(time.RFC3339))
	}
	if err != nil {
		fmt.Fprintf(w, "lifecycle: the daily run failed, and runs again at the next midnight: %v\n", err)
	}
}
