package web

import (
	"math"
	"net/http"
	"time"
)

// ownerID is the ID of the single account that owns everything in a MiniS3
// store. Owner elements carry the ID only: S3 stopped sending
// Owner.DisplayName in every response on 2025-11-21.
const ownerID = "minis3"

// clockTime turns clock seconds since the Unix epoch into a time, to the
// nearest nanosecond: truncating would show 9.501 as 9.500.
func clockTime(sec float64) time.Time {
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(math.Round(frac*1e9))).UTC()
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
