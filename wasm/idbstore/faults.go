//go:build js && wasm

package idbstore

import (
	"errors"
	"fmt"
	"strings"
)

// Errors a failed IndexedDB operation is classified as (errors.Is-able).
// Each comes with a message that says what happened and what to do.
var (
	// ErrQuota: the browser refused the write for lack of storage space.
	ErrQuota = errors.New("IndexedDB quota exceeded: the browser has no room for this write (delete buckets or objects, or free site data)")
	// ErrAborted: the browser aborted the transaction.
	ErrAborted = errors.New("IndexedDB transaction aborted: nothing was written")
	// ErrConnectionClosed: the connection was closed under the storage,
	// typically by another tab upgrading the database's schema.
	ErrConnectionClosed = errors.New("IndexedDB connection closed (another tab upgraded or deleted the database)")
)

// classified is an IndexedDB error with the class describe gave it.
type classified struct {
	class error
	err   error
}

func (c *classified) Error() string { return c.class.Error() + ": " + c.err.Error() }

func (c *classified) Unwrap() []error { return []error{c.class, c.err} }

// classify is the class of an IndexedDB error by its DOMException name, or
// nil. The library maps asynchronous errors to idb.DOMException and leaves
// synchronous ones as js.Error; both carry the name in their text.
func classify(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "QuotaExceededError"):
		return ErrQuota
	case connectionClosed(err):
		return ErrConnectionClosed
	case strings.Contains(msg, "AbortError"):
		return ErrAborted
	}
	return nil
}

// connectionClosed reports whether err says the database connection is
// closed or closing (InvalidStateError from IDBDatabase.transaction).
func connectionClosed(err error) bool {
	return errors.Is(err, ErrConnectionClosed) || strings.Contains(err.Error(), "connection is clos")
}

// describe wraps an IndexedDB error of operation op ("" for none) with its
// class, when it has one.
func describe(op string, err error) error {
	if errors.Is(err, ErrConflict) || errors.Is(err, errClosed) {
		return err
	}
	if !errors.Is(err, ErrQuota) && !errors.Is(err, ErrAborted) && !errors.Is(err, ErrConnectionClosed) {
		if class := classify(err); class != nil {
			err = &classified{class: class, err: err}
		}
	}
	if op == "" {
		return err
	}
	return fmt.Errorf("idbstore: %s: %w", op, err)
}
