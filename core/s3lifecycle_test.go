package core

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestS3LifecycleScripts runs every script in testdata/s3lifecycle. Each
// file pins one behaviour of S3's lifecycle (reference §5), is named after
// it, and follows the days of AWS's documented examples. A script is a list
// of operations, one a line; dates are RFC 3339 or a day (its midnight UTC):
//
//	origin 2014-01-15T10:30:00Z     open a store whose manual clock starts at 0 at this time (first line)
//	bucket demo enabled             create a bucket in a versioning state
//	versioning demo suspended       change its versioning
//	lifecycle demo {"Rules": ...}   PutBucketLifecycle of the rest of the line, as JSON
//	at 2014-01-19                   SetClock to that time: the actions of the daily runs it passed
//	run demo                        RunLifecycle now; preview demo: PreviewLifecycle now
//	put demo key body [tags=k:v,k:v] [class=GLACIER]   PUT: "-> versionID"
//	del demo key [versionId]        DELETE: "-> ID marker", "-> ID data" or "-> -"
//	tag demo key [versionId] k:v,k:v  PutObjectTagging
//	get demo key [versionId]        GET: "-> body"; head: "-> ID CLASS"
//	expiry demo key [versionId]     HEAD's Expiration: "-> 2014-01-19 rule" or "-> none"
//	stack demo key                  the version stack: "-> v00000002:marker v00000001:data:GLACIER"
//	versions demo                   ListObjectVersions: "-> key@ID:kind[:CLASS] ..."
//	objects demo                    ListObjectsV2: "-> key[:CLASS] ..."
//	upload demo key                 CreateMultipartUpload: "-> u00000001 aborts 2014-01-19 rule"
//	part demo key uploadId n body   UploadPart; complete demo key uploadId: complete its parts
//	abortdate demo key uploadId     ListParts' abort date: "-> 2014-01-19 rule" or "-> none"
//	uploads demo                    the uploads in progress: "-> key@uploadID ..."
//
// An action prints as "rule key version kind [class]" (an upload's ID
// stands for the version), after its run's day for "at"; actions are
// separated by " | ", and nothing prints as "nothing". A line may end in
// "-> expectation"; an error is expected as "-> error Code". A line
// without "->" must succeed, and an "at" without it must run nothing: no
// run may do anything a script does not say.
func TestS3LifecycleScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/s3lifecycle/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) { runLifecycleScript(t, file) })
	}
}

func runLifecycleScript(t *testing.T, file string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ts *testStore
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		op, want, hasWant := strings.Cut(line, "->")
		op, want = strings.TrimSpace(op), strings.TrimSpace(want)
		if ts == nil {
			origin, ok := strings.CutPrefix(op, "origin ")
			if !ok {
				t.Fatalf("%s:%d: a script starts with its origin", file, n)
			}
			ts = openTestStore(t, NewMemoryStorage(), Options{ManualClock: true, Origin: utc(t, origin)})
			continue
		}
		got := lifecycleOp(ts, op)
		switch {
		case strings.HasPrefix(got, "bad script"):
			t.Fatalf("%s:%d: %s: %s", file, n, op, got)
		case hasWant && got != want:
			t.Errorf("%s:%d: %s\n got: %s\nwant: %s", file, n, op, got, want)
		case !hasWant && strings.HasPrefix(op, "at ") && got != "nothing":
			t.Errorf("%s:%d: %s ran, though the script expects nothing: %s", file, n, op, got)
		case !hasWant && strings.HasPrefix(got, "error "):
			t.Fatalf("%s:%d: %s: %s", file, n, op, got)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// lifecycleOp runs one operation of a script and renders its outcome.
func lifecycleOp(ts *testStore, op string) string {
	name, rest, _ := strings.Cut(op, " ")
	f := strings.Fields(rest)
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	origin := ts.Origin()
	switch name {
	case "bucket":
		if err := ts.CreateBucket(arg(0)); err != nil {
			return errText(err)
		}
		if state := VersioningState(arg(1)); state != Unversioned {
			return errText(ts.SetBucketVersioning(arg(0), state))
		}
		return ""
	case "versioning":
		return errText(ts.SetBucketVersioning(arg(0), VersioningState(arg(1))))
	case "lifecycle":
		bucket, doc, _ := strings.Cut(rest, " ")
		cfg, err := ParseLifecycleJSON([]byte(doc))
		if err != nil {
			return errText(err)
		}
		return errText(ts.PutBucketLifecycle(bucket, cfg))
	case "at":
		at, err := parseUTC(arg(0))
		if err != nil {
			return "bad script: " + err.Error()
		}
		runs, err := ts.SetClock(at - origin)
		if err != nil {
			return errText(err)
		}
		var out []string
		for _, r := range runs {
			for _, a := range r.Actions {
				out = append(out, day(origin+r.At)+" "+actionText(a, r.Bucket))
			}
		}
		return joinActions(out)
	case "run", "preview":
		call := ts.RunLifecycle
		if name == "preview" {
			call = ts.PreviewLifecycle
		}
		actions, err := call(arg(0))
		if err != nil {
			return errText(err)
		}
		var out []string
		for _, a := range actions {
			out = append(out, actionText(a, arg(0)))
		}
		return joinActions(out)
	case "put":
		var meta ObjectMeta
		for _, opt := range f[3:] {
			switch k, v, _ := strings.Cut(opt, "="); k {
			case "tags":
				meta.Tags = parseTags(v)
			case "class":
				meta.StorageClass = v
			default:
				return "bad script: unknown option " + opt
			}
		}
		res, err := ts.PutObject(arg(0), arg(1), []byte(arg(2)), PutOptions{Meta: meta})
		if err != nil {
			return errText(err)
		}
		return res.VersionID
	case "del":
		res, err := ts.DeleteObject(arg(0), arg(1), DeleteOptions{VersionID: arg(2)})
		switch {
		case err != nil:
			return errText(err)
		case res.VersionID == "":
			return "-"
		case res.DeleteMarker:
			return res.VersionID + " marker"
		}
		return res.VersionID + " data"
	case "tag":
		version, tags := "", arg(2)
		if len(f) == 4 {
			version, tags = arg(2), arg(3)
		}
		_, err := ts.PutObjectTagging(arg(0), arg(1), version, parseTags(tags))
		return errText(err)
	case "get":
		obj, err := ts.GetObject(arg(0), arg(1), GetOptions{VersionID: arg(2)})
		if err != nil {
			return errText(err)
		}
		return string(obj.Body)
	case "head":
		obj, err := ts.HeadObject(arg(0), arg(1), GetOptions{VersionID: arg(2)})
		if err != nil {
			return errText(err)
		}
		return obj.Version.VersionID + " " + classText(obj.Version.Meta.StorageClass)
	case "expiry":
		obj, err := ts.HeadObject(arg(0), arg(1), GetOptions{VersionID: arg(2)})
		if err != nil {
			return errText(err)
		}
		return expiryText(obj.Expiration)
	case "stack":
		recs, err := ts.Snapshot(arg(0))
		if err != nil {
			return errText(err)
		}
		for _, r := range recs {
			if r.Key == arg(1) {
				var out []string
				for _, e := range r.Versions {
					out = append(out, entryText(e))
				}
				return strings.Join(out, " ")
			}
		}
		return "(none)"
	case "versions":
		res, err := ts.ListObjectVersions(arg(0), ListVersionsOptions{MaxKeys: -1})
		if err != nil {
			return errText(err)
		}
		var out []string
		for _, v := range res.Versions {
			e := v.Key + "@" + v.VersionID + ":data"
			if v.IsDeleteMarker {
				e = v.Key + "@" + v.VersionID + ":marker"
			}
			if v.StorageClass != "" {
				e += ":" + v.StorageClass
			}
			out = append(out, e)
		}
		return strings.Join(out, " ")
	case "objects":
		res, err := ts.ListObjectsV2(arg(0), ListObjectsOptions{MaxKeys: -1})
		if err != nil {
			return errText(err)
		}
		var out []string
		for _, o := range res.Objects {
			e := o.Key
			if o.StorageClass != "" {
				e += ":" + o.StorageClass
			}
			out = append(out, e)
		}
		return strings.Join(out, " ")
	case "upload":
		info, err := ts.CreateMultipartUpload(arg(0), arg(1), PutOptions{})
		if err != nil {
			return errText(err)
		}
		if info.Abort == nil {
			return info.UploadID
		}
		return info.UploadID + " aborts " + expiryText(info.Abort)
	case "part":
		n := 0
		if _, err := fmt.Sscan(arg(3), &n); err != nil {
			return "bad script: " + err.Error()
		}
		_, err := ts.UploadPart(arg(0), arg(1), arg(2), n, []byte(arg(4)))
		return errText(err)
	case "complete":
		parts, err := ts.ListParts(arg(0), arg(1), arg(2), ListPartsOptions{})
		if err != nil {
			return errText(err)
		}
		var done []CompletedPart
		for _, p := range parts.Parts {
			done = append(done, CompletedPart{PartNumber: p.PartNumber, ETag: p.ETag})
		}
		res, err := ts.CompleteMultipartUpload(arg(0), arg(1), arg(2), done)
		if err != nil {
			return errText(err)
		}
		return res.VersionID
	case "abortdate":
		res, err := ts.ListParts(arg(0), arg(1), arg(2), ListPartsOptions{})
		if err != nil {
			return errText(err)
		}
		return expiryText(res.Upload.Abort)
	case "uploads":
		res, err := ts.ListMultipartUploads(arg(0), ListUploadsOptions{})
		if err != nil {
			return errText(err)
		}
		var out []string
		for _, u := range res.Uploads {
			out = append(out, u.Key+"@"+u.UploadID)
		}
		return strings.Join(out, " ")
	}
	return "bad script: unknown operation " + name
}

// actionText renders an action of bucket's run; the bucket is named only
// when it is not "demo".
func actionText(a LifecycleAction, bucket string) string {
	key := a.Key
	if bucket != "demo" {
		key = bucket + "/" + a.Key
	}
	version := a.VersionID
	if a.Kind == AbortMultipartUpload {
		version = a.UploadID
	}
	s := fmt.Sprintf("%s %s %s %s", a.RuleID, key, version, a.Kind)
	if a.StorageClass != "" {
		s += " " + a.StorageClass
	}
	return s
}

func joinActions(actions []string) string {
	if len(actions) == 0 {
		return "nothing"
	}
	return strings.Join(actions, " | ")
}

func entryText(e Entry) string {
	switch e := e.(type) {
	case *Version:
		if e.Meta.StorageClass != "" {
			return e.VersionID + ":data:" + e.Meta.StorageClass
		}
		return e.VersionID + ":data"
	default:
		return e.ID() + ":marker"
	}
}

func classText(class string) string {
	if class == "" {
		return "STANDARD"
	}
	return class
}

func expiryText(x *Expiry) string {
	if x == nil {
		return "none"
	}
	return day(x.Date) + " " + x.RuleID
}

// parseTags reads "k:v,k:v".
func parseTags(s string) []Tag {
	var tags []Tag
	for _, kv := range strings.Split(s, ",") {
		if kv != "" {
			k, v, _ := strings.Cut(kv, ":")
			tags = append(tags, Tag{Key: k, Value: v})
		}
	}
	return tags
}

// parseUTC reads an RFC 3339 time, or a day as its midnight UTC, into
// seconds since the Unix epoch.
func parseUTC(s string) (float64, error) {
	layout := time.RFC3339
	if len(s) == len(time.DateOnly) {
		layout = time.DateOnly
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return 0, err
	}
	return float64(t.Unix()), nil
}

func utc(t *testing.T, s string) float64 {
	t.Helper()
	v, err := parseUTC(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// day renders a time as its day, and its time of day when that is not
// midnight.
func day(at float64) string {
	tm := time.Unix(int64(math.Floor(at)), 0).UTC()
	if tm.Hour() == 0 && tm.Minute() == 0 && tm.Second() == 0 {
		return tm.Format(time.DateOnly)
	}
	return tm.Format(time.RFC3339)
}

// lifecycleStore opens a store with a manual clock whose 0 is origin, and
// one bucket, demo, in the given state with the given rules.
func lifecycleStore(t *testing.T, origin string, state VersioningState, rules ...LifecycleRule) *testStore {
	t.Helper()
	ts := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true, Origin: utc(t, origin)})
	ts.bucket("demo", state)
	ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: rules}))
	return ts
}

// clock sets the manual clock to the absolute time at and returns the
// runs the move passed.
func (ts *testStore) clock(at string) []LifecycleRun {
	ts.t.Helper()
	runs, err := ts.SetClock(utc(ts.t, at) - ts.Origin())
	ts.must(err)
	return runs
}

// MinIO's and LocalStack's formula for when a Days action is due, with the
// examples of reference §5.5: the midnight UTC after creation plus Days.
func TestMidnightAfterRoundsUpToTheNextMidnight(t *testing.T) {
	tests := []struct {
		created string
		days    int
		want    string
	}{
		{"2014-01-15T10:30:00Z", 3, "2014-01-19"}, // AWS's own example
		{"2020-03-15T00:00:00Z", 1, "2020-03-17"}, // made at a midnight: still the extra day
		{"2020-03-15T10:10:10Z", 4, "2020-03-20"},
		{"2020-03-15T23:59:59Z", 0, "2020-03-16"},
		{"1969-12-31T12:00:00Z", 1, "1970-01-02"}, // before the epoch, floor not truncation
		{"0001-01-01T00:00:00Z", 1, "0001-01-03"},
	}
	for _, tt := range tests {
		if got := day(midnightAfter(utc(t, tt.created), tt.days)); got != tt.want {
			t.Errorf("midnightAfter(%s, %d) = %s, want %s", tt.created, tt.days, got, tt.want)
		}
	}
	// Validate sets no upper bound on Days: the most an int holds must not
	// wrap around to a day in the past.
	if due := midnightAfter(0, math.MaxInt); due <= 0 {
		t.Errorf("midnightAfter(0, MaxInt) = %v, before the object was made", due)
	}
}

// The chapter ages a noncurrent version from its own creation; S3 from the
// creation of the version that replaced it [ref §5.5; the chapter's "two
// honest subtleties"]. A version made on Jan 1 and replaced on Jan 10 at
// noon, with a noncurrent age of 3 days: the chapter's rule selects it as
// soon as it is noncurrent (it is 9.5 days old); S3 deletes it on Jan 14,
// 3 days after it became noncurrent, rounded up to a midnight.
func TestNoncurrentAgeDiffersBetweenTheChapterAndS3(t *testing.T) {
	ts := lifecycleStore(t, "2014-01-01", Enabled, LifecycleRule{ID: "s3", Enabled: true, Filter: &LifecycleFilter{},
		NoncurrentVersionExpiration: &NoncurrentVersionExpiration{NoncurrentDays: ptr(3)}})
	ts.put("demo", "k", "old")
	ts.clock("2014-01-10T12:00:00Z")
	ts.put("demo", "k", "new")
	chapter := ExpirationRule{ID: "chapter", ExpireNoncurrentAfter: Seconds(3 * SecondsPerDay)}

	tests := []struct {
		at      string
		chapter []string // what a chapter tick would do then
		s3      []string // what S3's daily runs did on the way
	}{
		{"2014-01-10T12:00:00Z", []string{"chapter k v00000001 expire_noncurrent"}, nil},
		{"2014-01-13T23:59:59Z", []string{"chapter k v00000001 expire_noncurrent"}, nil},
		{"2014-01-14T00:00:00Z", nil, []string{"s3 k v00000001 expire_noncurrent"}},
	}
	for _, tt := range tests {
		var s3 []string
		for _, r := range ts.clock(tt.at) {
			s3 = append(s3, actionStrings(r.Actions)...)
		}
		if !slices.Equal(s3, tt.s3) {
			t.Errorf("at %s S3's runs did %q, want %q", tt.at, s3, tt.s3)
		}
		preview, err := ts.PreviewExpiration("demo", []ExpirationRule{chapter})
		ts.must(err)
		if got := actionStrings(preview); !slices.Equal(got, tt.chapter) {
			t.Errorf("at %s the chapter's rule selects %q, want %q", tt.at, got, tt.chapter)
		}
	}
}

// Moving the clock 30 days at once runs each of the 30 midnights, in order,
// exactly as 30 moves of one day do: the same runs, the same store.
func TestSetClockForwardEqualsDailySteps(t *testing.T) {
	fill := func(ts *testStore) {
		ts.bucket("logs", Enabled)
		ts.bucket("tmp", Unversioned)
		ts.must(ts.PutBucketLifecycle("logs", LifecycleConfiguration{Rules: []LifecycleRule{{
			ID: "logs", Enabled: true, Filter: &LifecycleFilter{},
			Expiration:                  &LifecycleExpiration{Days: ptr(4)},
			NoncurrentVersionExpiration: &NoncurrentVersionExpiration{NoncurrentDays: ptr(3), NewerNoncurrentVersions: ptr(1)},
			Transitions:                 []LifecycleTransition{{Days: ptr(2), StorageClass: "GLACIER_IR"}},
		}, {
			ID: "markers", Enabled: true, Filter: &LifecycleFilter{}, Expiration: &LifecycleExpiration{ExpiredObjectDeleteMarker: ptr(true)},
		}}}))
		ts.must(ts.PutBucketLifecycle("tmp", LifecycleConfiguration{Rules: []LifecycleRule{{
			ID: "tmp", Enabled: true, Prefix: ptr(""), Expiration: &LifecycleExpiration{Days: ptr(10)},
			AbortIncompleteMultipartUpload: &AbortIncompleteMultipartUpload{DaysAfterInitiation: 5},
		}}}))
		for i := range 6 {
			ts.put("logs", fmt.Sprintf("k%d", i%3), fmt.Sprint(i))
			ts.put("tmp", fmt.Sprintf("t%d", i), "x")
			_, err := ts.CreateMultipartUpload("tmp", fmt.Sprintf("up%d", i), PutOptions{})
			ts.must(err)
			_, err = ts.SetClock(ts.Now() + 0.3*SecondsPerDay)
			ts.must(err)
		}
		ts.del("logs", "k0", "")
	}
	const start = 2 * SecondsPerDay
	stepper := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true, Origin: utc(t, "2024-02-27T08:00:00Z")})
	fill(stepper)
	jumper := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true, Origin: utc(t, "2024-02-27T08:00:00Z")})
	fill(jumper)

	var stepped []LifecycleRun
	for d := 1; d <= 30; d++ {
		runs, err := stepper.SetClock(start + float64(d)*SecondsPerDay)
		stepper.must(err)
		stepped = append(stepped, runs...)
	}
	jumped, err := jumper.SetClock(start + 30*SecondsPerDay)
	jumper.must(err)
	if !reflect.DeepEqual(jumped, stepped) {
		t.Errorf("one move of 30 days ran\n%v\nthirty moves of a day ran\n%v", jumped, stepped)
	}
	if len(stepped) < 5 {
		t.Errorf("the scenario ran only %d times: it tests too little", len(stepped))
	}
	for i, r := range jumped {
		if len(r.Actions) == 0 {
			t.Errorf("run %d (%s at %v) did nothing, yet SetClock returned it", i, r.Bucket, r.At)
		}
		if math.Mod(jumper.Origin()+r.At, SecondsPerDay) != 0 {
			t.Errorf("run %d ran at %s, not at a midnight", i, day(jumper.Origin()+r.At))
		}
	}
	if a, b := everything(t, jumper.Store), everything(t, stepper.Store); a != b {
		t.Errorf("the stores differ:\njumped  %s\nstepped %s", a, b)
	}
}

// commitBudget lets left more commits land (a negative left: any number)
// and fails every later one.
type commitBudget struct {
	Storage
	left int
}

func (c *commitBudget) Commit(cs ChangeSet) error {
	if c.left == 0 {
		return errInjected
	}
	c.left--
	return c.Storage.Commit(cs)
}

// A daily run of a bucket is one commit, which records the clock at its
// midnight with the bucket's changes. When a commit fails, SetClock stops:
// the clock goes back to where the storage last recorded it, the runs that
// were committed are returned with the error, and the store is exactly
// what a reopen of its storage gives. The bucket whose run failed runs at
// the next midnight the clock passes.
func TestFailingRunLeavesTheClockAtTheLastCommittedMidnight(t *testing.T) {
	tests := []struct {
		name    string
		bbbMade string // when bbb's object is made; aaa's is made on Jan 1
	}{
		// aaa's object is due on Jan 3, bbb's on Jan 4: Jan 3's run
		// commits, Jan 4's fails.
		{"a later midnight's run fails", "2014-01-02T12:00:00Z"},
		// Both are due on Jan 3: aaa's run commits, bbb's fails.
		{"another bucket's run of the same midnight fails", "2014-01-01T12:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := NewMemoryStorage()
			budget := &commitBudget{Storage: mem, left: -1}
			s, err := Open(budget, Options{ManualClock: true, Origin: utc(t, "2014-01-01")})
			if err != nil {
				t.Fatal(err)
			}
			ts := &testStore{Store: s, t: t}
			for _, name := range []string{"aaa", "bbb"} {
				ts.bucket(name, Enabled)
				ts.must(ts.PutBucketLifecycle(name, LifecycleConfiguration{Rules: []LifecycleRule{expireAfter("r", "", 1)}}))
			}
			ts.put("aaa", "k", "a")
			ts.clock(tt.bbbMade)
			ts.put("bbb", "k", "b")

			budget.left = 1
			runs, err := ts.SetClock(utc(t, "2014-01-10") - ts.Origin())
			if !errors.Is(err, errInjected) {
				t.Fatalf("SetClock with a failing commit = %v, want the storage error", err)
			}
			if budget.left != 0 {
				t.Errorf("aaa's run did not commit")
			}
			if len(runs) != 1 || runs[0].Bucket != "aaa" || day(ts.Origin()+runs[0].At) != "2014-01-03" {
				t.Errorf("SetClock returned runs %+v, want aaa's run of Jan 3", runs)
			}
			if got := day(ts.Origin() + ts.Now()); got != "2014-01-03" {
				t.Errorf("after the failure the clock shows %s, want 2014-01-03, the midnight of aaa's run", got)
			}
			if err := ts.Check(); err != nil {
				t.Errorf("store invariants after the failure: %v", err)
			}
			live := everything(t, ts.Store)
			reopened := openTestStore(t, mem, Options{ManualClock: true})
			if got := everything(t, reopened.Store); got != live {
				t.Errorf("the live store differs from its storage after the failure:\nlive   %s\nstored %s", live, got)
			}
			if reopened.Now() != ts.Now() {
				t.Errorf("the stored clock is %v, the live one %v", reopened.Now(), ts.Now())
			}
			var got []string
			for _, r := range reopened.clock("2014-01-10") {
				for _, a := range r.Actions {
					got = append(got, day(reopened.Origin()+r.At)+" "+actionText(a, r.Bucket))
				}
			}
			if want := []string{"2014-01-04 r bbb/k v00000001 expire_current"}; !slices.Equal(got, want) {
				t.Errorf("after the fault is gone the runs do %q, want %q", got, want)
			}
		})
	}
}

// A failure with nothing committed on the way leaves the clock where it
// was, however many midnights ran without a change.
func TestFailingFirstRunLeavesTheClockWhereItWas(t *testing.T) {
	mem := NewMemoryStorage()
	ts := openTestStore(t, mem, Options{ManualClock: true, Origin: utc(t, "2014-01-01T06:00:00Z")})
	ts.bucket("demo", Unversioned)
	ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{expireAfter("r", "", 5)}}))
	ts.put("demo", "k", "x")
	before := everything(t, ts.Store)
	ts.faults.FailCommits()
	runs, err := ts.SetClock(20 * SecondsPerDay)
	if !errors.Is(err, errInjected) || len(runs) != 0 {
		t.Fatalf("SetClock = %v, %v; want no run and the storage error", runs, err)
	}
	if ts.Now() != 0 {
		t.Errorf("the clock moved to %v though nothing was committed", ts.Now())
	}
	ts.faults.ClearFaults()
	if after := everything(t, ts.Store); after != before {
		t.Errorf("a failed SetClock changed the store:\nbefore %s\nafter  %s", before, after)
	}
	ts.retire()
	if reopened := openTestStore(t, mem, Options{ManualClock: true}); reopened.Now() != 0 {
		t.Errorf("the stored clock is %v, want 0", reopened.Now())
	}
}

// Every bucket's run is a commit of its own, with the clock at its
// midnight; a midnight where nothing is due writes nothing.
func TestEachBucketRunIsOneCommit(t *testing.T) {
	ts := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true, Origin: utc(t, "2014-01-01")})
	for _, name := range []string{"aaa", "bbb", "ccc"} {
		ts.bucket(name, Enabled)
		ts.must(ts.PutBucketLifecycle(name, LifecycleConfiguration{Rules: []LifecycleRule{expireAfter("r", "", 1)}}))
		ts.put(name, "k1", "x")
		ts.put(name, "k2", "y")
	}
	commits := ts.faults.Commits()
	runs := ts.clock("2014-01-02")
	if len(runs) != 0 || ts.faults.Commits() != commits+1 {
		t.Errorf("a midnight with nothing due: %d runs, %d commits; want none but SetClock's own", len(runs), ts.faults.Commits()-commits)
	}
	commits = ts.faults.Commits()
	runs = ts.clock("2014-01-03")
	if len(runs) != 3 || ts.faults.Commits() != commits+3+1 {
		t.Errorf("three buckets' runs: %d runs, %d commits; want 3 runs, 3 commits and SetClock's own", len(runs), ts.faults.Commits()-commits)
	}
}

// Moving the clock back runs nothing, and the midnights moved back over run
// again when the clock passes them again.
func TestSetClockBackwardsRunsNothing(t *testing.T) {
	ts := lifecycleStore(t, "2014-01-01", Enabled, expireAfter("r", "", 1))
	ts.clock("2014-01-05")
	ts.put("demo", "k", "x")
	if runs := ts.clock("2014-01-02"); len(runs) != 0 {
		t.Errorf("moving back ran %+v", runs)
	}
	if got := ts.stack("demo", "k"); got != "v00000001:data" {
		t.Errorf("after moving back: %s, want v00000001:data", got)
	}
	// The object was made on Jan 5 (by the clock then); moving forward again
	// runs Jan 3..7, and it is due on Jan 7.
	runs := ts.clock("2014-01-07")
	if len(runs) != 1 || day(ts.Origin()+runs[0].At) != "2014-01-07" {
		t.Errorf("moving forward again ran %+v, want one run on Jan 7", runs)
	}
}

// The clock shows times in the years 1 to 9999 only (DESIGN, "Clock").
func TestSetClockRefusesTimesOutsideYears1To9999(t *testing.T) {
	const first, last = -62135596800, 253402300800 // 0001-01-01 and 10000-01-01
	tests := []struct {
		name   string
		origin float64
		at     float64 // absolute
		ok     bool
	}{
		{"the first instant of year 1", first + 10, first, true},
		{"just before year 1", first + 10, first - 0.5, false},
		{"the last second of 9999", last - 10, last - 1, true},
		{"the last fraction of 9999", last - 10, last - 0.25, true},
		{"the first instant of 10000", last - 10, last, false},
		{"NaN", 0, math.NaN(), false},
		{"infinity", 0, math.Inf(1), false},
		{"minus infinity", 0, math.Inf(-1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true, Origin: tt.origin})
			_, err := ts.SetClock(tt.at - tt.origin)
			switch {
			case tt.ok && err != nil:
				t.Errorf("SetClock(%v) = %v, want success", tt.at-tt.origin, err)
			case !tt.ok:
				wantCode(t, err, InvalidArgument)
				if ts.Now() != 0 {
					t.Errorf("a refused SetClock moved the clock to %v", ts.Now())
				}
			}
		})
	}
}

// RunLifecycle runs the configuration at the current instant, as the daily
// run would then; PreviewLifecycle says the same and changes nothing. The
// configuration is stored only once the clock is past the due midnight, so
// that no daily run has done the work first.
func TestPreviewLifecycleEqualsRunLifecycleAndChangesNothing(t *testing.T) {
	ts := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true, Origin: utc(t, "2014-01-15T10:30:00Z")})
	ts.bucket("demo", Enabled)
	ts.put("demo", "a", "1")
	ts.put("demo", "a", "2")
	ts.put("demo", "b", "1")
	_, err := ts.CreateMultipartUpload("demo", "up", PutOptions{})
	ts.must(err)
	cfg := LifecycleConfiguration{Rules: []LifecycleRule{{
		ID: "r", Enabled: true, Filter: &LifecycleFilter{},
		Expiration:                     &LifecycleExpiration{Days: ptr(1)},
		NoncurrentVersionExpiration:    &NoncurrentVersionExpiration{NoncurrentDays: ptr(1)},
		AbortIncompleteMultipartUpload: &AbortIncompleteMultipartUpload{DaysAfterInitiation: 1},
	}}}
	// Everything is due on Jan 17.
	ts.clock("2014-01-16T23:59:59Z")
	ts.must(ts.PutBucketLifecycle("demo", cfg))
	if got, err := ts.RunLifecycle("demo"); err != nil || len(got) != 0 {
		t.Fatalf("RunLifecycle before anything is due = %v, %v", got, err)
	}
	ts.must(ts.DeleteBucketLifecycle("demo"))
	ts.clock("2014-01-17T09:00:00Z")
	ts.must(ts.PutBucketLifecycle("demo", cfg))

	before := everything(t, ts.Store)
	preview, err := ts.PreviewLifecycle("demo")
	ts.must(err)
	if after := everything(t, ts.Store); after != before {
		t.Errorf("PreviewLifecycle changed the store")
	}
	run, err := ts.RunLifecycle("demo")
	ts.must(err)
	want := []string{"r a v00000002 expire_current", "r a v00000001 expire_noncurrent", "r b v00000003 expire_current", "r up  abort_multipart_upload"}
	if got := actionStrings(run); !slices.Equal(got, want) {
		t.Errorf("RunLifecycle = %q, want %q", got, want)
	}
	if !reflect.DeepEqual(preview, run) {
		t.Errorf("PreviewLifecycle = %+v, RunLifecycle = %+v", preview, run)
	}
	if got := ts.stack("demo", "a"); got != "v00000004:marker v00000002:data" {
		t.Errorf("a after the run: %s", got)
	}
	if again, err := ts.RunLifecycle("demo"); err != nil || len(again) != 0 {
		t.Errorf("a second run at the same instant = %v, %v; want nothing", again, err)
	}
	if got, err := ts.RunLifecycle("nobucket"); !errors.Is(err, NoSuchBucket) {
		t.Errorf("RunLifecycle of a missing bucket = %v, %v", got, err)
	}
	if got, err := ts.PreviewLifecycle("nobucket"); !errors.Is(err, NoSuchBucket) {
		t.Errorf("PreviewLifecycle of a missing bucket = %v, %v", got, err)
	}
}

// EvaluateLifecycle is the pure phase: it takes a snapshot and an instant,
// and says what a run would do, in the order a run does it.
func TestEvaluateLifecycleIsPure(t *testing.T) {
	origin := utc(t, "2014-01-15T10:30:00Z")
	cfg := LifecycleConfiguration{Rules: []LifecycleRule{{
		ID: "r", Enabled: true, Filter: &LifecycleFilter{},
		Expiration:                     &LifecycleExpiration{Days: ptr(3)},
		NoncurrentVersionExpiration:    &NoncurrentVersionExpiration{NoncurrentDays: ptr(1)},
		AbortIncompleteMultipartUpload: &AbortIncompleteMultipartUpload{DaysAfterInitiation: 2},
	}}}
	records := []*ObjectRecord{
		rec("b", v("v00000003", 0)),
		rec("a", v("v00000002", SecondsPerDay), v("v00000001", 0)),
		rec("m", dm("v00000004", 0)),
	}
	uploads := []UploadInfo{{Key: "up", UploadID: "u00000001", Initiated: 0}}
	recordsBefore, cfgBefore, uploadsBefore := make([]*ObjectRecord, len(records)), cfg.clone(), slices.Clone(uploads)
	for i, r := range records {
		recordsBefore[i] = r.clone()
	}
	tests := []struct {
		at   string
		want []string
	}{
		{"2014-01-16T23:59:59Z", nil},
		{"2014-01-18", []string{"r a v00000001 expire_noncurrent", "r up  abort_multipart_upload"}},
		{"2014-01-19", []string{"r a v00000001 expire_noncurrent", "r b v00000003 expire_current", "r m v00000004 expire_delete_marker", "r up  abort_multipart_upload"}},
	}
	for _, tt := range tests {
		got, err := EvaluateLifecycle(cfg, records, uploads, Enabled, origin, utc(t, tt.at)-origin)
		if err != nil {
			t.Fatal(err)
		}
		if s := actionStrings(got); !slices.Equal(s, tt.want) {
			t.Errorf("at %s: %q, want %q", tt.at, s, tt.want)
		}
	}
	if !reflect.DeepEqual(records, recordsBefore) || !reflect.DeepEqual(cfg, cfgBefore) || !reflect.DeepEqual(uploads, uploadsBefore) {
		t.Error("EvaluateLifecycle changed its arguments")
	}

	bad := []struct {
		name    string
		cfg     LifecycleConfiguration
		records []*ObjectRecord
		now     float64
	}{
		{"an invalid configuration", LifecycleConfiguration{}, records, 0},
		{"a record without versions", cfg, []*ObjectRecord{rec("a")}, 0},
		{"a missing record", cfg, []*ObjectRecord{nil}, 0},
		{"two records of one key", cfg, []*ObjectRecord{rec("a", v("v00000001", 0)), rec("a", v("v00000002", 0))}, 0},
		{"a time that is not a number", cfg, records, math.NaN()},
		{"a time after the year 9999", cfg, records, 1e12},
	}
	for _, tt := range bad {
		if _, err := EvaluateLifecycle(tt.cfg, tt.records, nil, Enabled, origin, tt.now); !errors.Is(err, InvalidArgument) {
			t.Errorf("EvaluateLifecycle of %s = %v, want InvalidArgument", tt.name, err)
		}
	}
}

// The chapter's rules are passed to a tick and the S3 ones stored on the
// bucket; neither ever runs the other (DESIGN, "Lifecycle, S3 semantics").
func TestStoredConfigurationNeverMixesWithTheChaptersRules(t *testing.T) {
	everythingNow := LifecycleRule{ID: "s3", Enabled: true, Filter: &LifecycleFilter{},
		Expiration:                  &LifecycleExpiration{Date: ptr(0.0)},
		NoncurrentVersionExpiration: &NoncurrentVersionExpiration{NoncurrentDays: ptr(1), NewerNoncurrentVersions: ptr(1)},
	}
	t.Run("a tick runs only the chapter's rules", func(t *testing.T) {
		ts := newTestStore(t)
		ts.bucket("demo", Enabled)
		ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{everythingNow}}))
		ts.at(0).put("demo", "logs/app.log", "old")
		ts.at(5).put("demo", "logs/app.log", "current")
		ts.at(0).put("demo", "other", "x")
		rule := ExpirationRule{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: Seconds(10), ExpireNoncurrentAfter: Seconds(12)}
		if got := ts.tick("demo", 12, rule); !slices.Equal(got, []string{"logs logs/app.log v00000001 expire_noncurrent"}) {
			t.Errorf("tick at 12 = %q", got)
		}
		if got := ts.tick("demo", 15, rule); !slices.Equal(got, []string{"logs logs/app.log v00000002 expire_current"}) {
			t.Errorf("tick at 15 = %q", got)
		}
		if got := ts.stack("demo", "other"); got != "v00000003:data" {
			t.Errorf("a tick ran the stored configuration: other is %s", got)
		}
	})
	t.Run("the chapter's worked example is unchanged by a stored configuration", func(t *testing.T) {
		ts := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true})
		ts.bucket("demo", Enabled)
		ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{everythingNow}}))
		rule := ExpirationRule{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: Seconds(10), ExpireNoncurrentAfter: Seconds(12)}
		step := func(now float64) {
			runs, err := ts.SetClock(now)
			ts.must(err)
			if len(runs) != 0 {
				t.Errorf("SetClock(%v) ran the stored configuration: %+v", now, runs)
			}
		}
		ts.put("demo", "logs/app.log", "old")
		step(5)
		ts.put("demo", "logs/app.log", "current")
		var got []string
		for _, now := range []float64{12, 15} {
			step(now)
			actions, err := ts.LifecycleTick("demo", []ExpirationRule{rule})
			ts.must(err)
			got = append(got, fmt.Sprint(actionStrings(actions)))
		}
		want := []string{"[logs logs/app.log v00000001 expire_noncurrent]", "[logs logs/app.log v00000002 expire_current]"}
		if !slices.Equal(got, want) {
			t.Errorf("the worked example's ticks = %q, want %q", got, want)
		}
		if got := ts.stack("demo", "logs/app.log"); got != "v00000003:marker v00000002:data" {
			t.Errorf("after the worked example: %s", got)
		}
	})
}

// Times S3 shows are the origin plus the clock: Last-Modified of a version
// made at clock 90 of a store whose 0 is 2014-01-15 10:30 is 10:31:30. The
// origin is kept with the store; a reopen ignores Options.Origin.
func TestOriginIsTheManualClocksZero(t *testing.T) {
	mem := NewMemoryStorage()
	ts := openTestStore(t, mem, Options{ManualClock: true, Origin: utc(t, "2014-01-15T10:30:00Z")})
	ts.bucket("demo", Enabled)
	_, err := ts.SetClock(90)
	ts.must(err)
	res := ts.put("demo", "k", "x")
	if got := day(ts.Origin() + res.CreatedAt); got != "2014-01-15T10:31:30Z" {
		t.Errorf("Last-Modified = %s, want 2014-01-15T10:31:30Z", got)
	}
	ts.retire()
	reopened := openTestStore(t, mem, Options{ManualClock: true, Origin: utc(t, "2030-01-01")})
	if got := day(reopened.Origin()); got != "2014-01-15T10:30:00Z" {
		t.Errorf("the reopened store's origin is %s, want 2014-01-15T10:30:00Z", got)
	}
	if reopened.Now() != 90 {
		t.Errorf("the reopened clock shows %v, want 90", reopened.Now())
	}

	// Without an origin, a new store's clock starts at the last midnight
	// UTC; a wall clock's origin is 0: its readings are absolute.
	before := midnightBefore(wallClock())
	fresh := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true})
	if o := fresh.Origin(); math.Mod(o, SecondsPerDay) != 0 || o < before || o > before+SecondsPerDay {
		t.Errorf("a new store's default origin is %s, want the last midnight", day(o))
	}
	if o := newTestStore(t).Origin(); o != 0 {
		t.Errorf("a wall clock's origin is %v, want 0", o)
	}
}

// A server on the wall clock calls RunDueLifecycles after each midnight
// (and at start): it runs every configuration once per midnight, and the
// midnight it ran is kept with the store.
func TestRunDueLifecyclesRunsOncePerMidnight(t *testing.T) {
	mem := NewMemoryStorage()
	ts := openTestStore(t, mem, Options{})
	ts.bucket("demo", Unversioned)
	ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{expireAfter("r", "", 1)}}))
	ts.at(utc(t, "2014-01-15T10:30:00Z")).put("demo", "k", "x")
	due := func(at string, want int) {
		t.Helper()
		ts.at(utc(t, at))
		runs, err := ts.RunDueLifecycles()
		ts.must(err)
		if len(runs) != want {
			t.Errorf("RunDueLifecycles at %s ran %+v, want %d runs", at, runs, want)
		}
	}
	due("2014-01-15T10:30:00Z", 0) // the first call runs, with nothing due
	due("2014-01-16T23:59:59Z", 0)
	ts.at(utc(t, "2014-01-17T00:00:01Z")).put("demo", "j", "x")
	due("2014-01-17T00:00:01Z", 1)
	if got := ts.stack("demo", "k"); got != "" {
		t.Errorf("k after its run: %s, want it gone", got)
	}
	ts.retire()
	again := openTestStore(t, mem, Options{})
	again.at(utc(t, "2014-01-17T12:00:00Z"))
	if runs, err := again.RunDueLifecycles(); err != nil || len(runs) != 0 {
		t.Errorf("after a reopen on the same day RunDueLifecycles ran %+v, %v", runs, err)
	}
	again.at(utc(t, "2014-01-19T00:00:00Z"))
	if runs, err := again.RunDueLifecycles(); err != nil || len(runs) != 1 {
		t.Errorf("on the next due day RunDueLifecycles ran %+v, %v; want j's expiry", runs, err)
	}
}

// A server on the wall clock started after days stopped runs each midnight
// it missed, in order, each at its midnight, as moving a manual clock
// does, not one run: the marker a noncurrent expiration leaves alone on
// the first missed day is removed by the run of the day after, as 30 daily
// runs would have done, and it is gone after the restart.
func TestRunDueLifecyclesCatchesUpDayByDay(t *testing.T) {
	mem := NewMemoryStorage()
	ts := openTestStore(t, mem, Options{})
	ts.bucket("demo", Enabled)
	ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{{
		ID: "tidy", Enabled: true, Filter: &LifecycleFilter{},
		Expiration:                  &LifecycleExpiration{ExpiredObjectDeleteMarker: ptr(true)},
		NoncurrentVersionExpiration: &NoncurrentVersionExpiration{NoncurrentDays: ptr(1)},
	}}}))
	ts.at(utc(t, "2014-01-15T10:30:00Z"))
	_, err := ts.RunDueLifecycles()
	ts.must(err)
	ts.put("demo", "k", "x")
	ts.del("demo", "k", "")
	ts.retire() // the server stops for 30 days

	again := openTestStore(t, mem, Options{})
	again.at(utc(t, "2014-02-14T09:00:00Z"))
	runs, err := again.RunDueLifecycles()
	again.must(err)
	var got []string
	for _, r := range runs {
		for _, a := range actionStrings(r.Actions) {
			got = append(got, day(r.At)+" "+a)
		}
	}
	want := []string{"2014-01-17 tidy k v00000001 expire_noncurrent", "2014-01-18 tidy k v00000002 expire_delete_marker"}
	if !slices.Equal(got, want) {
		t.Errorf("the restart ran %q, want %q", got, want)
	}
	if stack := again.stack("demo", "k"); stack != "" {
		t.Errorf("k after the restart: %s, want nothing left", stack)
	}
	reopened := openTestStore(t, mem, Options{Clock: func() float64 { return utc(t, "2014-02-14T23:00:00Z") }})
	if runs, err := reopened.RunDueLifecycles(); err != nil || len(runs) != 0 {
		t.Errorf("a second start the same day ran %+v, %v; the midnights run were kept", runs, err)
	}
}

// A RunDueLifecycles whose commit fails has not run its midnight: the next
// call runs it.
func TestFailedRunDueLifecyclesRunsAgain(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Unversioned)
	ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{{
		ID: "past", Enabled: true, Filter: &LifecycleFilter{}, Expiration: &LifecycleExpiration{Date: ptr(utc(t, "2014-01-01"))},
	}}}))
	ts.at(utc(t, "2014-01-15T10:00:00Z"))
	ts.faults.FailCommits()
	if _, err := ts.RunDueLifecycles(); !errors.Is(err, errInjected) {
		t.Fatalf("RunDueLifecycles with a failing commit = %v, want the storage error", err)
	}
	ts.faults.ClearFaults()
	ts.at(utc(t, "2014-01-15T10:01:00Z")).put("demo", "k", "x")
	ts.at(utc(t, "2014-01-15T10:02:00Z"))
	runs, err := ts.RunDueLifecycles()
	ts.must(err)
	if len(runs) != 1 || !slices.Equal(actionStrings(runs[0].Actions), []string{"past k null expire_current"}) {
		t.Errorf("the call after the failure ran %+v, want the day's run, which expires k", runs)
	}
}

// x-amz-expiration [ref §5.8]: PUT, CompleteMultipartUpload, and GET and
// HEAD without a version ID say when the stored configuration will expire
// the version and by which rule: the earliest of the Days and Date rules
// that select it. It is computed at each request, from the configuration
// stored then.
func TestExpiryOfPutGetHeadAndComplete(t *testing.T) {
	ts := openTestStore(t, NewMemoryStorage(), Options{ManualClock: true, Origin: utc(t, "2014-01-15T10:30:00Z"), MinPartSize: 1})
	ts.bucket("demo", Enabled)
	plain, err := ts.PutObject("demo", "logs/a", []byte("x"), PutOptions{})
	ts.must(err)
	if plain.Expiration != nil {
		t.Errorf("a PUT without a configuration says it expires %+v", plain.Expiration)
	}
	ts.must(ts.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{
		{ID: "long", Enabled: true, Filter: &LifecycleFilter{Prefix: ptr("logs/")}, Expiration: &LifecycleExpiration{Days: ptr(30)}},
		{ID: "short", Enabled: true, Filter: &LifecycleFilter{}, Expiration: &LifecycleExpiration{Days: ptr(3)}},
		{ID: "dated", Enabled: true, Filter: &LifecycleFilter{Tag: &Tag{Key: "keep", Value: "no"}}, Expiration: &LifecycleExpiration{Date: ptr(utc(t, "2014-01-17"))}},
	}}))
	expiry := func(name string, got *Expiry, want string) {
		t.Helper()
		if s := expiryText(got); s != want {
			t.Errorf("%s: expiry %s, want %s", name, s, want)
		}
	}
	put, err := ts.PutObject("demo", "logs/b", []byte("x"), PutOptions{})
	ts.must(err)
	expiry("PUT", put.Expiration, "2014-01-19 short")
	tagged, err := ts.PutObject("demo", "t", []byte("x"), PutOptions{Meta: ObjectMeta{Tags: []Tag{{Key: "keep", Value: "no"}}}})
	ts.must(err)
	expiry("PUT of a tagged object", tagged.Expiration, "2014-01-17 dated")
	for _, read := range []struct {
		name string
		call func(string, string, GetOptions) (*Object, error)
	}{{"GET", ts.GetObject}, {"HEAD", ts.HeadObject}} {
		obj, err := read.call("demo", "logs/a", GetOptions{})
		ts.must(err)
		expiry(read.name+" of an object made before the configuration", obj.Expiration, "2014-01-19 short")
		obj, err = read.call("demo", "logs/a", GetOptions{VersionID: plain.VersionID})
		ts.must(err)
		expiry(read.name+" by version ID", obj.Expiration, "none")
	}
	up, err := ts.CreateMultipartUpload("demo", "logs/mp", PutOptions{})
	ts.must(err)
	part, err := ts.UploadPart("demo", "logs/mp", up.UploadID, 1, []byte("p"))
	ts.must(err)
	done, err := ts.CompleteMultipartUpload("demo", "logs/mp", up.UploadID, []CompletedPart{{PartNumber: 1, ETag: part.ETag}})
	ts.must(err)
	expiry("CompleteMultipartUpload", done.Expiration, "2014-01-19 short")

	ts.must(ts.DeleteBucketLifecycle("demo"))
	obj, err := ts.HeadObject("demo", "logs/a", GetOptions{})
	ts.must(err)
	expiry("HEAD once the configuration is gone", obj.Expiration, "none")
}

func TestOpenRefusesAnOriginOutsideTheYears1To9999(t *testing.T) {
	for _, origin := range []float64{math.NaN(), math.Inf(1), -62135596801, 253402300800} {
		_, err := Open(NewMemoryStorage(), Options{ManualClock: true, Origin: origin})
		wantCode(t, err, InvalidArgument)
	}
}
