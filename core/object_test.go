package core

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestValidateKey(t *testing.T) {
	tests := []struct {
		key  string
		want Code
	}{
		{"a", ""},
		{strings.Repeat("k", 1024), ""},
		{strings.Repeat("é", 512), ""}, // 1024 bytes
		{strings.Repeat("k", 1025), KeyTooLongError},
		{strings.Repeat("é", 513), KeyTooLongError}, // 513 characters, 1026 bytes
		{"", InvalidArgument},
		{"bad\xffutf8", InvalidArgument},
		{"../../etc/passwd", ""},
		{"a\x00b", ""},
		{"<img src=x onerror=alert(1)>", ""},
	}
	for _, tt := range tests {
		err := ValidateKey(tt.key)
		if tt.want == "" {
			if err != nil {
				t.Errorf("ValidateKey(%.20q) = %v", tt.key, err)
			}
			continue
		}
		e := wantCode(t, err, tt.want)
		if tt.want == KeyTooLongError && (e.Size != int64(len(tt.key)) || e.MaxSizeAllowed != 1024) {
			t.Errorf("KeyTooLongError sizes = %d/%d", e.Size, e.MaxSizeAllowed)
		}
	}
}

func TestOddKeysRoundTripByteExact(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	for _, key := range []string{"..", "a/../b", "%2F", "a\x00b", " lead", "trail ", "日本語/キー", strings.Repeat("ü", 512)} {
		ts.put("demo", key, key)
		obj, err := ts.GetObject("demo", key, GetOptions{})
		if err != nil || string(obj.Body) != key || obj.Key != key {
			t.Errorf("key %.20q: %v, %v", key, obj, err)
		}
	}
}

func TestPutStoresETagSizeAndMetadata(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	meta := ObjectMeta{ContentType: "text/plain", ContentDisposition: "inline", ContentEncoding: "identity",
		CacheControl: "no-cache", User: map[string]string{"color": "blue"}}
	ts.at(42)
	res, err := ts.PutObject("demo", "k", []byte("test"), PutOptions{Meta: meta})
	ts.must(err)
	if res.ETag != "098f6bcd4621d373cade4e832627b4f6" || res.Size != 4 || res.CreatedAt != 42 || res.VersionID != "v00000001" {
		t.Errorf("PutResult = %+v", res)
	}
	meta.User["color"] = "changed by the caller later"
	obj, err := ts.HeadObject("demo", "k", GetOptions{})
	ts.must(err)
	want := ObjectMeta{ContentType: "text/plain", ContentDisposition: "inline", ContentEncoding: "identity",
		CacheControl: "no-cache", User: map[string]string{"color": "blue"}}
	if !reflect.DeepEqual(obj.Version.Meta, want) || obj.Body != nil {
		t.Errorf("HEAD = %+v body %q", obj.Version.Meta, obj.Body)
	}
	empty, err := ts.PutObject("demo", "empty", nil, PutOptions{})
	ts.must(err)
	got, err := ts.GetObject("demo", "empty", GetOptions{})
	ts.must(err)
	if empty.ETag != "d41d8cd98f00b204e9800998ecf8427e" || len(got.Body) != 0 {
		t.Errorf("empty object: %+v %q", empty, got.Body)
	}
}

// The storage keeps what it commits, so PutObject must copy the caller's
// body: changing it afterwards changes nothing stored, before or after a
// reopen.
func TestPutObjectKeepsNoReferenceToTheCallersBody(t *testing.T) {
	mem := NewMemoryStorage()
	ts := openTestStore(t, mem, Options{})
	ts.bucket("demo", Enabled)
	body := []byte("body before")
	res, err := ts.PutObject("demo", "k", body, PutOptions{})
	ts.must(err)
	copy(body, "BODY AFTER!")
	check := func(ts *testStore) {
		t.Helper()
		obj, err := ts.GetObject("demo", "k", GetOptions{VersionID: res.VersionID})
		ts.must(err)
		if string(obj.Body) != "body before" {
			t.Errorf("stored body %q, want %q", obj.Body, "body before")
		}
	}
	check(ts)
	ts.retire()
	check(openTestStore(t, mem, Options{}))
}

func TestDeleteObjects(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.put("demo", "a", "1") // v00000001
	ts.put("demo", "b", "2") // v00000002
	ts.del("demo", "b", "")  // v00000003 marker
	res, err := ts.DeleteObjects("demo", []ObjectIdentifier{
		{Key: "a"},                         // marker v00000004
		{Key: "never"},                     // marker v00000005
		{Key: "b", VersionID: "v00000003"}, // removes the marker
		{Key: "b", VersionID: "v00000002"}, // removes the data
		{Key: "b", VersionID: "v00000099"}, // NoSuchVersion
		{Key: "a", VersionID: "bogus"},     // InvalidArgument
		{Key: strings.Repeat("k", 1025)},   // KeyTooLongError
	})
	ts.must(err)
	wantDeleted := []DeletedObject{
		{Key: "a", DeleteMarker: true, DeleteMarkerVersionID: "v00000004"},
		{Key: "never", DeleteMarker: true, DeleteMarkerVersionID: "v00000005"},
		{Key: "b", VersionID: "v00000003", DeleteMarker: true, DeleteMarkerVersionID: "v00000003"},
		{Key: "b", VersionID: "v00000002"},
	}
	if !reflect.DeepEqual(res.Deleted, wantDeleted) {
		t.Errorf("Deleted =\n%+v\nwant\n%+v", res.Deleted, wantDeleted)
	}
	var codes []Code
	for _, e := range res.Errors {
		codes = append(codes, e.Code)
	}
	if !reflect.DeepEqual(codes, []Code{NoSuchVersion, InvalidArgument, KeyTooLongError}) {
		t.Errorf("Errors = %+v", res.Errors)
	}
	if s := ts.stack("demo", "b"); s != "" {
		t.Errorf("b still has %q", s)
	}
	if s := ts.stack("demo", "a"); s != "v00000004:marker v00000001:data" {
		t.Errorf("a = %q", s)
	}

	_, err = ts.DeleteObjects("demo", nil)
	wantCode(t, err, MalformedXML)
	_, err = ts.DeleteObjects("demo", make([]ObjectIdentifier, 1001))
	wantCode(t, err, MalformedXML)
	_, err = ts.DeleteObjects("nobucket", []ObjectIdentifier{{Key: "a"}})
	wantCode(t, err, NoSuchBucket)
}

// Repeating a DeleteObjects of versions it already deleted answers Deleted
// for each, as a repeated DeleteObject answers 204; only an ID the bucket
// never issued is a per-key NoSuchVersion.
func TestDeleteObjectsOfADeletedVersionAnswersDeleted(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.put("demo", "a", "1") // v00000001
	ts.del("demo", "a", "")  // v00000002 marker
	objects := []ObjectIdentifier{{Key: "a", VersionID: "v00000001"}, {Key: "a", VersionID: "v00000002"}, {Key: "a", VersionID: "null"}}
	first, err := ts.DeleteObjects("demo", objects)
	ts.must(err)
	again, err := ts.DeleteObjects("demo", append(objects, ObjectIdentifier{Key: "a", VersionID: "v00000003"}))
	ts.must(err)
	wantFirst := []DeletedObject{
		{Key: "a", VersionID: "v00000001"},
		{Key: "a", VersionID: "v00000002", DeleteMarker: true, DeleteMarkerVersionID: "v00000002"},
		{Key: "a", VersionID: "null"},
	}
	wantAgain := []DeletedObject{{Key: "a", VersionID: "v00000001"}, {Key: "a", VersionID: "v00000002"}, {Key: "a", VersionID: "null"}}
	if !reflect.DeepEqual(first.Deleted, wantFirst) || len(first.Errors) > 0 {
		t.Errorf("first DeleteObjects = %+v, want Deleted %+v", first, wantFirst)
	}
	if !reflect.DeepEqual(again.Deleted, wantAgain) || len(again.Errors) != 1 || again.Errors[0].Code != NoSuchVersion {
		t.Errorf("repeated DeleteObjects = %+v, want Deleted %+v and NoSuchVersion for v00000003", again, wantAgain)
	}
}

// A request to a missing bucket is NoSuchBucket, whatever else is wrong
// with it: the bucket is looked up before the request's arguments.
func TestMissingBucketComesBeforeOtherErrors(t *testing.T) {
	ts := newTestStore(t)
	long := strings.Repeat("k", 1025)
	_, err := ts.PutObject("nobucket", long, nil, PutOptions{})
	wantCode(t, err, NoSuchBucket)
	_, err = ts.GetObject("nobucket", "a", GetOptions{VersionID: "bogus"})
	wantCode(t, err, NoSuchBucket)
	_, err = ts.DeleteObject("nobucket", "", DeleteOptions{})
	wantCode(t, err, NoSuchBucket)
	_, err = ts.DeleteObjects("nobucket", nil)
	wantCode(t, err, NoSuchBucket)
	_, err = ts.ListObjectVersions("nobucket", ListVersionsOptions{VersionIDMarker: "v00000001"})
	wantCode(t, err, NoSuchBucket)
	_, err = ts.UploadPart("nobucket", "a", "u00000001", 0, nil)
	wantCode(t, err, NoSuchBucket)
	_, err = ts.CompleteMultipartUpload("nobucket", long, "u00000001", nil)
	wantCode(t, err, NoSuchBucket)
	_, err = ts.CreateMultipartUpload("nobucket", long, PutOptions{})
	wantCode(t, err, NoSuchBucket)
	wantCode(t, ts.SetBucketVersioning("nobucket", Unversioned), NoSuchBucket)
	_, err = ts.LifecycleTick("nobucket", []ExpirationRule{{ID: "none"}})
	wantCode(t, err, NoSuchBucket)
	_, err = ts.PreviewExpiration("nobucket", []ExpirationRule{{ID: "none"}})
	wantCode(t, err, NoSuchBucket)
	wantCode(t, ts.PutBucketLifecycle("nobucket", LifecycleConfiguration{}), NoSuchBucket)
}

// Deleting several versions of one key in one request removes each, as
// separate DELETEs would, in one commit.
func TestDeleteObjectsRemovesSeveralVersionsOfOneKey(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	for i := range 4 {
		ts.put("demo", "k", fmt.Sprint(i)) // v00000001 to v00000004
	}
	commits := ts.faults.Commits()
	res, err := ts.DeleteObjects("demo", []ObjectIdentifier{
		{Key: "k", VersionID: "v00000002"}, {Key: "k", VersionID: "v00000004"}, {Key: "k", VersionID: "v00000001"},
	})
	ts.must(err)
	if len(res.Deleted) != 3 || len(res.Errors) != 0 {
		t.Errorf("Deleted %+v, Errors %+v; want 3 deleted", res.Deleted, res.Errors)
	}
	if s := ts.stack("demo", "k"); s != "v00000003:data" {
		t.Errorf("k = %q, want v00000003:data", s)
	}
	if n := ts.memory.Len(KindBody); n != 1 {
		t.Errorf("%d bodies stored, want 1", n)
	}
	if n := ts.faults.Commits() - commits; n != 1 {
		t.Errorf("%d commits, want 1", n)
	}
}

// One DeleteObjects that removes a version and adds two markers to the same
// key leaves a stack one entry longer whose lower entries are not the old
// stack: the record is encoded afresh (Check compares what is kept).
func TestDeleteObjectsRemovingAndMarkingOneKey(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.put("demo", "k", "1") // v00000001
	ts.put("demo", "k", "2") // v00000002
	_, err := ts.DeleteObjects("demo", []ObjectIdentifier{{Key: "k", VersionID: "v00000001"}, {Key: "k"}, {Key: "k"}})
	ts.must(err)
	if s := ts.stack("demo", "k"); s != "v00000004:marker v00000003:marker v00000002:data" {
		t.Errorf("k = %q", s)
	}
	ts.put("demo", "k", "5") // on top of a record encoded afresh
	if s := ts.stack("demo", "k"); s != "v00000005:data v00000004:marker v00000003:marker v00000002:data" {
		t.Errorf("k = %q", s)
	}
}

func TestDeleteObjectsInUnversionedAndSuspendedBuckets(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("plain", Unversioned)
	ts.bucket("susp", Suspended)
	ts.put("plain", "k", "x")
	ts.put("susp", "k", "x")
	res, err := ts.DeleteObjects("plain", []ObjectIdentifier{{Key: "k"}, {Key: "missing"}})
	ts.must(err)
	if !reflect.DeepEqual(res.Deleted, []DeletedObject{{Key: "k"}, {Key: "missing"}}) {
		t.Errorf("unversioned: %+v", res.Deleted)
	}
	res, err = ts.DeleteObjects("susp", []ObjectIdentifier{{Key: "k"}})
	ts.must(err)
	if !reflect.DeepEqual(res.Deleted, []DeletedObject{{Key: "k", DeleteMarker: true, DeleteMarkerVersionID: "null"}}) {
		t.Errorf("suspended: %+v", res.Deleted)
	}
	if s := ts.stack("susp", "k"); s != "null:marker" {
		t.Errorf("suspended stack %q", s)
	}
}
