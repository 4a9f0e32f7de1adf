// Package storagetest is a conformance suite for implementations of
// core.Storage. A storage's own tests call Run with a way to open a fresh,
// empty storage; every check runs as its own subtest named after the
// behaviour it pins.
//
//	func TestConformance(t *testing.T) {
//		storagetest.Run(t, func(t *testing.T) storagetest.Opener {
//			dir := t.TempDir()
//			return func() (core.Storage, error) { return mystore.Open(dir) }
//		})
//	}
package storagetest

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"minis3/core"
)

// Opener opens one underlying storage. Every call returns a new handle on
// the same data; the suite closes a handle before it asks for the next one,
// so a durable storage shows here that Close and reopen lose nothing.
//
// A storage that lives only in memory, like core.MemoryStorage, returns the
// same instance every time; its Close must then leave the data in place.
type Opener func() (core.Storage, error)

// Run runs the conformance suite. fresh is called once per subtest and
// returns an Opener for a new, empty storage of that subtest alone.
func Run(t *testing.T, fresh func(t *testing.T) Opener) {
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			h := &harness{t: t, open: fresh(t)}
			t.Cleanup(h.close)
			h.reopen()
			c.run(h)
		})
	}
}

var checks = []struct {
	name string
	run  func(h *harness)
}{
	{"CommitThenLoadSeesEveryNonBodyItem", commitThenLoadSeesEveryNonBodyItem},
	{"LoadNeverYieldsBodies", loadNeverYieldsBodies},
	{"LoadReturnsTheVisitError", loadReturnsTheVisitError},
	{"ReadBodyReturnsExactBytes", readBodyReturnsExactBytes},
	{"ReadBodyOfUnknownRefIsErrBodyNotFound", readBodyOfUnknownRefIsErrBodyNotFound},
	{"KindsAreSeparateNamespaces", kindsAreSeparateNamespaces},
	{"DeleteRemovesItems", deleteRemovesItems},
	{"LaterChangeForSameKeyWins", laterChangeForSameKeyWins},
	{"DeletingMissingItemIsNoError", deletingMissingItemIsNoError},
	{"EmptyCommitChangesNothing", emptyCommitChangesNothing},
	{"ReopenRestoresEverything", reopenRestoresEverything},
	{"OddKeysRoundTripByteExact", oddKeysRoundTripByteExact},
	{"OddTextKeysRoundTripByteExact", oddTextKeysRoundTripByteExact},
	{"ReturnedBytesBelongToTheCaller", returnedBytesBelongToTheCaller},
	{"LargeBodyRoundTrips", largeBodyRoundTrips},
	{"ConcurrentReadsAndCommits", concurrentReadsAndCommits},
}

// harness holds the handle a subtest works on.
type harness struct {
	t    *testing.T
	open Opener
	s    core.Storage // nil while closed
}

// reopen closes the current handle, if any, and opens a new one.
func (h *harness) reopen() {
	h.t.Helper()
	if h.s != nil {
		s := h.s
		h.s = nil
		if err := s.Close(); err != nil {
			h.t.Fatalf("Close: %v", err)
		}
	}
	s, err := h.open()
	if err != nil {
		h.t.Fatalf("open: %v", err)
	}
	h.s = s
}

func (h *harness) close() {
	if h.s == nil {
		return
	}
	if err := h.s.Close(); err != nil {
		h.t.Errorf("Close: %v", err)
	}
	h.s = nil
}

func (h *harness) commit(cs core.ChangeSet) {
	h.t.Helper()
	if err := h.s.Commit(cs); err != nil {
		h.t.Fatalf("Commit: %v", err)
	}
}

// item names a stored item.
type item struct {
	kind core.Kind
	key  string
}

func (i item) String() string { return fmt.Sprintf("%v %q", i.kind, i.key) }

// load returns every item Load visits and fails on a body or on an item
// visited twice.
func (h *harness) load() map[item][]byte {
	h.t.Helper()
	got := make(map[item][]byte)
	err := h.s.Load(func(kind core.Kind, key string, value []byte) error {
		it := item{kind, key}
		if kind == core.KindBody {
			return fmt.Errorf("Load visited body %q", key)
		}
		if _, dup := got[it]; dup {
			return fmt.Errorf("Load visited %v twice", it)
		}
		got[it] = bytes.Clone(value)
		return nil
	})
	if err != nil {
		h.t.Fatalf("Load: %v", err)
	}
	return got
}

// wantLoad checks that Load yields exactly want.
func (h *harness) wantLoad(want map[item][]byte) {
	h.t.Helper()
	got := h.load()
	for _, it := range sortedItems(want) {
		g, ok := got[it]
		switch {
		case !ok:
			h.t.Errorf("Load: %v missing", it)
		case !bytes.Equal(g, want[it]):
			h.t.Errorf("Load: %v = %s, want %s", it, abbrev(g), abbrev(want[it]))
		}
	}
	for _, it := range sortedItems(got) {
		if _, ok := want[it]; !ok {
			h.t.Errorf("Load: unexpected %v = %s", it, abbrev(got[it]))
		}
	}
}

// wantBody checks that ReadBody(ref) returns exactly want, non-nil.
func (h *harness) wantBody(ref string, want []byte) {
	h.t.Helper()
	got, err := h.s.ReadBody(ref)
	switch {
	case err != nil:
		h.t.Errorf("ReadBody(%q): %v", ref, err)
	case got == nil:
		h.t.Errorf("ReadBody(%q) = nil, want %s (an empty body is an empty, non-nil slice)", ref, abbrev(want))
	case !bytes.Equal(got, want):
		h.t.Errorf("ReadBody(%q) = %s, want %s", ref, abbrev(got), abbrev(want))
	}
}

// wantNoBody checks that ReadBody(ref) fails with ErrBodyNotFound.
func (h *harness) wantNoBody(ref string) {
	h.t.Helper()
	got, err := h.s.ReadBody(ref)
	if !errors.Is(err, core.ErrBodyNotFound) {
		h.t.Errorf("ReadBody(%q) = %s, %v; want error wrapping core.ErrBodyNotFound", ref, abbrev(got), err)
	}
}

func sortedItems[V any](m map[item]V) []item {
	return slices.SortedFunc(maps.Keys(m), func(a, b item) int {
		if a.kind != b.kind {
			return int(a.kind) - int(b.kind)
		}
		return strings.Compare(a.key, b.key)
	})
}

// abbrev shows bytes in a failure message, cut short when long.
func abbrev(b []byte) string {
	if b == nil {
		return "nil"
	}
	if len(b) > 48 {
		return fmt.Sprintf("%q... (%d bytes)", b[:48], len(b))
	}
	return fmt.Sprintf("%q (%d bytes)", b, len(b))
}

// metadataKinds are the kinds Load yields.
var metadataKinds = []core.Kind{core.KindMeta, core.KindBucket, core.KindRecord, core.KindUpload}

// sample is a small store's worth of items of every kind; its bodies are
// listed apart, by ref.
func sample() (items map[item][]byte, bodies map[string][]byte) {
	items = map[item][]byte{
		{core.KindMeta, "store"}:               []byte(`{"format":1,"clock":12.5}`),
		{core.KindBucket, "photos"}:            []byte(`{"name":"photos"}`),
		{core.KindBucket, "docs"}:              []byte(`{"name":"docs"}`),
		{core.KindRecord, "photos/cat.jpg"}:    []byte(`{"k":"cat.jpg"}`),
		{core.KindRecord, "photos/dir/dog"}:    []byte("\x00binary\xff record\x00"),
		{core.KindRecord, "docs/readme"}:       []byte(`{"k":"readme"}`),
		{core.KindUpload, "photos/u00000001"}:  []byte(`{"id":"u00000001"}`),
		{core.KindRecord, "docs/empty-record"}: {},
	}
	bodies = map[string][]byte{
		"photos/0000000000000001":   []byte("meow"),
		"photos/u00000001/1":        bytes.Repeat([]byte{0, 1, 2, 0xff}, 300),
		"docs/0000000000000002":     {},
		"docs/0000000000000003":     []byte("readme\n"),
		"photos/u00000001/10000":    []byte("last part"),
		"docs/0000000000000004/odd": []byte("\x00"),
	}
	return items, bodies
}

// changes writes items and bodies.
func changes(items map[item][]byte, bodies map[string][]byte) core.ChangeSet {
	var cs core.ChangeSet
	for _, it := range sortedItems(items) {
		cs = append(cs, core.Change{Kind: it.kind, Key: it.key, Value: items[it]})
	}
	for _, ref := range slices.Sorted(maps.Keys(bodies)) {
		cs = append(cs, core.Change{Kind: core.KindBody, Key: ref, Value: bodies[ref]})
	}
	return cs
}

func commitThenLoadSeesEveryNonBodyItem(h *harness) {
	items, bodies := sample()
	h.commit(changes(items, bodies))
	h.wantLoad(items)
}

func loadNeverYieldsBodies(h *harness) {
	_, bodies := sample()
	h.commit(changes(nil, bodies))
	h.wantLoad(map[item][]byte{})
	items, _ := sample()
	h.commit(changes(items, nil))
	h.wantLoad(items)
}

func loadReturnsTheVisitError(h *harness) {
	items, _ := sample()
	h.commit(changes(items, nil))
	stop := errors.New("visit says stop")
	visits := 0
	err := h.s.Load(func(core.Kind, string, []byte) error {
		visits++
		return stop
	})
	if !errors.Is(err, stop) {
		h.t.Errorf("Load = %v, want the visit's error", err)
	}
	if visits != 1 {
		h.t.Errorf("Load visited %d items after the first one failed, want it to stop", visits-1)
	}
}

func readBodyReturnsExactBytes(h *harness) {
	every := make([]byte, 256)
	for i := range every {
		every[i] = byte(i)
	}
	tests := []struct {
		name  string
		value []byte
		want  []byte
	}{
		{"empty non-nil", []byte{}, []byte{}},
		{"nil value", nil, []byte{}},
		{"text", []byte("hello, world\n"), []byte("hello, world\n")},
		{"NULs", []byte{0, 0, 0}, []byte{0, 0, 0}},
		{"binary with NULs", []byte("\x00a\x00\xff\xfe\x00"), []byte("\x00a\x00\xff\xfe\x00")},
		{"every byte", every, every},
		{"4 KiB page-sized", bytes.Repeat([]byte{0x5a}, 4096), bytes.Repeat([]byte{0x5a}, 4096)},
	}
	var cs core.ChangeSet
	for _, tt := range tests {
		cs = append(cs, core.Change{Kind: core.KindBody, Key: "b/" + tt.name, Value: tt.value})
	}
	h.commit(cs)
	for _, tt := range tests {
		h.wantBody("b/"+tt.name, tt.want)
	}
	h.reopen()
	for _, tt := range tests {
		h.wantBody("b/"+tt.name, tt.want)
	}
}

func readBodyOfUnknownRefIsErrBodyNotFound(h *harness) {
	h.wantNoBody("never/written")
	items, bodies := sample()
	h.commit(changes(items, bodies))
	for _, ref := range []string{
		"never/written",
		"photos/0000000000000009",
		"photos/cat.jpg", // a record's key, not a body's
		"store",          // the metadata's key
		"photos/00000000000000011",
		"photos/000000000000000", // a prefix of a stored ref
		"PHOTOS/0000000000000001",
	} {
		h.wantNoBody(ref)
	}
}

func kindsAreSeparateNamespaces(h *harness) {
	const key = "shared/key"
	var cs core.ChangeSet
	want := make(map[item][]byte)
	for _, k := range metadataKinds {
		v := []byte("value of kind " + k.String())
		cs = append(cs, core.Change{Kind: k, Key: key, Value: v})
		want[item{k, key}] = v
	}
	cs = append(cs, core.Change{Kind: core.KindBody, Key: key, Value: []byte("body")})
	h.commit(cs)
	h.wantLoad(want)
	h.wantBody(key, []byte("body"))

	h.commit(core.ChangeSet{{Kind: core.KindRecord, Key: key, Delete: true}})
	delete(want, item{core.KindRecord, key})
	h.wantLoad(want)
	h.wantBody(key, []byte("body"))

	h.commit(core.ChangeSet{{Kind: core.KindBody, Key: key, Delete: true}})
	h.wantLoad(want)
	h.wantNoBody(key)
}

func deleteRemovesItems(h *harness) {
	items, bodies := sample()
	h.commit(changes(items, bodies))
	gone := []item{
		{core.KindMeta, "store"},
		{core.KindBucket, "docs"},
		{core.KindRecord, "photos/dir/dog"},
		{core.KindUpload, "photos/u00000001"},
		{core.KindRecord, "docs/empty-record"},
	}
	goneBodies := []string{"photos/u00000001/1", "docs/0000000000000002"}
	var cs core.ChangeSet
	for _, it := range gone {
		// A Value on a delete is ignored.
		cs = append(cs, core.Change{Kind: it.kind, Key: it.key, Value: []byte("ignored"), Delete: true})
		delete(items, it)
	}
	for _, ref := range goneBodies {
		cs = append(cs, core.Change{Kind: core.KindBody, Key: ref, Delete: true})
	}
	h.commit(cs)
	h.wantLoad(items)
	for _, ref := range goneBodies {
		h.wantNoBody(ref)
		delete(bodies, ref)
	}
	for ref, b := range bodies {
		h.wantBody(ref, b)
	}
	h.reopen()
	h.wantLoad(items)
	for _, ref := range goneBodies {
		h.wantNoBody(ref)
	}
}

func laterChangeForSameKeyWins(h *harness) {
	h.commit(core.ChangeSet{
		{Kind: core.KindRecord, Key: "b/deleted-then-put", Value: []byte("old")},
		{Kind: core.KindBody, Key: "b/deleted-then-put", Value: []byte("old body")},
	})
	tests := []struct {
		name    string
		changes []core.Change // for one key; Key and Kind are filled in
		want    []byte        // nil: absent
	}{
		{"put then put", []core.Change{{Value: []byte("first")}, {Value: []byte("second")}}, []byte("second")},
		{"put then delete", []core.Change{{Value: []byte("first")}, {Delete: true}}, nil},
		{"delete then put", []core.Change{{Delete: true}, {Value: []byte("again")}}, []byte("again")},
		{"deleted-then-put", []core.Change{{Delete: true}, {Value: []byte("new")}}, []byte("new")},
		{"put, delete, put", []core.Change{{Value: []byte("1")}, {Delete: true}, {Value: []byte("3")}}, []byte("3")},
		{"put then put empty", []core.Change{{Value: []byte("full")}, {Value: []byte{}}}, []byte{}},
	}
	var cs core.ChangeSet
	for _, tt := range tests {
		for _, kind := range []core.Kind{core.KindRecord, core.KindBody} {
			for _, c := range tt.changes {
				c.Kind, c.Key = kind, "b/"+tt.name
				cs = append(cs, c)
			}
		}
	}
	h.commit(cs)
	check := func() {
		want := make(map[item][]byte)
		for _, tt := range tests {
			if tt.want == nil {
				h.wantNoBody("b/" + tt.name)
				continue
			}
			want[item{core.KindRecord, "b/" + tt.name}] = tt.want
			h.wantBody("b/"+tt.name, tt.want)
		}
		h.wantLoad(want)
	}
	check()
	h.reopen()
	check()
}

func deletingMissingItemIsNoError(h *harness) {
	var cs core.ChangeSet
	for _, k := range append(slices.Clone(metadataKinds), core.KindBody) {
		cs = append(cs, core.Change{Kind: k, Key: "missing/" + k.String(), Delete: true})
	}
	h.commit(cs) // into an empty storage
	items, bodies := sample()
	h.commit(changes(items, bodies))
	h.commit(append(cs, core.Change{Kind: core.KindRecord, Key: "docs/readme", Value: []byte("v2")}))
	items[item{core.KindRecord, "docs/readme"}] = []byte("v2")
	h.wantLoad(items)
	for ref, b := range bodies {
		h.wantBody(ref, b)
	}
}

func emptyCommitChangesNothing(h *harness) {
	h.commit(nil)
	h.commit(core.ChangeSet{})
	h.wantLoad(map[item][]byte{})
	items, bodies := sample()
	h.commit(changes(items, bodies))
	h.commit(core.ChangeSet{})
	h.wantLoad(items)
}

func reopenRestoresEverything(h *harness) {
	items, bodies := sample()
	h.commit(changes(items, bodies))
	// A second commit, so that reopening must see more than the first.
	h.commit(core.ChangeSet{
		{Kind: core.KindMeta, Key: "store", Value: []byte(`{"format":1,"clock":99}`)},
		{Kind: core.KindRecord, Key: "docs/new", Value: []byte(`{"k":"new"}`)},
		{Kind: core.KindBody, Key: "docs/0000000000000005", Value: []byte("new body")},
	})
	items[item{core.KindMeta, "store"}] = []byte(`{"format":1,"clock":99}`)
	items[item{core.KindRecord, "docs/new"}] = []byte(`{"k":"new"}`)
	bodies["docs/0000000000000005"] = []byte("new body")
	for range 2 {
		h.reopen()
		h.wantLoad(items)
		for ref, b := range bodies {
			h.wantBody(ref, b)
		}
	}
	h.commit(core.ChangeSet{{Kind: core.KindBucket, Key: "after-reopen", Value: []byte("x")}})
	items[item{core.KindBucket, "after-reopen"}] = []byte("x")
	h.reopen()
	h.wantLoad(items)
}

// oddKeys are keys that a storage must keep byte-exact: separators, dots,
// escapes, NULs, invalid UTF-8, a leading byte order mark (which a
// TextDecoder drops) and a long UTF-8 key (1,100 bytes: a 1,024-byte object
// key under a long bucket name).
var oddKeys = []string{
	"a/b",
	"a//b",
	"/leading",
	"trailing/",
	"..",
	"../../etc/passwd",
	".",
	"%2F",
	"a%2Fb",
	"\x00",
	"a\x00b",
	"\x00\x00",
	"\xff\xfe",
	"space in key",
	"tab\tnewline\n",
	`back\slash`,
	"😀/ключ/鍵",
	"\ufeffstarts with a byte order mark",
	strings.Repeat("é", 550),
	strings.Repeat("x", 1100),
}

func oddKeysRoundTripByteExact(h *harness) { keysRoundTripByteExact(h, oddKeys) }

// oddTextKeysRoundTripByteExact is oddKeysRoundTripByteExact over the odd
// keys that are valid UTF-8 and keep their first byte as text, and more
// that text formats escape (quotes, control characters, line separators):
// a storage may keep and read such keys as text (IndexedDB reads them all
// at once through JSON when no key is binary).
func oddTextKeysRoundTripByteExact(h *harness) {
	var keys []string
	for _, k := range oddKeys {
		if utf8.ValidString(k) && !strings.HasPrefix(k, "\ufeff") {
			keys = append(keys, k)
		}
	}
	keys = append(keys, `"quoted"`, `\u0041`, "\x01\x1f\x7f", "\u2028\u2029", "</script>&amp;")
	keysRoundTripByteExact(h, keys)
}

func keysRoundTripByteExact(h *harness, oddKeys []string) {
	want := make(map[item][]byte)
	var cs core.ChangeSet
	for i, key := range oddKeys {
		v := fmt.Appendf(nil, "value %d", i)
		for _, k := range metadataKinds {
			cs = append(cs, core.Change{Kind: k, Key: key, Value: v})
			want[item{k, key}] = v
		}
		cs = append(cs, core.Change{Kind: core.KindBody, Key: key, Value: v})
	}
	h.commit(cs)
	check := func() {
		h.wantLoad(want)
		for i, key := range oddKeys {
			h.wantBody(key, fmt.Appendf(nil, "value %d", i))
		}
		// Near misses of odd keys are other keys.
		for _, ref := range []string{"a", "a/", "a\x00", "%2f", "\x00\x00\x00", strings.Repeat("é", 549)} {
			h.wantNoBody(ref)
		}
	}
	check()
	h.reopen()
	check()
}

// returnedBytesBelongToTheCaller checks that what ReadBody and Load hand
// out is the caller's: changing it changes nothing stored, and later commits
// (overwriting the same items, growing the storage) do not change it.
func returnedBytesBelongToTheCaller(h *harness) {
	h.commit(core.ChangeSet{
		{Kind: core.KindBody, Key: "b/k", Value: []byte("stored body")},
		{Kind: core.KindRecord, Key: "b/k", Value: []byte("stored record")},
	})
	body, err := h.s.ReadBody("b/k")
	if err != nil {
		h.t.Fatalf("ReadBody: %v", err)
	}
	var record []byte
	if err := h.s.Load(func(_ core.Kind, _ string, value []byte) error {
		record = value
		return nil
	}); err != nil {
		h.t.Fatalf("Load: %v", err)
	}

	grow := core.ChangeSet{
		{Kind: core.KindBody, Key: "b/k", Value: []byte("OVERWRITTEN")},
		{Kind: core.KindRecord, Key: "b/k", Value: []byte("OVERWRITTEN!!")},
	}
	want := map[item][]byte{{core.KindRecord, "b/k"}: []byte("OVERWRITTEN!!")}
	for i := range 64 {
		key, value := fmt.Sprintf("b/grow/%d", i), bytes.Repeat([]byte{byte(i)}, 64<<10)
		grow = append(grow,
			core.Change{Kind: core.KindBody, Key: key, Value: value},
			core.Change{Kind: core.KindRecord, Key: key, Value: value[:4<<10]})
		want[item{core.KindRecord, key}] = value[:4<<10]
	}
	h.commit(grow)
	h.commit(core.ChangeSet{{Kind: core.KindBody, Key: "b/k", Value: []byte("AGAIN")}})
	if string(body) != "stored body" || string(record) != "stored record" {
		h.t.Errorf("after later commits, earlier ReadBody and Load results changed to %q and %q", body, record)
	}

	copy(body, "XXXXXXXXXXX")
	copy(record, "XXXXXXXXXXXXX")
	h.wantBody("b/k", []byte("AGAIN"))
	h.wantLoad(want)

	h.commit(core.ChangeSet{{Kind: core.KindBody, Key: "b/fresh", Value: []byte("fresh")}})
	fresh, err := h.s.ReadBody("b/fresh")
	if err != nil {
		h.t.Fatalf("ReadBody: %v", err)
	}
	copy(fresh, "XXXXX")
	h.wantBody("b/fresh", []byte("fresh"))
	if err := h.s.Load(func(_ core.Kind, _ string, value []byte) error {
		copy(value, "XXXXXXXXXXXXX")
		return nil
	}); err != nil {
		h.t.Fatalf("Load: %v", err)
	}
	h.wantLoad(want)
}

// largeBodySize is the size of the large body the suite round-trips.
const largeBodySize = 8 << 20

func largeBodyRoundTrips(h *harness) {
	big := make([]byte, largeBodySize)
	rng := rand.NewChaCha8([32]byte{'m', 'i', 'n', 'i', 's', '3'})
	if _, err := rng.Read(big); err != nil {
		h.t.Fatal(err)
	}
	h.commit(core.ChangeSet{
		{Kind: core.KindRecord, Key: "b/big", Value: []byte("meta")},
		{Kind: core.KindBody, Key: "b/big", Value: big},
	})
	h.wantBody("b/big", big)
	h.reopen()
	h.wantBody("b/big", big)
	h.wantLoad(map[item][]byte{{core.KindRecord, "b/big"}: []byte("meta")})
}

// concurrentReadsAndCommits reads bodies and loads while other goroutines
// commit, as a store's readers and writers do; run it with -race.
func concurrentReadsAndCommits(h *harness) {
	h.commit(core.ChangeSet{{Kind: core.KindBody, Key: "fixed", Value: []byte("fixed body")}})
	const writers, commits = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*commits*3)
	for w := range writers {
		wg.Go(func() {
			for i := range commits {
				key := fmt.Sprintf("w%d/%d", w, i)
				if err := h.s.Commit(core.ChangeSet{
					{Kind: core.KindRecord, Key: key, Value: []byte(key)},
					{Kind: core.KindBody, Key: key, Value: []byte(key)},
				}); err != nil {
					errs <- fmt.Errorf("Commit %s: %w", key, err)
				}
			}
		})
		wg.Go(func() {
			for range commits {
				if b, err := h.s.ReadBody("fixed"); err != nil || string(b) != "fixed body" {
					errs <- fmt.Errorf("ReadBody(fixed) = %q, %v during commits", b, err)
				}
				if err := h.s.Load(func(core.Kind, string, []byte) error { return nil }); err != nil {
					errs <- fmt.Errorf("Load during commits: %w", err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		h.t.Error(err)
	}
	want := make(map[item][]byte)
	for w := range writers {
		for i := range commits {
			key := fmt.Sprintf("w%d/%d", w, i)
			want[item{core.KindRecord, key}] = []byte(key)
			h.wantBody(key, []byte(key))
		}
	}
	h.wantLoad(want)
}
