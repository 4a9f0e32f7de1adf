package core

import (
	"slices"
	"strings"
	"testing"
)

func TestValidateBucketName(t *testing.T) {
	valid := []string{"abc", "demo", "my-bucket.v2", "a1b", strings.Repeat("a", 63), "192.168.5.4x"}
	invalid := []string{"", "a", "aa", strings.Repeat("a", 64), "Demo", "foo_bar", "foo-", "-foo", ".foo", "foo.",
		"foo..bar", "192.168.5.123", "xn--abc", "bucket-s3alias", "bucket--ol-s3", "sthree-x", "amzn-s3-demo-x",
		"b--x-s3", "b--table-s3", "has space", "üml", "_minis3"}
	for _, name := range valid {
		if err := ValidateBucketName(name); err != nil {
			t.Errorf("ValidateBucketName(%q) = %v, want nil", name, err)
		}
	}
	for _, name := range invalid {
		e := wantCode(t, ValidateBucketName(name), InvalidBucketName)
		if e.BucketName != name {
			t.Errorf("InvalidBucketName for %q names bucket %q", name, e.BucketName)
		}
	}
}

func TestCreateBucket(t *testing.T) {
	ts := newTestStore(t)
	ts.at(7)
	ts.must(ts.CreateBucket("demo"))
	wantCode(t, ts.CreateBucket("demo"), BucketAlreadyOwnedByYou)
	wantCode(t, ts.CreateBucket("Bad_Name"), InvalidBucketName)
	info, err := ts.HeadBucket("demo")
	ts.must(err)
	if info != (BucketInfo{Name: "demo", CreatedAt: 7, Versioning: Unversioned}) {
		t.Errorf("HeadBucket = %+v", info)
	}
	_, err = ts.HeadBucket("nobucket")
	wantCode(t, err, NoSuchBucket)
}

func TestListBucketsIsSortedByName(t *testing.T) {
	ts := newTestStore(t)
	for _, n := range []string{"zeta", "alpha", "mid"} {
		ts.must(ts.CreateBucket(n))
	}
	var names []string
	for _, b := range ts.ListBuckets() {
		names = append(names, b.Name)
	}
	if !slices.Equal(names, []string{"alpha", "mid", "zeta"}) {
		t.Errorf("ListBuckets = %v", names)
	}
}

func TestDeleteBucket(t *testing.T) {
	tests := []struct {
		name  string
		setup func(ts *testStore)
		want  Code // "" for success
	}{
		{"an empty bucket is deleted", func(ts *testStore) {}, ""},
		{"a bucket with an object is not empty", func(ts *testStore) { ts.put("demo", "k", "x") }, BucketNotEmpty},
		{"a lone delete marker makes a bucket not empty", func(ts *testStore) {
			ts.must(ts.SetBucketVersioning("demo", Enabled))
			ts.del("demo", "k", "")
		}, BucketNotEmpty},
		{"a noncurrent version makes a bucket not empty", func(ts *testStore) {
			ts.must(ts.SetBucketVersioning("demo", Enabled))
			ts.put("demo", "k", "x")
			ts.del("demo", "k", "")
			ts.del("demo", "k", "v00000002")
		}, BucketNotEmpty},
		{"a bucket emptied version by version can be deleted", func(ts *testStore) {
			ts.must(ts.SetBucketVersioning("demo", Enabled))
			ts.put("demo", "k", "x")
			ts.del("demo", "k", "")
			ts.del("demo", "k", "v00000002")
			ts.del("demo", "k", "v00000001")
		}, ""},
		{"uploads in progress are aborted with the bucket", func(ts *testStore) {
			up, err := ts.CreateMultipartUpload("demo", "k", PutOptions{})
			ts.must(err)
			_, err = ts.UploadPart("demo", "k", up.UploadID, 1, []byte("part"))
			ts.must(err)
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestStore(t)
			ts.bucket("demo", Unversioned)
			tt.setup(ts)
			err := ts.DeleteBucket("demo")
			if tt.want != "" {
				wantCode(t, err, tt.want)
				return
			}
			ts.must(err)
			_, err = ts.HeadBucket("demo")
			wantCode(t, err, NoSuchBucket)
			if n := ts.memory.Len(KindBody) + ts.memory.Len(KindUpload) + ts.memory.Len(KindRecord); n != 0 {
				t.Errorf("%d items left in storage after deleting the bucket", n)
			}
			// The name is free again and starts afresh.
			ts.bucket("demo", Enabled)
			if res := ts.put("demo", "k", "x"); res.VersionID != "v00000001" {
				t.Errorf("recreated bucket's first version is %s", res.VersionID)
			}
		})
	}
	ts := newTestStore(t)
	wantCode(t, ts.DeleteBucket("nobucket"), NoSuchBucket)
}

// A transaction that drops the body of a version it put itself (no
// operation does today) must leave no body behind: forget takes the put
// back out instead of noting a removal next to it.
func TestForgetOfABodyPutInTheSameTransaction(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.put("demo", "k", "stored")
	ts.must(ts.update("demo", func(tx *tx) error {
		v := &Version{VersionID: tx.newVersionID(), ETag: "e", Size: 3, CreatedAt: tx.now, seq: tx.nextSeq()}
		tx.putBody(entryRef("demo", v.seq), []byte("new"))
		tx.putEntry("k", v)
		tx.removeAt(tx.edit("k"), 0)
		return nil
	}))
	if got := ts.stack("demo", "k"); got != "v00000001:data" {
		t.Errorf("stack %q, want the stored version only", got)
	}
	if n := ts.memory.Len(KindBody); n != 1 {
		t.Errorf("%d bodies stored, want 1", n)
	}
}
