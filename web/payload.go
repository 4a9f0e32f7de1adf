package web

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"hash/crc32"
	"hash/crc64"
	"io"
	"net/http"
	"strconv"
	"strings"

	"minis3/core"
	"minis3/web/sigv4"
)

// tooLargeFunc builds the error for a body of size bytes over the limit.
type tooLargeFunc func(size, limit int64) error

func entityTooLarge(size, limit int64) error {
	e := newS3Error(core.EntityTooLarge, "")
	e.ProposedSize, e.MaxSizeAllowed = size, limit
	return e
}

func messageTooLong(size, limit int64) error {
	return newS3Error(codeMaxMessageLengthExceeded, "Your request was too big: at most %d bytes are accepted here.", limit)
}

// isAWSChunked reports whether the request body is aws-chunked framing.
func isAWSChunked(r *http.Request) bool {
	if strings.HasPrefix(get(r.Header, "X-Amz-Content-Sha256"), "STREAMING-") {
		return true
	}
	for enc := range strings.SplitSeq(get(r.Header, "Content-Encoding"), ",") {
		if strings.TrimSpace(enc) == "aws-chunked" {
			return true
		}
	}
	return false
}

func contentEncodings(v string) []string {
	var out []string
	for e := range strings.SplitSeq(v, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// storedContentEncoding is the Content-Encoding S3 keeps: the header
// without the aws-chunked transfer framing.
func storedContentEncoding(v string) string {
	var out []string
	for _, e := range contentEncodings(v) {
		if e != "aws-chunked" {
			out = append(out, e)
		}
	}
	return strings.Join(out, ",")
}

// readPayload reads the request body, decoding aws-chunked framing, and
// checks it against the Content-MD5, x-amz-checksum-* (header or trailer)
// and x-amz-content-sha256 the client sent. A body over limit is refused
// with tooLarge before it is read whole.
func readPayload(r *http.Request, limit int64, tooLarge tooLargeFunc) ([]byte, error) {
	data, _, err := readObjectPayload(r, limit, tooLarge)
	return data, err
}

// readObjectPayload is readPayload that also returns the x-amz-checksum-*
// values the request carried, in a header or a trailer, each verified:
// PutObject and UploadPart answer with them, as S3 does.
func readObjectPayload(r *http.Request, limit int64, tooLarge tooLargeFunc) ([]byte, []checksum, error) {
	var (
		data     []byte
		trailers http.Header
		err      error
	)
	if isAWSChunked(r) {
		data, trailers, err = readChunked(r, limit, tooLarge)
	} else {
		data, err = readPlain(r, limit, tooLarge)
	}
	if err != nil {
		return nil, nil, err
	}
	sums, err := verifyChecksums(r.Header, trailers, data)
	if err != nil {
		return nil, nil, err
	}
	return data, sums, nil
}

// checksum is one x-amz-checksum-* header and its value.
type checksum struct{ header, value string }

// echoChecksums puts the request's checksums on the response.
func echoChecksums(w http.ResponseWriter, sums []checksum) {
	for _, c := range sums {
		w.Header().Set(c.header, c.value)
	}
}

func readPlain(r *http.Request, limit int64, tooLarge tooLargeFunc) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, tooLarge(r.ContentLength, limit)
	}
	if r.ContentLength > 0 {
		// The usual case: the size is known, so the body is read into one
		// buffer of that size instead of a growing one. net/http ends the
		// body at Content-Length, and reports a shorter one as an error.
		data := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, data); err != nil {
			return nil, incompleteBody(err)
		}
		return data, nil
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, incompleteBody(err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(int64(len(data)), limit)
	}
	return data, nil
}

func readChunked(r *http.Request, limit int64, tooLarge tooLargeFunc) ([]byte, http.Header, error) {
	decl := r.Header.Get("X-Amz-Decoded-Content-Length")
	if decl == "" {
		return nil, nil, newS3Error(codeMissingContentLength, "You must provide the x-amz-decoded-content-length header with an aws-chunked body.")
	}
	size, err := strconv.ParseInt(decl, 10, 64)
	if err != nil || size < 0 {
		return nil, nil, invalidArgument("x-amz-decoded-content-length", decl, "x-amz-decoded-content-length must be a byte count")
	}
	if size > limit {
		return nil, nil, tooLarge(size, limit)
	}
	cr := sigv4.NewChunkReader(r.Body, nil)
	data, err := io.ReadAll(io.LimitReader(cr, size+1))
	if err == nil && int64(len(data)) == size {
		// Read past the data so the final chunk and the trailers are parsed.
		var extra int64
		extra, err = io.Copy(io.Discard, cr)
		if extra > 0 {
			err = errors.New("more data than x-amz-decoded-content-length")
		}
	}
	var framing *sigv4.FramingError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, nil, incompleteBody(io.ErrUnexpectedEOF)
	case errors.As(err, &framing):
		return nil, nil, newS3Error(core.InvalidRequest, "malformed aws-chunked body: %v", err)
	case err != nil:
		return nil, nil, incompleteBody(err)
	}
	if int64(len(data)) != size {
		return nil, nil, newS3Error(codeIncompleteBody, "The aws-chunked body holds %d bytes, not the %d of x-amz-decoded-content-length.", len(data), size)
	}
	return data, cr.Trailers, nil
}

func incompleteBody(err error) error {
	return newS3Error(codeIncompleteBody, "You did not provide the number of bytes specified by the Content-Length HTTP header: %v", err)
}

// crc64NVME is the table of CRC-64/NVME (polynomial 0xad93d23594c935a9,
// reflected, initial value and final XOR all ones), S3's CRC64NVME and the
// default checksum of recent AWS CLIs.
var crc64NVME = crc64.MakeTable(0x9a6c9329ac4bc9b5)

// checksumAlgorithms are the x-amz-checksum-* algorithms MiniS3 verifies,
// with S3's names for them in error messages.
var checksumAlgorithms = []struct {
	header, name string
	new          func() hash.Hash
}{
	{"X-Amz-Checksum-Crc32", "CRC32", func() hash.Hash { return crc32.NewIEEE() }},
	{"X-Amz-Checksum-Crc32c", "CRC32C", func() hash.Hash { return crc32.New(crc32.MakeTable(crc32.Castagnoli)) }},
	{"X-Amz-Checksum-Crc64nvme", "CRC64NVME", func() hash.Hash { return crc64.New(crc64NVME) }},
	{"X-Amz-Checksum-Sha1", "SHA1", sha1.New},
	{"X-Amz-Checksum-Sha256", "SHA256", sha256.New},
}

// verifyChecksums checks every digest and checksum the request carried and
// returns the x-amz-checksum-* ones, verified.
func verifyChecksums(hdr, trailers http.Header, data []byte) ([]checksum, error) {
	if v := get(hdr, "Content-Md5"); v != "" {
		want, err := base64.StdEncoding.DecodeString(v)
		if err != nil || len(want) != md5.Size {
			return nil, newS3Error(codeInvalidDigest, "The Content-MD5 you specified was invalid.")
		}
		if got := md5.Sum(data); !bytes.Equal(got[:], want) {
			return nil, newS3Error(codeBadDigest, "The Content-MD5 you specified did not match what we received.")
		}
	}
	var sums []checksum
	for _, alg := range checksumAlgorithms {
		v := get(hdr, alg.header)
		if v == "" && trailers != nil {
			v = get(trailers, alg.header)
		}
		if v == "" {
			continue
		}
		h := alg.new()
		h.Write(data)
		if base64.StdEncoding.EncodeToString(h.Sum(nil)) != v {
			return nil, newS3Error(codeBadDigest, "The %s you specified did not match the calculated checksum.", alg.name)
		}
		sums = append(sums, checksum{alg.header, v})
	}
	if v := get(hdr, "X-Amz-Content-Sha256"); len(v) == sha256.Size*2 {
		want, err := hex.DecodeString(v)
		if err == nil {
			if got := sha256.Sum256(data); !bytes.Equal(got[:], want) {
				return nil, newS3Error(codeXAmzContentSHA256Mismatch, "The provided 'x-amz-content-sha256' header does not match what was computed.")
			}
		}
	}
	return sums, nil
}

// crc32Base64 is the x-amz-checksum-crc32 value of data: the big-endian
// CRC32 (IEEE), base64-encoded.
func crc32Base64(data []byte) string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc32.ChecksumIEEE(data))
	return base64.StdEncoding.EncodeToString(b[:])
}
