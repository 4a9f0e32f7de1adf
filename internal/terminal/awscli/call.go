package awscli

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"hash"
	"hash/crc32"
	"net/http"
	"strconv"
	"strings"
	"unicode"
)

// Endpoint is where the requests go, as the HTTP view shows them: the
// aws CLI pointed at MiniS3 with --endpoint-url, path-style.
const Endpoint = "http://localhost:9000"

// client is botocore's S3 client: it makes each call's request, sends it
// to the S3 handler and reads the answer.
type client struct {
	env *Env
}

// clientError is botocore's ClientError.
func clientError(code, message, operation string) error {
	return &cliError{"An error occurred (" + code + ") when calling the " + operation + " operation: " + message}
}

// validBucket is botocore's ^[a-zA-Z0-9.\-_]{1,255}$.
func validBucket(s string) bool {
	if len(s) < 1 || len(s) > 255 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// validS3ARN is botocore's pattern of an access point ARN, of S3 or of an
// Outpost, which the CLI takes where a bucket name goes.
func validS3ARN(s string) bool {
	rest, ok := strings.CutPrefix(s, "arn:aws")
	if !ok {
		return false
	}
	charsIn := func(t, set string, lo, hi int) bool {
		if len(t) < lo || len(t) > hi {
			return false
		}
		for _, c := range t {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune(set, c)) {
				return false
			}
		}
		return true
	}
	account := func(t string) bool { return len(t) == 12 && strings.Trim(t, "0123456789") == "" }
	for i := 0; i < len(rest); i++ {
		for _, service := range []string{":s3:", ":s3-object-lambda:", ":s3-outposts:"} {
			tail, ok := strings.CutPrefix(rest[i:], service)
			if !ok {
				continue
			}
			parts := strings.SplitN(tail, ":", 3)
			if len(parts) != 3 || !account(parts[1]) {
				continue
			}
			region, resource := parts[0], parts[2]
			if service != ":s3-outposts:" {
				name, ok := strings.CutPrefix(resource, "accesspoint")
				if ok && charsIn(region, "-", 0, 1<<30) && len(name) > 1 && (name[0] == '/' || name[0] == ':') &&
					charsIn(strings.ToLower(name[1:]), "-.", 1, 63) {
					return true
				}
				continue
			}
			outpost, ok := strings.CutPrefix(resource, "outpost")
			if !ok || !charsIn(region, "-", 1, 1<<30) || len(outpost) < 2 {
				continue
			}
			segs := strings.FieldsFunc(outpost, func(r rune) bool { return r == '/' || r == ':' })
			if len(segs) == 3 && segs[1] == "accesspoint" && charsIn(strings.ToLower(segs[0]), "-", 1, 63) && charsIn(strings.ToLower(segs[2]), "-", 1, 63) {
				return true
			}
		}
	}
	return false
}

// versionIDSuffix is where botocore's \?versionId=[^\s]+$ matches in a
// copy source, or -1.
func versionIDSuffix(s string) int {
	for i := strings.Index(s, "?versionId="); i >= 0; {
		rest := s[i+len("?versionId="):]
		if rest != "" && !strings.ContainsFunc(rest, unicode.IsSpace) {
			return i
		}
		next := strings.Index(s[i+1:], "?versionId=")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return -1
}

// call makes one API call: botocore's handlers before the parameters are
// checked, the check, the request, the answer. outfile, when set, gets a
// streaming body.
func (cl *client) call(op *Operation, in *Dict, outfile string) (*Dict, error) {
	params := NewDict()
	for _, k := range in.Keys() {
		v, _ := in.Get(k)
		params.Set(k, v)
	}
	encodingAutoSet, err := beforeParameterBuild(op, params)
	if err != nil {
		return nil, err
	}
	if op.Input != nil {
		if err := validate(params, op.Input.Shape); err != nil {
			return nil, err
		}
	}
	req, err := serialize(op, params)
	if err != nil {
		return nil, err
	}
	if err := beforeCall(op, params, req); err != nil {
		return nil, err
	}
	resp := cl.send(req)
	if resp.status >= 300 {
		code, message := parseError(resp)
		return nil, clientError(code, message, op.Name)
	}
	if err := validateResponseChecksum(op, params, resp); err != nil {
		return nil, err
	}
	parsed, err := parseResponse(resp, op.Output)
	if err != nil {
		return nil, err
	}
	if encodingAutoSet {
		decodeListKeys(op.Name, parsed)
	}
	if outfile != "" && op.Output != nil {
		if body, ok := parsed.Get(op.Output.Shape.Payload); ok {
			data, _ := body.([]byte)
			if err := cl.env.Files.WriteFile(outfile, data); err != nil {
				return nil, &cliError{osErrorText(err, outfile)}
			}
			parsed.Delete(op.Output.Shape.Payload)
		}
	}
	return parsed, nil
}

// beforeParameterBuild runs botocore's S3 handlers of that event, in
// their order. It reports whether it asked for URL-encoded keys.
func beforeParameterBuild(op *Operation, params *Dict) (encodingAutoSet bool, err error) {
	if c := op.Checksum; c != nil && c.ValidationMember != "" {
		if _, ok := params.Get(c.ValidationMember); !ok {
			params.Set(c.ValidationMember, "ENABLED")
		}
	}
	if b, ok := params.Get("Bucket"); ok {
		if s, isStr := b.(string); isStr && !validBucket(s) && !validS3ARN(s) {
			return false, paramValidationError(`Invalid bucket name "` + s + `": Bucket name must match the regex "^[a-zA-Z0-9.\-_]{1,255}$" or be an ARN matching the regex "^arn:(aws).*:(s3|s3-object-lambda):[a-z\-0-9]*:[0-9]{12}:accesspoint[/:][a-zA-Z0-9\-.]{1,63}$|^arn:(aws).*:s3-outposts:[a-z\-0-9]+:[0-9]{12}:outpost[/:][a-zA-Z0-9\-]{1,63}[/:]accesspoint[/:][a-zA-Z0-9\-]{1,63}$"`)
		}
	}
	switch op.Name {
	case "ListObjects", "ListObjectsV2", "ListObjectVersions":
		if _, ok := params.Get("EncodingType"); !ok {
			params.Set("EncodingType", "url")
			encodingAutoSet = true
		}
	case "CopyObject", "UploadPartCopy":
		if src, ok := params.Get("CopySource"); ok {
			switch src := src.(type) {
			case string:
				if at := versionIDSuffix(src); at >= 0 {
					params.Set("CopySource", percentEncode(src[:at], "/")+src[at:])
				} else {
					params.Set("CopySource", percentEncode(src, "/"))
				}
			case *Dict:
				bucket, okB := src.Get("Bucket")
				key, okK := src.Get("Key")
				if !okB || !okK {
					missing := "'Bucket'"
					if okB {
						missing = "'Key'"
					}
					return false, paramValidationError("Missing required parameter: " + missing)
				}
				final := percentEncode(pyStr(bucket)+"/"+pyStr(key), "/")
				if v, ok := src.Get("VersionId"); ok && v != nil {
					final += "?versionId=" + pyStr(v)
				}
				params.Set("CopySource", final)
			}
		}
	}
	switch op.Name {
	case "CopyObject", "PutObject", "CreateMultipartUpload":
		if md, ok := params.Get("Metadata"); ok {
			if d, isDict := md.(*Dict); isDict {
				for _, k := range d.Keys() {
					v, _ := d.Get(k)
					s, _ := v.(string)
					if !isASCII(k) || !isASCII(s) {
						return false, paramValidationError(`Non ascii characters found in S3 metadata for key "` + k + `", value: "` + pyStrValue(v) + "\".  \nS3 metadata can only contain ASCII characters. ")
					}
				}
			}
		}
	}
	for _, prefix := range []string{"SSECustomer", "CopySourceSSECustomer"} {
		key, ok := params.Get(prefix + "Key")
		if !ok {
			continue
		}
		if _, set := params.Get(prefix + "KeyMD5"); set {
			continue
		}
		raw := []byte(textOf(key))
		sum := md5.Sum(raw)
		params.Set(prefix+"Key", base64.StdEncoding.EncodeToString(raw))
		params.Set(prefix+"KeyMD5", base64.StdEncoding.EncodeToString(sum[:]))
	}
	return encodingAutoSet, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// beforeCall adds what botocore adds to a made request: Expect on a body
// to stream, escaped line ends in two XML bodies, the request checksum.
func beforeCall(op *Operation, params *Dict, req *request) error {
	if op.Input != nil && op.Input.Shape.Payload != "" && (op.Method == "PUT" || op.Method == "POST") {
		if m := op.Input.Shape.member(op.Input.Shape.Payload); m.traits().Streaming {
			req.setHeader("Expect", "100-continue")
		}
	}
	if op.Name == "DeleteObjects" || op.Name == "PutBucketLifecycleConfiguration" {
		req.body = bytes.ReplaceAll(bytes.ReplaceAll(req.body, []byte("\r"), []byte("&#xD;")), []byte("\n"), []byte("&#xA;"))
	}
	return requestChecksum(op, params, req)
}

// requestChecksum adds the flexible checksum botocore computes: CRC32
// unless the call names another algorithm, for operations that support
// one.
func requestChecksum(op *Operation, params *Dict, req *request) error {
	c := op.Checksum
	if c == nil {
		return nil
	}
	for _, h := range req.header {
		if strings.HasPrefix(strings.ToLower(h[0]), "x-amz-checksum-") {
			return nil
		}
	}
	algorithm := ""
	algorithmHeader := ""
	if c.AlgorithmMember != "" {
		if v, ok := params.Get(c.AlgorithmMember); ok {
			algorithm = strings.ToLower(pyStr(v))
			switch algorithm {
			case "crc32", "sha1", "sha256", "sha512":
			case "crc32c", "crc64nvme", "xxhash64", "xxhash3", "xxhash128":
				return &cliError{"Using " + strings.ToUpper(algorithm) + " requires an additional dependency. You will need to pip install botocore[crt] before proceeding."}
			default:
				return &cliError{"Unsupported checksum algorithm: " + algorithm}
			}
		}
	}
	if algorithm == "" {
		if !c.Required && c.AlgorithmMember == "" {
			return nil
		}
		algorithm = "crc32"
		if c.AlgorithmMember != "" {
			algorithmHeader = op.Input.Shape.member(c.AlgorithmMember).traits().LocationName
		}
	}
	req.setHeader("x-amz-checksum-"+algorithm, checksum(algorithm, req.body))
	if algorithmHeader != "" {
		req.setHeader(algorithmHeader, "CRC32")
	}
	return nil
}

// checksum is the base64 of a body's checksum.
func checksum(algorithm string, body []byte) string {
	var h hash.Hash
	switch algorithm {
	case "crc32":
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], crc32.ChecksumIEEE(body))
		return base64.StdEncoding.EncodeToString(b[:])
	case "sha1":
		h = sha1.New()
	case "sha256":
		h = sha256.New()
	default:
		h = sha512.New()
	}
	h.Write(body)
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// validateResponseChecksum checks a body against the checksum the answer
// carries, when the call asked for it (GetObject).
func validateResponseChecksum(op *Operation, params *Dict, resp *response) error {
	c := op.Checksum
	if c == nil || c.ValidationMember == "" {
		return nil
	}
	if _, ok := params.Get(c.ValidationMember); !ok {
		return nil
	}
	for _, algorithm := range []string{"crc32", "sha1", "sha256", "sha512"} {
		expected, ok := resp.get("x-amz-checksum-" + algorithm)
		if !ok || strings.Contains(expected, "-") {
			continue
		}
		if got := checksum(algorithm, resp.body); got != expected {
			return &cliError{"Expected checksum " + expected + " did not match calculated checksum: " + got}
		}
		return nil
	}
	return nil
}

// decodeListKeys URL-decodes the keys of a listing the client asked to
// be URL-encoded.
func decodeListKeys(operation string, parsed *Dict) {
	if e, _ := parsed.Get("EncodingType"); e != "url" {
		return
	}
	top := map[string][]string{
		"ListObjects":        {"Delimiter", "Marker", "NextMarker"},
		"ListObjectsV2":      {"Delimiter", "Prefix", "StartAfter"},
		"ListObjectVersions": {"KeyMarker", "NextKeyMarker", "Prefix", "Delimiter"},
	}[operation]
	nested := map[string][][2]string{
		"ListObjects":        {{"Contents", "Key"}, {"CommonPrefixes", "Prefix"}},
		"ListObjectsV2":      {{"Contents", "Key"}, {"CommonPrefixes", "Prefix"}},
		"ListObjectVersions": {{"Versions", "Key"}, {"DeleteMarkers", "Key"}, {"CommonPrefixes", "Prefix"}},
	}[operation]
	for _, k := range top {
		if v, ok := parsed.Get(k); ok {
			parsed.Set(k, unquotePlus(pyStr(v)))
		}
	}
	for _, n := range nested {
		list, _ := parsed.Get(n[0])
		items, _ := list.([]any)
		for _, item := range items {
			if d, ok := item.(*Dict); ok {
				v, _ := d.Get(n[1])
				d.Set(n[1], unquotePlus(pyStr(v)))
			}
		}
	}
}

// send hands the request to the S3 handler and records the exchange.
func (cl *client) send(req *request) *response {
	header := http.Header{}
	header.Set("User-Agent", "aws-cli/1.45.11 md/Botocore#1.43.11 MiniS3/terminal botocore/1.43.11")
	for _, h := range req.header {
		header.Set(h[0], h[1])
	}
	e := Do(cl.env.S3, req.method, req.target(), header, req.body)
	if cl.env.Exchange != nil {
		cl.env.Exchange(e)
	}
	return &response{status: e.Status, header: headerList(e.ResponseHeader), body: e.ResponseBody}
}

// Do sends one request to h, as over HTTP: its body's length in
// Content-Length, and what Go's HTTP server adds to the answer.
func Do(h http.Handler, method, target string, header http.Header, body []byte) Exchange {
	e := Exchange{Method: method, Target: target, RequestHeader: header, RequestBody: body}
	hr, err := http.NewRequest(method, Endpoint+target, bytes.NewReader(body))
	if err != nil {
		e.Status = http.StatusBadRequest
		e.ResponseHeader = http.Header{}
		return e
	}
	hr.Header = header.Clone()
	hr.ContentLength = int64(len(body))
	if body != nil {
		header.Set("Content-Length", strconv.Itoa(len(body)))
		hr.Header.Set("Content-Length", strconv.Itoa(len(body)))
	}
	hr.RequestURI = target
	rec := newRecorder()
	h.ServeHTTP(rec, hr)
	rec.finish(method)
	e.Status, e.ResponseHeader, e.ResponseBody = rec.status, rec.header, rec.body.Bytes()
	if method == http.MethodHead {
		e.ResponseBody = nil
	}
	return e
}

// recorder is an http.ResponseWriter that keeps the answer.
type recorder struct {
	header  http.Header
	status  int
	body    bytes.Buffer
	written bool
}

func newRecorder() *recorder { return &recorder{header: http.Header{}, status: http.StatusOK} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.written {
		r.status, r.written = status, true
	}
}

// finish adds what Go's HTTP server adds to an answer the handler left
// without them: its length, and its type sniffed from its first bytes.
func (r *recorder) finish(method string) {
	if r.status < 200 || r.status == http.StatusNoContent || r.status == http.StatusNotModified {
		return
	}
	if r.header.Get("Content-Type") == "" && r.body.Len() > 0 {
		r.header.Set("Content-Type", http.DetectContentType(r.body.Bytes()))
	}
	if r.header.Get("Content-Length") == "" && method != http.MethodHead {
		r.header.Set("Content-Length", strconv.Itoa(r.body.Len()))
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
