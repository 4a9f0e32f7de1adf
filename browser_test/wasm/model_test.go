//go:build js && wasm

package wasm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"
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
//
// A page cannot choose its store's origin: minis3.open makes it the
// midnight UTC before the store was made. The face shifts every absolute
// time it gives and reads (a configuration's dates, an expiry's, a run's)
// by shift, the store's origin less the sequence's, so that the store
// shows the sequence's times. When the sequence's origin is a midnight
// too, shift is a whole number of days, which changes nothing S3's
// lifecycle does (its days are whole UTC days); otherwise the face takes
// no lifecycle configuration, as its midnights would fall elsewhere.
type jsFace struct {
	t       *testing.T
	db      string
	minis3  js.Value // the API object
	store   js.Value // the store object minis3.open resolved to
	storage *refusingStorage
	shift   float64 // the store's origin less the sequence's
}

var modelDBCounter atomic.Int64

// openJSFace opens a store over a new IndexedDB database and checks that
// it starts as the model does: durable, clock at 0, modelcheck's part
// minimum, an origin at a midnight UTC.
func openJSFace(t *testing.T, origin float64) mc.Face {
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
	own := f.store.Call("origin")
	if own.Type() != js.TypeNumber || math.Mod(own.Float(), day) != 0 {
		t.Fatalf("a new store's origin() = %v, want a midnight UTC", own)
	}
	f.shift = own.Float() - origin
	return f
}

// day is a lifecycle day in seconds.
const day = 86400

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
	for _, t := range s.Tags {
		words = append(words, t.Key, t.Value)
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
		mc.Put, mc.Get, mc.Head, mc.Delete, mc.CreateUpload, mc.UploadPart, mc.CompleteUpload, mc.AbortUpload,
		mc.SetClock, mc.Evaluate, mc.Tick, mc.Reopen,
		mc.GetLifecycle, mc.DeleteLifecycle, mc.RunLifecycle, mc.PreviewLifecycle,
		mc.PutTagging, mc.GetTagging, mc.DeleteTagging,
		mc.PutBucketTagging, mc.GetBucketTagging, mc.DeleteBucketTagging:
		return true
	case mc.ListVersions, mc.ListObjects, mc.ListUploads:
		return prefixOnly
	case mc.ListParts:
		return l == mc.ListArgs{MaxKeys: l.MaxKeys}
	case mc.PutLifecycle:
		return math.Mod(f.shift, day) == 0
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
		return "put", append([]any{s.Bucket, s.Key, textOrBytes(s.Body)}, putOptions(s)...), f.readPut
	case mc.Get:
		return "get", withVersion(s.Bucket, s.Key), func(r *reader, v js.Value) any {
			obj, _ := f.readGet(r, v)
			return obj
		}
	case mc.Head:
		return "head", withVersion(s.Bucket, s.Key), func(r *reader, v js.Value) any { return f.readHead(r, v) }
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
		return "createMultipartUpload", append([]any{s.Bucket, s.Key}, putOptions(s)...), func(r *reader, v js.Value) any { return f.readUpload(r, v) }
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
		args := []any{s.Bucket, s.Key, s.UploadID, parts}
		if s.IfNoneMatch || s.IfMatch != "" {
			o := js.Global().Get("Object").New()
			setConditions(o, s)
			args = append(args, o)
		}
		return "completeMultipartUpload", args, f.readPut
	case mc.AbortUpload:
		return "abortMultipartUpload", []any{s.Bucket, s.Key, s.UploadID}, nothing
	case mc.ListParts:
		return "listParts", []any{s.Bucket, s.Key, s.UploadID}, func(r *reader, v js.Value) any {
			return []model.PartsPage{{Parts: readArray(r, v, readPart)}}
		}
	case mc.ListUploads:
		return "listMultipartUploads", prefixArgs(s.Bucket), func(r *reader, v js.Value) any {
			return []model.UploadsPage{{Uploads: readArray(r, v, f.readUpload)}}
		}
	case mc.SetClock:
		return "setClock", []any{s.Now}, func(r *reader, v js.Value) any { return readArray(r, v, f.readRun) }
	case mc.Evaluate, mc.Tick:
		return string(s.Op), []any{s.Bucket, rulesValue(s.Rules)}, func(r *reader, v js.Value) any { return readArray(r, v, readAction) }
	case mc.PutLifecycle:
		return "putBucketLifecycle", []any{s.Bucket, f.lifecycleValue(*s.Lifecycle)}, nothing
	case mc.GetLifecycle:
		return "getBucketLifecycle", []any{s.Bucket}, func(r *reader, v js.Value) any { return f.readLifecycle(r, v) }
	case mc.DeleteLifecycle:
		return "deleteBucketLifecycle", []any{s.Bucket}, nothing
	case mc.RunLifecycle, mc.PreviewLifecycle:
		method := "runLifecycle"
		if s.Op == mc.PreviewLifecycle {
			method = "previewLifecycle"
		}
		return method, []any{s.Bucket}, func(r *reader, v js.Value) any { return readArray(r, v, readAction) }
	case mc.PutTagging:
		return "putObjectTagging", withVersion(s.Bucket, s.Key, tagsValue(s.Tags)), readRetagged
	case mc.GetTagging:
		return "getObjectTagging", withVersion(s.Bucket, s.Key), func(r *reader, v js.Value) any { return readTagging(r, v) }
	case mc.DeleteTagging:
		return "deleteObjectTagging", withVersion(s.Bucket, s.Key), readRetagged
	case mc.PutBucketTagging:
		return "putBucketTagging", []any{s.Bucket, tagsValue(s.Tags)}, nothing
	case mc.GetBucketTagging:
		return "getBucketTagging", []any{s.Bucket}, func(r *reader, v js.Value) any { return readArray(r, v, readTag) }
	case mc.DeleteBucketTagging:
		return "deleteBucketTagging", []any{s.Bucket}, nothing
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

// putOptions are the options of put and createMultipartUpload: the
// step's content type and tags, or none.
func putOptions(s mc.Step) []any {
	if s.ContentType == "" && len(s.Tags) == 0 && !s.IfNoneMatch && s.IfMatch == "" {
		return nil
	}
	o := js.Global().Get("Object").New()
	if s.ContentType != "" {
		o.Set("contentType", jsString(s.ContentType))
	}
	if len(s.Tags) > 0 {
		o.Set("tags", tagsValue(s.Tags))
	}
	setConditions(o, s)
	return []any{o}
}

// setConditions sets a step's write conditions on the options object o:
// { ifNoneMatch: "*" } or { ifMatch }.
func setConditions(o js.Value, s mc.Step) {
	if s.IfNoneMatch {
		o.Set("ifNoneMatch", "*")
	}
	if s.IfMatch != "" {
		o.Set("ifMatch", jsString(s.IfMatch))
	}
}

// tagsValue is tags as the JS API takes them: [{ key, value }].
func tagsValue(tags []model.Tag) js.Value {
	out := js.Global().Get("Array").New()
	for _, t := range tags {
		o := js.Global().Get("Object").New()
		o.Set("key", jsString(t.Key))
		o.Set("value", jsString(t.Value))
		out.Call("push", o)
	}
	return out
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

// readPut reads the answer of put and completeMultipartUpload.
func (f *jsFace) readPut(r *reader, v js.Value) any {
	if !r.object(v, "versionId", "etag", "size", "createdAt", "expiration") {
		return nil
	}
	return model.PutResult{VersionID: r.str(v, "versionId"), ETag: r.str(v, "etag"), Size: r.integer(v, "size"),
		CreatedAt: r.num(v, "createdAt"), Expiration: f.readExpiry(r, v, "expiration")}
}

// readExpiry reads the optional field name, an expiry { date, ruleId }:
// when S3's lifecycle will expire a version or abort an upload, and by
// which rule; date is RFC 3339.
func (f *jsFace) readExpiry(r *reader, v js.Value, name string) *model.Expiry {
	x := v.Get(name)
	if x.IsUndefined() || !r.object(x, "date", "ruleId") {
		return nil
	}
	at, err := time.Parse(time.RFC3339Nano, r.str(x, "date"))
	if err != nil {
		r.fail("%s: %s.date: %v", jsonOf(v), name, err)
	}
	return &model.Expiry{Date: float64(at.Unix()) - f.shift, RuleID: r.str(x, "ruleId")}
}

// storageClass reads a storageClass field: STANDARD is "" in the model.
func storageClass(r *reader, v js.Value) string {
	class := r.str(v, "storageClass")
	if class == "STANDARD" {
		return ""
	}
	return class
}

// readHead reads head's answer: the object, its content type (left out
// when none was stored), its storage class, its expiry when it has one,
// and how many tags it has when it has some (which State checks).
func (f *jsFace) readHead(r *reader, v js.Value) model.Object {
	if !r.object(v, "key", "versionId", "etag", "size", "createdAt", "storageClass", "contentType", "tagCount", "expiration") {
		return model.Object{}
	}
	return f.object(r, v)
}

func (f *jsFace) object(r *reader, v js.Value) model.Object {
	if n := v.Get("tagCount"); !n.IsUndefined() && r.integer(v, "tagCount") < 1 {
		r.fail("%s: tagCount is less than 1; it should be left out", jsonOf(v))
	}
	return model.Object{Key: r.str(v, "key"), VersionID: r.str(v, "versionId"), ETag: r.str(v, "etag"),
		Size: r.integer(v, "size"), CreatedAt: r.num(v, "createdAt"), ContentType: r.optStr(v, "contentType"),
		StorageClass: storageClass(r, v), Expiration: f.readExpiry(r, v, "expiration")}
}

// readGet reads get's answer: head's, and its body from the Uint8Array
// byte for byte. The text field must be the body decoded, when the body is
// UTF-8.
func (f *jsFace) readGet(r *reader, v js.Value) (model.Object, bool) {
	if !r.object(v, "key", "versionId", "etag", "size", "createdAt", "storageClass", "contentType", "tagCount", "expiration", "body", "text") {
		return model.Object{}, false
	}
	obj := f.object(r, v)
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

// tagCount is the tagCount field of get's or head's answer, 0 when it is
// left out.
func tagCount(v js.Value) int {
	if n := v.Get("tagCount"); n.Type() == js.TypeNumber {
		return n.Int()
	}
	return 0
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
// no size, a data version both. Its tags are readListedVersion's.
func readVersion(r *reader, v js.Value) model.VersionRow {
	r.object(v, "key", "versionId", "isDeleteMarker", "isLatest", "createdAt", "size", "etag", "storageClass", "tags")
	row := model.VersionRow{Key: r.str(v, "key"), VersionID: r.str(v, "versionId"), IsLatest: r.boolean(v, "isLatest"),
		DeleteMarker: r.boolean(v, "isDeleteMarker"), CreatedAt: r.num(v, "createdAt")}
	if row.DeleteMarker {
		if !v.Get("size").IsUndefined() || !v.Get("etag").IsUndefined() || !v.Get("storageClass").IsUndefined() {
			r.fail("the delete marker %s has a size, an etag or a storage class", jsonOf(v))
		}
		return row
	}
	row.ETag, row.Size, row.StorageClass = r.str(v, "etag"), r.integer(v, "size"), storageClass(r, v)
	return row
}

// listedVersion is a listVersions row and the tags it carries.
type listedVersion struct {
	model.VersionRow
	Tags []model.Tag
}

// readListedVersion reads a listVersions row with its tags, which only a
// data version that has some carries.
func readListedVersion(r *reader, v js.Value) listedVersion {
	out := listedVersion{VersionRow: readVersion(r, v)}
	if t := v.Get("tags"); !t.IsUndefined() {
		out.Tags = readArray(r, t, readTag)
		if out.DeleteMarker || len(out.Tags) == 0 {
			r.fail("%s: tags go only on a data version that has some", jsonOf(v))
		}
	}
	return out
}

func readObjectRow(r *reader, v js.Value) model.ObjectRow {
	r.object(v, "key", "versionId", "etag", "size", "createdAt", "storageClass")
	return model.ObjectRow{Key: r.str(v, "key"), VersionID: r.str(v, "versionId"), ETag: r.str(v, "etag"),
		Size: r.integer(v, "size"), CreatedAt: r.num(v, "createdAt"), StorageClass: storageClass(r, v)}
}

// readUpload reads an upload: when S3's lifecycle will abort it, too,
// when createMultipartUpload answers it.
func (f *jsFace) readUpload(r *reader, v js.Value) model.UploadInfo {
	r.object(v, "key", "uploadId", "initiated", "abort")
	return model.UploadInfo{Key: r.str(v, "key"), UploadID: r.str(v, "uploadId"), Initiated: r.num(v, "initiated"),
		Abort: f.readExpiry(r, v, "abort")}
}

func readPart(r *reader, v js.Value) model.PartInfo {
	r.object(v, "partNumber", "etag", "size", "createdAt")
	return model.PartInfo{Number: int(r.integer(v, "partNumber")), ETag: r.str(v, "etag"), Size: r.integer(v, "size"), CreatedAt: r.num(v, "createdAt")}
}

// readAction reads an action; an abort names its upload, a transition
// its storage class.
func readAction(r *reader, v js.Value) model.Action {
	r.object(v, "ruleId", "key", "versionId", "kind", "uploadId", "storageClass")
	return model.Action{RuleID: r.str(v, "ruleId"), Key: r.str(v, "key"), VersionID: r.str(v, "versionId"), Kind: r.str(v, "kind"),
		UploadID: r.optStr(v, "uploadId"), StorageClass: r.optStr(v, "storageClass")}
}

// readRun reads one daily run setClock answers: its time must be the
// store's origin plus at.
func (f *jsFace) readRun(r *reader, v js.Value) model.Run {
	r.object(v, "bucket", "at", "time", "actions")
	run := model.Run{Bucket: r.str(v, "bucket"), At: r.num(v, "at"), Actions: readArray(r, v.Get("actions"), readAction)}
	if at, err := time.Parse(time.RFC3339Nano, r.str(v, "time")); err != nil || float64(at.Unix()) != f.origin()+run.At {
		r.fail("%s: time is not the store's origin %v plus at", jsonOf(v), f.origin())
	}
	return run
}

// origin is the store's origin.
func (f *jsFace) origin() float64 { return f.store.Call("origin").Float() }

func readTagging(r *reader, v js.Value) model.Tagging {
	r.object(v, "versionId", "tags")
	return model.Tagging{VersionID: r.str(v, "versionId"), Tags: readArray(r, v.Get("tags"), readTag)}
}

func readTag(r *reader, v js.Value) model.Tag {
	r.object(v, "key", "value")
	return model.Tag{Key: r.str(v, "key"), Value: r.str(v, "value")}
}

// readRetagged reads what putObjectTagging and deleteObjectTagging
// answer: the version whose tags they replaced.
func readRetagged(r *reader, v js.Value) any {
	r.object(v, "versionId")
	return r.str(v, "versionId")
}

// State reads the whole store back through the JavaScript API: each
// data version by get (by head when its class keeps GET from reading it)
// and getObjectTagging, whose tags must be as many as get's tagCount and
// the ones listVersions carries.
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
		for _, row := range readArray(r, v, readListedVersion) {
			if n := len(b.Keys); n == 0 || b.Keys[n-1].Key != row.Key {
				b.Keys = append(b.Keys, model.KeyState{Key: row.Key})
			}
			e := model.EntryState{VersionID: row.VersionID, DeleteMarker: row.DeleteMarker, CreatedAt: row.CreatedAt, StorageClass: row.StorageClass}
			if !row.DeleteMarker {
				var obj model.Object
				if row.StorageClass == "GLACIER" || row.StorageClass == "DEEP_ARCHIVE" {
					v, err = ask("head", info.Name, row.Key, options("versionId", row.VersionID))
					obj = f.readHead(r, v)
				} else {
					v, err = ask("get", info.Name, row.Key, options("versionId", row.VersionID))
					obj, _ = f.readGet(r, v)
				}
				if err != nil {
					return st, err
				}
				count := tagCount(v)
				e.Body, e.ETag, e.ContentType = obj.Body, obj.ETag, obj.ContentType
				if v, err = ask("getObjectTagging", info.Name, row.Key, options("versionId", row.VersionID)); err != nil {
					return st, err
				}
				e.Tags = readTagging(r, v).Tags
				if len(e.Tags) != count {
					r.fail("%s of %q has %d tags, and a tagCount of %d", row.VersionID, row.Key, len(e.Tags), count)
				}
				if len(e.Tags) != len(row.Tags) || len(e.Tags) > 0 && !reflect.DeepEqual(e.Tags, row.Tags) {
					r.fail("%s of %q has the tags %v, and listVersions says %v", row.VersionID, row.Key, e.Tags, row.Tags)
				}
			}
			k := &b.Keys[len(b.Keys)-1]
			k.Entries = append(k.Entries, e)
		}
		v, err = ask("listMultipartUploads", info.Name)
		if err != nil {
			return st, err
		}
		for _, u := range readArray(r, v, f.readUpload) {
			v, err := ask("listParts", info.Name, u.Key, u.UploadID)
			if err != nil {
				return st, err
			}
			b.Uploads = append(b.Uploads, model.UploadState{UploadInfo: u, Parts: readArray(r, v, readPart)})
		}
		slices.SortFunc(b.Uploads, func(x, y model.UploadState) int { return strings.Compare(x.UploadID, y.UploadID) })
		v, failed := f.call("getBucketLifecycle", info.Name)
		switch {
		case failed == nil:
			c := f.readLifecycle(r, v)
			b.Lifecycle = &c
		case failed.Err.Code != "NoSuchLifecycleConfiguration":
			return st, fmt.Errorf("getBucketLifecycle(%q): %s (%s)", info.Name, failed.Err.Code, failed.Err.Why)
		}
		v, failed = f.call("getBucketTagging", info.Name)
		switch {
		case failed == nil:
			b.Tags = readArray(r, v, readTag)
		case failed.Err.Code != "NoSuchTagSet":
			return st, fmt.Errorf("getBucketTagging(%q): %s (%s)", info.Name, failed.Err.Code, failed.Err.Why)
		}
		st.Buckets = append(st.Buckets, b)
	}
	now := f.store.Call("now")
	if now.Type() == js.TypeNumber {
		st.Now = now.Float()
	} else {
		r.fail("now() is %s, want a number", now.Type())
	}
	st.Origin = f.origin() - f.shift
	return st, r.err
}

// awsConfiguration is a lifecycle configuration in the AWS CLI's JSON
// shape, which putBucketLifecycle takes and getBucketLifecycle gives. Its
// dates are RFC 3339 text; the model's other elements have the same
// names and shapes in both.
type awsConfiguration struct {
	Rules []awsRule `json:"Rules"`
}

type awsRule struct {
	ID                             string                                `json:"ID,omitempty"`
	Status                         string                                `json:"Status"`
	Prefix                         *string                               `json:"Prefix,omitempty"`
	Filter                         *model.LifecycleFilter                `json:"Filter,omitempty"`
	Expiration                     *awsExpiration                        `json:"Expiration,omitempty"`
	NoncurrentVersionExpiration    *model.NoncurrentVersionExpiration    `json:"NoncurrentVersionExpiration,omitempty"`
	AbortIncompleteMultipartUpload *model.AbortIncompleteMultipartUpload `json:"AbortIncompleteMultipartUpload,omitempty"`
	Transitions                    []awsTransition                       `json:"Transitions,omitempty"`
	NoncurrentVersionTransitions   []model.NoncurrentVersionTransition   `json:"NoncurrentVersionTransitions,omitempty"`
}

type awsExpiration struct {
	Days                      *int    `json:"Days,omitempty"`
	Date                      *string `json:"Date,omitempty"`
	ExpiredObjectDeleteMarker *bool   `json:"ExpiredObjectDeleteMarker,omitempty"`
}

type awsTransition struct {
	Days         *int    `json:"Days,omitempty"`
	Date         *string `json:"Date,omitempty"`
	StorageClass string  `json:"StorageClass"`
}

// awsDate is a model's date, shifted to the store's origin, as RFC 3339.
func (f *jsFace) awsDate(t *float64) *string {
	if t == nil {
		return nil
	}
	text := time.Unix(int64(*t+f.shift), 0).UTC().Format(time.RFC3339)
	return &text
}

// modelDate is an RFC 3339 date shifted back to the sequence's origin.
func (f *jsFace) modelDate(text *string) (*float64, error) {
	if text == nil {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, *text)
	if err != nil {
		return nil, err
	}
	v := float64(t.Unix()) - f.shift
	return &v, nil
}

// lifecycleValue is c as putBucketLifecycle takes it: a plain object.
func (f *jsFace) lifecycleValue(c model.LifecycleConfiguration) js.Value {
	aws := awsConfiguration{Rules: []awsRule{}}
	for _, r := range c.Rules {
		rule := awsRule{ID: r.ID, Status: "Disabled", Prefix: r.Prefix, Filter: r.Filter,
			NoncurrentVersionExpiration: r.NoncurrentVersionExpiration, AbortIncompleteMultipartUpload: r.AbortIncompleteMultipartUpload,
			NoncurrentVersionTransitions: r.NoncurrentVersionTransitions}
		if r.Enabled {
			rule.Status = "Enabled"
		}
		if x := r.Expiration; x != nil {
			rule.Expiration = &awsExpiration{Days: x.Days, Date: f.awsDate(x.Date), ExpiredObjectDeleteMarker: x.ExpiredObjectDeleteMarker}
		}
		for _, t := range r.Transitions {
			rule.Transitions = append(rule.Transitions, awsTransition{Days: t.Days, Date: f.awsDate(t.Date), StorageClass: t.StorageClass})
		}
		aws.Rules = append(aws.Rules, rule)
	}
	text, err := json.Marshal(aws)
	if err != nil {
		panic(err) // the configuration holds nothing JSON cannot encode
	}
	return js.Global().Get("JSON").Call("parse", string(text))
}

// readLifecycle reads getBucketLifecycle's answer, strictly: an element
// the AWS shape has not got is an error.
func (f *jsFace) readLifecycle(r *reader, v js.Value) model.LifecycleConfiguration {
	var aws awsConfiguration
	d := json.NewDecoder(strings.NewReader(jsonOf(v)))
	d.DisallowUnknownFields()
	if err := d.Decode(&aws); err != nil {
		r.fail("getBucketLifecycle resolved to %s: %v", jsonOf(v), err)
		return model.LifecycleConfiguration{}
	}
	var c model.LifecycleConfiguration
	for _, a := range aws.Rules {
		rule := model.LifecycleRule{ID: a.ID, Enabled: a.Status == "Enabled", Prefix: a.Prefix, Filter: a.Filter,
			NoncurrentVersionExpiration: a.NoncurrentVersionExpiration, AbortIncompleteMultipartUpload: a.AbortIncompleteMultipartUpload,
			NoncurrentVersionTransitions: a.NoncurrentVersionTransitions}
		if a.Status != "Enabled" && a.Status != "Disabled" {
			r.fail("rule %q has Status %q", a.ID, a.Status)
		}
		if x := a.Expiration; x != nil {
			date, err := f.modelDate(x.Date)
			if err != nil {
				r.fail("rule %q: Expiration Date: %v", a.ID, err)
			}
			rule.Expiration = &model.Expiration{Days: x.Days, Date: date, ExpiredObjectDeleteMarker: x.ExpiredObjectDeleteMarker}
		}
		for _, t := range a.Transitions {
			date, err := f.modelDate(t.Date)
			if err != nil {
				r.fail("rule %q: Transition Date: %v", a.ID, err)
			}
			rule.Transitions = append(rule.Transitions, model.Transition{Days: t.Days, Date: date, StorageClass: t.StorageClass})
		}
		c.Rules = append(c.Rules, rule)
	}
	return c
}
