package web

import (
	"encoding/xml"
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

func parseListParams(q url.Values) (listParams, error) {
	p := listParams{prefix: q.Get("prefix"), delimiter: q.Get("delimiter")}
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

type commonPrefixXML struct {
	Prefix string `xml:"Prefix"`
}

func (p listParams) prefixes(cps []string) []commonPrefixXML {
	out := make([]commonPrefixXML, len(cps))
	for i, cp := range cps {
		out[i] = commonPrefixXML{Prefix: p.enc(cp)}
	}
	return out
}

type objectXML struct {
	Key          string `xml:"Key"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag"`
	Size         int64  `xml:"Size"`
	Owner        *owner `xml:"Owner,omitempty"`
	StorageClass string `xml:"StorageClass"`
}

func (p listParams) objects(objs []core.ObjectEntry, withOwner bool) []objectXML {
	out := make([]objectXML, len(objs))
	for i, o := range objs {
		out[i] = objectXML{Key: p.enc(o.Key), LastModified: isoTime(o.CreatedAt), ETag: quoteETag(o.ETag), Size: o.Size, StorageClass: "STANDARD"}
		if withOwner {
			out[i].Owner = &theOwner
		}
	}
	return out
}

type listBucketV2Result struct {
	XMLName               xml.Name          `xml:"ListBucketResult"`
	NS                    string            `xml:"xmlns,attr"`
	Name                  string            `xml:"Name"`
	Prefix                string            `xml:"Prefix"`
	Delimiter             string            `xml:"Delimiter,omitempty"`
	MaxKeys               int               `xml:"MaxKeys"`
	KeyCount              int               `xml:"KeyCount"`
	IsTruncated           bool              `xml:"IsTruncated"`
	ContinuationToken     string            `xml:"ContinuationToken,omitempty"`
	NextContinuationToken string            `xml:"NextContinuationToken,omitempty"`
	StartAfter            string            `xml:"StartAfter,omitempty"`
	EncodingType          string            `xml:"EncodingType,omitempty"`
	Contents              []objectXML       `xml:"Contents"`
	CommonPrefixes        []commonPrefixXML `xml:"CommonPrefixes"`
}

// listObjectsV2 is ListObjectsV2 (?list-type=2).
func (h *Handler) listObjectsV2(w http.ResponseWriter, r *http.Request, bucket string) error {
	q := r.URL.Query()
	if lt := q.Get("list-type"); lt != "2" {
		return invalidArgument("list-type", lt, "Invalid List Type specified in Request")
	}
	p, err := parseListParams(q)
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
	out := listBucketV2Result{
		NS: xmlNS, Name: bucket, Prefix: p.enc(p.prefix), Delimiter: p.enc(p.delimiter),
		MaxKeys: p.maxKeys, KeyCount: res.KeyCount, IsTruncated: res.IsTruncated,
		ContinuationToken: opts.ContinuationToken, NextContinuationToken: res.NextContinuationToken,
		EncodingType:   p.encodingType(),
		Contents:       p.objects(res.Objects, q.Get("fetch-owner") == "true"),
		CommonPrefixes: p.prefixes(res.CommonPrefixes),
	}
	if !hasToken {
		out.StartAfter = p.enc(opts.StartAfter)
	}
	writeXML(w, http.StatusOK, out)
	return nil
}

type listBucketV1Result struct {
	XMLName        xml.Name          `xml:"ListBucketResult"`
	NS             string            `xml:"xmlns,attr"`
	Name           string            `xml:"Name"`
	Prefix         string            `xml:"Prefix"`
	Marker         string            `xml:"Marker"`
	NextMarker     string            `xml:"NextMarker,omitempty"`
	MaxKeys        int               `xml:"MaxKeys"`
	Delimiter      string            `xml:"Delimiter,omitempty"`
	IsTruncated    bool              `xml:"IsTruncated"`
	EncodingType   string            `xml:"EncodingType,omitempty"`
	Contents       []objectXML       `xml:"Contents"`
	CommonPrefixes []commonPrefixXML `xml:"CommonPrefixes"`
}

// listObjectsV1 is the original ListObjects (GET /bucket): marker, and
// NextMarker when the page is truncated and a delimiter was given (without
// one, clients continue from the last key, as on S3).
func (h *Handler) listObjectsV1(w http.ResponseWriter, r *http.Request, bucket string) error {
	q := r.URL.Query()
	p, err := parseListParams(q)
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
	out := listBucketV1Result{
		NS: xmlNS, Name: bucket, Prefix: p.enc(p.prefix), Marker: p.enc(marker), MaxKeys: p.maxKeys,
		Delimiter: p.enc(p.delimiter), IsTruncated: res.IsTruncated, EncodingType: p.encodingType(),
		Contents: p.objects(res.Objects, true), CommonPrefixes: p.prefixes(res.CommonPrefixes),
	}
	if res.IsTruncated && p.delimiter != "" {
		last := ""
		if n := len(res.Objects); n > 0 {
			last = res.Objects[n-1].Key
		}
		if n := len(res.CommonPrefixes); n > 0 && res.CommonPrefixes[n-1] > last {
			last = res.CommonPrefixes[n-1]
		}
		out.NextMarker = p.enc(last)
	}
	writeXML(w, http.StatusOK, out)
	return nil
}

type listVersionsResult struct {
	XMLName             xml.Name          `xml:"ListVersionsResult"`
	NS                  string            `xml:"xmlns,attr"`
	Name                string            `xml:"Name"`
	Prefix              string            `xml:"Prefix"`
	KeyMarker           string            `xml:"KeyMarker"`
	VersionIDMarker     string            `xml:"VersionIdMarker"`
	NextKeyMarker       string            `xml:"NextKeyMarker,omitempty"`
	NextVersionIDMarker string            `xml:"NextVersionIdMarker,omitempty"`
	MaxKeys             int               `xml:"MaxKeys"`
	Delimiter           string            `xml:"Delimiter,omitempty"`
	IsTruncated         bool              `xml:"IsTruncated"`
	EncodingType        string            `xml:"EncodingType,omitempty"`
	Entries             []any             // versionXML and deleteMarkerXML, in listing order
	CommonPrefixes      []commonPrefixXML `xml:"CommonPrefixes"`
}

type versionXML struct {
	XMLName      xml.Name `xml:"Version"`
	Key          string   `xml:"Key"`
	VersionID    string   `xml:"VersionId"`
	IsLatest     bool     `xml:"IsLatest"`
	LastModified string   `xml:"LastModified"`
	ETag         string   `xml:"ETag"`
	Size         int64    `xml:"Size"`
	StorageClass string   `xml:"StorageClass"`
	Owner        owner    `xml:"Owner"`
}

type deleteMarkerXML struct {
	XMLName      xml.Name `xml:"DeleteMarker"`
	Key          string   `xml:"Key"`
	VersionID    string   `xml:"VersionId"`
	IsLatest     bool     `xml:"IsLatest"`
	LastModified string   `xml:"LastModified"`
	Owner        owner    `xml:"Owner"`
}

// listObjectVersions is ListObjectVersions (?versions).
func (h *Handler) listObjectVersions(w http.ResponseWriter, r *http.Request, bucket string) error {
	q := r.URL.Query()
	p, err := parseListParams(q)
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
	out := listVersionsResult{
		NS: xmlNS, Name: bucket, Prefix: p.enc(p.prefix), KeyMarker: p.enc(opts.KeyMarker), VersionIDMarker: opts.VersionIDMarker,
		NextKeyMarker: p.enc(res.NextKeyMarker), NextVersionIDMarker: res.NextVersionIDMarker,
		MaxKeys: p.maxKeys, Delimiter: p.enc(p.delimiter), IsTruncated: res.IsTruncated, EncodingType: p.encodingType(),
		CommonPrefixes: p.prefixes(res.CommonPrefixes),
	}
	for _, v := range res.Versions {
		if v.IsDeleteMarker {
			out.Entries = append(out.Entries, deleteMarkerXML{Key: p.enc(v.Key), VersionID: v.VersionID, IsLatest: v.IsLatest, LastModified: isoTime(v.CreatedAt), Owner: theOwner})
			continue
		}
		out.Entries = append(out.Entries, versionXML{Key: p.enc(v.Key), VersionID: v.VersionID, IsLatest: v.IsLatest,
			LastModified: isoTime(v.CreatedAt), ETag: quoteETag(v.ETag), Size: v.Size, StorageClass: "STANDARD", Owner: theOwner})
	}
	writeXML(w, http.StatusOK, out)
	return nil
}
