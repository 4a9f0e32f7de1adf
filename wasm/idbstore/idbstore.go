//go:build js && wasm

// Package idbstore is the IndexedDB storage of the wasm build: a
// core.Storage over one IndexedDB database per store name.
//
// # Schema
//
// The database has five object stores, one per core.Kind: meta, buckets,
// records, uploads and bodies. A key that is valid UTF-8 is stored as a
// string key (readable in the browser's developer tools); any other key,
// and one that starts with U+FEFF (see keyOf), as a binary key of its
// bytes, so every key round-trips byte-exact and the two never collide.
// Every value is a Uint8Array holding the bytes core gave to Commit.
// Records, buckets, uploads and meta are read in Load; bodies only by
// ReadBody. The one exception is the generation (generationKey in meta, a
// number): the counter by which Commit detects another writer (another tab)
// on the same database; see Commit and ErrConflict.
//
// The schema is IndexedDB version SchemaVersion. A new database gets it
// when it is first opened (schema.go); a database of any other version is
// refused with an error that names its version.
//
// # Transactions
//
// Commit writes a ChangeSet in one readwrite transaction. Everything is
// encoded (Go bytes copied into Uint8Arrays) before the transaction opens;
// inside it the code only issues IndexedDB requests and then waits for the
// transaction's complete or abort event. A transaction that does anything
// else between requests (a timer, a fetch, a wait on Go's scheduler that
// yields to the event loop) is committed early by the browser, so the rule
// lives in one place: update.
//
// # The library
//
// The transactional work goes through github.com/hack-pad/go-indexeddb
// (v0.3.2), wrapped by the few functions of this package so that it can be
// replaced. Its Open cannot migrate data (its upgrader sees no transaction)
// and never returns while another tab blocks an upgrade, so this package runs
// the versionchange itself with syscall/js (schema.go) before the library
// opens the current version.
//
// # Several writers and failures
//
// Other tabs may write the same database. The JS API makes them take turns
// under a Web Lock; Commit still detects a writer that did not (see Commit,
// ErrConflict and Stale). A connection closed under the storage (the
// library closes it when another tab upgrades or deletes the database) is
// reopened once on the next operation; failures are classified in
// faults.go.
//
// All methods block on IndexedDB events and must run on a goroutine, never on
// the JavaScript event loop (a js.FuncOf callback).
package idbstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"syscall/js"
	"time"
	"unicode/utf8"

	"github.com/hack-pad/go-indexeddb/idb"

	"minis3/core"
)

// SchemaVersion is the IndexedDB version of the schema this code writes.
const SchemaVersion = 2

// Names of the object stores of schema version 2.
const (
	storeMeta    = "meta"
	storeBuckets = "buckets"
	storeRecords = "records"
	storeUploads = "uploads"
	storeBodies  = "bodies"
)

// objectStores is every object store of the current schema, in Load order.
var objectStores = []string{storeMeta, storeBuckets, storeRecords, storeUploads, storeBodies}

// storeOf is the object store holding items of kind k.
func storeOf(k core.Kind) (string, error) {
	switch k {
	case core.KindMeta:
		return storeMeta, nil
	case core.KindBucket:
		return storeBuckets, nil
	case core.KindRecord:
		return storeRecords, nil
	case core.KindUpload:
		return storeUploads, nil
	case core.KindBody:
		return storeBodies, nil
	}
	return "", fmt.Errorf("idbstore: no object store for items of kind %d", k)
}

// Timeouts of IndexedDB operations. A commit that times out is aborted.
const (
	// DefaultOpenTimeout bounds Open when its context has no deadline.
	DefaultOpenTimeout = 10 * time.Second
	opTimeout          = 60 * time.Second
)

// generationKey is the key, in the meta object store, of the database's
// generation: a counter every Commit raises by one in its own transaction.
// Load reads it with the data and does not pass it to core.
const generationKey = "minis3:generation"

// ErrConflict is the error of a Commit that found another writer (another
// tab, or another Storage on the same database) had committed since this
// Storage last loaded or committed: nothing was written. Load again (reopen
// the core store) and retry.
var ErrConflict error = conflictError{}

// conflictError is ErrConflict. Its Conflict method lets callers that do not
// import this package (the JS API) recognise it with errors.As.
type conflictError struct{}

func (conflictError) Error() string {
	return "idbstore: another tab or store changed the database since it was loaded"
}

// Conflict marks the error as a write conflict.
func (conflictError) Conflict() bool { return true }

// Storage is a core.Storage in one IndexedDB database.
type Storage struct {
	mu     sync.Mutex // guards db, closed and gen; serialises Close
	name   string
	db     *idb.Database
	closed bool
	// gen is the generation this Storage last saw: loaded by Load, raised
	// by its own Commits. A Commit whose transaction finds another one
	// fails with ErrConflict.
	gen uint64
	// genMu is held through every Load and Commit, so that this Storage's
	// own commits (concurrent ones included) never look like another
	// writer's, and a Load's generation always matches the data it read.
	genMu sync.Mutex

	// inTx, when set by a test, runs inside every Commit transaction after
	// its requests were issued; an error aborts the transaction.
	inTx func(tx *idb.Transaction) error
}

var errClosed = errors.New("idbstore: the storage is closed")

// Open opens (creating or upgrading as needed) the IndexedDB database name.
// It fails when IndexedDB is unavailable (no indexedDB global, a sandboxed
// iframe's SecurityError), when the database was written by a newer schema,
// when another tab blocks the upgrade, or when ctx ends first; a ctx without
// a deadline gets DefaultOpenTimeout.
func Open(ctx context.Context, name string) (*Storage, error) {
	db, err := openDatabase(ctx, name)
	if err != nil {
		return nil, err
	}
	return &Storage{name: name, db: db}, nil
}

// openDatabase opens the database name at SchemaVersion, upgrading it first.
func openDatabase(ctx context.Context, name string) (*idb.Database, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultOpenTimeout)
		defer cancel()
	}
	factory, err := factory()
	if err != nil {
		return nil, err
	}
	if err := upgrade(ctx, factory, name); err != nil {
		return nil, err
	}
	f, err := idb.WrapFactory(factory)
	if err != nil {
		return nil, err
	}
	// The database is at SchemaVersion now, so the library's upgrader does
	// not run unless the database vanished in between; the store check
	// below catches that.
	req, err := f.Open(ctx, name, SchemaVersion, func(*idb.Database, uint, uint) error { return nil })
	if err != nil {
		return nil, fmt.Errorf("idbstore: opening %q: %w", name, err)
	}
	db, err := req.Await(ctx)
	if err != nil {
		return nil, fmt.Errorf("idbstore: opening %q: %w", name, err)
	}
	names, err := db.ObjectStoreNames()
	if err == nil {
		for _, s := range objectStores {
			if !slices.Contains(names, s) {
				err = fmt.Errorf("object store %q is missing", s)
				break
			}
		}
	}
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("idbstore: opening %q: %w", name, err)
	}
	return db, nil
}

// database returns the open database, or errClosed.
func (s *Storage) database() (*idb.Database, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	return s.db, nil
}

// transaction opens a transaction, reconnecting once when the connection
// was closed under the storage.
func (s *Storage) transaction(mode idb.TransactionMode, stores []string) (*idb.Transaction, error) {
	db, err := s.database()
	if err != nil {
		return nil, err
	}
	tx, err := db.Transaction(mode, stores[0], stores[1:]...)
	if err == nil || !connectionClosed(err) {
		return tx, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), DefaultOpenTimeout)
	defer cancel()
	fresh, openErr := openDatabase(ctx, s.name)
	if openErr != nil {
		return nil, fmt.Errorf("%w: %v; reconnecting failed: %v (close the other tabs of this page and reload)", ErrConnectionClosed, err, openErr)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = fresh.Close()
		return nil, errClosed
	}
	s.db = fresh
	s.mu.Unlock()
	return fresh.Transaction(mode, stores[0], stores[1:]...)
}

// Load implements core.Storage: it reads meta, buckets, records and uploads
// in one readonly transaction (readAll).
func (s *Storage) Load(visit func(kind core.Kind, key string, value []byte) error) error {
	s.genMu.Lock()
	defer s.genMu.Unlock()
	if _, err := s.database(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	kinds := []core.Kind{core.KindMeta, core.KindBucket, core.KindRecord, core.KindUpload}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i], _ = storeOf(k)
	}
	contents, err := readAll(ctx, s.name, names)
	if err != nil {
		return describe("load", err)
	}
	var gen uint64
	uint8Array := js.Global().Get("Uint8Array")
	for i, k := range kinds {
		keys, values := contents[i].keys, contents[i].values
		n := keys.Length()
		if values.Length() != n {
			return fmt.Errorf("idbstore: load %s: %d keys and %d values", names[i], n, values.Length())
		}
		texts := textKeys(keys, n)
		for j := range n {
			var name string
			if texts != nil {
				name = texts[j]
			} else if name, err = keyString(keys.Index(j)); err != nil {
				return fmt.Errorf("idbstore: load %s: %w", names[i], err)
			}
			value := values.Index(j)
			if k == core.KindMeta && name == generationKey {
				if gen, err = generationOf(value); err != nil {
					return fmt.Errorf("idbstore: load: %w", err)
				}
				continue
			}
			if !value.InstanceOf(uint8Array) {
				return fmt.Errorf("idbstore: load %s %q: stored value is a %s, not a Uint8Array", names[i], name, value.Type())
			}
			data := make([]byte, value.Length())
			js.CopyBytesToGo(data, value)
			if err := visit(k, name, data); err != nil {
				return err
			}
		}
	}
	s.mu.Lock()
	s.gen = gen
	s.mu.Unlock()
	return nil
}

// textKeys returns the n keys of the JS array keys as Go strings, read in
// one call through JSON.stringify, or nil when any of them is binary (an
// ArrayBuffer, which JSON renders as {}): the caller then reads each with
// keyString. A key stored as a string is valid UTF-8, so the JSON round
// trip is exact; one call instead of three per key saves a third of a
// large Load.
func textKeys(keys js.Value, n int) []string {
	var doc string
	if err := catch(func() error {
		doc = js.Global().Get("JSON").Call("stringify", keys).String()
		return nil
	}); err != nil {
		return nil
	}
	var texts []string
	if err := json.Unmarshal([]byte(doc), &texts); err != nil || len(texts) != n {
		return nil
	}
	return texts
}

// generationOf reads a stored generation (a number; absent means 0).
func generationOf(v js.Value) (uint64, error) {
	switch v.Type() {
	case js.TypeUndefined:
		return 0, nil
	case js.TypeNumber:
		f := v.Float()
		if f >= 0 && f <= 1<<53 && f == float64(uint64(f)) {
			return uint64(f), nil
		}
	}
	return 0, fmt.Errorf("meta %q is %v, not a generation number", generationKey, v)
}

// Generation reads the database's current generation in a readonly
// transaction. When it differs from Seen, another writer has committed
// since this Storage loaded: reload before serving a read.
func (s *Storage) Generation() (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	tx, err := s.transaction(idb.TransactionReadOnly, []string{storeMeta})
	if err != nil {
		return 0, describe("generation", err)
	}
	store, err := tx.ObjectStore(storeMeta)
	if err != nil {
		return 0, describe("generation", err)
	}
	req, err := store.Get(js.ValueOf(generationKey))
	if err != nil {
		return 0, describe("generation", err)
	}
	v, err := req.Await(ctx)
	if err != nil {
		return 0, describe("generation", err)
	}
	return generationOf(v)
}

// Seen is the generation this Storage last loaded or committed.
func (s *Storage) Seen() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// Stale reports whether another writer committed since this Storage last
// loaded or committed.
func (s *Storage) Stale() (bool, error) {
	gen, err := s.Generation()
	if err != nil {
		return false, err
	}
	return gen != s.Seen(), nil
}

// op is one encoded change: a put of value or, if value is undefined, a
// delete.
type op struct {
	store string
	key   string
	jsKey js.Value
	value js.Value
}

// encode turns a ChangeSet into requests, copying every value into a
// Uint8Array, before any transaction opens.
func encode(changes core.ChangeSet) ([]op, []string, error) {
	ops := make([]op, 0, len(changes))
	var stores []string
	for _, c := range changes {
		store, err := storeOf(c.Kind)
		if err != nil {
			return nil, nil, err
		}
		o := op{store: store, key: c.Key, jsKey: keyOf(c.Key), value: js.Undefined()}
		if !c.Delete {
			o.value = uint8Array(c.Value)
		}
		ops = append(ops, o)
		if !slices.Contains(stores, store) {
			stores = append(stores, store)
		}
	}
	return ops, stores, nil
}

// Commit implements core.Storage: all changes in one readwrite transaction,
// which first checks that the database's generation is still the one this
// Storage last saw (else ErrConflict, nothing written) and then raises it.
// A failure is classified (ErrQuota, ErrAborted, ErrConnectionClosed) with
// a readable message.
func (s *Storage) Commit(changes core.ChangeSet) error {
	if len(changes) == 0 {
		return nil
	}
	ops, stores, err := encode(changes)
	if err != nil {
		return err
	}
	if !slices.Contains(stores, storeMeta) {
		stores = append(stores, storeMeta)
	}
	s.genMu.Lock()
	defer s.genMu.Unlock()
	seen := s.Seen()
	next := js.ValueOf(float64(seen + 1))
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	err = s.update(stores, func(tx *idb.Transaction) error {
		// Check the generation inside the transaction: readwrite
		// transactions on the meta store run one at a time, so no other
		// writer can commit between this read and the puts below. Awaiting
		// a request keeps the transaction alive (no macrotask in between).
		meta, err := tx.ObjectStore(storeMeta)
		if err != nil {
			return err
		}
		req, err := meta.Get(js.ValueOf(generationKey))
		if err != nil {
			return err
		}
		v, err := req.Await(ctx)
		if err != nil {
			return err
		}
		gen, err := generationOf(v)
		if err != nil {
			return err
		}
		if gen != seen {
			return ErrConflict
		}
		if _, err := meta.PutKey(js.ValueOf(generationKey), next); err != nil {
			return err
		}
		for _, o := range ops {
			store, err := tx.ObjectStore(o.store)
			if err != nil {
				return err
			}
			if o.value.IsUndefined() {
				_, err = store.Delete(o.jsKey)
			} else {
				_, err = store.PutKey(o.jsKey, o.value)
			}
			if err != nil {
				return fmt.Errorf("%s %q: %w", o.store, o.key, err)
			}
		}
		if s.inTx != nil {
			return s.inTx(tx)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.gen = seen + 1
	s.mu.Unlock()
	return nil
}

// update runs issue inside one readwrite transaction over stores and waits
// for the transaction to finish. issue must only issue IndexedDB requests of
// tx: anything that yields to the event loop would let the browser commit
// the transaction early. When issue fails, the transaction is aborted and
// nothing it requested lands. A transaction that has not finished within
// opTimeout is aborted too.
func (s *Storage) update(stores []string, issue func(tx *idb.Transaction) error) error {
	tx, err := s.transaction(idb.TransactionReadWrite, stores)
	if err != nil {
		return describe("commit", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	if err := issue(tx); err != nil {
		if abortErr := tx.Abort(); abortErr != nil {
			return fmt.Errorf("idbstore: commit: %w (and the abort failed: %v)", describe("", err), abortErr)
		}
		// Wait for the abort event, so that the next transaction sees
		// the state before this one.
		_ = tx.Await(ctx)
		if errors.Is(err, ErrConflict) {
			return err
		}
		return describe("commit aborted", err)
	}
	if err := tx.Commit(); err != nil {
		return describe("commit", err)
	}
	if err := tx.Await(ctx); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			if abortErr := tx.Abort(); abortErr != nil {
				return fmt.Errorf("idbstore: commit timed out after %v and could not be aborted: %v", opTimeout, abortErr)
			}
		}
		return describe("commit failed", err)
	}
	return nil
}

// ReadBody implements core.Storage.
func (s *Storage) ReadBody(ref string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	tx, err := s.transaction(idb.TransactionReadOnly, []string{storeBodies})
	if err != nil {
		return nil, describe("read body", err)
	}
	store, err := tx.ObjectStore(storeBodies)
	if err != nil {
		return nil, fmt.Errorf("idbstore: read body: %w", err)
	}
	req, err := store.Get(keyOf(ref))
	if err != nil {
		return nil, fmt.Errorf("idbstore: read body %q: %w", ref, err)
	}
	value, err := req.Await(ctx)
	if err != nil {
		return nil, fmt.Errorf("idbstore: read body %q: %w", ref, err)
	}
	if value.IsUndefined() {
		return nil, core.ErrBodyNotFound
	}
	data, err := bytesOf(value)
	if err != nil {
		return nil, fmt.Errorf("idbstore: body %q: %w", ref, err)
	}
	return data, nil
}

// Close implements core.Storage. Later calls fail.
func (s *Storage) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.db.Close()
}

// keyOf is the IndexedDB key of a core key: a string when key is valid
// UTF-8, else a binary key of its bytes. A key that starts with U+FEFF is
// binary too: syscall/js turns Go strings into JavaScript ones with a
// TextDecoder, which drops a leading byte order mark.
func keyOf(key string) js.Value {
	if utf8.ValidString(key) && !strings.HasPrefix(key, "\ufeff") {
		return js.ValueOf(key)
	}
	return uint8Array([]byte(key))
}

// keyString is the core key of an IndexedDB key made by keyOf.
func keyString(key js.Value) (string, error) {
	if key.Type() == js.TypeString {
		return key.String(), nil
	}
	if key.InstanceOf(js.Global().Get("ArrayBuffer")) {
		b, err := bytesOf(js.Global().Get("Uint8Array").New(key))
		return string(b), err
	}
	return "", fmt.Errorf("key %v is neither a string nor binary", key)
}

// uint8Array copies b into a new Uint8Array.
func uint8Array(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// bytesOf copies a stored Uint8Array into Go.
func bytesOf(v js.Value) ([]byte, error) {
	if !v.InstanceOf(js.Global().Get("Uint8Array")) {
		return nil, fmt.Errorf("stored value is a %s, not a Uint8Array", v.Type())
	}
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	return b, nil
}
