// Package wire is the JSON MiniS3 speaks outside S3's own XML: the bodies
// of the /_minis3/ HTTP extensions (package web) and the results of the
// JavaScript API (package wasm/jsapi). Each shape is one type, whose json
// tags say what it looks like; encoding/json writes it, and Decode reads a
// request into it. testdata/shapes.txt holds the JSON of every shape, which
// the tests keep.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"minis3/core"
	"minis3/internal/strictjson"
)

// Rule is one of the chapter's lifecycle rules: thresholds in seconds; an
// omitted (or null) threshold is unset, which is not the same as 0.
type Rule struct {
	ID                    string   `json:"id"`
	Prefix                string   `json:"prefix"`
	ExpireCurrentAfter    *float64 `json:"expireCurrentAfter"`
	ExpireNoncurrentAfter *float64 `json:"expireNoncurrentAfter"`
}

// DecodeRules reads a JSON array of rules. Unknown fields and values of the
// wrong type are InvalidArgument; whether the rules are valid (a threshold
// set, none negative) is the store's to say.
func DecodeRules(data []byte) ([]core.ExpirationRule, error) {
	var in []Rule
	if err := Decode(data, &in); err != nil {
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
	Rules json.RawMessage `json:"rules"`
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

// ActionsBody is the answer of a tick or preview extension.
type ActionsBody struct {
	Actions []Action `json:"actions"`
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

// ClockMoved is the clock after a move, with the daily lifecycle runs the
// move passed that did something.
type ClockMoved struct {
	Clock
	Runs []Run `json:"runs"`
}

// ClockMove is a request to move the clock: to Now seconds, or to the
// instant Time (RFC 3339).
type ClockMove struct {
	Now  *float64 `json:"now"`
	Time *string  `json:"time"`
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

// Deleted is what a delete did: the marker made or the version named (no
// versionId for an unversioned delete).
type Deleted struct {
	VersionID    string `json:"versionId,omitempty"`
	DeleteMarker bool   `json:"deleteMarker"`
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

// Tagging is a version's tags, and the version they belong to.
type Tagging struct {
	VersionID string `json:"versionId"`
	Tags      []Tag  `json:"tags"`
}

// Retagged is what a put or delete of a version's tags answers: the
// version whose tags it replaced.
type Retagged struct {
	VersionID string `json:"versionId"`
}

// Decode reads data, exactly one JSON value, into v (package
// strictjson): unknown fields are refused, and a value of the wrong type
// is reported as what it must be: "now must be a number, not a JSON
// string". Every failure is InvalidArgument.
func Decode(data []byte, v any) error {
	err := strictjson.Decode(data, v)
	var te *strictjson.TypeError
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
