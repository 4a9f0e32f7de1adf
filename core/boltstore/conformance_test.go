package boltstore

import (
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
)

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storagetest.Opener {
		dir := t.TempDir()
		return func() (core.Storage, error) { return Open(dir) }
	})
}
