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
)

// createSchema creates the object stores of SchemaVersion in a new
// database. It runs on the JavaScript event loop, inside the versionchange
// transaction of the open.
func createSchema(db js.Value) {
	for _, name := range objectStores {
		db.Call("createObjectStore", name)
	}
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

// upgrade opens the database name at SchemaVersion, creating the schema
// of a new database, and closes it again.
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
		// A new database (version 0) gets the schema; any other version
		// is data of another MiniS3, which this one does not read.
		if old := ev.Get("oldVersion").Int(); old != 0 {
			mu.Lock()
			stepErr = fmt.Errorf("the database is of schema version %d; this MiniS3 reads version %d only (minis3.deleteDatabase(%q) deletes it)", old, SchemaVersion, name)
			mu.Unlock()
			_ = catch(func() error { req.Get("transaction").Call("abort"); return nil })
			return
		}
		if err := catch(func() error { createSchema(req.Get("result")); return nil }); err != nil {
			mu.Lock()
			stepErr = fmt.Errorf("creating the schema: %w", err)
			mu.Unlock()
			_ = catch(func() error { req.Get("transaction").Call("abort"); return nil })
		}
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
