package core_test

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
)

// loaded is every non-body item s holds, by kind and key.
func loaded(t *testing.T, s core.Storage) map[string][]byte {
	t.Helper()
	out := make(map[string][]byte)
	if err := s.Load(func(kind core.Kind, key string, value []byte) error {
		out[kind.String()+" "+key] = value
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A failed upgrade fails Open and leaves the storage as it was, for the
// next Open to try again.
func TestAFailedUpgradeChangesNothing(t *testing.T) {
	items, err := storagetest.Format2Items()
	if err != nil {
		t.Fatal(err)
	}
	mem := core.NewMemoryStorage()
	if err := mem.Commit(items); err != nil {
		t.Fatal(err)
	}
	before := loaded(t, mem)
	faults := core.NewFaultStorage(mem)
	faults.FailCommits(nil)
	if _, err := core.Open(faults, storagetest.Format2Options()); !errors.Is(err, core.ErrInjected) {
		t.Fatalf("Open with failing commits = %v, want the injected failure", err)
	}
	after := loaded(t, mem)
	if !maps.EqualFunc(after, before, bytes.Equal) {
		t.Fatalf("the failed upgrade changed the storage: %q, want %q", slices.Sorted(maps.Keys(after)), slices.Sorted(maps.Keys(before)))
	}
	faults.ClearFaults()
	s, err := core.Open(faults, storagetest.Format2Options())
	if err != nil {
		t.Fatalf("Open after the fault: %v", err)
	}
	if err := s.Check(); err != nil {
		t.Error(err)
	}
}
