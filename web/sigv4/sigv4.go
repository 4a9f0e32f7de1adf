// Package sigv4 verifies AWS Signature Version 4 as S3 checks it: the
// signature of a request, in its Authorization header or in the query of
// a presigned URL, and the chained signatures of a signed aws-chunked
// body, whose framing ChunkReader reads (unsigned aws-chunked bodies too).
//
//	v := sigv4.Verifier{Keys: sigv4.OneKey("AK", "SK"), Region: "us-east-1", Now: time.Now}
//	sig, err := v.Verify(r)       // err: *Error, S3's code and the elements of its error document
//	if sig.SignedChunks() {
//		body := sigv4.NewChunkReader(r.Body, sig)   // verifies each chunk as it reads it
//	}
//
// A Verifier finds the secret key of a request's access key with its Keys:
// OneKey for one key pair (minis3 serve --access-key), or any lookup, such
// as one key pair per student.
package sigv4

import (
	"crypto/hmac"
	"crypto/sha256"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"minis3/core"
)

// The values of x-amz-content-sha256 besides a hex SHA-256 of the body.
const (
	UnsignedPayload        = "UNSIGNED-PAYLOAD"
	StreamingSigned        = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"
	StreamingSignedTrailer = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"
	StreamingUnsigned      = "STREAMING-UNSIGNED-PAYLOAD-TRAILER"
	// The aws-chunked bodies of Signature Version 4A, which MiniS3 reads
	// but cannot verify.
	StreamingECDSA        = "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD"
	StreamingECDSATrailer = "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER"
)

// BadPayloadHash is S3's message for an x-amz-content-sha256 that is
// neither a SHA-256 in lower-case hex nor one of the values above.
const BadPayloadHash = "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, " +
	"STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER, " +
	"STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD, STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER or a valid sha256 value."

// KnownPayloadHash reports whether v is an x-amz-content-sha256 S3 knows:
// empty, one of the values above, or a SHA-256 in lower-case hex.
func KnownPayloadHash(v string) bool {
	switch v {
	case "", UnsignedPayload, StreamingSigned, StreamingSignedTrailer, StreamingUnsigned, StreamingECDSA, StreamingECDSATrailer:
		return true
	}
	return isSHA256Hex(v)
}

const (
	// Algorithm is the algorithm of Signature Version 4.
	Algorithm     = "AWS4-HMAC-SHA256"
	amzDateFormat = "20060102T150405Z"
	// MaxClockSkew is how far a signed request's time may be from the
	// server's, as in S3.
	MaxClockSkew = 15 * time.Minute
	// maxPresignExpires is the longest X-Amz-Expires S3 accepts: 7 days.
	maxPresignExpires = 7 * 24 * 60 * 60
	// emptySHA256 is the hex SHA-256 of nothing.
	emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
)

// The beginnings of the messages of a malformed Authorization header and
// of a malformed credential in a presigned URL.
const (
	AuthHeaderMalformed      = "The authorization header is malformed; "
	CredentialParameterError = "Error parsing the X-Amz-Credential parameter; "
)

// WrongRegion is how S3 words a credential scope of region got where it
// expects want.
func WrongRegion(got, want string) string {
	return "the region '" + got + "' is wrong; expecting '" + want + "'"
}

// Keys finds the secret key of an access key; ok is false for a key it
// does not know.
type Keys func(accessKey string) (secret string, ok bool)

// OneKey is the Keys of one key pair.
func OneKey(accessKey, secret string) Keys {
	return func(k string) (string, bool) { return secret, k == accessKey }
}

// A Verifier checks the signatures of requests.
type Verifier struct {
	Keys   Keys             // the secret key of each access key
	Region string           // the one region requests must be signed for
	Now    func() time.Time // the server's clock, against which times are checked
}

// A Signature is what a verified request says about its signature: enough
// to verify the chunks of its body, which are chained from it.
type Signature struct {
	accessKey     string
	date          string // yyyymmdd of the credential scope
	region        string
	service       string
	signedHeaders []string
	signature     string
	amzDate       string    // the request's X-Amz-Date
	time          time.Time // amzDate parsed
	payloadHash   string
	presigned     bool
	expires       int    // X-Amz-Expires of a presigned URL
	key           []byte // the signing key, once verified
}

func (s *Signature) scope() string {
	return s.date + "/" + s.region + "/" + s.service + "/aws4_request"
}

// SignedChunks reports whether the request's body is signed aws-chunked
// (STREAMING-AWS4-HMAC-SHA256-PAYLOAD, with or without -TRAILER), whose
// chunk signatures NewChunkReader verifies.
func (s *Signature) SignedChunks() bool {
	return s.payloadHash == StreamingSigned || s.payloadHash == StreamingSignedTrailer
}

// Verify checks r's signature: in the Authorization header, or in the
// query of a presigned URL (whose expiry it checks against now), made with
// the secret key of its access key for the Verifier's region. Every
// x-amz-* header, and host, must be signed. A header-signed request binds
// its payload through x-amz-content-sha256: UNSIGNED-PAYLOAD, the hex
// SHA-256 of the body (which the reader of the body checks),
// STREAMING-UNSIGNED-PAYLOAD-TRAILER, or signed aws-chunked, whose chunks
// NewChunkReader verifies; a presigned URL's is UNSIGNED-PAYLOAD.
//
// Failures are AccessDenied (no or an unusable signature, an expired
// presigned URL, unsigned headers), InvalidAccessKeyId,
// SignatureDoesNotMatch, RequestTimeTooSkewed (more than 15 minutes), or
// AuthorizationHeaderMalformed, AuthorizationQueryParametersError,
// InvalidArgument and InvalidRequest for requests that cannot be checked.
func (v *Verifier) Verify(r *http.Request) (*Signature, *Error) {
	sig, err := v.parse(r)
	if err != nil {
		return nil, err
	}
	secret, ok := v.Keys(sig.accessKey)
	if !ok {
		e := newError(core.InvalidAccessKeyId, "")
		e.AWSAccessKeyID = sig.accessKey
		return nil, e
	}
	if err := v.checkTime(sig); err != nil {
		return nil, err
	}
	if err := checkSignedHeaders(r, sig); err != nil {
		return nil, err
	}
	canonical := canonicalRequest(r, sig.signedHeaders, sig.payloadHash, sig.presigned)
	toSign := stringToSign(sig.amzDate, sig.scope(), canonical)
	sig.key = signingKey(secret, sig.date, sig.region, sig.service)
	if want := hmacHex(sig.key, toSign); !hmac.Equal([]byte(want), []byte(sig.signature)) {
		e := newError(core.SignatureDoesNotMatch, "")
		e.AWSAccessKeyID, e.SignatureProvided = sig.accessKey, sig.signature
		e.StringToSign, e.StringToSignBytes = toSign, spacedHex(toSign)
		e.CanonicalRequest, e.CanonicalRequestBytes = canonical, spacedHex(canonical)
		return nil, e
	}
	return sig, nil
}

// parse reads the signature of r from its Authorization header or its
// presigned query.
func (v *Verifier) parse(r *http.Request) (*Signature, *Error) {
	q := r.URL.Query()
	auth := r.Header.Get("Authorization")
	switch {
	case auth != "" && q.Has("X-Amz-Algorithm"):
		return nil, newError(core.InvalidArgument, "Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified")
	case strings.HasPrefix(auth, Algorithm+" "):
		return v.parseAuthorization(r, strings.TrimPrefix(auth, Algorithm+" "))
	case q.Has("X-Amz-Algorithm"):
		return v.parsePresigned(q)
	case auth != "":
		return nil, newError(core.AccessDenied, "MiniS3 accepts only AWS Signature Version 4 (%s)", Algorithm)
	}
	return nil, newError(core.AccessDenied, "Access Denied: this server requires requests signed with AWS Signature Version 4")
}

// parseAuthorization parses "Credential=..., SignedHeaders=..., Signature=...".
func (v *Verifier) parseAuthorization(r *http.Request, fields string) (*Signature, *Error) {
	malformed := func(format string, args ...any) *Error {
		return newError(core.AuthorizationHeaderMalformed, AuthHeaderMalformed+format, args...)
	}
	parts := make(map[string]string)
	for _, f := range strings.Split(fields, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(f), "=")
		if !ok {
			return nil, malformed("the field %q is not name=value.", strings.TrimSpace(f))
		}
		parts[name] = value
	}
	for _, name := range []string{"Credential", "SignedHeaders", "Signature"} {
		if parts[name] == "" {
			return nil, malformed("it lacks %s.", name)
		}
	}
	sig := &Signature{signature: parts["Signature"], signedHeaders: strings.Split(parts["SignedHeaders"], ";")}
	if err := v.parseCredential(sig, parts["Credential"], malformed); err != nil {
		return nil, err
	}
	sig.amzDate = r.Header.Get("X-Amz-Date")
	if sig.amzDate == "" {
		return nil, newError(core.AccessDenied, "AWS authentication requires a valid Date or x-amz-date header")
	}
	t, err := time.Parse(amzDateFormat, sig.amzDate)
	if err != nil {
		return nil, newError(core.AccessDenied, "AWS authentication requires a valid Date or x-amz-date header")
	}
	sig.time = t
	if sig.date != t.Format("20060102") {
		return nil, malformed("Invalid credential date. Date is not the same as X-Amz-Date.")
	}
	sig.payloadHash = r.Header.Get("X-Amz-Content-Sha256")
	switch h := sig.payloadHash; {
	case h == "":
		return nil, newError(core.InvalidRequest, "Missing required header for this request: x-amz-content-sha256")
	case h == UnsignedPayload || h == StreamingSigned || h == StreamingSignedTrailer || h == StreamingUnsigned:
	case !isSHA256Hex(h):
		// Signature Version 4A's values too: MiniS3 cannot verify them.
		return nil, newError(core.InvalidArgument, "%s", BadPayloadHash)
	}
	return sig, nil
}

// parsePresigned parses the X-Amz-* query parameters of a presigned URL.
// Its payload is always UNSIGNED-PAYLOAD.
func (v *Verifier) parsePresigned(q url.Values) (*Signature, *Error) {
	bad := func(format string, args ...any) *Error {
		return newError(core.AuthorizationQueryParametersError, format, args...)
	}
	if alg := q.Get("X-Amz-Algorithm"); alg != Algorithm {
		return nil, bad("X-Amz-Algorithm only supports \"%s\"", Algorithm)
	}
	for _, name := range []string{"X-Amz-Credential", "X-Amz-Signature", "X-Amz-Date", "X-Amz-SignedHeaders", "X-Amz-Expires"} {
		if q.Get(name) == "" {
			return nil, bad("Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.")
		}
	}
	sig := &Signature{presigned: true, signature: q.Get("X-Amz-Signature"), signedHeaders: strings.Split(q.Get("X-Amz-SignedHeaders"), ";")}
	if err := v.parseCredential(sig, q.Get("X-Amz-Credential"), func(format string, args ...any) *Error {
		return bad(CredentialParameterError+format, args...)
	}); err != nil {
		return nil, err
	}
	sig.amzDate = q.Get("X-Amz-Date")
	t, err := time.Parse(amzDateFormat, sig.amzDate)
	if err != nil {
		return nil, bad("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")
	}
	sig.time = t
	if sig.date != t.Format("20060102") {
		return nil, bad("Invalid credential date. Date is not the same as X-Amz-Date.")
	}
	n, err := strconv.Atoi(q.Get("X-Amz-Expires"))
	switch {
	case err != nil:
		return nil, bad("X-Amz-Expires should be a number")
	case n < 0:
		return nil, bad("X-Amz-Expires must be non-negative")
	case n > maxPresignExpires:
		return nil, bad("X-Amz-Expires must be less than a week (in seconds) that is 604800")
	}
	sig.expires = n
	sig.payloadHash = UnsignedPayload
	return sig, nil
}

// parseCredential splits "AKID/yyyymmdd/region/service/aws4_request" into
// sig.
func (v *Verifier) parseCredential(sig *Signature, c string, malformed func(string, ...any) *Error) *Error {
	parts := strings.Split(c, "/")
	if len(parts) != 5 || parts[0] == "" || parts[4] != "aws4_request" {
		return malformed("the Credential %q is not ACCESSKEY/yyyymmdd/region/s3/aws4_request.", c)
	}
	if _, err := time.Parse("20060102", parts[1]); err != nil {
		return malformed("incorrect date format %q. This date in the credential must be in the format \"yyyyMMdd\".", parts[1])
	}
	if parts[3] != "s3" {
		return malformed("incorrect service %q. This endpoint belongs to \"s3\".", parts[3])
	}
	if parts[2] == "" {
		return malformed("the Credential %q has no region.", c)
	}
	if parts[2] != v.Region {
		e := malformed("%s", WrongRegion(parts[2], v.Region))
		e.Region = v.Region
		return e
	}
	sig.accessKey, sig.date, sig.region, sig.service = parts[0], parts[1], parts[2], parts[3]
	return nil
}

// checkTime refuses requests signed too far from now, and expired
// presigned URLs.
func (v *Verifier) checkTime(sig *Signature) *Error {
	now := v.Now().UTC()
	if sig.presigned {
		if sig.time.Sub(now) > MaxClockSkew {
			return skewed(sig, now)
		}
		if expiry := sig.time.Add(time.Duration(sig.expires) * time.Second); now.After(expiry) {
			e := newError(core.AccessDenied, "Request has expired")
			e.XAmzExpires = strconv.Itoa(sig.expires)
			e.Expires, e.ServerTime = expiry.Format(time.RFC3339), now.Format(time.RFC3339)
			return e
		}
		return nil
	}
	if d := sig.time.Sub(now); d > MaxClockSkew || d < -MaxClockSkew {
		return skewed(sig, now)
	}
	return nil
}

func skewed(sig *Signature, now time.Time) *Error {
	e := newError(core.RequestTimeTooSkewed, "")
	e.RequestTime, e.ServerTime = sig.amzDate, now.Format(time.RFC3339)
	e.MaxAllowedSkewMilliseconds = strconv.FormatInt(MaxClockSkew.Milliseconds(), 10)
	return e
}

// checkSignedHeaders requires host among the signed headers, and every
// x-amz-* header the request carries, so that none can be added or changed.
func checkSignedHeaders(r *http.Request, sig *Signature) *Error {
	if !slices.Contains(sig.signedHeaders, "host") {
		return newError(core.AccessDenied, "The host header must be signed")
	}
	var unsigned []string
	for name := range r.Header {
		lower := strings.ToLower(name)
		if !strings.HasPrefix(lower, "x-amz-") || slices.Contains(sig.signedHeaders, lower) {
			continue
		}
		unsigned = append(unsigned, lower)
	}
	if len(unsigned) > 0 {
		slices.Sort(unsigned)
		e := newError(core.AccessDenied, "There were headers present in the request which were not signed")
		e.HeadersNotSigned = strings.Join(unsigned, ", ")
		return e
	}
	return nil
}

func isSHA256Hex(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
