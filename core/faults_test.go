package core

import (
	"errors"
	"sync"
)

// errInjected is what faultStorage fails with.
var errInjected = errors.New("injected storage failure")

// faultStorage wraps a Storage and fails its commits or body reads while
// told to; it counts the commits that land and keeps the last one. (Other
// packages' tests use storagetest.FaultStorage, which this package's own
// tests cannot import.)
type faultStorage struct {
	Storage
	mu          sync.Mutex
	failCommits bool
	failReads   bool
	commits     int
	last        ChangeSet
}

func (f *faultStorage) FailCommits() { f.set(func() { f.failCommits = true }) }
func (f *faultStorage) FailReads()   { f.set(func() { f.failReads = true }) }
func (f *faultStorage) ClearFaults() { f.set(func() { f.failCommits, f.failReads = false, false }) }

func (f *faultStorage) set(change func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change()
}

func (f *faultStorage) Commits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.commits
}

func (f *faultStorage) LastCommit() ChangeSet {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

func (f *faultStorage) Commit(cs ChangeSet) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failCommits {
		return errInjected
	}
	if err := f.Storage.Commit(cs); err != nil {
		return err
	}
	f.commits++
	f.last = cs
	return nil
}

func (f *faultStorage) ReadBody(ref string) ([]byte, error) {
	f.mu.Lock()
	fail := f.failReads
	f.mu.Unlock()
	if fail {
		return nil, errInjected
	}
	return f.Storage.ReadBody(ref)
}
