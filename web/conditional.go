package web

import (
	"net/http"
	"strings"
	"time"

	"minis3/core"
)

// notModified is not an error to report: it makes getObject answer 304.
type notModified struct{}

func (notModified) Error() string { return "not modified" }

// conditionHeaders are the names of the four headers that make a read
// conditional on the version read: a GET's or HEAD's own, or a copy's on
// its source.
type conditionHeaders struct {
	match, unmodifiedSince, noneMatch, modifiedSince string
}

var (
	readConditions       = conditionHeaders{"If-Match", "If-Unmodified-Since", "If-None-Match", "If-Modified-Since"}
	copySourceConditions = conditionHeaders{"x-amz-copy-source-If-Match", "x-amz-copy-source-If-Unmodified-Since",
		"x-amz-copy-source-If-None-Match", "x-amz-copy-source-If-Modified-Since"}
)

// failed applies the headers of hdr named by c to a version with the given
// ETag and creation time, as S3 does (RFC 9110 precedence): an If-Match
// present decides instead of If-Unmodified-Since, an If-None-Match present
// instead of If-Modified-Since. It returns the name of the header that
// failed, or "" when all hold; unmodified is true when it is If-None-Match
// or If-Modified-Since, which a GET answers with 304 Not Modified.
func (c conditionHeaders) failed(hdr http.Header, etag string, created float64) (header string, unmodified bool) {
	modified := clockTime(created).Truncate(time.Second)
	if v := hdr.Get(c.match); v != "" {
		if !etagListMatches(v, etag) {
			return c.match, false
		}
	} else if v := hdr.Get(c.unmodifiedSince); v != "" {
		if t, err := http.ParseTime(v); err == nil && modified.After(t) {
			return c.unmodifiedSince, false
		}
	}
	if v := hdr.Get(c.noneMatch); v != "" {
		if etagListMatches(v, etag) {
			return c.noneMatch, true
		}
	} else if v := hdr.Get(c.modifiedSince); v != "" {
		if t, err := http.ParseTime(v); err == nil && !modified.After(t) {
			return c.modifiedSince, true
		}
	}
	return "", false
}

func preconditionFailed(header string) *s3Error {
	e := newS3Error(core.PreconditionFailed, "")
	e.Condition = header
	return e
}

// checkConditions applies a GET or HEAD's If-Match, If-Unmodified-Since,
// If-None-Match and If-Modified-Since to a version with the given ETag and
// creation time: a failed If-Match or If-Unmodified-Since is
// PreconditionFailed, a matching If-None-Match or an unmodified
// If-Modified-Since is 304 Not Modified.
func checkConditions(hdr http.Header, etag string, created float64) error {
	switch header, unmodified := readConditions.failed(hdr, etag, created); {
	case header == "":
		return nil
	case unmodified:
		return notModified{}
	default:
		return preconditionFailed(header)
	}
}

// checkCopySourceConditions applies a copy's x-amz-copy-source-if-match,
// -if-unmodified-since, -if-none-match and -if-modified-since to its
// source version: any that fails is PreconditionFailed (a copy has no 304).
func checkCopySourceConditions(hdr http.Header, src *core.Version, origin float64) error {
	if header, _ := copySourceConditions.failed(hdr, src.ETag, origin+src.CreatedAt); header != "" {
		return preconditionFailed(header)
	}
	return nil
}

// etagListMatches reports whether a conditional header's list of ETags
// (quoted or not, possibly weak) or "*" names etag.
func etagListMatches(list, etag string) bool {
	for _, candidate := range strings.Split(list, ",") {
		candidate = strings.TrimPrefix(strings.TrimSpace(candidate), "W/")
		if candidate == "*" || strings.Trim(candidate, `"`) == etag {
			return true
		}
	}
	return false
}

// writeConditions reads the If-None-Match and If-Match of a PutObject,
// CopyObject (for its destination) or CompleteMultipartUpload, which the
// store checks atomically with the write. As on S3, If-None-Match takes
// only "*", If-Match only an ETag, and not both at once: anything else is
// NotImplemented.
func writeConditions(hdr http.Header) (core.WriteConditions, error) {
	noneMatch, match := get(hdr, "If-None-Match"), get(hdr, "If-Match")
	switch {
	case noneMatch != "" && match != "":
		return core.WriteConditions{}, notImplemented("If-Match,If-None-Match", "")
	case noneMatch != "" && noneMatch != "*":
		return core.WriteConditions{}, notImplemented("If-None-Match", "")
	case match == "*":
		return core.WriteConditions{}, notImplemented("If-Match", "")
	}
	return core.WriteConditions{IfNoneMatch: noneMatch == "*", IfMatch: match}, nil
}
