//go:build js && wasm

// Package jsapi is MiniS3's JavaScript API: the `minis3` object the wasm
// build puts on globalThis, and the store objects minis3.open returns.
//
//	const store = await minis3.open({ db: "playground" })  // or { memory: true }
//	await store.createBucket("demo")
//	await store.put("demo", "k", "hello")                  // → { versionId, etag, size, createdAt }
//
// Every operation returns a Promise and does its work on its own goroutine,
// never on the JavaScript event loop: IndexedDB needs the event loop to
// answer, so blocking it would deadlock the page. Arguments are read (and
// bodies copied into Go) synchronously when the method is called, so the
// caller may reuse its Uint8Array at once. Results are plain objects built
// from one JSON.parse each; bodies cross as Uint8Array. Failures reject with
// an Error whose code is the S3 error code (see jsError).
//
// The store's clock is the manual clock of core (core.Options.ManualClock),
// stored with the data, with its origin: the Unix time of its 0, the
// midnight UTC before the store was made. store.now() and store.origin()
// are synchronous: they return the clock as of the store's last completed
// operation (only setClock and a PUT of /_minis3/clock through store.fetch
// move it). Moving it forward runs S3's lifecycle, each bucket's stored
// configuration, at every midnight UTC it passes; setClock resolves to
// those runs.
//
// store.fetch(request) serves the S3 REST API of package web for this store
// inside the page. The page has one HTTP server (the syumai/workers binding
// of the wasm main package, passed in as Config.Fetch); store.fetch marks
// each request with the store's ID in the StoreHeader header, and the
// router (API.Handler) hands it to that store's web handler. Many stores can
// be open at once; each fetch reaches its own store.
//
// This package does not import syumai/workers or the IndexedDB storage: the
// wasm main package wires them in through Config, so that the API can be
// tested under wasmbrowsertest.
package jsapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"minis3/core"
	"minis3/internal/undo"
	"minis3/web"
)

// Config wires the API to its storage and HTTP server.
type Config struct {
	// OpenDurable opens the durable storage named name (IndexedDB in the
	// browser). When it fails, minis3.open falls back to memory and says so
	// in store.storage and store.storageError. Nil means memory only.
	OpenDurable func(ctx context.Context, name string) (core.Storage, error)
	// DeleteDurable deletes the durable storage named name, for
	// minis3.deleteDatabase. Nil makes deleteDatabase reject.
	DeleteDurable func(ctx context.Context, name string) error
	// DurableKind is what store.storage says of durable storage:
	// "indexeddb".
	DurableKind string
	// OpenTimeout bounds OpenDurable and DeleteDurable; 0 means 10 s.
	OpenTimeout time.Duration
	// Fetch hands a JavaScript Request to the page's HTTP server (whose
	// handler is API.Handler) and returns a Promise of the Response. Nil
	// makes store.fetch reject with NotImplemented.
	Fetch func(request js.Value) js.Value
}

// DefaultDatabase is the database name of minis3.open() without a db option.
const DefaultDatabase = "minis3"

// StoreHeader is the request header by which store.fetch tells the router
// which store a request is for. The router removes it before the store's
// handler sees the request.
const StoreHeader = "X-Minis3-Store"

// API is the minis3 object and the router of its stores' HTTP requests.
type API struct {
	cfg Config

	mu     sync.Mutex
	nextID int
	stores map[string]*storeObject // open stores by ID
}

// New returns the API over cfg.
func New(cfg Config) *API {
	if cfg.OpenTimeout <= 0 {
		cfg.OpenTimeout = 10 * time.Second
	}
	if cfg.DurableKind == "" {
		cfg.DurableKind = "durable"
	}
	return &API{cfg: cfg, stores: make(map[string]*storeObject)}
}

// Value builds the minis3 object: { open(options), deleteDatabase(name) }.
func (a *API) Value() js.Value {
	obj := js.Global().Get("Object").New()
	obj.Set("open", method(a.open))
	obj.Set("deleteDatabase", method(a.deleteDatabase))
	return obj
}

// openOptions are the options of minis3.open.
type openOptions struct {
	db          string
	memory      bool
	minPartSize int64
	// maxObjectSize bounds the body of put, uploadPart and the PutObject
	// and UploadPart requests of store.fetch; larger bodies are
	// EntityTooLarge.
	maxObjectSize int64
}

func parseOpenOptions(v js.Value) (openOptions, error) {
	o := openOptions{db: DefaultDatabase, maxObjectSize: web.DefaultMaxObjectSize}
	if err := checkKeys(v, "options", "db", "memory", "minPartSize", "maxObjectSize"); err != nil {
		return o, err
	}
	if isSet(v) {
		if db := v.Get("db"); isSet(db) {
			if db.Type() != js.TypeString || db.String() == "" {
				return o, invalidArgument("db", "options.db must be a non-empty string")
			}
			o.db = db.String()
		}
		if m := v.Get("memory"); isSet(m) {
			if m.Type() != js.TypeBoolean {
				return o, invalidArgument("memory", "options.memory must be true or false")
			}
			o.memory = m.Bool()
		}
		if p := v.Get("minPartSize"); isSet(p) {
			n, err := integer(p, "minPartSize")
			if err != nil || n < 1 {
				return o, invalidArgument("minPartSize", "options.minPartSize must be a positive whole number of bytes")
			}
			o.minPartSize = n
		}
		if m := v.Get("maxObjectSize"); isSet(m) {
			n, err := integer(m, "maxObjectSize")
			if err != nil || n < 1 {
				return o, invalidArgument("maxObjectSize", "options.maxObjectSize must be a positive whole number of bytes")
			}
			o.maxObjectSize = n
		}
	}
	return o, nil
}

// open implements minis3.open(options).
func (a *API) open(args []js.Value) (job, error) {
	o, err := parseOpenOptions(arg(args, 0))
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		storage, kind, durableErr := a.storage(o)
		opts := core.Options{ManualClock: true, MinPartSize: o.minPartSize}
		lock := newWriteLock(storage, o.db)
		journal := undo.New(storage)
		store, err := loadStore(journal, lock, opts)
		if err != nil {
			_ = storage.Close()
			return nil, &core.Error{Code: core.InternalError, Err: err, Message: fmt.Sprintf(
				"cannot load the store from database %q: %v (minis3.deleteDatabase(%q) resets it)", o.db, err, o.db)}
		}
		return a.register(store, storage, journal, lock, opts, o, kind, durableErr).value, nil
	}, nil
}

// storage opens the storage o asks for, falling back to memory when the
// durable one cannot open.
func (a *API) storage(o openOptions) (s core.Storage, kind string, durableErr error) {
	if o.memory {
		return core.NewMemoryStorage(), "memory", nil
	}
	if a.cfg.OpenDurable == nil {
		return core.NewMemoryStorage(), "memory", errors.New("this build has no durable storage")
	}
	ctx, cancel := context.WithTimeout(context.Background(), a.cfg.OpenTimeout)
	defer cancel()
	s, err := a.cfg.OpenDurable(ctx, o.db)
	if err != nil {
		return core.NewMemoryStorage(), "memory", err
	}
	return s, a.cfg.DurableKind, nil
}

// register makes the JavaScript store object and adds it to the router.
func (a *API) register(store *core.Store, storage core.Storage, journal *undo.Journal, lock writeLock, opts core.Options, o openOptions, kind string, durableErr error) *storeObject {
	a.mu.Lock()
	a.nextID++
	id := strconv.Itoa(a.nextID)
	a.mu.Unlock()
	s := newStoreObject(a, id, store, storage, journal, lock, opts, o, kind, durableErr)
	a.mu.Lock()
	a.stores[id] = s
	a.mu.Unlock()
	return s
}

func (a *API) unregister(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.stores, id)
}

func (a *API) lookup(id string) *storeObject {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stores[id]
}

// deleteDatabase implements minis3.deleteDatabase(name).
func (a *API) deleteDatabase(args []js.Value) (job, error) {
	name, err := str(arg(args, 0), "name")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		if a.cfg.DeleteDurable == nil {
			return nil, &core.Error{Code: core.NotImplemented, Message: "this build has no durable storage"}
		}
		ctx, cancel := context.WithTimeout(context.Background(), a.cfg.OpenTimeout)
		defer cancel()
		if err := a.cfg.DeleteDurable(ctx, name); err != nil {
			return nil, err
		}
		return nil, nil
	}, nil
}

// Handler routes the page's HTTP requests to the web handler of the store
// named by StoreHeader. It gives the handler what net/http's server
// guarantees and the in-page server does not: a non-nil Body (syumai passes
// nil for a request without one) and a recovered panic (a panic on the
// in-page server's goroutine would end the page's only Go instance).
func (a *API) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				println("minis3: panic serving", r.Method, r.URL.String()+":", fmt.Sprint(p), "\n"+string(debug.Stack()))
				writeInternalError(w, "MiniS3 failed while serving this request; the console has the details.")
			}
		}()
		if r.Body == nil {
			r.Body = http.NoBody
		}
		id := r.Header.Get(StoreHeader)
		r.Header.Del(StoreHeader)
		s := a.lookup(id)
		if s == nil {
			writeInternalError(w, "This request names no open MiniS3 store: use store.fetch.")
			return
		}
		s.serveHTTP(w, r)
	})
}

// writeInternalError answers with S3's InternalError body. After a panic
// the response may have started already; then the status cannot change.
func writeInternalError(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(http.StatusInternalServerError)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<Error><Code>InternalError</Code><Message>%s</Message></Error>`, msg)
}
