package core

import "fmt"

// The clock. Every creation time comes from the store's clock, read once
// per operation and once per lifecycle tick or run. A wall clock reads
// seconds since the Unix epoch; a manual clock (Options.ManualClock) reads
// the seconds it was set to, from an origin: the time of its 0, kept with
// the store. The chapter's rules and its view speak in those seconds; S3's
// lifecycle counts days that end at midnight UTC of origin + clock.
//
// S3 runs a bucket's stored lifecycle configuration once a day. So does
// the store: moving a manual clock forward (SetClock) runs every bucket's
// configuration at each midnight UTC it passes, in order, before the move
// returns; a server on the wall clock calls RunDueLifecycles after each
// midnight and when it starts, which runs each midnight missed since the
// last run. A daily run (runAll) runs each bucket's configuration at its
// midnight (runLifecycle, s3lifecycle_run.go), one commit a bucket.

// Origin is the time (seconds since the Unix epoch) of the manual clock's
// 0, or 0 for a wall clock, whose readings are those times themselves.
func (s *Store) Origin() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.origin
}

// A clock shows times in the years 1 to 9999: from yearOne up to, but not
// including, yearTenThousand (seconds since the Unix epoch).
const (
	yearOne         = -62135596800 // 0001-01-01T00:00:00Z
	yearTenThousand = 253402300800 // 10000-01-01T00:00:00Z
)

// inYears reports whether t (seconds since the Unix epoch) is in the years
// 1 to 9999; NaN is not.
func inYears(t float64) bool { return t >= yearOne && t < yearTenThousand }

// LifecycleRun is what one daily run of a bucket's stored lifecycle
// configuration did, and when (the clock at its midnight).
type LifecycleRun struct {
	Bucket  string
	At      float64
	Actions []LifecycleAction
}

// SetClock sets a manual clock to now seconds and persists it. Moving it
// forward runs S3's lifecycle at every midnight UTC it passes, in order:
// the runs that did something are returned. Each run of a bucket that does
// something is one commit, which also records the clock at its midnight.
// When a commit fails, SetClock returns the runs committed before it with
// the error, and the clock goes back to what the storage holds: the
// midnight of the last run committed, or where it was. Moving the clock
// back runs nothing. SetClock fails with InvalidRequest when the store was
// not opened with ManualClock, and with InvalidArgument for a time that is
// not in the years 1 to 9999.
func (s *Store) SetClock(now float64) ([]LifecycleRun, error) {
	if !s.manual {
		return nil, newError(InvalidRequest, "the store's clock is not manual")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if !inYears(s.origin + now) {
		return nil, errInvalidArgument("now", fmt.Sprint(now), "the clock must show a time in the years 1 to 9999")
	}
	// The clock and the last run as the storage holds them.
	saved, savedRun := s.manualNow, s.lastRun
	var runs []LifecycleRun
	for m := midnightBefore(s.origin+s.manualNow) + SecondsPerDay; m <= s.origin+now; m += SecondsPerDay {
		done, err := s.runAll(m - s.origin)
		runs = append(runs, done...)
		if len(done) > 0 {
			saved, savedRun = s.manualNow, s.lastRun
		}
		if err != nil {
			s.manualNow, s.lastRun = saved, savedRun
			return runs, err
		}
	}
	s.manualNow = now
	if err := s.storage.Commit(ChangeSet{s.metaChange()}); err != nil {
		s.manualNow, s.lastRun = saved, savedRun
		return runs, storageError(err)
	}
	return runs, nil
}

// runAll runs every bucket's configuration at the midnight now (seconds of
// the store's clock): the daily run. It sets the clock and the last run to
// that midnight, and each bucket's run that does something commits them
// with its changes. It stops at the first commit that fails; the caller
// puts the clock back. It needs the lock.
func (s *Store) runAll(now float64) ([]LifecycleRun, error) {
	if s.manual {
		s.manualNow = now
	}
	s.lastRun = midnightBefore(s.origin + now)
	var runs []LifecycleRun
	for _, name := range sortedKeys(s.buckets) {
		b := s.buckets[name]
		if b.lifecycle == nil {
			continue
		}
		actions, err := s.runLifecycle(b, now, ChangeSet{s.metaChange()})
		if err != nil {
			return runs, err
		}
		if len(actions) > 0 {
			runs = append(runs, LifecycleRun{Bucket: name, At: now, Actions: actions})
		}
	}
	return runs, nil
}

// RunDueLifecycles runs every bucket's configuration at each midnight UTC
// that has passed since the last daily run, in order, each at its
// midnight, as moving a manual clock does: what a server on the wall clock
// calls after each midnight, and once when it starts, to catch up the days
// it was stopped. A store that has never run starts with the last
// midnight. The midnight of the last run is kept with the store; when a
// commit fails, the runs stop there, and the buckets not run yet run at
// the next call.
func (s *Store) RunDueLifecycles() ([]LifecycleRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	now, err := s.sampleClock()
	if err != nil {
		return nil, err
	}
	last := midnightBefore(s.origin + now)
	first := s.lastRun + SecondsPerDay
	if s.lastRun == 0 {
		first = last
	}
	committed := s.lastRun // the midnight the storage holds
	var runs []LifecycleRun
	for m := first; m <= last; m += SecondsPerDay {
		done, err := s.runAll(m - s.origin)
		runs = append(runs, done...)
		if len(done) > 0 {
			committed = s.lastRun
		}
		if err != nil {
			s.lastRun = committed
			return runs, err
		}
	}
	if s.lastRun != committed {
		// The last runs did nothing, so none recorded their midnight.
		if err := s.storage.Commit(ChangeSet{s.metaChange()}); err != nil {
			s.lastRun = committed
			return runs, storageError(err)
		}
	}
	return runs, nil
}
