package modelcheck

import (
	"minis3/internal/model"
)

// Expect applies step to the model and returns what every face must
// answer. It ignores FailCommit (the runner decides what a refused commit
// must answer), Reopen (the model has no storage) and Open (the runner
// opens the store and the model).
func Expect(m *model.Store, s Step) Outcome {
	o := expect(m, s)
	o.Headers = httpHeaders(m, s, o)
	if obj, ok := o.Value.(model.Object); ok {
		obj.Versioning = "" // only the headers show it
		o.Value = obj
	}
	return o
}

func expect(m *model.Store, s Step) Outcome {
	answer := func(v any, err error) Outcome {
		if err != nil {
			return Failed(err)
		}
		return Outcome{Value: v}
	}
	done := func(err error) Outcome { return answer(nil, err) }
	switch s.Op {
	case CreateBucket:
		return done(m.CreateBucket(s.Bucket))
	case DeleteBucket:
		return done(m.DeleteBucket(s.Bucket))
	case ListBuckets:
		return answer(m.ListBuckets(), nil)
	case HeadBucket:
		return answer(m.HeadBucket(s.Bucket))
	case SetVersioning:
		return done(m.SetBucketVersioning(s.Bucket, s.Versioning))
	case GetVersioning:
		info, err := m.HeadBucket(s.Bucket)
		return answer(info.Versioning, err)
	case Put:
		return answer(m.PutObject(s.Bucket, s.Key, s.Body, model.PutOptions{ContentType: s.ContentType, Tags: s.Tags, Conditions: s.conditions()}))
	case Get:
		return answer(m.GetObject(s.Bucket, s.Key, s.VersionID))
	case Head:
		return answer(m.HeadObject(s.Bucket, s.Key, s.VersionID))
	case Delete:
		return answer(m.DeleteObject(s.Bucket, s.Key, s.VersionID))
	case DeleteObjects:
		return answer(m.DeleteObjects(s.Bucket, s.Objects))
	case ListVersions:
		return answer(versionPages(m, s))
	case ListObjects:
		return answer(objectPages(m, s))
	case CreateUpload:
		return answer(m.CreateMultipartUpload(s.Bucket, s.Key, model.PutOptions{ContentType: s.ContentType, Tags: s.Tags}))
	case UploadPart:
		return answer(m.UploadPart(s.Bucket, s.Key, s.UploadID, s.PartNumber, s.Body))
	case CompleteUpload:
		return answer(m.CompleteMultipartUpload(s.Bucket, s.Key, s.UploadID, s.Parts, s.conditions()))
	case AbortUpload:
		return done(m.AbortMultipartUpload(s.Bucket, s.Key, s.UploadID))
	case ListParts:
		return answer(partPages(m, s))
	case ListUploads:
		return answer(uploadPages(m, s))
	case SetClock:
		return answer(m.SetClock(s.Now))
	case Evaluate:
		return answer(m.Evaluate(s.Bucket, s.Rules))
	case Tick:
		return answer(m.Tick(s.Bucket, s.Rules))
	case PutLifecycle:
		return done(m.PutBucketLifecycle(s.Bucket, *s.Lifecycle))
	case GetLifecycle:
		return answer(m.BucketLifecycle(s.Bucket))
	case DeleteLifecycle:
		return done(m.DeleteBucketLifecycle(s.Bucket))
	case RunLifecycle:
		return answer(m.RunLifecycle(s.Bucket))
	case PreviewLifecycle:
		return answer(m.PreviewLifecycle(s.Bucket))
	case PutTagging:
		return answer(m.PutObjectTagging(s.Bucket, s.Key, s.VersionID, s.Tags))
	case GetTagging:
		return answer(m.ObjectTagging(s.Bucket, s.Key, s.VersionID))
	case DeleteTagging:
		return answer(m.DeleteObjectTagging(s.Bucket, s.Key, s.VersionID))
	case PutBucketTagging:
		return done(m.PutBucketTagging(s.Bucket, s.Tags))
	case GetBucketTagging:
		return answer(m.BucketTagging(s.Bucket))
	case DeleteBucketTagging:
		return done(m.DeleteBucketTagging(s.Bucket))
	case Reopen, Open:
		return Outcome{}
	}
	panic("modelcheck: no such op " + string(s.Op))
}

// maxPages bounds a listing step: past it, paging has gone round in
// circles.
const maxPages = 100

func listArgs(s Step) ListArgs {
	if s.List == nil {
		return ListArgs{}
	}
	return *s.List
}

// versionPages pages through ListObjectVersions from the step's markers,
// each page starting after the last one's Next markers.
func versionPages(m *model.Store, s Step) ([]model.VersionsPage, error) {
	l := listArgs(s)
	o := model.ListVersionsOptions{Prefix: l.Prefix, Delimiter: l.Delimiter, KeyMarker: l.KeyMarker, VersionIDMarker: l.VersionIDMarker, MaxKeys: l.MaxKeys}
	var pages []model.VersionsPage
	for range maxPages {
		p, err := m.ListObjectVersions(s.Bucket, o)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
		if !p.IsTruncated {
			break
		}
		o.KeyMarker, o.VersionIDMarker = p.NextKeyMarker, p.NextVersionIDMarker
	}
	return pages, nil
}

// objectPages pages through ListObjectsV2 from StartAfter. Continuation
// tokens are each face's own, so a page's Next is not compared.
func objectPages(m *model.Store, s Step) ([]model.ObjectsPage, error) {
	l := listArgs(s)
	o := model.ListObjectsOptions{Prefix: l.Prefix, Delimiter: l.Delimiter, StartAfter: l.StartAfter, MaxKeys: l.MaxKeys}
	var pages []model.ObjectsPage
	for range maxPages {
		p, err := m.ListObjectsV2(s.Bucket, o)
		if err != nil {
			return nil, err
		}
		o.After = p.Next
		p.Next = ""
		pages = append(pages, p)
		if !p.IsTruncated {
			break
		}
	}
	return pages, nil
}

func partPages(m *model.Store, s Step) ([]model.PartsPage, error) {
	l := listArgs(s)
	var pages []model.PartsPage
	marker := 0
	for range maxPages {
		p, err := m.ListParts(s.Bucket, s.Key, s.UploadID, marker, l.MaxKeys)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
		if !p.IsTruncated {
			break
		}
		marker = p.NextPartNumberMarker
	}
	return pages, nil
}

func uploadPages(m *model.Store, s Step) ([]model.UploadsPage, error) {
	l := listArgs(s)
	o := model.ListUploadsOptions{Prefix: l.Prefix, Delimiter: l.Delimiter, KeyMarker: l.KeyMarker, UploadIDMarker: l.UploadIDMarker, MaxUploads: l.MaxKeys}
	var pages []model.UploadsPage
	for range maxPages {
		p, err := m.ListMultipartUploads(s.Bucket, o)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
		if !p.IsTruncated {
			break
		}
		o.KeyMarker, o.UploadIDMarker = p.NextKeyMarker, p.NextUploadIDMarker
	}
	return pages, nil
}

// httpHeaders are the status and the state-carrying headers of the HTTP
// answer to s, as S3 sends them [ref §1.2].
func httpHeaders(m *model.Store, s Step, o Outcome) *Headers {
	if o.Err != nil {
		// A request that hit a delete marker says so, and names it.
		return &Headers{Status: model.Status(o.Err.Code), DeleteMarker: o.Err.DeleteMarker, VersionID: o.Err.VersionID}
	}
	h := &Headers{Status: 200}
	switch v := o.Value.(type) {
	case model.PutResult:
		// A write answers its version ID, never "null" ("The response has
		// no x-amz-version-id header" in unversioned and suspended buckets).
		if v.VersionID != model.NullVersionID {
			h.VersionID = v.VersionID
		}
	case model.Object:
		// A read names the version it read, "null" included, unless the
		// bucket was never versioned.
		if v.Versioning != model.Unversioned {
			h.VersionID = v.VersionID
		}
	case model.DeleteResult:
		// 204, with the marker made or the version named.
		h.Status, h.VersionID, h.DeleteMarker = 204, v.VersionID, v.DeleteMarker
	}
	switch s.Op {
	case DeleteBucket, AbortUpload, DeleteLifecycle, PutBucketTagging, DeleteBucketTagging:
		h.Status = 204
	case PutTagging, DeleteTagging:
		// They name the version they tagged, as a read does.
		if info, _ := m.HeadBucket(s.Bucket); info.Versioning != model.Unversioned {
			h.VersionID = o.Value.(string)
		}
		if s.Op == DeleteTagging {
			h.Status = 204
		}
	case GetTagging:
		if info, _ := m.HeadBucket(s.Bucket); info.Versioning != model.Unversioned {
			h.VersionID = o.Value.(model.Tagging).VersionID
		}
	}
	return h
}
