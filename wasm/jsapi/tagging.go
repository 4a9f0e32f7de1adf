//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"

	"minis3/core"
	"minis3/internal/wire"
)

// Object tags and storage classes: given with put and
// createMultipartUpload, and a version's tags replaced, read and removed
// by the tagging calls. S3's lifecycle rules select objects by their tags
// and move them between storage classes.
//
//	await store.put("demo", "k", "x", { tags: [{ key: "team", value: "web" }], storageClass: "STANDARD_IA" })
//	await store.getObjectTagging("demo", "k")   // → { versionId: "null", tags: [{ key: "team", value: "web" }] }

// metaOptions reads the options of put and createMultipartUpload: {
// contentType, tags: [{ key, value }], storageClass }, and allows the
// options named in more, which the caller reads. Whether the tags and the
// storage class are valid is the store's to say.
func metaOptions(v js.Value, what string, more ...string) (core.ObjectMeta, error) {
	var meta core.ObjectMeta
	if err := checkKeys(v, what, append([]string{"contentType", "tags", "storageClass"}, more...)...); err != nil {
		return meta, err
	}
	var err error
	if meta.ContentType, err = option(v, "contentType"); err != nil {
		return meta, err
	}
	if meta.StorageClass, err = option(v, "storageClass"); err != nil {
		return meta, err
	}
	if isSet(v) && isSet(v.Get("tags")) {
		meta.Tags, err = tagsArg(v.Get("tags"))
	}
	return meta, err
}

// tagsArg reads a tag set: an array of { key, value }, both strings.
func tagsArg(v js.Value) ([]core.Tag, error) {
	if !isArray(v) {
		return nil, invalidArgument("tags", "tags must be an array of { key, value }, not %s", v.Type())
	}
	tags := make([]core.Tag, v.Length())
	for i := range tags {
		t := v.Index(i)
		what := fmt.Sprintf("tags[%d]", i)
		if err := checkKeys(t, what, "key", "value"); err != nil {
			return nil, err
		}
		if !isSet(t) {
			return nil, invalidArgument("tags", "%s must be { key, value }, not %s", what, t.Type())
		}
		key, err := str(t.Get("key"), what+".key")
		if err != nil {
			return nil, err
		}
		value, err := str(t.Get("value"), what+".value")
		if err != nil {
			return nil, err
		}
		tags[i] = core.Tag{Key: key, Value: value}
	}
	return tags, nil
}

func (s *storeObject) putObjectTagging(args []js.Value) (job, error) {
	bucket, key, err := bucketKeyArgs(args)
	if err != nil {
		return nil, err
	}
	tags, err := tagsArg(arg(args, 2))
	if err != nil {
		return nil, err
	}
	versionID, err := versionOption(arg(args, 3), "putObjectTagging options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		id, err := s.store.PutObjectTagging(bucket, key, versionID, tags)
		if err != nil {
			return nil, err
		}
		return toJS(wire.Retagged{VersionID: id})
	}, nil
}

func (s *storeObject) getObjectTagging(args []js.Value) (job, error) {
	bucket, key, err := bucketKeyArgs(args)
	if err != nil {
		return nil, err
	}
	versionID, err := versionOption(arg(args, 2), "getObjectTagging options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		id, tags, err := s.store.ObjectTagging(bucket, key, versionID)
		if err != nil {
			return nil, err
		}
		return toJS(wire.Tagging{VersionID: id, Tags: wire.TagsOf(tags)})
	}, nil
}

func (s *storeObject) deleteObjectTagging(args []js.Value) (job, error) {
	bucket, key, err := bucketKeyArgs(args)
	if err != nil {
		return nil, err
	}
	versionID, err := versionOption(arg(args, 2), "deleteObjectTagging options")
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		id, err := s.store.DeleteObjectTagging(bucket, key, versionID)
		if err != nil {
			return nil, err
		}
		return toJS(wire.Retagged{VersionID: id})
	}, nil
}

// A bucket's own tags (S3's PutBucketTagging, GetBucketTagging and
// DeleteBucketTagging): S3 keeps them for billing and access rules; here
// they are stored and read back, nothing else looks at them.
//
//	await store.putBucketTagging("demo", [{ key: "course", value: "s3-101" }])
//	await store.getBucketTagging("demo")   // → [{ key: "course", value: "s3-101" }]

func (s *storeObject) putBucketTagging(args []js.Value) (job, error) {
	bucket, err := bucketArg(args)
	if err != nil {
		return nil, err
	}
	tags, err := tagsArg(arg(args, 1))
	if err != nil {
		return nil, err
	}
	return func() (any, error) { return done(s.store.PutBucketTagging(bucket, tags)) }, nil
}
