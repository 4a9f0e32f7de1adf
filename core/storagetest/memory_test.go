package storagetest_test

import (
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
)

// TestMemoryStorage runs the suite on core.MemoryStorage. Its data lives in
// the instance, so "reopening" hands out the same instance again: Close
// keeps the data, as the Opener contract asks of memory storages.
func TestMemoryStorage(t *testing.T) {
	storagetest.Run(t, func(*testing.T) storagetest.Opener {
		m := core.NewMemoryStorage()
		return func() (core.Storage, error) { return m, nil }
	})
}
