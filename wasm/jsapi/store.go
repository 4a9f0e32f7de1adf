//go:build js && wasm

package jsapi

import (
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall/js"

	"minis3/core"
	"minis3/internal/undo"
	"minis3/internal/wire"
	"minis3/web"
)

// storeObject is one open store and its JavaScript face.
type storeObject struct {
	api     *API
	id      string
	storage core.Storage
	// journal is the storage the core store is opened over: it records
	// how to undo each commit, for the terminal's undo.
	journal *undo.Journal
	opts    core.Options
	value   js.Value // the JavaScript store object
	// maxObjectSize is the largest body of put, uploadPart and the
	// PutObject and UploadPart requests of store.fetch.
	maxObjectSize int64
	// lock is the database's write lock, taken by every operation that
	// may write.
	lock writeLock

	// mu serialises the operations: reload replaces store and web.
	mu    sync.Mutex
	store *core.Store
	web   http.Handler

	now       atomic.Uint64 // math.Float64bits of the clock after the last operation
	origin    atomic.Uint64 // math.Float64bits of the clock's origin
	closed    atomic.Bool
	closeOnce sync.Once
}

var errClosed = &core.Error{Code: core.InternalError, Message: "the store is closed"}

// method makes the store method name: like the package's method, run by
// serialized, and every call after close rejects with InternalError.
func (s *storeObject) method(name string, parse func(args []js.Value) (job, error)) js.Func {
	return method(func(args []js.Value) (job, error) {
		if s.closed.Load() {
			return nil, errClosed
		}
		op, err := parse(args)
		if err != nil {
			return nil, err
		}
		return s.serialized(name, op), nil
	})
}

func newStoreObject(a *API, id string, store *core.Store, storage core.Storage, journal *undo.Journal, lock writeLock, opts core.Options, o openOptions, kind string, durableErr error) *storeObject {
	s := &storeObject{api: a, id: id, storage: storage, journal: journal, lock: lock, opts: opts, maxObjectSize: o.maxObjectSize, store: store}
	s.web = s.newHandler(store)
	s.syncClock()
	v := js.Global().Get("Object").New()
	v.Set("storage", kind)
	if durableErr != nil {
		v.Set("storageError", durableErr.Error())
	}
	v.Set("writeLock", lock.kind())
	if o.memory {
		v.Set("db", js.Null())
	} else {
		v.Set("db", jsString(o.db))
	}
	v.Set("minPartSize", store.MinPartSize())
	v.Set("maxObjectSize", o.maxObjectSize)
	v.Set("now", js.FuncOf(func(js.Value, []js.Value) any {
		return math.Float64frombits(s.now.Load())
	}))
	v.Set("origin", js.FuncOf(func(js.Value, []js.Value) any {
		return math.Float64frombits(s.origin.Load())
	}))
	for name, call := range s.bucketCalls() {
		v.Set(name, s.method(name, s.onBucket(call)))
	}
	for name, call := range s.rulesCalls() {
		v.Set(name, s.method(name, s.withRules(call)))
	}
	for name, parse := range map[string]func([]js.Value) (job, error){
		"setClock":                s.setClock,
		"listBuckets":             s.listBuckets,
		"setBucketVersioning":     s.setBucketVersioning,
		"put":                     s.put,
		"get":                     s.get,
		"head":                    s.head,
		"delete":                  s.delete,
		"listVersions":            s.listVersions,
		"listObjects":             s.listObjects,
		"createMultipartUpload":   s.createMultipartUpload,
		"uploadPart":              s.uploadPart,
		"completeMultipartUpload": s.completeMultipartUpload,
		"abortMultipartUpload":    s.abortMultipartUpload,
		"listParts":               s.listParts,
		"listMultipartUploads":    s.listMultipartUploads,
		"putBucketLifecycle":      s.putBucketLifecycle,
		"putObjectTagging":        s.putObjectTagging,
		"getObjectTagging":        s.getObjectTagging,
		"deleteObjectTagging":     s.deleteObjectTagging,
		"putBucketTagging":        s.putBucketTagging,
	} {
		v.Set(name, s.method(name, parse))
	}
	v.Set("terminal", method(s.terminal))
	v.Set("close", method(s.close))
	v.Set("fetch", js.FuncOf(s.fetch))
	s.value = v
	return s
}

// newHandler is the web handler of store.fetch over store, with the
// store's body limit.
func (s *storeObject) newHandler(store *core.Store) http.Handler {
	return web.NewHandler(store, web.Options{MaxObjectSize: s.maxObjectSize})
}

// syncClock caches the store's clock and its origin for the synchronous
// store.now() and store.origin(). It takes the store's lock, so it must run
// on a goroutine, not the event loop.
func (s *storeObject) syncClock() {
	s.now.Store(math.Float64bits(s.store.Now()))
	s.origin.Store(math.Float64bits(s.store.Origin()))
}

// done is the result of an operation that resolves to undefined.
func done(err error) (any, error) { return nil, err }

// answer is the result of an operation that resolves to the store's
// answer in its JSON shape (a shape of package wire, or a lifecycle
// configuration): a plain JavaScript object, or the error.
func answer[T any](res T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return toJS(res)
}

// answerAs is answer for a store result that shape turns into its JSON
// shape.
func answerAs[T, S any](shape func(T) S) func(T, error) (any, error) {
	return func(res T, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return toJS(shape(res))
	}
}

// bucketCalls are the operations whose one argument is a bucket name,
// each with what it asks the store.
func (s *storeObject) bucketCalls() map[string]func(bucket string) (any, error) {
	return map[string]func(string) (any, error){
		"createBucket":          func(b string) (any, error) { return done(s.store.CreateBucket(b)) },
		"deleteBucket":          func(b string) (any, error) { return done(s.store.DeleteBucket(b)) },
		"getBucketVersioning":   func(b string) (any, error) { return answer(s.store.BucketVersioning(b)) },
		"getBucketLifecycle":    func(b string) (any, error) { return answer(s.store.BucketLifecycle(b)) },
		"deleteBucketLifecycle": func(b string) (any, error) { return done(s.store.DeleteBucketLifecycle(b)) },
		"previewLifecycle":      func(b string) (any, error) { return answerAs(wire.Actions)(s.store.PreviewLifecycle(b)) },
		"runLifecycle":          func(b string) (any, error) { return answerAs(wire.Actions)(s.store.RunLifecycle(b)) },
		"lifecycleSchedule":     func(b string) (any, error) { return answerAs(wire.Schedule)(s.store.LifecycleSchedule(b)) },
		"getBucketTagging":      func(b string) (any, error) { return answerAs(wire.TagsOf)(s.store.BucketTagging(b)) },
		"deleteBucketTagging":   func(b string) (any, error) { return done(s.store.DeleteBucketTagging(b)) },
	}
}

// onBucket reads the bucket argument of call, and runs call with it.
func (s *storeObject) onBucket(call func(bucket string) (any, error)) func([]js.Value) (job, error) {
	return func(args []js.Value) (job, error) {
		bucket, err := bucketArg(args)
		if err != nil {
			return nil, err
		}
		return func() (any, error) { return call(bucket) }, nil
	}
}

// rulesCalls are the operations that run the chapter's rules over a
// bucket (withRules).
func (s *storeObject) rulesCalls() map[string]func(bucket string, rules []core.ExpirationRule) (any, error) {
	return map[string]func(string, []core.ExpirationRule) (any, error){
		"evaluate": func(b string, r []core.ExpirationRule) (any, error) {
			return answerAs(wire.Actions)(s.store.PreviewExpiration(b, r))
		},
		"tick": func(b string, r []core.ExpirationRule) (any, error) {
			return answerAs(wire.Actions)(s.store.LifecycleTick(b, r))
		},
		"expirationSchedule": func(b string, r []core.ExpirationRule) (any, error) {
			return answerAs(wire.Schedule)(s.store.ExpirationSchedule(b, r))
		},
	}
}

func (s *storeObject) setClock(args []js.Value) (job, error) {
	v := arg(args, 0)
	if v.Type() != js.TypeNumber {
		return nil, invalidArgument("now", "setClock takes a number of seconds, not %s", v.Type())
	}
	now := v.Float()
	return func() (any, error) {
		runs, err := s.store.SetClock(now)
		s.syncClock()
		if err != nil {
			return nil, err
		}
		return toJS(wire.Runs(runs, s.store.Origin()))
	}, nil
}

// bucketArg reads the bucket name argument.
func bucketArg(args []js.Value) (string, error) { return str(arg(args, 0), "bucket") }

// bucketKeyArgs reads the bucket and key arguments.
func bucketKeyArgs(args []js.Value) (bucket, key string, err error) {
	if bucket, err = bucketArg(args); err != nil {
		return "", "", err
	}
	key, err = str(arg(args, 1), "key")
	return bucket, key, err
}

func (s *storeObject) listBuckets([]js.Value) (job, error) {
	return func() (any, error) {
		out := []wire.Bucket{}
		for _, b := range s.store.ListBuckets() {
			out = append(out, wire.BucketOf(b))
		}
		return toJS(out)
	}, nil
}

func (s *storeObject) setBucketVersioning(args []js.Value) (job, error) {
	name, err := bucketArg(args)
	if err != nil {
		return nil, err
	}
	state, err := str(arg(args, 1), "status")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		return done(s.store.SetBucketVersioning(name, core.VersioningState(state)))
	}, nil
}

func (s *storeObject) put(args []js.Value) (job, error) {
	bucket, key, err := bucketKeyArgs(args)
	if err != nil {
		return nil, err
	}
	data, err := body(arg(args, 2), s.maxObjectSize)
	if err != nil {
		return nil, err
	}
	meta, err := metaOptions(arg(args, 3), "put options", "ifNoneMatch", "ifMatch")
	if err != nil {
		return nil, err
	}
	cond, err := writeConditions(arg(args, 3))
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		return answerAs(wire.WrittenOf)(s.store.PutObject(bucket, key, data, core.PutOptions{Meta: meta, WriteConditions: cond}))
	}, nil
}

// versionOption reads { versionId } of get, head, delete and the tagging
// calls.
func versionOption(v js.Value, what string) (string, error) {
	if err := checkKeys(v, what, "versionId"); err != nil {
		return "", err
	}
	return option(v, "versionId")
}

func (s *storeObject) get(args []js.Value) (job, error) {
	bucket, key, err := bucketKeyArgs(args)
	if err != nil {
		return nil, err
	}
	versionID, err := versionOption(arg(args, 2), "get options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		obj, err := s.store.GetObject(bucket, key, core.GetOptions{VersionID: versionID})
		if err != nil {
			return nil, err
		}
		res, err := toJS(wire.ReadOf(*obj))
		if err != nil {
			return nil, err
		}
		res.Set("body", bytesToJS(obj.Body))
		res.Set("text", jsString(string(obj.Body)))
		return res, nil
	}, nil
}

func (s *storeObject) head(args []js.Value) (job, error) {
	bucket, key, err := bucketKeyArgs(args)
	if err != nil {
		return nil, err
	}
	versionID, err := versionOption(arg(args, 2), "head options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		obj, err := s.store.HeadObject(bucket, key, core.GetOptions{VersionID: versionID})
		if err != nil {
			return nil, err
		}
		return toJS(wire.ReadOf(*obj))
	}, nil
}

func (s *storeObject) delete(args []js.Value) (job, error) {
	bucket, key, err := bucketKeyArgs(args)
	if err != nil {
		return nil, err
	}
	versionID, err := versionOption(arg(args, 2), "delete options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		res, err := s.store.DeleteObject(bucket, key, core.DeleteOptions{VersionID: versionID})
		if err != nil {
			return nil, err
		}
		return toJS(wire.Deleted{VersionID: res.VersionID, DeleteMarker: res.DeleteMarker})
	}, nil
}

// prefixOption reads { prefix } of the listings.
func prefixOption(v js.Value, what string) (string, error) {
	if err := checkKeys(v, what, "prefix"); err != nil {
		return "", err
	}
	return option(v, "prefix")
}

func (s *storeObject) listVersions(args []js.Value) (job, error) {
	bucket, err := bucketArg(args)
	if err != nil {
		return nil, err
	}
	prefix, err := prefixOption(arg(args, 1), "listVersions options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		res, err := s.store.ListObjectVersions(bucket, core.ListVersionsOptions{Prefix: prefix, MaxKeys: -1})
		if err != nil {
			return nil, err
		}
		out := make([]wire.Version, len(res.Versions))
		for i, v := range res.Versions {
			out[i] = wire.VersionOf(v)
		}
		return toJS(out)
	}, nil
}

func (s *storeObject) listObjects(args []js.Value) (job, error) {
	bucket, err := bucketArg(args)
	if err != nil {
		return nil, err
	}
	prefix, err := prefixOption(arg(args, 1), "listObjects options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		res, err := s.store.ListObjectsV2(bucket, core.ListObjectsOptions{Prefix: prefix, MaxKeys: -1})
		if err != nil {
			return nil, err
		}
		out := make([]wire.Object, len(res.Objects))
		for i, o := range res.Objects {
			out[i] = wire.Object{Key: o.Key, VersionID: o.VersionID, ETag: o.ETag, Size: o.Size, CreatedAt: o.CreatedAt,
				StorageClass: wire.StorageClass(o.StorageClass)}
		}
		return toJS(out)
	}, nil
}

// rulesArg reads lifecycle rules ([{ id, prefix, expireCurrentAfter,
// expireNoncurrentAfter }], thresholds in seconds, omitted or null =
// unset) exactly as the HTTP extensions do: through JSON and
// wire.DecodeRules. Whether they are valid is the store's to say, after
// it has found the bucket.
func rulesArg(v js.Value) ([]core.ExpirationRule, error) {
	if !isArray(v) {
		return nil, invalidArgument("rules", "rules must be an array of rules")
	}
	return wire.DecodeRules([]byte(js.Global().Get("JSON").Call("stringify", v).String()))
}

// withRules reads (bucket, rules) and runs call with them: evaluate, tick,
// expirationSchedule.
func (s *storeObject) withRules(call func(bucket string, rules []core.ExpirationRule) (any, error)) func([]js.Value) (job, error) {
	return func(args []js.Value) (job, error) {
		bucket, err := bucketArg(args)
		if err != nil {
			return nil, err
		}
		// The rules are read now, with the arguments, but an error in them
		// is answered only after the bucket's (see bucketFirst).
		rules, rulesErr := rulesArg(arg(args, 1))
		return func() (any, error) {
			if rulesErr != nil {
				return nil, s.bucketFirst(bucket, rulesErr)
			}
			return call(bucket, rules)
		}, nil
	}
}

func (s *storeObject) createMultipartUpload(args []js.Value) (job, error) {
	bucket, key, err := bucketKeyArgs(args)
	if err != nil {
		return nil, err
	}
	meta, err := metaOptions(arg(args, 2), "createMultipartUpload options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		return answerAs(wire.UploadOf)(s.store.CreateMultipartUpload(bucket, key, core.PutOptions{Meta: meta}))
	}, nil
}

// uploadArgs reads (bucket, key, uploadId).
func uploadArgs(args []js.Value) (bucket, key, uploadID string, err error) {
	if bucket, key, err = bucketKeyArgs(args); err != nil {
		return "", "", "", err
	}
	uploadID, err = str(arg(args, 2), "uploadId")
	return bucket, key, uploadID, err
}

func (s *storeObject) uploadPart(args []js.Value) (job, error) {
	bucket, key, uploadID, err := uploadArgs(args)
	if err != nil {
		return nil, err
	}
	n, err := integer(arg(args, 3), "partNumber")
	if err != nil {
		return nil, err
	}
	data, err := body(arg(args, 4), s.maxObjectSize)
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		return answerAs(wire.PartOf)(s.store.UploadPart(bucket, key, uploadID, int(n), data))
	}, nil
}

func (s *storeObject) completeMultipartUpload(args []js.Value) (job, error) {
	bucket, key, uploadID, err := uploadArgs(args)
	if err != nil {
		return nil, err
	}
	list := arg(args, 3)
	if !isArray(list) {
		return nil, invalidArgument("parts", "parts must be an array of { partNumber, etag }")
	}
	parts := make([]core.CompletedPart, list.Length())
	for i := range parts {
		p := list.Index(i)
		if err := checkKeys(p, "a part", "partNumber", "etag"); err != nil {
			return nil, err
		}
		if !isSet(p) {
			return nil, invalidArgument("parts", "parts[%d] must be { partNumber, etag }", i)
		}
		n, err := integer(p.Get("partNumber"), "partNumber")
		if err != nil {
			return nil, err
		}
		etag, err := str(p.Get("etag"), "etag")
		if err != nil {
			return nil, err
		}
		parts[i] = core.CompletedPart{PartNumber: int(n), ETag: etag}
	}
	if err := checkKeys(arg(args, 4), "completeMultipartUpload options", "ifNoneMatch", "ifMatch"); err != nil {
		return nil, err
	}
	cond, err := writeConditions(arg(args, 4))
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		return answerAs(wire.WrittenOf)(s.store.CompleteMultipartUploadIf(bucket, key, uploadID, parts, cond))
	}, nil
}

func (s *storeObject) abortMultipartUpload(args []js.Value) (job, error) {
	bucket, key, uploadID, err := uploadArgs(args)
	if err != nil {
		return nil, err
	}
	return func() (any, error) { return done(s.store.AbortMultipartUpload(bucket, key, uploadID)) }, nil
}

func (s *storeObject) listParts(args []js.Value) (job, error) {
	bucket, key, uploadID, err := uploadArgs(args)
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		out := []wire.Part{}
		opts := core.ListPartsOptions{}
		for {
			res, err := s.store.ListParts(bucket, key, uploadID, opts)
			if err != nil {
				return nil, err
			}
			for _, p := range res.Parts {
				out = append(out, wire.PartOf(p))
			}
			if !res.IsTruncated {
				return toJS(out)
			}
			opts.PartNumberMarker = res.NextPartNumberMarker
		}
	}, nil
}

func (s *storeObject) listMultipartUploads(args []js.Value) (job, error) {
	bucket, err := bucketArg(args)
	if err != nil {
		return nil, err
	}
	prefix, err := prefixOption(arg(args, 1), "listMultipartUploads options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		out := []wire.Upload{}
		opts := core.ListUploadsOptions{Prefix: prefix}
		for {
			res, err := s.store.ListMultipartUploads(bucket, opts)
			if err != nil {
				return nil, err
			}
			for _, u := range res.Uploads {
				out = append(out, wire.UploadOf(u))
			}
			if !res.IsTruncated {
				return toJS(out)
			}
			opts.KeyMarker, opts.UploadIDMarker = res.NextKeyMarker, res.NextUploadIDMarker
		}
	}, nil
}

// close implements store.close(): the store and its storage close, its
// fetch stops routing, and every later call rejects (a second close
// resolves).
func (s *storeObject) close([]js.Value) (job, error) {
	return func() (any, error) {
		var err error
		s.closeOnce.Do(func() {
			s.closed.Store(true)
			s.api.unregister(s.id)
			s.mu.Lock()
			defer s.mu.Unlock()
			err = s.store.Close()
		})
		return done(err)
	}, nil
}
