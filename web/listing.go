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

// An element is one element of a listing's head: written when always is
// set or its value is not empty.
type element struct {
	name, value string
	always      bool
}

// A listingPage is what a listing answers beside the elements every
// listing has (Name, Prefix, EncodingType): its own head, in S3's order,
// its entries (how many, and the writer of their elements) and its common
// prefixes.
type listingPage struct {
	root     string
	head     []element
	entries  int
	write    func(w *xmlWriter)
	prefixes []string
}

// listing answers a listing of bucket the way all three do: its
// parameters read (listParams, then what list reads of q), the store asked
// by list, and the document: Name, Prefix, the listing's own head,
// EncodingType, the entries and the common prefixes.
func (h *Handler) listing(rw http.ResponseWriter, r *http.Request, bucket string, list func(q url.Values, p listParams) (listingPage, error)) error {
	q := r.URL.Query()
	p, err := h.parseListParams(q)
	if err != nil {
		return err
	}
	page, err := list(q, p)
	if err != nil {
		return err
	}
	w := newXMLWriter(page.root, listingSize(page.entries+len(page.prefixes)))
	w.text("Name", bucket)
	w.text("Prefix", p.enc(p.prefix))
	for _, e := range page.head {
		if e.always {
			w.text(e.name, e.value)
		} else {
			w.textIf(e.name, e.value)
		}
	}
	w.textIf("EncodingType", p.encodingType())
	page.write(w)
	p.writePrefixes(w, page.prefixes)
	w.send(rw, http.StatusOK)
	return nil
}

// count is n as an element's value.
func count(n int) string { return strconv.Itoa(n) }

// listObjectsV2 is ListObjectsV2 (?list-type=2).
func (h *Handler) listObjectsV2(rw http.ResponseWriter, r *http.Request, bucket string) error {
	if lt := r.URL.Query().Get("list-type"); lt != "2" {
		return invalidArgument("list-type", lt, "Invalid List Type specified in Request")
	}
	return h.listing(rw, r, bucket, func(q url.Values, p listParams) (listingPage, error) {
		token, hasToken := q["continuation-token"]
		if hasToken && token[0] == "" {
			return listingPage{}, invalidArgument("continuation-token", "", "The continuation token provided is incorrect")
		}
		opts := core.ListObjectsOptions{Prefix: p.prefix, Delimiter: p.delimiter, StartAfter: q.Get("start-after"), MaxKeys: max(p.maxKeys, 1)}
		if hasToken {
			opts.ContinuationToken = token[0]
		}
		res, err := h.store.ListObjectsV2(bucket, opts)
		if err != nil {
			return listingPage{}, err
		}
		if p.maxKeys == 0 {
			res = core.ListObjectsResult{}
		}
		startAfter := p.enc(opts.StartAfter)
		if hasToken {
			startAfter = ""
		}
		return listingPage{root: "ListBucketResult",
			head: []element{
				{"Delimiter", p.enc(p.delimiter), false},
				{"MaxKeys", count(p.maxKeys), true},
				{"KeyCount", count(res.KeyCount), true},
				{"IsTruncated", strconv.FormatBool(res.IsTruncated), true},
				{"ContinuationToken", opts.ContinuationToken, false},
				{"NextContinuationToken", res.NextContinuationToken, false},
				{"StartAfter", startAfter, false},
			},
			entries:  len(res.Objects),
			write:    func(w *xmlWriter) { p.writeObjects(w, res.Objects, q.Get("fetch-owner") == "true") },
			prefixes: res.CommonPrefixes,
		}, nil
	})
}

// listObjectsV1 is the original ListObjects (GET /bucket): marker, and
// NextMarker when the page is truncated and a delimiter was given (without
// one, clients continue from the last key, as on S3).
func (h *Handler) listObjectsV1(rw http.ResponseWriter, r *http.Request, bucket string) error {
	return h.listing(rw, r, bucket, func(q url.Values, p listParams) (listingPage, error) {
		marker := q.Get("marker")
		res, err := h.store.ListObjectsV2(bucket, core.ListObjectsOptions{Prefix: p.prefix, Delimiter: p.delimiter, StartAfter: marker, MaxKeys: max(p.maxKeys, 1)})
		if err != nil {
			return listingPage{}, err
		}
		if p.maxKeys == 0 {
			res = core.ListObjectsResult{}
		}
		next := ""
		if res.IsTruncated && p.delimiter != "" {
			if n := len(res.Objects); n > 0 {
				next = res.Objects[n-1].Key
			}
			if n := len(res.CommonPrefixes); n > 0 && res.CommonPrefixes[n-1] > next {
				next = res.CommonPrefixes[n-1]
			}
		}
		return listingPage{root: "ListBucketResult",
			head: []element{
				{"Marker", p.enc(marker), true},
				{"NextMarker", p.enc(next), false},
				{"MaxKeys", count(p.maxKeys), true},
				{"Delimiter", p.enc(p.delimiter), false},
				{"IsTruncated", strconv.FormatBool(res.IsTruncated), true},
			},
			entries:  len(res.Objects),
			write:    func(w *xmlWriter) { p.writeObjects(w, res.Objects, true) },
			prefixes: res.CommonPrefixes,
		}, nil
	})
}

// listObjectVersions is ListObjectVersions (?versions).
func (h *Handler) listObjectVersions(rw http.ResponseWriter, r *http.Request, bucket string) error {
	return h.listing(rw, r, bucket, func(q url.Values, p listParams) (listingPage, error) {
		vm, hasVM := q["version-id-marker"]
		if hasVM && vm[0] == "" {
			return listingPage{}, invalidArgument("version-id-marker", "", "A version-id marker cannot be empty.")
		}
		opts := core.ListVersionsOptions{Prefix: p.prefix, Delimiter: p.delimiter, KeyMarker: q.Get("key-marker"), MaxKeys: max(p.maxKeys, 1)}
		if hasVM {
			opts.VersionIDMarker = vm[0]
		}
		res, err := h.store.ListObjectVersions(bucket, opts)
		if err != nil {
			return listingPage{}, err
		}
		if p.maxKeys == 0 {
			res = core.ListVersionsResult{}
		}
		return listingPage{root: "ListVersionsResult",
			head: []element{
				{"KeyMarker", p.enc(opts.KeyMarker), true},
				{"VersionIdMarker", opts.VersionIDMarker, true},
				{"NextKeyMarker", p.enc(res.NextKeyMarker), false},
				{"NextVersionIdMarker", res.NextVersionIDMarker, false},
				{"MaxKeys", count(p.maxKeys), true},
				{"Delimiter", p.enc(p.delimiter), false},
				{"IsTruncated", strconv.FormatBool(res.IsTruncated), true},
			},
			entries:  len(res.Versions),
			write:    func(w *xmlWriter) { p.writeVersions(w, res.Versions) },
			prefixes: res.CommonPrefixes,
		}, nil
	})
}

// writeVersions writes the Version and DeleteMarker elements of
// ListObjectVersions.
func (p listParams) writeVersions(w *xmlWriter, versions []core.VersionEntry) {
	for _, v := range versions {
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
}
