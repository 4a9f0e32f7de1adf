package sigv4

import (
	"fmt"

	"minis3/core"
)

// An Error is a refused request: S3's code and message, and the other
// elements S3 puts in its error document for it (empty when it has none).
type Error struct {
	Code                                            core.Code
	Message, Region                                 string
	AWSAccessKeyID, StringToSign, SignatureProvided string
	StringToSignBytes                               string
	CanonicalRequest, CanonicalRequestBytes         string
	RequestTime, ServerTime                         string
	MaxAllowedSkewMilliseconds                      string
	XAmzExpires, Expires, HeadersNotSigned          string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// newError is the Error of code, with the message of format, or the
// code's usual message for "".
func newError(code core.Code, format string, args ...any) *Error {
	msg := core.DefaultMessage(code)
	if format != "" {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Code: code, Message: msg}
}
