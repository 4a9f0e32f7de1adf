//go:build js && wasm

package idbstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"

	"minis3/core"
)

// A step upgrades the database by one schema version inside the
// versionchange transaction. It runs on the JavaScript event loop, so it
// must never block: it issues requests with callbacks and calls next exactly
// once, with nil when it is done or with the error that aborts the upgrade.
type step func(u *upgradeTx, next func(error))

// upgradeTx is the versionchange transaction of an upgrade.
type upgradeTx struct {
	db js.Value // IDBDatabase
	tx js.Value // IDBTransaction, mode "versionchange"
}

// upgrades[v] upgrades a database from schema version v to v+1. A new
// database (version 0) runs every step. Add a step to change the schema;
// never edit a released one.
var upgrades = []step{
	0: createItems,
	1: splitItems,
}

// legacyItems is the only object store of schema version 1: every item in
// one store, keyed by its kind's name, a colon and its key ("record:demo/a",
// "body:demo/000001"), bodies included.
const legacyItems = "items"

// createItems creates schema version 1.
func createItems(u *upgradeTx, next func(error)) {
	u.db.Call("createObjectStore", legacyItems)
	next(nil)
}

// legacyKinds maps the kind names of version 1 keys to their kinds.
var legacyKinds = map[string]core.Kind{}

func init() {
	for _, k := range []core.Kind{core.KindMeta, core.KindBucket, core.KindRecord, core.KindUpload, core.KindBody} {
		legacyKinds[k.String()] = k
	}
}

// splitItems upgrades version 1 to 2: it creates one object store per kind,
// moves every item of "items" into the store of its kind under its plain
// key, and deletes "items".
func splitItems(u *upgradeTx, next func(error)) {
	for _, name := range objectStores {
		u.db.Call("createObjectStore", name)
	}
	req := u.tx.Call("objectStore", legacyItems).Call("openCursor")
	var onCursor js.Func
	finish := func(err error) {
		onCursor.Release()
		next(err)
	}
	onCursor = js.FuncOf(func(js.Value, []js.Value) any {
		err := catch(func() error {
			cursor := req.Get("result")
			if cursor.IsNull() {
				u.db.Call("deleteObjectStore", legacyItems)
				finish(nil)
				return nil
			}
			key := cursor.Get("key")
			if key.Type() != js.TypeString {
				return fmt.Errorf("version 1 item key %v is not a string", key)
			}
			kindName, itemKey, ok := strings.Cut(key.String(), ":")
			kind, known := legacyKinds[kindName]
			if !ok || !known {
				return fmt.Errorf("version 1 item %q has no known kind prefix", key.String())
			}
			store, err := storeOf(kind)
			if err != nil {
				return err
			}
			u.tx.Call("objectStore", store).Call("put", cursor.Get("value"), itemKey)
			cursor.Call("continue")
			return nil
		})
		if err != nil {
			finish(err)
		}
		return nil
	})
	req.Set("onsuccess", onCursor)
}

// catch runs fn and turns a JavaScript exception (a panic of syscall/js)
// into an error.
func catch(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if jsErr, ok := r.(js.Error); ok {
				err = domError(jsErr.Value)
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	return fn()
}

// domError describes a DOMException (or any thrown value).
func domError(v js.Value) error {
	if v.Type() == js.TypeObject && !v.IsNull() {
		name, msg := v.Get("name"), v.Get("message")
		if name.Type() == js.TypeString {
			return fmt.Errorf("%s: %s", name.String(), msg.String())
		}
	}
	return fmt.Errorf("%v", v)
}

// factory returns the page's IDBFactory, or why there is none.
func factory() (js.Value, error) {
	var f js.Value
	err := catch(func() error {
		f = js.Global().Get("indexedDB")
		if !f.Truthy() {
			return errors.New("this browser context has no indexedDB")
		}
		return nil
	})
	if err != nil {
		return js.Value{}, fmt.Errorf("idbstore: IndexedDB is unavailable: %w", err)
	}
	return f, nil
}

// upgrade opens the database name at SchemaVersion, running the upgrade
// steps from its current version, and closes it again.
func upgrade(ctx context.Context, factory js.Value, name string) error {
	var req js.Value
	if err := catch(func() error {
		req = factory.Call("open", name, SchemaVersion)
		return nil
	}); err != nil {
		// A sandboxed iframe without allow-same-origin throws SecurityError.
		return fmt.Errorf("idbstore: IndexedDB is unavailable: %w", err)
	}

	var (
		mu        sync.Mutex
		stepErr   error // why a step aborted the upgrade
		blocked   bool  // another connection holds an older version open
		abandoned bool  // upgrade returned before the request finished
		done      = make(chan error, 1)
		cbs       callbacks
	)
	on := func(event string, fn func(ev js.Value)) { cbs.on(req, event, fn) }
	on("onupgradeneeded", func(ev js.Value) {
		u := &upgradeTx{db: req.Get("result"), tx: req.Get("transaction")}
		var run func(v int)
		run = func(v int) {
			if v >= SchemaVersion {
				return
			}
			err := catch(func() error {
				upgrades[v](u, func(err error) {
					if err != nil {
						mu.Lock()
						stepErr = fmt.Errorf("upgrading from schema version %d to %d: %w", v, v+1, err)
						mu.Unlock()
						_ = catch(func() error { u.tx.Call("abort"); return nil })
						return
					}
					run(v + 1)
				})
				return nil
			})
			if err != nil {
				mu.Lock()
				stepErr = fmt.Errorf("upgrading from schema version %d to %d: %w", v, v+1, err)
				mu.Unlock()
				_ = catch(func() error { u.tx.Call("abort"); return nil })
			}
		}
		run(ev.Get("oldVersion").Int())
	})
	on("onsuccess", func(js.Value) {
		req.Get("result").Call("close")
		mu.Lock()
		a := abandoned
		mu.Unlock()
		if a {
			cbs.release()
		}
		done <- nil
	})
	on("onerror", func(ev js.Value) {
		ev.Call("preventDefault")
		err := domError(req.Get("error"))
		mu.Lock()
		if stepErr != nil {
			err = stepErr
		}
		a := abandoned
		mu.Unlock()
		if a {
			cbs.release()
		}
		if strings.HasPrefix(err.Error(), "VersionError") {
			err = fmt.Errorf("the database was written by a newer MiniS3 (this one reads schema version %d): %w", SchemaVersion, err)
		}
		done <- err
	})
	on("onblocked", func(js.Value) {
		mu.Lock()
		blocked = true
		mu.Unlock()
	})

	select {
	case err := <-done:
		cbs.release()
		if err != nil {
			return fmt.Errorf("idbstore: opening %q: %w", name, err)
		}
		return nil
	case <-ctx.Done():
		mu.Lock()
		defer mu.Unlock()
		// Keep the callbacks: a late success must still close the database.
		abandoned = true
		if blocked {
			return fmt.Errorf("idbstore: opening %q: blocked: another tab has the database open with an older schema; close it and reload: %w", name, ctx.Err())
		}
		return fmt.Errorf("idbstore: opening %q: %w", name, ctx.Err())
	}
}

// DeleteDatabase deletes the IndexedDB database name and everything in it.
// Close every Storage of it first; an open one in another tab delays the
// deletion until it closes or ctx ends.
func DeleteDatabase(ctx context.Context, name string) error {
	f, err := factory()
	if err != nil {
		return err
	}
	lib, err := idb.WrapFactory(f)
	if err != nil {
		return err
	}
	req, err := lib.DeleteDatabase(name)
	if err != nil {
		return fmt.Errorf("idbstore: deleting %q: %w", name, err)
	}
	if err := req.Await(ctx); err != nil {
		return fmt.Errorf("idbstore: deleting %q: %w", name, err)
	}
	return nil
}
