package core

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Multipart tests pin reference §3 (s3-semantics.md): limits and errors
// (§3.1, §3.2) and ETags (§3.3).

const mpBucket = "bkt"

// mpStore opens a test store with MinPartSize min (0: S3's 5 MiB) and one
// bucket in the given state.
func mpStore(t *testing.T, min int64, state VersioningState) *testStore {
	t.Helper()
	ts := openTestStore(t, NewMemoryStorage(), Options{MinPartSize: min})
	ts.bucket(mpBucket, state)
	return ts
}

func (ts *testStore) mpCreate(key string) string {
	ts.t.Helper()
	info, err := ts.CreateMultipartUpload(mpBucket, key, PutOptions{})
	ts.must(err)
	return info.UploadID
}

func (ts *testStore) mpPart(key, id string, n int, body string) PartInfo {
	ts.t.Helper()
	info, err := ts.UploadPart(mpBucket, key, id, n, []byte(body))
	ts.must(err)
	return info
}

func (ts *testStore) mpComplete(key, id string, parts ...CompletedPart) PutResult {
	ts.t.Helper()
	res, err := ts.CompleteMultipartUpload(mpBucket, key, id, parts)
	ts.must(err)
	return res
}

// parts renders an upload's parts as "n:etag:size@created".
func (ts *testStore) mpParts(key, id string) []string {
	ts.t.Helper()
	res, err := ts.ListParts(mpBucket, key, id, ListPartsOptions{})
	ts.must(err)
	return mpPartTexts(res.Parts)
}

func mpPartTexts(parts []PartInfo) []string {
	var out []string
	for _, p := range parts {
		out = append(out, fmt.Sprintf("%d:%s:%d@%g", p.PartNumber, p.ETag, p.Size, p.CreatedAt))
	}
	return out
}

func mpMD5(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func mpCP(n int, etag string) CompletedPart { return CompletedPart{PartNumber: n, ETag: etag} }

// body reads the current version of key.
func (ts *testStore) mpBody(key string) string {
	ts.t.Helper()
	obj, err := ts.GetObject(mpBucket, key, GetOptions{})
	ts.must(err)
	return string(obj.Body)
}

func mpEqual(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func TestUploadPartNumberMustBeBetween1And10000(t *testing.T) {
	tests := []struct {
		n  int
		ok bool
	}{
		{-1, false}, {0, false}, {1, true}, {2, true}, {9999, true}, {10000, true}, {10001, false}, {1 << 40, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			ts := mpStore(t, 0, Unversioned)
			id := ts.mpCreate("k")
			commits := ts.faults.Commits()
			info, err := ts.UploadPart(mpBucket, "k", id, tt.n, []byte("data"))
			if tt.ok {
				ts.must(err)
				want := PartInfo{PartNumber: tt.n, ETag: "8d777f385d3dfec8815d20f7496026dc", Size: 4}
				if info != want {
					t.Errorf("got %+v, want %+v", info, want)
				}
				mpEqual(t, "parts", ts.mpParts("k", id), []string{fmt.Sprintf("%d:8d777f385d3dfec8815d20f7496026dc:4@0", tt.n)})
				return
			}
			e := wantCode(t, err, InvalidArgument)
			if e.ArgumentName != "partNumber" || e.ArgumentValue != fmt.Sprint(tt.n) {
				t.Errorf("argument %q = %q, want partNumber = %d", e.ArgumentName, e.ArgumentValue, tt.n)
			}
			if e.Message != "Part number must be an integer between 1 and 10000, inclusive" {
				t.Errorf("message %q", e.Message)
			}
			if ts.faults.Commits() != commits || len(ts.mpParts("k", id)) != 0 {
				t.Errorf("a rejected part changed the upload")
			}
		})
	}
}

func TestUploadPartETagIsHexMD5OfPart(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	id := ts.mpCreate("k")
	for n, body := range map[int]string{1: "data", 2: "", 3: strings.Repeat("upload-part-1", 5)} {
		got := ts.mpPart("k", id, n, body).ETag
		if got != mpMD5(body) {
			t.Errorf("part %d ETag %s, want %s", n, got, mpMD5(body))
		}
	}
	if got := ts.mpPart("k", id, 1, "data").ETag; got != "8d777f385d3dfec8815d20f7496026dc" {
		t.Errorf(`ETag of "data" = %s`, got)
	}
	if got := ts.mpPart("k", id, 3, strings.Repeat("upload-part-1", 5)).ETag; got != "3237c18681adb6a9d843c733ce249480" {
		t.Errorf(`ETag of "upload-part-1"x5 = %s`, got)
	}
}

func TestUploadPartAgainOverwritesThePart(t *testing.T) {
	ts := mpStore(t, 1, Unversioned)
	id := ts.at(1).mpCreate("k")
	ts.at(2).mpPart("k", id, 1, "first")
	ts.at(3).mpPart("k", id, 2, "two")
	bodies := ts.memory.Len(KindBody)
	info := ts.at(4).mpPart("k", id, 1, "second!")
	if want := (PartInfo{PartNumber: 1, ETag: mpMD5("second!"), Size: 7, CreatedAt: 4}); info != want {
		t.Errorf("UploadPart: got %+v, want %+v", info, want)
	}
	mpEqual(t, "parts", ts.mpParts("k", id), []string{
		"1:" + mpMD5("second!") + ":7@4",
		"2:" + mpMD5("two") + ":3@3",
	})
	if ts.memory.Len(KindBody) != bodies {
		t.Errorf("overwriting a part left %d bodies, want %d", ts.memory.Len(KindBody), bodies)
	}
	_, err := ts.CompleteMultipartUpload(mpBucket, "k", id, []CompletedPart{mpCP(1, mpMD5("first")), mpCP(2, mpMD5("two"))})
	wantCode(t, err, InvalidPart)
	ts.at(5).mpComplete("k", id, mpCP(1, mpMD5("second!")), mpCP(2, mpMD5("two")))
	if got := ts.mpBody("k"); got != "second!two" {
		t.Errorf("body %q", got)
	}
}

// UploadPart copies the caller's body as PutObject does: the storage keeps
// what it commits.
func TestUploadPartKeepsNoReferenceToTheCallersBody(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	id := ts.mpCreate("k")
	body := []byte("part before")
	_, err := ts.UploadPart(mpBucket, "k", id, 1, body)
	ts.must(err)
	copy(body, "PART AFTER!")
	ts.mpComplete("k", id, mpCP(1, mpMD5("part before")))
	if got := ts.mpBody("k"); got != "part before" {
		t.Errorf("completed body %q, want %q", got, "part before")
	}
}

// mpGoneUploads put an upload of "k" into one of the states in which it
// no longer accepts UploadPart, Complete, Abort or ListParts, and returns
// the upload ID and key to address it with.
var mpGoneUploads = []struct {
	name  string
	setup func(ts *testStore) (key, id string)
}{
	{"unknown ID", func(ts *testStore) (string, string) {
		ts.mpCreate("k")
		return "k", "u00000099"
	}},
	{"malformed ID", func(ts *testStore) (string, string) {
		ts.mpCreate("k")
		return "k", "nonsense"
	}},
	{"empty ID", func(ts *testStore) (string, string) {
		ts.mpCreate("k")
		return "k", ""
	}},
	{"aborted", func(ts *testStore) (string, string) {
		id := ts.mpCreate("k")
		ts.mpPart("k", id, 1, "p")
		ts.must(ts.AbortMultipartUpload(mpBucket, "k", id))
		return "k", id
	}},
	{"completed", func(ts *testStore) (string, string) {
		id := ts.mpCreate("k")
		ts.mpPart("k", id, 1, "p")
		ts.mpComplete("k", id, mpCP(1, mpMD5("p")))
		return "k", id
	}},
	{"upload of another key", func(ts *testStore) (string, string) {
		id := ts.mpCreate("other")
		ts.mpPart("other", id, 1, "p")
		return "k", id
	}},
	{"upload of a key with the same prefix", func(ts *testStore) (string, string) {
		id := ts.mpCreate("k/")
		ts.mpPart("k/", id, 1, "p")
		return "k", id
	}},
}

func TestMultipartGoneUploadIsNoSuchUpload(t *testing.T) {
	ops := []struct {
		name string
		call func(ts *testStore, key, id string) error
	}{
		{"UploadPart", func(ts *testStore, key, id string) error {
			_, err := ts.UploadPart(mpBucket, key, id, 1, []byte("p"))
			return err
		}},
		{"Complete", func(ts *testStore, key, id string) error {
			// Different parts from the completed upload's, so that a
			// repeat of a successful Complete does not apply.
			_, err := ts.CompleteMultipartUpload(mpBucket, key, id, []CompletedPart{mpCP(1, mpMD5("p")), mpCP(2, mpMD5("q"))})
			return err
		}},
		{"Abort", func(ts *testStore, key, id string) error {
			return ts.AbortMultipartUpload(mpBucket, key, id)
		}},
		{"ListParts", func(ts *testStore, key, id string) error {
			_, err := ts.ListParts(mpBucket, key, id, ListPartsOptions{})
			return err
		}},
	}
	for _, st := range mpGoneUploads {
		for _, op := range ops {
			t.Run(st.name+"/"+op.name, func(t *testing.T) {
				ts := mpStore(t, 0, Enabled)
				key, id := st.setup(ts)
				commits := ts.faults.Commits()
				e := wantCode(t, op.call(ts, key, id), NoSuchUpload)
				if e.UploadID != id {
					t.Errorf("UploadID %q, want %q", e.UploadID, id)
				}
				if e.Message != DefaultMessage(NoSuchUpload) {
					t.Errorf("message %q", e.Message)
				}
				if ts.faults.Commits() != commits {
					t.Errorf("a failed %s wrote to storage", op.name)
				}
			})
		}
	}
}

func TestMultipartOnMissingBucketIsNoSuchBucket(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	id := ts.mpCreate("k")
	calls := map[string]func() error{
		"Create": func() error { _, err := ts.CreateMultipartUpload("missing", "k", PutOptions{}); return err },
		"UploadPart": func() error {
			_, err := ts.UploadPart("missing", "k", id, 1, []byte("p"))
			return err
		},
		"Complete": func() error {
			_, err := ts.CompleteMultipartUpload("missing", "k", id, []CompletedPart{mpCP(1, mpMD5("p"))})
			return err
		},
		"Abort":     func() error { return ts.AbortMultipartUpload("missing", "k", id) },
		"ListParts": func() error { _, err := ts.ListParts("missing", "k", id, ListPartsOptions{}); return err },
		"ListUploads": func() error {
			_, err := ts.ListMultipartUploads("missing", ListUploadsOptions{})
			return err
		},
	}
	for _, name := range slices.Sorted(maps.Keys(calls)) {
		t.Run(name, func(t *testing.T) {
			if e := wantCode(t, calls[name](), NoSuchBucket); e.BucketName != "missing" {
				t.Errorf("BucketName %q", e.BucketName)
			}
		})
	}
}

func TestCompleteMultipartUploadWithoutPartsIsInvalidRequest(t *testing.T) {
	for _, parts := range [][]CompletedPart{nil, {}} {
		ts := mpStore(t, 0, Enabled)
		id := ts.mpCreate("k")
		ts.mpPart("k", id, 1, "p")
		commits := ts.faults.Commits()
		_, err := ts.CompleteMultipartUpload(mpBucket, "k", id, parts)
		e := wantCode(t, err, InvalidRequest)
		if e.Message != "You must specify at least one part" {
			t.Errorf("message %q", e.Message)
		}
		if ts.faults.Commits() != commits || len(ts.mpParts("k", id)) != 1 {
			t.Errorf("a rejected Complete changed the upload")
		}
	}
}

func TestCompleteMultipartUploadPartsMustAscend(t *testing.T) {
	tests := []struct {
		name    string
		numbers []int
		ok      bool
	}{
		{"descending", []int{2, 1}, false},
		{"duplicate", []int{1, 1}, false},
		{"duplicate later", []int{1, 2, 2}, false},
		{"out of order later", []int{1, 3, 2}, false},
		{"out of order before a missing part", []int{3, 1, 9}, false},
		{"ascending with gaps", []int{1, 3}, true},
		{"ascending", []int{1, 2, 3}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := mpStore(t, 1, Enabled)
			id := ts.mpCreate("k")
			bodies := map[int]string{1: "one", 2: "two", 3: "three"}
			for n := 1; n <= 3; n++ {
				ts.mpPart("k", id, n, bodies[n])
			}
			var parts []CompletedPart
			for _, n := range tt.numbers {
				parts = append(parts, mpCP(n, mpMD5(bodies[n])))
			}
			commits := ts.faults.Commits()
			res, err := ts.CompleteMultipartUpload(mpBucket, "k", id, parts)
			if tt.ok {
				ts.must(err)
				want := ""
				for _, n := range tt.numbers {
					want += bodies[n]
				}
				if got := ts.mpBody("k"); got != want || res.Size != int64(len(want)) {
					t.Errorf("body %q size %d, want %q", got, res.Size, want)
				}
				return
			}
			e := wantCode(t, err, InvalidPartOrder)
			if e.UploadID != id {
				t.Errorf("UploadID %q", e.UploadID)
			}
			if ts.faults.Commits() != commits || len(ts.mpParts("k", id)) != 3 {
				t.Errorf("a rejected Complete changed the upload")
			}
		})
	}
}

func TestCompleteMultipartUploadMissingOrMismatchedPartIsInvalidPart(t *testing.T) {
	tests := []struct {
		name     string
		parts    []CompletedPart
		badPart  int
		badETag  string
		succeeds bool
	}{
		{"never uploaded", []CompletedPart{mpCP(1, mpMD5("one")), mpCP(4, mpMD5("one"))}, 4, mpMD5("one"), false},
		{"part number 0", []CompletedPart{mpCP(0, mpMD5("one"))}, 0, mpMD5("one"), false},
		{"wrong ETag", []CompletedPart{mpCP(1, mpMD5("one")), mpCP(2, mpMD5("one"))}, 2, mpMD5("one"), false},
		{"quoted wrong ETag", []CompletedPart{mpCP(1, `"`+mpMD5("nope")+`"`)}, 1, `"` + mpMD5("nope") + `"`, false},
		{"empty ETag", []CompletedPart{mpCP(1, "")}, 1, "", false},
		{"upper-case ETag", []CompletedPart{mpCP(1, strings.ToUpper(mpMD5("one")))}, 1, strings.ToUpper(mpMD5("one")), false},
		{"first bad part is reported", []CompletedPart{mpCP(1, "x"), mpCP(2, "y")}, 1, "x", false},
		{"quoted ETags", []CompletedPart{mpCP(1, `"`+mpMD5("one")+`"`), mpCP(2, `"`+mpMD5("two")+`"`)}, 0, "", true},
		{"mixed quoting", []CompletedPart{mpCP(1, mpMD5("one")), mpCP(2, `"`+mpMD5("two")+`"`)}, 0, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := mpStore(t, 1, Unversioned)
			id := ts.mpCreate("k")
			ts.mpPart("k", id, 1, "one")
			ts.mpPart("k", id, 2, "two")
			commits := ts.faults.Commits()
			res, err := ts.CompleteMultipartUpload(mpBucket, "k", id, tt.parts)
			if tt.succeeds {
				ts.must(err)
				if got := ts.mpBody("k"); got != "onetwo" || !strings.HasSuffix(res.ETag, "-2") {
					t.Errorf("body %q ETag %s", got, res.ETag)
				}
				return
			}
			e := wantCode(t, err, InvalidPart)
			if e.UploadID != id || e.PartNumber != tt.badPart || e.ETag != tt.badETag {
				t.Errorf("got UploadID %q PartNumber %d ETag %q; want %q %d %q", e.UploadID, e.PartNumber, e.ETag, id, tt.badPart, tt.badETag)
			}
			if ts.faults.Commits() != commits || len(ts.mpParts("k", id)) != 2 {
				t.Errorf("a rejected Complete changed the upload")
			}
		})
	}
}

func TestCompleteMultipartUploadEntityTooSmall(t *testing.T) {
	tests := []struct {
		name  string
		sizes []int // of parts 1, 2, ...; all listed
		bad   int   // the part reported, 0 when Complete succeeds
	}{
		{"every part at the minimum", []int{5, 5, 5}, 0},
		{"last part below the minimum is exempt", []int{5, 5, 1}, 0},
		{"last part empty", []int{5, 0}, 0},
		{"single part below the minimum", []int{1}, 0},
		{"single empty part", []int{0}, 0},
		{"first part too small", []int{4, 5}, 1},
		{"middle part too small", []int{5, 3, 2}, 2},
		{"first of several too-small parts is reported", []int{6, 4, 3, 9}, 2},
		{"larger parts are fine", []int{9, 6}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := mpStore(t, 5, Unversioned)
			id := ts.mpCreate("k")
			var parts []CompletedPart
			want := ""
			for i, size := range tt.sizes {
				body := strings.Repeat(string(rune('a'+i)), size)
				ts.mpPart("k", id, i+1, body)
				parts = append(parts, mpCP(i+1, mpMD5(body)))
				want += body
			}
			commits := ts.faults.Commits()
			_, err := ts.CompleteMultipartUpload(mpBucket, "k", id, parts)
			if tt.bad == 0 {
				ts.must(err)
				if got := ts.mpBody("k"); got != want {
					t.Errorf("body %q, want %q", got, want)
				}
				return
			}
			e := wantCode(t, err, EntityTooSmall)
			size := tt.sizes[tt.bad-1]
			etag := mpMD5(strings.Repeat(string(rune('a'+tt.bad-1)), size))
			if e.PartNumber != tt.bad || e.ProposedSize != int64(size) || e.MinSizeAllowed != 5 || e.ETag != etag {
				t.Errorf("got PartNumber %d ProposedSize %d MinSizeAllowed %d ETag %s; want %d %d 5 %s",
					e.PartNumber, e.ProposedSize, e.MinSizeAllowed, e.ETag, tt.bad, size, etag)
			}
			if ts.faults.Commits() != commits || len(ts.mpParts("k", id)) != len(tt.sizes) {
				t.Errorf("a rejected Complete changed the upload")
			}
		})
	}
}

// LS "complete-exc-too-small"; CEPH test_multipart_upload_size_too_small
// and test_multipart_upload_small.
func TestCompleteMultipartUploadDefaultMinimumIs5MiB(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	if ts.MinPartSize() != 5242880 {
		t.Fatalf("MinPartSize %d", ts.MinPartSize())
	}
	id := ts.mpCreate("k")
	ts.mpPart("k", id, 1, "abcd")
	ts.mpPart("k", id, 2, "efgh")
	_, err := ts.CompleteMultipartUpload(mpBucket, "k", id, []CompletedPart{mpCP(1, mpMD5("abcd")), mpCP(2, mpMD5("efgh"))})
	e := wantCode(t, err, EntityTooSmall)
	if e.PartNumber != 1 || e.ProposedSize != 4 || e.MinSizeAllowed != 5242880 || e.ETag != mpMD5("abcd") {
		t.Errorf("got PartNumber %d ProposedSize %d MinSizeAllowed %d ETag %s", e.PartNumber, e.ProposedSize, e.MinSizeAllowed, e.ETag)
	}
	if e.Message != DefaultMessage(EntityTooSmall) {
		t.Errorf("message %q", e.Message)
	}
	// The same upload completes with only the last part listed: a single
	// part of any size is fine.
	res := ts.mpComplete("k", id, mpCP(2, mpMD5("efgh")))
	if res.Size != 4 || ts.mpBody("k") != "efgh" {
		t.Errorf("single part: %+v body %q", res, ts.mpBody("k"))
	}
	one := ts.mpCreate("one")
	ts.mpPart("one", one, 1, "x")
	if res := ts.mpComplete("one", one, mpCP(1, mpMD5("x"))); res.Size != 1 || ts.mpBody("one") != "x" {
		t.Errorf("single 1-byte part: %+v", res)
	}
}

// §3.3: MD5 of the parts' binary MD5s, then "-" and the number of parts.
func TestCompleteMultipartUploadETagVectors(t *testing.T) {
	big := strings.Repeat("a", 5242881)
	tests := []struct {
		name    string
		numbers []int
		bodies  []string
		want    string
	}{
		{"one part of upload-part-1 x5", []int{1}, []string{strings.Repeat("upload-part-1", 5)}, "e747540af6911dbc890f8d3e0b48549b-1"},
		{"three parts of a x 5242881", []int{1, 2, 3}, []string{big, big, big}, "c7cb0938a47e31f70cf07028d22e6913-3"},
		{"the same bytes as parts 2, 3, 4", []int{2, 3, 4}, []string{big, big, big}, "c7cb0938a47e31f70cf07028d22e6913-3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // the 5 MiB parts are slow under the race detector
			ts := mpStore(t, 0, Enabled)
			id := ts.mpCreate("k")
			var parts []CompletedPart
			for i, n := range tt.numbers {
				info := ts.mpPart("k", id, n, tt.bodies[i])
				parts = append(parts, mpCP(n, info.ETag))
			}
			res := ts.mpComplete("k", id, parts...)
			if res.ETag != tt.want {
				t.Errorf("ETag %s, want %s", res.ETag, tt.want)
			}
			obj, err := ts.HeadObject(mpBucket, "k", GetOptions{})
			ts.must(err)
			if obj.Version.ETag != tt.want || obj.Version.Parts != len(tt.numbers) || obj.Version.Size != res.Size {
				t.Errorf("stored version %+v", obj.Version)
			}
		})
	}
}

func TestCompleteMultipartUploadJoinsListedPartsAndDropsTheRest(t *testing.T) {
	ts := mpStore(t, 1, Unversioned)
	ts.put(mpBucket, "other", "unrelated")
	id := ts.mpCreate("k")
	bodies := map[int]string{1: "one", 2: "two", 3: "three", 7: "seven"}
	for _, n := range []int{7, 3, 1, 2} {
		ts.mpPart("k", id, n, bodies[n])
	}
	if got := ts.memory.Len(KindBody); got != 5 {
		t.Fatalf("%d bodies before Complete, want 5", got)
	}
	res := ts.mpComplete("k", id, mpCP(1, mpMD5("one")), mpCP(3, mpMD5("three")), mpCP(7, mpMD5("seven")))
	if got := ts.mpBody("k"); got != "onethreeseven" || res.Size != 13 {
		t.Errorf("body %q size %d", got, res.Size)
	}
	if got := ts.memory.Len(KindBody); got != 2 {
		t.Errorf("%d bodies after Complete, want 2 (the new object and other)", got)
	}
	for n := range bodies {
		if _, err := ts.memory.ReadBody(partRef(mpBucket, id, n)); !errors.Is(err, ErrBodyNotFound) {
			t.Errorf("part %d body still stored: %v", n, err)
		}
	}
	if got := ts.mpBody("other"); got != "unrelated" {
		t.Errorf("other object %q", got)
	}
}

func TestCompleteMultipartUploadUsesTheClockAtCompletion(t *testing.T) {
	ts := mpStore(t, 0, Enabled)
	info, err := ts.at(10).CreateMultipartUpload(mpBucket, "k", PutOptions{})
	ts.must(err)
	if info.Initiated != 10 || info.UploadID != "u00000001" || info.Key != "k" {
		t.Errorf("upload %+v", info)
	}
	ts.at(20).mpPart("k", info.UploadID, 1, "p")
	res := ts.at(30).mpComplete("k", info.UploadID, mpCP(1, mpMD5("p")))
	if res.CreatedAt != 30 {
		t.Errorf("PutResult.CreatedAt %g, want 30", res.CreatedAt)
	}
	v, err := ts.ListObjectVersions(mpBucket, ListVersionsOptions{})
	ts.must(err)
	if len(v.Versions) != 1 || v.Versions[0].CreatedAt != 30 {
		t.Errorf("listed %+v", v.Versions)
	}
}

func TestCompleteMultipartUploadVersionsTheKeyLikeAPut(t *testing.T) {
	tests := []struct {
		name      string
		setup     []string // lvApply steps on the bucket before the upload
		versionID string
		stack     string
		bodies    int // bodies stored afterwards
	}{
		{"unversioned, new key", nil, "null", "null:data", 1},
		{"unversioned replaces the object", []string{"put k old"}, "null", "null:data", 1},
		{"enabled, new key", []string{"enable"}, "v00000001", "v00000001:data", 1},
		{"enabled adds a version", []string{"enable", "put k old"}, "v00000002", "v00000002:data v00000001:data", 2},
		{"enabled keeps the null version", []string{"put k old", "enable"}, "v00000001", "v00000001:data null:data", 2},
		{"enabled over a delete marker", []string{"enable", "put k old", "del k"}, "v00000003", "v00000003:data v00000002:marker v00000001:data", 2},
		{"suspended replaces the null version", []string{"put k old", "enable", "put k old2", "suspend", "put k old3"}, "null", "null:data v00000001:data", 2},
		{"suspended replaces a null marker", []string{"enable", "put k old", "suspend", "del k"}, "null", "null:data v00000001:data", 2},
		{"suspended from new", []string{"suspend", "put k old"}, "null", "null:data", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := mpStore(t, 0, Unversioned)
			lvApply(ts, tt.setup...)
			id := ts.mpCreate("k")
			ts.mpPart("k", id, 1, "new")
			res := ts.mpComplete("k", id, mpCP(1, mpMD5("new")))
			if res.VersionID != tt.versionID {
				t.Errorf("VersionID %q, want %q", res.VersionID, tt.versionID)
			}
			if got := ts.stack(mpBucket, "k"); got != tt.stack {
				t.Errorf("stack %q, want %q", got, tt.stack)
			}
			if got := ts.mpBody("k"); got != "new" {
				t.Errorf("current body %q", got)
			}
			if got := ts.memory.Len(KindBody); got != tt.bodies {
				t.Errorf("%d bodies stored, want %d", got, tt.bodies)
			}
		})
	}
}

func TestCompleteMultipartUploadKeepsTheMetadataOfCreate(t *testing.T) {
	ts := mpStore(t, 0, Enabled)
	meta := ObjectMeta{ContentType: "text/plain", ContentDisposition: "attachment", ContentEncoding: "gzip",
		CacheControl: "no-cache", User: map[string]string{"color": "blue"}}
	info, err := ts.CreateMultipartUpload(mpBucket, "k", PutOptions{Meta: meta})
	ts.must(err)
	meta.User["color"] = "red" // the caller's map is not the upload's
	ts.mpPart("k", info.UploadID, 1, "p")
	list, err := ts.ListMultipartUploads(mpBucket, ListUploadsOptions{})
	ts.must(err)
	if len(list.Uploads) != 1 || list.Uploads[0].Meta.User["color"] != "blue" || list.Uploads[0].Meta.ContentType != "text/plain" {
		t.Errorf("listed upload %+v", list.Uploads)
	}
	ts.mpComplete("k", info.UploadID, mpCP(1, mpMD5("p")))
	obj, err := ts.GetObject(mpBucket, "k", GetOptions{})
	ts.must(err)
	want := ObjectMeta{ContentType: "text/plain", ContentDisposition: "attachment", ContentEncoding: "gzip",
		CacheControl: "no-cache", User: map[string]string{"color": "blue"}}
	got := obj.Version.Meta
	if got.ContentType != want.ContentType || got.ContentDisposition != want.ContentDisposition ||
		got.ContentEncoding != want.ContentEncoding || got.CacheControl != want.CacheControl || !maps.Equal(got.User, want.User) {
		t.Errorf("meta %+v, want %+v", got, want)
	}
}

// MOTO-T test_idempotent_multipart_upload; CEPH test_multipart_upload.
func TestCompleteMultipartUploadRepeatReturnsTheSameResult(t *testing.T) {
	ts := mpStore(t, 1, Enabled)
	id := ts.at(1).mpCreate("k")
	ts.mpPart("k", id, 1, "one")
	ts.mpPart("k", id, 2, "two")
	parts := []CompletedPart{mpCP(1, mpMD5("one")), mpCP(2, mpMD5("two"))}
	first := ts.at(2).mpComplete("k", id, parts...)
	commits, stack := ts.faults.Commits(), ts.stack(mpBucket, "k")
	for _, again := range [][]CompletedPart{
		parts,
		{mpCP(1, `"`+mpMD5("one")+`"`), mpCP(2, `"`+mpMD5("two")+`"`)},
	} {
		res := ts.at(9).mpComplete("k", id, again...)
		if res != first {
			t.Errorf("repeat: got %+v, want %+v", res, first)
		}
	}
	if ts.faults.Commits() != commits || ts.stack(mpBucket, "k") != stack {
		t.Errorf("a repeated Complete wrote: %d commits, stack %q (was %q)", ts.faults.Commits()-commits, ts.stack(mpBucket, "k"), stack)
	}
	for name, other := range map[string][]CompletedPart{
		"fewer parts":     parts[:1],
		"other ETag":      {mpCP(1, mpMD5("one")), mpCP(2, mpMD5("three"))},
		"reordered parts": {parts[1], parts[0]},
	} {
		_, err := ts.CompleteMultipartUpload(mpBucket, "k", id, other)
		if e := wantCode(t, err, NoSuchUpload); e.UploadID != id {
			t.Errorf("%s: UploadID %q", name, e.UploadID)
		}
	}
	_, err := ts.CompleteMultipartUpload(mpBucket, "other", id, parts)
	wantCode(t, err, NoSuchUpload)
	_, err = ts.ListParts(mpBucket, "k", id, ListPartsOptions{})
	wantCode(t, err, NoSuchUpload)
}

func TestCreateMultipartUploadIDsCountUpPerBucket(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	ts.bucket("two", Enabled)
	var got []string
	for _, key := range []string{"a", "a", "b"} {
		got = append(got, ts.mpCreate(key))
	}
	ts.must(ts.AbortMultipartUpload(mpBucket, "a", "u00000002"))
	got = append(got, ts.mpCreate("a"))
	info, err := ts.CreateMultipartUpload("two", "a", PutOptions{})
	ts.must(err)
	got = append(got, "two:"+info.UploadID)
	mpEqual(t, "upload IDs", got, []string{"u00000001", "u00000002", "u00000003", "u00000004", "two:u00000001"})
}

func TestCreateMultipartUploadValidatesTheKey(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	_, err := ts.CreateMultipartUpload(mpBucket, strings.Repeat("k", MaxKeyLength+1), PutOptions{})
	wantCode(t, err, KeyTooLongError)
	_, err = ts.CreateMultipartUpload(mpBucket, "", PutOptions{})
	wantCode(t, err, InvalidArgument)
	if id := ts.mpCreate(strings.Repeat("k", MaxKeyLength)); id != "u00000001" {
		t.Errorf("rejected keys used upload IDs: next is %s", id)
	}
}

func TestListPartsPages(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	id := ts.at(5).mpCreate("k")
	// Parts 8, 1, 5, 3, 2 uploaded at 10, 11, 12, 13, 14; part n is n bytes.
	for i, n := range []int{8, 1, 5, 3, 2} {
		ts.at(float64(10+i)).mpPart("k", id, n, strings.Repeat("x", n))
	}
	var all []string
	for _, n := range []int{1, 2, 3, 5, 8} {
		created := map[int]int{8: 10, 1: 11, 5: 12, 3: 13, 2: 14}[n]
		all = append(all, fmt.Sprintf("%d:%s:%d@%d", n, mpMD5(strings.Repeat("x", n)), n, created))
	}
	tests := []struct {
		marker, max int
		want        []string
		next        int
	}{
		{0, 0, all, 0},
		{0, 1000, all, 0},
		{0, 5, all, 0},
		{0, 4, all[:4], 5},
		{0, 2, all[:2], 2},
		{2, 2, all[2:4], 5},
		{5, 2, all[4:], 0},
		{4, 10, all[3:], 0},
		{8, 1, nil, 0},
		{100, 1, nil, 0},
		{-3, 1, all[:1], 1},
	}
	for _, tt := range tests {
		res, err := ts.ListParts(mpBucket, "k", id, ListPartsOptions{PartNumberMarker: tt.marker, MaxParts: tt.max})
		ts.must(err)
		mpEqual(t, fmt.Sprintf("marker %d max %d", tt.marker, tt.max), mpPartTexts(res.Parts), tt.want)
		if res.IsTruncated != (tt.next != 0) || res.NextPartNumberMarker != tt.next {
			t.Errorf("marker %d max %d: truncated %v next %d, want next %d", tt.marker, tt.max, res.IsTruncated, res.NextPartNumberMarker, tt.next)
		}
		if res.Upload.Key != "k" || res.Upload.UploadID != id || res.Upload.Initiated != 5 {
			t.Errorf("upload %+v", res.Upload)
		}
	}
	for max := 1; max <= 6; max++ {
		var got []string
		marker := 0
		for page := 0; ; page++ {
			if page > len(all) {
				t.Fatalf("max %d: paging does not end", max)
			}
			res, err := ts.ListParts(mpBucket, "k", id, ListPartsOptions{PartNumberMarker: marker, MaxParts: max})
			ts.must(err)
			got = append(got, mpPartTexts(res.Parts)...)
			if !res.IsTruncated {
				break
			}
			marker = res.NextPartNumberMarker
		}
		mpEqual(t, fmt.Sprintf("pages of %d", max), got, all)
	}
}

// mpUploadsFixture creates uploads, the clock deliberately not monotonic so
// that initiation order differs from ID order for key b:
//
//	u00000001 b     at 10      u00000005 a/y   at 13
//	u00000002 a     at 11      u00000006 a/y/z at 14
//	u00000003 b     at 5       u00000007 c     at 15, completed
//	u00000004 a/x   at 12      u00000008 d     at 16, aborted
//	u00000009 e     at 17
func mpUploadsFixture(t *testing.T) *testStore {
	t.Helper()
	ts := mpStore(t, 0, Enabled)
	for i, u := range []struct {
		key string
		at  float64
	}{{"b", 10}, {"a", 11}, {"b", 5}, {"a/x", 12}, {"a/y", 13}, {"a/y/z", 14}, {"c", 15}, {"d", 16}, {"e", 17}} {
		if id := ts.at(u.at).mpCreate(u.key); id != fmt.Sprintf("u%08d", i+1) {
			t.Fatalf("upload %d has ID %s", i+1, id)
		}
	}
	ts.mpPart("c", "u00000007", 1, "c")
	ts.mpComplete("c", "u00000007", mpCP(1, mpMD5("c")))
	ts.must(ts.AbortMultipartUpload(mpBucket, "d", "u00000008"))
	return ts
}

func mpUploadTexts(t *testing.T, res ListUploadsResult) []lvItem {
	t.Helper()
	entries := make([]lvItem, len(res.Uploads))
	for i, u := range res.Uploads {
		entries[i] = lvItem{Key: u.Key, VersionID: u.UploadID, Text: u.Key + "@" + u.UploadID}
	}
	return lvMerge(t, entries, res.CommonPrefixes)
}

var mpAllUploads = []string{"a@u00000002", "a/x@u00000004", "a/y@u00000005", "a/y/z@u00000006", "b@u00000003", "b@u00000001", "e@u00000009"}

func TestListMultipartUploadsSortsFiltersAndPages(t *testing.T) {
	tests := []struct {
		name           string
		opts           ListUploadsOptions
		want           []string
		nextKey, nextU string // both "" means not truncated
	}{
		{"key then initiation, only in progress", ListUploadsOptions{}, mpAllUploads, "", ""},
		{"prefix", ListUploadsOptions{Prefix: "a/"}, mpAllUploads[1:4], "", ""},
		{"prefix matching nothing", ListUploadsOptions{Prefix: "c"}, nil, "", ""},
		{"delimiter", ListUploadsOptions{Delimiter: "/"}, []string{"a@u00000002", "prefix a/", "b@u00000003", "b@u00000001", "e@u00000009"}, "", ""},
		{"prefix and delimiter", ListUploadsOptions{Prefix: "a/", Delimiter: "/"}, []string{"a/x@u00000004", "a/y@u00000005", "prefix a/y/"}, "", ""},
		{"key-marker skips that key's uploads", ListUploadsOptions{KeyMarker: "a"}, mpAllUploads[1:], "", ""},
		{"key-marker that is no upload's key", ListUploadsOptions{KeyMarker: "a/xx"}, mpAllUploads[2:], "", ""},
		{"key-marker and upload-id-marker", ListUploadsOptions{KeyMarker: "b", UploadIDMarker: "u00000003"}, mpAllUploads[5:], "", ""},
		{"upload-id-marker of the key's last upload", ListUploadsOptions{KeyMarker: "b", UploadIDMarker: "u00000001"}, mpAllUploads[6:], "", ""},
		{"key-marker equal to a common prefix", ListUploadsOptions{KeyMarker: "a/", Delimiter: "/"}, mpAllUploads[4:], "", ""},
		{"key-marker inside a common prefix", ListUploadsOptions{KeyMarker: "a/x", Delimiter: "/"}, mpAllUploads[4:], "", ""},
		{"key-marker after everything", ListUploadsOptions{KeyMarker: "z"}, nil, "", ""},
		{"upload-id-marker without key-marker is ignored", ListUploadsOptions{UploadIDMarker: "u00000003"}, mpAllUploads, "", ""},
		{"max-uploads", ListUploadsOptions{MaxUploads: 2}, mpAllUploads[:2], "a/x", "u00000004"},
		{"max-uploads ending inside a key", ListUploadsOptions{MaxUploads: 5}, mpAllUploads[:5], "b", "u00000003"},
		{"max-uploads equal to the count", ListUploadsOptions{MaxUploads: 7}, mpAllUploads, "", ""},
		{"max-uploads ending on a common prefix", ListUploadsOptions{Delimiter: "/", MaxUploads: 2}, []string{"a@u00000002", "prefix a/"}, "a/", ""},
		{"max-uploads after a marker", ListUploadsOptions{KeyMarker: "a/", Delimiter: "/", MaxUploads: 1}, []string{"b@u00000003"}, "b", "u00000003"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := mpUploadsFixture(t)
			res, err := ts.ListMultipartUploads(mpBucket, tt.opts)
			ts.must(err)
			mpEqual(t, "uploads", lvTexts(mpUploadTexts(t, res)), tt.want)
			truncated := tt.nextKey != ""
			if res.IsTruncated != truncated || res.NextKeyMarker != tt.nextKey || res.NextUploadIDMarker != tt.nextU {
				t.Errorf("truncated %v next (%q, %q); want %v (%q, %q)", res.IsTruncated, res.NextKeyMarker, res.NextUploadIDMarker, truncated, tt.nextKey, tt.nextU)
			}
		})
	}
}

func TestListMultipartUploadsPagingReproducesFullList(t *testing.T) {
	for _, opts := range []ListUploadsOptions{{}, {Delimiter: "/"}, {Prefix: "a"}, {Prefix: "a/", Delimiter: "/"}, {Delimiter: "y"}} {
		t.Run(fmt.Sprintf("prefix %q delimiter %q", opts.Prefix, opts.Delimiter), func(t *testing.T) {
			ts := mpUploadsFixture(t)
			full, err := ts.ListMultipartUploads(mpBucket, opts)
			ts.must(err)
			want := lvTexts(mpUploadTexts(t, full))
			for max := 1; max <= 4; max++ {
				o := opts
				o.MaxUploads = max
				var got []string
				for page := 0; ; page++ {
					if page > len(want) {
						t.Fatalf("max %d: paging does not end", max)
					}
					res, err := ts.ListMultipartUploads(mpBucket, o)
					ts.must(err)
					items := mpUploadTexts(t, res)
					got = append(got, lvTexts(items)...)
					if !res.IsTruncated {
						if res.NextKeyMarker != "" || res.NextUploadIDMarker != "" || (len(items) == 0 && page > 0) {
							t.Errorf("max %d: last page %d has next (%q, %q), %d entries", max, page, res.NextKeyMarker, res.NextUploadIDMarker, len(items))
						}
						break
					}
					last := items[len(items)-1]
					if len(items) != max || res.NextKeyMarker != last.Key || res.NextUploadIDMarker != last.VersionID {
						t.Fatalf("max %d page %d: %d entries, next (%q, %q), last entry (%q, %q)", max, page, len(items), res.NextKeyMarker, res.NextUploadIDMarker, last.Key, last.VersionID)
					}
					o.KeyMarker, o.UploadIDMarker = res.NextKeyMarker, res.NextUploadIDMarker
				}
				mpEqual(t, fmt.Sprintf("pages of %d", max), got, want)
			}
		})
	}
}

func TestAbortMultipartUploadRemovesTheUploadAndItsParts(t *testing.T) {
	ts := mpStore(t, 0, Enabled)
	ts.put(mpBucket, "k", "existing")
	id := ts.mpCreate("k")
	keep := ts.mpCreate("k")
	ts.mpPart("k", id, 1, "one")
	ts.mpPart("k", id, 2, "two")
	ts.mpPart("k", keep, 1, "kept")
	versions, err := ts.ListObjectVersions(mpBucket, ListVersionsOptions{})
	ts.must(err)
	commits := ts.faults.Commits()
	ts.must(ts.AbortMultipartUpload(mpBucket, "k", id))
	if ts.faults.Commits() != commits+1 {
		t.Errorf("Abort made %d commits, want 1", ts.faults.Commits()-commits)
	}
	if got := ts.memory.Len(KindBody); got != 2 {
		t.Errorf("%d bodies after Abort, want 2", got)
	}
	for n := 1; n <= 2; n++ {
		if _, err := ts.memory.ReadBody(partRef(mpBucket, id, n)); !errors.Is(err, ErrBodyNotFound) {
			t.Errorf("part %d still stored: %v", n, err)
		}
	}
	mpEqual(t, "kept upload", ts.mpParts("k", keep), []string{"1:" + mpMD5("kept") + ":4@0"})
	after, err := ts.ListObjectVersions(mpBucket, ListVersionsOptions{})
	ts.must(err)
	if !reflect.DeepEqual(after.Versions, versions.Versions) {
		t.Errorf("Abort changed the versions: %+v", after.Versions)
	}
	list, err := ts.ListMultipartUploads(mpBucket, ListUploadsOptions{})
	ts.must(err)
	if len(list.Uploads) != 1 || list.Uploads[0].UploadID != keep {
		t.Errorf("uploads after Abort: %+v", list.Uploads)
	}
}

func TestDeleteBucketAbortsUploadsInProgress(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	ts.bucket("other", Unversioned)
	a := ts.mpCreate("a")
	ts.mpPart("a", a, 1, "a1")
	ts.mpPart("a", a, 2, "a2")
	b := ts.mpCreate("b")
	ts.mpPart("b", b, 3, "b3")
	ts.mpCreate("empty")
	done := ts.mpCreate("done")
	ts.mpPart("done", done, 1, "d")
	ts.mpComplete("done", done, mpCP(1, mpMD5("d")))
	info, err := ts.CreateMultipartUpload("other", "x", PutOptions{})
	ts.must(err)
	_, err = ts.UploadPart("other", "x", info.UploadID, 1, []byte("x1"))
	ts.must(err)

	err = ts.DeleteBucket(mpBucket)
	wantCode(t, err, BucketNotEmpty)
	if got := ts.mpParts("a", a); len(got) != 2 {
		t.Fatalf("a refused DeleteBucket touched uploads: %q", got)
	}
	ts.del(mpBucket, "done", "")
	ts.must(ts.DeleteBucket(mpBucket))

	if got := ts.memory.Len(KindBody); got != 1 {
		t.Errorf("%d bodies after DeleteBucket, want 1 (other's part)", got)
	}
	if got := ts.memory.Len(KindUpload); got != 1 {
		t.Errorf("%d uploads stored after DeleteBucket, want 1 (other's)", got)
	}
	for _, ref := range []string{partRef(mpBucket, a, 1), partRef(mpBucket, a, 2), partRef(mpBucket, b, 3)} {
		if _, err := ts.memory.ReadBody(ref); !errors.Is(err, ErrBodyNotFound) {
			t.Errorf("%s still stored: %v", ref, err)
		}
	}
	ts.bucket(mpBucket, Unversioned)
	list, err := ts.ListMultipartUploads(mpBucket, ListUploadsOptions{})
	ts.must(err)
	if len(list.Uploads) != 0 {
		t.Errorf("a recreated bucket lists uploads %+v", list.Uploads)
	}
	_, err = ts.ListParts(mpBucket, "a", a, ListPartsOptions{})
	wantCode(t, err, NoSuchUpload)
	res, err := ts.ListParts("other", "x", info.UploadID, ListPartsOptions{})
	ts.must(err)
	if len(res.Parts) != 1 {
		t.Errorf("other bucket's upload lost its parts: %+v", res.Parts)
	}
}

// mpState is everything a failed multipart call must leave unchanged: the
// listings and every stored item, bodies included.
func mpState(ts *testStore, key string, ids ...string) string {
	ts.t.Helper()
	var b strings.Builder
	for _, id := range ids {
		res, err := ts.ListParts(mpBucket, key, id, ListPartsOptions{})
		fmt.Fprintf(&b, "parts %s: %q %v\n", id, mpPartTexts(res.Parts), err)
	}
	uploads, err := ts.ListMultipartUploads(mpBucket, ListUploadsOptions{})
	ts.must(err)
	fmt.Fprintf(&b, "uploads: %+v\n", uploads)
	versions, err := ts.ListObjectVersions(mpBucket, ListVersionsOptions{})
	ts.must(err)
	fmt.Fprintf(&b, "versions: %+v\n", versions)
	var items []string
	ts.must(ts.memory.Load(func(k Kind, key string, value []byte) error {
		items = append(items, fmt.Sprintf("%v %s = %s", k, key, value))
		return nil
	}))
	slices.Sort(items)
	fmt.Fprintf(&b, "items: %s\n", strings.Join(items, "\n"))
	fmt.Fprintf(&b, "bodies: %d\n", ts.memory.Len(KindBody))
	var refs []string
	for _, id := range ids {
		for n := 1; n <= 3; n++ {
			refs = append(refs, partRef(mpBucket, id, n))
		}
	}
	for seq := uint64(1); seq <= 10; seq++ {
		refs = append(refs, entryRef(mpBucket, seq))
	}
	for _, ref := range refs {
		body, err := ts.memory.ReadBody(ref)
		fmt.Fprintf(&b, "body %s = %q %v\n", ref, body, err)
	}
	return b.String()
}

func TestMultipartFailedCommitChangesNothing(t *testing.T) {
	tests := []struct {
		name  string
		call  func(ts *testStore, id string) error
		check func(ts *testStore, id string)
	}{
		{"CreateMultipartUpload", func(ts *testStore, id string) error {
			_, err := ts.CreateMultipartUpload(mpBucket, "k", PutOptions{})
			return err
		}, func(ts *testStore, id string) {
			list, err := ts.ListMultipartUploads(mpBucket, ListUploadsOptions{})
			ts.must(err)
			if len(list.Uploads) != 2 || list.Uploads[1].UploadID != "u00000002" {
				t.Errorf("after retry: uploads %+v", list.Uploads)
			}
		}},
		{"UploadPart of a new part", func(ts *testStore, id string) error {
			_, err := ts.UploadPart(mpBucket, "k", id, 3, []byte("ccc"))
			return err
		}, func(ts *testStore, id string) {
			mpEqual(t, "after retry", ts.mpParts("k", id), []string{"1:" + mpMD5("aaaaa") + ":5@1", "2:" + mpMD5("bb") + ":2@1", "3:" + mpMD5("ccc") + ":3@2"})
		}},
		{"UploadPart overwriting a part", func(ts *testStore, id string) error {
			_, err := ts.UploadPart(mpBucket, "k", id, 1, []byte("zzzzzz"))
			return err
		}, func(ts *testStore, id string) {
			mpEqual(t, "after retry", ts.mpParts("k", id), []string{"1:" + mpMD5("zzzzzz") + ":6@2", "2:" + mpMD5("bb") + ":2@1"})
		}},
		{"CompleteMultipartUpload", func(ts *testStore, id string) error {
			_, err := ts.CompleteMultipartUpload(mpBucket, "k", id, []CompletedPart{mpCP(1, mpMD5("aaaaa")), mpCP(2, mpMD5("bb"))})
			return err
		}, func(ts *testStore, id string) {
			if got := ts.stack(mpBucket, "k"); got != "v00000002:data v00000001:data" {
				t.Errorf("after retry: stack %q", got)
			}
			if got := ts.mpBody("k"); got != "aaaaabb" {
				t.Errorf("after retry: body %q", got)
			}
		}},
		{"AbortMultipartUpload", func(ts *testStore, id string) error {
			return ts.AbortMultipartUpload(mpBucket, "k", id)
		}, func(ts *testStore, id string) {
			_, err := ts.ListParts(mpBucket, "k", id, ListPartsOptions{})
			wantCode(t, err, NoSuchUpload)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := mpStore(t, 5, Enabled)
			ts.at(1).put(mpBucket, "k", "existing")
			id := ts.mpCreate("k")
			ts.mpPart("k", id, 1, "aaaaa")
			ts.mpPart("k", id, 2, "bb")
			before := mpState(ts, "k", id)
			commits := ts.faults.Commits()
			ts.faults.FailCommits()
			err := tt.call(ts.at(2), id)
			if !errors.Is(err, errInjected) {
				t.Fatalf("got %v, want the injected failure", err)
			}
			wantCode(t, err, InternalError)
			if after := mpState(ts, "k", id); after != before {
				t.Errorf("state changed by a failed commit:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if ts.faults.Commits() != commits {
				t.Errorf("commits %d, want %d", ts.faults.Commits(), commits)
			}
			ts.faults.ClearFaults()
			ts.must(tt.call(ts, id))
			tt.check(ts, id)
		})
	}
}

// A completed upload is kept only so that a repeated Complete answers as
// the first did: its stored item holds the parts it was completed with and
// the answer, not the metadata, the time or the part sizes of the upload
// in progress.
func TestACompletedUploadKeepsOnlyItsAnswer(t *testing.T) {
	ts := mpStore(t, 1, Enabled)
	info, err := ts.at(7).CreateMultipartUpload(mpBucket, "k", PutOptions{Meta: ObjectMeta{ContentType: "text/x-until-completion"}})
	ts.must(err)
	ts.mpPart("k", info.UploadID, 1, "one")
	ts.at(8).mpComplete("k", info.UploadID, mpCP(1, mpMD5("one")))
	var item string
	ts.must(ts.memory.Load(func(kind Kind, key string, value []byte) error {
		if kind == KindUpload && key == mpBucket+"/"+info.UploadID {
			item = string(value)
		}
		return nil
	}))
	for _, gone := range []string{"text/x-until-completion", `"initiated":7`, `"s":3`} {
		if strings.Contains(item, gone) {
			t.Errorf("the completed upload's item holds %s: %s", gone, item)
		}
	}
	if !strings.Contains(item, `"completed"`) {
		t.Errorf("the completed upload's item holds no answer: %s", item)
	}
}

func TestMultipartUploadSurvivesReopen(t *testing.T) {
	ts := mpStore(t, 3, Enabled)
	id := ts.at(1).mpCreate("k")
	ts.at(2).mpPart("k", id, 1, "abc")
	ts.at(3).mpPart("k", id, 2, "de")
	done := ts.mpCreate("done")
	ts.mpPart("done", done, 1, "xyz")
	first := ts.at(4).mpComplete("done", done, mpCP(1, mpMD5("xyz")))

	re := openTestStore(t, ts.memory, Options{MinPartSize: 3})
	mpEqual(t, "parts after reopen", re.mpParts("k", id), []string{"1:" + mpMD5("abc") + ":3@2", "2:" + mpMD5("de") + ":2@3"})
	res, err := re.CompleteMultipartUpload(mpBucket, "done", done, []CompletedPart{mpCP(1, mpMD5("xyz"))})
	ts.must(err)
	if res != first {
		t.Errorf("repeat Complete after reopen: %+v, want %+v", res, first)
	}
	if got := re.mpCreate("new"); got != "u00000003" {
		t.Errorf("upload ID after reopen %s, want u00000003", got)
	}
	var buf bytes.Buffer
	list, err := re.ListMultipartUploads(mpBucket, ListUploadsOptions{})
	ts.must(err)
	for _, u := range list.Uploads {
		fmt.Fprintf(&buf, "%s@%s@%g ", u.Key, u.UploadID, u.Initiated)
	}
	if got := buf.String(); got != "k@u00000001@1 new@u00000003@0 " {
		t.Errorf("uploads after reopen: %s", got)
	}
}

// The upload-id-marker need not name an upload still in progress: a client
// paging through uploads may complete or abort the last one it was shown
// before asking for the next page. S3 then lists the marker key's uploads
// whose ID is greater than the marker (API ListMultipartUploads, cited in
// §3.1: "any multipart uploads for a key equal to the key-marker might be
// included in the list only if they have an upload ID lexicographically
// greater than the specified upload-id-marker").
func TestListMultipartUploadsUploadIDMarkerOfAFinishedUpload(t *testing.T) {
	tests := []struct {
		name   string
		finish func(ts *testStore)
		marker string
		want   []string
	}{
		{"marker upload completed", func(ts *testStore) {
			ts.mpPart("b", "u00000001", 1, "p")
			ts.mpComplete("b", "u00000001", mpCP(1, mpMD5("p")))
		}, "u00000001", []string{"b@u00000002", "b@u00000003", "c@u00000004"}},
		{"marker upload aborted", func(ts *testStore) {
			ts.must(ts.AbortMultipartUpload(mpBucket, "b", "u00000001"))
		}, "u00000001", []string{"b@u00000002", "b@u00000003", "c@u00000004"}},
		{"middle upload aborted", func(ts *testStore) {
			ts.must(ts.AbortMultipartUpload(mpBucket, "b", "u00000002"))
		}, "u00000002", []string{"b@u00000003", "c@u00000004"}},
		{"marker still in progress", func(*testStore) {}, "u00000002", []string{"b@u00000003", "c@u00000004"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := mpStore(t, 0, Enabled)
			for i, key := range []string{"b", "b", "b", "c"} {
				ts.at(float64(i + 1)).mpCreate(key)
			}
			tt.finish(ts)
			res, err := ts.ListMultipartUploads(mpBucket, ListUploadsOptions{KeyMarker: "b", UploadIDMarker: tt.marker})
			ts.must(err)
			mpEqual(t, "uploads after the marker", lvTexts(mpUploadTexts(t, res)), tt.want)
		})
	}
}

func TestUploadPartConcurrentPartsAllLand(t *testing.T) {
	ts := mpStore(t, 1, Enabled)
	id := ts.mpCreate("k")
	const writers, each = 8, 10
	errs := make(chan error, writers*each)
	done := make(chan struct{})
	for w := 0; w < writers; w++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < each; i++ {
				n := w*each + i + 1
				if _, err := ts.UploadPart(mpBucket, "k", id, n, []byte(fmt.Sprint(n))); err != nil {
					errs <- err
				}
			}
		}()
	}
	for w := 0; w < writers; w++ {
		<-done
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	res, err := ts.ListParts(mpBucket, "k", id, ListPartsOptions{})
	ts.must(err)
	var parts []CompletedPart
	var want strings.Builder
	for i, p := range res.Parts {
		if p.PartNumber != i+1 || p.ETag != mpMD5(fmt.Sprint(i+1)) {
			t.Fatalf("part %d: %+v", i+1, p)
		}
		parts = append(parts, mpCP(p.PartNumber, p.ETag))
		fmt.Fprint(&want, i+1)
	}
	if len(parts) != writers*each {
		t.Fatalf("%d parts, want %d", len(parts), writers*each)
	}
	ts.mpComplete("k", id, parts...)
	if got := ts.mpBody("k"); got != want.String() {
		t.Errorf("body %q, want %q", got, want.String())
	}
}

func TestCompleteMultipartUploadFailedPartReadChangesNothing(t *testing.T) {
	ts := mpStore(t, 1, Enabled)
	id := ts.mpCreate("k")
	ts.mpPart("k", id, 1, "one")
	ts.mpPart("k", id, 2, "two")
	before := mpState(ts, "k", id)
	commits := ts.faults.Commits()
	ts.faults.FailReads()
	_, err := ts.CompleteMultipartUpload(mpBucket, "k", id, []CompletedPart{mpCP(1, mpMD5("one")), mpCP(2, mpMD5("two"))})
	ts.faults.ClearFaults()
	if !errors.Is(err, errInjected) {
		t.Fatalf("got %v, want the injected failure", err)
	}
	wantCode(t, err, InternalError)
	if after := mpState(ts, "k", id); after != before || ts.faults.Commits() != commits {
		t.Errorf("state changed by a failed read:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if res := ts.mpComplete("k", id, mpCP(1, mpMD5("one")), mpCP(2, mpMD5("two"))); res.VersionID != "v00000001" {
		t.Errorf("after retry: %+v", res)
	}
}

func TestDeleteBucketFailedCommitKeepsUploads(t *testing.T) {
	ts := mpStore(t, 0, Unversioned)
	id := ts.mpCreate("k")
	ts.mpPart("k", id, 1, "one")
	before := mpState(ts, "k", id)
	ts.faults.FailCommits()
	err := ts.DeleteBucket(mpBucket)
	ts.faults.ClearFaults()
	if !errors.Is(err, errInjected) {
		t.Fatalf("got %v, want the injected failure", err)
	}
	if after := mpState(ts, "k", id); after != before {
		t.Errorf("state changed by a failed DeleteBucket:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	ts.must(ts.DeleteBucket(mpBucket))
	if ts.memory.Len(KindBody) != 0 || ts.memory.Len(KindUpload) != 0 {
		t.Errorf("after DeleteBucket: %d bodies, %d uploads stored", ts.memory.Len(KindBody), ts.memory.Len(KindUpload))
	}
}
