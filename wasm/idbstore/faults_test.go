//go:build js && wasm

package idbstore

import (
	"errors"
	"slices"
	"strings"
	"syscall/js"
	"testing"

	"github.com/hack-pad/go-indexeddb/idb"

	"minis3/core"
)

// openCore opens a core store with the manual clock over storage s.
func openCore(t *testing.T, s *Storage) *core.Store {
	t.Helper()
	store, err := core.Open(s, core.Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	return store
}

// TestSecondWriterConflicts opens two storages on one database, as two tabs
// do. A commit of one after the other committed fails with ErrConflict and
// writes nothing; reloading and retrying takes the next version ID.
func TestSecondWriterConflicts(t *testing.T) {
	name := freshName(t)
	s1, s2 := openStorage(t, name), openStorage(t, name)
	a := openCore(t, s1)
	must(t, a.CreateBucket("demo"))
	must(t, a.SetBucketVersioning("demo", core.Enabled))
	b := openCore(t, s2)
	for i, store := range []*core.Store{a, b, a, b} {
		if i%2 == 1 {
			if stale, err := s2.Stale(); err != nil || !stale {
				t.Fatalf("tab b Stale() = %v, %v after tab a wrote, want true", stale, err)
			}
		}
		_, err := store.PutObject("demo", "k", []byte{byte('a' + i%2)}, core.PutOptions{})
		if i == 0 {
			must(t, err)
			continue
		}
		if !errors.Is(err, ErrConflict) {
			t.Fatalf("PUT %d on a store the other tab overtook = %v, want ErrConflict", i, err)
		}
		// Reload, as the JS API does, and retry.
		store = openCore(t, map[bool]*Storage{true: s1, false: s2}[i%2 == 0])
		if i%2 == 0 {
			a = store
		} else {
			b = store
		}
		if _, err := store.PutObject("demo", "k", []byte{byte('a' + i%2)}, core.PutOptions{}); err != nil {
			t.Fatalf("retried PUT %d: %v", i, err)
		}
	}
	want := []string{"k v00000004 b", "k v00000003 a", "k v00000002 b", "k v00000001 a"}
	if got := versions(t, openCore(t, s1)); !slices.Equal(got, want) {
		t.Fatalf("after interleaved PUTs: %q, want %q", got, want)
	}
	reopened := openCore(t, openStorage(t, name))
	if got := versions(t, reopened); !slices.Equal(got, want) {
		t.Fatalf("reopened: %q, want %q", got, want)
	}
	must(t, reopened.Check())
}

// domException is a DOMException as the browser throws it.
func domException(name string) error {
	return js.Error{Value: js.Global().Get("DOMException").New("simulated "+name, name)}
}

// TestCommitFaultsLeaveStoreUnchanged fails commits the way the browser
// does: quota exceeded, an aborted transaction. Each leaves the live store
// and IndexedDB unchanged and names its cause.
func TestCommitFaultsLeaveStoreUnchanged(t *testing.T) {
	for _, c := range []struct {
		fault string
		class error
		want  string
	}{
		{"QuotaExceededError", ErrQuota, "quota exceeded"},
		{"AbortError", ErrAborted, "transaction aborted"},
	} {
		t.Run(c.fault, func(t *testing.T) {
			name := freshName(t)
			s := openStorage(t, name)
			store := openCore(t, s)
			must(t, store.CreateBucket("demo"))
			must(t, store.SetBucketVersioning("demo", core.Enabled))
			if _, err := store.PutObject("demo", "k", []byte("old"), core.PutOptions{}); err != nil {
				t.Fatal(err)
			}
			s.inTx = func(*idb.Transaction) error { return domException(c.fault) }
			_, err := store.PutObject("demo", "k", []byte("new"), core.PutOptions{})
			var e *core.Error
			if !errors.As(err, &e) || e.Code != core.InternalError || !errors.Is(err, c.class) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("PUT with %s = %v, want an InternalError saying %q", c.fault, err, c.want)
			}
			want := []string{"k v00000001 old"}
			if got := versions(t, store); !slices.Equal(got, want) {
				t.Fatalf("live store after %s: %q, want %q", c.fault, got, want)
			}
			if got := versions(t, openCore(t, openStorage(t, name))); !slices.Equal(got, want) {
				t.Fatalf("IndexedDB after %s: %q, want %q", c.fault, got, want)
			}
			s.inTx = nil
			if res, err := store.PutObject("demo", "k", []byte("new"), core.PutOptions{}); err != nil || res.VersionID != "v00000002" {
				t.Fatalf("PUT after %s = %+v, %v; want v00000002", c.fault, res, err)
			}
		})
	}
}

// TestReconnectsAfterConnectionClosed closes the connection under the
// storage, as the library does on versionchange: the next commit reopens
// the database and lands.
func TestReconnectsAfterConnectionClosed(t *testing.T) {
	name := freshName(t)
	s := openStorage(t, name)
	store := openCore(t, s)
	must(t, store.CreateBucket("demo"))
	db, err := s.database()
	must(t, err)
	must(t, db.Close())
	must(t, store.CreateBucket("other"))
	got := []string{}
	for _, b := range openCore(t, openStorage(t, name)).ListBuckets() {
		got = append(got, b.Name)
	}
	if want := []string{"demo", "other"}; !slices.Equal(got, want) {
		t.Fatalf("buckets after reconnecting: %q, want %q", got, want)
	}
}

// TestNewerSchemaInAnotherTab upgrades the database past SchemaVersion from
// JavaScript, as a newer MiniS3 in another tab would. The library closes
// this storage's connection; the next commit cannot reconnect and says so,
// and the store is unchanged.
func TestNewerSchemaInAnotherTab(t *testing.T) {
	name := freshName(t)
	s := openStorage(t, name)
	store := openCore(t, s)
	must(t, store.CreateBucket("demo"))

	opened := make(chan error, 1)
	req := js.Global().Get("indexedDB").Call("open", name, SchemaVersion+1)
	onSuccess := js.FuncOf(func(js.Value, []js.Value) any {
		req.Get("result").Call("close")
		opened <- nil
		return nil
	})
	defer onSuccess.Release()
	onError := js.FuncOf(func(js.Value, []js.Value) any {
		opened <- errors.New(req.Get("error").Call("toString").String())
		return nil
	})
	defer onError.Release()
	req.Set("onsuccess", onSuccess)
	req.Set("onerror", onError)
	select {
	case err := <-opened:
		must(t, err)
	case <-testContext(t).Done():
		t.Fatal("the newer version's open never finished: the old connection blocked it")
	}

	err := store.CreateBucket("other")
	if !errors.Is(err, ErrConnectionClosed) || !strings.Contains(err.Error(), "newer MiniS3") || !strings.Contains(err.Error(), "reload") {
		t.Fatalf("commit after another tab's upgrade = %v, want ErrConnectionClosed naming the newer schema and saying to reload", err)
	}
	if got := store.ListBuckets(); len(got) != 1 || got[0].Name != "demo" {
		t.Fatalf("live buckets after the failed commit: %+v, want only demo", got)
	}
}
