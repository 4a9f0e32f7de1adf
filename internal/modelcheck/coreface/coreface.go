// Package coreface drives a core.Store beside the model (package
// modelcheck): it is the Go API's face, and what the other faces read
// their store's state with when they share one.
package coreface

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"minis3/core"
	"minis3/core/storagetest"
	"minis3/internal/model"
	mc "minis3/internal/modelcheck"
)

// Face is a core.Store over a storage that can refuse commits on demand
// and be closed and opened again.
type Face struct {
	open   func() (core.Storage, error)
	origin float64
	faults *storagetest.FaultStorage
	store  *core.Store
}

// New opens a store with a manual clock at 0 at origin (seconds since the
// Unix epoch) and modelcheck's part minimum over the storage open
// returns; Reopen calls open again, and the store keeps its origin.
func New(open func() (core.Storage, error), origin float64) (*Face, error) {
	f := &Face{open: open, origin: origin}
	if err := f.openStore(); err != nil {
		return nil, err
	}
	if got := f.store.Origin(); got != origin {
		return nil, fmt.Errorf("a new store's origin is %v, want %v", got, origin)
	}
	return f, nil
}

func (f *Face) openStore() error {
	storage, err := f.open()
	if err != nil {
		return err
	}
	f.faults = storagetest.NewFaultStorage(storage)
	f.store, err = core.Open(f.faults, core.Options{ManualClock: true, MinPartSize: mc.MinPartSize, Origin: f.origin})
	return err
}

// Store is the face's store.
func (f *Face) Store() *core.Store { return f.store }

// Faults is the wrapper of the store's storage that refuses commits.
func (f *Face) Faults() *storagetest.FaultStorage { return f.faults }

// Reopen closes the store and opens it again from its storage.
func (f *Face) Reopen() error {
	if err := f.store.Close(); err != nil {
		return err
	}
	return f.openStore()
}

// Close closes the store.
func (f *Face) Close() error { return f.store.Close() }

// Supports implements modelcheck.Face: the Go API takes every step.
func (f *Face) Supports(mc.Step) bool { return true }

// Observe implements modelcheck.Face: a Go call sees everything but HTTP
// headers.
func (f *Face) Observe(_ mc.Step, o mc.Outcome) mc.Outcome {
	o.Headers = nil
	return o
}

// Do implements modelcheck.Face.
func (f *Face) Do(s mc.Step) mc.Outcome {
	if s.FailCommit {
		f.faults.FailCommits(nil)
		defer f.faults.ClearFaults()
	}
	v, err := Do(f.store, s)
	if s.Op == mc.Reopen {
		err = f.Reopen()
	}
	if err != nil {
		return Failed(err)
	}
	return mc.Outcome{Value: v}
}

// State implements modelcheck.Face: the store's invariants must hold
// (core.Store.Check), then the state is read through the Go API.
func (f *Face) State() (model.State, error) {
	if err := f.store.Check(); err != nil {
		return model.State{}, fmt.Errorf("Check: %w", err)
	}
	return State(f.store)
}

// Failed is the outcome of an error the store returned.
func Failed(err error) mc.Outcome {
	var e *core.Error
	if !errors.As(err, &e) {
		return mc.Outcome{Err: &model.Error{Code: "InternalError", Why: err.Error()}}
	}
	out := &model.Error{Code: string(e.Code), Why: e.Message}
	if e.DeleteMarker {
		out.DeleteMarker, out.VersionID = true, e.VersionID
	}
	return mc.Outcome{Err: out}
}

// Do takes the step on store through the Go API and returns its answer
// in the model's types.
func Do(store *core.Store, s mc.Step) (any, error) {
	switch s.Op {
	case mc.CreateBucket:
		return nil, store.CreateBucket(s.Bucket)
	case mc.DeleteBucket:
		return nil, store.DeleteBucket(s.Bucket)
	case mc.ListBuckets:
		var out []model.BucketInfo
		for _, b := range store.ListBuckets() {
			out = append(out, bucketInfo(b))
		}
		return out, nil
	case mc.HeadBucket:
		b, err := store.HeadBucket(s.Bucket)
		return bucketInfo(b), err
	case mc.SetVersioning:
		return nil, store.SetBucketVersioning(s.Bucket, core.VersioningState(s.Versioning))
	case mc.GetVersioning:
		v, err := store.BucketVersioning(s.Bucket)
		return model.Versioning(v), err
	case mc.Put:
		opts := putOptions(s)
		opts.WriteConditions = conditions(s)
		r, err := store.PutObject(s.Bucket, s.Key, []byte(s.Body), opts)
		return putResult(r), err
	case mc.Get, mc.Head:
		read := store.GetObject
		if s.Op == mc.Head {
			read = store.HeadObject
		}
		obj, err := read(s.Bucket, s.Key, core.GetOptions{VersionID: s.VersionID})
		if err != nil {
			return nil, err
		}
		v := obj.Version
		return model.Object{Key: obj.Key, VersionID: v.VersionID, ETag: v.ETag, Size: v.Size, CreatedAt: v.CreatedAt,
			ContentType: v.Meta.ContentType, StorageClass: v.Meta.StorageClass, Expiration: expiry(obj.Expiration), Body: string(obj.Body)}, nil
	case mc.Delete:
		r, err := store.DeleteObject(s.Bucket, s.Key, core.DeleteOptions{VersionID: s.VersionID})
		return model.DeleteResult{VersionID: r.VersionID, DeleteMarker: r.DeleteMarker}, err
	case mc.DeleteObjects:
		return deleteObjects(store, s)
	case mc.ListVersions:
		return versionPages(store, s)
	case mc.ListObjects:
		return objectPages(store, s)
	case mc.CreateUpload:
		u, err := store.CreateMultipartUpload(s.Bucket, s.Key, putOptions(s))
		return uploadInfo(u), err
	case mc.UploadPart:
		p, err := store.UploadPart(s.Bucket, s.Key, s.UploadID, s.PartNumber, []byte(s.Body))
		return partInfo(p), err
	case mc.CompleteUpload:
		parts := make([]core.CompletedPart, len(s.Parts))
		for i, p := range s.Parts {
			parts[i] = core.CompletedPart{PartNumber: p.Number, ETag: p.ETag}
		}
		r, err := store.CompleteMultipartUploadIf(s.Bucket, s.Key, s.UploadID, parts, conditions(s))
		return putResult(r), err
	case mc.AbortUpload:
		return nil, store.AbortMultipartUpload(s.Bucket, s.Key, s.UploadID)
	case mc.ListParts:
		return partPages(store, s)
	case mc.ListUploads:
		return uploadPages(store, s)
	case mc.SetClock:
		runs, err := store.SetClock(s.Now)
		if err != nil {
			return nil, err
		}
		out := []model.Run{}
		for _, r := range runs {
			out = append(out, model.Run{Bucket: r.Bucket, At: r.At, Actions: actions(r.Actions)})
		}
		return out, nil
	case mc.Evaluate:
		return evaluate(store, s)
	case mc.Tick:
		a, err := store.LifecycleTick(s.Bucket, rules(s.Rules))
		return actions(a), err
	case mc.PutLifecycle:
		return nil, store.PutBucketLifecycle(s.Bucket, coreConfiguration(*s.Lifecycle))
	case mc.GetLifecycle:
		c, err := store.BucketLifecycle(s.Bucket)
		return modelConfiguration(c), err
	case mc.DeleteLifecycle:
		return nil, store.DeleteBucketLifecycle(s.Bucket)
	case mc.RunLifecycle:
		a, err := store.RunLifecycle(s.Bucket)
		return actions(a), err
	case mc.PreviewLifecycle:
		return previewLifecycle(store, s)
	case mc.PutTagging:
		return store.PutObjectTagging(s.Bucket, s.Key, s.VersionID, coreTags(s.Tags))
	case mc.GetTagging:
		id, tags, err := store.ObjectTagging(s.Bucket, s.Key, s.VersionID)
		return model.Tagging{VersionID: id, Tags: modelTags(tags)}, err
	case mc.DeleteTagging:
		return store.DeleteObjectTagging(s.Bucket, s.Key, s.VersionID)
	case mc.PutBucketTagging:
		return nil, store.PutBucketTagging(s.Bucket, coreTags(s.Tags))
	case mc.GetBucketTagging:
		tags, err := store.BucketTagging(s.Bucket)
		return modelTags(tags), err
	case mc.DeleteBucketTagging:
		return nil, store.DeleteBucketTagging(s.Bucket)
	case mc.Reopen:
		return nil, nil
	}
	return nil, fmt.Errorf("coreface: no such op %q", s.Op)
}

func bucketInfo(b core.BucketInfo) model.BucketInfo {
	return model.BucketInfo{Name: b.Name, CreatedAt: b.CreatedAt, Versioning: model.Versioning(b.Versioning)}
}

func putOptions(s mc.Step) core.PutOptions {
	return core.PutOptions{Meta: core.ObjectMeta{ContentType: s.ContentType, Tags: coreTags(s.Tags)}}
}

// conditions are the write conditions of a put or a completion.
func conditions(s mc.Step) core.WriteConditions {
	return core.WriteConditions{IfNoneMatch: s.IfNoneMatch, IfMatch: s.IfMatch}
}

func putResult(r core.PutResult) model.PutResult {
	return model.PutResult{VersionID: r.VersionID, ETag: r.ETag, Size: r.Size, CreatedAt: r.CreatedAt, Expiration: expiry(r.Expiration)}
}

func expiry(x *core.Expiry) *model.Expiry {
	if x == nil {
		return nil
	}
	return &model.Expiry{Date: x.Date, RuleID: x.RuleID}
}

func coreTags(in []model.Tag) []core.Tag {
	var out []core.Tag
	for _, t := range in {
		out = append(out, core.Tag{Key: t.Key, Value: t.Value})
	}
	return out
}

func modelTags(in []core.Tag) []model.Tag {
	var out []model.Tag
	for _, t := range in {
		out = append(out, model.Tag{Key: t.Key, Value: t.Value})
	}
	return out
}

func partInfo(p core.PartInfo) model.PartInfo {
	return model.PartInfo{Number: p.PartNumber, ETag: p.ETag, Size: p.Size, CreatedAt: p.CreatedAt}
}

func deleteObjects(store *core.Store, s mc.Step) (any, error) {
	objects := make([]core.ObjectIdentifier, len(s.Objects))
	for i, o := range s.Objects {
		objects[i] = core.ObjectIdentifier{Key: o.Key, VersionID: o.VersionID}
	}
	r, err := store.DeleteObjects(s.Bucket, objects)
	if err != nil {
		return nil, err
	}
	var out model.DeleteObjectsResult
	for _, d := range r.Deleted {
		out.Deleted = append(out.Deleted, model.Deleted{Key: d.Key, VersionID: d.VersionID, DeleteMarker: d.DeleteMarker, DeleteMarkerVersionID: d.DeleteMarkerVersionID})
	}
	for _, e := range r.Errors {
		out.Errors = append(out.Errors, model.DeleteFailure{Key: e.Key, VersionID: e.VersionID, Code: string(e.Code)})
	}
	return out, nil
}

// maxPages bounds a listing step, as modelcheck's does.
const maxPages = 100

func listArgs(s mc.Step) mc.ListArgs {
	if s.List == nil {
		return mc.ListArgs{}
	}
	return *s.List
}

func versionPages(store *core.Store, s mc.Step) ([]model.VersionsPage, error) {
	l := listArgs(s)
	o := core.ListVersionsOptions{Prefix: l.Prefix, Delimiter: l.Delimiter, KeyMarker: l.KeyMarker, VersionIDMarker: l.VersionIDMarker, MaxKeys: l.MaxKeys}
	var pages []model.VersionsPage
	for range maxPages {
		r, err := store.ListObjectVersions(s.Bucket, o)
		if err != nil {
			return nil, err
		}
		p := model.VersionsPage{CommonPrefixes: r.CommonPrefixes, IsTruncated: r.IsTruncated, NextKeyMarker: r.NextKeyMarker, NextVersionIDMarker: r.NextVersionIDMarker}
		for _, v := range r.Versions {
			p.Versions = append(p.Versions, model.VersionRow{Key: v.Key, VersionID: v.VersionID, IsLatest: v.IsLatest,
				DeleteMarker: v.IsDeleteMarker, CreatedAt: v.CreatedAt, ETag: v.ETag, Size: v.Size, StorageClass: v.StorageClass})
		}
		pages = append(pages, p)
		if !r.IsTruncated {
			break
		}
		o.KeyMarker, o.VersionIDMarker = r.NextKeyMarker, r.NextVersionIDMarker
	}
	return pages, nil
}

func objectPages(store *core.Store, s mc.Step) ([]model.ObjectsPage, error) {
	l := listArgs(s)
	o := core.ListObjectsOptions{Prefix: l.Prefix, Delimiter: l.Delimiter, StartAfter: l.StartAfter, MaxKeys: l.MaxKeys}
	var pages []model.ObjectsPage
	for range maxPages {
		r, err := store.ListObjectsV2(s.Bucket, o)
		if err != nil {
			return nil, err
		}
		p := model.ObjectsPage{CommonPrefixes: r.CommonPrefixes, KeyCount: r.KeyCount, IsTruncated: r.IsTruncated}
		for _, obj := range r.Objects {
			p.Objects = append(p.Objects, model.ObjectRow{Key: obj.Key, VersionID: obj.VersionID, ETag: obj.ETag, Size: obj.Size,
				CreatedAt: obj.CreatedAt, StorageClass: obj.StorageClass})
		}
		pages = append(pages, p)
		if !r.IsTruncated {
			break
		}
		o.ContinuationToken = r.NextContinuationToken
	}
	return pages, nil
}

func partPages(store *core.Store, s mc.Step) ([]model.PartsPage, error) {
	o := core.ListPartsOptions{MaxParts: listArgs(s).MaxKeys}
	var pages []model.PartsPage
	for range maxPages {
		r, err := store.ListParts(s.Bucket, s.Key, s.UploadID, o)
		if err != nil {
			return nil, err
		}
		p := model.PartsPage{Upload: uploadInfo(r.Upload), IsTruncated: r.IsTruncated, NextPartNumberMarker: r.NextPartNumberMarker}
		for _, part := range r.Parts {
			p.Parts = append(p.Parts, partInfo(part))
		}
		pages = append(pages, p)
		if !r.IsTruncated {
			break
		}
		o.PartNumberMarker = r.NextPartNumberMarker
	}
	return pages, nil
}

func uploadInfo(u core.UploadInfo) model.UploadInfo {
	return model.UploadInfo{Key: u.Key, UploadID: u.UploadID, Initiated: u.Initiated, Abort: expiry(u.Abort)}
}

func uploadPages(store *core.Store, s mc.Step) ([]model.UploadsPage, error) {
	l := listArgs(s)
	o := core.ListUploadsOptions{Prefix: l.Prefix, Delimiter: l.Delimiter, KeyMarker: l.KeyMarker, UploadIDMarker: l.UploadIDMarker, MaxUploads: l.MaxKeys}
	var pages []model.UploadsPage
	for range maxPages {
		r, err := store.ListMultipartUploads(s.Bucket, o)
		if err != nil {
			return nil, err
		}
		p := model.UploadsPage{CommonPrefixes: r.CommonPrefixes, IsTruncated: r.IsTruncated, NextKeyMarker: r.NextKeyMarker, NextUploadIDMarker: r.NextUploadIDMarker}
		for _, u := range r.Uploads {
			p.Uploads = append(p.Uploads, uploadInfo(u))
		}
		pages = append(pages, p)
		if !r.IsTruncated {
			break
		}
		o.KeyMarker, o.UploadIDMarker = r.NextKeyMarker, r.NextUploadIDMarker
	}
	return pages, nil
}

func rules(in []model.Rule) []core.ExpirationRule {
	out := make([]core.ExpirationRule, len(in))
	for i, r := range in {
		out[i] = core.ExpirationRule{ID: r.ID, Prefix: r.Prefix, ExpireCurrentAfter: r.ExpireCurrentAfter, ExpireNoncurrentAfter: r.ExpireNoncurrentAfter}
	}
	return out
}

func actions(in []core.LifecycleAction) []model.Action {
	var out []model.Action
	for _, a := range in {
		out = append(out, model.Action{RuleID: a.RuleID, Key: a.Key, VersionID: a.VersionID, Kind: a.Kind.String(),
			UploadID: a.UploadID, StorageClass: a.StorageClass})
	}
	return out
}

// evaluate is the preview of the store, which must be what
// EvaluateExpiration makes of a snapshot at the same time.
func evaluate(store *core.Store, s mc.Step) (any, error) {
	preview, err := store.PreviewExpiration(s.Bucket, rules(s.Rules))
	if err != nil {
		return nil, err
	}
	snapshot, err := store.Snapshot(s.Bucket)
	if err != nil {
		return nil, err
	}
	pure, err := core.EvaluateExpiration(snapshot, rules(s.Rules), store.Now())
	if err != nil {
		return nil, err
	}
	if !slices.Equal(preview, pure) {
		return nil, fmt.Errorf("PreviewExpiration answered %v, EvaluateExpiration of a snapshot %v", preview, pure)
	}
	return actions(preview), nil
}

// previewLifecycle is the store's preview of its stored configuration,
// which must be what EvaluateLifecycle makes of a snapshot of the bucket
// at the same time.
func previewLifecycle(store *core.Store, s mc.Step) (any, error) {
	preview, err := store.PreviewLifecycle(s.Bucket)
	if err != nil {
		return nil, err
	}
	c, err := store.BucketLifecycle(s.Bucket)
	if errors.Is(err, core.NoSuchLifecycleConfiguration) {
		if len(preview) > 0 {
			return nil, fmt.Errorf("PreviewLifecycle answered %v with no configuration", preview)
		}
		return actions(preview), nil
	}
	if err != nil {
		return nil, err
	}
	snapshot, err := store.Snapshot(s.Bucket)
	if err != nil {
		return nil, err
	}
	var uploads []core.UploadInfo
	for o := (core.ListUploadsOptions{}); ; {
		page, err := store.ListMultipartUploads(s.Bucket, o)
		if err != nil {
			return nil, err
		}
		uploads = append(uploads, page.Uploads...)
		if !page.IsTruncated {
			break
		}
		o.KeyMarker, o.UploadIDMarker = page.NextKeyMarker, page.NextUploadIDMarker
	}
	versioning, err := store.BucketVersioning(s.Bucket)
	if err != nil {
		return nil, err
	}
	pure, err := core.EvaluateLifecycle(c, snapshot, uploads, versioning, store.Origin(), store.Now())
	if err != nil {
		return nil, err
	}
	if !slices.EqualFunc(preview, pure, func(a, b core.LifecycleAction) bool { return a == b }) {
		return nil, fmt.Errorf("PreviewLifecycle answered %v, EvaluateLifecycle of a snapshot %v", preview, pure)
	}
	return actions(preview), nil
}

// State reads everything a client can of store through the Go API.
func State(store *core.Store) (model.State, error) {
	st := model.State{Now: store.Now(), Origin: store.Origin()}
	for _, info := range store.ListBuckets() {
		b := model.BucketState{Info: bucketInfo(info)}
		r, err := store.ListObjectVersions(info.Name, core.ListVersionsOptions{MaxKeys: -1})
		if err != nil {
			return st, err
		}
		for _, v := range r.Versions {
			if n := len(b.Keys); n == 0 || b.Keys[n-1].Key != v.Key {
				b.Keys = append(b.Keys, model.KeyState{Key: v.Key})
			}
			e := model.EntryState{VersionID: v.VersionID, DeleteMarker: v.IsDeleteMarker, CreatedAt: v.CreatedAt, StorageClass: v.StorageClass}
			if !v.IsDeleteMarker {
				read := store.GetObject
				if archived(v.StorageClass) {
					read = store.HeadObject // GET cannot read its bytes
				}
				obj, err := read(info.Name, v.Key, core.GetOptions{VersionID: v.VersionID})
				if err != nil {
					return st, fmt.Errorf("reading %s of %q: %w", v.VersionID, v.Key, err)
				}
				e.Body, e.ETag, e.ContentType = string(obj.Body), obj.Version.ETag, obj.Version.Meta.ContentType
				_, tags, err := store.ObjectTagging(info.Name, v.Key, v.VersionID)
				if err != nil {
					return st, fmt.Errorf("reading the tags of %s of %q: %w", v.VersionID, v.Key, err)
				}
				e.Tags = modelTags(tags)
			}
			k := &b.Keys[len(b.Keys)-1]
			k.Entries = append(k.Entries, e)
		}
		uploads, err := uploadPages(store, mc.Step{Bucket: info.Name, List: &mc.ListArgs{MaxKeys: 1000}})
		if err != nil {
			return st, err
		}
		for _, page := range uploads {
			for _, u := range page.Uploads {
				parts, err := partPages(store, mc.Step{Bucket: info.Name, Key: u.Key, UploadID: u.UploadID})
				if err != nil {
					return st, err
				}
				us := model.UploadState{UploadInfo: u}
				for _, p := range parts {
					us.Parts = append(us.Parts, p.Parts...)
				}
				b.Uploads = append(b.Uploads, us)
			}
		}
		slices.SortFunc(b.Uploads, func(x, y model.UploadState) int { return strings.Compare(x.UploadID, y.UploadID) })
		if c, err := store.BucketLifecycle(info.Name); err == nil {
			lc := modelConfiguration(c)
			b.Lifecycle = &lc
		} else if !errors.Is(err, core.NoSuchLifecycleConfiguration) {
			return st, err
		}
		if tags, err := store.BucketTagging(info.Name); err == nil {
			b.Tags = modelTags(tags)
		} else if !errors.Is(err, core.NoSuchTagSet) {
			return st, err
		}
		st.Buckets = append(st.Buckets, b)
	}
	return st, nil
}

// archived reports whether GET cannot read a version of the storage class.
func archived(class string) bool { return class == "GLACIER" || class == "DEEP_ARCHIVE" }
