package web

import (
	"net/http"
	"net/url"
	"strings"

	"minis3/core"
)

// parseCopySource reads x-amz-copy-source: "[/]bucket/key[?versionId=id]",
// URL-encoded.
func parseCopySource(v string) (bucket, key, versionID string, err error) {
	path, query, _ := strings.Cut(v, "?")
	if path, err = url.PathUnescape(path); err != nil {
		return "", "", "", invalidArgument("x-amz-copy-source", v, "Invalid copy source encoding")
	}
	bucket, key, _ = strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if bucket == "" || key == "" {
		return "", "", "", invalidArgument("x-amz-copy-source", v, "Copy Source must mention the source bucket and key: sourcebucket/sourcekey")
	}
	if query != "" {
		q, perr := url.ParseQuery(query)
		if perr != nil {
			return "", "", "", invalidArgument("x-amz-copy-source", v, "Invalid copy source encoding")
		}
		if ids, ok := q["versionId"]; ok {
			if ids[0] == "" {
				return "", "", "", invalidArgument("x-amz-copy-source", v, "Version id cannot be the empty string")
			}
			versionID = ids[0]
		}
	}
	return bucket, key, versionID, nil
}

// copyObject is CopyObject (PUT with x-amz-copy-source): the source
// version's bytes become a new version of the target, with the source's
// metadata (x-amz-metadata-directive COPY, the default) or the request's
// (REPLACE), the source's tags or the request's (x-amz-tagging-directive),
// and the storage class the request names. Copying an older version over
// its own key restores it.
func (h *Handler) copyObject(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	for name := range r.Header {
		if strings.HasPrefix(strings.ToLower(name), "x-amz-copy-source-if-") {
			return notImplemented(name, "MiniS3 does not implement the %s header", name)
		}
	}
	if err := refuseUnsupportedWriteHeaders(r.Header); err != nil {
		return err
	}
	srcBucket, srcKey, srcVersion, err := parseCopySource(r.Header.Get("X-Amz-Copy-Source"))
	if err != nil {
		return err
	}
	directive := r.Header.Get("X-Amz-Metadata-Directive")
	if directive != "" && directive != "COPY" && directive != "REPLACE" {
		return invalidArgument("x-amz-metadata-directive", directive, "Unknown metadata directive.")
	}
	tagging := r.Header.Get("X-Amz-Tagging-Directive")
	if tagging != "" && tagging != "COPY" && tagging != "REPLACE" {
		return invalidArgument("x-amz-tagging-directive", tagging, "Unknown tagging directive.")
	}
	requested, err := writeMeta(r.Header)
	if err != nil {
		return err
	}
	if srcBucket == bucket && srcKey == key && srcVersion == "" && directive != "REPLACE" && requested.StorageClass == "" {
		return newS3Error(core.InvalidRequest, "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.")
	}
	src, err := h.store.GetObject(srcBucket, srcKey, core.GetOptions{VersionID: srcVersion})
	if err != nil {
		return err
	}
	// The copy has the source's metadata and tags unless the request
	// replaces them, and the storage class the request names (STANDARD
	// when it names none), as on S3.
	meta := src.Version.Meta
	if directive == "REPLACE" {
		meta = objectMeta(r.Header)
		meta.Tags = src.Version.Meta.Tags
	}
	if tagging == "REPLACE" {
		meta.Tags = requested.Tags
	}
	meta.StorageClass = requested.StorageClass
	res, err := h.store.PutObject(bucket, key, src.Body, core.PutOptions{Meta: meta})
	if err != nil {
		return err
	}
	putVersionHeader(w, res.VersionID)
	setExpirationHeader(w.Header(), res.Expiration)
	if src.Versioning != core.Unversioned {
		w.Header().Set("X-Amz-Copy-Source-Version-Id", src.Version.VersionID)
	}
	copyResultDocument(res.ETag, h.origin+res.CreatedAt).send(w, http.StatusOK)
	return nil
}

// copyResultDocument is CopyObject's CopyObjectResult: the new version's
// ETag and creation time (seconds since the Unix epoch).
func copyResultDocument(etag string, created float64) *xmlWriter {
	w := newXMLWriter("CopyObjectResult", 256)
	w.etag(etag)
	w.time("LastModified", created)
	return w
}
