package core

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A bucket's tags are stored as given, read back in their order, replaced
// whole by the next PutBucketTagging and removed by DeleteBucketTagging;
// a bucket never tagged, or no longer, answers NoSuchTagSet with its name.
func TestBucketTaggingRoundTrip(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Unversioned)
	e := wantCode(t, second(ts.BucketTagging("demo")), NoSuchTagSet)
	if e.BucketName != "demo" || e.Message != "The TagSet does not exist" {
		t.Errorf("NoSuchTagSet = %+v, want BucketName demo and S3's message", e)
	}

	tags := []Tag{{Key: "team", Value: "blue"}, {Key: "env", Value: ""}, {Key: "cost centre", Value: "a+b=c"}}
	ts.must(ts.PutBucketTagging("demo", tags))
	tags[0].Value = "changed" // the store kept a copy
	got, err := ts.BucketTagging("demo")
	ts.must(err)
	want := []Tag{{Key: "team", Value: "blue"}, {Key: "env", Value: ""}, {Key: "cost centre", Value: "a+b=c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BucketTagging = %+v, want %+v", got, want)
	}

	ts.must(ts.PutBucketTagging("demo", []Tag{{Key: "only", Value: "one"}}))
	if got, err := ts.BucketTagging("demo"); err != nil || !reflect.DeepEqual(got, []Tag{{Key: "only", Value: "one"}}) {
		t.Errorf("after a second PutBucketTagging: %+v, %v; want only the new tag", got, err)
	}

	ts.must(ts.DeleteBucketTagging("demo"))
	wantCode(t, second(ts.BucketTagging("demo")), NoSuchTagSet)
	commits := ts.faults.Commits()
	ts.must(ts.DeleteBucketTagging("demo"))
	if n := ts.faults.Commits() - commits; n != 0 {
		t.Errorf("deleting tags a bucket does not have made %d commits, want 0", n)
	}
}

// An empty tag set removes the bucket's tags, as DeleteBucketTagging does.
func TestPutBucketTaggingWithNoTagsRemovesThem(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Unversioned)
	ts.must(ts.PutBucketTagging("demo", []Tag{{Key: "a", Value: "1"}}))
	ts.must(ts.PutBucketTagging("demo", []Tag{}))
	wantCode(t, second(ts.BucketTagging("demo")), NoSuchTagSet)
	commits := ts.faults.Commits()
	ts.must(ts.PutBucketTagging("demo", nil))
	if n := ts.faults.Commits() - commits; n != 0 {
		t.Errorf("an empty tag set on a bucket without tags made %d commits, want 0", n)
	}
}

// A bucket may have 50 tags, each by the rules of object tags; anything
// else is refused whole and leaves the tags as they were.
func TestBucketTaggingLimits(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Unversioned)
	ts.must(ts.PutBucketTagging("demo", []Tag{{Key: "kept", Value: "yes"}}))
	fifty := make([]Tag, MaxBucketTags)
	for i := range fifty {
		fifty[i] = Tag{Key: fmt.Sprint("k", i), Value: strings.Repeat("v", 256)}
	}
	tests := []struct {
		name    string
		tags    []Tag
		code    Code
		message string
	}{
		{"51 tags", append(fifty[:50:50], Tag{Key: "one-more"}), BadRequest, "Bucket tag count cannot be greater than 50"},
		{"a key twice", []Tag{{Key: "a"}, {Key: "a", Value: "2"}}, InvalidTag, "Cannot provide multiple Tags with the same key"},
		{"an empty key", []Tag{{Key: ""}}, InvalidTag, "The TagKey you have provided is invalid"},
		{"a key of 129 characters", []Tag{{Key: strings.Repeat("k", 129)}}, InvalidTag, "The TagKey you have provided is invalid"},
		{"a value of 257 characters", []Tag{{Key: "k", Value: strings.Repeat("v", 257)}}, InvalidTag, "The TagValue you have provided is invalid"},
		{"a key starting with aws:", []Tag{{Key: "aws:created"}}, InvalidTag, "Your TagKey cannot be prefixed with aws:"},
		{"a character S3 does not allow", []Tag{{Key: "a*b"}}, InvalidTag, "The TagKey you have provided is invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is "+string(tt.code), func(t *testing.T) {
			e := wantCode(t, ts.PutBucketTagging("demo", tt.tags), tt.code)
			if e.Message != tt.message {
				t.Errorf("message %q, want %q", e.Message, tt.message)
			}
			if got, err := ts.BucketTagging("demo"); err != nil || !reflect.DeepEqual(got, []Tag{{Key: "kept", Value: "yes"}}) {
				t.Errorf("after the refusal the tags are %+v, %v; want the ones kept", got, err)
			}
		})
	}
	ts.must(ts.PutBucketTagging("demo", fifty))
	if got, err := ts.BucketTagging("demo"); err != nil || len(got) != MaxBucketTags {
		t.Errorf("50 tags: %d stored (%v), want 50", len(got), err)
	}
	wantCode(t, ts.PutBucketTagging("nobucket", nil), NoSuchBucket)
	wantCode(t, second(ts.BucketTagging("nobucket")), NoSuchBucket)
	wantCode(t, ts.DeleteBucketTagging("nobucket"), NoSuchBucket)
}

// A failed commit leaves the tags as they were, in the live store and in
// the storage.
func TestBucketTaggingFailedCommitKeepsTheTags(t *testing.T) {
	mem := NewMemoryStorage()
	ts := openTestStore(t, mem, Options{})
	ts.bucket("demo", Unversioned)
	ts.must(ts.PutBucketTagging("demo", []Tag{{Key: "a", Value: "1"}}))
	ts.faults.FailCommits()
	wantCode(t, ts.PutBucketTagging("demo", []Tag{{Key: "b", Value: "2"}}), InternalError)
	wantCode(t, ts.DeleteBucketTagging("demo"), InternalError)
	ts.faults.ClearFaults()
	want := []Tag{{Key: "a", Value: "1"}}
	if got, err := ts.BucketTagging("demo"); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("after failed commits the tags are %+v, %v; want %+v", got, err, want)
	}
	ts.retire()
	reopened := openTestStore(t, mem, Options{})
	if got, err := reopened.BucketTagging("demo"); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("after a reopen the tags are %+v, %v; want %+v", got, err, want)
	}
}

// Deleting a bucket deletes its tags: a bucket made again under the name
// has none, in the live store and after a reopen.
func TestDeleteBucketDeletesItsTags(t *testing.T) {
	mem := NewMemoryStorage()
	ts := openTestStore(t, mem, Options{})
	ts.bucket("demo", Unversioned)
	ts.must(ts.PutBucketTagging("demo", []Tag{{Key: "a", Value: "1"}}))
	ts.must(ts.DeleteBucket("demo"))
	if n := mem.Len(KindBucket); n != 0 {
		t.Errorf("%d bucket items stored after DeleteBucket, want 0", n)
	}
	ts.bucket("demo", Unversioned)
	wantCode(t, second(ts.BucketTagging("demo")), NoSuchTagSet)
	ts.retire()
	reopened := openTestStore(t, mem, Options{})
	wantCode(t, second(reopened.BucketTagging("demo")), NoSuchTagSet)
}

// User metadata may hold 2048 bytes, names (without x-amz-meta-) and
// values counted in UTF-8 as S3 counts them; one byte more is
// MetadataTooLarge, with the size and the limit, on every write that
// stores metadata.
func TestUserMetadataOver2KBIsMetadataTooLarge(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Unversioned)
	// "name" and "ünï" (5 bytes) with values that fill the rest.
	fits := map[string]string{"name": strings.Repeat("v", 1001), "ünï": strings.Repeat("é", 519)}
	if _, err := ts.PutObject("demo", "fits", nil, PutOptions{Meta: ObjectMeta{User: fits}}); err != nil {
		t.Fatalf("2048 bytes of metadata: %v", err)
	}
	over := map[string]string{"name": strings.Repeat("v", 1002), "ünï": strings.Repeat("é", 519)}
	writes := []struct {
		name  string
		write func() error
	}{
		{"PutObject", func() error {
			_, err := ts.PutObject("demo", "over", nil, PutOptions{Meta: ObjectMeta{User: over}})
			return err
		}},
		{"CreateMultipartUpload", func() error {
			_, err := ts.CreateMultipartUpload("demo", "over", PutOptions{Meta: ObjectMeta{User: over}})
			return err
		}},
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) {
			e := wantCode(t, w.write(), MetadataTooLarge)
			if e.Size != 2049 || e.MaxSizeAllowed != 2048 || e.Message != "Your metadata headers exceed the maximum allowed metadata size" {
				t.Errorf("MetadataTooLarge = %+v, want Size 2049, MaxSizeAllowed 2048 and S3's message", e)
			}
		})
	}
	if s := ts.stack("demo", "over"); s != "" {
		t.Errorf("a refused write stored %q", s)
	}
}

// second is the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }
