package storagetest

import (
	"errors"
	"sync"

	"minis3/core"
)

// ErrInjected is the error FaultStorage returns unless told another.
var ErrInjected = errors.New("minis3: injected storage failure")

// FaultStorage wraps a core.Storage and fails its commits or body reads on demand.
// It also counts commits and keeps the last one, so tests can check what a
// mutation wrote. It is safe for concurrent use.
type FaultStorage struct {
	inner core.Storage

	mu        sync.Mutex
	commitErr error
	failAfter int // commits left before commitErr applies; <0: none
	readErr   error
	commits   int
	last      core.ChangeSet
}

// NewFaultStorage wraps inner; it fails nothing until told to.
func NewFaultStorage(inner core.Storage) *FaultStorage {
	return &FaultStorage{inner: inner, failAfter: -1}
}

// FailCommits makes every later commit fail with err (ErrInjected if nil)
// and write nothing, until ClearFaults.
func (f *FaultStorage) FailCommits(err error) { f.FailCommitsAfter(0, err) }

// FailCommitsAfter lets n more commits succeed, then fails every later one
// with err (ErrInjected if nil) until ClearFaults.
func (f *FaultStorage) FailCommitsAfter(n int, err error) {
	if err == nil {
		err = ErrInjected
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commitErr, f.failAfter = err, n
}

// FailReads makes every later ReadBody fail with err (ErrInjected if nil).
func (f *FaultStorage) FailReads(err error) {
	if err == nil {
		err = ErrInjected
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.readErr = err
}

// ClearFaults stops injecting failures.
func (f *FaultStorage) ClearFaults() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commitErr, f.failAfter, f.readErr = nil, -1, nil
}

// Commits is the number of commits that reached the wrapped storage.
func (f *FaultStorage) Commits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.commits
}

// LastCommit is the last change set that reached the wrapped storage.
func (f *FaultStorage) LastCommit() core.ChangeSet {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

// Load implements Storage.
func (f *FaultStorage) Load(visit func(core.Kind, string, []byte) error) error {
	return f.inner.Load(visit)
}

// Commit implements Storage.
func (f *FaultStorage) Commit(changes core.ChangeSet) error {
	f.mu.Lock()
	if f.commitErr != nil {
		if f.failAfter == 0 {
			err := f.commitErr
			f.mu.Unlock()
			return err
		}
		f.failAfter--
	}
	f.mu.Unlock()
	if err := f.inner.Commit(changes); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commits++
	f.last = changes
	return nil
}

// ReadBody implements Storage.
func (f *FaultStorage) ReadBody(ref string) ([]byte, error) {
	f.mu.Lock()
	err := f.readErr
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return f.inner.ReadBody(ref)
}

// Close implements Storage.
func (f *FaultStorage) Close() error { return f.inner.Close() }
