// Package wire is the JSON MiniS3 speaks outside S3's own XML: the bodies
// of the /_minis3/ HTTP extensions (package web) and the results of the
// JavaScript API (package wasm/jsapi). Each shape is one type, whose json
// tags say what it looks like, and one method that writes it without
// reflection (package jsonv; the wasm links no encoding/json). The tests
// hold every writer to encoding/json, byte for byte.
package wire

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"minis3/core"
	"minis3/internal/jsonv"
)

// A Shape writes itself as JSON.
type Shape interface {
	AppendJSON(b []byte) []byte
}

// List appends items as a JSON array.
func List[T Shape](b []byte, items []T) []byte {
	return jsonv.AppendArray(b, items, func(b []byte, v T) []byte { return v.AppendJSON(b) })
}

// Rule is one of the chapter's lifecycle rules: thresholds in seconds; an
// omitted (or null) threshold is unset, which is not the same as 0.
type Rule struct {
	ID                    string   `json:"id"`
	Prefix                string   `json:"prefix"`
	ExpireCurrentAfter    *float64 `json:"expireCurrentAfter"`
	ExpireNoncurrentAfter *float64 `json:"expireNoncurrentAfter"`
}

func readRule(d *jsonv.Decoder, r *Rule) error {
	return d.Object([]string{"id", "prefix", "expireCurrentAfter", "expireNoncurrentAfter"}, func(name string) error {
		switch name {
		case "id":
			return d.String(&r.ID)
		case "prefix":
			return d.String(&r.Prefix)
		case "expireCurrentAfter":
			return jsonv.Pointer(d, &r.ExpireCurrentAfter, (*jsonv.Decoder).Float)
		case "expireNoncurrentAfter":
			return jsonv.Pointer(d, &r.ExpireNoncurrentAfter, (*jsonv.Decoder).Float)
		}
		return nil
	})
}

// DecodeRules reads a JSON array of rules. Unknown fields and values of the
// wrong type are InvalidArgument; whether the rules are valid (a threshold
// set, none negative) is the store's to say.
func DecodeRules(data []byte) ([]core.ExpirationRule, error) {
	var in []Rule
	if err := Decode(data, func(d *jsonv.Decoder) error { return jsonv.Slice(d, &in, readRule) }); err != nil {
		return nil, err
	}
	if in == nil {
		return nil, invalid("rules must be an array of rules")
	}
	rules := make([]core.ExpirationRule, len(in))
	for i, r := range in {
		rules[i] = core.ExpirationRule{ID: r.ID, Prefix: r.Prefix, ExpireCurrentAfter: r.ExpireCurrentAfter, ExpireNoncurrentAfter: r.ExpireNoncurrentAfter}
	}
	return rules, nil
}

// Tick is the body of a tick or preview request, {"rules": [...]}: the
// chapter's rules, which a tick always names. Rules holds their text for
// DecodeRules.
type Tick struct {
	Rules []byte
}

// ReadTick reads a Tick.
func ReadTick(d *jsonv.Decoder, t *Tick) error {
	return d.Object([]string{"rules"}, func(string) error {
		t.Rules = d.Raw()
		return nil
	})
}

// Action is a lifecycle action; Kind is its kind's name (expire_current,
// transition, ...). An abort names its upload, a transition the storage
// class it moves to; a delete marker's expiry, like an abort, has no
// version ID.
type Action struct {
	RuleID       string `json:"ruleId"`
	Key          string `json:"key"`
	VersionID    string `json:"versionId"`
	Kind         string `json:"kind"`
	UploadID     string `json:"uploadId,omitempty"`
	StorageClass string `json:"storageClass,omitempty"`
}

// Actions are the store's actions in their JSON shape, never nil.
func Actions(actions []core.LifecycleAction) []Action {
	out := make([]Action, len(actions))
	for i, a := range actions {
		out[i] = ActionOf(a)
	}
	return out
}

// ActionOf is a's shape.
func ActionOf(a core.LifecycleAction) Action {
	return Action{RuleID: a.RuleID, Key: a.Key, VersionID: a.VersionID, Kind: a.Kind.String(),
		UploadID: a.UploadID, StorageClass: a.StorageClass}
}

func (a Action) AppendJSON(b []byte) []byte {
	return append(a.appendMembers(b), '}')
}

// appendMembers appends a's object without its closing brace, for shapes
// that extend it (Scheduled).
func (a Action) appendMembers(b []byte) []byte {
	b = append(b, `{"ruleId":`...)
	b = jsonv.AppendString(b, a.RuleID)
	b = append(b, `,"key":`...)
	b = jsonv.AppendString(b, a.Key)
	b = append(b, `,"versionId":`...)
	b = jsonv.AppendString(b, a.VersionID)
	b = append(b, `,"kind":`...)
	b = jsonv.AppendString(b, a.Kind)
	b = appendStringIf(b, `,"uploadId":`, a.UploadID)
	b = appendStringIf(b, `,"storageClass":`, a.StorageClass)
	return b
}

// Scheduled is an action of a schedule and when it falls due, in seconds
// of the store's clock.
type Scheduled struct {
	Action
	Due float64 `json:"due"`
}

// Schedule is the store's schedule in its JSON shape, never nil.
func Schedule(schedule []core.ScheduledAction) []Scheduled {
	out := make([]Scheduled, len(schedule))
	for i, s := range schedule {
		out[i] = Scheduled{Action: ActionOf(s.LifecycleAction), Due: s.Due}
	}
	return out
}

func (s Scheduled) AppendJSON(b []byte) []byte {
	b = append(s.Action.appendMembers(b), `,"due":`...)
	b = jsonv.AppendFloat(b, s.Due)
	return append(b, '}')
}

// appendStringIf appends the member name and s, unless s is empty.
func appendStringIf(b []byte, name, s string) []byte {
	if s == "" {
		return b
	}
	return jsonv.AppendString(append(b, name...), s)
}

// Run is one daily run of a bucket's stored S3 lifecycle configuration: At
// is the clock's reading at its midnight, Time that midnight.
type Run struct {
	Bucket  string   `json:"bucket"`
	At      float64  `json:"at"`
	Time    string   `json:"time"`
	Actions []Action `json:"actions"`
}

// Runs are the store's runs in their JSON shape, never nil.
func Runs(runs []core.LifecycleRun, origin float64) []Run {
	out := make([]Run, len(runs))
	for i, r := range runs {
		out[i] = Run{Bucket: r.Bucket, At: r.At, Time: Time(origin + r.At), Actions: Actions(r.Actions)}
	}
	return out
}

func (r Run) AppendJSON(b []byte) []byte {
	b = append(b, `{"bucket":`...)
	b = jsonv.AppendString(b, r.Bucket)
	b = append(b, `,"at":`...)
	b = jsonv.AppendFloat(b, r.At)
	b = append(b, `,"time":`...)
	b = jsonv.AppendString(b, r.Time)
	b = append(b, `,"actions":`...)
	b = List(b, r.Actions)
	return append(b, '}')
}

// Time is t, seconds since the Unix epoch, in RFC 3339 (UTC, with as many
// fractional digits as it needs, to the microsecond: what a float64 holds
// exactly for the times of our era).
func Time(t float64) string {
	whole, frac := math.Modf(t)
	return time.Unix(int64(whole), int64(math.Round(frac*1e6))*1000).UTC().Format(time.RFC3339Nano)
}

// Expiry is when S3's lifecycle will expire a version (what S3 sends as
// x-amz-expiration) or abort an upload (x-amz-abort-date), and by which
// rule.
type Expiry struct {
	Date   string `json:"date"`
	RuleID string `json:"ruleId"`
}

// ExpiryOf is e's shape; nil for nil.
func ExpiryOf(e *core.Expiry) *Expiry {
	if e == nil {
		return nil
	}
	return &Expiry{Date: Time(e.Date), RuleID: e.RuleID}
}

func (e Expiry) AppendJSON(b []byte) []byte {
	b = append(b, `{"date":`...)
	b = jsonv.AppendString(b, e.Date)
	b = append(b, `,"ruleId":`...)
	b = jsonv.AppendString(b, e.RuleID)
	return append(b, '}')
}

// appendExpiryIf appends the member name and e, unless e is nil.
func appendExpiryIf(b []byte, name string, e *Expiry) []byte {
	if e == nil {
		return b
	}
	return e.AppendJSON(append(b, name...))
}

// ActionsBody is the answer of a tick or preview extension.
type ActionsBody struct {
	Actions []Action `json:"actions"`
}

func (a ActionsBody) AppendJSON(b []byte) []byte {
	b = append(b, `{"actions":`...)
	b = List(b, a.Actions)
	return append(b, '}')
}

// Clock is the store's clock: Now is a manual clock's reading in seconds
// (null on the wall clock), Origin the Unix time of its 0 (0 on the wall
// clock), Time the instant it shows.
type Clock struct {
	Now    *float64 `json:"now"`
	Origin float64  `json:"origin"`
	Time   string   `json:"time"`
}

// ClockOf is the clock of s.
func ClockOf(s *core.Store) Clock {
	now, origin := s.Now(), s.Origin()
	c := Clock{Origin: origin, Time: Time(origin + now)}
	if s.ManualClock() {
		c.Now = &now
	}
	return c
}

func (c Clock) AppendJSON(b []byte) []byte {
	return append(c.appendMembers(b), '}')
}

func (c Clock) appendMembers(b []byte) []byte {
	b = append(b, `{"now":`...)
	if c.Now == nil {
		b = append(b, "null"...)
	} else {
		b = jsonv.AppendFloat(b, *c.Now)
	}
	b = append(b, `,"origin":`...)
	b = jsonv.AppendFloat(b, c.Origin)
	b = append(b, `,"time":`...)
	b = jsonv.AppendString(b, c.Time)
	return b
}

// ClockMoved is the clock after a move, with the daily lifecycle runs the
// move passed that did something.
type ClockMoved struct {
	Clock
	Runs []Run `json:"runs"`
}

func (c ClockMoved) AppendJSON(b []byte) []byte {
	b = append(c.Clock.appendMembers(b), `,"runs":`...)
	b = List(b, c.Runs)
	return append(b, '}')
}

// ClockMove is a request to move the clock: to Now seconds, or to the
// instant Time (RFC 3339).
type ClockMove struct {
	Now  *float64 `json:"now"`
	Time *string  `json:"time"`
}

// ReadClockMove reads a ClockMove.
func ReadClockMove(d *jsonv.Decoder, c *ClockMove) error {
	return d.Object([]string{"now", "time"}, func(name string) error {
		if name == "time" {
			return jsonv.Pointer(d, &c.Time, (*jsonv.Decoder).String)
		}
		return jsonv.Pointer(d, &c.Now, (*jsonv.Decoder).Float)
	})
}

// Seconds is the clock reading of a move: Now, or Time less origin. Exactly
// one of them must be given.
func (c ClockMove) Seconds(origin float64) (float64, error) {
	switch {
	case (c.Now == nil) == (c.Time == nil):
		return 0, invalid(`the body must be {"now": <seconds>} or {"time": "<RFC 3339>"}`)
	case c.Now != nil:
		return *c.Now, nil
	}
	t, err := time.Parse(time.RFC3339Nano, *c.Time)
	if err != nil {
		return 0, invalid("time must be an RFC 3339 time such as 2025-12-04T00:00:15Z, not %q", *c.Time)
	}
	return float64(t.Unix()) - origin + float64(t.Nanosecond())/1e9, nil
}

// Error is an extension's error: the S3 code and a message.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e Error) AppendJSON(b []byte) []byte {
	b = append(b, `{"code":`...)
	b = jsonv.AppendString(b, e.Code)
	b = append(b, `,"message":`...)
	b = jsonv.AppendString(b, e.Message)
	return append(b, '}')
}

// Bucket is a bucket of listBuckets.
type Bucket struct {
	Name       string  `json:"name"`
	CreatedAt  float64 `json:"createdAt"`
	Versioning string  `json:"versioning"`
}

// BucketOf is b's shape.
func BucketOf(b core.BucketInfo) Bucket {
	return Bucket{Name: b.Name, CreatedAt: b.CreatedAt, Versioning: string(b.Versioning)}
}

func (v Bucket) AppendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = jsonv.AppendString(b, v.Name)
	b = append(b, `,"createdAt":`...)
	b = jsonv.AppendFloat(b, v.CreatedAt)
	b = append(b, `,"versioning":`...)
	b = jsonv.AppendString(b, v.Versioning)
	return append(b, '}')
}

// Written is what a put or a multipart completion made.
type Written struct {
	VersionID  string  `json:"versionId"`
	ETag       string  `json:"etag"`
	Size       int64   `json:"size"`
	CreatedAt  float64 `json:"createdAt"`
	Expiration *Expiry `json:"expiration,omitempty"`
}

// WrittenOf is r's shape.
func WrittenOf(r core.PutResult) Written {
	return Written{VersionID: r.VersionID, ETag: r.ETag, Size: r.Size, CreatedAt: r.CreatedAt, Expiration: ExpiryOf(r.Expiration)}
}

func (v Written) AppendJSON(b []byte) []byte {
	b = append(b, `{"versionId":`...)
	b = jsonv.AppendString(b, v.VersionID)
	b = append(b, `,"etag":`...)
	b = jsonv.AppendString(b, v.ETag)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, v.Size, 10)
	b = append(b, `,"createdAt":`...)
	b = jsonv.AppendFloat(b, v.CreatedAt)
	b = appendExpiryIf(b, `,"expiration":`, v.Expiration)
	return append(b, '}')
}

// Object is a key's current data version in listObjects, and the version
// get read, which also says its content type when it has one, how many
// tags it has when it has some, and when S3's lifecycle will expire it.
type Object struct {
	Key          string  `json:"key"`
	VersionID    string  `json:"versionId"`
	ETag         string  `json:"etag"`
	Size         int64   `json:"size"`
	CreatedAt    float64 `json:"createdAt"`
	StorageClass string  `json:"storageClass"`
	ContentType  string  `json:"contentType,omitempty"`
	TagCount     int     `json:"tagCount,omitempty"`
	Expiration   *Expiry `json:"expiration,omitempty"`
}

// ObjectOf is the shape of key's version v.
func ObjectOf(key string, v *core.Version) Object {
	return Object{Key: key, VersionID: v.VersionID, ETag: v.ETag, Size: v.Size, CreatedAt: v.CreatedAt,
		StorageClass: StorageClass(v.Meta.StorageClass), ContentType: v.Meta.ContentType, TagCount: len(v.Meta.Tags)}
}

// ReadOf is the shape of the object a get or head read.
func ReadOf(o core.Object) Object {
	v := ObjectOf(o.Key, o.Version)
	v.Expiration = ExpiryOf(o.Expiration)
	return v
}

// StorageClass is the name of class, a version's storage class: "" is
// STANDARD.
func StorageClass(class string) string {
	if class == "" {
		return "STANDARD"
	}
	return class
}

func (v Object) AppendJSON(b []byte) []byte {
	b = append(b, `{"key":`...)
	b = jsonv.AppendString(b, v.Key)
	b = append(b, `,"versionId":`...)
	b = jsonv.AppendString(b, v.VersionID)
	b = append(b, `,"etag":`...)
	b = jsonv.AppendString(b, v.ETag)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, v.Size, 10)
	b = append(b, `,"createdAt":`...)
	b = jsonv.AppendFloat(b, v.CreatedAt)
	b = append(b, `,"storageClass":`...)
	b = jsonv.AppendString(b, v.StorageClass)
	b = appendStringIf(b, `,"contentType":`, v.ContentType)
	if v.TagCount != 0 {
		b = append(b, `,"tagCount":`...)
		b = strconv.AppendInt(b, int64(v.TagCount), 10)
	}
	b = appendExpiryIf(b, `,"expiration":`, v.Expiration)
	return append(b, '}')
}

// Deleted is what a delete did: the marker made or the version named (no
// versionId for an unversioned delete).
type Deleted struct {
	VersionID    string `json:"versionId,omitempty"`
	DeleteMarker bool   `json:"deleteMarker"`
}

func (v Deleted) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	if v.VersionID != "" {
		b = append(b, `"versionId":`...)
		b = jsonv.AppendString(b, v.VersionID)
		b = append(b, ',')
	}
	b = append(b, `"deleteMarker":`...)
	b = strconv.AppendBool(b, v.DeleteMarker)
	return append(b, '}')
}

// Version is one entry of listVersions. A delete marker has no etag, size,
// storage class or tags.
type Version struct {
	Key            string  `json:"key"`
	VersionID      string  `json:"versionId"`
	IsDeleteMarker bool    `json:"isDeleteMarker"`
	IsLatest       bool    `json:"isLatest"`
	CreatedAt      float64 `json:"createdAt"`
	Size           *int64  `json:"size,omitempty"`
	ETag           string  `json:"etag,omitempty"`
	StorageClass   string  `json:"storageClass,omitempty"`
	Tags           []Tag   `json:"tags,omitempty"`
}

// VersionOf is e's shape.
func VersionOf(e core.VersionEntry) Version {
	v := Version{Key: e.Key, VersionID: e.VersionID, IsDeleteMarker: e.IsDeleteMarker, IsLatest: e.IsLatest, CreatedAt: e.CreatedAt}
	if !e.IsDeleteMarker {
		size := e.Size
		v.Size, v.ETag, v.StorageClass = &size, e.ETag, StorageClass(e.StorageClass)
		if len(e.Tags) > 0 {
			v.Tags = TagsOf(e.Tags)
		}
	}
	return v
}

func (v Version) AppendJSON(b []byte) []byte {
	b = append(b, `{"key":`...)
	b = jsonv.AppendString(b, v.Key)
	b = append(b, `,"versionId":`...)
	b = jsonv.AppendString(b, v.VersionID)
	b = append(b, `,"isDeleteMarker":`...)
	b = strconv.AppendBool(b, v.IsDeleteMarker)
	b = append(b, `,"isLatest":`...)
	b = strconv.AppendBool(b, v.IsLatest)
	b = append(b, `,"createdAt":`...)
	b = jsonv.AppendFloat(b, v.CreatedAt)
	if v.Size != nil {
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, *v.Size, 10)
	}
	b = appendStringIf(b, `,"etag":`, v.ETag)
	b = appendStringIf(b, `,"storageClass":`, v.StorageClass)
	if len(v.Tags) > 0 {
		b = append(b, `,"tags":`...)
		b = List(b, v.Tags)
	}
	return append(b, '}')
}

// Upload is a multipart upload in progress, and when S3's lifecycle will
// abort it.
type Upload struct {
	Key       string  `json:"key"`
	UploadID  string  `json:"uploadId"`
	Initiated float64 `json:"initiated"`
	Abort     *Expiry `json:"abort,omitempty"`
}

// UploadOf is u's shape.
func UploadOf(u core.UploadInfo) Upload {
	return Upload{Key: u.Key, UploadID: u.UploadID, Initiated: u.Initiated, Abort: ExpiryOf(u.Abort)}
}

func (v Upload) AppendJSON(b []byte) []byte {
	b = append(b, `{"key":`...)
	b = jsonv.AppendString(b, v.Key)
	b = append(b, `,"uploadId":`...)
	b = jsonv.AppendString(b, v.UploadID)
	b = append(b, `,"initiated":`...)
	b = jsonv.AppendFloat(b, v.Initiated)
	b = appendExpiryIf(b, `,"abort":`, v.Abort)
	return append(b, '}')
}

// Part is an uploaded part.
type Part struct {
	PartNumber int     `json:"partNumber"`
	ETag       string  `json:"etag"`
	Size       int64   `json:"size"`
	CreatedAt  float64 `json:"createdAt"`
}

// PartOf is p's shape.
func PartOf(p core.PartInfo) Part {
	return Part{PartNumber: p.PartNumber, ETag: p.ETag, Size: p.Size, CreatedAt: p.CreatedAt}
}

func (v Part) AppendJSON(b []byte) []byte {
	b = append(b, `{"partNumber":`...)
	b = strconv.AppendInt(b, int64(v.PartNumber), 10)
	b = append(b, `,"etag":`...)
	b = jsonv.AppendString(b, v.ETag)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, v.Size, 10)
	b = append(b, `,"createdAt":`...)
	b = jsonv.AppendFloat(b, v.CreatedAt)
	return append(b, '}')
}

// Tag is an object tag.
type Tag struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// TagsOf are tags in their JSON shape, never nil.
func TagsOf(tags []core.Tag) []Tag {
	out := make([]Tag, len(tags))
	for i, t := range tags {
		out[i] = Tag{Key: t.Key, Value: t.Value}
	}
	return out
}

func (t Tag) AppendJSON(b []byte) []byte {
	b = append(b, `{"key":`...)
	b = jsonv.AppendString(b, t.Key)
	b = append(b, `,"value":`...)
	b = jsonv.AppendString(b, t.Value)
	return append(b, '}')
}

// Tagging is a version's tags, and the version they belong to.
type Tagging struct {
	VersionID string `json:"versionId"`
	Tags      []Tag  `json:"tags"`
}

func (t Tagging) AppendJSON(b []byte) []byte {
	b = append(b, `{"versionId":`...)
	b = jsonv.AppendString(b, t.VersionID)
	b = append(b, `,"tags":`...)
	b = List(b, t.Tags)
	return append(b, '}')
}

// Retagged is what a put or delete of a version's tags answers: the
// version whose tags it replaced.
type Retagged struct {
	VersionID string `json:"versionId"`
}

func (r Retagged) AppendJSON(b []byte) []byte {
	b = append(b, `{"versionId":`...)
	b = jsonv.AppendString(b, r.VersionID)
	return append(b, '}')
}

// Decode reads data, exactly one JSON value, with read, refusing unknown
// fields. A value of the wrong type is reported as what it must be: "now
// must be a number, not a JSON string". Every failure is InvalidArgument.
func Decode(data []byte, read func(*jsonv.Decoder) error) error {
	d, err := jsonv.NewDecoder(data)
	if err == nil {
		d.Strict = true
		err = read(d)
	}
	var te *jsonv.TypeError
	switch {
	case errors.As(err, &te):
		return invalid("%s", te.Error())
	case err != nil:
		return invalid("not the expected JSON: %v", err)
	}
	return nil
}

func invalid(format string, args ...any) error {
	return &core.Error{Code: core.InvalidArgument, Message: fmt.Sprintf(format, args...)}
}
