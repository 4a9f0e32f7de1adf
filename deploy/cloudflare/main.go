//go:build js && wasm

// Command cloudflare is the Go side of MiniS3's hosted deployment on
// Cloudflare Workers: the program each student's Durable Object runs, one
// long-lived instance per object while it is active (see README.md).
//
// The Durable Object (worker/store.mjs) starts it with
// worker/go.mjs, which sets globalThis.context before go.run:
//
//	context.binding  {} — github.com/syumai/workers puts handleRequest on it
//	context.store    the object's side of the program:
//	  accessKey, secretKey  the one key pair whose requests this store
//	                        serves ("" for none: every request is refused)
//	  clock                 "manual" or "wall"
//	  now()                 the wall clock, in milliseconds since the epoch
//	  storage               the storage bridge (package dostore)
//	  opened()              called once the store is open (made on the
//	                        first signed request)
//
// and this program adds context.store.runDueLifecycles(), a Promise of
// the S3 lifecycle runs due on the wall clock (the object's alarm calls it
// at each midnight UTC).
//
// Every request must carry an AWS Signature Version 4 of the store's key
// pair (web.RequireSigV4Lookup): S3 requests and the /_minis3/ extensions
// alike. The store is opened only behind that check, so a refused request
// never makes one.
package main

import (
	"log"
	"net/http"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/syumai/workers"

	"minis3/core"
	"minis3/deploy/cloudflare/dostore"
	"minis3/web"
)

// MaxObjectSize is the largest object or part body the hosted store takes:
// a body is held whole in the memory of a Durable Object's isolate, and
// Cloudflare gives an isolate 128 MB.
const MaxObjectSize = 16 << 20

func main() {
	self := js.Global().Get("context").Get("store")
	accessKey, secretKey := self.Get("accessKey").String(), self.Get("secretKey").String()
	options := core.Options{ManualClock: true}
	if self.Get("clock").String() == "wall" {
		options = core.Options{Clock: func() float64 { return self.Call("now").Float() / 1000 }}
	}
	s := &storeServer{
		storage: dostore.New(self.Get("storage")),
		options: options,
		opened:  func() { self.Call("opened") },
	}
	secretOf := func(key string) (string, bool) {
		return secretKey, accessKey != "" && key == accessKey
	}
	workers.ServeNonBlock(asSent(web.RequireSigV4Lookup(s, secretOf, time.Now)))
	self.Set("runDueLifecycles", js.FuncOf(func(js.Value, []js.Value) any {
		return promise(s.runDueLifecycles)
	}))
	workers.Ready()
	select {}
}

// storeServer serves a store it opens on its first request.
type storeServer struct {
	storage core.Storage
	options core.Options
	opened  func()

	mu      sync.Mutex
	store   *core.Store
	handler http.Handler
}

// open returns the store and its handler, opening the store the first
// time. On the wall clock it first runs the S3 lifecycle of every midnight
// UTC the store missed while no instance ran it; if that fails, the store
// still serves, and the object's next alarm runs them again (the failure
// is logged, where wrangler tail shows it).
func (s *storeServer) open() (*core.Store, http.Handler, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.store != nil {
		return s.store, s.handler, nil
	}
	store, err := core.Open(s.storage, s.options)
	if err != nil {
		return nil, nil, err
	}
	if !s.options.ManualClock {
		if _, err := store.RunDueLifecycles(); err != nil {
			log.Printf("lifecycle: the runs due since the store was last open failed, and run again at its next alarm: %v", err)
		}
	}
	s.store, s.handler = store, web.NewHandler(store, web.Options{MaxObjectSize: MaxObjectSize})
	s.opened()
	return s.store, s.handler, nil
}

func (s *storeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, h, err := s.open()
	if err != nil {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
			`<Error><Code>InternalError</Code><Message>MiniS3 could not open this store; try again.</Message></Error>`))
		return
	}
	h.ServeHTTP(w, r)
}

// runDueLifecycles runs the S3 lifecycle runs due on the wall clock and
// returns how many bucket runs did something.
func (s *storeServer) runDueLifecycles() (any, error) {
	store, _, err := s.open()
	if err != nil {
		return nil, err
	}
	runs, err := store.RunDueLifecycles()
	return len(runs), err
}

// asSent gives next each request with its headers as the client sent them.
// github.com/syumai/workers cuts every header value at its commas into
// several values, which would break the Authorization header and every
// other header with a comma; the runtime has already joined the values of
// a header sent more than once with ", ", so joining the pieces again with
// "," gives back what the runtime saw. A JavaScript request has no Host
// header: its URL's host is the one the client sent.
func asSent(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for name, values := range r.Header {
			if len(values) > 1 {
				r.Header[name] = []string{strings.Join(values, ",")}
			}
		}
		if r.Host == "" {
			r.Host = r.URL.Host
		}
		next.ServeHTTP(w, r)
	})
}

// promise runs f on a goroutine and returns a Promise of its result: a
// js.FuncOf callback must never block the event loop.
func promise(f func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		executor.Release()
		resolve, reject := args[0], args[1]
		go func() {
			result, err := f()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(result)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}
