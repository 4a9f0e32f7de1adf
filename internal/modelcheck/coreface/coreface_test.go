package coreface_test

import (
	"testing"

	"minis3/core"
	"minis3/core/boltstore"
	mc "minis3/internal/modelcheck"
	"minis3/internal/modelcheck/coreface"
)

// TestModelGoAPIInMemory checks the Go API against the model over memory
// storage: reopening loads the store again from the same items.
func TestModelGoAPIInMemory(t *testing.T) {
	mc.Check(t, mc.Config{Name: "go", Sequences: 300, Steps: 50, Open: func(t *testing.T, origin float64) mc.Face {
		storage := core.NewMemoryStorage()
		return open(t, func() (core.Storage, error) { return storage, nil }, origin)
	}})
}

// TestModelGoAPIOnBolt checks the Go API against the model over bbolt,
// closing the file and opening it again on every reopen step.
func TestModelGoAPIOnBolt(t *testing.T) {
	mc.Check(t, mc.Config{Name: "go-bolt", Sequences: 40, Steps: 50, Open: func(t *testing.T, origin float64) mc.Face {
		dir := t.TempDir()
		return open(t, func() (core.Storage, error) { return boltstore.Open(dir) }, origin)
	}})
}

func open(t *testing.T, storage func() (core.Storage, error), origin float64) mc.Face {
	f, err := coreface.New(storage, origin)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
