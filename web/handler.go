// Package web serves a MiniS3 store over HTTP: the S3 REST API (path-style,
// with S3's XML bodies, headers, status codes and error bodies) and the
// MiniS3 extension endpoints under /_minis3/ (JSON: the manual clock and
// lifecycle ticks and previews).
//
// The package is pure Go and imports no browser code: the same handler
// serves natively (cmd/minis3) and inside the page (the wasm build).
//
// Requests may be unsigned or signed with AWS Signature Version 4, with the
// payload in one piece or streamed as aws-chunked (signed chunks, or unsigned
// chunks with checksum trailers, as current AWS SDKs send). The Handler does
// not verify signatures (wrap it in RequireSigV4 to require them); bodies
// are decoded exactly and their checksums are checked.
//
// Header names are written in their canonical form (Etag,
// X-Amz-Version-Id): http.Header's methods canonicalise any other spelling
// into a new string on every call. The PUT path, the one a profile showed
// paying for it, reads headers with get, which skips even the check of a
// canonical name.
package web

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"minis3/core"
)

// get is h.Get(key) for a key in canonical form, looked up as it is.
func get(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// DefaultMaxObjectSize is the largest object or part body accepted when
// Options.MaxObjectSize is 0. Bodies are held in memory, so it is modest.
const DefaultMaxObjectSize = 64 << 20

// MaxXMLBodySize is the largest XML (or JSON) request body accepted; a
// larger one is refused with MaxMessageLengthExceeded before it is read
// whole. It leaves room for the largest valid documents written plainly:
// a DeleteObjects of 1000 keys of 1024 bytes with version IDs, and a
// lifecycle configuration of 1000 rules with the longest IDs and prefixes.
const MaxXMLBodySize = 4 << 20

// Options configure a Handler.
type Options struct {
	// MaxObjectSize is the largest body a PutObject or UploadPart may carry;
	// 0 means DefaultMaxObjectSize. Larger bodies get EntityTooLarge.
	MaxObjectSize int64
}

// Handler is the S3 REST API and the MiniS3 extensions over one store.
type Handler struct {
	store   *core.Store
	opts    Options
	counter atomic.Uint64
	// origin is the Unix time of the store's clock 0: a creation time in
	// clock seconds is at origin plus it, which is what S3 dates show.
	origin float64
}

// NewHandler returns the HTTP face of store.
func NewHandler(store *core.Store, opts Options) *Handler {
	if opts.MaxObjectSize <= 0 {
		opts.MaxObjectSize = DefaultMaxObjectSize
	}
	return &Handler{store: store, opts: opts, origin: store.Origin()}
}

// extensionPrefix is where the MiniS3 extension endpoints live. Bucket names
// cannot contain '_', so no bucket can clash with it.
const extensionPrefix = "/_minis3/"

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := h.counter.Add(1)
	id := fmt.Sprintf("%016X", n)
	w.Header().Set("X-Amz-Request-Id", id)
	w.Header().Set("X-Amz-Id-2", base64.StdEncoding.EncodeToString([]byte("minis3/"+id)))
	w.Header().Set("Server", "MiniS3")
	if r.Body == nil {
		// Servers always set a body; other callers (the page's bridge,
		// tests calling ServeHTTP directly) may not.
		r.Body = http.NoBody
	}
	if r.URL.Path == strings.TrimSuffix(extensionPrefix, "/") || strings.HasPrefix(r.URL.Path, extensionPrefix) {
		h.serveExtension(w, r)
		return
	}
	if err := h.serveS3(w, r); err != nil {
		writeError(w, r, id, h.origin, err)
	}
}

// serveS3 dispatches a path-style S3 request: "/" is the service,
// "/bucket" the bucket and "/bucket/key" an object.
func (h *Handler) serveS3(w http.ResponseWriter, r *http.Request) error {
	bucket, key := splitPath(r.URL)
	q := r.URL.Query()
	if err := checkSigV4Form(r, q); err != nil {
		return err
	}
	switch {
	case bucket == "":
		if r.Method != http.MethodGet {
			return methodNotAllowed(r.Method, "SERVICE", "GET")
		}
		return h.listBuckets(w, r)
	case key == "":
		return h.serveBucket(w, r, bucket, q)
	default:
		return h.serveObject(w, r, bucket, key, q)
	}
}

// splitPath splits a path-style request path into bucket and key. The
// bucket ends at the first slash of the path as sent, so an escaped slash
// ("%2F") stays in the bucket name, which then fails validation as on S3,
// instead of turning a bucket request into an object request. The key keeps
// every character after the bucket's slash, slashes included.
func splitPath(u *url.URL) (bucket, key string) {
	escaped, _, _ := strings.Cut(strings.TrimPrefix(u.EscapedPath(), "/"), "/")
	bucket, err := url.PathUnescape(escaped)
	if err != nil {
		// Not reached for EscapedPath's output; the decoded path decides.
		bucket, _, _ = strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	}
	key = strings.TrimPrefix(strings.TrimPrefix(u.Path, "/"), bucket)
	return bucket, strings.TrimPrefix(key, "/")
}

// notImplementedBucket and notImplementedObject are S3 subresources MiniS3
// does not serve. Asking for one is NotImplemented rather than being
// mistaken for a plain bucket or object request. (The bucket settings
// tools read, bucketSettings, are answered as S3 answers a bucket that
// never set them.)
var (
	notImplementedBucket = []string{
		"analytics", "intelligent-tiering", "inventory", "metadataTable", "metrics",
	}
	notImplementedObject = []string{
		"attributes", "legal-hold", "restore", "retention", "select", "torrent",
	}
)

// unsupportedSubresource names the first subresource of q in names.
func unsupportedSubresource(q map[string][]string, names []string) (string, bool) {
	for _, n := range names {
		if _, ok := q[n]; ok {
			return n, true
		}
	}
	return "", false
}

func (h *Handler) serveBucket(w http.ResponseWriter, r *http.Request, bucket string, q map[string][]string) error {
	if name, ok := unsupportedSubresource(q, notImplementedBucket); ok {
		return notImplemented("", "MiniS3 does not implement the bucket subresource ?%s", name)
	}
	if s := bucketSettingOf(q); s != nil && r.Method != http.MethodHead {
		return h.serveBucketSetting(w, r, bucket, s)
	}
	has := func(name string) bool { _, ok := q[name]; return ok }
	switch r.Method {
	case http.MethodGet:
		switch {
		case has("tagging"):
			return h.getBucketTagging(w, bucket)
		case has("versioning"):
			return h.getBucketVersioning(w, bucket)
		case has("lifecycle"):
			return h.getBucketLifecycle(w, bucket)
		case has("location"):
			return h.getBucketLocation(w, bucket)
		case has("versions"):
			return h.listObjectVersions(w, r, bucket)
		case has("uploads"):
			return h.listMultipartUploads(w, r, bucket)
		case has("list-type"):
			return h.listObjectsV2(w, r, bucket)
		default:
			return h.listObjectsV1(w, r, bucket)
		}
	case http.MethodHead:
		return h.headBucket(w, bucket)
	case http.MethodPut:
		switch {
		case has("tagging"):
			return h.putBucketTagging(w, r, bucket)
		case has("versioning"):
			return h.putBucketVersioning(w, r, bucket)
		case has("lifecycle"):
			return h.putBucketLifecycle(w, r, bucket)
		default:
			return h.createBucket(w, r, bucket)
		}
	case http.MethodDelete:
		switch {
		case has("tagging"):
			return h.deleteBucketTagging(w, bucket)
		case has("lifecycle"):
			return h.deleteBucketLifecycle(w, bucket)
		}
		return h.deleteBucket(w, bucket)
	case http.MethodPost:
		if has("delete") {
			return h.deleteObjects(w, r, bucket)
		}
		return notImplemented("", "MiniS3 does not implement POST uploads to a bucket (browser form uploads)")
	}
	return methodNotAllowed(r.Method, "BUCKET", "GET, HEAD, PUT, DELETE, POST")
}

func (h *Handler) serveObject(w http.ResponseWriter, r *http.Request, bucket, key string, q map[string][]string) error {
	if name, ok := unsupportedSubresource(q, notImplementedObject); ok {
		return notImplemented("", "MiniS3 does not implement the object subresource ?%s", name)
	}
	has := func(name string) bool { _, ok := q[name]; return ok }
	if has("acl") {
		switch r.Method {
		case http.MethodPut:
			return notImplemented("", "MiniS3 does not implement PutObjectAcl: an object has its owner's FULL_CONTROL grant only")
		case http.MethodDelete, http.MethodPost:
			return methodNotAllowed(r.Method, "OBJECT", "GET, PUT")
		}
	}
	switch r.Method {
	case http.MethodGet:
		switch {
		case has("acl"):
			return h.getObjectACL(w, r, bucket, key)
		case has("tagging"):
			return h.getObjectTagging(w, r, bucket, key)
		case has("uploadId"):
			return h.listParts(w, r, bucket, key)
		}
		return h.getObject(w, r, bucket, key, true)
	case http.MethodHead:
		return h.getObject(w, r, bucket, key, false)
	case http.MethodPut:
		copying := r.Header.Get("X-Amz-Copy-Source") != ""
		switch {
		case has("tagging"):
			return h.putObjectTagging(w, r, bucket, key)
		case (has("uploadId") || has("partNumber")) && copying:
			return h.uploadPartCopy(w, r, bucket, key)
		case has("uploadId") || has("partNumber"):
			return h.uploadPart(w, r, bucket, key)
		case copying:
			return h.copyObject(w, r, bucket, key)
		}
		return h.putObject(w, r, bucket, key)
	case http.MethodDelete:
		switch {
		case has("tagging"):
			return h.deleteObjectTagging(w, r, bucket, key)
		case has("uploadId"):
			return h.abortMultipartUpload(w, r, bucket, key)
		}
		return h.deleteObject(w, r, bucket, key)
	case http.MethodPost:
		switch {
		case has("uploads"):
			return h.createMultipartUpload(w, r, bucket, key)
		case has("uploadId"):
			return h.completeMultipartUpload(w, r, bucket, key)
		}
		return notImplemented("", "MiniS3 implements POST on an object only for multipart uploads (?uploads, ?uploadId)")
	}
	return methodNotAllowed(r.Method, "OBJECT", "GET, HEAD, PUT, DELETE, POST")
}
