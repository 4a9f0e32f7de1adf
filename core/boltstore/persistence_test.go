package boltstore

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"minis3/core"
)

// scenario drives a store through the public API into a state with every
// kind of item: three buckets in the three versioning states, version
// stacks with delete markers and null entries, a completed and an
// in-progress multipart upload, an aborted upload, a version deleted by ID
// after it was the newest, lifecycle configurations, bucket tags and a
// moved clock.
type scenario struct {
	t *testing.T
	s *core.Store
}

func (sc scenario) must(err error) {
	sc.t.Helper()
	if err != nil {
		sc.t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }

func (sc scenario) at(now float64) {
	sc.t.Helper()
	_, err := sc.s.SetClock(now)
	sc.must(err)
}

func (sc scenario) put(bucket, key, body string, meta core.ObjectMeta) core.PutResult {
	sc.t.Helper()
	res, err := sc.s.PutObject(bucket, key, []byte(body), core.PutOptions{Meta: meta})
	sc.must(err)
	return res
}

func (sc scenario) del(bucket, key, versionID string) core.DeleteResult {
	sc.t.Helper()
	res, err := sc.s.DeleteObject(bucket, key, core.DeleteOptions{VersionID: versionID})
	sc.must(err)
	return res
}

func (sc scenario) part(bucket, key, uploadID string, n int, body string) {
	sc.t.Helper()
	_, err := sc.s.UploadPart(bucket, key, uploadID, n, []byte(body))
	sc.must(err)
}

func (sc scenario) upload(bucket, key string) string {
	sc.t.Helper()
	u, err := sc.s.CreateMultipartUpload(bucket, key, core.PutOptions{})
	sc.must(err)
	return u.UploadID
}

// The scenario's fixed facts.
const (
	clockAtClose = 60000.0
	agingStart   = 10000.0 // "aging/old/a" is created here
	day          = float64(core.SecondsPerDay)
)

// bucketTags are the tags fill gives the bucket "versioned".
var bucketTags = []core.Tag{{Key: "team", Value: "blue"}, {Key: "cost centre", Value: ""}}

var docMeta = core.ObjectMeta{ContentType: "text/plain", CacheControl: "no-cache", User: map[string]string{"author": "ada"}}

// completedParts are the parts of versioned/multi, completed by fill.
var completedParts = []core.CompletedPart{
	{PartNumber: 1, ETag: md5hex("hello ")},
	{PartNumber: 2, ETag: md5hex("world")},
}

func (sc scenario) fill() {
	sc.t.Helper()
	s := sc.s
	sc.at(1000)
	sc.must(s.CreateBucket("versioned"))
	sc.must(s.SetBucketVersioning("versioned", core.Enabled))
	sc.put("versioned", "doc", "one", docMeta) // v00000001
	sc.at(2000)
	sc.put("versioned", "doc", "two", core.ObjectMeta{}) // v00000002
	sc.del("versioned", "doc", "")                       // marker v00000003
	sc.put("versioned", "bin", "\x00\xff\x00binary", core.ObjectMeta{})
	sc.put("versioned", "empty", "", core.ObjectMeta{}) // v00000005

	sc.at(3000)
	multi := sc.upload("versioned", "multi") // u00000001
	sc.part("versioned", "multi", multi, 1, "hello ")
	sc.part("versioned", "multi", multi, 2, "world")
	_, err := s.CompleteMultipartUpload("versioned", "multi", multi, completedParts) // v00000006
	sc.must(err)
	newest := sc.put("versioned", "newest", "x", core.ObjectMeta{})
	sc.del("versioned", "newest", newest.VersionID) // v00000007, the newest, is gone for good

	pending := sc.upload("versioned", "pending") // u00000002
	sc.part("versioned", "pending", pending, 1, "part-one")
	sc.at(3500)
	sc.part("versioned", "pending", pending, 2, "p2")
	aborted := sc.upload("versioned", "aborted") // u00000003, the newest
	sc.part("versioned", "aborted", aborted, 1, "gone")
	sc.must(s.AbortMultipartUpload("versioned", "aborted", aborted))
	sc.must(s.PutBucketLifecycle("versioned", fillLifecycle()))
	sc.must(s.PutBucketTagging("versioned", bucketTags))

	sc.at(4000)
	sc.must(s.CreateBucket("suspended"))
	sc.put("suspended", "k", "unversioned null", core.ObjectMeta{})
	sc.must(s.SetBucketVersioning("suspended", core.Enabled))
	sc.put("suspended", "k", "enabled", core.ObjectMeta{}) // v00000001
	sc.must(s.SetBucketVersioning("suspended", core.Suspended))
	sc.at(4100)
	sc.put("suspended", "k", "suspended null", core.ObjectMeta{}) // replaces the first null
	sc.put("suspended", "m", "data", core.ObjectMeta{StorageClass: "STANDARD_IA", Tags: []core.Tag{{Key: "team", Value: "blue"}}})
	sc.del("suspended", "m", "") // a null delete marker replaces the null version

	sc.at(agingStart)
	sc.must(s.CreateBucket("aging"))
	sc.put("aging", "old/a", "old", core.ObjectMeta{})
	sc.at(agingStart + 40000)
	sc.put("aging", "new/b", "new", core.ObjectMeta{})
	sc.at(clockAtClose)
}

// fillLifecycle is the configuration fill stores on "versioned": every
// part of a configuration, to be read back whole after a reopen.
func fillLifecycle() core.LifecycleConfiguration {
	return core.LifecycleConfiguration{Rules: []core.LifecycleRule{

		{
			ID: "logs", Enabled: true, Filter: &core.LifecycleFilter{And: &core.LifecycleAnd{
				Prefix: ptr("logs/"), Tags: []core.Tag{{Key: "keep", Value: "no"}}, ObjectSizeGreaterThan: ptr(int64(10)),
			}},
			Expiration:                  &core.LifecycleExpiration{Days: ptr(30)},
			NoncurrentVersionExpiration: &core.NoncurrentVersionExpiration{NoncurrentDays: ptr(7), NewerNoncurrentVersions: ptr(2)},
			Transitions:                 []core.LifecycleTransition{{Days: ptr(0), StorageClass: "GLACIER"}},
		},
		{
			ID: "dated", Filter: &core.LifecycleFilter{},
			Expiration:  &core.LifecycleExpiration{Date: ptr(float64(1767225600 + 86400))},
			Transitions: []core.LifecycleTransition{{Date: ptr(float64(1767225600)), StorageClass: "GLACIER"}},
		},
		{
			Filter:                         &core.LifecycleFilter{Prefix: ptr("tmp/")},
			Expiration:                     &core.LifecycleExpiration{ExpiredObjectDeleteMarker: ptr(true)},
			AbortIncompleteMultipartUpload: &core.AbortIncompleteMultipartUpload{DaysAfterInitiation: 3},
		},
	}}
}

// fillAndReopen fills a store in a new directory, closes it and opens it
// again from disk. It returns the reopened store and the dump of the store
// before it was closed.
func fillAndReopen(t *testing.T) (*core.Store, storeDump) {
	dir := t.TempDir()
	s, _ := openStore(t, dir)
	scenario{t, s}.fill()
	before := dump(t, s)
	closeStore(t, s)
	s, _ = openStore(t, dir)
	if err := s.Check(); err != nil {
		t.Fatalf("store invariants after reopen: %v", err)
	}
	return s, before
}

func TestReopenRestoresTheStore(t *testing.T) {
	s, before := fillAndReopen(t)
	sameDump(t, "after reopen", dump(t, s), before)
}

func TestReopenRestoresTheScenario(t *testing.T) {
	s, _ := fillAndReopen(t)
	if got := s.Now(); got != clockAtClose {
		t.Errorf("clock after reopen = %v, want %v", got, clockAtClose)
	}

	wantBuckets := []core.BucketInfo{
		{Name: "aging", CreatedAt: agingStart, Versioning: core.Unversioned},
		{Name: "suspended", CreatedAt: 4000, Versioning: core.Suspended},
		{Name: "versioned", CreatedAt: 1000, Versioning: core.Enabled},
	}
	if got := s.ListBuckets(); !reflect.DeepEqual(got, wantBuckets) {
		t.Errorf("ListBuckets after reopen =\n%+v\nwant\n%+v", got, wantBuckets)
	}

	type version struct {
		id     string
		marker bool
		latest bool
		at     float64
		body   string // data versions only
		etag   string // "" means md5hex(body)
	}
	tests := []struct {
		bucket, key string
		versions    []version
	}{
		{"aging", "new/b", []version{{id: "null", latest: true, at: agingStart + 40000, body: "new"}}},
		{"aging", "old/a", []version{{id: "null", latest: true, at: agingStart, body: "old"}}},
		{"suspended", "k", []version{
			{id: "null", latest: true, at: 4100, body: "suspended null"},
			{id: "v00000001", at: 4000, body: "enabled"},
		}},
		{"suspended", "m", []version{{id: "null", marker: true, latest: true, at: 4100}}},
		{"versioned", "bin", []version{{id: "v00000004", latest: true, at: 2000, body: "\x00\xff\x00binary"}}},
		{"versioned", "doc", []version{
			{id: "v00000003", marker: true, latest: true, at: 2000},
			{id: "v00000002", at: 2000, body: "two"},
			{id: "v00000001", at: 1000, body: "one"},
		}},
		{"versioned", "empty", []version{{id: "v00000005", latest: true, at: 2000, body: ""}}},
		{"versioned", "multi", []version{{id: "v00000006", latest: true, at: 3000, body: "hello world",
			etag: multipartETag("hello ", "world")}}},
	}
	listed := make(map[string][]core.VersionEntry)
	for _, b := range wantBuckets {
		list, err := s.ListObjectVersions(b.Name, core.ListVersionsOptions{MaxKeys: -1})
		if err != nil {
			t.Fatal(err)
		}
		listed[b.Name] = list.Versions
	}
	wantListed := make(map[string][]core.VersionEntry)
	for _, tt := range tests {
		for _, v := range tt.versions {
			e := core.VersionEntry{Key: tt.key, VersionID: v.id, IsLatest: v.latest, IsDeleteMarker: v.marker, CreatedAt: v.at}
			if !v.marker {
				e.ETag, e.Size = v.etag, int64(len(v.body))
				if e.ETag == "" {
					e.ETag = md5hex(v.body)
				}
			}
			wantListed[tt.bucket] = append(wantListed[tt.bucket], e)
		}
	}
	for _, b := range wantBuckets {
		if got, want := listed[b.Name], wantListed[b.Name]; !reflect.DeepEqual(got, want) {
			t.Errorf("ListObjectVersions(%s) after reopen =\n%+v\nwant\n%+v", b.Name, got, want)
		}
	}

	for _, tt := range tests {
		for _, v := range tt.versions {
			if v.marker {
				continue
			}
			obj, err := s.GetObject(tt.bucket, tt.key, core.GetOptions{VersionID: v.id})
			switch {
			case err != nil:
				t.Errorf("GetObject(%s, %s, %s) after reopen: %v", tt.bucket, tt.key, v.id, err)
			case obj.Body == nil || string(obj.Body) != v.body:
				t.Errorf("GetObject(%s, %s, %s) body after reopen = %q, want %q", tt.bucket, tt.key, v.id, obj.Body, v.body)
			}
		}
	}
	first, err := s.GetObject("versioned", "doc", core.GetOptions{VersionID: "v00000001"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first.Version.Meta, docMeta) {
		t.Errorf("metadata of versioned/doc v00000001 after reopen = %+v, want %+v", first.Version.Meta, docMeta)
	}
	multi, err := s.HeadObject("versioned", "multi", core.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if multi.Version.Parts != 2 {
		t.Errorf("versioned/multi has %d parts after reopen, want 2", multi.Version.Parts)
	}

	want := fillLifecycle()
	want.Rules[2].ID = "rule-1" // the ID PutBucketLifecycle gave it
	if cfg, err := s.BucketLifecycle("versioned"); err != nil || !reflect.DeepEqual(cfg, want) {
		t.Errorf("BucketLifecycle(versioned) after reopen = %+v, %v; want %+v", cfg, err, want)
	}
	if _, err := s.BucketLifecycle("suspended"); !errors.Is(err, core.NoSuchLifecycleConfiguration) {
		t.Errorf("BucketLifecycle(suspended) after reopen: %v, want NoSuchLifecycleConfiguration", err)
	}
}

func TestReopenKeepsUploadsInProgress(t *testing.T) {
	s, _ := fillAndReopen(t)
	uploads, err := s.ListMultipartUploads("versioned", core.ListUploadsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantUploads := []core.UploadInfo{{Key: "pending", UploadID: "u00000002", Initiated: 3000}}
	if !reflect.DeepEqual(uploads.Uploads, wantUploads) {
		t.Errorf("uploads in progress after reopen = %+v, want %+v", uploads.Uploads, wantUploads)
	}
	parts, err := s.ListParts("versioned", "pending", "u00000002", core.ListPartsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantParts := []core.PartInfo{
		{PartNumber: 1, ETag: md5hex("part-one"), Size: 8, CreatedAt: 3000},
		{PartNumber: 2, ETag: md5hex("p2"), Size: 2, CreatedAt: 3500},
	}
	if !reflect.DeepEqual(parts.Parts, wantParts) {
		t.Errorf("ListParts(u00000002) after reopen = %+v, want %+v", parts.Parts, wantParts)
	}
	for _, id := range []string{"u00000001", "u00000003"} {
		if _, err := s.ListParts("versioned", "multi", id, core.ListPartsOptions{}); !errors.Is(err, core.NoSuchUpload) {
			t.Errorf("ListParts(%s) after reopen: %v, want NoSuchUpload", id, err)
		}
	}

	// The parts' bodies were kept: completing after reopen joins them.
	res, err := s.CompleteMultipartUpload("versioned", "pending", "u00000002", []core.CompletedPart{
		{PartNumber: 1, ETag: md5hex("part-one")}, {PartNumber: 2, ETag: `"` + md5hex("p2") + `"`},
	})
	if err != nil {
		t.Fatalf("completing u00000002 after reopen: %v", err)
	}
	want := core.PutResult{VersionID: "v00000008", ETag: multipartETag("part-one", "p2"), Size: 10, CreatedAt: clockAtClose}
	if res != want {
		t.Errorf("completing u00000002 after reopen = %+v, want %+v", res, want)
	}
	obj, err := s.GetObject("versioned", "pending", core.GetOptions{})
	if err != nil || string(obj.Body) != "part-onep2" {
		t.Errorf("GET versioned/pending = %v; want body %q", err, "part-onep2")
	}

	// Repeating the completion done before the reopen answers as then.
	again, err := s.CompleteMultipartUpload("versioned", "multi", "u00000001", completedParts)
	wantAgain := core.PutResult{VersionID: "v00000006", ETag: multipartETag("hello ", "world"), Size: 11, CreatedAt: 3000}
	if err != nil || again != wantAgain {
		t.Errorf("repeating the completion of u00000001 after reopen = %+v, %v; want %+v", again, err, wantAgain)
	}
}

func TestReopenContinuesCounters(t *testing.T) {
	s, _ := fillAndReopen(t)
	sc := scenario{t, s}
	tests := []struct {
		name string
		do   func() string
		want string
	}{
		// v00000007 was the newest version when it was deleted by ID.
		{"PUT in the enabled bucket", func() string { return sc.put("versioned", "doc", "three", core.ObjectMeta{}).VersionID }, "v00000008"},
		{"DELETE in the enabled bucket", func() string { return sc.del("versioned", "bin", "").VersionID }, "v00000009"},
		// u00000003 was the newest upload when it was aborted.
		{"CreateMultipartUpload", func() string { return sc.upload("versioned", "next") }, "u00000004"},
		{"PUT in the suspended bucket", func() string { return sc.put("suspended", "k", "null again", core.ObjectMeta{}).VersionID }, "null"},
		{"PUT after enabling the suspended bucket again", func() string {
			sc.must(s.SetBucketVersioning("suspended", core.Enabled))
			return sc.put("suspended", "k", "v2", core.ObjectMeta{}).VersionID
		}, "v00000002"},
		{"CreateMultipartUpload in another bucket", func() string { return sc.upload("suspended", "up") }, "u00000001"},
	}
	for _, tt := range tests {
		if got := tt.do(); got != tt.want {
			t.Errorf("%s after reopen: got ID %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestReopenKeepsAges(t *testing.T) {
	s, _ := fillAndReopen(t)
	rules := []core.ExpirationRule{{ID: "one-day", ExpireCurrentAfter: core.Seconds(day)}}
	tests := []struct {
		name string
		now  float64
		want []core.LifecycleAction
	}{
		// One second short of a day after "old/a" was created: neither
		// object is old enough, though both are older than the reopen.
		{"a day less a second after creation", agingStart + day - 1, nil},
		{"a day after creation", agingStart + day, []core.LifecycleAction{
			{RuleID: "one-day", Key: "old/a", VersionID: "null", Kind: core.ExpireCurrent},
		}},
		{"a day after the newer object's creation", agingStart + 40000 + day, []core.LifecycleAction{
			{RuleID: "one-day", Key: "new/b", VersionID: "null", Kind: core.ExpireCurrent},
		}},
	}
	for _, tt := range tests {
		if _, err := s.SetClock(tt.now); err != nil {
			t.Fatal(err)
		}
		got, err := s.LifecycleTick("aging", rules)
		if err != nil {
			t.Fatalf("LifecycleTick at %v: %v", tt.now, err)
		}
		if len(got) != len(tt.want) || len(got) > 0 && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("LifecycleTick %s (%v) = %+v, want %+v", tt.name, tt.now, got, tt.want)
		}
	}
	list, err := s.ListObjectVersions("aging", core.ListVersionsOptions{})
	if err != nil || len(list.Versions) != 0 {
		t.Errorf("aging after the ticks = %+v, %v; want empty", list.Versions, err)
	}
}

// The manual clock's origin, the Unix time of its 0, is kept with the
// store: a reopen has the same origin whatever Options.Origin says, so
// Last-Modified (origin plus creation) reads the same, and S3's lifecycle
// runs at the same midnights.
func TestReopenKeepsTheClocksOrigin(t *testing.T) {
	dir := t.TempDir()
	origin := float64(time.Date(2014, 1, 15, 10, 30, 0, 0, time.UTC).Unix())
	open := func(opts core.Options) *core.Store {
		t.Helper()
		bolt, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		s, err := core.Open(bolt, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	s := open(core.Options{ManualClock: true, Origin: origin})
	sc := scenario{t, s}
	sc.at(90)
	sc.must(s.CreateBucket("demo"))
	sc.must(s.PutBucketLifecycle("demo", core.LifecycleConfiguration{Rules: []core.LifecycleRule{{
		ID: "r", Enabled: true, Filter: &core.LifecycleFilter{}, Expiration: &core.LifecycleExpiration{Days: ptr(1)},
	}}}))
	sc.put("demo", "k", "x", core.ObjectMeta{})
	closeStore(t, s)

	r := open(core.Options{ManualClock: true, Origin: origin + 1e6})
	if r.Origin() != origin || r.Now() != 90 {
		t.Fatalf("after a reopen the origin is %v and the clock %v, want %v and 90", r.Origin(), r.Now(), origin)
	}
	obj, err := r.HeadObject("demo", "k", core.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := time.Unix(int64(r.Origin()+obj.Version.CreatedAt), 0).UTC().Format(time.RFC3339); got != "2014-01-15T10:31:30Z" {
		t.Errorf("Last-Modified after a reopen = %s, want 2014-01-15T10:31:30Z", got)
	}
	// Created Jan 15 with Expiration Days 1: due at the run of Jan 17.
	for _, step := range []struct {
		at   time.Time
		runs int
	}{
		{time.Date(2014, 1, 16, 23, 59, 59, 0, time.UTC), 0},
		{time.Date(2014, 1, 17, 0, 0, 0, 0, time.UTC), 1},
	} {
		runs, err := r.SetClock(float64(step.at.Unix()) - r.Origin())
		if err != nil || len(runs) != step.runs {
			t.Errorf("SetClock to %s after a reopen ran %+v, %v; want %d runs", step.at, runs, err, step.runs)
		}
	}
}

// A bucket's tags are on disk: a reopen reads them back in their order, a
// deletion stays deleted, and a bucket made again under a deleted one's
// name has none.
func TestReopenKeepsBucketTags(t *testing.T) {
	s, _ := fillAndReopen(t)
	if tags, err := s.BucketTagging("versioned"); err != nil || !reflect.DeepEqual(tags, bucketTags) {
		t.Errorf("BucketTagging(versioned) after reopen = %+v, %v; want %+v", tags, err, bucketTags)
	}
	if _, err := s.BucketTagging("suspended"); !errors.Is(err, core.NoSuchTagSet) {
		t.Errorf("BucketTagging(suspended) after reopen: %v, want NoSuchTagSet", err)
	}

	dir := t.TempDir()
	s, _ = openStore(t, dir)
	sc := scenario{t, s}
	sc.must(s.CreateBucket("untagged"))
	sc.must(s.PutBucketTagging("untagged", bucketTags))
	sc.must(s.DeleteBucketTagging("untagged"))
	sc.must(s.CreateBucket("gone"))
	sc.must(s.PutBucketTagging("gone", bucketTags))
	sc.must(s.DeleteBucket("gone"))
	sc.must(s.CreateBucket("gone"))
	closeStore(t, s)
	s, _ = openStore(t, dir)
	for _, name := range []string{"untagged", "gone"} {
		if tags, err := s.BucketTagging(name); !errors.Is(err, core.NoSuchTagSet) {
			t.Errorf("BucketTagging(%s) after reopen = %+v, %v; want NoSuchTagSet", name, tags, err)
		}
	}
}
