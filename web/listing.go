package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"minis3/core"
)

// maxListKeys is S3's cap on max-keys (and max-uploads, max-parts).
const maxListKeys = 1000

// listParams are the parameters shared by the object listings.
type listParams struct {
	prefix, delimiter string
	maxKeys           int
	urlEncode         bool
	origin            float64 // the Unix time of the clock's 0
}

// parseMaxParam reads an integer page-size parameter: absent means 1000,
// larger values are capped at 1000, a non-integer or negative value is
// InvalidArgument.
func parseMaxParam(q url.Values, name string) (int, error) {
	v, ok := q[name]
	if !ok {
		return maxListKeys, nil
	}
	n, err := strconv.Atoi(v[0])
	if err != nil {
		return 0, invalidArgument(name, v[0], "Provided %s not an integer or within integer range", name)
	}
	if n < 0 {
		return 0, invalidArgument(name, v[0], "Argument %s must be an integer between 0 and 2147483647", name)
	}
	return min(n, maxListKeys), nil
}

func (h *Handler) parseListParams(q url.Values) (listParams, error) {
	p := listParams{prefix: q.Get("prefix"), delimiter: q.Get("delimiter"), origin: h.origin}
	var err error
	if p.maxKeys, err = parseMaxParam(q, "max-keys"); err != nil {
		return p, err
	}
	if v, ok := q["encoding-type"]; ok {
		if v[0] != "url" {
			return p, invalidArgument("encoding-type", v[0], "Invalid Encoding Method specified in Request")
		}
		p.urlEncode = true
	}
	return p, nil
}

// enc encodes a key-like value for the response: as given, or URL-encoded
// when the request said encoding-type=url.
func (p listParams) enc(s string) string {
	if !p.urlEncode {
		return s
	}
	return s3URLEncode(s)
}

func (p listParams) encodingType() string {
	if p.urlEncode {
		return "url"
	}
	return ""
}

// s3URLEncode is S3's encoding-type=url: query escaping, except that '/'
// is kept and a space becomes '+'.
func s3URLEncode(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "%2F", "/")
}

// listingSize guesses a listing document's length from its entry count.
func listingSize(entries int) int { return 512 + 330*entries }

// writeObjects writes the Contents elements of ListObjects and
// ListObjectsV2.
func (p listParams) writeObjects(w *xmlWriter, objs []core.ObjectEntry, withOwner bool) {
	for _, o := range objs {
		w.open("Contents")
		w.text("Key", p.enc(o.Key))
		w.time("LastModified", p.origin+o.CreatedAt)
		w.etag(o.ETag)
		w.int("Size", o.Size)
		if withOwner {
			w.owner("Owner")
		}
		w.text("StorageClass", storageClass(o.StorageClass))
		w.close("Contents")
	}
}

// writePrefixes writes the CommonPrefixes elements of a listing.
func (p listParams) writePrefixes(w *xmlWriter, cps []string) {
	for _, cp := range cps {
		w.open("CommonPrefixes")
		w.text("Prefix", p.enc(cp))
		w.close("CommonPrefixes")
	}
}

// listObjectsV2 is ListObjectsV2 (?list-type=2).
func (h *Handler) listObjectsV2(rw http.ResponseWriter, r *http.Request, bucket string) error {
	q := r.URL.Query()
	if lt := q.Get("list-type"); lt != "2" {
		return invalidArgument("list-type", lt, "Invalid List Type specified in Request")
	}
	p, err := h.parseListParams(q)
	if err != nil {
		return err
	}
	token, hasToken := q["continuation-token"]
	if hasToken && token[0] == "" {
		return invalidArgument("continuation-token", "", "The continuation token provided is incorrect")
	}
	opts := core.ListObjectsOptions{Prefix: p.prefix, Delimiter: p.delimiter, StartAfter: q.Get("start-after"), MaxKeys: max(p.maxKeys, 1)}
	if hasToken {
		opts.ContinuationToken = token[0]
	}
	res, err := h.store.ListObjectsV2(bucket, opts)
	if err != nil {
		return err
	}
	if p.maxKeys == 0 {
		res = core.ListObjectsResult{}
	}
	w := newXMLWriter("ListBucketResult", listingSize(len(res.Objects)+len(res.CommonPrefixes)))
	w.text("Name", bucket)
	w.text("Prefix", p.enc(p.prefix))
	w.textIf("Delimiter", p.enc(p.delimiter))
	w.int("MaxKeys", int64(p.maxKeys))
	w.int("KeyCount", int64(res.KeyCount))
	w.bool("IsTruncated", res.IsTruncated)
	w.textIf("ContinuationToken", opts.ContinuationToken)
	w.textIf("NextContinuationToken", res.NextContinuationToken)
	if !hasToken {
		w.textIf("StartAfter", p.enc(opts.StartAfter))
	}
	w.textIf("EncodingType", p.encodingType())
	p.writeObjects(w, res.Objects, q.Get("fetch-owner") == "true")
	p.writePrefixes(w, res.CommonPrefixes)
	w.send(rw, http.StatusOK)
	return nil
}

// listObjectsV1 is the original ListObjects (GET /bucket): marker, and
// NextMarker when the page is truncated and a delimiter was given (without
// one, clients continue from the last key, as on S3).
func (h *Handler) listObjectsV1(rw http.ResponseWriter, r *http.Request, bucket string) error {
	q := r.URL.Query()
	p, err := h.parseListParams(q)
	if err != nil {
		return err
	}
	marker := q.Get("marker")
	res, err := h.store.ListObjectsV2(bucket, core.ListObjectsOptions{Prefix: p.prefix, Delimiter: p.delimiter, StartAfter: marker, MaxKeys: max(p.maxKeys, 1)})
	if err != nil {
		return err
	}
	if p.maxKeys == 0 {
		res = core.ListObjectsResult{}
	}
	w := newXMLWriter("ListBucketResult", listingSize(len(res.Objects)+len(res.CommonPrefixes)))
	w.text("Name", bucket)
	w.text("Prefix", p.enc(p.prefix))
	w.text("Marker", p.enc(marker))
	if res.IsTruncated && p.delimiter != "" {
		last := ""
		if n := len(res.Objects); n > 0 {
			last = res.Objects[n-1].Key
		}
		if n := len(res.CommonPrefixes); n > 0 && res.CommonPrefixes[n-1] > last {
			last = res.CommonPrefixes[n-1]
		}
		w.textIf("NextMarker", p.enc(last))
	}
	w.int("MaxKeys", int64(p.maxKeys))
	w.textIf("Delimiter", p.enc(p.delimiter))
	w.bool("IsTruncated", res.IsTruncated)
	w.textIf("EncodingType", p.encodingType())
	p.writeObjects(w, res.Objects, true)
	p.writePrefixes(w, res.CommonPrefixes)
	w.send(rw, http.StatusOK)
	return nil
}

// listObjectVersions is ListObjectVersions (?versions).
func (h *Handler) listObjectVersions(rw http.ResponseWriter, r *http.Request, bucket string) error {
	q := r.URL.Query()
	p, err := h.parseListParams(q)
	if err != nil {
		return err
	}
	vm, hasVM := q["version-id-marker"]
	if hasVM && vm[0] == "" {
		return invalidArgument("version-id-marker", "", "A version-id marker cannot be empty.")
	}
	opts := core.ListVersionsOptions{Prefix: p.prefix, Delimiter: p.delimiter, KeyMarker: q.Get("key-marker"), MaxKeys: max(p.maxKeys, 1)}
	if hasVM {
		opts.VersionIDMarker = vm[0]
	}
	res, err := h.store.ListObjectVersions(bucket, opts)
	if err != nil {
		return err
	}
	if p.maxKeys == 0 {
		res = core.ListVersionsResult{}
	}
	w := newXMLWriter("ListVersionsResult", listingSize(len(res.Versions)+len(res.CommonPrefixes)))
	w.text("Name", bucket)
	w.text("Prefix", p.enc(p.prefix))
	w.text("KeyMarker", p.enc(opts.KeyMarker))
	w.text("VersionIdMarker", opts.VersionIDMarker)
	w.textIf("NextKeyMarker", p.enc(res.NextKeyMarker))
	w.textIf("NextVersionIdMarker", res.NextVersionIDMarker)
	w.int("MaxKeys", int64(p.maxKeys))
	w.textIf("Delimiter", p.enc(p.delimiter))
	w.bool("IsTruncated", res.IsTruncated)
	w.textIf("EncodingType", p.encodingType())
	for _, v := range res.Versions {
		elem := "Version"
		if v.IsDeleteMarker {
			elem = "DeleteMarker"
		}
		w.open(elem)
		w.text("Key", p.enc(v.Key))
		w.text("VersionId", v.VersionID)
		w.bool("IsLatest", v.IsLatest)
		w.time("LastModified", p.origin+v.CreatedAt)
		if !v.IsDeleteMarker {
			w.etag(v.ETag)
			w.int("Size", v.Size)
			w.text("StorageClass", storageClass(v.StorageClass))
		}
		w.owner("Owner")
		w.close(elem)
	}
	p.writePrefixes(w, res.CommonPrefixes)
	w.send(rw, http.StatusOK)
	return nil
}
