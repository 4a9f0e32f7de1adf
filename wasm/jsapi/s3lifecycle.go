//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"minis3/core"
)

// S3's own lifecycle, beside the chapter's rules (evaluate, tick): a
// bucket's stored configuration in the AWS shape, which the daily runs of
// setClock execute, and the schedules that say what each version faces
// next under either.
//
//	await store.putBucketLifecycle("demo", { Rules: [{ ID: "tmp", Status: "Enabled",
//	    Filter: { Prefix: "tmp/" }, Expiration: { Days: 1 } }] })
//	await store.setClock(2 * 86400)   // → [{ bucket: "demo", at: 172800, time, actions }]

// bucketFirst is err, an error in an argument that was read with the
// call, unless the bucket is missing: then NoSuchBucket, as core and the
// HTTP API answer whatever else is wrong with a request. It runs in the
// job, where the store may be read.
func (s *storeObject) bucketFirst(bucket string, err error) error {
	if _, missing := s.store.HeadBucket(bucket); missing != nil {
		return missing
	}
	return err
}

// lifecycleConfigArg reads a lifecycle configuration in the shape of the
// AWS CLI's JSON ({ Rules: [...] }, see core.ParseLifecycleJSON): a plain
// object, or its JSON text. A value of another type, an unknown field or
// a field of the wrong type is InvalidArgument; whether the configuration
// is valid is the store's to say.
func lifecycleConfigArg(v js.Value) (core.LifecycleConfiguration, error) {
	var text string
	switch {
	case v.Type() == js.TypeString:
		text = v.String()
	case v.Type() == js.TypeObject && !v.IsNull() && !isArray(v):
		text = js.Global().Get("JSON").Call("stringify", v).String()
	case isArray(v):
		return core.LifecycleConfiguration{}, invalidArgument("configuration",
			"the lifecycle configuration must be an object { Rules: [...] } or its JSON text, not an array (the rules go in its Rules)")
	default:
		return core.LifecycleConfiguration{}, invalidArgument("configuration",
			"the lifecycle configuration must be an object { Rules: [...] } or its JSON text, not %s", v.Type())
	}
	return core.ParseLifecycleJSON([]byte(text))
}

func (s *storeObject) putBucketLifecycle(args []js.Value) (job, error) {
	bucket, err := bucketArg(args)
	if err != nil {
		return nil, err
	}
	// Read now; an error in it is answered after the bucket's.
	cfg, cfgErr := lifecycleConfigArg(arg(args, 1))
	return func() (any, error) {
		if cfgErr != nil {
			return nil, s.bucketFirst(bucket, cfgErr)
		}
		return done(s.store.PutBucketLifecycle(bucket, cfg))
	}, nil
}
