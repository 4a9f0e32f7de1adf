//go:build js && wasm

package wasm_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"syscall/js"
	"testing"
	"unicode/utf8"

	"minis3/core"
	"minis3/internal/model"
	mc "minis3/internal/modelcheck"
	"minis3/wasm/idbstore"
	"minis3/wasm/jsapi"
)

// TestModelJSAPI checks the JavaScript API against the model: random
// sequences of the operations a page can call, through syscall/js, over
// IndexedDB, with refused commits and close/reopen.
func TestModelJSAPI(t *testing.T) {
	mc.Check(t, mc.Config{Name: "js", Sequences: 60, Steps: 30, Open: openJSFace})
}

// refusingStorage is the IndexedDB storage with a switch that makes
// Commit fail. It embeds *idbstore.Storage so that the JS API still finds
// its other methods (Stale, for the multi-tab logic).
type refusingStorage struct {
	*idbstore.Storage
	armed   atomic.Bool
	refused atomic.Int64
}

var errRefusedCommit = errors.New("modelcheck: the storage refused this commit")

func (r *refusingStorage) Commit(changes core.ChangeSet) error {
	if r.armed.Load() {
		r.refused.Add(1)
		return errRefusedCommit
	}
	return r.Storage.Commit(changes)
}

// jsFace drives one store of the minis3 JavaScript API as a page does.
type jsFace struct {
	t       *testing.T
	db      string
	minis3  js.Value // the API object
	store   js.Value // the store object minis3.open resolved to
	storage *refusingStorage
}

var modelDBCounter atomic.Int64

// openJSFace opens a store over a new IndexedDB database and checks that
// it starts as the model does: durable, clock at 0, modelcheck's part
// minimum.
func openJSFace(t *testing.T) mc.Face {
	f := &jsFace{t: t, db: fmt.Sprintf("model-js-%d", modelDBCounter.Add(1))}
	f.minis3 = jsapi.New(jsapi.Config{
		OpenDurable: func(ctx context.Context, name string) (core.Storage, error) {
			s, err := idbstore.Open(ctx, name)
			if err != nil {
				return nil, err
			}
			f.storage = &refusingStorage{Storage: s}
			return f.storage, nil
		},
		DeleteDurable: idbstore.DeleteDatabase,
		DurableKind:   "indexeddb",
	}).Value()
	if err := f.open(); err != nil {
		t.Fatal(err)
	}
	if now := f.store.Call("now"); now.Type() != js.TypeNumber || now.Float() != 0 {
		t.Fatalf("a new store's now() = %v, want 0", now)
	}
	return f
}

// open calls minis3.open on the face's database and checks it is durable.
func (f *jsFace) open() error {
	opts := js.Global().Get("Object").New()
	opts.Set("db", f.db)
	opts.Set("minPartSize", mc.MinPartSize)
	v, rejected := settle(f.t, f.minis3.Call("open", opts))
	if rejected {
		return fmt.Errorf("minis3.open: %s (code %s)", v.Get("message"), v.Get("code"))
	}
	if kind := v.Get("storage").String(); kind != "indexeddb" {
		return fmt.Errorf("minis3.open: storage %s (%s), want indexeddb", kind, v.Get("storageError"))
	}
	if n := v.Get("minPartSize"); n.Type() != js.TypeNumber || n.Int() != mc.MinPartSize {
		return fmt.Errorf("minis3.open: minPartSize %v, want %d", n, mc.MinPartSize)
	}
	f.store = v
	return nil
}

// closeStore calls store.close(), which must resolve.
func (f *jsFace) closeStore() error {
	if v, rejected := settle(f.t, f.store.Call("close")); rejected {
		return fmt.Errorf("store.close: %s (code %s)", v.Get("message"), v.Get("code"))
	}
	return nil
}

// Close closes the store and deletes its database, so that the many
// sequences of a run do not pile up databases.
func (f *jsFace) Close() error {
	if err := f.closeStore(); err != nil {
		return err
	}
	if v, rejected := settle(f.t, f.minis3.Call("deleteDatabase", f.db)); rejected {
		return fmt.Errorf("minis3.deleteDatabase: %s (code %s)", v.Get("message"), v.Get("code"))
	}
	return nil
}

// Supports is what the JavaScript API can express.
func (f *jsFace) Supports(s mc.Step) bool {
	// Names, keys and prefixes cross as JavaScript strings, which cannot
	// hold bytes that are not UTF-8 (a body can: it crosses as bytes).
	words := []string{s.Bucket, s.Key, s.VersionID, s.ContentType, s.UploadID}
	if s.List != nil {
		words = append(words, s.List.Prefix)
	}
	for _, r := range s.Rules {
		words = append(words, r.ID, r.Prefix)
	}
	for _, p := range s.Parts {
		words = append(words, p.ETag)
	}
	if slices.ContainsFunc(words, func(w string) bool { return !utf8.ValidString(w) }) {
		return false
	}
	l := mc.ListArgs{}
	if s.List != nil {
		l = *s.List
	}
	// The listings take only a prefix and answer everything at once: a
	// page size is fine (Observe joins the model's pages), a delimiter or
	// a marker is not.
	prefixOnly := l == mc.ListArgs{Prefix: l.Prefix, MaxKeys: l.MaxKeys}
	switch s.Op {
	case mc.CreateBucket, mc.DeleteBucket, mc.ListBuckets, mc.SetVersioning, mc.GetVersioning,
		mc.Put, mc.Get, mc.Delete, mc.UploadPart, mc.CompleteUpload, mc.AbortUpload,
		mc.SetClock, mc.Evaluate, mc.Tick, mc.Reopen:
		return true
	case mc.ListVersions, mc.ListObjects, mc.ListUploads:
		return prefixOnly
	case mc.ListParts:
		return l == mc.ListArgs{MaxKeys: l.MaxKeys}
	case mc.CreateUpload:
		return s.ContentType == "" // createMultipartUpload has no options
	}
	return false
}

// Observe blurs what a page cannot see: HTTP headers, and pages. A JS
// listing answers every row at once, so a listing of several pages is
// observed as its last page holding the rows of all of them.
func (f *jsFace) Observe(s mc.Step, o mc.Outcome) mc.Outcome {
	o.Headers = nil
	if o.Err != nil {
		return o
	}
	switch pages := o.Value.(type) {
	case []model.VersionsPage:
		all := pages[len(pages)-1]
		all.Versions, all.CommonPrefixes = nil, nil
		for _, p := range pages {
			all.Versions = append(all.Versions, p.Versions...)
			all.CommonPrefixes = append(all.CommonPrefixes, p.CommonPrefixes...)
		}
		o.Value = []model.VersionsPage{all}
	case []model.ObjectsPage:
		all := pages[len(pages)-1]
		all.Objects, all.CommonPrefixes, all.KeyCount = nil, nil, 0
		for _, p := range pages {
			all.Objects = append(all.Objects, p.Objects...)
			all.CommonPrefixes = append(all.CommonPrefixes, p.CommonPrefixes...)
			all.KeyCount += p.KeyCount
		}
		o.Value = []model.ObjectsPage{all}
	case []model.UploadsPage:
		all := pages[len(pages)-1]
		all.Uploads, all.CommonPrefixes = nil, nil
		for _, p := range pages {
			all.Uploads = append(all.Uploads, p.Uploads...)
			all.CommonPrefixes = append(all.CommonPrefixes, p.CommonPrefixes...)
		}
		o.Value = []model.UploadsPage{all}
	case []model.PartsPage:
		all := pages[len(pages)-1]
		all.Parts = nil
		for _, p := range pages {
			all.Parts = append(all.Parts, p.Parts...)
		}
		// listParts answers the parts alone, not the upload they belong to.
		all.Upload = model.UploadInfo{}
		o.Value = []model.PartsPage{all}
	}
	return o
}

// call calls a store method and awaits it: its value, or the rejection
// as an outcome.
func (f *jsFace) call(method string, args ...any) (js.Value, *mc.Outcome) {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = jsString(s)
		}
	}
	v, rejected := settle(f.t, f.store.Call(method, args...))
	if !rejected {
		return v, nil
	}
	o := rejection(method, v)
	return js.Undefined(), &o
}

// rejection is the model's error for what a Promise rejected with: an
// Error whose code is the S3 code, and for a request that hit a delete
// marker deleteMarker and the marker's versionId (the model names the
// version only then; S3's other errors may name one as a detail).
func rejection(method string, v js.Value) mc.Outcome {
	if v.Type() != js.TypeObject || !v.InstanceOf(js.Global().Get("Error")) {
		return faceError("%s rejected with %s, not an Error", method, jsonOf(v))
	}
	r := &reader{}
	e := &model.Error{Code: r.str(v, "code"), Why: v.Get("message").String()}
	if dm := v.Get("deleteMarker"); !dm.IsUndefined() {
		e.DeleteMarker = r.boolean(v, "deleteMarker")
		if !e.DeleteMarker {
			r.fail("deleteMarker is false; the Error has it only when true")
		}
		e.VersionID = r.str(v, "versionId")
	}
	if r.err != nil {
		return faceError("%s rejected with a malformed Error: %v", method, r.err)
	}
	return mc.Outcome{Err: e}
}

// faceError is the outcome of something the model has no word for (an
// answer of the wrong shape, a failed reopen). The runner prints an
// error's code, so the code says what went wrong.
func faceError(format string, args ...any) mc.Outcome {
	return mc.Outcome{Err: &model.Error{Code: fmt.Sprintf(format, args...)}}
}

// Do takes the step through the JavaScript API.
func (f *jsFace) Do(s mc.Step) mc.Outcome {
	if s.Op == mc.Reopen {
		if err := f.closeStore(); err != nil {
			return faceError("%v", err)
		}
		if err := f.open(); err != nil {
			return faceError("%v", err)
		}
		return mc.Outcome{}
	}
	if s.FailCommit {
		f.storage.armed.Store(true)
		defer f.storage.armed.Store(false)
	}
	// An InternalError must come from a refused commit, and a refused
	// commit must answer InternalError: for a step that changes nothing
	// the runner accepts either answer, and would miss both mistakes.
	refusedBefore := f.storage.refused.Load()
	o := f.do(s)
	internal := o.Err != nil && o.Err.Code == "InternalError"
	switch refused := f.storage.refused.Load() > refusedBefore; {
	case internal && !refused:
		return faceError("InternalError with no refused commit: %s", o.Err.Why)
	case refused && !internal:
		return faceError("the storage refused the commit, yet the store answered %s", o)
	}
	return o
}

func (f *jsFace) do(s mc.Step) mc.Outcome {
	method, args, convert := f.request(s)
	v, failed := f.call(method, args...)
	if failed != nil {
		return *failed
	}
	r := &reader{}
	value := convert(r, v)
	if r.err != nil {
		return faceError("%s resolved to a malformed answer: %v", method, r.err)
	}
	return mc.Outcome{Value: value}
}

// request is the store method and arguments a page calls for s, and how
// its answer converts into the model's value.
func (f *jsFace) request(s mc.Step) (method string, args []any, convert func(*reader, js.Value) any) {
	nothing := func(r *reader, v js.Value) any {
		if !v.IsUndefined() {
			r.fail("resolved to %s, want undefined", jsonOf(v))
		}
		return nil
	}
	prefixArgs := func(args ...any) []any {
		if s.List != nil && s.List.Prefix != "" {
			args = append(args, options("prefix", s.List.Prefix))
		}
		return args
	}
	withVersion := func(args ...any) []any {
		if s.VersionID != "" {
			args = append(args, options("versionId", s.VersionID))
		}
		return args
	}
	switch s.Op {
	case mc.CreateBucket:
		return "createBucket", []any{s.Bucket}, nothing
	case mc.DeleteBucket:
		return "deleteBucket", []any{s.Bucket}, nothing
	case mc.ListBuckets:
		return "listBuckets", nil, func(r *reader, v js.Value) any { return readArray(r, v, readBucket) }
	case mc.SetVersioning:
		return "setBucketVersioning", []any{s.Bucket, string(s.Versioning)}, nothing
	case mc.GetVersioning:
		return "getBucketVersioning", []any{s.Bucket}, func(r *reader, v js.Value) any {
			if v.Type() != js.TypeString {
				r.fail("resolved to %s, want a string", jsonOf(v))
				return nil
			}
			return model.Versioning(v.String())
		}
	case mc.Put:
		args := []any{s.Bucket, s.Key, textOrBytes(s.Body)}
		if s.ContentType != "" {
			args = append(args, options("contentType", s.ContentType))
		}
		return "put", args, readPut
	case mc.Get:
		return "get", withVersion(s.Bucket, s.Key), func(r *reader, v js.Value) any {
			obj, _ := readGet(r, v)
			return obj
		}
	case mc.Delete:
		return "delete", withVersion(s.Bucket, s.Key), readDelete
	case mc.ListVersions:
		return "listVersions", prefixArgs(s.Bucket), func(r *reader, v js.Value) any {
			return []model.VersionsPage{{Versions: readArray(r, v, readVersion)}}
		}
	case mc.ListObjects:
		return "listObjects", prefixArgs(s.Bucket), func(r *reader, v js.Value) any {
			rows := readArray(r, v, readObjectRow)
			// Without a delimiter there are no common prefixes: every
			// key counted is a row.
			return []model.ObjectsPage{{Objects: rows, KeyCount: len(rows)}}
		}
	case mc.CreateUpload:
		return "createMultipartUpload", []any{s.Bucket, s.Key}, func(r *reader, v js.Value) any { return readUpload(r, v) }
	case mc.UploadPart:
		// A multipart client sends bytes; put sends text, so both body
		// kinds cross.
		return "uploadPart", []any{s.Bucket, s.Key, s.UploadID, s.PartNumber, uint8Array(s.Body)}, func(r *reader, v js.Value) any { return readPart(r, v) }
	case mc.CompleteUpload:
		parts := js.Global().Get("Array").New()
		for _, p := range s.Parts {
			o := js.Global().Get("Object").New()
			o.Set("partNumber", p.Number)
			o.Set("etag", jsString(p.ETag))
			parts.Call("push", o)
		}
		return "completeMultipartUpload", []any{s.Bucket, s.Key, s.UploadID, parts}, readPut
	case mc.AbortUpload:
		return "abortMultipartUpload", []any{s.Bucket, s.Key, s.UploadID}, nothing
	case mc.ListParts:
		return "listParts", []any{s.Bucket, s.Key, s.UploadID}, func(r *reader, v js.Value) any {
			return []model.PartsPage{{Parts: readArray(r, v, readPart)}}
		}
	case mc.ListUploads:
		return "listMultipartUploads", prefixArgs(s.Bucket), func(r *reader, v js.Value) any {
			return []model.UploadsPage{{Uploads: readArray(r, v, readUpload)}}
		}
	case mc.SetClock:
		return "setClock", []any{s.Now}, nothing
	case mc.Evaluate, mc.Tick:
		return string(s.Op), []any{s.Bucket, rulesValue(s.Rules)}, func(r *reader, v js.Value) any { return readArray(r, v, readAction) }
	}
	panic("jsFace: unsupported op " + string(s.Op))
}

// jsString is s as a JavaScript string. syscall/js decodes a Go string
// with a TextDecoder that drops a leading U+FEFF (a byte order mark), and
// only one: doubling it keeps the string whole.
func jsString(s string) js.Value {
	if strings.HasPrefix(s, "\ufeff") {
		s = "\ufeff" + s
	}
	return js.ValueOf(s)
}

// options is an options object { name: value }.
func options(name, value string) js.Value {
	o := js.Global().Get("Object").New()
	o.Set(name, jsString(value))
	return o
}

// textOrBytes is a body as a page passes it: text as a string, other
// bytes as a Uint8Array.
func textOrBytes(body string) any {
	if utf8.ValidString(body) {
		return body
	}
	return uint8Array(body)
}

func uint8Array(body string) js.Value {
	a := js.Global().Get("Uint8Array").New(len(body))
	js.CopyBytesToJS(a, []byte(body))
	return a
}

// rulesValue is the chapter's rules as the JS API takes them; an unset
// threshold is left out.
func rulesValue(rules []model.Rule) js.Value {
	out := js.Global().Get("Array").New()
	for _, r := range rules {
		o := js.Global().Get("Object").New()
		o.Set("id", jsString(r.ID))
		o.Set("prefix", jsString(r.Prefix))
		if r.ExpireCurrentAfter != nil {
			o.Set("expireCurrentAfter", *r.ExpireCurrentAfter)
		}
		if r.ExpireNoncurrentAfter != nil {
			o.Set("expireNoncurrentAfter", *r.ExpireNoncurrentAfter)
		}
		out.Call("push", o)
	}
	return out
}

// reader reads plain JS results field by field, strictly: a field of the
// wrong type, a missing one, or one the documented shape does not have is
// an error (the first is kept).
type reader struct{ err error }

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

// object checks that v is an object whose properties are among fields.
func (r *reader) object(v js.Value, fields ...string) bool {
	if v.Type() != js.TypeObject || v.IsNull() {
		r.fail("got %s, want an object", jsonOf(v))
		return false
	}
	keys := js.Global().Get("Object").Call("keys", v)
	for i := range keys.Length() {
		if k := keys.Index(i).String(); !slices.Contains(fields, k) {
			r.fail("%s has a property %q the API does not document", jsonOf(v), k)
		}
	}
	return true
}

func (r *reader) str(v js.Value, name string) string {
	f := v.Get(name)
	if f.Type() != js.TypeString {
		r.fail("%s: %s is %s, want a string", jsonOf(v), name, f.Type())
		return ""
	}
	return f.String()
}

// optStr reads a string field that is left out when empty.
func (r *reader) optStr(v js.Value, name string) string {
	f := v.Get(name)
	if f.IsUndefined() {
		return ""
	}
	s := r.str(v, name)
	if s == "" {
		r.fail("%s: %s is empty; it should be left out", jsonOf(v), name)
	}
	return s
}

func (r *reader) num(v js.Value, name string) float64 {
	f := v.Get(name)
	if f.Type() != js.TypeNumber {
		r.fail("%s: %s is %s, want a number", jsonOf(v), name, f.Type())
		return 0
	}
	return f.Float()
}

func (r *reader) integer(v js.Value, name string) int64 {
	n := r.num(v, name)
	if n != float64(int64(n)) {
		r.fail("%s: %s is %v, want a whole number", jsonOf(v), name, n)
	}
	return int64(n)
}

func (r *reader) boolean(v js.Value, name string) bool {
	f := v.Get(name)
	if f.Type() != js.TypeBoolean {
		r.fail("%s: %s is %s, want a boolean", jsonOf(v), name, f.Type())
		return false
	}
	return f.Bool()
}

// readArray reads a JS array with read.
func readArray[T any](r *reader, v js.Value, read func(*reader, js.Value) T) []T {
	if !js.Global().Get("Array").Call("isArray", v).Bool() {
		r.fail("got %s, want an array", jsonOf(v))
		return nil
	}
	var out []T
	for i := range v.Length() {
		out = append(out, read(r, v.Index(i)))
	}
	return out
}

func readBucket(r *reader, v js.Value) model.BucketInfo {
	r.object(v, "name", "createdAt", "versioning")
	return model.BucketInfo{Name: r.str(v, "name"), CreatedAt: r.num(v, "createdAt"), Versioning: model.Versioning(r.str(v, "versioning"))}
}

func readPut(r *reader, v js.Value) any {
	if !r.object(v, "versionId", "etag", "size", "createdAt") {
		return nil
	}
	return model.PutResult{VersionID: r.str(v, "versionId"), ETag: r.str(v, "etag"), Size: r.integer(v, "size"), CreatedAt: r.num(v, "createdAt")}
}

// readGet reads get's answer: the object, its body from the Uint8Array
// byte for byte, and its content type (left out when none was stored).
// The text field must be the body decoded, when the body is UTF-8.
func readGet(r *reader, v js.Value) (model.Object, bool) {
	if !r.object(v, "key", "versionId", "etag", "size", "createdAt", "contentType", "body", "text") {
		return model.Object{}, false
	}
	obj := model.Object{Key: r.str(v, "key"), VersionID: r.str(v, "versionId"), ETag: r.str(v, "etag"),
		Size: r.integer(v, "size"), CreatedAt: r.num(v, "createdAt"), ContentType: r.optStr(v, "contentType")}
	body := v.Get("body")
	if !body.InstanceOf(js.Global().Get("Uint8Array")) {
		r.fail("body is %s, want a Uint8Array", jsonOf(body))
		return obj, false
	}
	b := make([]byte, body.Length())
	js.CopyBytesToGo(b, body)
	obj.Body = string(b)
	if text := r.str(v, "text"); utf8.Valid(b) && text != obj.Body {
		r.fail("text %q is not the body %q", text, obj.Body)
	}
	return obj, r.err == nil
}

// readDelete reads delete's answer; versionId is left out when the delete
// named and made no version (an unversioned bucket's delete).
func readDelete(r *reader, v js.Value) any {
	if !r.object(v, "versionId", "deleteMarker") {
		return nil
	}
	return model.DeleteResult{VersionID: r.optStr(v, "versionId"), DeleteMarker: r.boolean(v, "deleteMarker")}
}

// readVersion reads a listVersions row; a delete marker has no etag and
// no size, a data version both.
func readVersion(r *reader, v js.Value) model.VersionRow {
	r.object(v, "key", "versionId", "isDeleteMarker", "isLatest", "createdAt", "size", "etag")
	row := model.VersionRow{Key: r.str(v, "key"), VersionID: r.str(v, "versionId"), IsLatest: r.boolean(v, "isLatest"),
		DeleteMarker: r.boolean(v, "isDeleteMarker"), CreatedAt: r.num(v, "createdAt")}
	if row.DeleteMarker {
		if !v.Get("size").IsUndefined() || !v.Get("etag").IsUndefined() {
			r.fail("the delete marker %s has a size or an etag", jsonOf(v))
		}
		return row
	}
	row.ETag, row.Size = r.str(v, "etag"), r.integer(v, "size")
	return row
}

func readObjectRow(r *reader, v js.Value) model.ObjectRow {
	r.object(v, "key", "versionId", "etag", "size", "createdAt")
	return model.ObjectRow{Key: r.str(v, "key"), VersionID: r.str(v, "versionId"), ETag: r.str(v, "etag"),
		Size: r.integer(v, "size"), CreatedAt: r.num(v, "createdAt")}
}

func readUpload(r *reader, v js.Value) model.UploadInfo {
	r.object(v, "key", "uploadId", "initiated")
	return model.UploadInfo{Key: r.str(v, "key"), UploadID: r.str(v, "uploadId"), Initiated: r.num(v, "initiated")}
}

func readPart(r *reader, v js.Value) model.PartInfo {
	r.object(v, "partNumber", "etag", "size", "createdAt")
	return model.PartInfo{Number: int(r.integer(v, "partNumber")), ETag: r.str(v, "etag"), Size: r.integer(v, "size"), CreatedAt: r.num(v, "createdAt")}
}

func readAction(r *reader, v js.Value) model.Action {
	r.object(v, "ruleId", "key", "versionId", "kind")
	return model.Action{RuleID: r.str(v, "ruleId"), Key: r.str(v, "key"), VersionID: r.str(v, "versionId"), Kind: r.str(v, "kind")}
}

// State reads the whole store back through the JavaScript API. Lifecycle
// configurations have no JS method: the face never stores one.
func (f *jsFace) State() (model.State, error) {
	var st model.State
	ask := func(method string, args ...any) (js.Value, error) {
		v, failed := f.call(method, args...)
		if failed != nil {
			return v, fmt.Errorf("%s%q: %s (%s)", method, args, failed.Err.Code, failed.Err.Why)
		}
		return v, nil
	}
	r := &reader{}
	v, err := ask("listBuckets")
	if err != nil {
		return st, err
	}
	for _, info := range readArray(r, v, readBucket) {
		b := model.BucketState{Info: info}
		v, err := ask("listVersions", info.Name)
		if err != nil {
			return st, err
		}
		for _, row := range readArray(r, v, readVersion) {
			if n := len(b.Keys); n == 0 || b.Keys[n-1].Key != row.Key {
				b.Keys = append(b.Keys, model.KeyState{Key: row.Key})
			}
			e := model.EntryState{VersionID: row.VersionID, DeleteMarker: row.DeleteMarker, CreatedAt: row.CreatedAt}
			if !row.DeleteMarker {
				v, err := ask("get", info.Name, row.Key, options("versionId", row.VersionID))
				if err != nil {
					return st, err
				}
				obj, _ := readGet(r, v)
				e.Body, e.ETag, e.ContentType = obj.Body, obj.ETag, obj.ContentType
			}
			k := &b.Keys[len(b.Keys)-1]
			k.Entries = append(k.Entries, e)
		}
		v, err = ask("listMultipartUploads", info.Name)
		if err != nil {
			return st, err
		}
		for _, u := range readArray(r, v, readUpload) {
			v, err := ask("listParts", info.Name, u.Key, u.UploadID)
			if err != nil {
				return st, err
			}
			b.Uploads = append(b.Uploads, model.UploadState{UploadInfo: u, Parts: readArray(r, v, readPart)})
		}
		slices.SortFunc(b.Uploads, func(x, y model.UploadState) int { return strings.Compare(x.UploadID, y.UploadID) })
		st.Buckets = append(st.Buckets, b)
	}
	if now := f.store.Call("now"); now.Type() == js.TypeNumber {
		st.Now = now.Float()
	} else {
		r.fail("now() is %s, want a number", now.Type())
	}
	return st, r.err
}
