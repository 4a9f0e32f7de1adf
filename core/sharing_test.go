package core

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// scribble changes everything reachable from v that a caller could change:
// every exported field, element and map value, through pointers and
// interfaces; maps also gain a key. A value that shares memory with the
// store then changes the store.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scribble(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			scribble(e)
			v.SetMapIndex(k, e)
		}
		if v.Type().Key().Kind() == reflect.String {
			v.SetMapIndex(reflect.ValueOf("scribbled").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(v.String() + "!")
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		if v.CanSet() {
			v.SetInt(v.Int() + 1)
		}
	case reflect.Uint8, reflect.Uint64:
		if v.CanSet() {
			v.SetUint(v.Uint() + 1)
		}
	case reflect.Float64:
		if v.CanSet() {
			v.SetFloat(v.Float() + 1)
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	}
}

// everything is every answer the store gives about its state, as JSON,
// which follows pointers.
func everything(t *testing.T, s *Store) string {
	t.Helper()
	out := ""
	add := func(v any, err error) {
		j, jerr := json.Marshal(v)
		if jerr != nil {
			t.Fatal(jerr)
		}
		out += fmt.Sprintf("%s %v\n", j, err)
	}
	add(s.ListBuckets(), nil)
	for _, b := range s.ListBuckets() {
		add(s.HeadBucket(b.Name))
		add(s.BucketLifecycle(b.Name))
		snapshot, err := s.Snapshot(b.Name)
		add(snapshot, err)
		for _, r := range snapshot {
			for _, e := range r.Versions {
				add(e, nil)
				if _, ok := e.(*Version); ok {
					add(s.GetObject(b.Name, r.Key, GetOptions{VersionID: e.ID()}))
				}
			}
		}
		add(s.ListObjectVersions(b.Name, ListVersionsOptions{MaxKeys: -1}))
		add(s.ListObjectsV2(b.Name, ListObjectsOptions{MaxKeys: -1}))
		uploads, err := s.ListMultipartUploads(b.Name, ListUploadsOptions{})
		add(uploads, err)
		for _, u := range uploads.Uploads {
			add(s.ListParts(b.Name, u.Key, u.UploadID, ListPartsOptions{}))
		}
		add(s.PreviewExpiration(b.Name, []ExpirationRule{{ID: "r", ExpireNoncurrentAfter: Seconds(0)}}))
	}
	return out
}

// Every value the store returns is a copy: changing anything in it, however
// deep, changes nothing the store answers next, and its invariants hold.
func TestReturnedValuesShareNothingWithTheStore(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	meta := ObjectMeta{ContentType: "text/plain", User: map[string]string{"owner": "ada"}}
	for _, body := range []string{"one", "two"} {
		_, err := ts.PutObject("demo", "k", []byte(body), PutOptions{Meta: meta})
		ts.must(err)
	}
	ts.del("demo", "gone", "")
	up, err := ts.CreateMultipartUpload("demo", "mp", PutOptions{Meta: meta})
	ts.must(err)
	_, err = ts.UploadPart("demo", "mp", up.UploadID, 1, []byte("part"))
	ts.must(err)
	ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{expireAfter("r", "k", 1)}}))
	before := everything(t, ts.Store)

	calls := map[string]func() (any, error){
		"GetObject":   func() (any, error) { return ts.GetObject("demo", "k", GetOptions{}) },
		"HeadObject":  func() (any, error) { return ts.HeadObject("demo", "k", GetOptions{VersionID: "v00000001"}) },
		"Snapshot":    func() (any, error) { return ts.Snapshot("demo") },
		"ListBuckets": func() (any, error) { return ts.ListBuckets(), nil },
		"HeadBucket":  func() (any, error) { return ts.HeadBucket("demo") },
		"ListObjectVersions": func() (any, error) {
			return ts.ListObjectVersions("demo", ListVersionsOptions{Delimiter: "x"})
		},
		"ListObjectsV2":        func() (any, error) { return ts.ListObjectsV2("demo", ListObjectsOptions{}) },
		"BucketLifecycle":      func() (any, error) { return ts.BucketLifecycle("demo") },
		"ListMultipartUploads": func() (any, error) { return ts.ListMultipartUploads("demo", ListUploadsOptions{}) },
		"ListParts":            func() (any, error) { return ts.ListParts("demo", "mp", up.UploadID, ListPartsOptions{}) },
		"PreviewExpiration": func() (any, error) {
			return ts.PreviewExpiration("demo", []ExpirationRule{{ID: "r", ExpireNoncurrentAfter: Seconds(0)}})
		},
	}
	for name, call := range calls {
		v, err := call()
		ts.must(err)
		p := reflect.New(reflect.TypeOf(v))
		p.Elem().Set(reflect.ValueOf(v))
		scribble(p)
		if after := everything(t, ts.Store); after != before {
			t.Errorf("changing what %s returned changed the store:\nbefore %s\nafter  %s", name, before, after)
			before = after
		}
		if err := ts.Check(); err != nil {
			t.Errorf("after changing what %s returned: %v", name, err)
		}
	}
}

// What a caller passes in is copied too: changing it after the call
// changes nothing stored.
func TestArgumentsShareNothingWithTheStore(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	body := []byte("body")
	meta := ObjectMeta{User: map[string]string{"owner": "ada"}}
	_, err := ts.PutObject("demo", "k", body, PutOptions{Meta: meta})
	ts.must(err)
	rules := []LifecycleRule{expireAfter("r", "", 1)}
	ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: rules}))
	before := everything(t, ts.Store)
	scribble(reflect.ValueOf(&body))
	scribble(reflect.ValueOf(&meta))
	scribble(reflect.ValueOf(&rules))
	if after := everything(t, ts.Store); after != before {
		t.Errorf("changing the arguments of earlier calls changed the store:\nbefore %s\nafter  %s", before, after)
	}
}
