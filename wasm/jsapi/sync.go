//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"
	"syscall/js"

	"minis3/core"
)

// Several writers on one database (two tabs, or two minis3.open of one name
// in a page) take turns under the database's Web Lock (writeLock): every
// operation that may write holds it from the check for other writers'
// commits to the end of its own commit, so no commit is ever overtaken.
// Reads do not take it: they reload the store when another writer
// committed, and a load reads the database in one transaction.
//
// The storage also detects writers that do not take turns (where the
// context has no navigator.locks, or the browser refuses a lock request): a
// storage that can see them implements staleness and fails a Commit that
// another writer overtook with an error that has a Conflict method
// (idbstore.ErrConflict). The store object then reloads its
// core store from the storage and runs the operation again, with the
// counters (version IDs) and clock the other writer left.

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

// reads are the store methods that never write: they run without the
// database's write lock. Every other method takes it.
var reads = map[string]bool{
	"listBuckets":          true,
	"getBucketVersioning":  true,
	"get":                  true,
	"head":                 true,
	"listVersions":         true,
	"listObjects":          true,
	"evaluate":             true,
	"expirationSchedule":   true,
	"listParts":            true,
	"listMultipartUploads": true,
	"getBucketLifecycle":   true,
	"previewLifecycle":     true,
	"lifecycleSchedule":    true,
	"getObjectTagging":     true,
	"getBucketTagging":     true,
}

// writeLock is the Web Lock (navigator.locks) under which the writers of
// one database take turns, in every tab and worker of the origin. Its zero
// value is no lock: for a storage no other writer can share (memory), and
// where the context has no navigator.locks (an insecure context, such as a
// page served over http from a LAN address); writers are then kept correct
// by the storage's conflict check and serialized's retries.
type writeLock struct {
	locks js.Value // navigator.locks, or undefined
	name  string
}

// newWriteLock is the write lock of database db over storage.
func newWriteLock(storage core.Storage, db string) writeLock {
	if _, shared := storage.(staleness); !shared {
		return writeLock{}
	}
	nav := js.Global().Get("navigator")
	if nav.Type() != js.TypeObject {
		return writeLock{}
	}
	locks := nav.Get("locks")
	if locks.Type() != js.TypeObject || locks.Get("request").Type() != js.TypeFunction {
		return writeLock{}
	}
	return writeLock{locks: locks, name: "minis3:db:" + db}
}

// kind is what store.writeLock says of l: "web-locks" or "none".
func (l writeLock) kind() string {
	if l.locks.IsUndefined() {
		return "none"
	}
	return "web-locks"
}

// acquire waits until this tab holds the lock and returns the function that
// releases it. It waits for the event loop, so it must run on a goroutine.
//
// navigator.locks.request grants the lock by calling its callback, and
// holds it until the Promise the callback returns settles. The callback
// returns at once a Promise whose resolve function it hands to Go, so the
// event loop runs on while Go works under the lock, and the release
// resolves it. A request the browser refuses (it rejects before granting)
// leaves the write without the lock, as where there is none.
func (l writeLock) acquire() (release func()) {
	if l.locks.IsUndefined() {
		return func() {}
	}
	// The resolve function that releases the lock, or undefined when the
	// request was refused.
	granted := make(chan js.Value, 1)
	var onGrant, onRefuse js.Func
	onGrant = js.FuncOf(func(js.Value, []js.Value) any {
		var executor js.Func
		executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
			executor.Release()
			granted <- args[0]
			return nil
		})
		return js.Global().Get("Promise").New(executor)
	})
	onRefuse = js.FuncOf(func(js.Value, []js.Value) any {
		granted <- js.Undefined()
		return nil
	})
	options := js.Global().Get("Object").New()
	options.Set("mode", "exclusive")
	// The request's Promise settles as the callback's does, which only
	// resolves: onRefuse runs only for a refusal, before any grant.
	l.locks.Call("request", l.name, options, onGrant).Call("catch", onRefuse)
	resolve := <-granted
	onGrant.Release()
	onRefuse.Release()
	if resolve.IsUndefined() {
		return func() {}
	}
	return func() { resolve.Invoke() }
}

// loadStore opens the core store of storage under its write lock: the first
// load of a new database writes the store's metadata (its clock's origin),
// which would conflict with another tab opening the same new database.
// Without the lock, the store that loses that race loads again what the
// winner wrote.
func loadStore(storage core.Storage, lock writeLock, opts core.Options) (*core.Store, error) {
	release := lock.acquire()
	defer release()
	store, err := core.Open(storage, opts)
	if isConflict(err) {
		store, err = core.Open(storage, opts)
	}
	return store, err
}

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
	store, err := core.Open(s.journal, s.opts)
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

// serialized runs op, the job of store method name, under s.mu on a store
// that has seen every other writer's commits; unless the method is one of
// reads, under the database's write lock too. When a commit was overtaken
// all the same (a writer without the lock), it runs op again on a reloaded
// store.
func (s *storeObject) serialized(name string, op job) job {
	write := !reads[name]
	return func() (any, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if write {
			release := s.lock.acquire()
			defer release()
		}
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
