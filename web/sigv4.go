package web

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"minis3/core"
	"minis3/internal/wire"
	"minis3/web/sigv4"
)

// Credentials are the one access key and secret key RequireSigV4 accepts.
type Credentials struct {
	AccessKey string
	SecretKey string
}

// checkSigV4Form refuses what S3 refuses in any request (r, with its query
// q) before it checks a signature, so the Handler refuses it too,
// signatures verified or not: an x-amz-content-sha256 S3 does not know
// (InvalidArgument), and a SigV4 credential scope naming another region
// than MiniS3's (AuthorizationHeaderMalformed, or
// AuthorizationQueryParametersError in a presigned URL, with the Region to
// sign for).
func checkSigV4Form(r *http.Request, q url.Values) error {
	if v := get(r.Header, "X-Amz-Content-Sha256"); !sigv4.KnownPayloadHash(v) {
		return invalidArgument("x-amz-content-sha256", v, sigv4.BadPayloadHash)
	}
	code, prefix, credential := core.AuthorizationHeaderMalformed, sigv4.AuthHeaderMalformed, ""
	if auth := get(r.Header, "Authorization"); strings.HasPrefix(auth, sigv4.Algorithm+" ") {
		if _, c, ok := strings.Cut(auth, "Credential="); ok {
			credential, _, _ = strings.Cut(c, ",")
		}
	} else if c := q.Get("X-Amz-Credential"); c != "" {
		code, prefix, credential = core.AuthorizationQueryParametersError, sigv4.CredentialParameterError, c
	}
	if parts := strings.Split(credential, "/"); len(parts) == 5 && parts[2] != region {
		e := newS3Error(code, "%s%s", prefix, sigv4.WrongRegion(parts[2], region))
		e.Region = region
		return e
	}
	return nil
}

// maxStreamingBody bounds a signed aws-chunked body, framing included: the
// largest object plus generous room for the chunk headers. (A variable so
// that tests can lower it.)
var maxStreamingBody int64 = 2 * DefaultMaxObjectSize

// RequireSigV4 wraps next (a Handler) so that every request must carry a
// valid AWS Signature Version 4 made with creds: RequireSigV4Lookup with one
// key pair.
func RequireSigV4(next http.Handler, creds Credentials, now func() time.Time) http.Handler {
	return RequireSigV4Lookup(next, sigv4.OneKey(creds.AccessKey, creds.SecretKey), now)
}

// RequireSigV4Lookup wraps next (a Handler) so that every request must carry
// a valid AWS Signature Version 4 made with the secret key keys gives for
// its access key (an access key keys does not know is InvalidAccessKeyId),
// in the Authorization header or in the query of a presigned URL, checked
// against now (package sigv4 says what is checked). The chunk and trailer
// signatures of a signed aws-chunked body are all verified before next
// sees the body. The MiniS3 extensions under /_minis3/ need a signature
// too, since they change the store; their errors are JSON like theirs.
func RequireSigV4Lookup(next http.Handler, keys sigv4.Keys, now func() time.Time) http.Handler {
	return &sigV4{next: next, verifier: sigv4.Verifier{Keys: keys, Region: region, Now: now}}
}

type sigV4 struct {
	next     http.Handler
	verifier sigv4.Verifier
	counter  atomic.Uint64
}

func (s *sigV4) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil {
		r.Body = http.NoBody
	}
	if err := s.verify(r); err != nil {
		s.refuse(w, r, err)
		return
	}
	s.next.ServeHTTP(w, r)
}

// verify checks r's signature, and for signed aws-chunked bodies every
// chunk's, replacing r.Body with the verified bytes.
func (s *sigV4) verify(r *http.Request) *sigv4.Error {
	sig, err := s.verifier.Verify(r)
	if err != nil {
		return err
	}
	if sig.SignedChunks() {
		return verifyChunks(r, sig)
	}
	return nil
}

// verifyChunks reads a signed aws-chunked body whole and checks each
// chunk's signature and the trailer's through a sigv4.ChunkReader; the
// handler then reads the verified bytes as usual.
func verifyChunks(r *http.Request, sig *sigv4.Signature) *sigv4.Error {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxStreamingBody+1))
	if err != nil {
		return &sigv4.Error{Code: codeIncompleteBody, Message: fmt.Sprintf("The signed aws-chunked body could not be read: %v", err)}
	}
	if int64(len(raw)) > maxStreamingBody {
		return &sigv4.Error{Code: codeMaxMessageLengthExceeded, Message: fmt.Sprintf("The signed aws-chunked body is longer than %d bytes.", maxStreamingBody)}
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	_, err = io.Copy(io.Discard, sigv4.NewChunkReader(bytes.NewReader(raw), sig))
	var e *sigv4.Error
	switch {
	case errors.As(err, &e):
		return e
	case err != nil:
		return &sigv4.Error{Code: core.InvalidRequest, Message: "malformed signed aws-chunked body: " + err.Error()}
	}
	return nil
}

// refuse answers a request that failed verification: JSON on the
// extensions, S3's XML error document elsewhere (no body for HEAD).
func (s *sigV4) refuse(w http.ResponseWriter, r *http.Request, e *sigv4.Error) {
	id := fmt.Sprintf("A%015X", s.counter.Add(1))
	hdr := w.Header()
	hdr.Set("X-Amz-Request-Id", id)
	hdr.Set("X-Amz-Id-2", base64.StdEncoding.EncodeToString([]byte("minis3/"+id)))
	hdr.Set("Server", "MiniS3")
	status := httpStatus(e.Code)
	switch {
	case r.URL.Path == strings.TrimSuffix(extensionPrefix, "/") || strings.HasPrefix(r.URL.Path, extensionPrefix):
		writeJSON(w, status, wire.Error{Code: string(e.Code), Message: e.Message})
	case r.Method == http.MethodHead:
		w.WriteHeader(status)
	default:
		authDocument(e, id, hdr.Get("X-Amz-Id-2")).send(w, status)
	}
}

// authDocument is the error document of a refused request: Code, Message,
// RequestId and HostId always, the other elements when they are not
// empty, in S3's order.
func authDocument(e *sigv4.Error, requestID, hostID string) *xmlWriter {
	w := newErrorWriter(string(e.Code), e.Message)
	w.textIf("Region", e.Region)
	w.textIf("AWSAccessKeyId", e.AWSAccessKeyID)
	w.textIf("StringToSign", e.StringToSign)
	w.textIf("SignatureProvided", e.SignatureProvided)
	w.textIf("StringToSignBytes", e.StringToSignBytes)
	w.textIf("CanonicalRequest", e.CanonicalRequest)
	w.textIf("CanonicalRequestBytes", e.CanonicalRequestBytes)
	w.textIf("RequestTime", e.RequestTime)
	w.textIf("ServerTime", e.ServerTime)
	w.textIf("MaxAllowedSkewMilliseconds", e.MaxAllowedSkewMilliseconds)
	w.textIf("X-Amz-Expires", e.XAmzExpires)
	w.textIf("Expires", e.Expires)
	w.textIf("HeadersNotSigned", e.HeadersNotSigned)
	w.text("RequestId", requestID)
	w.text("HostId", hostID)
	return w
}
