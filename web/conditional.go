package web

import (
	"net/http"
	"strings"
	"time"
)

// notModified is not an error to report: it makes getObject answer 304.
type notModified struct{}

func (notModified) Error() string { return "not modified" }

// checkConditions applies a GET or HEAD's If-Match, If-Unmodified-Since,
// If-None-Match and If-Modified-Since to a version with the given ETag and
// creation time, as S3 does (RFC 9110 precedence): a failed If-Match or
// If-Unmodified-Since is PreconditionFailed, a matching If-None-Match or an
// unmodified If-Modified-Since is 304 Not Modified.
func checkConditions(hdr http.Header, etag string, created float64) error {
	modified := clockTime(created).Truncate(time.Second)
	failed := func(condition string) error {
		e := newS3Error(codePreconditionFailed, "At least one of the pre-conditions you specified did not hold")
		e.Condition = condition
		return e
	}
	if v := hdr.Get("If-Match"); v != "" {
		if !etagListMatches(v, etag) {
			return failed("If-Match")
		}
	} else if v := hdr.Get("If-Unmodified-Since"); v != "" {
		if t, err := http.ParseTime(v); err == nil && modified.After(t) {
			return failed("If-Unmodified-Since")
		}
	}
	if v := hdr.Get("If-None-Match"); v != "" {
		if etagListMatches(v, etag) {
			return notModified{}
		}
	} else if v := hdr.Get("If-Modified-Since"); v != "" {
		if t, err := http.ParseTime(v); err == nil && !modified.After(t) {
			return notModified{}
		}
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
