package web

import (
	"math"
	"net/http"
	"time"
)

// owner is the single account that owns everything in a MiniS3 store.
type owner struct {
	ID          string `xml:"ID"`
	DisplayName string `xml:"DisplayName"`
}

var theOwner = owner{ID: "minis3", DisplayName: "minis3"}

// clockTime turns clock seconds since the Unix epoch into a time.
func clockTime(sec float64) time.Time {
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(frac*1e9)).UTC()
}

// isoTime is the XML timestamp format of S3 listings, with milliseconds.
func isoTime(sec float64) string {
	return clockTime(sec).Format("2006-01-02T15:04:05.000Z")
}

// httpTime is the Last-Modified header format (whole seconds, GMT).
func httpTime(sec float64) string {
	return clockTime(sec).Format(http.TimeFormat)
}

// quoteETag is the ETag as S3 sends it: in double quotes.
func quoteETag(etag string) string { return `"` + etag + `"` }
