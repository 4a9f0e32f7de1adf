//go:build js && wasm

package wasm_test

import (
	"fmt"
	"slices"
	"sync/atomic"
	"syscall/js"
	"testing"

	"minis3/core"
	"minis3/wasm/idbstore"
)

// TestTwoStoresOnOneDatabase opens one database twice at once, as two tabs
// do, and interleaves PUTs, clock moves and lifecycle ticks through both,
// then races PUTs of both against each other: with Web Locks (the writers
// take turns), without navigator.locks, and with a navigator.locks that
// refuses every request (the writers then detect conflicts and retry).
// Every write lands, no version ID is used twice, both stores list every
// version and see the last clock, and the reopened store passes core's
// invariant checks.
func TestTwoStoresOnOneDatabase(t *testing.T) {
	for _, c := range []struct {
		name      string
		locks     func(t *testing.T) // replaces navigator.locks for the test
		writeLock string             // what store.writeLock says
	}{
		{"WebLocks", nil, "web-locks"},
		{"NoWebLocks", withoutWebLocks, "none"},
		{"RefusedWebLocks", withRefusedWebLocks, "web-locks"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.locks != nil {
				c.locks(t)
			}
			twoStoresOnOneDatabase(t, c.writeLock)
		})
	}
}

// withoutWebLocks hides navigator.locks until the test ends.
func withoutWebLocks(t *testing.T) {
	replaceWebLocks(t, js.Undefined())
}

// withRefusedWebLocks replaces navigator.locks, until the test ends, by a
// lock manager that rejects every request, and checks that writes asked it.
func withRefusedWebLocks(t *testing.T) {
	var requests atomic.Int64
	request := js.FuncOf(func(js.Value, []js.Value) any {
		requests.Add(1)
		refusal := js.Global().Get("DOMException").New("refused by the test", "SecurityError")
		return js.Global().Get("Promise").Call("reject", refusal)
	})
	locks := js.Global().Get("Object").New()
	locks.Set("request", request)
	replaceWebLocks(t, locks)
	t.Cleanup(func() {
		request.Release()
		if requests.Load() == 0 {
			t.Error("no write asked navigator.locks for the lock")
		}
	})
}

// replaceWebLocks makes navigator.locks locks until the test ends.
func replaceWebLocks(t *testing.T, locks js.Value) {
	nav := js.Global().Get("navigator")
	desc := js.Global().Get("Object").New()
	desc.Set("value", locks)
	desc.Set("configurable", true)
	js.Global().Get("Object").Call("defineProperty", nav, "locks", desc)
	t.Cleanup(func() { js.Global().Get("Reflect").Call("deleteProperty", nav, "locks") })
}

func twoStoresOnOneDatabase(t *testing.T, writeLock string) {
	db := freshDB(t)
	api := newAPI().Value()
	options := object(fmt.Sprintf(`{"db": %q}`, db))
	// Both open the new database at once: only one may create it.
	opened := call(t, js.Global().Get("Promise"), "all", js.ValueOf([]any{api.Call("open", options), api.Call("open", options)}))
	a, b := opened.Index(0), opened.Index(1)
	for _, store := range []js.Value{a, b} {
		t.Cleanup(func() { settle(t, store.Call("close")) })
		if got := store.Get("writeLock").String(); got != writeLock {
			t.Errorf("store.writeLock = %q, want %q", got, writeLock)
		}
	}
	call(t, a, "createBucket", "demo")
	call(t, b, "setBucketVersioning", "demo", "enabled")
	rules := object(`[{"id": "old", "prefix": "", "expireNoncurrentAfter": 1000}]`)
	ids := map[string]bool{}
	var want []string
	for i := range 6 {
		store, name := a, "a"
		if i%2 == 1 {
			store, name = b, "b"
		}
		text := fmt.Sprintf("%s%d", name, i)
		id := call(t, store, "put", "demo", "k", text).Get("versionId").String()
		if ids[id] {
			t.Fatalf("PUT %d through %s reused version ID %s", i, name, id)
		}
		ids[id] = true
		want = append(want, id+" "+text)
		call(t, store, "setClock", 10*(i+1))
		call(t, store, "tick", "demo", rules)
	}
	// Both stores at once: they take turns, or their commits race and the
	// overtaken ones are reloaded and retried.
	var puts []any
	for i := range 8 {
		store := []js.Value{a, b}[i%2]
		puts = append(puts, store.Call("put", "demo", "k", fmt.Sprintf("race%d", i)))
	}
	results := call(t, js.Global().Get("Promise"), "all", js.ValueOf(puts))
	for i := range results.Length() {
		id := results.Index(i).Get("versionId").String()
		if ids[id] {
			t.Fatalf("concurrent PUT %d reused version ID %s", i, id)
		}
		ids[id] = true
		want = append(want, fmt.Sprintf("%s race%d", id, i))
	}
	slices.Sort(want)
	for name, store := range map[string]js.Value{"a": a, "b": b} {
		// A read after the other store's writes sees them.
		if got := listed(t, store); !slices.Equal(got, want) {
			t.Errorf("store %s lists %q, want %q", name, got, want)
		}
		if now := store.Call("now").Float(); now != 60 {
			t.Errorf("store %s: now() = %v, want 60", name, now)
		}
	}

	settle(t, a.Call("close"))
	settle(t, b.Call("close"))
	storage, err := idbstore.Open(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	store, err := core.Open(storage, core.Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := store.Check(); err != nil {
		t.Fatalf("Check after reopening: %v", err)
	}
	if store.Now() != 60 {
		t.Errorf("reopened clock = %v, want 60", store.Now())
	}
}

// listed is every version of bucket demo as "versionId body", sorted.
func listed(t *testing.T, store js.Value) []string {
	t.Helper()
	versions := call(t, store, "listVersions", "demo")
	var out []string
	for i := range versions.Length() {
		id := versions.Index(i).Get("versionId").String()
		text := call(t, store, "get", "demo", "k", object(fmt.Sprintf(`{"versionId": %q}`, id))).Get("text").String()
		out = append(out, id+" "+text)
	}
	slices.Sort(out)
	return out
}
