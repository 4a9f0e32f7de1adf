package model

import (
	"crypto/md5"
	"encoding/hex"
	"slices"
	"strings"
)

// PutResult is what a PUT or a multipart completion made.
type PutResult struct {
	VersionID string // "null" unless the bucket is enabled
	ETag      string
	Size      int64
	CreatedAt float64
	// Expiration is when S3's lifecycle will expire the new version, and
	// by which rule (x-amz-expiration) [ref §5.8]; nil when no rule will.
	Expiration *Expiry `json:",omitempty"`
}

// PutOptions are what a PUT says of an object besides its bytes.
type PutOptions struct {
	ContentType string
	Tags        []Tag // x-amz-tagging
	Conditions
}

// Conditions make a PUT or a multipart completion write only if the key is
// as the writer expects [S3 UG conditional-writes]: IfNoneMatch (the
// header If-None-Match: *) only if the key has no object, a delete marker
// being none; IfMatch (If-Match: an ETag, quotes optional) only if the
// key's object has that ETag. A condition that fails is PreconditionFailed
// [ref §4, PreconditionFailed], but If-Match on a key without an object
// is NoSuchKey.
type Conditions struct {
	IfNoneMatch bool
	IfMatch     string
}

// check applies the conditions to the key's current entry in b.
func (c Conditions) check(b *Bucket, key string) error {
	stack := b.Stacks[key]
	hasObject := len(stack) > 0 && !stack[0].DeleteMarker
	switch {
	case c.IfNoneMatch && hasObject:
		return errorf("PreconditionFailed", "If-None-Match")
	case c.IfMatch != "" && !hasObject:
		return errorf("NoSuchKey", key)
	case c.IfMatch != "" && strings.Trim(c.IfMatch, `"`) != stack[0].ETag:
		return errorf("PreconditionFailed", "If-Match")
	}
	return nil
}

// PutObject writes a new data version of key [ref §1.2, PUT row]: in an
// enabled bucket it gets the next version ID and goes on top, the older
// entries staying below; otherwise it is the key's null version and
// replaces the key's null entry, object or marker, wherever it is in the
// stack. Its ETag is the hex MD5 of the body [ref §3.3]. Its tags come in
// the x-amz-tagging header [S3 UG object-tagging].
func (s *Store) PutObject(bucket, key, body string, o PutOptions) (PutResult, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return PutResult{}, err
	}
	if err := checkKey(key); err != nil {
		return PutResult{}, err
	}
	if err := checkTags(o.Tags, true); err != nil {
		return PutResult{}, err
	}
	if err := o.check(b, key); err != nil {
		return PutResult{}, err
	}
	sum := md5.Sum([]byte(body))
	v := s.newEntry(Entry{VersionID: b.newVersionID(), Body: body, ETag: hex.EncodeToString(sum[:]),
		ContentType: o.ContentType, Tags: nilIfEmpty(o.Tags)})
	b.push(key, v)
	return s.putResult(b, key, v), nil
}

// putResult is what a write answers of the version v it made of key.
func (s *Store) putResult(b *Bucket, key string, v Entry) PutResult {
	return PutResult{VersionID: v.VersionID, ETag: v.ETag, Size: int64(len(v.Body)), CreatedAt: v.CreatedAt,
		Expiration: s.expiry(b, key, v)}
}

func nilIfEmpty(tags []Tag) []Tag {
	if len(tags) == 0 {
		return nil
	}
	return slices.Clone(tags)
}

// newVersionID is the ID of a new entry: the next number in an enabled
// bucket, "null" in the other states [ref §1.2].
func (b *Bucket) newVersionID() string {
	if b.Versioning != Enabled {
		return NullVersionID
	}
	b.VersionsIssued++
	return versionID(b.VersionsIssued)
}

// push makes e the key's current entry. A null entry replaces the key's
// earlier null entry: a key holds at most one [ref §1.2, "at most one null
// entry (object or DM)"].
func (b *Bucket) push(key string, e Entry) {
	b.keyChanged(key)
	stack := b.Stacks[key]
	if e.VersionID == NullVersionID {
		stack = slices.DeleteFunc(slices.Clone(stack), func(o Entry) bool { return o.VersionID == NullVersionID })
	}
	b.Stacks[key] = append([]Entry{e}, stack...)
}

// remove takes the entry at index i out of the key's stack; the next one
// down becomes current if i was 0 [ref §1.2, DELETE ?versionId row].
func (b *Bucket) remove(key string, i int) Entry {
	if i == 0 {
		b.keyChanged(key)
	}
	stack := b.Stacks[key]
	e := stack[i]
	stack = slices.Delete(slices.Clone(stack), i, i+1)
	if len(stack) == 0 {
		delete(b.Stacks, key)
	} else {
		b.Stacks[key] = stack
	}
	return e
}

// find is the index of the entry with version ID id in the key's stack,
// or -1.
func (b *Bucket) find(key, id string) int {
	return slices.IndexFunc(b.Stacks[key], func(e Entry) bool { return e.VersionID == id })
}

// Object is a data version read by GET or HEAD.
type Object struct {
	Key         string
	VersionID   string
	ETag        string
	Size        int64
	CreatedAt   float64
	ContentType string
	// StorageClass is the version's class, "" for STANDARD
	// (x-amz-storage-class, which S3 leaves out for STANDARD).
	StorageClass string `json:",omitempty"`
	// Expiration is when S3's lifecycle will expire the version, read
	// without a version ID [ref §5.8].
	Expiration *Expiry `json:",omitempty"`
	Body       string  // GET only
	// Versioning is the bucket's state when it was read: S3 sends no
	// x-amz-version-id for a bucket never versioned [ref §1.2, GET row].
	Versioning Versioning
}

// GetObject reads a version [ref §1.2, GET/HEAD rows]. Without a version
// ID: the current entry; a missing key, or a current delete marker, is
// NoSuchKey (with the marker's ID). With one: a malformed ID is
// InvalidArgument, an unknown one NoSuchVersion, a delete marker's
// MethodNotAllowed. The bytes of a version in GLACIER or DEEP_ARCHIVE
// cannot be read, as they are not restored: InvalidObjectState (HEAD
// still describes it) [S3 API GetObject: "If the object you are retrieving
// is stored in the S3 Glacier Flexible Retrieval storage class ... or S3
// Glacier Deep Archive ... you must first restore a copy ... Otherwise,
// this operation returns an InvalidObjectState error"].
func (s *Store) GetObject(bucket, key, versionID string) (Object, error) {
	obj, err := s.HeadObject(bucket, key, versionID)
	if err != nil {
		return Object{}, err
	}
	if archived(obj.StorageClass) {
		return Object{}, errorf("InvalidObjectState", obj.StorageClass)
	}
	b := s.Buckets[bucket]
	obj.Body = b.Stacks[key][b.find(key, obj.VersionID)].Body
	return obj, nil
}

// HeadObject is GetObject without the body.
func (s *Store) HeadObject(bucket, key, versionID string) (Object, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return Object{}, err
	}
	if err := checkKey(key); err != nil {
		return Object{}, err
	}
	stack := b.Stacks[key]
	var e Entry
	if versionID == "" {
		if len(stack) == 0 {
			return Object{}, errorf("NoSuchKey", key)
		}
		if e = stack[0]; e.DeleteMarker {
			return Object{}, &Error{Code: "NoSuchKey", DeleteMarker: true, VersionID: e.VersionID}
		}
	} else {
		if err := checkVersionID(b, versionID); err != nil {
			return Object{}, err
		}
		i := b.find(key, versionID)
		if i < 0 {
			return Object{}, errorf("NoSuchVersion", key+" "+versionID)
		}
		if e = stack[i]; e.DeleteMarker {
			return Object{}, &Error{Code: "MethodNotAllowed", DeleteMarker: true, VersionID: e.VersionID}
		}
	}
	obj := Object{Key: key, VersionID: e.VersionID, ETag: e.ETag, Size: int64(len(e.Body)),
		CreatedAt: e.CreatedAt, ContentType: e.ContentType, StorageClass: e.StorageClass, Versioning: b.Versioning}
	if versionID == "" {
		// "not sent ... for a GET/HEAD with a versionId (even when that
		// version is current)" [ref §5.8].
		obj.Expiration = s.expiry(b, key, e)
	}
	return obj, nil
}

// archived reports whether a version of the storage class must be
// restored before GET can read it.
func archived(class string) bool { return class == "GLACIER" || class == "DEEP_ARCHIVE" }

// DeleteResult is what a DELETE did.
type DeleteResult struct {
	// VersionID is the new marker's ID, or the ID a delete by version
	// named; "" for an unversioned delete.
	VersionID string
	// DeleteMarker: a marker was made, or the entry removed was one.
	DeleteMarker bool
}

// DeleteObject deletes a key or one of its entries [ref §1.2, DELETE rows].
func (s *Store) DeleteObject(bucket, key, versionID string) (DeleteResult, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return DeleteResult{}, err
	}
	if err := checkKey(key); err != nil {
		return DeleteResult{}, err
	}
	if versionID == "" {
		return s.deleteCurrent(b, key), nil
	}
	if err := checkVersionID(b, versionID); err != nil {
		return DeleteResult{}, err
	}
	res, _ := b.deleteVersion(key, versionID)
	return res, nil
}

// deleteCurrent is DELETE without a version ID [ref §1.2]: an unversioned
// bucket removes the object (a missing key is no error); an enabled one
// adds a marker with a new ID, even on a missing key or over a marker
// (markers stack); a suspended one replaces the key's null entry with a
// null marker. Lifecycle's current expiration goes through here too
// [chapter: "Lifecycle does not bypass the bucket state machine"].
func (s *Store) deleteCurrent(b *Bucket, key string) DeleteResult {
	if b.Versioning == Unversioned {
		if _, ok := b.Stacks[key]; ok {
			b.keyChanged(key)
			delete(b.Stacks, key)
		}
		return DeleteResult{}
	}
	m := s.newEntry(Entry{VersionID: b.newVersionID(), DeleteMarker: true})
	b.push(key, m)
	return DeleteResult{VersionID: m.VersionID, DeleteMarker: true}
}

// deleteVersion removes exactly the entry with that ID; found is false,
// and nothing changes, when there is none [ref §1.2: "A well-formed X that
// does not exist → 204, no error"].
func (b *Bucket) deleteVersion(key, id string) (res DeleteResult, found bool) {
	i := b.find(key, id)
	if i < 0 {
		return DeleteResult{VersionID: id}, false
	}
	e := b.remove(key, i)
	return DeleteResult{VersionID: id, DeleteMarker: e.DeleteMarker}, true
}

// ObjectID names a key and, optionally, one of its versions.
type ObjectID struct{ Key, VersionID string }

// Deleted is one successful delete of DeleteObjects.
type Deleted struct {
	Key                   string
	VersionID             string // the version named, if one was
	DeleteMarker          bool
	DeleteMarkerVersionID string
}

// DeleteFailure is one failed delete of DeleteObjects.
type DeleteFailure struct{ Key, VersionID, Code string }

// DeleteObjectsResult is DeleteObjects' answer, key by key.
type DeleteObjectsResult struct {
	Deleted []Deleted
	Errors  []DeleteFailure
}

// DeleteObjects deletes 1 to 1000 keys or versions in order, each as
// DeleteObject would, and answers for each [ref §1.2, DeleteObjects]:
// a new marker is reported as DeleteMarker with its ID; a version named by
// ID as that version, with DeleteMarker when it was a marker. A named
// version that is gone is deleted again, as a repeated DELETE is ("Repeating
// the delete works (idempotent)"); only an ID the bucket never issued is
// a per-key NoSuchVersion. A bad key or a malformed ID is a per-key error.
func (s *Store) DeleteObjects(bucket string, objects []ObjectID) (DeleteObjectsResult, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return DeleteObjectsResult{}, err
	}
	if len(objects) == 0 || len(objects) > 1000 {
		return DeleteObjectsResult{}, errorf("MalformedXML", "DeleteObjects names 1 to 1000 keys")
	}
	var res DeleteObjectsResult
	fail := func(o ObjectID, err error) {
		res.Errors = append(res.Errors, DeleteFailure{Key: o.Key, VersionID: o.VersionID, Code: err.(*Error).Code})
	}
	for _, o := range objects {
		if err := checkKey(o.Key); err != nil {
			fail(o, err)
			continue
		}
		if o.VersionID == "" {
			r := s.deleteCurrent(b, o.Key)
			d := Deleted{Key: o.Key, DeleteMarker: r.DeleteMarker}
			if r.DeleteMarker {
				d.DeleteMarkerVersionID = r.VersionID
			}
			res.Deleted = append(res.Deleted, d)
			continue
		}
		if err := checkVersionID(b, o.VersionID); err != nil {
			fail(o, err)
			continue
		}
		r, found := b.deleteVersion(o.Key, o.VersionID)
		if !found && !b.issued(o.VersionID) {
			fail(o, errorf("NoSuchVersion", o.VersionID))
			continue
		}
		d := Deleted{Key: o.Key, VersionID: o.VersionID, DeleteMarker: r.DeleteMarker}
		if r.DeleteMarker {
			d.DeleteMarkerVersionID = o.VersionID
		}
		res.Deleted = append(res.Deleted, d)
	}
	return res, nil
}

// issued reports whether the bucket ever handed out the version ID: "null"
// always names the key's null slot, a number one the counter has passed.
func (b *Bucket) issued(id string) bool {
	return id == NullVersionID || versionNumber(id) <= b.VersionsIssued
}
