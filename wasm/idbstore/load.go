//go:build js && wasm

package idbstore

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"
)

// storeContents is what getAllKeys and getAll gave for one object store:
// two arrays of the same length, in ascending key order.
type storeContents struct {
	keys, values js.Value
}

// readAll reads every key and value of the named object stores in one
// readonly transaction with getAllKeys and getAll: two requests a store.
// The library's cursors cost a round trip through Go per item, and core
// stores an item per version.
// The library does not offer getAll, so readAll opens a connection of its
// own, at SchemaVersion, and closes it when the transaction completes.
func readAll(ctx context.Context, name string, stores []string) ([]storeContents, error) {
	f, err := factory()
	if err != nil {
		return nil, err
	}
	var (
		mu        sync.Mutex
		vanished  bool // the database was not there at SchemaVersion
		abandoned bool // readAll returned before the transaction ended
		cbs       callbacks
		done      = make(chan error, 1)
		out       = make([]storeContents, len(stores))
		reqs      = make([][2]js.Value, len(stores))
	)
	// finish reports the outcome once; a late one, after ctx ended, only
	// releases the callbacks.
	finish := func(err error) {
		mu.Lock()
		a := abandoned
		mu.Unlock()
		if a {
			cbs.release()
			return
		}
		done <- err
	}
	on := cbs.on
	var open js.Value
	if err := catch(func() error {
		open = f.Call("open", name, SchemaVersion)
		return nil
	}); err != nil {
		return nil, err
	}
	on(open, "onupgradeneeded", func(js.Value) {
		// The database is gone (deleted since the storage opened it): do
		// not create an empty one from a read.
		mu.Lock()
		vanished = true
		mu.Unlock()
		_ = catch(func() error { open.Get("transaction").Call("abort"); return nil })
	})
	on(open, "onerror", func(ev js.Value) {
		ev.Call("preventDefault")
		err := domError(open.Get("error"))
		mu.Lock()
		if vanished {
			err = fmt.Errorf("the database no longer exists (deleted in another tab?): %w", err)
		}
		mu.Unlock()
		finish(err)
	})
	on(open, "onsuccess", func(js.Value) {
		db := open.Get("result")
		err := catch(func() error {
			names := make([]any, len(stores))
			for i, s := range stores {
				names[i] = s
			}
			tx := db.Call("transaction", names, "readonly")
			for i, s := range stores {
				os := tx.Call("objectStore", s)
				reqs[i] = [2]js.Value{os.Call("getAllKeys"), os.Call("getAll")}
			}
			on(tx, "oncomplete", func(js.Value) {
				db.Call("close")
				for i, r := range reqs {
					out[i] = storeContents{keys: r[0].Get("result"), values: r[1].Get("result")}
				}
				finish(nil)
			})
			on(tx, "onabort", func(js.Value) {
				db.Call("close")
				finish(fmt.Errorf("the read was aborted: %w", domError(tx.Get("error"))))
			})
			return nil
		})
		if err != nil {
			db.Call("close")
			finish(err)
		}
	})
	select {
	case err := <-done:
		cbs.release()
		if err != nil {
			return nil, fmt.Errorf("idbstore: reading %q: %w", name, err)
		}
		return out, nil
	case <-ctx.Done():
		mu.Lock()
		abandoned = true
		mu.Unlock()
		return nil, fmt.Errorf("idbstore: reading %q: %w", name, ctx.Err())
	}
}

// callbacks are the js.Funcs installed as event handlers of raw IndexedDB
// requests and transactions, released together once the last event fired.
type callbacks []js.Func

// on makes fn target's handler of event.
func (c *callbacks) on(target js.Value, event string, fn func(ev js.Value)) {
	cb := js.FuncOf(func(_ js.Value, args []js.Value) any {
		fn(args[0])
		return nil
	})
	*c = append(*c, cb)
	target.Set(event, cb)
}

// release releases every callback.
func (c callbacks) release() {
	for _, cb := range c {
		cb.Release()
	}
}
