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
	"strconv"

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

// Tick is the body of a tick or preview request, {"rules": [...]}. Rules
// holds the text of the rules for DecodeRules; an absent or null "rules"
// means the bucket's stored configuration.
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

// Action is a lifecycle action; Kind is the chapter's name of its kind.
type Action struct {
	RuleID    string `json:"ruleId"`
	Key       string `json:"key"`
	VersionID string `json:"versionId"`
	Kind      string `json:"kind"`
}

// Actions are the store's actions in their JSON shape, never nil.
func Actions(actions []core.LifecycleAction) []Action {
	out := make([]Action, len(actions))
	for i, a := range actions {
		out[i] = Action{RuleID: a.RuleID, Key: a.Key, VersionID: a.VersionID, Kind: a.Kind.String()}
	}
	return out
}

func (a Action) AppendJSON(b []byte) []byte {
	b = append(b, `{"ruleId":`...)
	b = jsonv.AppendString(b, a.RuleID)
	b = append(b, `,"key":`...)
	b = jsonv.AppendString(b, a.Key)
	b = append(b, `,"versionId":`...)
	b = jsonv.AppendString(b, a.VersionID)
	b = append(b, `,"kind":`...)
	b = jsonv.AppendString(b, a.Kind)
	return append(b, '}')
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

// Clock is the manual clock, in seconds; a nil Now is null.
type Clock struct {
	Now *float64 `json:"now"`
}

func (c Clock) AppendJSON(b []byte) []byte {
	b = append(b, `{"now":`...)
	if c.Now == nil {
		b = append(b, "null"...)
	} else {
		b = jsonv.AppendFloat(b, *c.Now)
	}
	return append(b, '}')
}

// ReadClock reads a Clock.
func ReadClock(d *jsonv.Decoder, c *Clock) error {
	return d.Object([]string{"now"}, func(string) error {
		return jsonv.Pointer(d, &c.Now, (*jsonv.Decoder).Float)
	})
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
	VersionID string  `json:"versionId"`
	ETag      string  `json:"etag"`
	Size      int64   `json:"size"`
	CreatedAt float64 `json:"createdAt"`
}

// WrittenOf is r's shape.
func WrittenOf(r core.PutResult) Written {
	return Written{VersionID: r.VersionID, ETag: r.ETag, Size: r.Size, CreatedAt: r.CreatedAt}
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
	return append(b, '}')
}

// Object is a key's current data version in listObjects, and the version
// get read, which also says its content type when it has one.
type Object struct {
	Key         string  `json:"key"`
	VersionID   string  `json:"versionId"`
	ETag        string  `json:"etag"`
	Size        int64   `json:"size"`
	CreatedAt   float64 `json:"createdAt"`
	ContentType string  `json:"contentType,omitempty"`
}

// ObjectOf is the shape of key's version v.
func ObjectOf(key string, v *core.Version) Object {
	return Object{Key: key, VersionID: v.VersionID, ETag: v.ETag, Size: v.Size, CreatedAt: v.CreatedAt, ContentType: v.Meta.ContentType}
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
	if v.ContentType != "" {
		b = append(b, `,"contentType":`...)
		b = jsonv.AppendString(b, v.ContentType)
	}
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

// Version is one entry of listVersions. A delete marker has no etag and no
// size.
type Version struct {
	Key            string  `json:"key"`
	VersionID      string  `json:"versionId"`
	IsDeleteMarker bool    `json:"isDeleteMarker"`
	IsLatest       bool    `json:"isLatest"`
	CreatedAt      float64 `json:"createdAt"`
	Size           *int64  `json:"size,omitempty"`
	ETag           string  `json:"etag,omitempty"`
}

// VersionOf is e's shape.
func VersionOf(e core.VersionEntry) Version {
	v := Version{Key: e.Key, VersionID: e.VersionID, IsDeleteMarker: e.IsDeleteMarker, IsLatest: e.IsLatest, CreatedAt: e.CreatedAt}
	if !e.IsDeleteMarker {
		size := e.Size
		v.Size, v.ETag = &size, e.ETag
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
	if v.ETag != "" {
		b = append(b, `,"etag":`...)
		b = jsonv.AppendString(b, v.ETag)
	}
	return append(b, '}')
}

// Upload is a multipart upload in progress.
type Upload struct {
	Key       string  `json:"key"`
	UploadID  string  `json:"uploadId"`
	Initiated float64 `json:"initiated"`
}

// UploadOf is u's shape.
func UploadOf(u core.UploadInfo) Upload {
	return Upload{Key: u.Key, UploadID: u.UploadID, Initiated: u.Initiated}
}

func (v Upload) AppendJSON(b []byte) []byte {
	b = append(b, `{"key":`...)
	b = jsonv.AppendString(b, v.Key)
	b = append(b, `,"uploadId":`...)
	b = jsonv.AppendString(b, v.UploadID)
	b = append(b, `,"initiated":`...)
	b = jsonv.AppendFloat(b, v.Initiated)
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
