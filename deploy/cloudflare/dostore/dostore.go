//go:build js && wasm

// Package dostore is the storage of MiniS3's hosted deployment: a
// core.Storage in a Cloudflare Durable Object's SQLite storage.
//
// The Durable Object, written in JavaScript, hands this package a bridge
// made by deploy/cloudflare/worker/sqlstorage.mjs over its ctx.storage.
// The bridge keeps every item in one table, items(kind, key, part, value),
// with keys as bytes, so that every key round-trips byte-exact; a value
// larger than one row may hold is kept in parts. It has three synchronous
// functions:
//
//	load()            → [[kind, key, value], …] of every item but bodies
//	commit(changes)   where changes is [[kind, key, value or null], …]:
//	                  every put (a value) or delete (null), in order, in
//	                  one transaction (ctx.storage.transactionSync)
//	readBody(key)     → the body's bytes, or null
//
// Keys and values cross as Uint8Arrays. A bridge function that throws
// (SQLite refused a write, the storage is full) fails the call with the
// exception's message; a failed commit has changed nothing.
//
// The Durable Object's own output gate holds back every response until the
// writes before it are durable, so a commit is durable once the answer of
// the request that made it leaves the object.
package dostore

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"minis3/core"
)

// Storage is a core.Storage over a Durable Object's storage bridge.
type Storage struct {
	mu     sync.Mutex // guards closed
	bridge js.Value
	closed bool
}

var errClosed = errors.New("dostore: the storage is closed")

// New returns the storage behind bridge, the object sqlStorage of
// worker/sqlstorage.mjs returns.
func New(bridge js.Value) *Storage {
	return &Storage{bridge: bridge}
}

// call calls the bridge's function name, turning a JavaScript exception
// into an error.
func (s *Storage) call(name string, args ...any) (result js.Value, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return js.Value{}, errClosed
	}
	defer func() {
		if r := recover(); r != nil {
			jsErr, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("dostore: %s: %s", name, jsErr.Get("message").String())
		}
	}()
	return s.bridge.Call(name, args...), nil
}

// Load implements core.Storage.
func (s *Storage) Load(visit func(kind core.Kind, key string, value []byte) error) error {
	items, err := s.call("load")
	if err != nil {
		return err
	}
	for i := range items.Length() {
		item := items.Index(i)
		kind := core.Kind(item.Index(0).Int())
		if err := visit(kind, string(goBytes(item.Index(1))), goBytes(item.Index(2))); err != nil {
			return err
		}
	}
	return nil
}

// Commit implements core.Storage.
func (s *Storage) Commit(changes core.ChangeSet) error {
	if len(changes) == 0 {
		return nil
	}
	list := js.Global().Get("Array").New(len(changes))
	for i, c := range changes {
		value := js.Null()
		if !c.Delete {
			value = jsBytes(c.Value)
		}
		list.SetIndex(i, js.ValueOf([]any{int(c.Kind), jsBytes([]byte(c.Key)), value}))
	}
	_, err := s.call("commit", list)
	return err
}

// ReadBody implements core.Storage.
func (s *Storage) ReadBody(ref string) ([]byte, error) {
	body, err := s.call("readBody", jsBytes([]byte(ref)))
	if err != nil {
		return nil, err
	}
	if body.IsNull() {
		return nil, fmt.Errorf("%w: %q", core.ErrBodyNotFound, ref)
	}
	return goBytes(body), nil
}

// Close implements core.Storage. The data stays in the Durable Object.
func (s *Storage) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// jsBytes copies b into a new Uint8Array.
func jsBytes(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// goBytes copies a Uint8Array into a new, non-nil slice.
func goBytes(a js.Value) []byte {
	b := make([]byte, a.Length())
	js.CopyBytesToGo(b, a)
	return b
}
