package core

import (
	"crypto/md5"
	"encoding/hex"
)

// PutOptions are the optional parts of a PUT.
type PutOptions struct {
	Meta ObjectMeta
	// WriteConditions make the PUT conditional. CreateMultipartUpload
	// takes none: an upload's conditions are given when it is completed.
	WriteConditions
}

// WriteConditions make a write happen only if the key is as the writer
// expects: S3's If-None-Match: * and If-Match on PutObject, CopyObject and
// CompleteMultipartUpload. They are checked in the write's own
// transaction, so nothing can change the key between the check and the
// write. Only the key's current entry counts: a key whose current entry is
// a delete marker has no object.
type WriteConditions struct {
	// IfNoneMatch writes only if the key has no object: otherwise the
	// write fails with PreconditionFailed.
	IfNoneMatch bool
	// IfMatch, when set, writes only if the key's object has this ETag
	// (quotes are allowed): NoSuchKey when the key has no object,
	// PreconditionFailed when its ETag is another.
	IfMatch string
}

// check applies the conditions to key as the transaction t sees it.
func (c WriteConditions) check(t *tx, key string) error {
	var current *Version // nil: the key has no object
	if r := t.record(key); r != nil && len(r.Versions) > 0 {
		current, _ = r.Current().(*Version)
	}
	if c.IfNoneMatch && current != nil {
		return errCondition(PreconditionFailed, key, "If-None-Match")
	}
	if c.IfMatch != "" {
		if current == nil {
			e := newError(NoSuchKey, "")
			e.Key = key
			return e
		}
		if unquote(c.IfMatch) != current.ETag {
			return errCondition(PreconditionFailed, key, "If-Match")
		}
	}
	return nil
}

// header is the name of the condition's header, for error bodies.
func (c WriteConditions) header() string {
	if c.IfNoneMatch {
		return "If-None-Match"
	}
	return "If-Match"
}

func errCondition(code Code, key, header string) *Error {
	e := newError(code, "")
	e.Key, e.Condition = key, header
	return e
}

// PutResult describes the version a PUT or multipart completion created.
type PutResult struct {
	// VersionID is the new version's ID: "null" unless the bucket is
	// enabled. (S3 sends it as x-amz-version-id only when it is not null.)
	VersionID string
	ETag      string
	Size      int64
	CreatedAt float64
	// Expiration is when S3's lifecycle will expire the version, if a
	// stored rule will, as it was when the version was made: a repeated
	// CompleteMultipartUpload answers it again.
	Expiration *Expiry `json:",omitempty"`
}

// GetOptions select a version to read.
type GetOptions struct {
	VersionID string // "" means the current version
}

// Object is a version read from the store: a copy, which the caller may
// change.
type Object struct {
	Key     string
	Version *Version
	Body    []byte // nil for HeadObject
	// Versioning is the bucket's state when the object was read.
	Versioning VersioningState
	// Expiration is when S3's lifecycle will expire the version, read
	// without a version ID, if a stored rule will.
	Expiration *Expiry
}

// DeleteOptions select what a DELETE removes.
type DeleteOptions struct {
	VersionID string // "" means no version: see DeleteObject
}

// PutObject stores body under key. In an enabled bucket it adds a version
// with the next version ID; otherwise it writes the key's null version,
// replacing any earlier null entry (object or delete marker). With write
// conditions, it writes only if they hold.
func (s *Store) PutObject(bucket, key string, body []byte, opts PutOptions) (PutResult, error) {
	sum := md5.Sum(body)
	etag := hex.EncodeToString(sum[:])
	meta := opts.Meta.clone()
	body = clone(body) // the storage keeps what it commits; the caller keeps body
	var res PutResult
	err := s.update(bucket, func(t *tx) error {
		if err := ValidateKey(key); err != nil {
			return err
		}
		if err := checkMeta(&meta); err != nil {
			return err
		}
		if err := opts.WriteConditions.check(t, key); err != nil {
			return err
		}
		v := &Version{VersionID: t.newVersionID(), ETag: etag, Size: int64(len(body)), CreatedAt: t.now, Meta: meta, seq: t.nextSeq()}
		t.putBody(entryRef(bucket, v.seq), body)
		t.putEntry(key, v)
		res = PutResult{VersionID: v.VersionID, ETag: v.ETag, Size: v.Size, CreatedAt: v.CreatedAt, Expiration: t.b.expiryOf(key, v, s.origin)}
		return nil
	})
	return res, err
}

// GetObject reads a version and its body. Without a version ID it reads the
// current version: NoSuchKey when the key is missing or its current entry is
// a delete marker (the error then has DeleteMarker set and the marker's
// VersionID). With one: NoSuchVersion when no such entry exists,
// MethodNotAllowed when it is a delete marker, InvalidArgument when the ID is
// malformed (or not "null" in an unversioned bucket).
func (s *Store) GetObject(bucket, key string, opts GetOptions) (*Object, error) {
	return s.read(bucket, key, opts, "GET")
}

// HeadObject is GetObject without the body.
func (s *Store) HeadObject(bucket, key string, opts GetOptions) (*Object, error) {
	return s.read(bucket, key, opts, "HEAD")
}

func (s *Store) read(bucket, key string, opts GetOptions, method string) (*Object, error) {
	var obj *Object
	err := s.view(bucket, func(b *bucketState) error {
		if err := ValidateKey(key); err != nil {
			return err
		}
		v, err := b.lookup(key, opts.VersionID, method)
		if err != nil {
			return err
		}
		obj = &Object{Key: key, Version: v.clone(), Versioning: b.meta.Versioning}
		if opts.VersionID == "" {
			obj.Expiration = b.expiryOf(key, v, s.origin)
		}
		if method == "GET" && (v.Meta.StorageClass == "GLACIER" || v.Meta.StorageClass == "DEEP_ARCHIVE") {
			// Its bytes must be restored first, which MiniS3 does not do.
			e := newError(InvalidObjectState, "")
			e.StorageClass = v.Meta.StorageClass
			return e
		}
		if method == "GET" {
			body, err := s.storage.ReadBody(entryRef(bucket, v.seq))
			if err != nil {
				return storageError(err)
			}
			obj.Body = body
		}
		return nil
	})
	return obj, err
}

// lookup finds the data version GET or HEAD would read.
func (b *bucketState) lookup(key, versionID, method string) (*Version, error) {
	r := b.records[key]
	if versionID == "" {
		if r == nil {
			e := newError(NoSuchKey, "")
			e.Key = key
			return nil, e
		}
		switch cur := r.Current().(type) {
		case *Version:
			return cur, nil
		case *DeleteMarker:
			e := newError(NoSuchKey, "")
			e.Key, e.DeleteMarker, e.VersionID, e.LastModified = key, true, cur.VersionID, cur.CreatedAt
			return nil, e
		}
	}
	if err := checkVersionID(b.meta.Versioning, versionID); err != nil {
		return nil, err
	}
	i := -1
	if r != nil {
		i = r.find(versionID)
	}
	if i < 0 {
		e := newError(NoSuchVersion, "")
		e.Key, e.VersionID = key, versionID
		return nil, e
	}
	switch v := r.Versions[i].(type) {
	case *Version:
		return v, nil
	default:
		e := newError(MethodNotAllowed, "")
		e.Key, e.VersionID, e.DeleteMarker, e.LastModified = key, versionID, true, v.Created()
		e.Method, e.ResourceType = method, "DeleteMarker"
		return nil, e
	}
}

// DeleteObject deletes a key or one of its versions. Without a version ID it
// removes the object in an unversioned bucket (a missing key is no error)
// and adds a delete marker in enabled and suspended buckets. With a version
// ID it removes exactly that entry; an unknown, well-formed ID is no error.
func (s *Store) DeleteObject(bucket, key string, opts DeleteOptions) (DeleteResult, error) {
	var res DeleteResult
	err := s.update(bucket, func(t *tx) error {
		if err := ValidateKey(key); err != nil {
			return err
		}
		if opts.VersionID == "" {
			res = t.deleteCurrent(key)
			return nil
		}
		if err := checkVersionID(t.meta.Versioning, opts.VersionID); err != nil {
			return err
		}
		res, _ = t.deleteVersion(key, opts.VersionID)
		return nil
	})
	return res, err
}

// MaxDeleteObjects is the most keys one DeleteObjects call may name.
const MaxDeleteObjects = 1000

// ObjectIdentifier names a key and, optionally, one of its versions.
type ObjectIdentifier struct {
	Key       string
	VersionID string
}

// DeletedObject reports one successful delete of DeleteObjects.
type DeletedObject struct {
	Key                   string
	VersionID             string // the version deleted by ID, if one was named
	DeleteMarker          bool
	DeleteMarkerVersionID string
}

// DeleteObjectError reports one failed delete of DeleteObjects.
type DeleteObjectError struct {
	Key       string
	VersionID string
	Code      Code
	Message   string
}

// DeleteObjectsResult is the outcome of DeleteObjects, key by key.
type DeleteObjectsResult struct {
	Deleted []DeletedObject
	Errors  []DeleteObjectError
}

// DeleteObjects deletes up to 1000 keys or versions at once, in order, with
// a result per key as S3's DeleteObjects. Deleting a version that is gone
// again answers Deleted, as a repeated DeleteObject does; only a version ID
// the bucket never issued is a per-key NoSuchVersion error. All deletes
// that succeed are committed together, so a storage failure changes
// nothing.
func (s *Store) DeleteObjects(bucket string, objects []ObjectIdentifier) (DeleteObjectsResult, error) {
	var res DeleteObjectsResult
	err := s.update(bucket, func(t *tx) error {
		if len(objects) == 0 || len(objects) > MaxDeleteObjects {
			return newError(MalformedXML, "a DeleteObjects request names 1 to %d keys, not %d", MaxDeleteObjects, len(objects))
		}
		res = DeleteObjectsResult{}
		for _, o := range objects {
			fail := func(err *Error) {
				res.Errors = append(res.Errors, DeleteObjectError{Key: o.Key, VersionID: o.VersionID, Code: err.Code, Message: err.Message})
			}
			if err := ValidateKey(o.Key); err != nil {
				fail(err.(*Error))
				continue
			}
			if o.VersionID == "" {
				r := t.deleteCurrent(o.Key)
				d := DeletedObject{Key: o.Key, DeleteMarker: r.DeleteMarker}
				if r.DeleteMarker {
					d.DeleteMarkerVersionID = r.VersionID
				}
				res.Deleted = append(res.Deleted, d)
				continue
			}
			if err := checkVersionID(t.meta.Versioning, o.VersionID); err != nil {
				fail(err.(*Error))
				continue
			}
			r, found := t.deleteVersion(o.Key, o.VersionID)
			if !found && !t.issued(o.VersionID) {
				fail(newError(NoSuchVersion, ""))
				continue
			}
			d := DeletedObject{Key: o.Key, VersionID: o.VersionID, DeleteMarker: r.DeleteMarker}
			if r.DeleteMarker {
				d.DeleteMarkerVersionID = o.VersionID
			}
			res.Deleted = append(res.Deleted, d)
		}
		return nil
	})
	if err != nil {
		return DeleteObjectsResult{}, err
	}
	return res, nil
}
