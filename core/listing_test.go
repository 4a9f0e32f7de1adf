package core

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Listing tests pin reference §2 (s3-semantics.md): ListObjectVersions (§2.1)
// and ListObjectsV2 (§2.2). Listings are rendered as strings so that a table
// can spell out a whole page:
//
//	"a@v00000002*"     data version, IsLatest
//	"a@v00000003:dm*"  delete marker, IsLatest
//	"a@null"           noncurrent null version
//	"prefix b/"        a common prefix
//
// and ListObjectsV2 objects as their bare key.

const lvBucket = "bkt"

// lvStore opens a test store with one unversioned bucket and applies the
// steps to it (see lvApply).
func lvStore(t *testing.T, steps ...string) *testStore {
	t.Helper()
	ts := newTestStore(t)
	ts.bucket(lvBucket, Unversioned)
	lvApply(ts, steps...)
	return ts
}

// lvApply runs a tiny fixture script, advancing the clock by one second
// before each step:
//
//	put KEY [BODY]   PUT (body defaults to KEY#step)
//	del KEY [ID]     DELETE, with a version ID when given
//	enable | suspend set the bucket's versioning
func lvApply(ts *testStore, steps ...string) {
	ts.t.Helper()
	for i, step := range steps {
		ts.at(ts.clockAt + 1)
		f := strings.Fields(step)
		switch {
		case len(f) == 2 && f[0] == "put":
			ts.put(lvBucket, f[1], fmt.Sprintf("%s#%d", f[1], i))
		case len(f) == 3 && f[0] == "put":
			ts.put(lvBucket, f[1], f[2])
		case len(f) == 2 && f[0] == "del":
			ts.del(lvBucket, f[1], "")
		case len(f) == 3 && f[0] == "del":
			ts.del(lvBucket, f[1], f[2])
		case step == "enable":
			ts.must(ts.SetBucketVersioning(lvBucket, Enabled))
		case step == "suspend":
			ts.must(ts.SetBucketVersioning(lvBucket, Suspended))
		default:
			ts.t.Fatalf("bad fixture step %q", step)
		}
	}
}

// lvItem is one entry of a listing page in listing order: a version, a
// delete marker or a common prefix (VersionID "").
type lvItem struct {
	Key, VersionID string
	Prefix         bool
	Text           string
}

func lvTexts(items []lvItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Text
	}
	return out
}

func lvVersionText(e VersionEntry) string {
	s := e.Key + "@" + e.VersionID
	if e.IsDeleteMarker {
		s += ":dm"
	}
	if e.IsLatest {
		s += "*"
	}
	return s
}

// lvMerge interleaves entries (sorted by key, already in listing order) and
// common prefixes into one listing, each prefix sorting as its own string.
// It fails the test if either list is out of order on its own.
func lvMerge(t *testing.T, entries []lvItem, prefixes []string) []lvItem {
	t.Helper()
	for i := 1; i < len(entries); i++ {
		if entries[i].Key < entries[i-1].Key {
			t.Fatalf("entries out of key order: %q after %q", entries[i].Key, entries[i-1].Key)
		}
	}
	for i := 1; i < len(prefixes); i++ {
		if prefixes[i] <= prefixes[i-1] {
			t.Fatalf("common prefixes out of order or repeated: %q after %q", prefixes[i], prefixes[i-1])
		}
	}
	out := make([]lvItem, 0, len(entries)+len(prefixes))
	i, j := 0, 0
	for i < len(entries) || j < len(prefixes) {
		if j == len(prefixes) || (i < len(entries) && entries[i].Key < prefixes[j]) {
			out = append(out, entries[i])
			i++
			continue
		}
		out = append(out, lvItem{Key: prefixes[j], Prefix: true, Text: "prefix " + prefixes[j]})
		j++
	}
	return out
}

// lvItems is a ListObjectVersions page in listing order.
func lvItems(t *testing.T, res ListVersionsResult) []lvItem {
	t.Helper()
	entries := make([]lvItem, len(res.Versions))
	for i, e := range res.Versions {
		entries[i] = lvItem{Key: e.Key, VersionID: e.VersionID, Text: lvVersionText(e)}
	}
	return lvMerge(t, entries, res.CommonPrefixes)
}

// loItems is a ListObjectsV2 page in listing order.
func loItems(t *testing.T, res ListObjectsResult) []lvItem {
	t.Helper()
	entries := make([]lvItem, len(res.Objects))
	for i, o := range res.Objects {
		entries[i] = lvItem{Key: o.Key, VersionID: o.VersionID, Text: o.Key}
	}
	return lvMerge(t, entries, res.CommonPrefixes)
}

func (ts *testStore) lvList(opts ListVersionsOptions) ListVersionsResult {
	ts.t.Helper()
	res, err := ts.ListObjectVersions(lvBucket, opts)
	ts.must(err)
	return res
}

func (ts *testStore) loList(opts ListObjectsOptions) ListObjectsResult {
	ts.t.Helper()
	res, err := ts.ListObjectsV2(lvBucket, opts)
	ts.must(err)
	return res
}

func lvEqual(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// lvModelVersions is what ListObjectVersions must list for the whole
// bucket, computed naively from a snapshot: keys in byte order, each key's
// stack newest first with its first entry latest, keys holding the delimiter
// after the prefix folded into one common prefix each.
func lvModelVersions(recs []*ObjectRecord, prefix, delimiter string) []string {
	recs = slices.Clone(recs)
	slices.SortFunc(recs, func(a, b *ObjectRecord) int { return strings.Compare(a.Key, b.Key) })
	var out []string
	for _, r := range recs {
		if !strings.HasPrefix(r.Key, prefix) {
			continue
		}
		if cp, ok := lvModelPrefix(r.Key, prefix, delimiter); ok {
			if len(out) == 0 || out[len(out)-1] != "prefix "+cp {
				out = append(out, "prefix "+cp)
			}
			continue
		}
		for i, e := range r.Versions {
			_, isMarker := e.(*DeleteMarker)
			out = append(out, lvVersionText(VersionEntry{Key: r.Key, VersionID: e.ID(), IsDeleteMarker: isMarker, IsLatest: i == 0}))
		}
	}
	return out
}

// lvModelObjects is what ListObjectsV2 must list for the whole bucket: the
// keys whose current entry is a data version, and the common prefixes that
// hold at least one such key.
func lvModelObjects(recs []*ObjectRecord, prefix, delimiter string) []string {
	recs = slices.Clone(recs)
	slices.SortFunc(recs, func(a, b *ObjectRecord) int { return strings.Compare(a.Key, b.Key) })
	var out []string
	for _, r := range recs {
		if _, visible := r.Versions[0].(*Version); !visible || !strings.HasPrefix(r.Key, prefix) {
			continue
		}
		if cp, ok := lvModelPrefix(r.Key, prefix, delimiter); ok {
			if len(out) == 0 || out[len(out)-1] != "prefix "+cp {
				out = append(out, "prefix "+cp)
			}
			continue
		}
		out = append(out, r.Key)
	}
	return out
}

func lvModelPrefix(key, prefix, delimiter string) (string, bool) {
	if delimiter == "" {
		return "", false
	}
	before, _, found := strings.Cut(key[len(prefix):], delimiter)
	if !found {
		return "", false
	}
	return prefix + before + delimiter, true
}

// lvMixed is the main explicit fixture: an enabled bucket where
//
//	a   has four entries, a marker among them (v00000001..v00000004)
//	b/1 and b/2 form the common prefix b/ (v00000005, v00000006)
//	c   is a lone delete marker (v00000007)
//	d   has one version (v00000008)
var lvMixed = []string{
	"enable",
	"put a", "put a", "del a", "put a",
	"put b/1", "put b/2",
	"del c",
	"put d",
}

var lvMixedAll = []string{
	"a@v00000004*", "a@v00000003:dm", "a@v00000002", "a@v00000001",
	"b/1@v00000005*", "b/2@v00000006*",
	"c@v00000007:dm*",
	"d@v00000008*",
}

var lvMixedDelimited = []string{
	"a@v00000004*", "a@v00000003:dm", "a@v00000002", "a@v00000001",
	"prefix b/",
	"c@v00000007:dm*",
	"d@v00000008*",
}

func TestListObjectVersionsOrdersKeysBytewise(t *testing.T) {
	ts := lvStore(t, "put test_2", "put test_10", "put é", "put test_1", "put a", "put B", "put a/b", "put a-b", "put _")
	// Byte order: 'B' (0x42) < '_' (0x5f) < 'a' < "a-b" ('-' 0x2d) < "a/b"
	// ('/' 0x2f); "test_10" < "test_2"; 'é' (0xc3 0xa9) after all ASCII.
	want := []string{"B@null*", "_@null*", "a@null*", "a-b@null*", "a/b@null*", "test_1@null*", "test_10@null*", "test_2@null*", "é@null*"}
	lvEqual(t, "versions", lvTexts(lvItems(t, ts.lvList(ListVersionsOptions{}))), want)
}

func TestListObjectVersionsListsEachKeyNewestFirst(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
		want  []string
	}{
		{"versions and markers mixed by time", lvMixed, lvMixedAll},
		{"stacked markers", []string{"enable", "put k", "del k", "del k"},
			[]string{"k@v00000003:dm*", "k@v00000002:dm", "k@v00000001"}},
		{"marker removed by version ID uncovers the version below", []string{"enable", "put k", "put k", "del k", "del k v00000003"},
			[]string{"k@v00000002*", "k@v00000001"}},
		// "null" sorts before "v..." as a string; order is creation order.
		{"null version newer than a numbered one", []string{"enable", "put k", "suspend", "put k"},
			[]string{"k@null*", "k@v00000001"}},
		{"null version between numbered ones", []string{"enable", "put k", "suspend", "put k", "enable", "put k"},
			[]string{"k@v00000002*", "k@null", "k@v00000001"}},
		{"pre-versioning null object stays at the bottom", []string{"put k", "enable", "put k", "put k"},
			[]string{"k@v00000002*", "k@v00000001", "k@null"}},
		{"suspended delete replaces the null version with a null marker", []string{"put k", "enable", "put k", "suspend", "del k"},
			[]string{"k@null:dm*", "k@v00000001"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := lvStore(t, tt.steps...)
			lvEqual(t, "versions", lvTexts(lvItems(t, ts.lvList(ListVersionsOptions{}))), tt.want)
		})
	}
}

func TestListObjectVersionsNeverVersionedBucketListsNullVersionsAsLatest(t *testing.T) {
	ts := lvStore(t, "put b", "put a", "put a", "put c", "del c")
	lvEqual(t, "versions", lvTexts(lvItems(t, ts.lvList(ListVersionsOptions{}))), []string{"a@null*", "b@null*"})
}

func TestListObjectVersionsEntryFields(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket(lvBucket, Enabled)
	ts.at(10).put(lvBucket, "k", "hello")
	ts.at(20).del(lvBucket, "k", "")
	ts.at(30).put(lvBucket, "k", "test")
	res := ts.lvList(ListVersionsOptions{})
	want := []VersionEntry{
		{Key: "k", VersionID: "v00000003", IsLatest: true, CreatedAt: 30, ETag: "098f6bcd4621d373cade4e832627b4f6", Size: 4},
		{Key: "k", VersionID: "v00000002", IsDeleteMarker: true, CreatedAt: 20},
		{Key: "k", VersionID: "v00000001", CreatedAt: 10, ETag: "5d41402abc4b2a76b9719d911017c592", Size: 5},
	}
	if !reflect.DeepEqual(res.Versions, want) {
		t.Errorf("entries:\n got %+v\nwant %+v", res.Versions, want)
	}
	if res.IsTruncated || res.NextKeyMarker != "" || res.NextVersionIDMarker != "" || res.CommonPrefixes != nil {
		t.Errorf("untruncated listing: got %+v", res)
	}
}

func TestListObjectVersionsMarksExactlyOneLatestPerKey(t *testing.T) {
	for _, fx := range lvFixtures {
		t.Run(fx.name, func(t *testing.T) {
			ts := lvStore(t, fx.steps...)
			latest := map[string]int{}
			prev := ""
			for _, e := range ts.lvList(ListVersionsOptions{MaxKeys: -1}).Versions {
				if e.Key != prev && !e.IsLatest {
					t.Errorf("first entry of %q (%s) is not latest", e.Key, e.VersionID)
				}
				if e.IsLatest {
					latest[e.Key]++
				}
				prev = e.Key
			}
			recs, err := ts.Snapshot(lvBucket)
			ts.must(err)
			for _, r := range recs {
				if latest[r.Key] != 1 {
					t.Errorf("key %q has %d latest entries, want 1", r.Key, latest[r.Key])
				}
			}
		})
	}
}

func TestListObjectVersionsPrefixAndDelimiter(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
		opts  ListVersionsOptions
		want  []string
	}{
		{"no prefix, no delimiter", lvMixed, ListVersionsOptions{}, lvMixedAll},
		{"prefix selects keys", lvMixed, ListVersionsOptions{Prefix: "b/"}, []string{"b/1@v00000005*", "b/2@v00000006*"}},
		{"prefix that is a whole key", lvMixed, ListVersionsOptions{Prefix: "a"}, []string{"a@v00000004*", "a@v00000003:dm", "a@v00000002", "a@v00000001"}},
		{"prefix matching nothing", lvMixed, ListVersionsOptions{Prefix: "bb"}, nil},
		{"prefix after every key", lvMixed, ListVersionsOptions{Prefix: "z"}, nil},
		{"delimiter folds keys into a common prefix", lvMixed, ListVersionsOptions{Delimiter: "/"}, lvMixedDelimited},
		{"delimiter with a prefix that ends in it", lvMixed, ListVersionsOptions{Prefix: "b/", Delimiter: "/"}, []string{"b/1@v00000005*", "b/2@v00000006*"}},
		{"delimiter found in no key", lvMixed, ListVersionsOptions{Delimiter: "#"}, lvMixedAll},
		{"prefix folds only after the prefix",
			[]string{"put x/y/z", "put x/y/w/v", "put x/q", "put xy/1"},
			ListVersionsOptions{Prefix: "x/", Delimiter: "/"},
			[]string{"x/q@null*", "prefix x/y/"}},
		{"prefix without its delimiter folds the rest",
			[]string{"put x/y/z", "put x/q", "put xy/1", "put xz"},
			ListVersionsOptions{Prefix: "x", Delimiter: "/"},
			[]string{"prefix x/", "prefix xy/", "xz@null*"}},
		// CEPH test_bucket_list_delimiter_alt.
		{"multi-use delimiter a", []string{"put bar", "put baz", "put cab", "put foo"},
			ListVersionsOptions{Delimiter: "a"},
			[]string{"prefix ba", "prefix ca", "foo@null*"}},
		{"multi-character delimiter", []string{"put a--b--c", "put a--d", "put a-e", "put f"},
			ListVersionsOptions{Delimiter: "--"},
			[]string{"prefix a--", "a-e@null*", "f@null*"}},
		// CEPH test_bucket_listv2_delimiter_prefix_ends_with_delimiter.
		{"key equal to prefix plus delimiter is a key", []string{"put asdf/", "put asdf/x", "put asdf/y/z"},
			ListVersionsOptions{Prefix: "asdf/", Delimiter: "/"},
			[]string{"asdf/@null*", "asdf/x@null*", "prefix asdf/y/"}},
		{"key ending in the delimiter without a prefix folds", []string{"put asdf/", "put asdf/x"},
			ListVersionsOptions{Delimiter: "/"},
			[]string{"prefix asdf/"}},
		{"markers and noncurrent versions fold too", []string{"enable", "put p/1", "del p/1", "del p/2", "put q"},
			ListVersionsOptions{Delimiter: "/"},
			[]string{"prefix p/", "q@v00000004*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := lvStore(t, tt.steps...)
			res := ts.lvList(tt.opts)
			lvEqual(t, "listing", lvTexts(lvItems(t, res)), tt.want)
			if res.IsTruncated || res.NextKeyMarker != "" || res.NextVersionIDMarker != "" {
				t.Errorf("got truncated %v, next markers %q %q; want none", res.IsTruncated, res.NextKeyMarker, res.NextVersionIDMarker)
			}
		})
	}
}

func TestListObjectVersionsMaxKeysCountsVersionsMarkersAndPrefixes(t *testing.T) {
	tests := []struct {
		delimiter         string
		maxKeys           int
		want              []string
		truncated         bool
		nextKey, nextVers string
	}{
		{"/", 1, lvMixedDelimited[:1], true, "a", "v00000004"},
		{"/", 3, lvMixedDelimited[:3], true, "a", "v00000002"},
		{"/", 4, lvMixedDelimited[:4], true, "a", "v00000001"},
		{"/", 5, lvMixedDelimited[:5], true, "b/", ""},
		{"/", 6, lvMixedDelimited[:6], true, "c", "v00000007"},
		{"/", 7, lvMixedDelimited, false, "", ""},
		{"/", 8, lvMixedDelimited, false, "", ""},
		{"", 5, lvMixedAll[:5], true, "b/1", "v00000005"},
		{"", 7, lvMixedAll[:7], true, "c", "v00000007"},
		{"", 8, lvMixedAll, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("delimiter %q max %d", tt.delimiter, tt.maxKeys), func(t *testing.T) {
			ts := lvStore(t, lvMixed...)
			res := ts.lvList(ListVersionsOptions{Delimiter: tt.delimiter, MaxKeys: tt.maxKeys})
			lvEqual(t, "page", lvTexts(lvItems(t, res)), tt.want)
			if res.IsTruncated != tt.truncated || res.NextKeyMarker != tt.nextKey || res.NextVersionIDMarker != tt.nextVers {
				t.Errorf("got truncated %v next (%q, %q); want %v (%q, %q)",
					res.IsTruncated, res.NextKeyMarker, res.NextVersionIDMarker, tt.truncated, tt.nextKey, tt.nextVers)
			}
		})
	}
}

func TestListObjectVersionsResumesStrictlyAfterMarkers(t *testing.T) {
	tests := []struct {
		name string
		opts ListVersionsOptions
		want []string
	}{
		{"key-marker alone skips every version of that key",
			ListVersionsOptions{KeyMarker: "a"}, lvMixedAll[4:]},
		{"key-marker and version-id-marker resume after that version",
			ListVersionsOptions{KeyMarker: "a", VersionIDMarker: "v00000003"}, lvMixedAll[2:]},
		{"version-id-marker of a delete marker",
			ListVersionsOptions{KeyMarker: "a", VersionIDMarker: "v00000004"}, lvMixedAll[1:]},
		{"version-id-marker of the oldest version moves to the next key",
			ListVersionsOptions{KeyMarker: "a", VersionIDMarker: "v00000001"}, lvMixedAll[4:]},
		{"version-id-marker of a lone marker key",
			ListVersionsOptions{KeyMarker: "c", VersionIDMarker: "v00000007"}, lvMixedAll[7:]},
		{"key-marker before every key", ListVersionsOptions{KeyMarker: "0"}, lvMixedAll},
		{"key-marker that is no key", ListVersionsOptions{KeyMarker: "aa"}, lvMixedAll[4:]},
		{"key-marker at the last key", ListVersionsOptions{KeyMarker: "d"}, nil},
		{"key-marker after every key", ListVersionsOptions{KeyMarker: "zzz"}, nil},
		{"key-marker inside keys without a delimiter",
			ListVersionsOptions{KeyMarker: "b/1"}, lvMixedAll[5:]},
		{"key-marker before a prefix keeps it",
			ListVersionsOptions{KeyMarker: "b", Delimiter: "/"}, lvMixedDelimited[4:]},
		{"key-marker equal to a common prefix skips it and its keys",
			ListVersionsOptions{KeyMarker: "b/", Delimiter: "/"}, lvMixedDelimited[5:]},
		{"key-marker inside a common prefix skips the whole group",
			ListVersionsOptions{KeyMarker: "b/1", Delimiter: "/"}, lvMixedDelimited[5:]},
		{"key-marker inside a common prefix with a version-id-marker",
			ListVersionsOptions{KeyMarker: "b/1", VersionIDMarker: "v00000005", Delimiter: "/"}, lvMixedDelimited[5:]},
		{"key-marker before the prefix",
			ListVersionsOptions{KeyMarker: "a", Prefix: "b/"}, lvMixedAll[4:6]},
		{"key-marker inside the prefix",
			ListVersionsOptions{KeyMarker: "b/1", Prefix: "b/"}, lvMixedAll[5:6]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := lvStore(t, lvMixed...)
			res := ts.lvList(tt.opts)
			lvEqual(t, "page", lvTexts(lvItems(t, res)), tt.want)
			if res.IsTruncated {
				t.Errorf("unlimited listing is truncated")
			}
		})
	}
}

func TestListObjectVersionsNullVersionIDMarker(t *testing.T) {
	ts := lvStore(t, "put a", "enable", "put a", "put b")
	lvEqual(t, "all", lvTexts(lvItems(t, ts.lvList(ListVersionsOptions{}))),
		[]string{"a@v00000001*", "a@null", "b@v00000002*"})
	lvEqual(t, "after a@v00000001", lvTexts(lvItems(t, ts.lvList(ListVersionsOptions{KeyMarker: "a", VersionIDMarker: "v00000001"}))),
		[]string{"a@null", "b@v00000002*"})
	lvEqual(t, "after a@null", lvTexts(lvItems(t, ts.lvList(ListVersionsOptions{KeyMarker: "a", VersionIDMarker: "null"}))),
		[]string{"b@v00000002*"})
	res := ts.lvList(ListVersionsOptions{MaxKeys: 2})
	if res.NextKeyMarker != "a" || res.NextVersionIDMarker != "null" {
		t.Errorf("next markers after a@null: got (%q, %q)", res.NextKeyMarker, res.NextVersionIDMarker)
	}
}

func TestListObjectVersionsVersionIDMarkerWithoutKeyMarkerIsInvalidArgument(t *testing.T) {
	ts := lvStore(t, lvMixed...)
	commits := ts.faults.Commits()
	for _, opts := range []ListVersionsOptions{
		{VersionIDMarker: "v00000001"},
		{VersionIDMarker: "null", Prefix: "a"},
		{VersionIDMarker: "v00000001", Delimiter: "/", MaxKeys: 1},
	} {
		_, err := ts.ListObjectVersions(lvBucket, opts)
		e := wantCode(t, err, InvalidArgument)
		if e.ArgumentName != "version-id-marker" || e.ArgumentValue != opts.VersionIDMarker {
			t.Errorf("%+v: argument %q = %q, want version-id-marker = %q", opts, e.ArgumentName, e.ArgumentValue, opts.VersionIDMarker)
		}
		if e.Message != "A version-id marker cannot be specified without a key marker." {
			t.Errorf("message %q", e.Message)
		}
	}
	if ts.faults.Commits() != commits {
		t.Errorf("listing wrote to storage")
	}
}

// LS test_list_object_versions_pagination_common_prefixes, MOTO-T
// test_list_object_versions_with_paging_and_delimiter.
func TestListObjectVersionsPageEndingOnCommonPrefix(t *testing.T) {
	ts := lvStore(t, "enable",
		"put folder/aSubfolder/subFile1", "put folder/aSubfolder/subFile2",
		"put folder/file1", "put folder/file1", "put folder/file2")
	opts := ListVersionsOptions{Prefix: "folder/", Delimiter: "/", MaxKeys: 1}
	p1 := ts.lvList(opts)
	lvEqual(t, "page 1", lvTexts(lvItems(t, p1)), []string{"prefix folder/aSubfolder/"})
	if !p1.IsTruncated || p1.NextKeyMarker != "folder/aSubfolder/" || p1.NextVersionIDMarker != "" {
		t.Fatalf("page 1: truncated %v next (%q, %q); want true (folder/aSubfolder/, \"\")", p1.IsTruncated, p1.NextKeyMarker, p1.NextVersionIDMarker)
	}
	opts.KeyMarker, opts.MaxKeys = p1.NextKeyMarker, 2
	p2 := ts.lvList(opts)
	lvEqual(t, "page 2", lvTexts(lvItems(t, p2)), []string{"folder/file1@v00000004*", "folder/file1@v00000003"})
	if !p2.IsTruncated || p2.NextKeyMarker != "folder/file1" || p2.NextVersionIDMarker != "v00000003" {
		t.Fatalf("page 2: truncated %v next (%q, %q)", p2.IsTruncated, p2.NextKeyMarker, p2.NextVersionIDMarker)
	}
	// A key-marker naming a key inside the prefix skips the whole group too.
	p3 := ts.lvList(ListVersionsOptions{Prefix: "folder/", Delimiter: "/", KeyMarker: "folder/aSubfolder/subFile1"})
	lvEqual(t, "after a key inside the prefix", lvTexts(lvItems(t, p3)),
		[]string{"folder/file1@v00000004*", "folder/file1@v00000003", "folder/file2@v00000005*"})
}

func TestListObjectVersionsMaxKeysZeroIsDefaultNegativeIsUnlimited(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket(lvBucket, Enabled)
	for i := 0; i < DefaultMaxKeys+1; i++ {
		ts.put(lvBucket, fmt.Sprintf("k%04d", i), "x")
	}
	def := ts.lvList(ListVersionsOptions{})
	if len(def.Versions) != DefaultMaxKeys || !def.IsTruncated || def.NextKeyMarker != "k0999" || def.NextVersionIDMarker != "v00001000" {
		t.Errorf("MaxKeys 0: got %d entries, truncated %v, next (%q, %q); want 1000, true, (k0999, v00001000)",
			len(def.Versions), def.IsTruncated, def.NextKeyMarker, def.NextVersionIDMarker)
	}
	rest := ts.lvList(ListVersionsOptions{KeyMarker: def.NextKeyMarker, VersionIDMarker: def.NextVersionIDMarker})
	lvEqual(t, "after the default page", lvTexts(lvItems(t, rest)), []string{"k1000@v00001001*"})
	all := ts.lvList(ListVersionsOptions{MaxKeys: -1})
	if len(all.Versions) != DefaultMaxKeys+1 || all.IsTruncated || all.NextKeyMarker != "" || all.NextVersionIDMarker != "" {
		t.Errorf("MaxKeys -1: got %d entries, truncated %v; want 1001, false", len(all.Versions), all.IsTruncated)
	}
}

// lvFixtures are buckets the paging properties run over.
var lvFixtures = []struct {
	name  string
	steps []string
}{
	{"never versioned", []string{"put test_2", "put test_10", "put test_1", "put a/b", "put a/c/d", "put ab", "put a", "put ab/", "del ab"}},
	{"enabled with markers", append(slices.Clone(lvMixed), "put a", "del c", "put d/1", "put d/2", "del d/2", "put d/3/x", "put e", "del e", "put e")},
	{"suspended null entries", []string{"put a", "enable", "put a", "put b", "suspend", "put a", "del b", "del c", "put d/x", "enable", "put a", "del d/x", "put ab/c"}},
	{"ceph delimiter prefix", []string{"put asdf", "put boo/bar", "put boo/baz/xyzzy", "put cquux/thud", "put cquux/bla"}},
	{"ceph alternative delimiter", []string{"put bar", "put baz", "put cab", "put foo"}},
	{"hidden groups", []string{"enable", "put x/1", "put x/2", "del x/1", "del x/2", "put y", "put z/1", "put z/1", "del z/1 v00000007", "del q", "put x/3", "del x/3"}},
	{"empty bucket", nil},
}

var lvPagingOptions = []struct{ prefix, delimiter string }{
	{"", ""}, {"", "/"}, {"a", ""}, {"a", "/"}, {"boo/", "/"}, {"d/", "/"}, {"x", "/"}, {"", "a"}, {"b", "a"}, {"test_1", ""},
}

func TestListObjectVersionsPagingReproducesFullListing(t *testing.T) {
	for _, fx := range lvFixtures {
		for _, o := range lvPagingOptions {
			t.Run(fmt.Sprintf("%s/prefix %q delimiter %q", fx.name, o.prefix, o.delimiter), func(t *testing.T) {
				ts := lvStore(t, fx.steps...)
				recs, err := ts.Snapshot(lvBucket)
				ts.must(err)
				want := lvModelVersions(recs, o.prefix, o.delimiter)
				full := ts.lvList(ListVersionsOptions{Prefix: o.prefix, Delimiter: o.delimiter, MaxKeys: -1})
				lvEqual(t, "full listing", lvTexts(lvItems(t, full)), want)
				for _, max := range []int{1, 2, 3, 1000} {
					got := lvPageVersions(t, ts, ListVersionsOptions{Prefix: o.prefix, Delimiter: o.delimiter, MaxKeys: max}, len(want))
					lvEqual(t, fmt.Sprintf("pages of %d", max), got, want)
				}
			})
		}
	}
}

// lvPageVersions lists page by page, checking each page's size, truncation
// and Next markers, and returns the concatenated listing.
func lvPageVersions(t *testing.T, ts *testStore, opts ListVersionsOptions, total int) []string {
	t.Helper()
	var all []string
	for page := 0; ; page++ {
		if page > total {
			t.Fatalf("paging with max %d does not end after %d pages", opts.MaxKeys, page)
		}
		res := ts.lvList(opts)
		items := lvItems(t, res)
		if len(items) > opts.MaxKeys {
			t.Fatalf("page %d has %d entries, max %d", page, len(items), opts.MaxKeys)
		}
		all = append(all, lvTexts(items)...)
		if !res.IsTruncated {
			if res.NextKeyMarker != "" || res.NextVersionIDMarker != "" {
				t.Errorf("last page %d has next markers (%q, %q)", page, res.NextKeyMarker, res.NextVersionIDMarker)
			}
			if len(items) == 0 && page > 0 {
				t.Errorf("page %d is empty after a truncated page", page)
			}
			return all
		}
		if len(items) != opts.MaxKeys {
			t.Fatalf("truncated page %d has %d entries, want %d", page, len(items), opts.MaxKeys)
		}
		last := items[len(items)-1]
		if res.NextKeyMarker != last.Key || res.NextVersionIDMarker != last.VersionID {
			t.Fatalf("page %d next markers (%q, %q), want the last entry (%q, %q)", page, res.NextKeyMarker, res.NextVersionIDMarker, last.Key, last.VersionID)
		}
		opts.KeyMarker, opts.VersionIDMarker = res.NextKeyMarker, res.NextVersionIDMarker
	}
}

func TestListingNoSuchBucket(t *testing.T) {
	ts := newTestStore(t)
	_, err := ts.ListObjectVersions("missing", ListVersionsOptions{})
	if e := wantCode(t, err, NoSuchBucket); e.BucketName != "missing" {
		t.Errorf("ListObjectVersions BucketName %q", e.BucketName)
	}
	_, err = ts.ListObjectsV2("missing", ListObjectsOptions{})
	if e := wantCode(t, err, NoSuchBucket); e.BucketName != "missing" {
		t.Errorf("ListObjectsV2 BucketName %q", e.BucketName)
	}
	ts.bucket(lvBucket, Enabled)
	ts.must(ts.DeleteBucket(lvBucket))
	_, err = ts.ListObjectVersions(lvBucket, ListVersionsOptions{})
	wantCode(t, err, NoSuchBucket)
	_, err = ts.ListObjectsV2(lvBucket, ListObjectsOptions{})
	wantCode(t, err, NoSuchBucket)
}

func TestListingWritesNothing(t *testing.T) {
	ts := lvStore(t, lvMixed...)
	commits := ts.faults.Commits()
	ts.faults.FailCommits()
	ts.lvList(ListVersionsOptions{Delimiter: "/", MaxKeys: 2})
	ts.loList(ListObjectsOptions{Delimiter: "/", MaxKeys: 2})
	ts.faults.ClearFaults()
	if ts.faults.Commits() != commits {
		t.Errorf("listings committed %d times", ts.faults.Commits()-commits)
	}
}

// lvHidden is an explicit ListObjectsV2 fixture. Visible (current entry is
// data): a, c (its marker was removed), h/2, p. Hidden: b (marker over
// data), g/1 and g/2 (markers), h/1, m (lone marker), n (suspended null
// marker over a null version).
var lvHidden = []string{
	"enable",
	"put a", "put a",
	"put b", "del b",
	"put c", "del c", "del c v00000006",
	"put g/1", "del g/1", "put g/2", "del g/2",
	"put h/1", "del h/1", "put h/2",
	"del m",
	"suspend",
	"put n", "del n",
	"put p",
}

func TestListObjectsV2ShowsOnlyKeysWhoseCurrentEntryIsData(t *testing.T) {
	tests := []struct {
		name string
		opts ListObjectsOptions
		want []string
	}{
		{"no delimiter", ListObjectsOptions{}, []string{"a", "c", "h/2", "p"}},
		{"prefix of hidden keys", ListObjectsOptions{Prefix: "g/"}, nil},
		{"prefix with one visible key", ListObjectsOptions{Prefix: "h"}, []string{"h/2"}},
		{"common prefix hidden when all its keys are hidden", ListObjectsOptions{Delimiter: "/"}, []string{"a", "c", "prefix h/", "p"}},
		{"hidden key equal to prefix plus delimiter", ListObjectsOptions{Prefix: "g/", Delimiter: "/"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := lvStore(t, lvHidden...)
			res := ts.loList(tt.opts)
			lvEqual(t, "objects", lvTexts(loItems(t, res)), tt.want)
			if res.KeyCount != len(tt.want) || res.IsTruncated || res.NextContinuationToken != "" {
				t.Errorf("KeyCount %d truncated %v token %q; want %d, false, none", res.KeyCount, res.IsTruncated, res.NextContinuationToken, len(tt.want))
			}
		})
	}
}

func TestListObjectsV2EntryIsTheCurrentVersion(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket(lvBucket, Enabled)
	ts.at(10).put(lvBucket, "k", "hello")
	ts.at(20).put(lvBucket, "k", "test")
	ts.at(30).put(lvBucket, "j", "x")
	ts.at(40).del(lvBucket, "j", "")
	res := ts.loList(ListObjectsOptions{})
	want := []ObjectEntry{{Key: "k", VersionID: "v00000002", ETag: "098f6bcd4621d373cade4e832627b4f6", Size: 4, CreatedAt: 20}}
	if !slices.Equal(res.Objects, want) || res.CommonPrefixes != nil || res.KeyCount != 1 {
		t.Errorf("got %+v, want objects %+v and KeyCount 1", res, want)
	}
}

func TestListObjectsV2KeyCountCountsObjectsAndPrefixes(t *testing.T) {
	ts := lvStore(t, "put a", "put b/1", "put b/2", "put c/1", "put d")
	tests := []struct {
		opts      ListObjectsOptions
		objects   int
		prefixes  int
		truncated bool
	}{
		{ListObjectsOptions{}, 5, 0, false},
		{ListObjectsOptions{Delimiter: "/"}, 2, 2, false},
		{ListObjectsOptions{Delimiter: "/", MaxKeys: 3}, 1, 2, true},
		{ListObjectsOptions{Delimiter: "/", MaxKeys: 4}, 2, 2, false},
		{ListObjectsOptions{Prefix: "b/", Delimiter: "/"}, 2, 0, false},
	}
	for _, tt := range tests {
		res := ts.loList(tt.opts)
		if len(res.Objects) != tt.objects || len(res.CommonPrefixes) != tt.prefixes || res.KeyCount != tt.objects+tt.prefixes || res.IsTruncated != tt.truncated {
			t.Errorf("%+v: got %d objects, %d prefixes, KeyCount %d, truncated %v; want %d, %d, %d, %v", tt.opts,
				len(res.Objects), len(res.CommonPrefixes), res.KeyCount, res.IsTruncated, tt.objects, tt.prefixes, tt.objects+tt.prefixes, tt.truncated)
		}
	}
}

func TestListObjectsV2StartAfterIsStrictlyGreater(t *testing.T) {
	tests := []struct {
		opts ListObjectsOptions
		want []string
	}{
		{ListObjectsOptions{StartAfter: ""}, []string{"a", "c", "h/2", "p"}},
		{ListObjectsOptions{StartAfter: "0"}, []string{"a", "c", "h/2", "p"}},
		{ListObjectsOptions{StartAfter: "a"}, []string{"c", "h/2", "p"}},
		{ListObjectsOptions{StartAfter: "b"}, []string{"c", "h/2", "p"}},  // a hidden key
		{ListObjectsOptions{StartAfter: "bb"}, []string{"c", "h/2", "p"}}, // no such key
		{ListObjectsOptions{StartAfter: "h/"}, []string{"h/2", "p"}},
		{ListObjectsOptions{StartAfter: "h/2"}, []string{"p"}},
		{ListObjectsOptions{StartAfter: "p"}, nil},
		{ListObjectsOptions{StartAfter: "zzz"}, nil},
		{ListObjectsOptions{StartAfter: "h", Delimiter: "/"}, []string{"prefix h/", "p"}},
		{ListObjectsOptions{StartAfter: "h/", Delimiter: "/"}, []string{"p"}},
		// As for ListObjectVersions' key-marker (§2.1): a marker inside a
		// common prefix skips the group.
		{ListObjectsOptions{StartAfter: "h/1", Delimiter: "/"}, []string{"p"}},
		{ListObjectsOptions{StartAfter: "a", Prefix: "h/"}, []string{"h/2"}},
		{ListObjectsOptions{StartAfter: "h/2", Prefix: "h/"}, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v", tt.opts), func(t *testing.T) {
			ts := lvStore(t, lvHidden...)
			res := ts.loList(tt.opts)
			lvEqual(t, "objects", lvTexts(loItems(t, res)), tt.want)
			if res.IsTruncated || res.NextContinuationToken != "" || res.KeyCount != len(tt.want) {
				t.Errorf("truncated %v token %q KeyCount %d", res.IsTruncated, res.NextContinuationToken, res.KeyCount)
			}
		})
	}
}

func TestListObjectsV2ContinuationTokenOverridesStartAfter(t *testing.T) {
	ts := lvStore(t, lvHidden...)
	p1 := ts.loList(ListObjectsOptions{MaxKeys: 2, StartAfter: "0"})
	lvEqual(t, "page 1", lvTexts(loItems(t, p1)), []string{"a", "c"})
	if !p1.IsTruncated || p1.NextContinuationToken == "" {
		t.Fatalf("page 1: truncated %v token %q", p1.IsTruncated, p1.NextContinuationToken)
	}
	for _, startAfter := range []string{"", "0", "a", "h/2", "p", "zzz"} {
		res := ts.loList(ListObjectsOptions{ContinuationToken: p1.NextContinuationToken, StartAfter: startAfter})
		lvEqual(t, "start-after "+startAfter, lvTexts(loItems(t, res)), []string{"h/2", "p"})
	}
}

func TestListObjectsV2BadContinuationTokenIsInvalidArgument(t *testing.T) {
	ts := lvStore(t, lvHidden...)
	for _, token := range []string{"!!!", "not a token", "@@@@", "a", "YQ==", "YWJjZA==", "YWJjZGVm!"} {
		_, err := ts.ListObjectsV2(lvBucket, ListObjectsOptions{ContinuationToken: token})
		e := wantCode(t, err, InvalidArgument)
		if e.ArgumentName != "continuation-token" || e.ArgumentValue != token {
			t.Errorf("token %q: argument %q = %q", token, e.ArgumentName, e.ArgumentValue)
		}
	}
}

// CEPH test_bucket_listv2_delimiter_prefix.
func TestListObjectsV2CephDelimiterPagination(t *testing.T) {
	ts := lvStore(t, "put asdf", "put boo/bar", "put boo/baz/xyzzy", "put cquux/thud", "put cquux/bla")
	opts := ListObjectsOptions{Delimiter: "/", MaxKeys: 1}
	want := []struct {
		items     []string
		truncated bool
	}{
		{[]string{"asdf"}, true},
		{[]string{"prefix boo/"}, true},
		{[]string{"prefix cquux/"}, false},
	}
	for i, w := range want {
		res := ts.loList(opts)
		lvEqual(t, fmt.Sprintf("page %d", i+1), lvTexts(loItems(t, res)), w.items)
		if res.IsTruncated != w.truncated || res.KeyCount != 1 || (res.NextContinuationToken != "") != w.truncated {
			t.Fatalf("page %d: truncated %v KeyCount %d token %q; want truncated %v", i+1, res.IsTruncated, res.KeyCount, res.NextContinuationToken, w.truncated)
		}
		opts.ContinuationToken = res.NextContinuationToken
	}
}

func TestListObjectsV2PrefixAndDelimiter(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
		opts  ListObjectsOptions
		want  []string
	}{
		{"keys in byte order", []string{"put test_2", "put test_10", "put test_1"}, ListObjectsOptions{},
			[]string{"test_1", "test_10", "test_2"}},
		// CEPH test_bucket_list_delimiter_alt.
		{"delimiter a", []string{"put bar", "put baz", "put cab", "put foo"}, ListObjectsOptions{Delimiter: "a"},
			[]string{"prefix ba", "prefix ca", "foo"}},
		{"delimiter a with prefix b", []string{"put bar", "put baz", "put cab", "put foo"}, ListObjectsOptions{Prefix: "b", Delimiter: "a"},
			[]string{"prefix ba"}},
		{"delimiter a with prefix ba", []string{"put bar", "put baz", "put baza", "put cab"}, ListObjectsOptions{Prefix: "ba", Delimiter: "a"},
			[]string{"bar", "baz", "prefix baza"}},
		// CEPH test_bucket_listv2_delimiter_prefix_ends_with_delimiter.
		{"key equal to prefix plus delimiter", []string{"put asdf/", "put asdf/x", "put asdf/y/z"}, ListObjectsOptions{Prefix: "asdf/", Delimiter: "/"},
			[]string{"asdf/", "asdf/x", "prefix asdf/y/"}},
		{"prefix", []string{"put asdf", "put boo/bar", "put boo/baz/xyzzy", "put cquux/thud"}, ListObjectsOptions{Prefix: "boo/"},
			[]string{"boo/bar", "boo/baz/xyzzy"}},
		{"prefix and delimiter", []string{"put asdf", "put boo/bar", "put boo/baz/xyzzy", "put cquux/thud"}, ListObjectsOptions{Prefix: "boo/", Delimiter: "/"},
			[]string{"boo/bar", "prefix boo/baz/"}},
		{"multi-character delimiter", []string{"put a--b--c", "put a--d", "put a-e", "put f"}, ListObjectsOptions{Delimiter: "--"},
			[]string{"prefix a--", "a-e", "f"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := lvStore(t, tt.steps...)
			res := ts.loList(tt.opts)
			lvEqual(t, "objects", lvTexts(loItems(t, res)), tt.want)
			if res.KeyCount != len(tt.want) || res.IsTruncated {
				t.Errorf("KeyCount %d truncated %v", res.KeyCount, res.IsTruncated)
			}
		})
	}
}

func TestListObjectsV2MaxKeysZeroIsDefaultNegativeIsUnlimited(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket(lvBucket, Unversioned)
	for i := 0; i < DefaultMaxKeys+1; i++ {
		ts.put(lvBucket, fmt.Sprintf("k%04d", i), "x")
	}
	def := ts.loList(ListObjectsOptions{})
	if len(def.Objects) != DefaultMaxKeys || def.KeyCount != DefaultMaxKeys || !def.IsTruncated || def.NextContinuationToken == "" {
		t.Errorf("MaxKeys 0: got %d objects, KeyCount %d, truncated %v", len(def.Objects), def.KeyCount, def.IsTruncated)
	}
	rest := ts.loList(ListObjectsOptions{ContinuationToken: def.NextContinuationToken})
	lvEqual(t, "after the default page", lvTexts(loItems(t, rest)), []string{"k1000"})
	all := ts.loList(ListObjectsOptions{MaxKeys: -1})
	if len(all.Objects) != DefaultMaxKeys+1 || all.IsTruncated || all.NextContinuationToken != "" {
		t.Errorf("MaxKeys -1: got %d objects, truncated %v", len(all.Objects), all.IsTruncated)
	}
}

func TestListObjectsV2PagingReproducesFullListing(t *testing.T) {
	fixtures := append(slices.Clone(lvFixtures), struct {
		name  string
		steps []string
	}{"hidden keys", lvHidden})
	for _, fx := range fixtures {
		for _, o := range lvPagingOptions {
			t.Run(fmt.Sprintf("%s/prefix %q delimiter %q", fx.name, o.prefix, o.delimiter), func(t *testing.T) {
				ts := lvStore(t, fx.steps...)
				recs, err := ts.Snapshot(lvBucket)
				ts.must(err)
				want := lvModelObjects(recs, o.prefix, o.delimiter)
				full := ts.loList(ListObjectsOptions{Prefix: o.prefix, Delimiter: o.delimiter, MaxKeys: -1})
				lvEqual(t, "full listing", lvTexts(loItems(t, full)), want)
				for _, max := range []int{1, 2, 3, 1000} {
					got := lvPageObjects(t, ts, ListObjectsOptions{Prefix: o.prefix, Delimiter: o.delimiter, MaxKeys: max}, len(want))
					lvEqual(t, fmt.Sprintf("pages of %d", max), got, want)
				}
			})
		}
	}
}

func lvPageObjects(t *testing.T, ts *testStore, opts ListObjectsOptions, total int) []string {
	t.Helper()
	var all []string
	for page := 0; ; page++ {
		if page > total {
			t.Fatalf("paging with max %d does not end after %d pages", opts.MaxKeys, page)
		}
		res := ts.loList(opts)
		items := loItems(t, res)
		if res.KeyCount != len(items) || len(items) > opts.MaxKeys {
			t.Fatalf("page %d: KeyCount %d, %d entries, max %d", page, res.KeyCount, len(items), opts.MaxKeys)
		}
		all = append(all, lvTexts(items)...)
		if !res.IsTruncated {
			if res.NextContinuationToken != "" {
				t.Errorf("last page %d has a continuation token", page)
			}
			if len(items) == 0 && page > 0 {
				t.Errorf("page %d is empty after a truncated page", page)
			}
			return all
		}
		if len(items) != opts.MaxKeys || res.NextContinuationToken == "" {
			t.Fatalf("truncated page %d has %d entries (want %d), token %q", page, len(items), opts.MaxKeys, res.NextContinuationToken)
		}
		// The token must win over a start-after that would restart the
		// listing from the top.
		opts.ContinuationToken, opts.StartAfter = res.NextContinuationToken, "!"
	}
}

// Listing while other goroutines write: every page is consistent (the race
// detector checks the key index), and once the writers stop, paging
// reproduces the model listing.
func TestListingConcurrentWithWrites(t *testing.T) {
	ts := lvStore(t, "enable")
	const writers, each = 4, 25
	done := make(chan struct{})
	errs := make(chan error, writers*each*2+1)
	for w := 0; w < writers; w++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < each; i++ {
				key := fmt.Sprintf("d%d/k%02d", w, i)
				if _, err := ts.PutObject(lvBucket, key, []byte(key), PutOptions{}); err != nil {
					errs <- err
				}
				if i%3 == 0 {
					if _, err := ts.DeleteObject(lvBucket, key, DeleteOptions{}); err != nil {
						errs <- err
					}
				}
			}
		}()
	}
	go func() {
		defer func() { done <- struct{}{} }()
		for i := 0; i < 50; i++ {
			opts := ListVersionsOptions{MaxKeys: 7}
			if i%2 == 0 {
				opts.Delimiter = "/"
			}
			if _, err := ts.ListObjectVersions(lvBucket, opts); err != nil {
				errs <- err
			}
			if _, err := ts.ListObjectsV2(lvBucket, ListObjectsOptions{MaxKeys: 5, Delimiter: opts.Delimiter}); err != nil {
				errs <- err
			}
		}
	}()
	for i := 0; i < writers+1; i++ {
		<-done
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	recs, err := ts.Snapshot(lvBucket)
	ts.must(err)
	if len(recs) != writers*each {
		t.Fatalf("%d keys, want %d", len(recs), writers*each)
	}
	want := lvModelVersions(recs, "", "")
	lvEqual(t, "versions", lvPageVersions(t, ts, ListVersionsOptions{MaxKeys: 3}, len(want)), want)
	wantObjects := lvModelObjects(recs, "", "/")
	lvEqual(t, "objects", lvPageObjects(t, ts, ListObjectsOptions{MaxKeys: 1, Delimiter: "/"}, len(wantObjects)), wantObjects)
}

// A client emptying a bucket deletes each page's versions before it asks
// for the next page, so the version-id-marker it sends may name a version
// that is gone. The next page still starts strictly after the marker's
// place in the listing order (§2.1; AWS does so, as recorded for
// LocalStack's fix localstack/localstack#12259), instead of skipping the
// rest of the key. MiniS3's version IDs count up in creation order, so a
// deleted version's place is known.
func TestListObjectVersionsResumesAfterADeletedVersionIDMarker(t *testing.T) {
	tests := []struct {
		name    string
		steps   []string
		max     int
		deleted []string // versions of a deleted after the first page
		want    []string // the second page
	}{
		{"client deletes the whole page",
			[]string{"enable", "put a", "put a", "put a", "put a", "put b"}, 2,
			[]string{"v00000004", "v00000003"},
			[]string{"a@v00000002*", "a@v00000001", "b@v00000005*"}},
		{"client deletes only the marker version",
			[]string{"enable", "put a", "put a", "put a", "put a", "put b"}, 2,
			[]string{"v00000003"},
			[]string{"a@v00000002", "a@v00000001", "b@v00000005*"}},
		{"marker was a delete marker",
			[]string{"enable", "put a", "del a", "put a", "del a", "put b"}, 1,
			[]string{"v00000004"},
			[]string{"a@v00000003*", "a@v00000002:dm", "a@v00000001", "b@v00000005*"}},
		{"null version older than the deleted marker",
			[]string{"enable", "put a", "suspend", "put a", "enable", "put a", "put a", "put b"}, 2,
			[]string{"v00000002"},
			[]string{"a@null", "a@v00000001", "b@v00000004*"}},
		{"marker was the key's last version",
			[]string{"enable", "put a", "put a", "put b"}, 2,
			[]string{"v00000001"},
			[]string{"b@v00000003*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := lvStore(t, tt.steps...)
			p1 := ts.lvList(ListVersionsOptions{MaxKeys: tt.max})
			if !p1.IsTruncated || p1.NextKeyMarker != "a" {
				t.Fatalf("page 1 ends at (%q, %q), truncated %v", p1.NextKeyMarker, p1.NextVersionIDMarker, p1.IsTruncated)
			}
			for _, id := range tt.deleted {
				ts.del(lvBucket, "a", id)
			}
			p2 := ts.lvList(ListVersionsOptions{KeyMarker: p1.NextKeyMarker, VersionIDMarker: p1.NextVersionIDMarker})
			lvEqual(t, "page 2", lvTexts(lvItems(t, p2)), tt.want)
		})
	}
}
