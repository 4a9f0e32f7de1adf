package core

import "fmt"

// Code is an S3 error code. It implements error so that it can be used as a
// sentinel: errors.Is(err, NoSuchKey) reports whether err carries that code.
type Code string

// The S3 error codes MiniS3 returns.
const (
	NoSuchBucket                            Code = "NoSuchBucket"
	NoSuchKey                               Code = "NoSuchKey"
	NoSuchVersion                           Code = "NoSuchVersion"
	NoSuchUpload                            Code = "NoSuchUpload"
	NoSuchLifecycleConfiguration            Code = "NoSuchLifecycleConfiguration"
	BucketAlreadyOwnedByYou                 Code = "BucketAlreadyOwnedByYou"
	BucketNotEmpty                          Code = "BucketNotEmpty"
	InvalidBucketName                       Code = "InvalidBucketName"
	InvalidArgument                         Code = "InvalidArgument"
	InvalidRequest                          Code = "InvalidRequest"
	MethodNotAllowed                        Code = "MethodNotAllowed"
	InvalidPart                             Code = "InvalidPart"
	InvalidPartOrder                        Code = "InvalidPartOrder"
	EntityTooSmall                          Code = "EntityTooSmall"
	EntityTooLarge                          Code = "EntityTooLarge"
	KeyTooLongError                         Code = "KeyTooLongError"
	MalformedXML                            Code = "MalformedXML"
	IllegalVersioningConfigurationException Code = "IllegalVersioningConfigurationException"
	NotImplemented                          Code = "NotImplemented"
	InternalError                           Code = "InternalError"
	InvalidTag                              Code = "InvalidTag"
	BadRequest                              Code = "BadRequest"
	InvalidObjectState                      Code = "InvalidObjectState"
	InvalidStorageClass                     Code = "InvalidStorageClass"
	NoSuchTagSet                            Code = "NoSuchTagSet"
	MetadataTooLarge                        Code = "MetadataTooLarge"
	PreconditionFailed                      Code = "PreconditionFailed"
	ConditionalRequestConflict              Code = "ConditionalRequestConflict"
)

// The S3 error codes of request authentication (AWS Signature Version 4).
// The store never raises them: web.RequireSigV4 does, when a server is
// given credentials.
const (
	AccessDenied                      Code = "AccessDenied"
	InvalidAccessKeyId                Code = "InvalidAccessKeyId"
	SignatureDoesNotMatch             Code = "SignatureDoesNotMatch"
	RequestTimeTooSkewed              Code = "RequestTimeTooSkewed"
	AuthorizationHeaderMalformed      Code = "AuthorizationHeaderMalformed"
	AuthorizationQueryParametersError Code = "AuthorizationQueryParametersError"
)

// Error implements error.
func (c Code) Error() string { return string(c) }

// Error is an S3 error with the details S3 puts in its error body. Only the
// fields that matter for its Code are set.
type Error struct {
	Code    Code
	Message string

	BucketName string
	Key        string
	VersionID  string
	UploadID   string

	// DeleteMarker is true when the request hit a delete marker: a GET of a
	// key whose current entry is a marker (NoSuchKey) or a GET by a marker's
	// version ID (MethodNotAllowed). VersionID then names the marker and
	// LastModified is its creation time.
	DeleteMarker bool
	LastModified float64

	ArgumentName  string
	ArgumentValue string

	PartNumber     int
	ETag           string
	ProposedSize   int64
	MinSizeAllowed int64
	MaxSizeAllowed int64
	Size           int64
	Method         string
	ResourceType   string
	StorageClass   string
	// Condition names the header of a write condition that failed
	// (PreconditionFailed, ConditionalRequestConflict).
	Condition string

	// Err is the underlying cause of an InternalError, such as a failed
	// storage commit.
	Err error
}

func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}

// Is reports whether target is e's Code, or an *Error with the same Code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case *Error:
		return t.Code == e.Code
	}
	return false
}

// Unwrap lets errors.Is and errors.As see e's Code and its cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Code}
	}
	return []error{e.Code, e.Err}
}

// The default messages, as S3 words them.
var messages = map[Code]string{
	NoSuchBucket:                 "The specified bucket does not exist",
	NoSuchKey:                    "The specified key does not exist.",
	NoSuchVersion:                "The specified version does not exist.",
	NoSuchUpload:                 "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.",
	NoSuchLifecycleConfiguration: "The lifecycle configuration does not exist",
	BucketAlreadyOwnedByYou:      "Your previous request to create the named bucket succeeded and you already own it.",
	BucketNotEmpty:               "The bucket you tried to delete is not empty. You must delete all versions in the bucket.",
	InvalidBucketName:            "The specified bucket is not valid.",
	MethodNotAllowed:             "The specified method is not allowed against this resource.",
	InvalidPart:                  "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
	InvalidPartOrder:             "The list of parts was not in ascending order. Parts must be ordered by part number.",
	EntityTooSmall:               "Your proposed upload is smaller than the minimum allowed object size.",
	EntityTooLarge:               "Your proposed upload exceeds the maximum allowed object size.",
	KeyTooLongError:              "Your key is too long",
	MalformedXML:                 "The XML you provided was not well-formed or did not validate against our published schema",
	NotImplemented:               "A header you provided implies functionality that is not implemented",
	InternalError:                "We encountered an internal error. Please try again.",
	InvalidObjectState:           "The operation is not valid for the object's storage class",
	InvalidStorageClass:          "The storage class you specified is not valid",
	PreconditionFailed:           "At least one of the pre-conditions you specified did not hold",
	ConditionalRequestConflict:   "The conditional request cannot succeed due to a conflicting operation against this resource.",
	NoSuchTagSet:                 "The TagSet does not exist",
	MetadataTooLarge:             "Your metadata headers exceed the maximum allowed metadata size",
	AccessDenied:                 "Access Denied",
	InvalidAccessKeyId:           "The AWS Access Key Id you provided does not exist in our records.",
	SignatureDoesNotMatch:        "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
	RequestTimeTooSkewed:         "The difference between the request time and the current time is too large.",
}

// DefaultMessage is S3's usual message for c, or "" when it has none.
func DefaultMessage(c Code) string { return messages[c] }

func newError(c Code, format string, args ...any) *Error {
	msg := messages[c]
	if format != "" {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Code: c, Message: msg}
}

func errNoSuchBucket(name string) *Error {
	e := newError(NoSuchBucket, "")
	e.BucketName = name
	return e
}

func errInvalidArgument(name, value, format string, args ...any) *Error {
	e := newError(InvalidArgument, format, args...)
	e.ArgumentName, e.ArgumentValue = name, value
	return e
}

func errInvalidVersionID(id string) *Error {
	return errInvalidArgument("versionId", id, "Invalid version id specified")
}

func errNoSuchUpload(id string) *Error {
	e := newError(NoSuchUpload, "")
	e.UploadID = id
	return e
}
