package core

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// ValidateTags checks a tag set as S3 does (AWS's answers recorded in
// LocalStack's test_tagging_validation): at most 10 tags, else BadRequest;
// a key of 1 to 128 and a value of at most 256 Unicode characters, each key
// once, no key starting with "aws:", and only letters, digits, spaces and
// + - = . _ : / @, else InvalidTag.
func TestValidateTags(t *testing.T) {
	many := func(n int) []Tag {
		out := make([]Tag, n)
		for i := range out {
			out[i] = Tag{Key: fmt.Sprintf("k%d", i), Value: "v"}
		}
		return out
	}
	tests := []struct {
		name    string
		tags    []Tag
		code    Code // "" when valid
		message string
	}{
		{"no tags", nil, "", ""},
		{"10 tags", many(10), "", ""},
		{"11 tags", many(11), BadRequest, "Object tags cannot be greater than 10"},
		{"a key of 128 characters", []Tag{{Key: strings.Repeat("é", 128)}}, "", ""},
		{"a key of 129 characters", []Tag{{Key: strings.Repeat("k", 129)}}, InvalidTag, "The TagKey you have provided is invalid"},
		{"an empty key", []Tag{{Key: "", Value: "v"}}, InvalidTag, "The TagKey you have provided is invalid"},
		{"a value of 256 characters", []Tag{{Key: "k", Value: strings.Repeat("ü", 256)}}, "", ""},
		{"a value of 257 characters", []Tag{{Key: "k", Value: strings.Repeat("v", 257)}}, InvalidTag, "The TagValue you have provided is invalid"},
		{"an empty value", []Tag{{Key: "k"}}, "", ""},
		{"every allowed sign", []Tag{{Key: "a+b-c=d.e_f:g/h@i j", Value: "日本 9"}}, "", ""},
		{"a comma in a key", []Tag{{Key: "Key1,Key2", Value: "v"}}, InvalidTag, "The TagKey you have provided is invalid"},
		{"a comma in a value", []Tag{{Key: "Key1", Value: "Val1,Val2"}}, InvalidTag, "The TagValue you have provided is invalid"},
		{"a key that is not UTF-8", []Tag{{Key: "k\xff"}}, InvalidTag, "The TagKey you have provided is invalid"},
		{"one key twice", []Tag{{Key: "Key1", Value: "Val1"}, {Key: "Key1", Value: "Val1"}}, InvalidTag, "Cannot provide multiple Tags with the same key"},
		{"a key starting with aws:", []Tag{{Key: "aws:prefixed", Value: "v"}}, InvalidTag, "Your TagKey cannot be prefixed with aws:"},
		{"aws: later in a key", []Tag{{Key: "my:aws:key", Value: "v"}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateTags(tt.tags)
			if tt.code == "" {
				if err != nil {
					t.Fatalf("ValidateTags = %v, want success", err)
				}
				return
			}
			if e := wantCode(t, err, tt.code); e.Message != tt.message {
				t.Errorf("message %q, want %q", e.Message, tt.message)
			}
		})
	}
}

// taggingStore has a bucket in the given state and key k with two
// versions, the first tagged a=1, then a delete marker on key gone.
func taggingStore(t *testing.T, state VersioningState) *testStore {
	ts := newTestStore(t)
	ts.bucket("demo", state)
	_, err := ts.PutObject("demo", "k", []byte("one"), PutOptions{Meta: ObjectMeta{Tags: []Tag{{Key: "a", Value: "1"}}}})
	ts.must(err)
	ts.at(5).put("demo", "k", "two")
	if state != Unversioned {
		ts.put("demo", "gone", "x")
		ts.del("demo", "gone", "")
	}
	return ts
}

// idText renders the version ID a tagging call answers, or its error.
func idText(id string, err error) string {
	if err != nil {
		return errText(err)
	}
	return id
}

// tagsText renders what ObjectTagging answers: "v00000001 [a=1 b=2]".
func tagsText(id string, tags []Tag, err error) string {
	if err != nil {
		return errText(err)
	}
	var kv []string
	for _, t := range tags {
		kv = append(kv, t.Key+"="+t.Value)
	}
	return id + " [" + strings.Join(kv, " ") + "]"
}

// Put, Get and DeleteObjectTagging address the current version without a
// version ID and any version with one; each answers the version ID it
// tagged. Tagging changes a version's tags only: not its ID, creation,
// ETag or place, and it adds no version [ref §1; AWS's answers in
// LocalStack's test_object_tagging_versioned].
func TestObjectTaggingByVersion(t *testing.T) {
	ts := taggingStore(t, Enabled)
	get := func(version string) string {
		id, tags, err := ts.ObjectTagging("demo", "k", version)
		return tagsText(id, tags, err)
	}
	steps := []struct {
		name string
		do   func() string
		want string
	}{
		{"tags given with the PUT", func() string { return get("v00000001") }, "v00000001 [a=1]"},
		{"the current version has none", func() string { return get("") }, "v00000002 []"},
		{"put on the current version", func() string {
			return idText(ts.PutObjectTagging("demo", "k", "", []Tag{{Key: "b", Value: "2"}, {Key: "a", Value: "0"}}))
		}, "v00000002"},
		{"the tags read back in their order", func() string { return get("") }, "v00000002 [b=2 a=0]"},
		{"the older version keeps its own", func() string { return get("v00000001") }, "v00000001 [a=1]"},
		{"put on the older version by ID", func() string {
			return idText(ts.PutObjectTagging("demo", "k", "v00000001", []Tag{{Key: "c", Value: "3"}}))
		}, "v00000001"},
		{"it replaces the older version's tags", func() string { return get("v00000001") }, "v00000001 [c=3]"},
		{"delete on the current version", func() string {
			return idText(ts.DeleteObjectTagging("demo", "k", ""))
		}, "v00000002"},
		{"the current version has none again", func() string { return get("") }, "v00000002 []"},
		{"an empty tag set deletes them too", func() string {
			_, err := ts.PutObjectTagging("demo", "k", "v00000001", []Tag{})
			ts.must(err)
			return get("v00000001")
		}, "v00000001 []"},
		{"the stack is as it was", func() string { return ts.stack("demo", "k") }, "v00000002:data v00000001:data"},
	}
	before, err := ts.HeadObject("demo", "k", GetOptions{VersionID: "v00000001"})
	ts.must(err)
	for _, s := range steps {
		if got := s.do(); got != s.want {
			t.Errorf("%s: %s, want %s", s.name, got, s.want)
		}
	}
	after, err := ts.HeadObject("demo", "k", GetOptions{VersionID: "v00000001"})
	ts.must(err)
	if after.Version.ETag != before.Version.ETag || after.Version.CreatedAt != before.Version.CreatedAt || after.Version.Size != before.Version.Size {
		t.Errorf("tagging changed the version: %+v, was %+v", after.Version, before.Version)
	}
}

// A delete marker has no tags: a tagging call on one, by its version ID or
// as the key's current entry, is MethodNotAllowed with the method, the
// marker's version ID and ResourceType DeleteMarker (AWS's recorded
// answers, "…-delete-marker-id" and "…-delete-marker-latest", in
// LocalStack's test_object_tagging_versioned [ref §1]). Other errors are
// GET's: NoSuchKey, NoSuchVersion, InvalidArgument, NoSuchBucket.
func TestObjectTaggingErrors(t *testing.T) {
	ts := taggingStore(t, Enabled)
	calls := []struct {
		method string
		call   func(key, version string) error
	}{
		{"PUT", func(key, version string) error {
			_, err := ts.PutObjectTagging("demo", key, version, []Tag{{Key: "k", Value: "v"}})
			return err
		}},
		{"GET", func(key, version string) error { _, _, err := ts.ObjectTagging("demo", key, version); return err }},
		{"DELETE", func(key, version string) error { _, err := ts.DeleteObjectTagging("demo", key, version); return err }},
	}
	before := everything(t, ts.Store)
	for _, c := range calls {
		for _, version := range []string{"v00000004", ""} {
			e := wantCode(t, c.call("gone", version), MethodNotAllowed)
			if e.Method != c.method || e.ResourceType != "DeleteMarker" || e.VersionID != "v00000004" || !e.DeleteMarker {
				t.Errorf("%s tagging of the marker (version %q): %+v", c.method, version, e)
			}
		}
		wantCode(t, c.call("missing", ""), NoSuchKey)
		wantCode(t, c.call("k", "v00000009"), NoSuchVersion)
		wantCode(t, c.call("k", "not-an-id"), InvalidArgument)
		wantCode(t, c.call(strings.Repeat("k", 1025), ""), KeyTooLongError)
	}
	_, err := ts.PutObjectTagging("demo", "k", "", []Tag{{Key: "aws:x"}})
	wantCode(t, err, InvalidTag)
	_, err = ts.PutObjectTagging("nobucket", "k", "", nil)
	wantCode(t, err, NoSuchBucket)
	_, _, err = ts.ObjectTagging("nobucket", "k", "")
	wantCode(t, err, NoSuchBucket)
	if after := everything(t, ts.Store); after != before {
		t.Errorf("failed tagging calls changed the store:\nbefore %s\nafter  %s", before, after)
	}
}

// In an unversioned bucket the only version is "null": addressed as such
// or as the current version; any other version ID is InvalidArgument, as
// for GET [ref §1.2].
func TestObjectTaggingInAnUnversionedBucket(t *testing.T) {
	ts := taggingStore(t, Unversioned)
	id, err := ts.PutObjectTagging("demo", "k", "null", []Tag{{Key: "x", Value: "y"}})
	if err != nil || id != "null" {
		t.Fatalf("PutObjectTagging(null) = %q, %v", id, err)
	}
	if got := tagsText(ts.ObjectTagging("demo", "k", "")); got != "null [x=y]" {
		t.Errorf("the current version's tags: %s", got)
	}
	_, _, err = ts.ObjectTagging("demo", "k", "v00000001")
	wantCode(t, err, InvalidArgument)
}

// The tags the store returns are a copy, and so are the ones it stores:
// changing either slice afterwards changes nothing stored. Tags persist
// with their version.
func TestObjectTagsAreCopiesAndPersist(t *testing.T) {
	mem := NewMemoryStorage()
	ts := openTestStore(t, mem, Options{})
	ts.bucket("demo", Enabled)
	ts.put("demo", "k", "x")
	given := []Tag{{Key: "a", Value: "1"}, {Key: "b", Value: "2"}}
	_, err := ts.PutObjectTagging("demo", "k", "", given)
	ts.must(err)
	given[0].Value = "changed"
	_, got, err := ts.ObjectTagging("demo", "k", "")
	ts.must(err)
	got[1].Key = "changed"
	_, again, err := ts.ObjectTagging("demo", "k", "")
	ts.must(err)
	want := []Tag{{Key: "a", Value: "1"}, {Key: "b", Value: "2"}}
	if !reflect.DeepEqual(again, want) {
		t.Errorf("tags after changing the slices given and returned: %+v, want %+v", again, want)
	}
	obj, err := ts.HeadObject("demo", "k", GetOptions{})
	ts.must(err)
	if !reflect.DeepEqual(obj.Version.Meta.Tags, want) {
		t.Errorf("HEAD shows tags %+v, want %+v", obj.Version.Meta.Tags, want)
	}
	ts.retire()
	reopened := openTestStore(t, mem, Options{})
	if _, tags, err := reopened.ObjectTagging("demo", "k", ""); err != nil || !reflect.DeepEqual(tags, want) {
		t.Errorf("after a reopen the tags are %+v, %v; want %+v", tags, err, want)
	}
}
