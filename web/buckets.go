package web

import (
	"net/http"
	"strconv"
	"strings"

	"minis3/core"
)

// region is the one region a MiniS3 store answers for.
const region = "us-east-1"

// listBuckets is ListBuckets, with its prefix, max-buckets and
// continuation-token parameters.
func (h *Handler) listBuckets(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	prefix := q.Get("prefix")
	max := 10000
	if v, ok := q["max-buckets"]; ok {
		n, err := strconv.Atoi(v[0])
		if err != nil || n < 1 || n > 10000 {
			return invalidArgument("max-buckets", v[0], "max-buckets must be an integer between 1 and 10000")
		}
		max = n
	}
	after := q.Get("continuation-token")
	var page []core.BucketInfo
	token := ""
	for _, b := range h.store.ListBuckets() {
		if !strings.HasPrefix(b.Name, prefix) || b.Name <= after {
			continue
		}
		if len(page) == max {
			token = page[len(page)-1].Name
			break
		}
		page = append(page, b)
	}
	bucketsDocument(page, h.origin, token, prefix).send(w, http.StatusOK)
	return nil
}

// bucketsDocument is ListBuckets' ListAllMyBucketsResult for a page of
// buckets, with the continuation token and the prefix when they are set.
func bucketsDocument(buckets []core.BucketInfo, origin float64, token, prefix string) *xmlWriter {
	w := newXMLWriter("ListAllMyBucketsResult", listingSize(len(buckets)))
	w.owner("Owner")
	w.open("Buckets")
	for _, b := range buckets {
		w.open("Bucket")
		w.text("Name", b.Name)
		w.time("CreationDate", origin+b.CreatedAt)
		w.text("BucketRegion", region)
		w.close("Bucket")
	}
	w.close("Buckets")
	w.textIf("ContinuationToken", token)
	w.textIf("Prefix", prefix)
	return w
}

// createBucket is CreateBucket. A CreateBucketConfiguration body is read and
// ignored: every MiniS3 bucket lives in the one region. ACLs other than
// private and object lock are refused.
func (h *Handler) createBucket(w http.ResponseWriter, r *http.Request, bucket string) error {
	if err := refuseACLHeaders(r.Header); err != nil {
		return err
	}
	if strings.EqualFold(r.Header.Get("X-Amz-Bucket-Object-Lock-Enabled"), "true") {
		return notImplemented("x-amz-bucket-object-lock-enabled", "MiniS3 does not implement object lock")
	}
	if _, err := readPayload(r, MaxXMLBodySize, messageTooLong); err != nil {
		return err
	}
	if err := h.store.CreateBucket(bucket); err != nil {
		return err
	}
	w.Header().Set("Location", "/"+bucket)
	w.WriteHeader(http.StatusOK)
	return nil
}

func (h *Handler) headBucket(w http.ResponseWriter, bucket string) error {
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	w.Header().Set("X-Amz-Bucket-Region", region)
	w.WriteHeader(http.StatusOK)
	return nil
}

func (h *Handler) deleteBucket(w http.ResponseWriter, bucket string) error {
	if err := h.store.DeleteBucket(bucket); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// getBucketLocation is GetBucketLocation: empty, which means us-east-1.
func (h *Handler) getBucketLocation(w http.ResponseWriter, bucket string) error {
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	newXMLWriter("LocationConstraint", 128).send(w, http.StatusOK)
	return nil
}

// getBucketVersioning is GetBucketVersioning.
func (h *Handler) getBucketVersioning(w http.ResponseWriter, bucket string) error {
	state, err := h.store.BucketVersioning(bucket)
	if err != nil {
		return err
	}
	versioningDocument(state).send(w, http.StatusOK)
	return nil
}

// versioningDocument is GetBucketVersioning's VersioningConfiguration: no
// Status at all for a bucket that was never versioned.
func versioningDocument(state core.VersioningState) *xmlWriter {
	w := newXMLWriter("VersioningConfiguration", 256)
	switch state {
	case core.Enabled:
		w.text("Status", "Enabled")
	case core.Suspended:
		w.text("Status", "Suspended")
	}
	return w
}

func ptr[T any](v T) *T { return &v }

// putBucketVersioning is PutBucketVersioning: Status Enabled or Suspended,
// exactly (case-sensitive); anything else is MalformedXML and a missing
// Status is IllegalVersioningConfigurationException.
func (h *Handler) putBucketVersioning(w http.ResponseWriter, r *http.Request, bucket string) error {
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	status, mfaDelete, err := parseVersioning(body)
	if err != nil {
		return err
	}
	if mfaDelete != nil {
		switch *mfaDelete {
		case "Disabled":
		case "Enabled":
			return notImplemented("", "MiniS3 does not implement MFA delete")
		default:
			return malformedXML()
		}
	}
	if status == nil {
		return newS3Error(core.IllegalVersioningConfigurationException, "The Versioning element must be specified")
	}
	var state core.VersioningState
	switch *status {
	case "Enabled":
		state = core.Enabled
	case "Suspended":
		state = core.Suspended
	default:
		return malformedXML()
	}
	if err := h.store.SetBucketVersioning(bucket, state); err != nil {
		return err
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// parseVersioning reads a VersioningConfiguration document: its Status and
// MfaDelete, nil when absent (MalformedXML when repeated).
func parseVersioning(body []byte) (status, mfaDelete *string, err error) {
	doc, err := parseXML(body, "VersioningConfiguration")
	if err != nil {
		return nil, nil, err
	}
	err = readKnown(doc, map[string]func(*xmlElement) error{"Status": readString(&status), "MfaDelete": readString(&mfaDelete)})
	if err != nil {
		return nil, nil, err
	}
	return status, mfaDelete, nil
}
