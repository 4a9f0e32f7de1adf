package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"minis3/core"
	"minis3/internal/model"
	mc "minis3/internal/modelcheck"
	"minis3/internal/modelcheck/coreface"
	"minis3/web"
)

// TestModelHTTP checks the S3 HTTP API against the model: every step goes
// through the AWS SDK for Go v2 (the extensions through plain HTTP) to the
// handler behind a TLS server, where the SDK streams bodies as aws-chunked
// with checksums, as it does against S3. Answers, error codes and the
// headers that carry state are compared with the model's.
func TestModelHTTP(t *testing.T) {
	mc.Check(t, mc.Config{Name: "http", Sequences: 100, Steps: 40, Open: func(t *testing.T) mc.Face {
		storage := core.NewMemoryStorage()
		store, err := coreface.New(func() (core.Storage, error) { return storage, nil })
		if err != nil {
			t.Fatal(err)
		}
		f := &httpFace{store: store}
		f.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			f.handler.ServeHTTP(w, r)
		}))
		f.handler = web.NewHandler(store.Store(), web.Options{})
		hc := f.srv.Client()
		hc.Transport = &recorder{inner: hc.Transport, last: &f.last}
		f.http = hc
		f.client = newClient(f.srv.URL, hc)
		return f
	}})
}

// httpFace drives a store through HTTP.
type httpFace struct {
	store   *coreface.Face
	handler http.Handler
	srv     *httptest.Server
	http    *http.Client
	client  *s3.Client
	last    exchange // the last response, for its status, headers and body
}

// exchange is a response as it came over the wire.
type exchange struct {
	status int
	header http.Header
	body   []byte
}

// recorder keeps the last response of every round trip.
type recorder struct {
	inner http.RoundTripper
	last  *exchange
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.inner.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	*r.last = exchange{status: resp.StatusCode, header: resp.Header.Clone(), body: body}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

func (f *httpFace) Close() error {
	f.srv.Close()
	return f.store.Close()
}

func (f *httpFace) State() (model.State, error) { return f.store.State() }

// Supports: a key is part of a URL path, so it cannot be empty, and a
// DeleteObjects document cannot carry a key that is not UTF-8, nor no key
// at all.
func (f *httpFace) Supports(s mc.Step) bool {
	switch s.Op {
	case mc.Put, mc.Get, mc.Head, mc.Delete, mc.CreateUpload, mc.UploadPart, mc.CompleteUpload, mc.AbortUpload, mc.ListParts:
		return s.Key != ""
	case mc.DeleteObjects:
		if len(s.Objects) == 0 {
			return false // the SDK refuses to send it
		}
		for _, o := range s.Objects {
			if !utf8.ValidString(o.Key) {
				return false
			}
		}
	}
	return true
}

// Observe is what an HTTP client sees: dates in whole seconds in headers
// and in milliseconds in XML documents; no code for a HEAD error (it has
// no body), only its status; and of a write, only the headers' ETag and
// version ID (PutObject, UploadPart and CompleteMultipartUpload answer no
// size and no time; ListParts no initiation time; ListObjectsV2 no
// version ID).
func (f *httpFace) Observe(s mc.Step, o mc.Outcome) mc.Outcome {
	if o.Err != nil {
		e := *o.Err
		if (s.Op == mc.Head || s.Op == mc.HeadBucket) && !strings.HasPrefix(e.Code, "HTTP ") {
			e.Code = "HTTP " + strconv.Itoa(model.Status(e.Code))
		}
		o.Err = &e
		return o
	}
	switch v := o.Value.(type) {
	case model.PutResult:
		v.Size, v.CreatedAt = 0, 0
		o.Value = v
	case model.PartInfo:
		v.Size, v.CreatedAt = 0, 0
		o.Value = v
	case model.Object:
		v.CreatedAt = seconds(v.CreatedAt)
		o.Value = v
	case model.BucketInfo:
		o.Value = model.BucketInfo{Name: v.Name}
	case []model.BucketInfo:
		out := make([]model.BucketInfo, len(v))
		for i, b := range v {
			out[i] = model.BucketInfo{Name: b.Name, CreatedAt: millis(b.CreatedAt)}
		}
		o.Value = out
	case []model.VersionsPage:
		out := make([]model.VersionsPage, len(v))
		for i, p := range v {
			p.Versions = append([]model.VersionRow(nil), p.Versions...)
			for j := range p.Versions {
				p.Versions[j].CreatedAt = millis(p.Versions[j].CreatedAt)
			}
			out[i] = p
		}
		o.Value = out
	case []model.ObjectsPage:
		out := make([]model.ObjectsPage, len(v))
		for i, p := range v {
			p.Objects = append([]model.ObjectRow(nil), p.Objects...)
			for j := range p.Objects {
				p.Objects[j].CreatedAt = millis(p.Objects[j].CreatedAt)
				p.Objects[j].VersionID = "" // ListObjectsV2 names no version
			}
			out[i] = p
		}
		o.Value = out
	case model.UploadInfo:
		v.Initiated = 0 // CreateMultipartUpload answers no time
		o.Value = v
	case []model.PartsPage:
		out := make([]model.PartsPage, len(v))
		for i, p := range v {
			p.Upload.Initiated = 0
			p.Parts = append([]model.PartInfo(nil), p.Parts...)
			for j := range p.Parts {
				p.Parts[j].CreatedAt = millis(p.Parts[j].CreatedAt)
			}
			out[i] = p
		}
		o.Value = out
	case []model.UploadsPage:
		out := make([]model.UploadsPage, len(v))
		for i, p := range v {
			p.Uploads = append([]model.UploadInfo(nil), p.Uploads...)
			for j := range p.Uploads {
				p.Uploads[j].Initiated = millis(p.Uploads[j].Initiated)
			}
			out[i] = p
		}
		o.Value = out
	}
	return o
}

// clockTime is clock seconds as a time, to the nearest nanosecond.
func clockTime(sec float64) time.Time {
	return time.Unix(0, 0).Add(time.Duration(math.Round(sec * 1e9))).UTC()
}

// seconds is what an HTTP date (Last-Modified) shows of a clock time.
func seconds(sec float64) float64 { return float64(clockTime(sec).Unix()) }

// millis is what an XML timestamp shows of a clock time.
func millis(sec float64) float64 { return float64(clockTime(sec).UnixMilli()) / 1000 }

func timeOf(t *time.Time) float64 {
	if t == nil {
		return math.NaN()
	}
	return float64(t.UnixMilli()) / 1000
}

// Do takes the step through HTTP.
func (f *httpFace) Do(s mc.Step) mc.Outcome {
	if s.FailCommit {
		f.store.Faults().FailCommits(nil)
		defer f.store.Faults().ClearFaults()
	}
	f.last = exchange{}
	if s.Op == mc.Reopen {
		if err := f.store.Reopen(); err != nil {
			return mc.Outcome{Err: &model.Error{Code: "InternalError", Why: err.Error()}}
		}
		f.handler = web.NewHandler(f.store.Store(), web.Options{})
		return mc.Outcome{Headers: &mc.Headers{Status: 200}}
	}
	v, err := f.do(s)
	o := mc.Outcome{Value: v, Headers: &mc.Headers{Status: f.last.status}}
	if err != nil {
		o = mc.Outcome{Err: f.failure(s, err), Headers: &mc.Headers{Status: f.last.status}}
	}
	if f.last.header != nil {
		o.Headers.VersionID = f.last.header.Get("X-Amz-Version-Id")
		o.Headers.DeleteMarker = f.last.header.Get("X-Amz-Delete-Marker") == "true"
	}
	return o
}

// failure is the model's error for what the SDK (or an extension)
// answered: the code, and whether a delete marker was hit, from the
// response's headers.
func (f *httpFace) failure(s mc.Step, err error) *model.Error {
	e := &model.Error{Why: err.Error()}
	var ae smithy.APIError
	var ee *extensionError
	switch {
	case s.Op == mc.Head || s.Op == mc.HeadBucket:
		var re *awshttp.ResponseError
		if !errors.As(err, &re) {
			e.Code = "no HTTP response"
			return e
		}
		e.Code = "HTTP " + strconv.Itoa(re.HTTPStatusCode())
	case errors.As(err, &ee):
		e.Code = ee.Code
	case errors.As(err, &ae):
		e.Code = ae.ErrorCode()
	default:
		e.Code = "no S3 error: " + err.Error()
		return e
	}
	if h := f.last.header; h != nil && h.Get("X-Amz-Delete-Marker") == "true" {
		e.DeleteMarker, e.VersionID = true, h.Get("X-Amz-Version-Id")
	}
	return e
}

func (f *httpFace) do(s mc.Step) (any, error) {
	c, b, k := f.client, aws.String(s.Bucket), aws.String(s.Key)
	optional := func(v string) *string {
		if v == "" {
			return nil
		}
		return aws.String(v)
	}
	switch s.Op {
	case mc.CreateBucket:
		_, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: b})
		return nil, err
	case mc.DeleteBucket:
		_, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: b})
		return nil, err
	case mc.ListBuckets:
		out, err := c.ListBuckets(ctx, &s3.ListBucketsInput{})
		if err != nil {
			return nil, err
		}
		var buckets []model.BucketInfo
		for _, x := range out.Buckets {
			buckets = append(buckets, model.BucketInfo{Name: aws.ToString(x.Name), CreatedAt: timeOf(x.CreationDate)})
		}
		return buckets, nil
	case mc.HeadBucket:
		_, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: b})
		return model.BucketInfo{Name: s.Bucket}, err
	case mc.SetVersioning:
		status := types.BucketVersioningStatusEnabled
		if s.Versioning == model.Suspended {
			status = types.BucketVersioningStatusSuspended
		}
		_, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: b, VersioningConfiguration: &types.VersioningConfiguration{Status: status}})
		return nil, err
	case mc.GetVersioning:
		out, err := c.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: b})
		if err != nil {
			return nil, err
		}
		switch out.Status {
		case "":
			return model.Unversioned, nil
		case types.BucketVersioningStatusEnabled:
			return model.Enabled, nil
		case types.BucketVersioningStatusSuspended:
			return model.Suspended, nil
		}
		return model.Versioning("unknown status " + string(out.Status)), nil
	case mc.Put:
		var opts []func(*s3.Options)
		if s.ContentType == "" {
			opts = append(opts, withoutContentType)
		}
		out, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: k, Body: strings.NewReader(s.Body), ContentType: optional(s.ContentType)}, opts...)
		if err != nil {
			return nil, err
		}
		return model.PutResult{VersionID: versionOrNull(out.VersionId), ETag: unquote(out.ETag)}, nil
	case mc.Get:
		out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: b, Key: k, VersionId: optional(s.VersionID)})
		if err != nil {
			return nil, err
		}
		defer out.Body.Close()
		body, err := io.ReadAll(out.Body)
		if err != nil {
			return nil, err
		}
		return object(s.Key, out.VersionId, out.ETag, out.ContentLength, out.LastModified, out.ContentType, string(body)), nil
	case mc.Head:
		out, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: b, Key: k, VersionId: optional(s.VersionID)})
		if err != nil {
			return nil, err
		}
		return object(s.Key, out.VersionId, out.ETag, out.ContentLength, out.LastModified, out.ContentType, ""), nil
	case mc.Delete:
		out, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: b, Key: k, VersionId: optional(s.VersionID)})
		if err != nil {
			return nil, err
		}
		return model.DeleteResult{VersionID: aws.ToString(out.VersionId), DeleteMarker: aws.ToBool(out.DeleteMarker)}, nil
	case mc.DeleteObjects:
		return f.deleteObjects(s)
	case mc.ListVersions:
		return f.versionPages(s)
	case mc.ListObjects:
		return f.objectPages(s)
	case mc.CreateUpload:
		out, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: b, Key: k, ContentType: optional(s.ContentType)})
		if err != nil {
			return nil, err
		}
		return model.UploadInfo{Key: aws.ToString(out.Key), UploadID: aws.ToString(out.UploadId)}, nil
	case mc.UploadPart:
		out, err := c.UploadPart(ctx, &s3.UploadPartInput{Bucket: b, Key: k, UploadId: aws.String(s.UploadID),
			PartNumber: aws.Int32(int32(s.PartNumber)), Body: strings.NewReader(s.Body)})
		if err != nil {
			return nil, err
		}
		return model.PartInfo{Number: s.PartNumber, ETag: unquote(out.ETag)}, nil
	case mc.CompleteUpload:
		var parts []types.CompletedPart
		for _, p := range s.Parts {
			parts = append(parts, types.CompletedPart{PartNumber: aws.Int32(int32(p.Number)), ETag: aws.String(p.ETag)})
		}
		out, err := c.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: b, Key: k, UploadId: aws.String(s.UploadID),
			MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}})
		if err != nil {
			return nil, err
		}
		return model.PutResult{VersionID: versionOrNull(out.VersionId), ETag: unquote(out.ETag)}, nil
	case mc.AbortUpload:
		_, err := c.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: b, Key: k, UploadId: aws.String(s.UploadID)})
		return nil, err
	case mc.ListParts:
		return f.partPages(s)
	case mc.ListUploads:
		return f.uploadPages(s)
	case mc.SetClock:
		return nil, f.extension(http.MethodPut, "/_minis3/clock", map[string]any{"now": s.Now}, nil)
	case mc.Evaluate, mc.Tick:
		return f.lifecycle(s)
	case mc.PutLifecycle:
		var rules []types.LifecycleRule
		for _, r := range s.Lifecycle.Rules {
			rule := types.LifecycleRule{ID: optional(r.ID), Status: types.ExpirationStatusDisabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String(r.Prefix)}}
			if r.Enabled {
				rule.Status = types.ExpirationStatusEnabled
			}
			if r.ExpirationDays != 0 {
				rule.Expiration = &types.LifecycleExpiration{Days: aws.Int32(int32(r.ExpirationDays))}
			}
			if r.NoncurrentDays != 0 {
				rule.NoncurrentVersionExpiration = &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(int32(r.NoncurrentDays))}
			}
			rules = append(rules, rule)
		}
		_, err := c.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: b,
			LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: rules}})
		return nil, err
	case mc.GetLifecycle:
		out, err := c.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: b})
		if err != nil {
			return nil, err
		}
		var cfg model.LifecycleConfiguration
		for _, r := range out.Rules {
			rule := model.LifecycleRule{ID: aws.ToString(r.ID), Enabled: r.Status == types.ExpirationStatusEnabled, Prefix: aws.ToString(r.Prefix)}
			if r.Filter != nil && r.Filter.Prefix != nil {
				rule.Prefix = *r.Filter.Prefix
			}
			if r.Expiration != nil {
				rule.ExpirationDays = int(aws.ToInt32(r.Expiration.Days))
			}
			if r.NoncurrentVersionExpiration != nil {
				rule.NoncurrentDays = int(aws.ToInt32(r.NoncurrentVersionExpiration.NoncurrentDays))
			}
			cfg.Rules = append(cfg.Rules, rule)
		}
		return cfg, nil
	case mc.DeleteLifecycle:
		_, err := c.DeleteBucketLifecycle(ctx, &s3.DeleteBucketLifecycleInput{Bucket: b})
		return nil, err
	}
	return nil, fmt.Errorf("the HTTP face has no op %q", s.Op)
}

// withoutContentType sends a PutObject without the Content-Type the SDK
// gives a body of unknown type, as a client that sets none does.
func withoutContentType(o *s3.Options) {
	o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
		return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("WithoutContentType",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				if req, ok := in.Request.(*smithyhttp.Request); ok {
					req.Header.Del("Content-Type")
				}
				return next.HandleFinalize(ctx, in)
			}), middleware.Before)
	})
}

// versionOrNull is the version ID of a write's x-amz-version-id: a write
// without one made the null version.
func versionOrNull(id *string) string {
	if id == nil {
		return model.NullVersionID
	}
	return *id
}

// object is what GET and HEAD answered. Without x-amz-version-id (a
// bucket never versioned) the version read is the null one.
func object(key string, versionID, etag *string, size *int64, modified *time.Time, contentType *string, body string) model.Object {
	ct := aws.ToString(contentType)
	if ct == "binary/octet-stream" {
		ct = "" // what S3 answers for an object stored without one
	}
	var created float64
	if modified != nil {
		created = float64(modified.Unix())
	}
	return model.Object{Key: key, VersionID: versionOrNull(versionID), ETag: unquote(etag), Size: aws.ToInt64(size),
		CreatedAt: created, ContentType: ct, Body: body}
}

func unquote(etag *string) string { return strings.Trim(aws.ToString(etag), `"`) }

func (f *httpFace) deleteObjects(s mc.Step) (any, error) {
	var ids []types.ObjectIdentifier
	for _, o := range s.Objects {
		id := types.ObjectIdentifier{Key: aws.String(o.Key)}
		if o.VersionID != "" {
			id.VersionId = aws.String(o.VersionID)
		}
		ids = append(ids, id)
	}
	out, err := f.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String(s.Bucket), Delete: &types.Delete{Objects: ids}})
	if err != nil {
		return nil, err
	}
	var res model.DeleteObjectsResult
	for _, d := range out.Deleted {
		res.Deleted = append(res.Deleted, model.Deleted{Key: aws.ToString(d.Key), VersionID: aws.ToString(d.VersionId),
			DeleteMarker: aws.ToBool(d.DeleteMarker), DeleteMarkerVersionID: aws.ToString(d.DeleteMarkerVersionId)})
	}
	for _, e := range out.Errors {
		res.Errors = append(res.Errors, model.DeleteFailure{Key: aws.ToString(e.Key), VersionID: aws.ToString(e.VersionId), Code: aws.ToString(e.Code)})
	}
	return res, nil
}

// maxPages bounds a listing step, as modelcheck's does.
const maxPages = 100

func listArgs(s mc.Step) mc.ListArgs {
	if s.List == nil {
		return mc.ListArgs{}
	}
	return *s.List
}

// maxKeys is a page size as a request parameter: 0 sends none.
func maxKeys(n int) *int32 {
	if n == 0 {
		return nil
	}
	return aws.Int32(int32(n))
}

// versionsXML is a ListObjectVersions document. The SDK answers versions
// and delete markers in two lists; their order in one listing is in the
// document, which is read here.
type versionsXML struct {
	Entries []struct {
		XMLName      xml.Name
		Key          string
		VersionID    string `xml:"VersionId"`
		IsLatest     bool
		LastModified string
		ETag         string
		Size         int64
	} `xml:",any"`
	CommonPrefixes []struct {
		Prefix string
	}
	IsTruncated         bool
	NextKeyMarker       string
	NextVersionIDMarker string `xml:"NextVersionIdMarker"`
}

func (f *httpFace) versionPages(s mc.Step) (any, error) {
	l := listArgs(s)
	in := &s3.ListObjectVersionsInput{Bucket: aws.String(s.Bucket), Prefix: optionalString(l.Prefix), Delimiter: optionalString(l.Delimiter),
		KeyMarker: optionalString(l.KeyMarker), VersionIdMarker: optionalString(l.VersionIDMarker), MaxKeys: maxKeys(l.MaxKeys)}
	var pages []model.VersionsPage
	for range maxPages {
		out, err := f.client.ListObjectVersions(ctx, in)
		if err != nil {
			return nil, err
		}
		var doc versionsXML
		if err := xml.Unmarshal(f.last.body, &doc); err != nil {
			return nil, err
		}
		p := model.VersionsPage{IsTruncated: aws.ToBool(out.IsTruncated), NextKeyMarker: aws.ToString(out.NextKeyMarker), NextVersionIDMarker: aws.ToString(out.NextVersionIdMarker)}
		for _, e := range doc.Entries {
			if e.XMLName.Local != "Version" && e.XMLName.Local != "DeleteMarker" {
				continue
			}
			modified, err := time.Parse(time.RFC3339, e.LastModified)
			if err != nil {
				return nil, err
			}
			p.Versions = append(p.Versions, model.VersionRow{Key: e.Key, VersionID: e.VersionID, IsLatest: e.IsLatest,
				DeleteMarker: e.XMLName.Local == "DeleteMarker", CreatedAt: float64(modified.UnixMilli()) / 1000, ETag: strings.Trim(e.ETag, `"`), Size: e.Size})
		}
		if len(p.Versions) != len(out.Versions)+len(out.DeleteMarkers) {
			return nil, fmt.Errorf("the SDK read %d versions and %d markers from a document of %d", len(out.Versions), len(out.DeleteMarkers), len(p.Versions))
		}
		for _, cp := range out.CommonPrefixes {
			p.CommonPrefixes = append(p.CommonPrefixes, aws.ToString(cp.Prefix))
		}
		pages = append(pages, p)
		if !p.IsTruncated {
			break
		}
		in.KeyMarker, in.VersionIdMarker = out.NextKeyMarker, out.NextVersionIdMarker
	}
	return pages, nil
}

func optionalString(v string) *string {
	if v == "" {
		return nil
	}
	return aws.String(v)
}

func (f *httpFace) objectPages(s mc.Step) (any, error) {
	l := listArgs(s)
	in := &s3.ListObjectsV2Input{Bucket: aws.String(s.Bucket), Prefix: optionalString(l.Prefix), Delimiter: optionalString(l.Delimiter),
		StartAfter: optionalString(l.StartAfter), MaxKeys: maxKeys(l.MaxKeys)}
	var pages []model.ObjectsPage
	for range maxPages {
		out, err := f.client.ListObjectsV2(ctx, in)
		if err != nil {
			return nil, err
		}
		p := model.ObjectsPage{KeyCount: int(aws.ToInt32(out.KeyCount)), IsTruncated: aws.ToBool(out.IsTruncated)}
		for _, o := range out.Contents {
			p.Objects = append(p.Objects, model.ObjectRow{Key: aws.ToString(o.Key), ETag: unquote(o.ETag), Size: aws.ToInt64(o.Size), CreatedAt: timeOf(o.LastModified)})
		}
		for _, cp := range out.CommonPrefixes {
			p.CommonPrefixes = append(p.CommonPrefixes, aws.ToString(cp.Prefix))
		}
		pages = append(pages, p)
		if !p.IsTruncated {
			break
		}
		in.ContinuationToken = out.NextContinuationToken
	}
	return pages, nil
}

func (f *httpFace) partPages(s mc.Step) (any, error) {
	in := &s3.ListPartsInput{Bucket: aws.String(s.Bucket), Key: aws.String(s.Key), UploadId: aws.String(s.UploadID), MaxParts: maxKeys(listArgs(s).MaxKeys)}
	var pages []model.PartsPage
	for range maxPages {
		out, err := f.client.ListParts(ctx, in)
		if err != nil {
			return nil, err
		}
		p := model.PartsPage{Upload: model.UploadInfo{Key: aws.ToString(out.Key), UploadID: aws.ToString(out.UploadId)}, IsTruncated: aws.ToBool(out.IsTruncated)}
		if p.IsTruncated {
			n, err := strconv.Atoi(aws.ToString(out.NextPartNumberMarker))
			if err != nil {
				return nil, fmt.Errorf("NextPartNumberMarker: %w", err)
			}
			p.NextPartNumberMarker = n
		}
		for _, part := range out.Parts {
			p.Parts = append(p.Parts, model.PartInfo{Number: int(aws.ToInt32(part.PartNumber)), ETag: unquote(part.ETag), Size: aws.ToInt64(part.Size), CreatedAt: timeOf(part.LastModified)})
		}
		pages = append(pages, p)
		if !p.IsTruncated {
			break
		}
		in.PartNumberMarker = out.NextPartNumberMarker
	}
	return pages, nil
}

func (f *httpFace) uploadPages(s mc.Step) (any, error) {
	l := listArgs(s)
	in := &s3.ListMultipartUploadsInput{Bucket: aws.String(s.Bucket), Prefix: optionalString(l.Prefix), Delimiter: optionalString(l.Delimiter),
		KeyMarker: optionalString(l.KeyMarker), UploadIdMarker: optionalString(l.UploadIDMarker), MaxUploads: maxKeys(l.MaxKeys)}
	var pages []model.UploadsPage
	for range maxPages {
		out, err := f.client.ListMultipartUploads(ctx, in)
		if err != nil {
			return nil, err
		}
		p := model.UploadsPage{IsTruncated: aws.ToBool(out.IsTruncated), NextKeyMarker: aws.ToString(out.NextKeyMarker), NextUploadIDMarker: aws.ToString(out.NextUploadIdMarker)}
		for _, u := range out.Uploads {
			p.Uploads = append(p.Uploads, model.UploadInfo{Key: aws.ToString(u.Key), UploadID: aws.ToString(u.UploadId), Initiated: timeOf(u.Initiated)})
		}
		for _, cp := range out.CommonPrefixes {
			p.CommonPrefixes = append(p.CommonPrefixes, aws.ToString(cp.Prefix))
		}
		pages = append(pages, p)
		if !p.IsTruncated {
			break
		}
		in.KeyMarker, in.UploadIdMarker = out.NextKeyMarker, out.NextUploadIdMarker
	}
	return pages, nil
}

// extensionError is the JSON error of a /_minis3/ endpoint.
type extensionError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *extensionError) Error() string { return e.Code + ": " + e.Message }

// extension sends a JSON request to a /_minis3/ endpoint and decodes its
// answer into out.
func (f *httpFace) extension(method, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(method, f.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := f.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e extensionError
		if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
			return err
		}
		return &e
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// lifecycle runs a tick or a preview through the extensions.
func (f *httpFace) lifecycle(s mc.Step) (any, error) {
	type rule struct {
		ID                    string   `json:"id"`
		Prefix                string   `json:"prefix"`
		ExpireCurrentAfter    *float64 `json:"expireCurrentAfter,omitempty"`
		ExpireNoncurrentAfter *float64 `json:"expireNoncurrentAfter,omitempty"`
	}
	rules := []rule{}
	for _, r := range s.Rules {
		rules = append(rules, rule{r.ID, r.Prefix, r.ExpireCurrentAfter, r.ExpireNoncurrentAfter})
	}
	endpoint := "lifecycle-tick"
	if s.Op == mc.Evaluate {
		endpoint = "lifecycle-preview"
	}
	var out struct {
		Actions []model.Action `json:"actions"`
	}
	err := f.extension(http.MethodPost, "/_minis3/buckets/"+s.Bucket+"/"+endpoint, map[string]any{"rules": rules}, &out)
	return out.Actions, err
}
