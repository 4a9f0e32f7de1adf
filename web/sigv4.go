package web

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"minis3/core"
	"minis3/internal/wire"
)

// Credentials are the one access key and secret key RequireSigV4 accepts.
type Credentials struct {
	AccessKey string
	SecretKey string
}

// The values of x-amz-content-sha256 besides a hex SHA-256 of the body.
const (
	unsignedPayload        = "UNSIGNED-PAYLOAD"
	streamingSigned        = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"
	streamingSignedTrailer = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"
	streamingUnsigned      = "STREAMING-UNSIGNED-PAYLOAD-TRAILER"
	// The aws-chunked bodies of Signature Version 4A, which MiniS3 reads
	// but cannot verify.
	streamingECDSA        = "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD"
	streamingECDSATrailer = "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER"
)

// badPayloadHash is S3's message for an x-amz-content-sha256 that is
// neither a SHA-256 in lower-case hex nor one of the values above.
const badPayloadHash = "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, " +
	"STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER, " +
	"STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD, STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER or a valid sha256 value."

// checkSigV4Form refuses what S3 refuses in any request (r, with its query
// q) before it checks a signature, so the Handler refuses it too,
// signatures verified or not: an x-amz-content-sha256 S3 does not know
// (InvalidArgument), and a SigV4 credential scope naming another region
// than MiniS3's (AuthorizationHeaderMalformed, or
// AuthorizationQueryParametersError in a presigned URL, with the Region to
// sign for).
func checkSigV4Form(r *http.Request, q url.Values) error {
	switch v := get(r.Header, "X-Amz-Content-Sha256"); v {
	case "", unsignedPayload, streamingSigned, streamingSignedTrailer, streamingUnsigned, streamingECDSA, streamingECDSATrailer:
	default:
		if len(v) != 2*sha256.Size || !isLowerHex(v) {
			return invalidArgument("x-amz-content-sha256", v, badPayloadHash)
		}
	}
	code, prefix, credential := core.AuthorizationHeaderMalformed, authHeaderMalformed, ""
	if auth := get(r.Header, "Authorization"); strings.HasPrefix(auth, sigV4Algorithm+" ") {
		if _, c, ok := strings.Cut(auth, "Credential="); ok {
			credential, _, _ = strings.Cut(c, ",")
		}
	} else if c := q.Get("X-Amz-Credential"); c != "" {
		code, prefix, credential = core.AuthorizationQueryParametersError, credentialParameterError, c
	}
	if parts := strings.Split(credential, "/"); len(parts) == 5 && parts[2] != region {
		e := newS3Error(code, "%s%s", prefix, wrongRegion(parts[2]))
		e.Region = region
		return e
	}
	return nil
}

// The beginnings of the messages of a malformed Authorization header and
// of a malformed credential in a presigned URL.
const (
	authHeaderMalformed      = "The authorization header is malformed; "
	credentialParameterError = "Error parsing the X-Amz-Credential parameter; "
)

// wrongRegion is how S3 words a credential scope of another region.
func wrongRegion(got string) string {
	return fmt.Sprintf("the region '%s' is wrong; expecting '%s'", got, region)
}

const (
	sigV4Algorithm = "AWS4-HMAC-SHA256"
	amzDateFormat  = "20060102T150405Z"
	// maxClockSkew is how far a signed request's time may be from the
	// server's, as in S3.
	maxClockSkew = 15 * time.Minute
	// maxPresignExpires is the longest X-Amz-Expires S3 accepts: 7 days.
	maxPresignExpires = 7 * 24 * 60 * 60
	// emptySHA256 is the hex SHA-256 of nothing.
	emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
)

// maxStreamingBody bounds a signed aws-chunked body, framing included: the
// largest object plus generous room for the chunk headers. (A variable so
// that tests can lower it.)
var maxStreamingBody int64 = 2 * DefaultMaxObjectSize

// RequireSigV4 wraps next (a Handler) so that every request must carry a
// valid AWS Signature Version 4 made with creds: in the Authorization
// header, or in the query of a presigned URL (whose expiry is checked
// against now). The MiniS3 extensions under /_minis3/ need a signature too,
// since they change the store; their errors are JSON like theirs.
//
// A presigned URL's payload is UNSIGNED-PAYLOAD. A header-signed request
// binds its payload through x-amz-content-sha256: UNSIGNED-PAYLOAD, the hex
// SHA-256 of the body (which the handler checks when it reads the body),
// STREAMING-UNSIGNED-PAYLOAD-TRAILER, or signed aws-chunked
// (STREAMING-AWS4-HMAC-SHA256-PAYLOAD, with or without -TRAILER), whose
// chunk and trailer signatures are all verified before next sees the body.
// Every x-amz-* header, and host, must be signed.
//
// Failures are 403 AccessDenied (no or an unusable signature, an expired
// presigned URL, unsigned headers), InvalidAccessKeyId,
// SignatureDoesNotMatch, RequestTimeTooSkewed (more than 15 minutes), or
// 400 AuthorizationHeaderMalformed / AuthorizationQueryParametersError /
// InvalidArgument / InvalidRequest for requests that cannot be checked.
func RequireSigV4(next http.Handler, creds Credentials, now func() time.Time) http.Handler {
	return RequireSigV4Lookup(next, func(accessKey string) (string, bool) {
		return creds.SecretKey, accessKey == creds.AccessKey
	}, now)
}

// RequireSigV4Lookup is RequireSigV4 for many key pairs: secretOf returns
// the secret key of an access key, and false for an access key it does not
// know, which is refused with InvalidAccessKeyId. It is asked only once a
// request's signature has been parsed.
func RequireSigV4Lookup(next http.Handler, secretOf func(accessKey string) (secret string, ok bool), now func() time.Time) http.Handler {
	return &sigV4{next: next, secretOf: secretOf, now: now}
}

type sigV4 struct {
	next     http.Handler
	secretOf func(accessKey string) (string, bool)
	now      func() time.Time
	counter  atomic.Uint64
}

// authError is a refused request, with the elements S3 puts in its error
// body for it.
type authError struct {
	Code                                            core.Code
	Message, Region                                 string
	AWSAccessKeyID, StringToSign, SignatureProvided string
	StringToSignBytes                               string
	CanonicalRequest, CanonicalRequestBytes         string
	RequestTime, ServerTime                         string
	MaxAllowedSkewMilliseconds                      string
	XAmzExpires, Expires, HeadersNotSigned          string
	RequestID, HostID                               string
}

// document writes the error document: Code, Message, RequestId and HostId
// always, the other elements when they are not empty, in S3's order.
func (e *authError) document() *xmlWriter {
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
	w.text("RequestId", e.RequestID)
	w.text("HostId", e.HostID)
	return w
}

func authErr(code core.Code, format string, args ...any) *authError {
	msg := core.DefaultMessage(code)
	if format != "" {
		msg = fmt.Sprintf(format, args...)
	}
	return &authError{Code: code, Message: msg}
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

// refuse answers a request that failed verification: JSON on the
// extensions, S3's XML error document elsewhere (no body for HEAD).
func (s *sigV4) refuse(w http.ResponseWriter, r *http.Request, e *authError) {
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
		e.RequestID, e.HostID = id, hdr.Get("X-Amz-Id-2")
		e.document().send(w, status)
	}
}

// sigRequest is what a request says about its signature.
type sigRequest struct {
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
	expires       int // X-Amz-Expires of a presigned URL
}

func (sr *sigRequest) scope() string {
	return sr.date + "/" + sr.region + "/" + sr.service + "/aws4_request"
}

// verify checks r's signature, and for signed aws-chunked bodies every
// chunk's, replacing r.Body with the verified bytes.
func (s *sigV4) verify(r *http.Request) *authError {
	sr, err := parseSignature(r)
	if err != nil {
		return err
	}
	secret, ok := s.secretOf(sr.accessKey)
	if !ok {
		e := authErr(core.InvalidAccessKeyId, "")
		e.AWSAccessKeyID = sr.accessKey
		return e
	}
	if err := s.checkTime(sr); err != nil {
		return err
	}
	if err := checkSignedHeaders(r, sr); err != nil {
		return err
	}
	canonical := canonicalRequest(r, sr.signedHeaders, sr.payloadHash, sr.presigned)
	toSign := stringToSign(sr.amzDate, sr.scope(), canonical)
	key := signingKey(secret, sr.date, sr.region, sr.service)
	if want := hmacHex(key, toSign); !hmac.Equal([]byte(want), []byte(sr.signature)) {
		e := authErr(core.SignatureDoesNotMatch, "")
		e.AWSAccessKeyID, e.SignatureProvided = sr.accessKey, sr.signature
		e.StringToSign, e.StringToSignBytes = toSign, spacedHex(toSign)
		e.CanonicalRequest, e.CanonicalRequestBytes = canonical, spacedHex(canonical)
		return e
	}
	if sr.payloadHash == streamingSigned || sr.payloadHash == streamingSignedTrailer {
		return verifyChunks(r, key, sr)
	}
	return nil
}

// parseSignature reads the signature of r from its Authorization header or
// its presigned query.
func parseSignature(r *http.Request) (*sigRequest, *authError) {
	q := r.URL.Query()
	auth := r.Header.Get("Authorization")
	switch {
	case auth != "" && q.Has("X-Amz-Algorithm"):
		return nil, authErr(core.InvalidArgument, "Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified")
	case strings.HasPrefix(auth, sigV4Algorithm+" "):
		return parseAuthorization(r, strings.TrimPrefix(auth, sigV4Algorithm+" "))
	case q.Has("X-Amz-Algorithm"):
		return parsePresigned(q)
	case auth != "":
		return nil, authErr(core.AccessDenied, "MiniS3 accepts only AWS Signature Version 4 (%s)", sigV4Algorithm)
	}
	return nil, authErr(core.AccessDenied, "Access Denied: this server requires requests signed with AWS Signature Version 4")
}

// parseAuthorization parses "Credential=..., SignedHeaders=..., Signature=...".
func parseAuthorization(r *http.Request, fields string) (*sigRequest, *authError) {
	malformed := func(format string, args ...any) *authError {
		return authErr(core.AuthorizationHeaderMalformed, authHeaderMalformed+format, args...)
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
	sr := &sigRequest{signature: parts["Signature"], signedHeaders: strings.Split(parts["SignedHeaders"], ";")}
	if err := sr.parseCredential(parts["Credential"], malformed); err != nil {
		return nil, err
	}
	sr.amzDate = r.Header.Get("X-Amz-Date")
	if sr.amzDate == "" {
		return nil, authErr(core.AccessDenied, "AWS authentication requires a valid Date or x-amz-date header")
	}
	t, err := time.Parse(amzDateFormat, sr.amzDate)
	if err != nil {
		return nil, authErr(core.AccessDenied, "AWS authentication requires a valid Date or x-amz-date header")
	}
	sr.time = t
	if sr.date != t.Format("20060102") {
		return nil, malformed("Invalid credential date. Date is not the same as X-Amz-Date.")
	}
	sr.payloadHash = r.Header.Get("X-Amz-Content-Sha256")
	switch h := sr.payloadHash; {
	case h == "":
		return nil, authErr(core.InvalidRequest, "Missing required header for this request: x-amz-content-sha256")
	case h == unsignedPayload || h == streamingSigned || h == streamingSignedTrailer || h == streamingUnsigned:
	case len(h) != 2*sha256.Size || !isLowerHex(h):
		// Signature Version 4A's values too: MiniS3 cannot verify them.
		return nil, authErr(core.InvalidArgument, "%s", badPayloadHash)
	}
	return sr, nil
}

// parsePresigned parses the X-Amz-* query parameters of a presigned URL.
// Its payload is always UNSIGNED-PAYLOAD.
func parsePresigned(q url.Values) (*sigRequest, *authError) {
	bad := func(format string, args ...any) *authError {
		return authErr(core.AuthorizationQueryParametersError, format, args...)
	}
	if alg := q.Get("X-Amz-Algorithm"); alg != sigV4Algorithm {
		return nil, bad("X-Amz-Algorithm only supports \"%s\"", sigV4Algorithm)
	}
	for _, name := range []string{"X-Amz-Credential", "X-Amz-Signature", "X-Amz-Date", "X-Amz-SignedHeaders", "X-Amz-Expires"} {
		if q.Get(name) == "" {
			return nil, bad("Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.")
		}
	}
	sr := &sigRequest{presigned: true, signature: q.Get("X-Amz-Signature"), signedHeaders: strings.Split(q.Get("X-Amz-SignedHeaders"), ";")}
	if err := sr.parseCredential(q.Get("X-Amz-Credential"), func(format string, args ...any) *authError {
		return bad(credentialParameterError+format, args...)
	}); err != nil {
		return nil, err
	}
	sr.amzDate = q.Get("X-Amz-Date")
	t, err := time.Parse(amzDateFormat, sr.amzDate)
	if err != nil {
		return nil, bad("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")
	}
	sr.time = t
	if sr.date != t.Format("20060102") {
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
	sr.expires = n
	sr.payloadHash = unsignedPayload
	return sr, nil
}

// parseCredential splits "AKID/yyyymmdd/region/service/aws4_request".
func (sr *sigRequest) parseCredential(c string, malformed func(string, ...any) *authError) *authError {
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
	if parts[2] != region {
		e := malformed("%s", wrongRegion(parts[2]))
		e.Region = region
		return e
	}
	sr.accessKey, sr.date, sr.region, sr.service = parts[0], parts[1], parts[2], parts[3]
	return nil
}

// checkTime refuses requests signed too far from now, and expired
// presigned URLs.
func (s *sigV4) checkTime(sr *sigRequest) *authError {
	now := s.now().UTC()
	if sr.presigned {
		if sr.time.Sub(now) > maxClockSkew {
			return skewed(sr, now)
		}
		if expiry := sr.time.Add(time.Duration(sr.expires) * time.Second); now.After(expiry) {
			e := authErr(core.AccessDenied, "Request has expired")
			e.XAmzExpires = strconv.Itoa(sr.expires)
			e.Expires, e.ServerTime = expiry.Format(time.RFC3339), now.Format(time.RFC3339)
			return e
		}
		return nil
	}
	if d := sr.time.Sub(now); d > maxClockSkew || d < -maxClockSkew {
		return skewed(sr, now)
	}
	return nil
}

func skewed(sr *sigRequest, now time.Time) *authError {
	e := authErr(core.RequestTimeTooSkewed, "")
	e.RequestTime, e.ServerTime = sr.amzDate, now.Format(time.RFC3339)
	e.MaxAllowedSkewMilliseconds = strconv.FormatInt(maxClockSkew.Milliseconds(), 10)
	return e
}

// checkSignedHeaders requires host among the signed headers, and every
// x-amz-* header the request carries, so that none can be added or changed.
func checkSignedHeaders(r *http.Request, sr *sigRequest) *authError {
	if !slices.Contains(sr.signedHeaders, "host") {
		return authErr(core.AccessDenied, "The host header must be signed")
	}
	var unsigned []string
	for name := range r.Header {
		lower := strings.ToLower(name)
		if !strings.HasPrefix(lower, "x-amz-") || slices.Contains(sr.signedHeaders, lower) {
			continue
		}
		unsigned = append(unsigned, lower)
	}
	if len(unsigned) > 0 {
		slices.Sort(unsigned)
		e := authErr(core.AccessDenied, "There were headers present in the request which were not signed")
		e.HeadersNotSigned = strings.Join(unsigned, ", ")
		return e
	}
	return nil
}

// canonicalRequest is the SigV4 canonical request of r:
//
//	METHOD \n URI \n QUERY \n HEADERS \n SIGNED-HEADERS \n PAYLOAD-HASH
//
// The URI is the path with each byte outside A-Za-z0-9-._~/ percent-encoded
// once; the query is sorted and encoded the same way (X-Amz-Signature left
// out of a presigned one); each signed header is "name:value\n" with its
// values trimmed, inner spaces collapsed and joined by commas.
func canonicalRequest(r *http.Request, signed []string, payloadHash string, presigned bool) string {
	var b strings.Builder
	b.WriteString(r.Method)
	b.WriteByte('\n')
	b.WriteString(canonicalURI(r.URL.EscapedPath()))
	b.WriteByte('\n')
	b.WriteString(canonicalQuery(r.URL.RawQuery, presigned))
	b.WriteByte('\n')
	for _, name := range signed {
		b.WriteString(name)
		b.WriteByte(':')
		b.WriteString(headerValue(r, name))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(strings.Join(signed, ";"))
	b.WriteByte('\n')
	b.WriteString(payloadHash)
	return b.String()
}

// headerValue is the canonical value of the header name of r.
func headerValue(r *http.Request, name string) string {
	var values []string
	switch name {
	case "host":
		values = []string{r.Host}
	case "content-length":
		values = r.Header.Values(name)
		if len(values) == 0 && r.ContentLength >= 0 {
			values = []string{strconv.FormatInt(r.ContentLength, 10)}
		}
	case "transfer-encoding":
		values = r.TransferEncoding
	default:
		values = r.Header.Values(name)
	}
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = strings.Join(strings.Fields(v), " ")
	}
	return strings.Join(out, ",")
}

// canonicalURI re-encodes an escaped path the SigV4 way, keeping an
// encoded slash (%2F) encoded.
func canonicalURI(escaped string) string {
	if escaped == "" {
		return "/"
	}
	var b strings.Builder
	for i := 0; i < len(escaped); i++ {
		c := escaped[i]
		if c == '%' && i+2 < len(escaped) && isHex(escaped[i+1]) && isHex(escaped[i+2]) {
			n, _ := strconv.ParseUint(escaped[i+1:i+3], 16, 8)
			i += 2
			if byte(n) == '/' {
				b.WriteString("%2F")
				continue
			}
			writeEncoded(&b, byte(n))
			continue
		}
		if c == '/' {
			b.WriteByte(c)
			continue
		}
		writeEncoded(&b, c)
	}
	return b.String()
}

// canonicalQuery sorts and re-encodes a raw query string.
func canonicalQuery(raw string, presigned bool) string {
	type pair struct{ k, v string }
	var pairs []pair
	for _, f := range strings.Split(raw, "&") {
		if f == "" {
			continue
		}
		k, v, _ := strings.Cut(f, "=")
		k, kerr := url.QueryUnescape(k)
		v, verr := url.QueryUnescape(v)
		if kerr != nil || verr != nil {
			k, v, _ = strings.Cut(f, "=")
		}
		if presigned && k == "X-Amz-Signature" {
			continue
		}
		pairs = append(pairs, pair{encode(k), encode(v)})
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if c := strings.Compare(a.k, b.k); c != 0 {
			return c
		}
		return strings.Compare(a.v, b.v)
	})
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p.k + "=" + p.v
	}
	return strings.Join(out, "&")
}

// encode percent-encodes every byte of s outside A-Za-z0-9-._~.
func encode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		writeEncoded(&b, s[i])
	}
	return b.String()
}

func writeEncoded(b *strings.Builder, c byte) {
	if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
		b.WriteByte(c)
		return
	}
	fmt.Fprintf(b, "%%%02X", c)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// stringToSign is "AWS4-HMAC-SHA256\n date \n scope \n hex(sha256(canonical))".
func stringToSign(amzDate, scope, canonical string) string {
	return sigV4Algorithm + "\n" + amzDate + "\n" + scope + "\n" + sha256Hex([]byte(canonical))
}

// signingKey derives the SigV4 key: HMAC chained over the date, region,
// service and "aws4_request", starting from "AWS4"+secret.
func signingKey(secret, date, region, service string) []byte {
	k := hmacSum([]byte("AWS4"+secret), date)
	k = hmacSum(k, region)
	k = hmacSum(k, service)
	return hmacSum(k, "aws4_request")
}

func hmacSum(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

func hmacHex(key []byte, data string) string { return hex.EncodeToString(hmacSum(key, data)) }

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// spacedHex is s as S3 shows it in StringToSignBytes: two hex digits a byte,
// separated by spaces.
func spacedHex(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%02x", s[i])
	}
	return b.String()
}

// verifyChunks reads a signed aws-chunked body whole and checks each
// chunk's signature, chained from the request's (the seed), and the
// trailer's signature when there is one:
//
//	chunk:   AWS4-HMAC-SHA256-PAYLOAD \n date \n scope \n previous \n hex(sha256("")) \n hex(sha256(data))
//	trailer: AWS4-HMAC-SHA256-TRAILER \n date \n scope \n previous \n hex(sha256("name:value\n" ...))
//
// The handler then decodes the verified bytes as usual.
func verifyChunks(r *http.Request, key []byte, sr *sigRequest) *authError {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxStreamingBody+1))
	if err != nil {
		return authErr(codeIncompleteBody, "The signed aws-chunked body could not be read: %v", err)
	}
	if int64(len(raw)) > maxStreamingBody {
		return authErr(codeMaxMessageLengthExceeded, "The signed aws-chunked body is longer than %d bytes.", maxStreamingBody)
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	mismatch := func(what, provided, toSign string) *authError {
		e := authErr(core.SignatureDoesNotMatch, "The %s signature does not match the one calculated from the body and the signing key", what)
		e.AWSAccessKeyID, e.SignatureProvided = sr.accessKey, provided
		e.StringToSign, e.StringToSignBytes = toSign, spacedHex(toSign)
		return e
	}
	malformed := func(format string, args ...any) *authError {
		return authErr(core.InvalidRequest, "malformed signed aws-chunked body: "+format, args...)
	}
	prev, rest := sr.signature, raw
	for n := 1; ; n++ {
		line, after, ok := bytes.Cut(rest, []byte("\r\n"))
		if !ok {
			return malformed("chunk %d has no header line", n)
		}
		sizeText, ext, _ := strings.Cut(string(line), ";")
		sig, hasSig := strings.CutPrefix(ext, "chunk-signature=")
		size, err := strconv.ParseInt(sizeText, 16, 64)
		if err != nil || size < 0 || !hasSig {
			return malformed("chunk %d header %q is not size;chunk-signature=...", n, line)
		}
		if int64(len(after)) < size {
			return malformed("chunk %d is shorter than its size %d", n, size)
		}
		data := after[:size]
		toSign := "AWS4-HMAC-SHA256-PAYLOAD\n" + sr.amzDate + "\n" + sr.scope() + "\n" + prev + "\n" + emptySHA256 + "\n" + sha256Hex(data)
		if want := hmacHex(key, toSign); !hmac.Equal([]byte(want), []byte(sig)) {
			return mismatch(fmt.Sprintf("chunk %d", n), sig, toSign)
		}
		prev, rest = sig, after[size:]
		if size == 0 {
			break
		}
		if !bytes.HasPrefix(rest, []byte("\r\n")) {
			return malformed("chunk %d is longer than its size %d", n, size)
		}
		rest = rest[2:]
	}
	if sr.payloadHash == streamingSigned {
		if len(rest) != 0 && !bytes.Equal(rest, []byte("\r\n")) {
			return malformed("data after the final chunk")
		}
		return nil
	}
	return verifyTrailer(key, sr, prev, rest, mismatch, malformed)
}

// verifyTrailer checks the trailer lines after the final chunk, which end
// with x-amz-trailer-signature and an empty line.
func verifyTrailer(key []byte, sr *sigRequest, prev string, rest []byte, mismatch func(string, string, string) *authError,
	malformed func(string, ...any) *authError) *authError {
	var canonical strings.Builder
	for {
		line, after, ok := bytes.Cut(rest, []byte("\r\n"))
		if !ok {
			return malformed("the trailers are not ended by x-amz-trailer-signature")
		}
		rest = after
		name, value, ok := strings.Cut(string(line), ":")
		if !ok {
			return malformed("bad trailer %q", line)
		}
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
		if name != "x-amz-trailer-signature" {
			canonical.WriteString(name + ":" + value + "\n")
			continue
		}
		toSign := "AWS4-HMAC-SHA256-TRAILER\n" + sr.amzDate + "\n" + sr.scope() + "\n" + prev + "\n" + sha256Hex([]byte(canonical.String()))
		if want := hmacHex(key, toSign); !hmac.Equal([]byte(want), []byte(value)) {
			return mismatch("trailer", value, toSign)
		}
		if len(rest) != 0 && !bytes.Equal(rest, []byte("\r\n")) {
			return malformed("data after the trailer signature")
		}
		return nil
	}
}
