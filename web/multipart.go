package web

import (
	"net/http"
	"net/url"
	"strconv"

	"minis3/core"
)

// createMultipartUpload is CreateMultipartUpload (POST ?uploads). The
// content headers and user metadata given here go to the completed object.
func (h *Handler) createMultipartUpload(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	if err := refuseUnsupportedWriteHeaders(r.Header); err != nil {
		return err
	}
	meta, err := writeMeta(r.Header)
	if err != nil {
		return err
	}
	info, err := h.store.CreateMultipartUpload(bucket, key, core.PutOptions{Meta: meta})
	if err != nil {
		return err
	}
	setAbortHeaders(w.Header(), info.Abort)
	setEncryptionHeader(w.Header())
	initiateDocument(bucket, key, info.UploadID).send(w, http.StatusOK)
	return nil
}

// initiateDocument is CreateMultipartUpload's InitiateMultipartUploadResult.
func initiateDocument(bucket, key, uploadID string) *xmlWriter {
	w := newXMLWriter("InitiateMultipartUploadResult", 256+len(key))
	w.text("Bucket", bucket)
	w.text("Key", key)
	w.text("UploadId", uploadID)
	return w
}

// partNumberParam reads partNumber: an integer from 1 to 10000.
func partNumberParam(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > core.MaxPartNumber {
		return 0, invalidArgument("partNumber", v, "Part number must be an integer between 1 and %d, inclusive", core.MaxPartNumber)
	}
	return n, nil
}

// uploadPartParams reads the uploadId and partNumber of UploadPart and
// UploadPartCopy. A number out of range is the store's to refuse, after
// the bucket.
func uploadPartParams(q url.Values) (uploadID string, n int, err error) {
	uploadID = q.Get("uploadId")
	if uploadID == "" {
		return "", 0, invalidArgument("uploadId", "", "UploadPart needs both partNumber and uploadId")
	}
	n, err = strconv.Atoi(q.Get("partNumber"))
	if err != nil {
		return "", 0, invalidArgument("partNumber", q.Get("partNumber"), "Part number must be an integer between 1 and %d, inclusive", core.MaxPartNumber)
	}
	return uploadID, n, nil
}

// uploadPart is UploadPart (PUT ?partNumber=N&uploadId=U).
func (h *Handler) uploadPart(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	uploadID, n, err := uploadPartParams(r.URL.Query())
	if err != nil {
		return err
	}
	body, sums, err := readObjectPayload(r, h.opts.MaxObjectSize, entityTooLarge)
	if err != nil {
		return err
	}
	info, err := h.store.UploadPart(bucket, key, uploadID, n, body)
	if err != nil {
		return err
	}
	w.Header().Set("Etag", quoteETag(info.ETag))
	setEncryptionHeader(w.Header())
	echoChecksums(w, sums)
	w.WriteHeader(http.StatusOK)
	return nil
}

// partXML is a Part of a CompleteMultipartUpload document, as given.
type partXML struct {
	PartNumber, ETag string
}

// parseComplete reads a CompleteMultipartUpload document: its Parts, in
// order, with their PartNumber and ETag ("" when absent, MalformedXML when
// repeated). Other elements, a Part's checksums among them, are ignored,
// as xml.Unmarshal ignored them.
func parseComplete(body []byte) ([]partXML, error) {
	doc, err := parseXML(body, "CompleteMultipartUpload")
	if err != nil {
		return nil, err
	}
	var parts []partXML
	err = readKnown(doc, map[string]func(*xmlElement) error{"Part": func(e *xmlElement) error {
		parts = append(parts, partXML{})
		p := &parts[len(parts)-1]
		return readKnown(e, map[string]func(*xmlElement) error{
			"PartNumber": func(f *xmlElement) error { p.PartNumber = string(f.text); return nil },
			"ETag":       func(f *xmlElement) error { p.ETag = string(f.text); return nil },
		})
	}}, "Part")
	if err != nil {
		return nil, err
	}
	return parts, nil
}

// completeMultipartUpload is CompleteMultipartUpload (POST ?uploadId=U),
// with the write conditions If-None-Match and If-Match. An empty body means
// no parts, which the store refuses as S3 does.
func (h *Handler) completeMultipartUpload(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	uploadID := r.URL.Query().Get("uploadId")
	cond, err := writeConditions(r.Header)
	if err != nil {
		return err
	}
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	var given []partXML
	if len(body) > 0 {
		if given, err = parseComplete(body); err != nil {
			return err
		}
	}
	parts := make([]core.CompletedPart, len(given))
	for i, p := range given {
		n, err := partNumberParam(p.PartNumber)
		if err != nil {
			return err
		}
		parts[i] = core.CompletedPart{PartNumber: n, ETag: p.ETag}
	}
	res, err := h.store.CompleteMultipartUploadIf(bucket, key, uploadID, parts, cond)
	if err != nil {
		return err
	}
	putVersionHeader(w, res.VersionID)
	setEncryptionHeader(w.Header())
	setExpirationHeader(w.Header(), res.Expiration)
	completeDocument(objectURL(r, bucket, key), bucket, key, res.ETag).send(w, http.StatusOK)
	return nil
}

// completeDocument is CompleteMultipartUpload's
// CompleteMultipartUploadResult: the object's URL, bucket, key and ETag.
func completeDocument(location, bucket, key, etag string) *xmlWriter {
	w := newXMLWriter("CompleteMultipartUploadResult", 256+len(location)+len(key))
	w.text("Location", location)
	w.text("Bucket", bucket)
	w.text("Key", key)
	w.etag(etag)
	return w
}

// objectURL is the path-style URL of an object on the server r came to.
func objectURL(r *http.Request, bucket, key string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	u := url.URL{Scheme: scheme, Host: r.Host, Path: "/" + bucket + "/" + key}
	return u.String()
}

// abortMultipartUpload is AbortMultipartUpload (DELETE ?uploadId=U).
func (h *Handler) abortMultipartUpload(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	if err := h.store.AbortMultipartUpload(bucket, key, r.URL.Query().Get("uploadId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listParts is ListParts (GET ?uploadId=U), with max-parts and
// part-number-marker.
func (h *Handler) listParts(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	q := r.URL.Query()
	maxParts, err := parseMaxParam(q, "max-parts")
	if err != nil {
		return err
	}
	marker := 0
	if v := q.Get("part-number-marker"); v != "" {
		if marker, err = strconv.Atoi(v); err != nil || marker < 0 {
			return invalidArgument("part-number-marker", v, "Argument part-number-marker must be an integer between 0 and 2147483647")
		}
	}
	uploadID := q.Get("uploadId")
	res, err := h.store.ListParts(bucket, key, uploadID, core.ListPartsOptions{PartNumberMarker: marker, MaxParts: max(maxParts, 1)})
	if err != nil {
		return err
	}
	if maxParts == 0 {
		res = core.ListPartsResult{}
	}
	setAbortHeaders(w.Header(), res.Upload.Abort)
	partsDocument(bucket, key, uploadID, h.origin, marker, maxParts, res).send(w, http.StatusOK)
	return nil
}

// partsDocument is ListParts' ListPartsResult for the page res.
func partsDocument(bucket, key, uploadID string, origin float64, marker, maxParts int, res core.ListPartsResult) *xmlWriter {
	w := newXMLWriter("ListPartsResult", listingSize(len(res.Parts)))
	w.text("Bucket", bucket)
	w.text("Key", key)
	w.text("UploadId", uploadID)
	w.owner("Initiator")
	w.owner("Owner")
	w.text("StorageClass", storageClass(res.Upload.Meta.StorageClass))
	w.int("PartNumberMarker", int64(marker))
	if res.NextPartNumberMarker != 0 {
		w.int("NextPartNumberMarker", int64(res.NextPartNumberMarker))
	}
	w.int("MaxParts", int64(maxParts))
	w.bool("IsTruncated", res.IsTruncated)
	for _, p := range res.Parts {
		w.open("Part")
		w.int("PartNumber", int64(p.PartNumber))
		w.time("LastModified", origin+p.CreatedAt)
		w.etag(p.ETag)
		w.int("Size", p.Size)
		w.close("Part")
	}
	return w
}

// listMultipartUploads is ListMultipartUploads (GET ?uploads).
func (h *Handler) listMultipartUploads(w http.ResponseWriter, r *http.Request, bucket string) error {
	q := r.URL.Query()
	p, err := h.parseListParams(q)
	if err != nil {
		return err
	}
	maxUploads, err := parseMaxParam(q, "max-uploads")
	if err != nil {
		return err
	}
	opts := core.ListUploadsOptions{Prefix: p.prefix, Delimiter: p.delimiter, KeyMarker: q.Get("key-marker"),
		UploadIDMarker: q.Get("upload-id-marker"), MaxUploads: max(maxUploads, 1)}
	res, err := h.store.ListMultipartUploads(bucket, opts)
	if err != nil {
		return err
	}
	if maxUploads == 0 {
		res = core.ListUploadsResult{}
	}
	p.uploadsDocument(bucket, opts, maxUploads, res).send(w, http.StatusOK)
	return nil
}

// uploadsDocument is ListMultipartUploads' ListMultipartUploadsResult for
// the page res.
func (p listParams) uploadsDocument(bucket string, opts core.ListUploadsOptions, maxUploads int, res core.ListUploadsResult) *xmlWriter {
	w := newXMLWriter("ListMultipartUploadsResult", listingSize(len(res.Uploads)+len(res.CommonPrefixes)))
	w.text("Bucket", bucket)
	w.text("KeyMarker", p.enc(opts.KeyMarker))
	w.text("UploadIdMarker", opts.UploadIDMarker)
	w.textIf("NextKeyMarker", p.enc(res.NextKeyMarker))
	w.textIf("NextUploadIdMarker", res.NextUploadIDMarker)
	w.text("Prefix", p.enc(p.prefix))
	w.textIf("Delimiter", p.enc(p.delimiter))
	w.int("MaxUploads", int64(maxUploads))
	w.bool("IsTruncated", res.IsTruncated)
	w.textIf("EncodingType", p.encodingType())
	for _, u := range res.Uploads {
		w.open("Upload")
		w.text("Key", p.enc(u.Key))
		w.text("UploadId", u.UploadID)
		w.owner("Initiator")
		w.owner("Owner")
		w.text("StorageClass", storageClass(u.Meta.StorageClass))
		w.time("Initiated", p.origin+u.Initiated)
		w.close("Upload")
	}
	p.writePrefixes(w, res.CommonPrefixes)
	return w
}
