//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"

	"minis3/core"
)

// Several writers on one database (two tabs, or two minis3.open of one name
// in a page) are detected by the storage, not prevented: a storage that
// can see them implements staleness and fails a Commit that another writer
// overtook with an error that has a Conflict method (idbstore.ErrConflict).
// The store object then reloads its core store from the storage and runs
// the operation again, with the counters (version IDs) and clock the other
// writer left.

// staleness is implemented by a storage that can tell whether another
// writer committed since it last loaded (idbstore.Storage).
type staleness interface {
	Stale() (bool, error)
}

// conflict is implemented by the error of a Commit another writer
// overtook.
type conflict interface {
	Conflict() bool
}

// maxConflictRetries bounds the reloads of one operation. Each conflict
// means another writer committed in between, so some writer always makes
// progress; an operation gives up only if other writers commit this many
// times while it retries.
const maxConflictRetries = 8

// isConflict reports whether err is a write conflict.
func isConflict(err error) bool {
	var c conflict
	return errors.As(err, &c) && c.Conflict()
}

// refresh reloads the store when another writer committed since it was
// loaded. It must run under s.mu.
func (s *storeObject) refresh() error {
	st, ok := s.storage.(staleness)
	if !ok {
		return nil
	}
	stale, err := st.Stale()
	if err != nil {
		return storageFailure(err)
	}
	if stale {
		return s.reload()
	}
	return nil
}

// reload replaces the core store by a fresh one loaded from the same
// storage. The old store holds nothing but memory, so it is dropped, not
// closed (closing it would close the shared storage). It must run under
// s.mu.
func (s *storeObject) reload() error {
	store, err := core.Open(s.storage, s.opts)
	if err != nil {
		return &core.Error{Code: core.InternalError, Err: err, Message: fmt.Sprintf(
			"reloading the store after another tab changed it failed: %v", err)}
	}
	s.store = store
	s.web = s.newHandler(store)
	s.syncClock()
	return nil
}

// storageFailure is an InternalError with the storage's readable message.
func storageFailure(err error) error {
	var e *core.Error
	if errors.As(err, &e) {
		return err
	}
	return &core.Error{Code: core.InternalError, Err: err, Message: err.Error()}
}

// serialized runs op under s.mu on a store that has seen every other
// writer's commits, and runs it again on a reloaded store when its commit
// was overtaken.
func (s *storeObject) serialized(op job) job {
	return func() (any, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.refresh(); err != nil {
			return nil, err
		}
		v, err := op()
		for i := 0; i < maxConflictRetries && isConflict(err); i++ {
			if err := s.reload(); err != nil {
				return nil, err
			}
			v, err = op()
		}
		if isConflict(err) {
			return nil, &core.Error{Code: core.InternalError, Err: err, Message: fmt.Sprintf(
				"another tab kept changing this database: gave up after %d retries; try again", maxConflictRetries)}
		}
		return v, err
	}
}
