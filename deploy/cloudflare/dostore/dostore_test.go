//go:build js && wasm

package dostore_test

import (
	"syscall/js"
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
	"minis3/deploy/cloudflare/dostore"
)

// These tests run inside a Durable Object under Miniflare (the
// StorageConformance object of deploy/cloudflare/workertest), which gives
// them its storage through globalThis.context.
var context = js.Global().Get("context")

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storagetest.Opener {
		context.Call("freshStorage")
		return func() (core.Storage, error) { return dostore.New(context.Call("openStorage")), nil }
	})
}
