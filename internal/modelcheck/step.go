package modelcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"minis3/internal/model"
)

// Op names an operation of a step.
type Op string

// The operations a sequence is made of. A listing op pages through to the
// end: each page is one request.
const (
	CreateBucket     Op = "create-bucket"
	DeleteBucket     Op = "delete-bucket"
	ListBuckets      Op = "list-buckets"
	HeadBucket       Op = "head-bucket"
	SetVersioning    Op = "set-versioning"
	GetVersioning    Op = "get-versioning"
	Put              Op = "put"
	Get              Op = "get"
	Head             Op = "head"
	Delete           Op = "delete"
	DeleteObjects    Op = "delete-objects"
	ListVersions     Op = "list-versions"
	ListObjects      Op = "list-objects"
	CreateUpload     Op = "create-upload"
	UploadPart       Op = "upload-part"
	CompleteUpload   Op = "complete-upload"
	AbortUpload      Op = "abort-upload"
	ListParts        Op = "list-parts"
	ListUploads      Op = "list-uploads"
	SetClock         Op = "set-clock"
	Evaluate         Op = "evaluate"
	Tick             Op = "tick"
	PutLifecycle     Op = "put-lifecycle"
	GetLifecycle     Op = "get-lifecycle"
	DeleteLifecycle  Op = "delete-lifecycle"
	RunLifecycle     Op = "run-lifecycle"
	PreviewLifecycle Op = "preview-lifecycle"
	PutTagging       Op = "put-tagging"
	GetTagging       Op = "get-tagging"
	DeleteTagging    Op = "delete-tagging"
	// The bucket's own tags.
	PutBucketTagging    Op = "put-bucket-tagging"
	GetBucketTagging    Op = "get-bucket-tagging"
	DeleteBucketTagging Op = "delete-bucket-tagging"
	// Reopen closes the store and opens it again from its storage.
	Reopen Op = "reopen"
	// Open can only be a sequence's first step: the sequence runs on a
	// new store whose clock reads 0 at Origin. A sequence without it
	// starts at DefaultOrigin.
	Open Op = "open"
)

// Step is one operation with its arguments. Only the fields its Op uses are
// set. FailCommit makes the storage refuse the step's commit: the store
// must then answer InternalError and be exactly as before.
type Step struct {
	Op          Op                            `json:"op"`
	Bucket      string                        `json:"bucket,omitempty"`
	Key         string                        `json:"key,omitempty"`
	VersionID   string                        `json:"versionId,omitempty"`
	Body        string                        `json:"body,omitempty"`
	ContentType string                        `json:"contentType,omitempty"`
	Versioning  model.Versioning              `json:"versioning,omitempty"`
	Now         float64                       `json:"now,omitempty"`
	Objects     []model.ObjectID              `json:"objects,omitempty"`
	List        *ListArgs                     `json:"list,omitempty"`
	UploadID    string                        `json:"uploadId,omitempty"`
	PartNumber  int                           `json:"partNumber,omitempty"`
	Parts       []model.CompletedPart         `json:"parts,omitempty"`
	Rules       []model.Rule                  `json:"rules,omitempty"`
	Lifecycle   *model.LifecycleConfiguration `json:"lifecycle,omitempty"`
	Tags        []model.Tag                   `json:"tags,omitempty"`
	IfNoneMatch bool                          `json:"ifNoneMatch,omitempty"` // put, complete-upload
	IfMatch     string                        `json:"ifMatch,omitempty"`     // put, complete-upload
	Origin      float64                       `json:"origin,omitempty"`
	FailCommit  bool                          `json:"failCommit,omitempty"`
}

// conditions are the step's write conditions, in the model's terms.
func (s Step) conditions() model.Conditions {
	return model.Conditions{IfNoneMatch: s.IfNoneMatch, IfMatch: s.IfMatch}
}

// ListArgs are a listing's parameters: where its first page starts, and
// the page size (0: the default).
type ListArgs struct {
	Prefix          string `json:"prefix,omitempty"`
	Delimiter       string `json:"delimiter,omitempty"`
	KeyMarker       string `json:"keyMarker,omitempty"`       // versions, uploads
	VersionIDMarker string `json:"versionIdMarker,omitempty"` // versions
	UploadIDMarker  string `json:"uploadIdMarker,omitempty"`  // uploads
	StartAfter      string `json:"startAfter,omitempty"`      // objects
	MaxKeys         int    `json:"maxKeys,omitempty"`
}

// String is the step as one readable line.
func (s Step) String() string {
	var b strings.Builder
	b.WriteString(string(s.Op))
	word := func(name, v string) {
		if v != "" {
			fmt.Fprintf(&b, " %s=%s", name, quote(v))
		}
	}
	word("bucket", s.Bucket)
	word("key", s.Key)
	word("versionId", s.VersionID)
	if s.Op == Put || s.Op == UploadPart {
		fmt.Fprintf(&b, " body=%s", quote(s.Body))
	}
	word("contentType", s.ContentType)
	word("versioning", string(s.Versioning))
	if s.Op == SetClock {
		fmt.Fprintf(&b, " now=%v", s.Now)
	}
	if s.Op == Open {
		fmt.Fprintf(&b, " origin=%s", date(s.Origin))
	}
	for _, t := range s.Tags {
		fmt.Fprintf(&b, " tag=%s:%s", quote(t.Key), quote(t.Value))
	}
	if (s.Op == PutTagging || s.Op == PutBucketTagging) && len(s.Tags) == 0 {
		b.WriteString(" (no tags)")
	}
	if s.IfNoneMatch {
		b.WriteString(" ifNoneMatch=*")
	}
	word("ifMatch", s.IfMatch)
	for _, o := range s.Objects {
		fmt.Fprintf(&b, " object=%s", quote(o.Key))
		if o.VersionID != "" {
			fmt.Fprintf(&b, "@%s", quote(o.VersionID))
		}
	}
	if l := s.List; l != nil {
		word("prefix", l.Prefix)
		word("delimiter", l.Delimiter)
		word("keyMarker", l.KeyMarker)
		word("versionIdMarker", l.VersionIDMarker)
		word("uploadIdMarker", l.UploadIDMarker)
		word("startAfter", l.StartAfter)
		if l.MaxKeys != 0 {
			fmt.Fprintf(&b, " maxKeys=%d", l.MaxKeys)
		}
	}
	word("uploadId", s.UploadID)
	if s.Op == UploadPart {
		fmt.Fprintf(&b, " part=%d", s.PartNumber)
	}
	for _, p := range s.Parts {
		fmt.Fprintf(&b, " part=%d:%s", p.Number, p.ETag)
	}
	for _, r := range s.Rules {
		fmt.Fprintf(&b, " rule={id=%q prefix=%q current=%s noncurrent=%s}", r.ID, r.Prefix, threshold(r.ExpireCurrentAfter), threshold(r.ExpireNoncurrentAfter))
	}
	if c := s.Lifecycle; c != nil {
		for _, r := range c.Rules {
			b.WriteString(" " + lifecycleRule(r))
		}
		if len(c.Rules) == 0 {
			b.WriteString(" (no rules)")
		}
	}
	if s.FailCommit {
		b.WriteString(" (the storage fails its commit)")
	}
	return b.String()
}

// quote is v quoted, shortened in the middle when it is long.
func quote(v string) string {
	if len(v) > 40 {
		return fmt.Sprintf("%s…(%d bytes)…%s", strconv.Quote(v[:16]), len(v), strconv.Quote(v[len(v)-8:]))
	}
	return strconv.Quote(v)
}

// date is a time in seconds since the Unix epoch as RFC 3339, in UTC.
func date(sec float64) string {
	return time.Unix(0, 0).Add(time.Duration(math.Round(sec*1e3)) * time.Millisecond).UTC().Format("2006-01-02T15:04:05.999Z07:00")
}

// lifecycleRule is a stored rule in a few words: its elements as S3's
// document names them, those it leaves out left out.
func lifecycleRule(r model.LifecycleRule) string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	add("id=%q", r.ID)
	if !r.Enabled {
		add("Disabled")
	}
	if r.Prefix != nil {
		add("Prefix=%q", *r.Prefix)
	}
	if f := r.Filter; f != nil {
		add("Filter=%s", filter(f.Prefix, tagsOf(f.Tag), f.ObjectSizeGreaterThan, f.ObjectSizeLessThan))
		if a := f.And; a != nil {
			add("And=%s", filter(a.Prefix, a.Tags, a.ObjectSizeGreaterThan, a.ObjectSizeLessThan))
		}
	}
	if x := r.Expiration; x != nil {
		words := days("Days", x.Days, x.Date)
		if x.ExpiredObjectDeleteMarker != nil {
			words = append(words, fmt.Sprintf("ExpiredObjectDeleteMarker=%t", *x.ExpiredObjectDeleteMarker))
		}
		add("Expiration{%s}", strings.Join(words, " "))
	}
	if x := r.NoncurrentVersionExpiration; x != nil {
		add("NoncurrentVersionExpiration{%s}", strings.Join(append(days("NoncurrentDays", x.NoncurrentDays, nil), newer(x.NewerNoncurrentVersions)...), " "))
	}
	if x := r.AbortIncompleteMultipartUpload; x != nil {
		add("AbortIncompleteMultipartUpload{DaysAfterInitiation=%d}", x.DaysAfterInitiation)
	}
	for _, t := range r.Transitions {
		add("Transition{%s}", strings.Join(append(days("Days", t.Days, t.Date), "StorageClass="+t.StorageClass), " "))
	}
	for _, t := range r.NoncurrentVersionTransitions {
		add("NoncurrentVersionTransition{%s}", strings.Join(append([]string{fmt.Sprintf("NoncurrentDays=%d StorageClass=%s", t.NoncurrentDays, t.StorageClass)}, newer(t.NewerNoncurrentVersions)...), " "))
	}
	return "rule={" + strings.Join(parts, " ") + "}"
}

func tagsOf(t *model.Tag) []model.Tag {
	if t == nil {
		return nil
	}
	return []model.Tag{*t}
}

// filter is a Filter's or an And's predicates, {} for none.
func filter(prefix *string, tags []model.Tag, greaterThan, lessThan *int64) string {
	var parts []string
	if prefix != nil {
		parts = append(parts, "Prefix="+strconv.Quote(*prefix))
	}
	for _, t := range tags {
		parts = append(parts, fmt.Sprintf("Tag=%s:%s", quote(t.Key), quote(t.Value)))
	}
	if greaterThan != nil {
		parts = append(parts, fmt.Sprintf("ObjectSizeGreaterThan=%d", *greaterThan))
	}
	if lessThan != nil {
		parts = append(parts, fmt.Sprintf("ObjectSizeLessThan=%d", *lessThan))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func days(name string, n *int, at *float64) []string {
	var out []string
	if n != nil {
		out = append(out, fmt.Sprintf("%s=%d", name, *n))
	}
	if at != nil {
		out = append(out, "Date="+date(*at))
	}
	return out
}

func newer(n *int) []string {
	if n == nil {
		return nil
	}
	return []string{fmt.Sprintf("NewerNoncurrentVersions=%d", *n)}
}

func threshold(t *float64) string {
	if t == nil {
		return "unset"
	}
	return strconv.FormatFloat(*t, 'g', -1, 64)
}

// EncodeSteps writes steps one JSON object a line, after comment lines
// (starting with #) that say what the sequence is.
func EncodeSteps(comment string, steps []Step) []byte {
	var b bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(comment), "\n") {
		b.WriteString("# " + line + "\n")
	}
	for _, s := range steps {
		j, err := json.Marshal(s)
		if err != nil {
			panic(err) // a Step holds nothing json cannot encode
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// DecodeSteps reads what EncodeSteps wrote; blank and # lines are skipped.
func DecodeSteps(data []byte) ([]Step, error) {
	var steps []Step
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var s Step
		d := json.NewDecoder(strings.NewReader(line))
		d.DisallowUnknownFields()
		if err := d.Decode(&s); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if s.Op == Open && len(steps) > 0 {
			return nil, fmt.Errorf("line %d: only a sequence's first step can open its store", n)
		}
		steps = append(steps, s)
	}
	return steps, sc.Err()
}
