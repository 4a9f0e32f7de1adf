package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
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
// its own key restores it. The x-amz-copy-source-if-* headers are
// conditions on the source, If-None-Match and If-Match on the target.
func (h *Handler) copyObject(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	if err := refuseUnsupportedWriteHeaders(r.Header); err != nil {
		return err
	}
	cond, err := writeConditions(r.Header)
	if err != nil {
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
	src, err := h.readCopySource(r.Header, srcBucket, srcKey, srcVersion)
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
	res, err := h.store.PutObject(bucket, key, src.Body, core.PutOptions{Meta: meta, WriteConditions: cond})
	if err != nil {
		return err
	}
	putVersionHeader(w, res.VersionID)
	setEncryptionHeader(w.Header())
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

// readCopySource reads the source version of CopyObject or UploadPartCopy
// and applies the request's x-amz-copy-source-if-* conditions to it. As on
// S3, naming a delete marker by its version ID is InvalidRequest (a copy
// does not answer MethodNotAllowed), and an archived source
// (InvalidObjectState) cannot be copied.
func (h *Handler) readCopySource(hdr http.Header, bucket, key, versionID string) (*core.Object, error) {
	src, err := h.store.GetObject(bucket, key, core.GetOptions{VersionID: versionID})
	var e *core.Error
	switch {
	case errors.As(err, &e) && e.Code == core.MethodNotAllowed:
		return nil, newS3Error(core.InvalidRequest, "The source of a copy request may not specifically refer to a delete marker by version id.")
	case errors.As(err, &e) && e.ArgumentName == "versionId":
		return nil, invalidArgument("x-amz-copy-source", e.ArgumentValue, "%s", e.Message)
	case err != nil:
		return nil, err
	}
	if err := checkCopySourceConditions(hdr, src.Version, h.origin); err != nil {
		return nil, err
	}
	return src, nil
}

// uploadPartCopy is UploadPartCopy (PUT ?partNumber=N&uploadId=U with
// x-amz-copy-source): part N of the upload becomes the bytes of the source
// version, or of the range of them x-amz-copy-source-range names, with
// UploadPart's checks and size limit. The target bucket is looked up
// first, as in every request; then the source is read.
func (h *Handler) uploadPartCopy(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	uploadID, n, err := uploadPartParams(r.URL.Query())
	if err != nil {
		return err
	}
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	srcBucket, srcKey, srcVersion, err := parseCopySource(r.Header.Get("X-Amz-Copy-Source"))
	if err != nil {
		return err
	}
	src, err := h.readCopySource(r.Header, srcBucket, srcKey, srcVersion)
	if err != nil {
		return err
	}
	start, end, err := copySourceRange(get(r.Header, "X-Amz-Copy-Source-Range"), src.Version.Size)
	if err != nil {
		return err
	}
	if end-start > h.opts.MaxObjectSize {
		return entityTooLarge(end-start, h.opts.MaxObjectSize)
	}
	info, err := h.store.UploadPart(bucket, key, uploadID, n, src.Body[start:end])
	if err != nil {
		return err
	}
	if src.Versioning != core.Unversioned {
		w.Header().Set("X-Amz-Copy-Source-Version-Id", src.Version.VersionID)
	}
	setEncryptionHeader(w.Header())
	copyPartDocument(info.ETag, h.origin+info.CreatedAt).send(w, http.StatusOK)
	return nil
}

// copySourceRange applies x-amz-copy-source-range to a source of size
// bytes and returns the half-open interval to copy: the whole source when
// the header is absent. As S3 answers: anything but "bytes=first-last"
// with first <= last is InvalidArgument, a range that starts past the
// source InvalidRequest, one that ends past it InvalidArgument.
func copySourceRange(header string, size int64) (start, end int64, err error) {
	if header == "" {
		return 0, size, nil
	}
	malformed := invalidArgument("x-amz-copy-source-range", header,
		"The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy")
	spec, ok := strings.CutPrefix(header, "bytes=")
	first, last, found := strings.Cut(spec, "-")
	if !ok || !found {
		return 0, 0, malformed
	}
	a, errA := strconv.ParseUint(first, 10, 63)
	b, errB := strconv.ParseUint(last, 10, 63)
	if errA != nil || errB != nil || a > b {
		return 0, 0, malformed
	}
	switch {
	case int64(a) >= size:
		return 0, 0, newS3Error(core.InvalidRequest, "The specified copy range is invalid for the source object size")
	case int64(b) >= size:
		return 0, 0, invalidArgument("x-amz-copy-source-range", header, "Range specified is not valid for source object of size: %d", size)
	}
	return int64(a), int64(b) + 1, nil
}

// copyPartDocument is UploadPartCopy's CopyPartResult: the part's creation
// time (seconds since the Unix epoch) and ETag, in the order S3 writes
// them.
func copyPartDocument(etag string, created float64) *xmlWriter {
	w := newXMLWriter("CopyPartResult", 256)
	w.time("LastModified", created)
	w.etag(etag)
	return w
}
