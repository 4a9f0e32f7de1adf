package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"minis3/core"
)

const userMetaPrefix = "X-Amz-Meta-"

// objectMeta is what a PUT or CreateMultipartUpload asks to store with the
// object: the content headers and the x-amz-meta-* user metadata (names
// lower-case, without the prefix).
func objectMeta(hdr http.Header) core.ObjectMeta {
	m := core.ObjectMeta{
		ContentType:        get(hdr, "Content-Type"),
		ContentDisposition: get(hdr, "Content-Disposition"),
		ContentEncoding:    storedContentEncoding(get(hdr, "Content-Encoding")),
		CacheControl:       get(hdr, "Cache-Control"),
		ContentLanguage:    get(hdr, "Content-Language"),
		Expires:            get(hdr, "Expires"),
	}
	for name, values := range hdr {
		if strings.HasPrefix(name, userMetaPrefix) && len(name) > len(userMetaPrefix) {
			if m.User == nil {
				m.User = make(map[string]string)
			}
			m.User[strings.ToLower(name[len(userMetaPrefix):])] = strings.Join(values, ",")
		}
	}
	return m
}

// unsupportedWriteHeaders are the headers refuseUnsupportedWriteHeaders
// refuses whatever their value: key in canonical form, name as errors
// show it.
var unsupportedWriteHeaders = []struct{ key, name string }{
	{"X-Amz-Object-Lock-Mode", "x-amz-object-lock-mode"},
	{"X-Amz-Object-Lock-Retain-Until-Date", "x-amz-object-lock-retain-until-date"},
	{"X-Amz-Object-Lock-Legal-Hold", "x-amz-object-lock-legal-hold"},
	{"X-Amz-Website-Redirect-Location", "x-amz-website-redirect-location"},
	{"X-Amz-Server-Side-Encryption-Customer-Algorithm", "x-amz-server-side-encryption-customer-algorithm"},
}

// refuseUnsupportedWriteHeaders turns away write headers whose meaning
// MiniS3 would otherwise silently drop: object lock, encryption with keys
// (SSE-KMS, SSE-C), and ACLs other than private. SSE-S3 (AES256) is
// accepted: it changes nothing a client can observe.
func refuseUnsupportedWriteHeaders(hdr http.Header) error {
	for _, h := range unsupportedWriteHeaders {
		if get(hdr, h.key) != "" {
			return notImplemented(h.name, "MiniS3 does not implement the %s header", h.name)
		}
	}
	if err := refuseACLHeaders(hdr); err != nil {
		return err
	}
	if v := get(hdr, "X-Amz-Server-Side-Encryption"); v != "" && v != "AES256" {
		return notImplemented("x-amz-server-side-encryption", "MiniS3 does not implement server-side encryption %s", v)
	}
	return nil
}

// refuseACLHeaders turns away ACLs: MiniS3 has one owner and everything is
// private, so only the canned ACL "private" means what it says.
func refuseACLHeaders(hdr http.Header) error {
	if v := get(hdr, "X-Amz-Acl"); v != "" && v != "private" {
		return notImplemented("x-amz-acl", "MiniS3 does not implement ACLs; everything is private to its one owner, not %s", v)
	}
	for name := range hdr {
		if len(name) >= len("x-amz-grant-") && strings.EqualFold(name[:len("x-amz-grant-")], "x-amz-grant-") {
			return notImplemented(name, "MiniS3 does not implement ACLs (%s)", name)
		}
	}
	return nil
}

// putVersionHeader sets x-amz-version-id as S3 does after a write: only
// for a real version ID, never for "null" (unversioned or suspended).
func putVersionHeader(w http.ResponseWriter, id string) {
	if id != "" && id != core.NullVersionID {
		w.Header().Set("X-Amz-Version-Id", id)
	}
}

func (h *Handler) putObject(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	if err := refuseUnsupportedWriteHeaders(r.Header); err != nil {
		return err
	}
	cond, err := writeConditions(r.Header)
	if err != nil {
		return err
	}
	body, sums, err := readObjectPayload(r, h.opts.MaxObjectSize, entityTooLarge)
	if err != nil {
		return err
	}
	meta, err := writeMeta(r.Header)
	if err != nil {
		return err
	}
	res, err := h.store.PutObject(bucket, key, body, core.PutOptions{Meta: meta, WriteConditions: cond})
	if err != nil {
		return err
	}
	w.Header().Set("Etag", quoteETag(res.ETag))
	putVersionHeader(w, res.VersionID)
	setEncryptionHeader(w.Header())
	setExpirationHeader(w.Header(), res.Expiration)
	// The checksums of the request, as S3 answers them: a PUT's is of the
	// whole object.
	echoChecksums(w, sums)
	if len(sums) > 0 {
		w.Header().Set("X-Amz-Checksum-Type", "FULL_OBJECT")
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// versionIDParam is the versionId query parameter; present but empty is an
// error, as on S3.
func versionIDParam(q url.Values) (string, error) {
	v, ok := q["versionId"]
	if !ok {
		return "", nil
	}
	if v[0] == "" {
		return "", invalidArgument("versionId", "", "Version id cannot be the empty string")
	}
	return v[0], nil
}

// responseOverrides are GetObject's response-* parameters and the headers
// they replace.
var responseOverrides = [][2]string{
	{"response-content-type", "Content-Type"},
	{"response-content-language", "Content-Language"},
	{"response-expires", "Expires"},
	{"response-cache-control", "Cache-Control"},
	{"response-content-disposition", "Content-Disposition"},
	{"response-content-encoding", "Content-Encoding"},
}

// getObject is GetObject (withBody) and HeadObject, with versionId, Range
// or partNumber (one part, and x-amz-mp-parts-count for a multipart
// object), the conditional headers and the response-* overrides. A
// whole-object GET that asks for checksums (x-amz-checksum-mode: ENABLED,
// as SDKs do by default) gets the body's CRC32, so the client can check
// what it received.
func (h *Handler) getObject(w http.ResponseWriter, r *http.Request, bucket, key string, withBody bool) error {
	q := r.URL.Query()
	vid, err := versionIDParam(q)
	if err != nil {
		return err
	}
	opts := core.GetOptions{VersionID: vid}
	var obj *core.Object
	if withBody {
		obj, err = h.store.GetObject(bucket, key, opts)
	} else {
		obj, err = h.store.HeadObject(bucket, key, opts)
	}
	if err != nil {
		return err
	}
	part := 0 // the part asked for, 0 for none
	if n, ok := q["partNumber"]; ok {
		if part, err = partNumberParam(n[0]); err != nil {
			return err
		}
	}
	v := obj.Version
	hdr := w.Header()
	if err := checkConditions(r.Header, v.ETag, h.origin+v.CreatedAt); err != nil {
		if _, ok := err.(notModified); !ok {
			return err
		}
		h.setVersionHeaders(hdr, obj)
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	var start, end int64
	var partial bool
	if part == 0 {
		start, end, partial, err = parseRange(r.Header.Get("Range"), v.Size)
	} else {
		start, end, partial, err = partBytes(v, part, r.Header)
	}
	if err != nil {
		return err
	}
	h.setVersionHeaders(hdr, obj)
	if part != 0 && v.Parts > 0 {
		hdr.Set("X-Amz-Mp-Parts-Count", strconv.Itoa(v.Parts))
	}
	setContentHeaders(hdr, v.Meta, q)
	hdr.Set("Accept-Ranges", "bytes")
	status := http.StatusOK
	if partial {
		status = http.StatusPartialContent
		hdr.Set("Content-Range", "bytes "+itoa(start)+"-"+itoa(end-1)+"/"+itoa(v.Size))
	}
	if withBody && !partial && strings.EqualFold(get(r.Header, "X-Amz-Checksum-Mode"), "ENABLED") {
		hdr.Set("X-Amz-Checksum-Crc32", crc32Base64(obj.Body))
		hdr.Set("X-Amz-Checksum-Type", "FULL_OBJECT")
	}
	hdr.Set("Content-Length", itoa(end-start))
	w.WriteHeader(status)
	if withBody {
		_, _ = w.Write(obj.Body[start:end])
	}
	return nil
}

// partBytes is the half-open byte interval of part n of v, as a GET or
// HEAD with partNumber=n reads it: a partial answer unless it is empty. A
// version written in one piece has one part. A part the version does not
// have is InvalidPartNumber, a Range header too is InvalidRequest.
func partBytes(v *core.Version, n int, hdr http.Header) (start, end int64, partial bool, err error) {
	if get(hdr, "Range") != "" {
		return 0, 0, false, newS3Error(core.InvalidRequest, "Cannot specify both Range header and partNumber query parameter")
	}
	start, end, ok := v.PartRange(n)
	if !ok {
		count := max(v.Parts, 1)
		if n <= count {
			return 0, 0, false, notImplemented("", "MiniS3 does not know the part sizes of this object: it was completed by a MiniS3 that did not keep them")
		}
		e := newS3Error(codeInvalidPartNumber, "The requested partnumber is not satisfiable")
		e.PartNumberRequested, e.ActualPartCount = n, count
		return 0, 0, false, e
	}
	return start, end, end > start, nil
}

// setVersionHeaders sets what identifies the version read and what S3
// says about it: ETag, Last-Modified (its creation time), its encryption
// (x-amz-server-side-encryption, SSE-S3 as for every object), x-amz-version-id
// unless the bucket was never versioned ("null" for a null version), its
// storage class unless STANDARD, its number of tags if it has any, and
// when S3's lifecycle will expire it, if a rule will.
func (h *Handler) setVersionHeaders(hdr http.Header, obj *core.Object) {
	v := obj.Version
	hdr.Set("Etag", quoteETag(v.ETag))
	hdr.Set("Last-Modified", httpTime(h.origin+v.CreatedAt))
	setEncryptionHeader(hdr)
	if obj.Versioning != core.Unversioned {
		hdr.Set("X-Amz-Version-Id", v.VersionID)
	}
	if v.Meta.StorageClass != "" {
		hdr.Set("X-Amz-Storage-Class", v.Meta.StorageClass)
	}
	if n := len(v.Meta.Tags); n > 0 {
		hdr.Set("X-Amz-Tagging-Count", strconv.Itoa(n))
	}
	setExpirationHeader(hdr, obj.Expiration)
}

// setContentHeaders sets the stored content headers and user metadata,
// then the response-* overrides of the query.
func setContentHeaders(hdr http.Header, meta core.ObjectMeta, q url.Values) {
	ct := meta.ContentType
	if ct == "" {
		ct = "binary/octet-stream"
	}
	hdr.Set("Content-Type", ct)
	for name, value := range map[string]string{
		"Content-Disposition": meta.ContentDisposition,
		"Content-Encoding":    meta.ContentEncoding,
		"Cache-Control":       meta.CacheControl,
		"Content-Language":    meta.ContentLanguage,
		"Expires":             meta.Expires,
	} {
		if value != "" {
			hdr.Set(name, value)
		}
	}
	for name, value := range meta.User {
		hdr[userMetaPrefix+name] = []string{value}
	}
	for _, o := range responseOverrides {
		if value := q.Get(o[0]); value != "" {
			hdr.Set(o[1], value)
		}
	}
}

// parseRange applies a Range header to an object of size bytes: it returns
// the half-open byte interval to send and whether it is a partial answer.
// A missing, malformed or multi-range header means the whole object, as on
// S3; a well-formed range that misses the object is InvalidRange.
func parseRange(header string, size int64) (start, end int64, partial bool, err error) {
	spec, ok := strings.CutPrefix(header, "bytes=")
	if !ok || strings.Contains(spec, ",") {
		return 0, size, false, nil
	}
	first, last, ok := strings.Cut(strings.TrimSpace(spec), "-")
	if !ok {
		return 0, size, false, nil
	}
	unsatisfiable := func() error {
		e := newS3Error(codeInvalidRange, "The requested range is not satisfiable")
		e.RangeRequested, e.ActualObjectSize = header, size
		return e
	}
	if first == "" {
		n, perr := strconv.ParseInt(last, 10, 64)
		if perr != nil || n < 0 {
			return 0, size, false, nil
		}
		if n == 0 {
			return 0, 0, false, unsatisfiable()
		}
		return max(size-n, 0), size, true, nil
	}
	s, perr := strconv.ParseInt(first, 10, 64)
	if perr != nil || s < 0 {
		return 0, size, false, nil
	}
	e := size - 1
	if last != "" {
		e, perr = strconv.ParseInt(last, 10, 64)
		if perr != nil || e < s {
			return 0, size, false, nil
		}
	}
	if s >= size {
		return 0, 0, false, unsatisfiable()
	}
	return s, min(e, size-1) + 1, true, nil
}

func (h *Handler) deleteObject(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	vid, err := versionIDParam(r.URL.Query())
	if err != nil {
		return err
	}
	res, err := h.store.DeleteObject(bucket, key, core.DeleteOptions{VersionID: vid})
	if err != nil {
		return err
	}
	if res.DeleteMarker {
		w.Header().Set("X-Amz-Delete-Marker", "true")
	}
	if res.VersionID != "" {
		w.Header().Set("X-Amz-Version-Id", res.VersionID)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// parseDelete reads a Delete document: Quiet (false when absent,
// MalformedXML when not a boolean) and the Objects, in order, each with its
// Key and VersionId. Any of these but Object given twice is MalformedXML.
func parseDelete(body []byte) (quiet bool, objects []core.ObjectIdentifier, err error) {
	doc, err := parseXML(body, "Delete")
	if err != nil {
		return false, nil, err
	}
	err = readKnown(doc, map[string]func(*xmlElement) error{
		"Quiet": func(e *xmlElement) error {
			b, err := e.bool()
			if err != nil {
				return malformedXML()
			}
			quiet = b
			return nil
		},
		"Object": func(e *xmlElement) error {
			objects = append(objects, core.ObjectIdentifier{})
			o := &objects[len(objects)-1]
			return readKnown(e, map[string]func(*xmlElement) error{
				"Key":       func(f *xmlElement) error { o.Key = string(f.text); return nil },
				"VersionId": func(f *xmlElement) error { o.VersionID = string(f.text); return nil },
			})
		},
	}, "Object")
	if err != nil {
		return false, nil, err
	}
	return quiet, objects, nil
}

// deleteObjects is DeleteObjects (POST ?delete): 1 to 1000 keys, a result
// per key, per-key errors inside a 200 answer; Quiet leaves out successes.
func (h *Handler) deleteObjects(w http.ResponseWriter, r *http.Request, bucket string) error {
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	quiet, ids, err := parseDelete(body)
	if err != nil {
		return err
	}
	if len(ids) == 0 || len(ids) > core.MaxDeleteObjects {
		return malformedXML()
	}
	res, err := h.store.DeleteObjects(bucket, ids)
	if err != nil {
		return err
	}
	deleteResultDocument(res, quiet).send(w, http.StatusOK)
	return nil
}

// deleteResultDocument is DeleteObjects' DeleteResult: a Deleted element
// per success (none when quiet), then an Error element per failure.
func deleteResultDocument(res core.DeleteObjectsResult, quiet bool) *xmlWriter {
	w := newXMLWriter("DeleteResult", listingSize(len(res.Deleted)+len(res.Errors)))
	for _, d := range res.Deleted {
		if quiet {
			break
		}
		w.open("Deleted")
		w.text("Key", d.Key)
		w.textIf("VersionId", d.VersionID)
		if d.DeleteMarker {
			w.bool("DeleteMarker", true)
		}
		w.textIf("DeleteMarkerVersionId", d.DeleteMarkerVersionID)
		w.close("Deleted")
	}
	for _, e := range res.Errors {
		w.open("Error")
		w.text("Key", e.Key)
		w.textIf("VersionId", e.VersionID)
		w.text("Code", string(e.Code))
		w.text("Message", e.Message)
		w.close("Error")
	}
	return w
}
