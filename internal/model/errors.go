package model

// Error is an S3 error: its code, and for a request that hit a delete
// marker, the marker's version ID [ref §1.2: GET of a key under a marker is
// NoSuchKey with x-amz-delete-marker and the marker's x-amz-version-id; GET
// by a marker's ID is MethodNotAllowed with the same headers].
type Error struct {
	Code         string
	DeleteMarker bool
	VersionID    string // set only with DeleteMarker
	// Why says which rule refused the request; only the fields above are
	// what S3 answers.
	Why string
}

func (e *Error) Error() string {
	s := e.Code
	if e.DeleteMarker {
		s += " (delete marker " + e.VersionID + ")"
	}
	if e.Why != "" {
		s += ": " + e.Why
	}
	return s
}

func errorf(code, why string) error { return &Error{Code: code, Why: why} }

func invalidArgument(why string) error { return errorf("InvalidArgument", why) }

// Status is the HTTP status S3 answers an error code with [ref §4.2].
func Status(code string) int {
	switch code {
	case "NoSuchBucket", "NoSuchKey", "NoSuchVersion", "NoSuchUpload", "NoSuchLifecycleConfiguration", "NoSuchTagSet":
		return 404
	case "BucketAlreadyOwnedByYou", "BucketNotEmpty", "ConditionalRequestConflict":
		return 409
	case "PreconditionFailed":
		return 412
	case "MethodNotAllowed":
		return 405
	case "InvalidObjectState":
		return 403
	case "NotImplemented":
		return 501
	case "InternalError":
		return 500
	}
	return 400
}
