//go:build js && wasm

package jsapi

import (
	"strings"
	"sync"
	"syscall/js"
)

// A request body that store.fetch hands to the page's HTTP server is read
// chunk by chunk from its ReadableStream, and each chunk is copied into Go
// as bytes. The global fetch takes only Uint8Array chunks in a stream body
// and fails on any other with a TypeError; store.fetch does the same:
// checkedBody passes the stream through a TransformStream that errors it,
// with a TypeError saying what the chunk was, at the first chunk that is
// not a Uint8Array. The S3 handler then answers 400 (IncompleteBody) with
// that message, where reading the chunk as bytes would have failed.

// checkedBody returns req itself when it has no body, or a copy of req whose
// body is req's stream with every chunk checked.
func checkedBody(req js.Value) js.Value {
	body := req.Get("body")
	if !isSet(body) {
		return req
	}
	checked := body.Call("pipeThrough", js.Global().Get("TransformStream").New(chunkChecker()))
	init := js.Global().Get("Object").New()
	init.Set("body", checked)
	init.Set("duplex", "half")
	return js.Global().Get("Request").New(req, init)
}

// chunkChecker is the transformer of checkedBody's TransformStream, made
// once: it is the same for every request.
var chunkChecker = sync.OnceValue(func() js.Value {
	uint8Array := js.Global().Get("Uint8Array")
	transformer := js.Global().Get("Object").New()
	transformer.Set("transform", js.FuncOf(func(_ js.Value, args []js.Value) any {
		chunk, controller := args[0], args[1]
		if chunk.InstanceOf(uint8Array) {
			controller.Call("enqueue", chunk)
		} else {
			controller.Call("error", js.Global().Get("TypeError").New(
				"store.fetch reads a ReadableStream body as fetch does: every chunk must be a Uint8Array, and this one is "+kindOf(chunk)))
		}
		return nil
	}))
	return transformer
})

// kindOf names the kind of a JavaScript value for an error message: "a
// string", "a number", "an ArrayBuffer", "null".
func kindOf(v js.Value) string {
	switch v.Type() {
	case js.TypeNull:
		return "null"
	case js.TypeUndefined:
		return "undefined"
	case js.TypeObject:
		if c := v.Get("constructor"); c.Type() == js.TypeFunction {
			return article(c.Get("name").String())
		}
		return "an object"
	default:
		return article(v.Type().String())
	}
}

// article puts "a" or "an" before a noun.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("AEIOUaeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
