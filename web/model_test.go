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
	"net/url"
	"regexp"
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
	mc.Check(t, mc.Config{Name: "http", Sequences: 100, Steps: 40, Open: func(t *testing.T, origin float64) mc.Face {
		storage := core.NewMemoryStorage()
		store, err := coreface.New(func() (core.Storage, error) { return storage, nil }, origin)
		if err != nil {
			t.Fatal(err)
		}
		f := &httpFace{store: store, origin: origin}
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
	origin  float64 // the clock's 0, which HTTP dates count from
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
	case mc.Put, mc.Get, mc.Head, mc.Delete, mc.CreateUpload, mc.UploadPart, mc.CompleteUpload, mc.AbortUpload, mc.ListParts,
		mc.PutTagging, mc.GetTagging, mc.DeleteTagging:
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
// no body), only its status; and of a write, only the headers' ETag,
// version ID and expiry (PutObject, UploadPart and CompleteMultipartUpload
// answer no size and no time; ListParts no initiation time; ListObjectsV2
// no version ID).
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

// clockOf is an XML timestamp as the clock's seconds: its milliseconds
// after the origin (a whole second), counted whole so that no rounding
// creeps in.
func (f *httpFace) clockOf(t *time.Time) float64 {
	if t == nil {
		return math.NaN()
	}
	return float64(t.UnixMilli()-int64(f.origin)*1000) / 1000
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
			buckets = append(buckets, model.BucketInfo{Name: aws.ToString(x.Name), CreatedAt: f.clockOf(x.CreationDate)})
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
		out, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: k, Body: strings.NewReader(s.Body), ContentType: optional(s.ContentType),
			Tagging: taggingHeader(s.Tags), IfNoneMatch: ifNoneMatch(s), IfMatch: optional(s.IfMatch)}, opts...)
		if err != nil {
			return nil, err
		}
		x, err := expiry(out.Expiration)
		return model.PutResult{VersionID: versionOrNull(out.VersionId), ETag: unquote(out.ETag), Expiration: x}, err
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
		return f.object(s.Key, out.VersionId, out.ETag, out.ContentLength, out.LastModified, out.ContentType, out.StorageClass, out.Expiration, string(body))
	case mc.Head:
		out, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: b, Key: k, VersionId: optional(s.VersionID)})
		if err != nil {
			return nil, err
		}
		return f.object(s.Key, out.VersionId, out.ETag, out.ContentLength, out.LastModified, out.ContentType, out.StorageClass, out.Expiration, "")
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
		out, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: b, Key: k, ContentType: optional(s.ContentType),
			Tagging: taggingHeader(s.Tags)})
		if err != nil {
			return nil, err
		}
		return model.UploadInfo{Key: aws.ToString(out.Key), UploadID: aws.ToString(out.UploadId), Abort: abortDate(out.AbortDate, out.AbortRuleId)}, nil
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
			MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}, IfNoneMatch: ifNoneMatch(s), IfMatch: optional(s.IfMatch)})
		if err != nil {
			return nil, err
		}
		x, err := expiry(out.Expiration)
		return model.PutResult{VersionID: versionOrNull(out.VersionId), ETag: unquote(out.ETag), Expiration: x}, err
	case mc.AbortUpload:
		_, err := c.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: b, Key: k, UploadId: aws.String(s.UploadID)})
		return nil, err
	case mc.ListParts:
		return f.partPages(s)
	case mc.ListUploads:
		return f.uploadPages(s)
	case mc.SetClock:
		return f.setClock(s.Now)
	case mc.Evaluate, mc.Tick:
		return f.lifecycle(s)
	case mc.PutLifecycle:
		_, err := c.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: b,
			LifecycleConfiguration: lifecycleDocument(*s.Lifecycle)})
		return nil, err
	case mc.GetLifecycle:
		out, err := c.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: b})
		if err != nil {
			return nil, err
		}
		return lifecycleConfiguration(out.Rules)
	case mc.DeleteLifecycle:
		_, err := c.DeleteBucketLifecycle(ctx, &s3.DeleteBucketLifecycleInput{Bucket: b})
		return nil, err
	case mc.RunLifecycle, mc.PreviewLifecycle:
		endpoint := "lifecycle-run"
		if s.Op == mc.PreviewLifecycle {
			endpoint = "lifecycle-run-preview"
		}
		var out struct {
			Actions []model.Action `json:"actions"`
		}
		err := f.extension(http.MethodPost, "/_minis3/buckets/"+s.Bucket+"/"+endpoint, nil, &out)
		return out.Actions, err
	case mc.PutTagging:
		tags := append([]types.Tag{}, sdkTags(s.Tags)...) // never nil: the SDK sends no Tagging without a TagSet
		out, err := c.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{Bucket: b, Key: k, VersionId: optional(s.VersionID), Tagging: &types.Tagging{TagSet: tags}})
		if err != nil {
			return nil, err
		}
		return versionOrNull(out.VersionId), nil
	case mc.GetTagging:
		out, err := c.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: b, Key: k, VersionId: optional(s.VersionID)})
		if err != nil {
			return nil, err
		}
		return model.Tagging{VersionID: versionOrNull(out.VersionId), Tags: modelTags(out.TagSet)}, nil
	case mc.DeleteTagging:
		out, err := c.DeleteObjectTagging(ctx, &s3.DeleteObjectTaggingInput{Bucket: b, Key: k, VersionId: optional(s.VersionID)})
		if err != nil {
			return nil, err
		}
		return versionOrNull(out.VersionId), nil
	case mc.PutBucketTagging:
		tags := append([]types.Tag{}, sdkTags(s.Tags)...) // never nil, as for PutObjectTagging
		_, err := c.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: b, Tagging: &types.Tagging{TagSet: tags}})
		return nil, err
	case mc.GetBucketTagging:
		out, err := c.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: b})
		if err != nil {
			return nil, err
		}
		return modelTags(out.TagSet), nil
	case mc.DeleteBucketTagging:
		_, err := c.DeleteBucketTagging(ctx, &s3.DeleteBucketTaggingInput{Bucket: b})
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
// bucket never versioned) the version read is the null one; without
// x-amz-storage-class it is STANDARD.
func (f *httpFace) object(key string, versionID, etag *string, size *int64, modified *time.Time, contentType *string,
	class types.StorageClass, expiration *string, body string) (model.Object, error) {
	ct := aws.ToString(contentType)
	if ct == "binary/octet-stream" {
		ct = "" // what S3 answers for an object stored without one
	}
	var created float64
	if modified != nil {
		created = float64(modified.Unix() - int64(f.origin))
	}
	x, err := expiry(expiration)
	return model.Object{Key: key, VersionID: versionOrNull(versionID), ETag: unquote(etag), Size: aws.ToInt64(size),
		CreatedAt: created, ContentType: ct, StorageClass: string(class), Expiration: x, Body: body}, err
}

// expirationHeader is the shape of x-amz-expiration [ref §5.8].
var expirationHeader = regexp.MustCompile(`^expiry-date="([^"]*)", rule-id="([^"]*)"$`)

// expiry reads x-amz-expiration: the expiry date, an HTTP date, and the
// rule's ID, URL-encoded; nil when it was not sent.
func expiry(header *string) (*model.Expiry, error) {
	if header == nil {
		return nil, nil
	}
	m := expirationHeader.FindStringSubmatch(*header)
	if m == nil {
		return nil, fmt.Errorf("x-amz-expiration %q is not of S3's shape", *header)
	}
	at, err := http.ParseTime(m[1])
	if err != nil {
		return nil, fmt.Errorf("x-amz-expiration %q: %w", *header, err)
	}
	id, err := url.QueryUnescape(m[2])
	if err != nil {
		return nil, fmt.Errorf("x-amz-expiration %q: %w", *header, err)
	}
	return &model.Expiry{Date: float64(at.Unix()), RuleID: id}, nil
}

// abortDate is CreateMultipartUpload's or ListParts' x-amz-abort-date and
// x-amz-abort-rule-id; nil when they were not sent.
func abortDate(date *time.Time, rule *string) *model.Expiry {
	if date == nil && rule == nil {
		return nil
	}
	x := &model.Expiry{RuleID: aws.ToString(rule)}
	if date != nil {
		x.Date = float64(date.Unix())
	}
	return x
}

func unquote(etag *string) string { return strings.Trim(aws.ToString(etag), `"`) }

// storageClass is a listing's StorageClass in the model's terms: STANDARD
// is "".
func storageClass(class string) string {
	if class == "STANDARD" {
		return ""
	}
	return class
}

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
		StorageClass string
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
				DeleteMarker: e.XMLName.Local == "DeleteMarker", CreatedAt: f.clockOf(&modified), ETag: strings.Trim(e.ETag, `"`), Size: e.Size,
				StorageClass: storageClass(e.StorageClass)})
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

// ifNoneMatch is the If-None-Match header of a conditional write: "*".
func ifNoneMatch(s mc.Step) *string {
	if !s.IfNoneMatch {
		return nil
	}
	return aws.String("*")
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
			p.Objects = append(p.Objects, model.ObjectRow{Key: aws.ToString(o.Key), ETag: unquote(o.ETag), Size: aws.ToInt64(o.Size), CreatedAt: f.clockOf(o.LastModified),
				StorageClass: storageClass(string(o.StorageClass))})
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
		p := model.PartsPage{Upload: model.UploadInfo{Key: aws.ToString(out.Key), UploadID: aws.ToString(out.UploadId), Abort: abortDate(out.AbortDate, out.AbortRuleId)},
			IsTruncated: aws.ToBool(out.IsTruncated)}
		if p.IsTruncated {
			n, err := strconv.Atoi(aws.ToString(out.NextPartNumberMarker))
			if err != nil {
				return nil, fmt.Errorf("NextPartNumberMarker: %w", err)
			}
			p.NextPartNumberMarker = n
		}
		for _, part := range out.Parts {
			p.Parts = append(p.Parts, model.PartInfo{Number: int(aws.ToInt32(part.PartNumber)), ETag: unquote(part.ETag), Size: aws.ToInt64(part.Size), CreatedAt: f.clockOf(part.LastModified)})
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
			p.Uploads = append(p.Uploads, model.UploadInfo{Key: aws.ToString(u.Key), UploadID: aws.ToString(u.UploadId), Initiated: f.clockOf(u.Initiated)})
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

// extension sends a JSON request (none when in is nil) to a /_minis3/
// endpoint and decodes its answer into out.
func (f *httpFace) extension(method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
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

// setClock moves the clock through PUT /_minis3/clock and answers the
// runs of S3's lifecycle the move passed. The answer's clock must say
// where the clock now is, and each run when it ran, as RFC 3339 times of
// the origin plus the clock.
func (f *httpFace) setClock(now float64) ([]model.Run, error) {
	var out struct {
		Now    float64 `json:"now"`
		Origin float64 `json:"origin"`
		Time   string  `json:"time"`
		Runs   []struct {
			Bucket  string         `json:"bucket"`
			At      float64        `json:"at"`
			Time    string         `json:"time"`
			Actions []model.Action `json:"actions"`
		} `json:"runs"`
	}
	if err := f.extension(http.MethodPut, "/_minis3/clock", map[string]any{"now": now}, &out); err != nil {
		return nil, err
	}
	if out.Now != now || out.Origin != f.origin || out.Time != rfc3339(f.origin+now) {
		return nil, fmt.Errorf("the clock answered now %v, origin %v, time %s; want %v, %v, %s", out.Now, out.Origin, out.Time, now, f.origin, rfc3339(f.origin+now))
	}
	runs := []model.Run{}
	for _, r := range out.Runs {
		if r.Time != rfc3339(f.origin+r.At) {
			return nil, fmt.Errorf("the run of %s at %v says it ran at %s, want %s", r.Bucket, r.At, r.Time, rfc3339(f.origin+r.At))
		}
		runs = append(runs, model.Run{Bucket: r.Bucket, At: r.At, Actions: r.Actions})
	}
	return runs, nil
}

// rfc3339 is an absolute time as the extensions write it, to the
// microsecond.
func rfc3339(t float64) string {
	return time.Unix(0, 0).Add(time.Duration(math.Round(t*1e6)) * time.Microsecond).UTC().Format(time.RFC3339Nano)
}

// taggingHeader is x-amz-tagging for tags: URL query parameters in their
// order; none when there are no tags.
func taggingHeader(tags []model.Tag) *string {
	if len(tags) == 0 {
		return nil
	}
	var pairs []string
	for _, t := range tags {
		pairs = append(pairs, url.QueryEscape(t.Key)+"="+url.QueryEscape(t.Value))
	}
	return aws.String(strings.Join(pairs, "&"))
}

func sdkTags(tags []model.Tag) []types.Tag {
	var out []types.Tag
	for _, t := range tags {
		out = append(out, types.Tag{Key: aws.String(t.Key), Value: aws.String(t.Value)})
	}
	return out
}

func modelTags(tags []types.Tag) []model.Tag {
	var out []model.Tag
	for _, t := range tags {
		out = append(out, model.Tag{Key: aws.ToString(t.Key), Value: aws.ToString(t.Value)})
	}
	return out
}

func sdkTag(t *model.Tag) *types.Tag {
	if t == nil {
		return nil
	}
	return &types.Tag{Key: aws.String(t.Key), Value: aws.String(t.Value)}
}

func modelTag(t *types.Tag) *model.Tag {
	if t == nil {
		return nil
	}
	return &model.Tag{Key: aws.ToString(t.Key), Value: aws.ToString(t.Value)}
}

// int32s and ints convert the configuration's optional numbers.
func int32s(n *int) *int32 {
	if n == nil {
		return nil
	}
	return aws.Int32(int32(*n))
}

func ints(n *int32) *int {
	if n == nil {
		return nil
	}
	v := int(*n)
	return &v
}

// dates convert a configuration's Date, seconds since the Unix epoch.
func dates(t *float64) *time.Time {
	if t == nil {
		return nil
	}
	d := time.Unix(int64(*t), 0).UTC()
	return &d
}

func seconds64(t *time.Time) *float64 {
	if t == nil {
		return nil
	}
	v := float64(t.Unix())
	return &v
}

// lifecycleDocument is a configuration as the SDK sends it: each element
// the model's has, and none other. (Its rules are never nil: the SDK
// refuses to send a configuration without its Rules element, so a
// configuration of no rules goes as an empty list.)
func lifecycleDocument(c model.LifecycleConfiguration) *types.BucketLifecycleConfiguration {
	rules := []types.LifecycleRule{}
	for _, r := range c.Rules {
		rule := types.LifecycleRule{ID: optionalString(r.ID), Status: types.ExpirationStatusDisabled, Prefix: r.Prefix}
		if r.Enabled {
			rule.Status = types.ExpirationStatusEnabled
		}
		if fl := r.Filter; fl != nil {
			rule.Filter = &types.LifecycleRuleFilter{Prefix: fl.Prefix, Tag: sdkTag(fl.Tag),
				ObjectSizeGreaterThan: fl.ObjectSizeGreaterThan, ObjectSizeLessThan: fl.ObjectSizeLessThan}
			if a := fl.And; a != nil {
				rule.Filter.And = &types.LifecycleRuleAndOperator{Prefix: a.Prefix, Tags: sdkTags(a.Tags),
					ObjectSizeGreaterThan: a.ObjectSizeGreaterThan, ObjectSizeLessThan: a.ObjectSizeLessThan}
			}
		}
		if x := r.Expiration; x != nil {
			rule.Expiration = &types.LifecycleExpiration{Days: int32s(x.Days), Date: dates(x.Date), ExpiredObjectDeleteMarker: x.ExpiredObjectDeleteMarker}
		}
		if x := r.NoncurrentVersionExpiration; x != nil {
			rule.NoncurrentVersionExpiration = &types.NoncurrentVersionExpiration{NoncurrentDays: int32s(x.NoncurrentDays), NewerNoncurrentVersions: int32s(x.NewerNoncurrentVersions)}
		}
		if x := r.AbortIncompleteMultipartUpload; x != nil {
			rule.AbortIncompleteMultipartUpload = &types.AbortIncompleteMultipartUpload{DaysAfterInitiation: aws.Int32(int32(x.DaysAfterInitiation))}
		}
		for _, t := range r.Transitions {
			rule.Transitions = append(rule.Transitions, types.Transition{Days: int32s(t.Days), Date: dates(t.Date), StorageClass: types.TransitionStorageClass(t.StorageClass)})
		}
		for _, t := range r.NoncurrentVersionTransitions {
			rule.NoncurrentVersionTransitions = append(rule.NoncurrentVersionTransitions, types.NoncurrentVersionTransition{
				NoncurrentDays: aws.Int32(int32(t.NoncurrentDays)), StorageClass: types.TransitionStorageClass(t.StorageClass), NewerNoncurrentVersions: int32s(t.NewerNoncurrentVersions)})
		}
		rules = append(rules, rule)
	}
	return &types.BucketLifecycleConfiguration{Rules: rules}
}

// lifecycleConfiguration is the configuration GetBucketLifecycleConfiguration
// answered, in the model's terms.
func lifecycleConfiguration(rules []types.LifecycleRule) (model.LifecycleConfiguration, error) {
	var c model.LifecycleConfiguration
	for _, r := range rules {
		rule := model.LifecycleRule{ID: aws.ToString(r.ID), Prefix: r.Prefix}
		switch r.Status {
		case types.ExpirationStatusEnabled:
			rule.Enabled = true
		case types.ExpirationStatusDisabled:
		default:
			return c, fmt.Errorf("rule %q has Status %q", rule.ID, r.Status)
		}
		if fl := r.Filter; fl != nil {
			rule.Filter = &model.LifecycleFilter{Prefix: fl.Prefix, Tag: modelTag(fl.Tag),
				ObjectSizeGreaterThan: fl.ObjectSizeGreaterThan, ObjectSizeLessThan: fl.ObjectSizeLessThan}
			if a := fl.And; a != nil {
				rule.Filter.And = &model.LifecycleAnd{Prefix: a.Prefix, Tags: modelTags(a.Tags),
					ObjectSizeGreaterThan: a.ObjectSizeGreaterThan, ObjectSizeLessThan: a.ObjectSizeLessThan}
			}
		}
		if x := r.Expiration; x != nil {
			rule.Expiration = &model.Expiration{Days: ints(x.Days), Date: seconds64(x.Date), ExpiredObjectDeleteMarker: x.ExpiredObjectDeleteMarker}
		}
		if x := r.NoncurrentVersionExpiration; x != nil {
			rule.NoncurrentVersionExpiration = &model.NoncurrentVersionExpiration{NoncurrentDays: ints(x.NoncurrentDays), NewerNoncurrentVersions: ints(x.NewerNoncurrentVersions)}
		}
		if x := r.AbortIncompleteMultipartUpload; x != nil {
			rule.AbortIncompleteMultipartUpload = &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: int(aws.ToInt32(x.DaysAfterInitiation))}
		}
		for _, t := range r.Transitions {
			rule.Transitions = append(rule.Transitions, model.Transition{Days: ints(t.Days), Date: seconds64(t.Date), StorageClass: string(t.StorageClass)})
		}
		for _, t := range r.NoncurrentVersionTransitions {
			rule.NoncurrentVersionTransitions = append(rule.NoncurrentVersionTransitions, model.NoncurrentVersionTransition{
				NoncurrentDays: int(aws.ToInt32(t.NoncurrentDays)), StorageClass: string(t.StorageClass), NewerNoncurrentVersions: ints(t.NewerNoncurrentVersions)})
		}
		c.Rules = append(c.Rules, rule)
	}
	return c, nil
}
