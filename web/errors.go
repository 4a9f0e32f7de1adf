package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"minis3/core"
)

// Error codes the HTTP layer raises itself; the store never does.
const (
	codeBadDigest                 core.Code = "BadDigest"
	codeInvalidDigest             core.Code = "InvalidDigest"
	codeInvalidRange              core.Code = "InvalidRange"
	codeIncompleteBody            core.Code = "IncompleteBody"
	codeMissingContentLength      core.Code = "MissingContentLength"
	codeMaxMessageLengthExceeded  core.Code = "MaxMessageLengthExceeded"
	codeInvalidPartNumber         core.Code = "InvalidPartNumber"
	codeXAmzContentSHA256Mismatch core.Code = "XAmzContentSHA256Mismatch"
	// The bucket settings a bucket has none of (bucketSettings).
	codeNoSuchBucketPolicy               core.Code = "NoSuchBucketPolicy"
	codeNoSuchCORSConfiguration          core.Code = "NoSuchCORSConfiguration"
	codeNoSuchWebsiteConfiguration       core.Code = "NoSuchWebsiteConfiguration"
	codeObjectLockConfigurationNotFound  core.Code = "ObjectLockConfigurationNotFoundError"
	codeReplicationConfigurationNotFound core.Code = "ReplicationConfigurationNotFoundError"
	// codeNotFound is an unknown /_minis3/ extension endpoint.
	codeNotFound core.Code = "NotFound"
)

// httpStatus is the status S3 answers with for code [ref §4.2].
func httpStatus(code core.Code) int {
	switch code {
	case core.NoSuchBucket, core.NoSuchKey, core.NoSuchVersion, core.NoSuchUpload, core.NoSuchLifecycleConfiguration, codeNotFound,
		core.NoSuchTagSet, codeNoSuchBucketPolicy, codeNoSuchCORSConfiguration, codeNoSuchWebsiteConfiguration,
		codeObjectLockConfigurationNotFound, codeReplicationConfigurationNotFound:
		return http.StatusNotFound
	case core.BucketAlreadyOwnedByYou, core.BucketNotEmpty, core.ConditionalRequestConflict:
		return http.StatusConflict
	case core.AccessDenied, core.InvalidAccessKeyId, core.SignatureDoesNotMatch, core.RequestTimeTooSkewed, core.InvalidObjectState:
		return http.StatusForbidden
	case core.MethodNotAllowed:
		return http.StatusMethodNotAllowed
	case core.NotImplemented:
		return http.StatusNotImplemented
	case core.InternalError:
		return http.StatusInternalServerError
	case codeInvalidRange, codeInvalidPartNumber:
		return http.StatusRequestedRangeNotSatisfiable
	case codeMissingContentLength:
		return http.StatusLengthRequired
	case core.PreconditionFailed:
		return http.StatusPreconditionFailed
	}
	return http.StatusBadRequest
}

// coreError lets s3Error embed core.Error (its fields and its Error method)
// under a name that does not clash with that method.
type coreError = core.Error

// s3Error is an error raised by the HTTP layer. It carries the elements of
// S3's error body that core.Error has no field for.
type s3Error struct {
	coreError
	Header           string // NotImplemented: the header that asked for it
	RangeRequested   string // InvalidRange
	ActualObjectSize int64  // InvalidRange
	Allow            string // MethodNotAllowed: the Allow header
	Region           string // AuthorizationHeaderMalformed: the region to sign for

	// InvalidPartNumber: the part number asked for and how many parts
	// the object has.
	PartNumberRequested, ActualPartCount int
}

func newS3Error(code core.Code, format string, args ...any) *s3Error {
	msg := core.DefaultMessage(code)
	if format != "" {
		msg = fmt.Sprintf(format, args...)
	}
	return &s3Error{coreError: core.Error{Code: code, Message: msg}}
}

func invalidArgument(name, value, format string, args ...any) *s3Error {
	e := newS3Error(core.InvalidArgument, format, args...)
	e.ArgumentName, e.ArgumentValue = name, value
	return e
}

func notImplemented(header, format string, args ...any) *s3Error {
	e := newS3Error(core.NotImplemented, format, args...)
	e.Header = header
	return e
}

func malformedXML() *s3Error { return newS3Error(core.MalformedXML, "") }

func methodNotAllowed(method, resource, allow string) *s3Error {
	e := newS3Error(core.MethodNotAllowed, "")
	e.Method, e.ResourceType, e.Allow = method, resource, allow
	return e
}

// errorBody is S3's XML error document. It has no xmlns. Only the elements
// that belong to the code are filled in.
type errorBody struct {
	Code, Message, Region                        string
	BucketName, Key, VersionID, UploadID         string
	PartNumber, ETag                             string
	ProposedSize, MinSizeAllowed, Size           string
	MaxSizeAllowed, ArgumentName                 string
	ArgumentValue                                *string // written when set, even empty
	Method, ResourceType, Header, RangeRequested string
	ActualObjectSize, Condition                  string
	PartNumberRequested, ActualPartCount         string
	StorageClass                                 string
	RequestID, HostID                            string
}

// document writes the error document: Code, Message, RequestId and HostId
// always, the other elements when they are not empty, in S3's order.
func (b *errorBody) document() *xmlWriter {
	w := newErrorWriter(b.Code, b.Message)
	w.textIf("Region", b.Region)
	w.textIf("BucketName", b.BucketName)
	w.textIf("Key", b.Key)
	w.textIf("VersionId", b.VersionID)
	w.textIf("UploadId", b.UploadID)
	w.textIf("PartNumber", b.PartNumber)
	w.textIf("ETag", b.ETag)
	w.textIf("ProposedSize", b.ProposedSize)
	w.textIf("MinSizeAllowed", b.MinSizeAllowed)
	w.textIf("Size", b.Size)
	w.textIf("MaxSizeAllowed", b.MaxSizeAllowed)
	w.textIf("ArgumentName", b.ArgumentName)
	if b.ArgumentValue != nil {
		w.text("ArgumentValue", *b.ArgumentValue)
	}
	w.textIf("Method", b.Method)
	w.textIf("ResourceType", b.ResourceType)
	w.textIf("Header", b.Header)
	w.textIf("RangeRequested", b.RangeRequested)
	w.textIf("ActualObjectSize", b.ActualObjectSize)
	w.textIf("Condition", b.Condition)
	w.textIf("PartNumberRequested", b.PartNumberRequested)
	w.textIf("ActualPartCount", b.ActualPartCount)
	w.textIf("StorageClass", b.StorageClass)
	w.text("RequestId", b.RequestID)
	w.text("HostId", b.HostID)
	return w
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// bodyFor fills in the code-specific elements of e, as S3 sends them.
func bodyFor(e *s3Error) errorBody {
	b := errorBody{Code: string(e.Code), Message: e.Message, Header: e.Header, Condition: e.Condition, Region: e.Region}
	switch e.Code {
	case core.NoSuchBucket, core.BucketAlreadyOwnedByYou, core.BucketNotEmpty,
		core.InvalidBucketName, core.NoSuchLifecycleConfiguration,
		core.NoSuchTagSet, codeNoSuchBucketPolicy, codeNoSuchCORSConfiguration, codeNoSuchWebsiteConfiguration,
		codeObjectLockConfigurationNotFound, codeReplicationConfigurationNotFound:
		b.BucketName = e.BucketName
	case core.NoSuchKey, core.ConditionalRequestConflict:
		b.Key = e.Key
	case core.NoSuchVersion:
		b.Key, b.VersionID = e.Key, e.VersionID
	case core.NoSuchUpload, core.InvalidPartOrder:
		b.UploadID = e.UploadID
	case core.InvalidPart:
		b.UploadID, b.PartNumber, b.ETag = e.UploadID, strconv.Itoa(e.PartNumber), e.ETag
	case core.EntityTooSmall:
		b.ProposedSize, b.MinSizeAllowed = itoa(e.ProposedSize), itoa(e.MinSizeAllowed)
		b.PartNumber, b.ETag = strconv.Itoa(e.PartNumber), e.ETag
	case core.EntityTooLarge:
		b.ProposedSize, b.MaxSizeAllowed = itoa(e.ProposedSize), itoa(e.MaxSizeAllowed)
	case core.KeyTooLongError, core.MetadataTooLarge:
		b.Size, b.MaxSizeAllowed = itoa(e.Size), itoa(e.MaxSizeAllowed)
	case core.InvalidArgument:
		b.ArgumentName = e.ArgumentName
		if e.ArgumentName != "" {
			v := e.ArgumentValue
			b.ArgumentValue = &v
		}
	case core.MethodNotAllowed:
		b.Method, b.ResourceType = e.Method, e.ResourceType
	case codeInvalidRange:
		b.RangeRequested, b.ActualObjectSize = e.RangeRequested, itoa(e.ActualObjectSize)
	case codeInvalidPartNumber:
		b.PartNumberRequested, b.ActualPartCount = strconv.Itoa(e.PartNumberRequested), strconv.Itoa(e.ActualPartCount)
	case core.InvalidObjectState:
		b.StorageClass = e.StorageClass
	}
	return b
}

// asS3Error turns any error into the S3 error to send: errors from the
// store keep their code and details, anything else is an InternalError.
func asS3Error(err error) *s3Error {
	var se *s3Error
	if errors.As(err, &se) {
		return se
	}
	var ce *core.Error
	if errors.As(err, &ce) {
		return &s3Error{coreError: *ce}
	}
	e := newS3Error(core.InternalError, "")
	e.Err = err
	return e
}

// writeError sends err as S3 does: status, the delete-marker and Allow
// headers where they apply, and the XML error body (none for HEAD).
func writeError(w http.ResponseWriter, r *http.Request, requestID string, origin float64, err error) {
	e := asS3Error(err)
	hdr := w.Header()
	if e.DeleteMarker {
		hdr.Set("X-Amz-Delete-Marker", "true")
		hdr.Set("X-Amz-Version-Id", e.VersionID)
		hdr.Set("Last-Modified", httpTime(origin+e.LastModified))
	}
	if e.Code == core.MethodNotAllowed {
		allow := e.Allow
		if e.ResourceType == "DeleteMarker" {
			allow = "DELETE"
		}
		hdr.Set("Allow", allow)
	}
	if e.Code == codeInvalidRange {
		hdr.Set("Content-Range", "bytes */"+itoa(e.ActualObjectSize))
	}
	status := httpStatus(e.Code)
	if r.Method == http.MethodHead {
		w.WriteHeader(status)
		return
	}
	body := bodyFor(e)
	body.RequestID = requestID
	body.HostID = hdr.Get("X-Amz-Id-2")
	body.document().send(w, status)
}

// xmlNS is the namespace of S3's response documents (but not of errors).
const xmlNS = "http://s3.amazonaws.com/doc/2006-03-01/"
