package web

import (
	"net/http"
	"net/url"
	"strings"

	"minis3/core"
)

// Object tags: the ?tagging subresource of an object (by version too), and
// the x-amz-tagging header of a PUT, a copy and CreateMultipartUpload. The
// store checks the tags themselves (core.ValidateTags).

// writeMeta is what a PUT or CreateMultipartUpload asks to store with the
// object: objectMeta, its tags (x-amz-tagging) and its storage class
// (x-amz-storage-class).
func writeMeta(hdr http.Header) (core.ObjectMeta, error) {
	meta := objectMeta(hdr)
	meta.StorageClass = get(hdr, "X-Amz-Storage-Class")
	tags, err := taggingHeader(hdr)
	meta.Tags = tags
	return meta, err
}

// taggingHeader reads x-amz-tagging: tags as URL query parameters,
// "k1=v1&k2=v2", in the order given.
func taggingHeader(hdr http.Header) ([]core.Tag, error) {
	v := get(hdr, "X-Amz-Tagging")
	if v == "" {
		return nil, nil
	}
	var tags []core.Tag
	for _, pair := range strings.Split(v, "&") {
		k, val, _ := strings.Cut(pair, "=")
		key, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(val)
		if err1 != nil || err2 != nil {
			return nil, invalidArgument("x-amz-tagging", v,
				"The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag name duplicates.")
		}
		tags = append(tags, core.Tag{Key: key, Value: value})
	}
	return tags, nil
}

// parseTagging reads a Tagging document: its TagSet's tags, in order.
func parseTagging(body []byte) ([]core.Tag, error) {
	doc, err := parseXML(body, "Tagging")
	if err != nil {
		return nil, err
	}
	tags := []core.Tag{}
	err = children(doc, map[string]func(*xmlElement) error{"TagSet": func(e *xmlElement) error {
		return children(e, map[string]func(*xmlElement) error{"Tag": func(e *xmlElement) error {
			tags = append(tags, core.Tag{})
			return readTag(&tags[len(tags)-1])(e)
		}}, "Tag")
	}})
	return tags, err
}

// putObjectTagging is PutObjectTagging: it replaces the tags of a version
// (the current one without versionId).
func (h *Handler) putObjectTagging(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	vid, err := versionIDParam(r.URL.Query())
	if err != nil {
		return err
	}
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	tags, err := parseTagging(body)
	if err != nil {
		return err
	}
	id, err := h.store.PutObjectTagging(bucket, key, vid, tags)
	if err != nil {
		return err
	}
	h.taggedVersionHeader(w, bucket, id)
	w.WriteHeader(http.StatusOK)
	return nil
}

// getObjectTagging is GetObjectTagging: a version's tags in a Tagging
// document.
func (h *Handler) getObjectTagging(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	vid, err := versionIDParam(r.URL.Query())
	if err != nil {
		return err
	}
	id, tags, err := h.store.ObjectTagging(bucket, key, vid)
	if err != nil {
		return err
	}
	h.taggedVersionHeader(w, bucket, id)
	taggingDocument(tags).send(w, http.StatusOK)
	return nil
}

// taggingDocument is a Tagging document: an object's or a bucket's tags,
// in their order.
func taggingDocument(tags []core.Tag) *xmlWriter {
	doc := newXMLWriter("Tagging", listingSize(len(tags)))
	doc.open("TagSet")
	for _, t := range tags {
		writeTag(doc, t)
	}
	doc.close("TagSet")
	return doc
}

// deleteObjectTagging is DeleteObjectTagging: 204, the version's tags gone.
func (h *Handler) deleteObjectTagging(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	vid, err := versionIDParam(r.URL.Query())
	if err != nil {
		return err
	}
	id, err := h.store.DeleteObjectTagging(bucket, key, vid)
	if err != nil {
		return err
	}
	h.taggedVersionHeader(w, bucket, id)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// taggedVersionHeader names the version whose tags a tagging request read
// or wrote, as S3 does: "null" too, unless the bucket was never versioned.
func (h *Handler) taggedVersionHeader(w http.ResponseWriter, bucket, id string) {
	if state, err := h.store.BucketVersioning(bucket); err == nil && state != core.Unversioned {
		w.Header().Set("X-Amz-Version-Id", id)
	}
}
