package web

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"strconv"

	"minis3/core"
)

type initiateMultipartUploadResult struct {
	XMLName  xml.Name `xml:"InitiateMultipartUploadResult"`
	NS       string   `xml:"xmlns,attr"`
	Bucket   string   `xml:"Bucket"`
	Key      string   `xml:"Key"`
	UploadID string   `xml:"UploadId"`
}

// createMultipartUpload is CreateMultipartUpload (POST ?uploads). The
// content headers and user metadata given here go to the completed object.
func (h *Handler) createMultipartUpload(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	if err := refuseUnsupportedWriteHeaders(r.Header); err != nil {
		return err
	}
	info, err := h.store.CreateMultipartUpload(bucket, key, core.PutOptions{Meta: objectMeta(r.Header)})
	if err != nil {
		return err
	}
	writeXML(w, http.StatusOK, initiateMultipartUploadResult{NS: xmlNS, Bucket: bucket, Key: key, UploadID: info.UploadID})
	return nil
}

// partNumberParam reads partNumber: an integer from 1 to 10000.
func partNumberParam(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > core.MaxPartNumber {
		return 0, invalidArgument("partNumber", v, "Part number must be an integer between 1 and %d, inclusive", core.MaxPartNumber)
	}
	return n, nil
}

// uploadPart is UploadPart (PUT ?partNumber=N&uploadId=U).
func (h *Handler) uploadPart(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	q := r.URL.Query()
	uploadID := q.Get("uploadId")
	if uploadID == "" {
		return invalidArgument("uploadId", "", "UploadPart needs both partNumber and uploadId")
	}
	n, err := partNumberParam(q.Get("partNumber"))
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
	echoChecksums(w, sums)
	w.WriteHeader(http.StatusOK)
	return nil
}

type completeMultipartUpload struct {
	XMLName xml.Name `xml:"CompleteMultipartUpload"`
	Parts   []struct {
		PartNumber string `xml:"PartNumber"`
		ETag       string `xml:"ETag"`
	} `xml:"Part"`
}

type completeMultipartUploadResult struct {
	XMLName  xml.Name `xml:"CompleteMultipartUploadResult"`
	NS       string   `xml:"xmlns,attr"`
	Location string   `xml:"Location"`
	Bucket   string   `xml:"Bucket"`
	Key      string   `xml:"Key"`
	ETag     string   `xml:"ETag"`
}

// completeMultipartUpload is CompleteMultipartUpload (POST ?uploadId=U).
// An empty body means no parts, which the store refuses as S3 does.
func (h *Handler) completeMultipartUpload(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	uploadID := r.URL.Query().Get("uploadId")
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	var req completeMultipartUpload
	if len(body) > 0 {
		if err := decodeXML(body, &req); err != nil {
			return err
		}
	}
	parts := make([]core.CompletedPart, len(req.Parts))
	for i, p := range req.Parts {
		n, err := partNumberParam(p.PartNumber)
		if err != nil {
			return err
		}
		parts[i] = core.CompletedPart{PartNumber: n, ETag: p.ETag}
	}
	res, err := h.store.CompleteMultipartUpload(bucket, key, uploadID, parts)
	if err != nil {
		return err
	}
	putVersionHeader(w, res.VersionID)
	writeXML(w, http.StatusOK, completeMultipartUploadResult{NS: xmlNS, Location: objectURL(r, bucket, key), Bucket: bucket, Key: key, ETag: quoteETag(res.ETag)})
	return nil
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

type listPartsResult struct {
	XMLName              xml.Name  `xml:"ListPartsResult"`
	NS                   string    `xml:"xmlns,attr"`
	Bucket               string    `xml:"Bucket"`
	Key                  string    `xml:"Key"`
	UploadID             string    `xml:"UploadId"`
	Initiator            owner     `xml:"Initiator"`
	Owner                owner     `xml:"Owner"`
	StorageClass         string    `xml:"StorageClass"`
	PartNumberMarker     int       `xml:"PartNumberMarker"`
	NextPartNumberMarker int       `xml:"NextPartNumberMarker,omitempty"`
	MaxParts             int       `xml:"MaxParts"`
	IsTruncated          bool      `xml:"IsTruncated"`
	Parts                []partXML `xml:"Part"`
}

type partXML struct {
	PartNumber   int    `xml:"PartNumber"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag"`
	Size         int64  `xml:"Size"`
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
	out := listPartsResult{NS: xmlNS, Bucket: bucket, Key: key, UploadID: uploadID, Initiator: theOwner, Owner: theOwner,
		StorageClass: "STANDARD", PartNumberMarker: marker, MaxParts: maxParts}
	if maxParts > 0 {
		out.IsTruncated, out.NextPartNumberMarker = res.IsTruncated, res.NextPartNumberMarker
		for _, p := range res.Parts {
			out.Parts = append(out.Parts, partXML{PartNumber: p.PartNumber, LastModified: isoTime(p.CreatedAt), ETag: quoteETag(p.ETag), Size: p.Size})
		}
	}
	writeXML(w, http.StatusOK, out)
	return nil
}

type listMultipartUploadsResult struct {
	XMLName            xml.Name          `xml:"ListMultipartUploadsResult"`
	NS                 string            `xml:"xmlns,attr"`
	Bucket             string            `xml:"Bucket"`
	KeyMarker          string            `xml:"KeyMarker"`
	UploadIDMarker     string            `xml:"UploadIdMarker"`
	NextKeyMarker      string            `xml:"NextKeyMarker,omitempty"`
	NextUploadIDMarker string            `xml:"NextUploadIdMarker,omitempty"`
	Prefix             string            `xml:"Prefix"`
	Delimiter          string            `xml:"Delimiter,omitempty"`
	MaxUploads         int               `xml:"MaxUploads"`
	IsTruncated        bool              `xml:"IsTruncated"`
	EncodingType       string            `xml:"EncodingType,omitempty"`
	Uploads            []uploadXML       `xml:"Upload"`
	CommonPrefixes     []commonPrefixXML `xml:"CommonPrefixes"`
}

type uploadXML struct {
	Key          string `xml:"Key"`
	UploadID     string `xml:"UploadId"`
	Initiator    owner  `xml:"Initiator"`
	Owner        owner  `xml:"Owner"`
	StorageClass string `xml:"StorageClass"`
	Initiated    string `xml:"Initiated"`
}

// listMultipartUploads is ListMultipartUploads (GET ?uploads).
func (h *Handler) listMultipartUploads(w http.ResponseWriter, r *http.Request, bucket string) error {
	q := r.URL.Query()
	p, err := parseListParams(q)
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
	out := listMultipartUploadsResult{NS: xmlNS, Bucket: bucket, KeyMarker: p.enc(opts.KeyMarker), UploadIDMarker: opts.UploadIDMarker,
		Prefix: p.enc(p.prefix), Delimiter: p.enc(p.delimiter), MaxUploads: maxUploads, EncodingType: p.encodingType()}
	if maxUploads > 0 {
		out.IsTruncated = res.IsTruncated
		out.NextKeyMarker, out.NextUploadIDMarker = p.enc(res.NextKeyMarker), res.NextUploadIDMarker
		out.CommonPrefixes = p.prefixes(res.CommonPrefixes)
		for _, u := range res.Uploads {
			out.Uploads = append(out.Uploads, uploadXML{Key: p.enc(u.Key), UploadID: u.UploadID, Initiator: theOwner, Owner: theOwner,
				StorageClass: "STANDARD", Initiated: isoTime(u.Initiated)})
		}
	}
	writeXML(w, http.StatusOK, out)
	return nil
}
