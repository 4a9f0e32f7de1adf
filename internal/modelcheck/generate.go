package modelcheck

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"minis3/internal/model"
)

// The pools steps draw their arguments from: small, so that steps meet on
// the same buckets, keys and versions, with a few of the odd values S3
// clients send.
var (
	bucketPool = []string{"demo", "logs", "b.2"}
	badBuckets = []string{"ab", "Demo", "a..b", "192.168.0.1"}
	keyPool    = []string{"a", "a/b", "a/c/d", "b", "logs/app.log", "logs/audit/x", "keep/item", "z z", "ü/é", "%2F+&?=", "a/"}
	badKeys    = []string{strings.Repeat("k", 1025), strings.Repeat("é", 513)}
	bodyPool   = []string{"", "old", "current", "x", "hello world", "12345", "<&>\"'"}
	partBodies = []string{"12345", "abcdef", "5bytes!", "xy", ""}
	prefixPool = []string{"", "a", "a/", "logs/", "keep/", "ü", "zz"}
	delimPool  = []string{"", "/", "/", "a", "é"}
	// clockSteps are moves of the clock: forward, by nothing, across the
	// chapter's boundaries (14.999 and 15 from 5 with a threshold of 10),
	// and backward.
	clockSteps = []float64{0, 0.001, 1, 2.5, 5, 7, 10, 12, 14.999, 15, 30, -1, -5}
	thresholds = []float64{0, 1, 5, 10, 12, 14.999}
	// daySteps are moves of the clock by days, for S3's lifecycle.
	daySteps = []float64{day / 2, day, 2 * day, 30 * day}
	// tagKeys and tagValues make the tags objects carry and lifecycle
	// filters name, few so that they meet.
	tagKeys   = []string{"env", "team"}
	tagValues = []string{"prod", "dev"}
	// sizeBounds are lifecycle size filters, around the bodies' sizes.
	sizeBounds = []int64{0, 3, 5, 11}
	// classes are the storage classes transitions name, down S3's
	// waterfall, with the days an object must stay in each before a rule
	// moves it on (STANDARD_IA and ONEZONE_IA are drawn only 30 days or
	// more after creation).
	classes = []string{"STANDARD_IA", "INTELLIGENT_TIERING", "ONEZONE_IA", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"}
	stays   = map[string]int{"STANDARD_IA": 30, "ONEZONE_IA": 30, "GLACIER_IR": 90, "GLACIER": 90}
)

// origins are the times a sequence's clock may start at: a midnight UTC,
// and half past one in the afternoon of the same day, so that midnights
// fall on clock times that are not whole days.
var origins = []float64{DefaultOrigin, DefaultOrigin + 13.5*3600}

// DefaultOrigin is the origin of a sequence that does not open its store
// itself: 2025-12-04T00:00:00Z.
const DefaultOrigin = 1764806400

// day is a lifecycle day in seconds.
const day = 86400

// MinPartSize is the multipart part minimum of every store a sequence
// runs on: small, so that EntityTooSmall is reachable with short bodies.
const MinPartSize = 5

// mutating ops are those that may commit, and so may be refused by the
// storage.
var mutating = map[Op]bool{
	CreateBucket: true, DeleteBucket: true, SetVersioning: true, Put: true, Delete: true, DeleteObjects: true,
	CreateUpload: true, UploadPart: true, CompleteUpload: true, AbortUpload: true, SetClock: true, Tick: true,
	PutLifecycle: true, DeleteLifecycle: true, RunLifecycle: true, PutTagging: true, DeleteTagging: true,
	PutBucketTagging: true, DeleteBucketTagging: true,
}

// generator draws steps that fit the model's current state and a face.
type generator struct {
	t    *rapid.T
	m    *model.Store
	face Face
}

// uniform draws 0 to n-1, each as often: rapid's own integers favour
// small values, which would favour the first op and the first value of
// every pool. It shrinks to 0.
func uniform(n int) *rapid.Generator[int] {
	return rapid.Custom(func(t *rapid.T) int {
		v := 0
		for range bits.Len(uint(n - 1)) {
			v <<= 1
			if rapid.Bool().Draw(t, "bit") {
				v |= 1
			}
		}
		return v % n
	})
}

// intn draws 0 to n-1 uniformly; with one choice it draws nothing.
func (g *generator) intn(label string, n int) int {
	if n == 1 {
		return 0
	}
	return uniform(n).Draw(g.t, label)
}

// pick draws one of values uniformly; it shrinks to the first.
func pick[T any](g *generator, label string, values []T) T {
	return values[g.intn(label, len(values))]
}

// rarely is true once in n draws. It shrinks to false: a minimal failing
// sequence has the odd values it needs and no others.
func (g *generator) rarely(label string, n int) bool { return g.intn(label, n) == n-1 }

// often is true n-1 times in n draws; it shrinks to false.
func (g *generator) often(label string, n int) bool { return g.intn(label, n) > 0 }

// step draws the next step, one the face supports.
func (g *generator) step() Step {
	for range 100 {
		s := g.draw()
		if mutating[s.Op] && g.face.Supports(Step{Op: s.Op, FailCommit: true}) {
			s.FailCommit = g.rarely("failCommit", 12)
		}
		if g.face.Supports(s) {
			return s
		}
	}
	return Step{Op: ListBuckets}
}

// weights are how often each op is drawn in the model's current state.
func (g *generator) weights() map[Op]int {
	if len(g.m.Buckets) == 0 {
		return map[Op]int{CreateBucket: 10, ListBuckets: 1, Put: 1}
	}
	w := map[Op]int{
		CreateBucket: 2, DeleteBucket: 1, ListBuckets: 1, HeadBucket: 1,
		SetVersioning: 4, GetVersioning: 1,
		Put: 20, Get: 12, Head: 5, Delete: 10, DeleteObjects: 4,
		ListVersions: 5, ListObjects: 4,
		CreateUpload: 3, AbortUpload: 1, ListParts: 1, ListUploads: 2,
		SetClock: 12, Evaluate: 3, Tick: 6,
		PutLifecycle: 2, GetLifecycle: 1, DeleteLifecycle: 1, RunLifecycle: 3, PreviewLifecycle: 2,
		PutTagging: 5, GetTagging: 2, DeleteTagging: 1,
		PutBucketTagging: 2, GetBucketTagging: 1, DeleteBucketTagging: 1,
		Reopen: 2,
	}
	if !g.anyLifecycle() {
		w[PutLifecycle] = 8 // S3's lifecycle does nothing without one
	}
	if len(g.inProgress()) > 0 {
		w[UploadPart], w[CompleteUpload] = 8, 5
	} else {
		w[UploadPart], w[CompleteUpload] = 1, 1
	}
	return w
}

// anyLifecycle reports whether a bucket holds a lifecycle configuration.
func (g *generator) anyLifecycle() bool {
	for _, b := range g.m.Buckets {
		if b.Lifecycle != nil {
			return true
		}
	}
	return false
}

// inProgress is every upload in progress, as bucket and upload ID.
func (g *generator) inProgress() [][2]string {
	var out [][2]string
	for _, name := range sortedNames(g.m.Buckets) {
		b := g.m.Buckets[name]
		for _, id := range sortedNames(b.Uploads) {
			if b.Uploads[id].Completed == nil {
				out = append(out, [2]string{name, id})
			}
		}
	}
	return out
}

func (g *generator) draw() Step {
	w := g.weights()
	ops := slices.Sorted(maps.Keys(w))
	total := 0
	for _, op := range ops {
		total += w[op]
	}
	n := g.intn("op", total)
	var op Op
	for _, op = range ops {
		if n -= w[op]; n < 0 {
			break
		}
	}
	s := Step{Op: op}
	switch op {
	case CreateBucket:
		s.Bucket = g.oneOf("bucket", bucketPool, nil, badBuckets)
	case DeleteBucket, HeadBucket, GetVersioning, GetLifecycle, DeleteLifecycle, RunLifecycle, PreviewLifecycle,
		GetBucketTagging, DeleteBucketTagging:
		s.Bucket = g.bucket()
	case PutBucketTagging:
		s.Bucket = g.bucket()
		s.Tags = g.bucketTags()
	case SetVersioning:
		s.Bucket = g.bucket()
		s.Versioning = pick(g, "versioning", []model.Versioning{model.Enabled, model.Suspended})
	case Put:
		s.Bucket, s.Key = g.bucket(), g.key()
		s.Body = g.body()
		if g.rarely("typed", 4) {
			s.ContentType = "text/plain"
		}
		if g.rarely("tagged", 3) {
			s.Tags = g.tags()
		}
		g.conditions(&s, 8)
	case PutTagging, GetTagging, DeleteTagging:
		s.Bucket, s.Key = g.bucket(), g.key()
		if g.often("byVersion", 2) {
			s.VersionID = g.versionID(s.Bucket, s.Key)
		}
		if op == PutTagging {
			s.Tags = g.tags()
		}
	case Get, Head, Delete:
		s.Bucket, s.Key = g.bucket(), g.key()
		if g.often("byVersion", 2) {
			s.VersionID = g.versionID(s.Bucket, s.Key)
		}
	case DeleteObjects:
		s.Bucket = g.bucket()
		for range 1 + g.intn("objects", 4) {
			o := model.ObjectID{Key: g.key()}
			if g.often("byVersion", 2) {
				o.VersionID = g.versionID(s.Bucket, o.Key)
			}
			s.Objects = append(s.Objects, o)
		}
	case ListVersions:
		s.Bucket = g.bucket()
		l := g.listArgs()
		if g.rarely("marker", 4) {
			l.KeyMarker = g.key()
			if g.often("versionMarker", 2) {
				l.VersionIDMarker = g.versionID(s.Bucket, l.KeyMarker)
			}
		} else if g.rarely("versionMarkerAlone", 20) {
			l.VersionIDMarker = g.versionID(s.Bucket, "")
		}
		s.List = &l
	case ListObjects:
		s.Bucket = g.bucket()
		l := g.listArgs()
		if g.rarely("startAfter", 4) {
			l.StartAfter = g.oneOf("startAfter", keyPool, nil, prefixPool)
		}
		s.List = &l
	case CreateUpload:
		s.Bucket, s.Key = g.bucket(), g.key()
		if g.rarely("typed", 4) {
			s.ContentType = "text/plain"
		}
		if g.rarely("tagged", 4) {
			s.Tags = g.tags()
		}
	case UploadPart:
		s.Bucket, s.Key, s.UploadID = g.upload()
		s.PartNumber = 1 + g.intn("part", 3)
		if g.rarely("oddPart", 30) {
			s.PartNumber = pick(g, "part", []int{0, 10001, 10000})
		}
		s.Body = pick(g, "partBody", partBodies)
	case CompleteUpload:
		s.Bucket, s.Key, s.UploadID = g.upload()
		s.Parts = g.completedParts(s.Bucket, s.UploadID)
		g.conditions(&s, 3)
	case AbortUpload, ListParts:
		s.Bucket, s.Key, s.UploadID = g.upload()
		if op == ListParts {
			s.List = &ListArgs{MaxKeys: g.intn("maxParts", 4)}
		}
	case ListUploads:
		s.Bucket = g.bucket()
		l := g.listArgs()
		if g.rarely("marker", 4) {
			l.KeyMarker = g.key()
			if g.often("uploadMarker", 2) {
				_, _, l.UploadIDMarker = g.upload()
			}
		}
		s.List = &l
	case SetClock:
		s.Now = g.clock()
	case Evaluate, Tick:
		s.Bucket = g.bucket()
		s.Rules = g.rules()
	case PutLifecycle:
		s.Bucket = g.bucket()
		s.Lifecycle = g.lifecycle()
	}
	return s
}

// oneOf draws from common, from extra (the values the state holds) two
// times in three, or rarely from odd.
func (g *generator) oneOf(label string, common, extra, odd []string) string {
	if len(odd) > 0 && g.rarely(label+"Odd", 30) {
		return pick(g, label, odd)
	}
	if len(extra) > 0 && g.often(label+"Known", 3) {
		return pick(g, label, extra)
	}
	return pick(g, label, common)
}

// bucket is mostly an existing bucket.
func (g *generator) bucket() string {
	if names := sortedNames(g.m.Buckets); len(names) > 0 && g.often("existingBucket", 10) {
		return pick(g, "bucket", names)
	}
	return g.oneOf("bucket", bucketPool, nil, badBuckets)
}

// key is mostly a key some bucket holds.
func (g *generator) key() string {
	var known []string
	for _, b := range g.m.Buckets {
		known = append(known, sortedNames(b.Stacks)...)
	}
	slices.Sort(known)
	return g.oneOf("key", keyPool, slices.Compact(known), badKeys)
}

func (g *generator) body() string {
	if g.rarely("randomBody", 5) {
		return rapid.StringN(0, 12, -1).Draw(g.t, "body")
	}
	return pick(g, "body", bodyPool)
}

// versionID is mostly an ID the key holds (a marker's too), else one of
// another key of the bucket, "null", one the bucket issued, one it never
// issued, or rarely a malformed one.
func (g *generator) versionID(bucket, key string) string {
	var own, others []string
	if b := g.m.Buckets[bucket]; b != nil {
		for _, k := range sortedNames(b.Stacks) {
			for _, e := range b.Stacks[k] {
				if k == key {
					own = append(own, e.VersionID)
				} else {
					others = append(others, e.VersionID)
				}
			}
		}
		for n := 1; n <= b.VersionsIssued+2; n++ {
			others = append(others, fmt.Sprintf("v%08d", n))
		}
	}
	if len(own) > 0 && g.often("ownVersion", 3) {
		return pick(g, "versionId", own)
	}
	return g.oneOf("versionId", []string{"null", "v00000001", "v00000099"}, others, []string{"v1", "xyz", "v00000000", "V00000001"})
}

// conditions makes a write conditional two times in n: If-None-Match: *,
// or If-Match with the ETag of the key's current object (mostly), of
// another of its versions, or of none, quoted now and then.
func (g *generator) conditions(s *Step, n int) {
	switch g.intn("conditional", n) {
	case n - 2:
		s.IfNoneMatch = true
	case n - 1:
		var current string
		var own []string
		if b := g.m.Buckets[s.Bucket]; b != nil {
			for i, e := range b.Stacks[s.Key] {
				if !e.DeleteMarker {
					own = append(own, e.ETag)
					if i == 0 {
						current = e.ETag
					}
				}
			}
		}
		switch {
		case current != "" && g.often("currentETag", 3):
			s.IfMatch = current
		case len(own) > 0 && g.often("ownETag", 2):
			s.IfMatch = pick(g, "ownETag", own)
		default:
			s.IfMatch = pick(g, "unknownETag", []string{"0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef-2"})
		}
		if g.rarely("quoted", 3) {
			s.IfMatch = `"` + s.IfMatch + `"`
		}
	}
}

// upload is mostly an upload in progress, with its bucket and key; else
// one that completed or was aborted, or an unknown one; rarely with
// another key.
func (g *generator) upload() (bucket, key, id string) {
	if open := g.inProgress(); len(open) > 0 && g.often("openUpload", 5) {
		u := pick(g, "upload", open)
		bucket, id = u[0], u[1]
		key = g.m.Buckets[bucket].Uploads[id].Key
	} else {
		bucket = g.bucket()
		if b := g.m.Buckets[bucket]; b != nil && len(b.Uploads) > 0 && g.often("knownUpload", 2) {
			id = pick(g, "uploadId", sortedNames(b.Uploads))
			key = b.Uploads[id].Key
		} else {
			key, id = g.key(), pick(g, "uploadId", []string{"u00000001", "u00000002", "u00000099"})
		}
	}
	if g.rarely("otherKey", 15) {
		key = g.key()
	}
	return bucket, key, id
}

// completedParts lists an upload's parts in order with their ETags, mostly
// all of them; else a repeat of a completion's list; rarely out of order,
// repeated, unknown, or none.
func (g *generator) completedParts(bucket, id string) []model.CompletedPart {
	var parts []model.CompletedPart
	if b := g.m.Buckets[bucket]; b != nil && b.Uploads[id] != nil {
		u := b.Uploads[id]
		for _, n := range slices.Sorted(maps.Keys(u.Parts)) {
			if g.rarely("leaveOut", 5) {
				continue
			}
			etag := u.Parts[n].ETag
			if g.often("quoted", 2) {
				etag = `"` + etag + `"`
			}
			parts = append(parts, model.CompletedPart{Number: n, ETag: etag})
		}
		if u.Completed != nil && g.often("repeat", 2) {
			parts = slices.Clone(u.Completed.Parts)
		}
	}
	switch g.intn("oddParts", 20) {
	case 16:
		slices.Reverse(parts)
	case 17:
		if len(parts) > 0 {
			parts = append(parts, parts[len(parts)-1])
		}
	case 18:
		parts = append(parts, model.CompletedPart{Number: 7, ETag: "0123456789abcdef0123456789abcdef"})
	case 19:
		parts = nil
	}
	if len(parts) == 0 && g.often("defaultPart", 4) {
		parts = []model.CompletedPart{{Number: 1, ETag: "827ccb0eea8a706c4c34a16891f84e7b"}}
	}
	return parts
}

func (g *generator) listArgs() ListArgs {
	return ListArgs{
		Prefix:    g.prefix(),
		Delimiter: pick(g, "delimiter", delimPool),
		MaxKeys:   g.intn("maxKeys", 5),
	}
}

// prefix is one of the pool's, or the start of a key the state holds,
// cut between characters (JSON and XML carry text, not bytes).
func (g *generator) prefix() string {
	if g.often("poolPrefix", 2) {
		return pick(g, "prefix", prefixPool)
	}
	key := []rune(g.key())
	return string(key[:g.intn("prefixLength", len(key)+1)])
}

// rules draws one to three of the chapter's rules, rarely an invalid one.
func (g *generator) rules() []model.Rule {
	var rules []model.Rule
	for i := range 1 + g.intn("rules", 3) {
		r := model.Rule{ID: pick(g, "ruleId", []string{"r1", "r2", "logs", fmt.Sprintf("r%d", i+1)})}
		if g.often("rulePrefix", 3) {
			r.Prefix = g.prefix()
		}
		switch {
		case g.rarely("noThreshold", 40): // InvalidArgument
		case g.rarely("negativeThreshold", 40):
			r.ExpireCurrentAfter = seconds(-1)
		default:
			if g.often("current", 3) {
				r.ExpireCurrentAfter = seconds(pick(g, "currentAfter", thresholds))
			}
			if r.ExpireCurrentAfter == nil || g.often("noncurrent", 2) {
				r.ExpireNoncurrentAfter = seconds(pick(g, "noncurrentAfter", thresholds))
			}
		}
		rules = append(rules, r)
	}
	return rules
}

func seconds(v float64) *float64 { return &v }

func sortedNames[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
