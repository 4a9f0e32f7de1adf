//go:build js && wasm

package idbstore

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"

	"github.com/hack-pad/go-indexeddb/idb"

	"minis3/core"
	"minis3/core/storagetest"
)

// testTimeout bounds every IndexedDB wait of a test.
const testTimeout = 20 * time.Second

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

var dbCounter atomic.Int64

// freshName returns a database name no other test uses, and deletes that
// database when the test ends. Cleanups run last-in first-out, so register
// this before anything that closes a Storage.
func freshName(t *testing.T) string {
	name := fmt.Sprintf("idbstore-test-%d-%s", dbCounter.Add(1), strings.ReplaceAll(t.Name(), "/", "-"))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		if err := DeleteDatabase(ctx, name); err != nil {
			t.Errorf("deleting test database: %v", err)
		}
	})
	return name
}

func openStorage(t *testing.T, name string) *Storage {
	t.Helper()
	s, err := Open(testContext(t), name)
	if err != nil {
		t.Fatalf("Open(%q): %v", name, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storagetest.Opener {
		name := freshName(t)
		return func() (core.Storage, error) { return Open(testContext(t), name) }
	})
}

func TestNewDatabaseHasCurrentSchema(t *testing.T) {
	name := freshName(t)
	openStorage(t, name).Close()
	version, stores := inspect(t, name)
	if version != SchemaVersion || !slices.Equal(stores, sorted(objectStores)) {
		t.Fatalf("new database: version %d, stores %v; want %d, %v", version, stores, SchemaVersion, sorted(objectStores))
	}
}

// items is the state of a storage as Load and ReadBody see it.
func items(t *testing.T, s *Storage, bodies ...string) []string {
	t.Helper()
	var out []string
	err := s.Load(func(k core.Kind, key string, value []byte) error {
		out = append(out, fmt.Sprintf("%v %s=%s", k, key, value))
		return nil
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, ref := range bodies {
		b, err := s.ReadBody(ref)
		switch {
		case errors.Is(err, core.ErrBodyNotFound):
			out = append(out, "body "+ref+" missing")
		case err != nil:
			t.Fatalf("ReadBody(%q): %v", ref, err)
		default:
			out = append(out, fmt.Sprintf("body %s=%s", ref, b))
		}
	}
	slices.Sort(out)
	return out
}

// commitFailureCases make a Commit fail inside its transaction, after its
// own requests were issued.
var commitFailureCases = []struct {
	name string
	inTx func(tx *idb.Transaction) error
	want string // in the error
}{
	{
		// IndexedDB itself rejects a request: add() of a key that exists
		// fails with ConstraintError and aborts the transaction.
		name: "RequestRejectedByIndexedDB",
		inTx: addExisting("b/kept"),
		want: "ConstraintError",
	},
	{
		name: "InjectedFailureAbortsTransaction",
		inTx: func(*idb.Transaction) error { return errors.New("injected failure") },
		want: "injected failure",
	},
}

// addExisting returns an inTx hook that adds the record item key, which exists:
// IndexedDB fails that request with ConstraintError and aborts the
// transaction.
func addExisting(key string) func(tx *idb.Transaction) error {
	return func(tx *idb.Transaction) error {
		store, err := tx.ObjectStore(storeRecords)
		if err != nil {
			return err
		}
		_, err = store.AddKey(js.ValueOf(key), uint8Array([]byte("dup")))
		return err
	}
}

func TestCommitIsAtomic(t *testing.T) {
	for _, c := range commitFailureCases {
		t.Run(c.name, func(t *testing.T) {
			name := freshName(t)
			s := openStorage(t, name)
			first := core.ChangeSet{
				{Kind: core.KindRecord, Key: "b/kept", Value: []byte("v1")},
				{Kind: core.KindRecord, Key: "b/doomed", Value: []byte("v1")},
				{Kind: core.KindBody, Key: "b/1", Value: []byte("body 1")},
			}
			if err := s.Commit(first); err != nil {
				t.Fatalf("first Commit: %v", err)
			}
			before := items(t, s, "b/1", "b/2")

			second := core.ChangeSet{
				{Kind: core.KindRecord, Key: "b/kept", Value: []byte("v2")},
				{Kind: core.KindRecord, Key: "b/doomed", Delete: true},
				{Kind: core.KindRecord, Key: "b/new", Value: []byte("v2")},
				{Kind: core.KindBody, Key: "b/1", Delete: true},
				{Kind: core.KindBody, Key: "b/2", Value: []byte("body 2")},
				{Kind: core.KindMeta, Key: "store", Value: []byte("meta")},
			}
			s.inTx = c.inTx
			err := s.Commit(second)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Commit with a failure inside the transaction = %v, want an error with %q", err, c.want)
			}
			if got := items(t, s, "b/1", "b/2"); !slices.Equal(got, before) {
				t.Fatalf("after the failed commit:\n%q\nwant the state before it:\n%q", got, before)
			}
			s.Close()
			s = openStorage(t, name)
			if got := items(t, s, "b/1", "b/2"); !slices.Equal(got, before) {
				t.Fatalf("reopened after the failed commit:\n%q\nwant:\n%q", got, before)
			}

			if err := s.Commit(second); err != nil {
				t.Fatalf("retried Commit: %v", err)
			}
			want := []string{
				"body b/1 missing",
				"body b/2=body 2",
				"meta store=meta",
				"record b/kept=v2",
				"record b/new=v2",
			}
			if got := items(t, s, "b/1", "b/2"); !slices.Equal(got, want) {
				t.Fatalf("after the retry:\n%q\nwant:\n%q", got, want)
			}
		})
	}
}

// TestStoreUnchangedWhenCommitFails runs a core.Store over IndexedDB and
// fails the commit of a PUT inside its transaction: the store reports the
// error and neither the live store nor IndexedDB moves; the retry lands.
func TestStoreUnchangedWhenCommitFails(t *testing.T) {
	name := freshName(t)
	s := openStorage(t, name)
	store, err := core.Open(s, core.Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	must(t, store.CreateBucket("demo"))
	must(t, store.SetBucketVersioning("demo", core.Enabled))
	if _, err := store.PutObject("demo", "k", []byte("old"), core.PutOptions{}); err != nil {
		t.Fatal(err)
	}

	s.inTx = addExisting("demo/0000000000000001") // the stored entry of v00000001
	_, err = store.PutObject("demo", "k", []byte("new"), core.PutOptions{})
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.InternalError || !strings.Contains(err.Error(), "ConstraintError") {
		t.Fatalf("PUT with a failing commit = %v, want an InternalError from ConstraintError", err)
	}
	want := []string{"k v00000001 old"}
	if got := versions(t, store); !slices.Equal(got, want) {
		t.Fatalf("live store after the failed PUT: %q, want %q", got, want)
	}
	must(t, store.Close())

	s = openStorage(t, name)
	store, err = core.Open(s, core.Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := versions(t, store); !slices.Equal(got, want) {
		t.Fatalf("reopened store after the failed PUT: %q, want %q", got, want)
	}
	if res, err := store.PutObject("demo", "k", []byte("new"), core.PutOptions{}); err != nil || res.VersionID != "v00000002" {
		t.Fatalf("retried PUT = %+v, %v; want version v00000002", res, err)
	}
	want = []string{"k v00000002 new", "k v00000001 old"}
	if got := versions(t, store); !slices.Equal(got, want) {
		t.Fatalf("after the retry: %q, want %q", got, want)
	}
}

// versions lists every version of bucket demo as "key id body".
func versions(t *testing.T, store *core.Store) []string {
	t.Helper()
	res, err := store.ListObjectVersions("demo", core.ListVersionsOptions{MaxKeys: -1})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range res.Versions {
		obj, err := store.GetObject("demo", v.Key, core.GetOptions{VersionID: v.VersionID})
		if err != nil {
			t.Fatalf("GET %s %s: %v", v.Key, v.VersionID, err)
		}
		out = append(out, fmt.Sprintf("%s %s %s", v.Key, v.VersionID, obj.Body))
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// setClock moves the store's manual clock, which passes no midnight with
// a lifecycle run to do.
func setClock(t *testing.T, store *core.Store, now float64) {
	t.Helper()
	if runs, err := store.SetClock(now); err != nil || len(runs) != 0 {
		t.Fatalf("SetClock(%v) = %v, %v; want no runs", now, runs, err)
	}
}

// TestReopenRestoresStore closes a store and reopens it from IndexedDB:
// buckets, versions, markers, creation times, the manual clock and its
// origin, the bucket's lifecycle configuration, and versions' tags and
// storage classes survive.
func TestReopenRestoresStore(t *testing.T) {
	name := freshName(t)
	const origin = 1764806400 // 2025-12-04T00:00:00Z
	opts := core.Options{ManualClock: true, Origin: origin}
	store, err := core.Open(openStorage(t, name), opts)
	if err != nil {
		t.Fatal(err)
	}
	setClock(t, store, 1.5)
	must(t, store.CreateBucket("demo"))
	must(t, store.SetBucketVersioning("demo", core.Enabled))
	days := 30
	must(t, store.PutBucketLifecycle("demo", core.LifecycleConfiguration{Rules: []core.LifecycleRule{
		{Enabled: true, Filter: &core.LifecycleFilter{Tag: &core.Tag{Key: "keep", Value: "no"}}, Expiration: &core.LifecycleExpiration{Days: &days}},
	}}))
	tagged := core.PutOptions{Meta: core.ObjectMeta{StorageClass: "GLACIER", Tags: []core.Tag{{Key: "keep", Value: "no"}}}}
	if _, err := store.PutObject("demo", "logs/app.log", []byte("old"), tagged); err != nil {
		t.Fatal(err)
	}
	setClock(t, store, 5)
	if _, err := store.PutObject("demo", "logs/app.log", []byte("current"), core.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	setClock(t, store, 7.25)
	if _, err := store.DeleteObject("demo", "logs/app.log", core.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	setClock(t, store, 14.999)
	before := snapshot(t, store)
	must(t, store.Close())

	// Another origin for a new store does not replace the stored one.
	store, err = core.Open(openStorage(t, name), core.Options{ManualClock: true, Origin: 2 * origin})
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, store); got != before {
		t.Fatalf("reopened store:\n%s\nwant:\n%s", got, before)
	}
	for _, want := range []string{
		"clock 14.999 origin 2025-12-04T00:00:00Z", "demo created 1.5 enabled",
		`lifecycle {"Rules":[{"ID":"rule-1","Status":"Enabled","Filter":{"Tag":{"Key":"keep","Value":"no"}},"Expiration":{"Days":30}}]}`,
		"logs/app.log v00000003 marker=true at 7.25",
		"logs/app.log v00000001 marker=false at 1.5 size 3 etag 149603e6c03516362a8da23f624db945 latest=false class GLACIER tags [{keep no}]",
		"logs/app.log v00000002 marker=false at 5 size 7 etag 43b5c9175984c071f30b873fdce0a000 latest=false class STANDARD tags []",
	} {
		if !strings.Contains(before, want) {
			t.Fatalf("snapshot misses %q:\n%s", want, before)
		}
	}
}

// snapshot describes everything a learner can see of a store.
func snapshot(t *testing.T, store *core.Store) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "clock %v origin %s\n", store.Now(), time.Unix(int64(store.Origin()), 0).UTC().Format(time.RFC3339))
	for _, info := range store.ListBuckets() {
		fmt.Fprintf(&b, "%s created %v %s\n", info.Name, info.CreatedAt, info.Versioning)
		if cfg, err := store.BucketLifecycle(info.Name); err == nil {
			cfgJSON, err := json.Marshal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "lifecycle %s\n", cfgJSON)
		}
		res, err := store.ListObjectVersions(info.Name, core.ListVersionsOptions{MaxKeys: -1})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range res.Versions {
			fmt.Fprintf(&b, "%s %s marker=%v at %v size %d etag %s latest=%v", v.Key, v.VersionID, v.IsDeleteMarker, v.CreatedAt, v.Size, v.ETag, v.IsLatest)
			if !v.IsDeleteMarker {
				_, tags, err := store.ObjectTagging(info.Name, v.Key, v.VersionID)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, " class %s tags %v", cmp.Or(v.StorageClass, "STANDARD"), tags)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestOpenRefusesSchemaVersion1 writes a database of schema version 1 (one
// "items" store, as a MiniS3 before release did): Open refuses it with an
// error naming its version, and leaves it as it was.
func TestOpenRefusesSchemaVersion1(t *testing.T) {
	name := freshName(t)
	writeVersion1(t, name, map[string][]byte{"bucket:demo": []byte(`{}`)})
	_, err := Open(testContext(t), name)
	if err == nil || !strings.Contains(err.Error(), "schema version 1; this MiniS3 reads version 2 only") {
		t.Fatalf("Open of a version 1 database = %v, want an error naming version 1", err)
	}
	version, stores := inspect(t, name)
	if version != 1 || !slices.Equal(stores, []string{"items"}) {
		t.Fatalf("after the refusal: version %d, stores %v; want 1, [items]", version, stores)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	name := freshName(t)
	ctx := testContext(t)
	req, err := idb.Global().Open(ctx, name, SchemaVersion+1, func(*idb.Database, uint, uint) error { return nil })
	must(t, err)
	db, err := req.Await(ctx)
	must(t, err)
	must(t, db.Close())
	_, err = Open(ctx, name)
	if err == nil || !strings.Contains(err.Error(), "newer MiniS3") {
		t.Fatalf("Open of a newer database = %v, want a newer-schema error", err)
	}
}

func TestClosedStorageFails(t *testing.T) {
	s := openStorage(t, freshName(t))
	must(t, s.Close())
	if err := s.Commit(core.ChangeSet{{Kind: core.KindMeta, Key: "store", Value: []byte("x")}}); !errors.Is(err, errClosed) {
		t.Fatalf("Commit after Close = %v, want errClosed", err)
	}
	if _, err := s.ReadBody("x"); !errors.Is(err, errClosed) {
		t.Fatalf("ReadBody after Close = %v, want errClosed", err)
	}
}

// writeVersion1 creates database name at schema version 1 with the library
// alone, as a MiniS3 of that version did, holding the given items.
func writeVersion1(t *testing.T, name string, legacy map[string][]byte) {
	t.Helper()
	ctx := testContext(t)
	req, err := idb.Global().Open(ctx, name, 1, func(db *idb.Database, _, _ uint) error {
		_, err := db.CreateObjectStore("items", idb.ObjectStoreOptions{})
		return err
	})
	must(t, err)
	db, err := req.Await(ctx)
	must(t, err)
	defer db.Close()
	tx, err := db.Transaction(idb.TransactionReadWrite, "items")
	must(t, err)
	store, err := tx.ObjectStore("items")
	must(t, err)
	for k, v := range legacy {
		_, err := store.PutKey(js.ValueOf(k), uint8Array(v))
		must(t, err)
	}
	must(t, tx.Await(ctx))
}

// inspect reports the version and the sorted object store names of
// database name.
func inspect(t *testing.T, name string) (uint, []string) {
	t.Helper()
	ctx := testContext(t)
	req, err := idb.Global().Open(ctx, name, 0, func(*idb.Database, uint, uint) error { return nil })
	must(t, err)
	db, err := req.Await(ctx)
	must(t, err)
	defer db.Close()
	version, err := db.Version()
	must(t, err)
	stores, err := db.ObjectStoreNames()
	must(t, err)
	return version, sorted(stores)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Load reads whole object stores at once (readAll) and must still refuse,
// with a message naming the item, a value some other code stored that is
// not bytes, rather than panic or skip it.
func TestLoadRefusesAValueThatIsNotBytes(t *testing.T) {
	s := openStorage(t, freshName(t))
	must(t, s.Commit(core.ChangeSet{{Kind: core.KindRecord, Key: "b/good", Value: []byte("v")}}))
	tx, err := s.transaction(idb.TransactionReadWrite, []string{storeRecords})
	must(t, err)
	store, err := tx.ObjectStore(storeRecords)
	must(t, err)
	_, err = store.PutKey(js.ValueOf("b/odd"), js.ValueOf("not bytes"))
	must(t, err)
	must(t, tx.Await(testContext(t)))
	err = s.Load(func(core.Kind, string, []byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), `"b/odd"`) || !strings.Contains(err.Error(), "not a Uint8Array") {
		t.Fatalf("Load = %v, want an error naming b/odd's value", err)
	}
}

// A database deleted under an open storage (another tab's DeleteDatabase,
// which closes this connection first) is not recreated empty by a Load:
// Load fails and says why.
func TestLoadOfADeletedDatabaseFails(t *testing.T) {
	name := freshName(t)
	s := openStorage(t, name)
	must(t, s.Commit(core.ChangeSet{{Kind: core.KindRecord, Key: "b/k", Value: []byte("v")}}))
	must(t, DeleteDatabase(testContext(t), name))
	err := s.Load(func(core.Kind, string, []byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "no longer exists") {
		t.Fatalf("Load of a deleted database = %v, want an error saying it no longer exists", err)
	}
}
