//go:build js && wasm

package jsapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"syscall/js"

	"minis3/core"
)

// A job is the asynchronous part of an operation: it runs on its own
// goroutine and returns the value the Promise resolves to (a js.Value or
// anything js.ValueOf takes) or the error it rejects with.
type job func() (any, error)

// method makes a JavaScript method from parse, which reads the arguments on
// the event loop and returns the job to run. The method returns a Promise;
// an argument error rejects it.
func method(parse func(args []js.Value) (job, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		var run job
		err := protect(func() error {
			plain, err := plainArgs(args)
			if err != nil {
				return err
			}
			run, err = parse(plain)
			return err
		})
		if err != nil {
			return rejected(err)
		}
		return promise(run)
	})
}

// promise returns a Promise settled by run on its own goroutine.
func promise(run job) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		executor.Release()
		resolve, reject := args[0], args[1]
		go func() {
			var v any
			err := protect(func() error {
				var err error
				v, err = run()
				return err
			})
			if err != nil {
				reject.Invoke(jsError(err))
				return
			}
			if v == nil {
				// js.ValueOf(nil) is null; an operation with no result
				// resolves to undefined, as documented.
				v = js.Undefined()
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// Limits of plainArgs: deeper nesting (a cycle) and longer arrays are
// refused.
const (
	maxArgDepth  = 16
	maxArgLength = 100_000
)

// plainArgs copies every argument into plain data: objects become plain
// objects of their own enumerable properties (defined, never assigned, so
// "__proto__" stays an ordinary key that the option checks reject), arrays
// plain arrays, ArrayBuffers and their views Uint8Arrays over the same
// bytes; strings, numbers (NaN included), booleans, null and undefined stay
// as they are. A getter or Proxy trap that throws, a bigint, symbol or
// function, nesting deeper than maxArgDepth or an array longer than
// maxArgLength is an InvalidArgument.
//
// It exists because syscall/js reads properties (Value.Get, Index,
// InstanceOf) without catching JavaScript exceptions: a throwing getter
// read that way unwinds through Go's frames and kills the page's Go
// instance, where recover cannot help. Calls (Value.Call, Invoke, New) do
// catch and panic with a js.Error that recover handles, so the copy reads
// the caller's values only through calls (Reflect.get, Object.keys, ...),
// and the API's parsers only ever read the copy. (The copy is made in Go
// because the playground's Content-Security-Policy forbids new Function.)
func plainArgs(args []js.Value) ([]js.Value, error) {
	out := make([]js.Value, len(args))
	for i, a := range args {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = invalidArgument(fmt.Sprintf("argument %d", i+1), "argument %d cannot be read: %v", i+1, r)
				}
			}()
			out[i] = plainCopy(a, 0)
		}()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// plainCopy is the copy of one value for plainArgs; it panics on a value it
// refuses.
func plainCopy(v js.Value, depth int) js.Value {
	if depth > maxArgDepth {
		panic("it is nested too deeply (or is cyclic)")
	}
	switch v.Type() { // a bigint panics here: "bad type flag"
	case js.TypeString, js.TypeNumber, js.TypeBoolean, js.TypeUndefined, js.TypeNull:
		return v
	case js.TypeObject:
	default:
		panic(fmt.Sprintf("a %s is not a valid argument", v.Type()))
	}
	g := js.Global()
	reflect, object := g.Get("Reflect"), g.Get("Object")
	get := func(k any) js.Value { return reflect.Call("get", v, k) }
	if g.Get("ArrayBuffer").Call("isView", v).Bool() {
		return g.Get("Uint8Array").New(get("buffer"), get("byteOffset"), get("byteLength"))
	}
	if g.Get("ArrayBuffer").Get("prototype").Call("isPrototypeOf", v).Bool() {
		return g.Get("Uint8Array").New(v)
	}
	if g.Get("Array").Call("isArray", v).Bool() {
		n := get("length")
		if n.Type() != js.TypeNumber || n.Float() > maxArgLength {
			panic(fmt.Sprintf("an array of more than %d elements is not a valid argument", maxArgLength))
		}
		a := g.Get("Array").New()
		for i := range n.Int() {
			a.Call("push", plainCopy(get(i), depth+1))
		}
		return a
	}
	o := object.New()
	keys := object.Call("keys", v)
	for i := range keys.Length() {
		k := keys.Index(i)
		desc := object.New()
		desc.Set("value", plainCopy(get(k), depth+1))
		desc.Set("enumerable", true)
		desc.Set("writable", true)
		desc.Set("configurable", true)
		object.Call("defineProperty", o, k, desc)
	}
	return o
}

// rejected is a Promise rejected with err.
func rejected(err error) js.Value {
	return js.Global().Get("Promise").Call("reject", jsError(err))
}

// protect runs fn and turns a panic (a bug, or a JavaScript exception
// surfacing through syscall/js) into an InternalError.
func protect(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &core.Error{Code: core.InternalError, Message: fmt.Sprintf("minis3 panic: %v\n%s", r, debug.Stack())}
		}
	}()
	return fn()
}

// jsError makes the Error a Promise rejects with: message is readable, code
// is the S3 error code (InternalError for anything that is not a
// *core.Error), name is "MiniS3Error", and the details S3 puts in its error
// body are properties when set: bucketName, key, versionId, uploadId,
// deleteMarker, argumentName, argumentValue, partNumber, etag, proposedSize,
// minSizeAllowed, maxSizeAllowed, size, method, resourceType, storageClass.
func jsError(err error) js.Value {
	var e *core.Error
	if !errors.As(err, &e) {
		e = &core.Error{Code: core.InternalError, Message: err.Error()}
	}
	msg := e.Message
	if msg == "" {
		msg = core.DefaultMessage(e.Code)
	}
	if msg == "" {
		msg = string(e.Code)
	}
	if e.Code == core.InternalError && e.Err != nil && msg == core.DefaultMessage(core.InternalError) {
		msg = e.Err.Error()
	}
	v := js.Global().Get("Error").New(msg)
	v.Set("name", "MiniS3Error")
	v.Set("code", string(e.Code))
	set := func(name, value string) {
		if value != "" {
			v.Set(name, jsString(value))
		}
	}
	setInt := func(name string, value int64) {
		if value != 0 {
			v.Set(name, value)
		}
	}
	set("bucketName", e.BucketName)
	set("key", e.Key)
	set("versionId", e.VersionID)
	set("uploadId", e.UploadID)
	if e.DeleteMarker {
		v.Set("deleteMarker", true)
	}
	set("argumentName", e.ArgumentName)
	set("argumentValue", e.ArgumentValue)
	setInt("partNumber", int64(e.PartNumber))
	set("etag", e.ETag)
	setInt("proposedSize", e.ProposedSize)
	setInt("minSizeAllowed", e.MinSizeAllowed)
	setInt("maxSizeAllowed", e.MaxSizeAllowed)
	setInt("size", e.Size)
	set("method", e.Method)
	set("resourceType", e.ResourceType)
	set("storageClass", e.StorageClass)
	return v
}

// entityTooLarge is the error for a body of at least size bytes, over
// limit. (A string is refused on its UTF-16 length before it is encoded,
// so size may be less than its length in UTF-8.)
func entityTooLarge(size, limit int64) error {
	return &core.Error{Code: core.EntityTooLarge, ProposedSize: size, MaxSizeAllowed: limit,
		Message: fmt.Sprintf("The body is larger than %d bytes, the limit of this store (the maxObjectSize option of minis3.open).", limit)}
}

func invalidArgument(name, format string, args ...any) error {
	return &core.Error{Code: core.InvalidArgument, ArgumentName: name, Message: fmt.Sprintf(format, args...)}
}

// toJS turns v, a shape of package wire, into a plain JavaScript value
// through its JSON and one JSON.parse: one boundary crossing for a whole
// listing instead of one per field.
func toJS(v any) (js.Value, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return js.Undefined(), &core.Error{Code: core.InternalError, Err: err, Message: "the result cannot be written as JSON: " + err.Error()}
	}
	return js.Global().Get("JSON").Call("parse", string(data)), nil
}

// arg is args[i], or undefined.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// isSet reports whether v is neither undefined nor null.
func isSet(v js.Value) bool { return !v.IsUndefined() && !v.IsNull() }

// isArray reports whether v is an array.
func isArray(v js.Value) bool { return js.Global().Get("Array").Call("isArray", v).Bool() }

// str reads a required string argument.
func str(v js.Value, name string) (string, error) {
	if v.Type() != js.TypeString {
		return "", invalidArgument(name, "%s must be a string, not %s", name, v.Type())
	}
	return v.String(), nil
}

// integer reads a whole number.
func integer(v js.Value, name string) (int64, error) {
	if v.Type() != js.TypeNumber {
		return 0, invalidArgument(name, "%s must be a number, not %s", name, v.Type())
	}
	f := v.Float()
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, invalidArgument(name, "%s must be a whole number, not %v", name, f)
	}
	return int64(f), nil
}

// checkKeys fails when the options object v (which may be unset) has a
// property other than allowed: a misspelt option is an error, not ignored.
func checkKeys(v js.Value, what string, allowed ...string) error {
	if !isSet(v) {
		return nil
	}
	if v.Type() != js.TypeObject {
		return invalidArgument(what, "%s must be an object, not %s", what, v.Type())
	}
	keys := js.Global().Get("Object").Call("keys", v)
	for i := range keys.Length() {
		k := keys.Index(i).String()
		known := false
		for _, a := range allowed {
			known = known || k == a
		}
		if !known {
			return invalidArgument(k, "%s has no option %q (it takes %v)", what, k, allowed)
		}
	}
	return nil
}

// option reads the string option name of the options object v, or "".
func option(v js.Value, name string) (string, error) {
	if !isSet(v) {
		return "", nil
	}
	o := v.Get(name)
	if !isSet(o) {
		return "", nil
	}
	return str(o, name)
}

// body copies a body argument into Go: a string (as UTF-8), a Uint8Array
// or other ArrayBufferView, or an ArrayBuffer. A body of more than limit
// bytes is EntityTooLarge; a view's bytes are not copied then.
func body(v js.Value, limit int64) ([]byte, error) {
	if v.Type() == js.TypeString {
		// A string of n UTF-16 units holds at least n bytes of UTF-8. (Its
		// length is read from a String wrapper: syscall/js reads no
		// property of a primitive.)
		if n := int64(js.Global().Get("Object").Invoke(v).Get("length").Int()); n > limit {
			return nil, entityTooLarge(n, limit)
		}
		b := []byte(v.String())
		if int64(len(b)) > limit {
			return nil, entityTooLarge(int64(len(b)), limit)
		}
		return b, nil
	}
	g := js.Global()
	if v.Type() == js.TypeObject && !v.IsNull() {
		var view js.Value
		switch {
		case v.InstanceOf(g.Get("Uint8Array")):
			view = v
		case g.Get("ArrayBuffer").Call("isView", v).Bool():
			view = g.Get("Uint8Array").New(v.Get("buffer"), v.Get("byteOffset"), v.Get("byteLength"))
		case v.InstanceOf(g.Get("ArrayBuffer")):
			view = g.Get("Uint8Array").New(v)
		}
		if !view.IsUndefined() {
			n := int64(view.Get("byteLength").Int())
			if n > limit {
				return nil, entityTooLarge(n, limit)
			}
			b := make([]byte, n)
			js.CopyBytesToGo(b, view)
			return b, nil
		}
	}
	return nil, invalidArgument("body", "body must be a string, a Uint8Array or an ArrayBuffer, not %s", v.Type())
}

// jsString is s as a JavaScript string. syscall/js decodes a Go string
// with a TextDecoder that drops a leading U+FEFF (a byte order mark), so
// a key or text starting with one would lose it; the decoder drops only
// one, so doubling it keeps the string whole.
func jsString(s string) js.Value {
	if strings.HasPrefix(s, "\ufeff") {
		s = "\ufeff" + s
	}
	return js.ValueOf(s)
}

// bytesToJS copies b into a new Uint8Array.
func bytesToJS(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}
