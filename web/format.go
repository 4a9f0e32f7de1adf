package web

import (
	"math"
	"net/http"
	"net/url"
	"time"

	"minis3/core"
)

// ownerID is the ID of the single account that owns everything in a MiniS3
// store. Owner elements carry the ID only: S3 stopped sending
// Owner.DisplayName in every response on 2025-11-21.
const ownerID = "minis3"

// clockTime turns seconds since the Unix epoch into a time, to the nearest
// microsecond, which is what a float64 holds exactly for the times of our
// era: truncating would show 9.501 as 9.500.
func clockTime(sec float64) time.Time {
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(math.Round(frac*1e6))*1000).UTC()
}

// isoTimeLayout is the XML timestamp format of S3 listings, with
// milliseconds.
const isoTimeLayout = "2006-01-02T15:04:05.000Z"

// httpTime is the Last-Modified header format (whole seconds, GMT).
func httpTime(sec float64) string {
	return clockTime(sec).Format(http.TimeFormat)
}

// quoteETag is the ETag as S3 sends it: in double quotes.
func quoteETag(etag string) string { return `"` + etag + `"` }

// storageClass is the name of a version's storage class: "" is STANDARD.
func storageClass(class string) string {
	if class == "" {
		return "STANDARD"
	}
	return class
}

// setExpirationHeader sets x-amz-expiration when S3's lifecycle will
// expire the version [ref §5.8]: expiry-date="<HTTP date>",
// rule-id="<URL-encoded ID>".
func setExpirationHeader(hdr http.Header, e *core.Expiry) {
	if e != nil {
		hdr.Set("X-Amz-Expiration", `expiry-date="`+httpTime(e.Date)+`", rule-id="`+url.QueryEscape(e.RuleID)+`"`)
	}
}

// setAbortHeaders sets x-amz-abort-date and x-amz-abort-rule-id when S3's
// lifecycle will abort the upload.
func setAbortHeaders(hdr http.Header, e *core.Expiry) {
	if e != nil {
		hdr.Set("X-Amz-Abort-Date", httpTime(e.Date))
		hdr.Set("X-Amz-Abort-Rule-Id", e.RuleID)
	}
}
