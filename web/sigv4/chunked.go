package sigv4

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"strconv"
	"strings"

	"minis3/core"
)

// maxChunkLine bounds one line of an aws-chunked body: a chunk header with
// its signature, or a trailer.
const maxChunkLine = 4096

// A FramingError is an aws-chunked body that breaks the framing. One that
// ends inside a chunk's data wraps io.ErrUnexpectedEOF.
type FramingError struct {
	Message string
	Err     error
}

func (e *FramingError) Error() string { return e.Message }

func (e *FramingError) Unwrap() error { return e.Err }

// errCutLine is a body that ends inside a line.
var errCutLine = &FramingError{Message: "the body ends inside a line"}

func framing(format string, args ...any) error {
	return &FramingError{Message: fmt.Sprintf(format, args...)}
}

// A ChunkReader reads the data of an aws-chunked body:
//
//	hex-size[;chunk-signature=sig]\r\n data \r\n ... 0[;chunk-signature=sig]\r\n
//	[trailer-name:value\r\n ...] \r\n
//
// as sent with x-amz-content-sha256 STREAMING-UNSIGNED-PAYLOAD-TRAILER
// (unsigned chunks, checksum trailers) or STREAMING-AWS4-HMAC-SHA256-PAYLOAD
// (signed chunks), with or without -TRAILER (signed trailers). Read returns
// io.EOF only after the final chunk and the trailers are read; Trailers
// then holds them.
//
// Of a signed body (a Signature whose SignedChunks is true), each chunk
// must carry its signature, chained from the request's (the seed), which
// is checked once its data is read, and the trailers end with theirs:
//
//	chunk:   AWS4-HMAC-SHA256-PAYLOAD \n date \n scope \n previous \n hex(sha256("")) \n hex(sha256(data))
//	trailer: AWS4-HMAC-SHA256-TRAILER \n date \n scope \n previous \n hex(sha256("name:value\n" ...))
//
// and nothing may follow the body. A signature that does not match is an
// *Error (SignatureDoesNotMatch); broken framing is a *FramingError. Of an
// unsigned body, signatures are not read, and the body may end after any
// chunk or after the trailers.
type ChunkReader struct {
	r        *bufio.Reader
	sig      *Signature // nil: unsigned
	Trailers http.Header

	n       int       // the chunk being read, from 1
	left    int64     // bytes left in its data
	size    int64     // its size
	chunk   string    // its signature
	data    hash.Hash // the SHA-256 of its data so far (signed)
	prev    string    // the previous signature in the chain
	started bool
	done    bool
	err     error
}

// NewChunkReader reads the aws-chunked body r; sig is the request's
// Signature when its chunks are signed, or nil.
func NewChunkReader(r io.Reader, sig *Signature) *ChunkReader {
	c := &ChunkReader{r: bufio.NewReader(r), Trailers: make(http.Header)}
	if sig != nil && sig.SignedChunks() {
		c.sig, c.prev, c.data = sig, sig.signature, sha256.New()
	}
	return c
}

func (c *ChunkReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.done {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	for c.left == 0 {
		if err := c.nextChunk(); err != nil {
			c.err = err
			return 0, err
		}
		if c.done {
			return 0, io.EOF
		}
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.sig != nil {
		c.data.Write(p[:n])
	}
	if err == io.EOF {
		err = &FramingError{Message: fmt.Sprintf("chunk %d is shorter than its size %d", c.n, c.size), Err: io.ErrUnexpectedEOF}
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

// nextChunk ends the current chunk and reads the next chunk's header;
// after the final, empty chunk it reads the trailers and sets done.
func (c *ChunkReader) nextChunk() error {
	if c.started {
		if err := c.verifyChunk(); err != nil {
			return err
		}
		line, err := c.line()
		switch {
		case err == io.EOF && c.sig == nil:
			return io.EOF // an unsigned body may end after any chunk's data
		case err != nil || line != "":
			return framing("chunk %d is longer than its size %d", c.n, c.size)
		}
	}
	c.started = true
	c.n++
	line, err := c.line()
	switch {
	case err == io.EOF && c.sig == nil:
		return io.EOF
	case err == io.EOF || err == errCutLine:
		return framing("chunk %d has no header line", c.n)
	case err != nil:
		return err
	}
	if err := c.readHeader(line); err != nil {
		return err
	}
	if c.size > 0 {
		c.left = c.size
		return nil
	}
	if err := c.verifyChunk(); err != nil {
		return err
	}
	if err := c.readTrailers(); err != nil {
		return err
	}
	c.done = true
	return nil
}

// readHeader reads a chunk header: its size, and its signature when the
// body is signed.
func (c *ChunkReader) readHeader(line string) error {
	sizeText, ext, _ := strings.Cut(line, ";")
	size, err := strconv.ParseInt(strings.TrimSpace(sizeText), 16, 64)
	if c.sig == nil {
		if err != nil || size < 0 {
			return framing("chunk %d header %q has no size", c.n, line)
		}
		c.size = size
		return nil
	}
	sig, hasSig := strings.CutPrefix(ext, "chunk-signature=")
	if err != nil || size < 0 || !hasSig {
		return framing("chunk %d header %q is not size;chunk-signature=...", c.n, line)
	}
	c.size, c.chunk = size, sig
	c.data.Reset()
	return nil
}

// verifyChunk checks the signature of the chunk whose data was read.
func (c *ChunkReader) verifyChunk() error {
	if c.sig == nil {
		return nil
	}
	toSign := "AWS4-HMAC-SHA256-PAYLOAD\n" + c.sig.amzDate + "\n" + c.sig.scope() + "\n" + c.prev + "\n" +
		emptySHA256 + "\n" + hex.EncodeToString(c.data.Sum(nil))
	if err := c.check(fmt.Sprintf("chunk %d", c.n), c.chunk, toSign); err != nil {
		return err
	}
	c.prev = c.chunk
	return nil
}

// check compares the signature provided for what with the one of toSign.
func (c *ChunkReader) check(what, provided, toSign string) error {
	if want := hmacHex(c.sig.key, toSign); hmac.Equal([]byte(want), []byte(provided)) {
		return nil
	}
	e := newError(core.SignatureDoesNotMatch, "The %s signature does not match the one calculated from the body and the signing key", what)
	e.AWSAccessKeyID, e.SignatureProvided = c.sig.accessKey, provided
	e.StringToSign, e.StringToSignBytes = toSign, spacedHex(toSign)
	return e
}

// readTrailers reads the lines after the final chunk, up to an empty line
// or the end of the body. A signed body without trailers must end there;
// one with trailers must end them with x-amz-trailer-signature, and then
// end.
func (c *ChunkReader) readTrailers() error {
	if c.sig != nil && c.sig.payloadHash == StreamingSigned {
		return c.end("data after the final chunk")
	}
	var canonical strings.Builder
	for {
		line, err := c.line()
		switch {
		case c.sig != nil && (err == io.EOF || err == errCutLine || err == nil && line == ""):
			return framing("the trailers are not ended by x-amz-trailer-signature")
		case err == io.EOF || err == nil && line == "":
			return nil
		case err != nil:
			return err
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return framing("bad trailer %q", line)
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if c.sig != nil && strings.EqualFold(name, "x-amz-trailer-signature") {
			toSign := "AWS4-HMAC-SHA256-TRAILER\n" + c.sig.amzDate + "\n" + c.sig.scope() + "\n" + c.prev + "\n" +
				sha256Hex([]byte(canonical.String()))
			if err := c.check("trailer", value, toSign); err != nil {
				return err
			}
			return c.end("data after the trailer signature")
		}
		c.Trailers.Add(name, value)
		canonical.WriteString(strings.ToLower(name) + ":" + value + "\n")
	}
}

// end requires a signed body to end here, or after one empty line.
func (c *ChunkReader) end(what string) error {
	rest, err := io.ReadAll(io.LimitReader(c.r, 3))
	if err != nil {
		return err
	}
	if len(rest) != 0 && string(rest) != "\r\n" {
		return framing("%s", what)
	}
	return nil
}

// line reads one CRLF-terminated line without its terminator. It returns
// io.EOF only when the body ends before the line starts.
func (c *ChunkReader) line() (string, error) {
	var b strings.Builder
	for {
		frag, err := c.r.ReadSlice('\n')
		b.Write(frag)
		if b.Len() > maxChunkLine {
			return "", framing("line longer than %d bytes", maxChunkLine)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && b.Len() == 0:
			return "", io.EOF
		case err == io.EOF:
			return "", errCutLine
		case err != nil:
			return "", err
		}
		s := b.String()
		if !strings.HasSuffix(s, "\r\n") {
			return "", framing("line not ended by CRLF")
		}
		return strings.TrimSuffix(s, "\r\n"), nil
	}
}
