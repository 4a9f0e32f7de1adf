package sigv4

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

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

// stringToSign is "AWS4-HMAC-SHA256\n date \n scope \n hex(sha256(canonical))".
func stringToSign(amzDate, scope, canonical string) string {
	return Algorithm + "\n" + amzDate + "\n" + scope + "\n" + sha256Hex([]byte(canonical))
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
