//go:build js && wasm

// Command wasm is MiniS3 for the browser: built with GOOS=js GOARCH=wasm
// into static/minis3.wasm (make wasm) and started by static/minis3.js.
//
// It defines globalThis.minis3 (package jsapi) over IndexedDB storage
// (package idbstore), and serves the S3 REST API of every open store inside
// the page through github.com/syumai/workers on this one long-lived Go
// instance: store.fetch(request) goes to the syumai binding's handleRequest,
// whose handler routes it to the right store.
//
// The loader must, before go.run: set globalThis.context = { binding: {} }
// (syumai reads it while this program initialises), define a global
// tryCatch(fn) returning { result } or { error }, and pass the import
// workers.ready, which this program calls once globalThis.minis3 is set.
package main

import (
	"context"
	"syscall/js"

	"github.com/syumai/workers"

	"minis3/core"
	"minis3/wasm/idbstore"
	"minis3/wasm/jsapi"
)

func main() {
	// syumai put handleRequest on this binding during package init.
	handleRequest := js.Global().Get("context").Get("binding").Get("handleRequest")
	api := jsapi.New(jsapi.Config{
		OpenDurable: func(ctx context.Context, name string) (core.Storage, error) {
			return idbstore.Open(ctx, name)
		},
		DeleteDurable: idbstore.DeleteDatabase,
		DurableKind:   "indexeddb",
		Fetch: func(req js.Value) js.Value {
			return handleRequest.Invoke(req)
		},
	})
	workers.ServeNonBlock(api.Handler())
	js.Global().Set("minis3", api.Value())
	workers.Ready()
	select {}
}
