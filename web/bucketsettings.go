package web

import (
	"net/http"

	"minis3/core"
)

// Bucket settings MiniS3 does not keep. Tools that manage buckets
// (Terraform and OpenTofu's S3 provider among them) read every one of them
// when they refresh a bucket, so a GET answers what S3 answers for a bucket
// that never set it: S3's default document, or the error S3 gives when
// there is none. Setting or deleting one is NotImplemented, naming S3's
// operation, since a stored setting that does nothing would mislead. Tags
// are a setting MiniS3 keeps (putBucketTagging and its neighbours below).

// bucketSetting is a bucket subresource and what MiniS3 answers on it.
type bucketSetting struct {
	name          string // the subresource: its query parameter
	get, put, del string // S3's operations on it; "" where S3 has none
	// What GET answers: the document root holding content (raw XML), or,
	// when missing is set, that error with message.
	root, content string
	missing       core.Code
	message       string
}

// ownerFullControl is an AccessControlPolicy's content: the one owner,
// granted FULL_CONTROL, which is all an S3 bucket or object has when ACLs
// are disabled (S3's default since April 2023).
const ownerFullControl = `<Owner><ID>` + ownerID + `</ID></Owner><AccessControlList><Grant>` +
	`<Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser"><ID>` + ownerID + `</ID></Grantee>` +
	`<Permission>FULL_CONTROL</Permission></Grant></AccessControlList>`

// bucketSettings are the settings of every bucket, as S3 sets them on a
// new one: object ownership BucketOwnerEnforced (ACLs disabled) and all
// public access blocked (since April 2023), SSE-S3 encryption (since
// January 2023), the bucket owner paying for requests; no accelerate,
// logging or notification configuration; no policy, CORS, website, object
// lock or replication configuration at all.
var bucketSettings = []bucketSetting{
	{name: "accelerate", get: "GetBucketAccelerateConfiguration", put: "PutBucketAccelerateConfiguration",
		root: "AccelerateConfiguration"},
	{name: "acl", get: "GetBucketAcl", put: "PutBucketAcl",
		root: "AccessControlPolicy", content: ownerFullControl},
	{name: "cors", get: "GetBucketCors", put: "PutBucketCors", del: "DeleteBucketCors",
		missing: codeNoSuchCORSConfiguration, message: "The CORS configuration does not exist"},
	{name: "encryption", get: "GetBucketEncryption", put: "PutBucketEncryption", del: "DeleteBucketEncryption",
		root: "ServerSideEncryptionConfiguration", content: `<Rule><ApplyServerSideEncryptionByDefault>` +
			`<SSEAlgorithm>AES256</SSEAlgorithm></ApplyServerSideEncryptionByDefault><BucketKeyEnabled>false</BucketKeyEnabled></Rule>`},
	{name: "logging", get: "GetBucketLogging", put: "PutBucketLogging",
		root: "BucketLoggingStatus"},
	{name: "notification", get: "GetBucketNotificationConfiguration", put: "PutBucketNotificationConfiguration",
		root: "NotificationConfiguration"},
	{name: "object-lock", get: "GetObjectLockConfiguration", put: "PutObjectLockConfiguration",
		missing: codeObjectLockConfigurationNotFound, message: "Object Lock configuration does not exist for this bucket"},
	{name: "ownershipControls", get: "GetBucketOwnershipControls", put: "PutBucketOwnershipControls", del: "DeleteBucketOwnershipControls",
		root: "OwnershipControls", content: `<Rule><ObjectOwnership>BucketOwnerEnforced</ObjectOwnership></Rule>`},
	{name: "policy", get: "GetBucketPolicy", put: "PutBucketPolicy", del: "DeleteBucketPolicy",
		missing: codeNoSuchBucketPolicy, message: "The bucket policy does not exist"},
	{name: "policyStatus", get: "GetBucketPolicyStatus",
		missing: codeNoSuchBucketPolicy, message: "The bucket policy does not exist"},
	{name: "publicAccessBlock", get: "GetPublicAccessBlock", put: "PutPublicAccessBlock", del: "DeletePublicAccessBlock",
		root: "PublicAccessBlockConfiguration", content: `<BlockPublicAcls>true</BlockPublicAcls><IgnorePublicAcls>true</IgnorePublicAcls>` +
			`<BlockPublicPolicy>true</BlockPublicPolicy><RestrictPublicBuckets>true</RestrictPublicBuckets>`},
	{name: "replication", get: "GetBucketReplication", put: "PutBucketReplication", del: "DeleteBucketReplication",
		missing: codeReplicationConfigurationNotFound, message: "The replication configuration was not found"},
	{name: "requestPayment", get: "GetBucketRequestPayment", put: "PutBucketRequestPayment",
		root: "RequestPaymentConfiguration", content: `<Payer>BucketOwner</Payer>`},
	{name: "website", get: "GetBucketWebsite", put: "PutBucketWebsite", del: "DeleteBucketWebsite",
		missing: codeNoSuchWebsiteConfiguration, message: "The specified bucket does not have a website configuration"},
}

// bucketSettingOf is the setting the query asks for, or nil.
func bucketSettingOf(q map[string][]string) *bucketSetting {
	for i, s := range bucketSettings {
		if _, ok := q[s.name]; ok {
			return &bucketSettings[i]
		}
	}
	return nil
}

// serveBucketSetting answers a request on a setting of an existing bucket:
// GET as S3 answers a bucket that never set it, PUT and DELETE with
// NotImplemented where S3 has the operation.
func (h *Handler) serveBucketSetting(w http.ResponseWriter, r *http.Request, bucket string, s *bucketSetting) error {
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	var op string // S3's operation of the request
	switch r.Method {
	case http.MethodGet:
		op = s.get
	case http.MethodPut:
		op = s.put
	case http.MethodDelete:
		op = s.del
	}
	switch {
	case op == "":
		allow := "GET"
		if s.put != "" {
			allow += ", PUT"
		}
		if s.del != "" {
			allow += ", DELETE"
		}
		return methodNotAllowed(r.Method, "BUCKET", allow)
	case r.Method != http.MethodGet:
		return notImplemented("", "MiniS3 does not implement %s", op)
	case s.missing != "":
		e := newS3Error(s.missing, "%s", s.message)
		e.BucketName = bucket
		return e
	}
	writeRawDocument(w, s.root, s.content)
	return nil
}

// writeRawDocument answers 200 with the document root holding content, a
// fixed piece of XML.
func writeRawDocument(w http.ResponseWriter, root, content string) {
	doc := newXMLWriter(root, 256+len(content))
	doc.buf = append(doc.buf, content...)
	doc.send(w, http.StatusOK)
}

// getObjectACL is GetObjectAcl: the owner's FULL_CONTROL grant, as S3
// answers for every object of a bucket whose ACLs are disabled. It finds
// the version as the tagging requests do, so a delete marker, which has no
// ACL, is MethodNotAllowed.
func (h *Handler) getObjectACL(w http.ResponseWriter, r *http.Request, bucket, key string) error {
	vid, err := versionIDParam(r.URL.Query())
	if err != nil {
		return err
	}
	if _, _, err := h.store.ObjectTagging(bucket, key, vid); err != nil {
		return err
	}
	writeRawDocument(w, "AccessControlPolicy", ownerFullControl)
	return nil
}

// setEncryptionHeader says the object is encrypted with SSE-S3, as S3 says
// on every write and read of an object: it encrypts all of them so since
// January 2023 (MiniS3 keeps the bytes as they are; nothing else shows).
func setEncryptionHeader(hdr http.Header) {
	hdr.Set("X-Amz-Server-Side-Encryption", "AES256")
}

// putBucketTagging is PutBucketTagging: it replaces the bucket's tags,
// durably; 204, as on S3.
func (h *Handler) putBucketTagging(w http.ResponseWriter, r *http.Request, bucket string) error {
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	tags, err := parseTagging(body)
	if err != nil {
		return err
	}
	if err := h.store.PutBucketTagging(bucket, tags); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// getBucketTagging is GetBucketTagging: the bucket's tags in a Tagging
// document, or NoSuchTagSet.
func (h *Handler) getBucketTagging(w http.ResponseWriter, bucket string) error {
	tags, err := h.store.BucketTagging(bucket)
	if err != nil {
		return err
	}
	taggingDocument(tags).send(w, http.StatusOK)
	return nil
}

// deleteBucketTagging is DeleteBucketTagging: 204, tags or none.
func (h *Handler) deleteBucketTagging(w http.ResponseWriter, bucket string) error {
	if err := h.store.DeleteBucketTagging(bucket); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
