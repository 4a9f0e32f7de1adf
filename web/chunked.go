package web

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// maxChunkLine bounds one line of an aws-chunked body: a chunk header with
// its signature, or a trailer.
const maxChunkLine = 4096

// errMalformedChunk reports an aws-chunked body that breaks the framing.
var errMalformedChunk = errors.New("malformed aws-chunked body")

// chunkedReader decodes an aws-chunked body:
//
//	hex-size[;chunk-signature=sig]\r\n data \r\n ... 0[;chunk-signature=sig]\r\n
//	[trailer-name:value\r\n ...] \r\n
//
// as sent with x-amz-content-sha256 STREAMING-AWS4-HMAC-SHA256-PAYLOAD
// (signed chunks, no trailers) or STREAMING-UNSIGNED-PAYLOAD-TRAILER
// (unsigned chunks, checksum trailers). Signatures are not verified. Read
// returns io.EOF only after the final chunk and the trailers are read;
// Trailers then holds them.
type chunkedReader struct {
	r        *bufio.Reader
	left     int64 // bytes left in the current chunk
	started  bool
	done     bool
	err      error
	Trailers http.Header
}

func newChunkedReader(r io.Reader) *chunkedReader {
	return &chunkedReader{r: bufio.NewReader(r), Trailers: make(http.Header)}
}

func (c *chunkedReader) Read(p []byte) (int, error) {
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
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

// nextChunk ends the current chunk and reads the next chunk header; after
// the final, empty chunk it reads the trailers and sets done.
func (c *chunkedReader) nextChunk() error {
	if c.started {
		line, err := c.line()
		if err != nil {
			return err
		}
		if line != "" {
			return fmt.Errorf("%w: chunk data longer than its size", errMalformedChunk)
		}
	}
	c.started = true
	line, err := c.line()
	if err != nil {
		return err
	}
	sizeText, _, _ := strings.Cut(line, ";")
	size, err := strconv.ParseInt(strings.TrimSpace(sizeText), 16, 64)
	if err != nil || size < 0 {
		return fmt.Errorf("%w: bad chunk size %q", errMalformedChunk, sizeText)
	}
	if size > 0 {
		c.left = size
		return nil
	}
	for {
		line, err := c.line()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return fmt.Errorf("%w: bad trailer %q", errMalformedChunk, line)
		}
		c.Trailers.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	c.done = true
	return nil
}

// line reads one CRLF-terminated line without its terminator. It returns
// io.EOF only when the body ends before the line starts.
func (c *chunkedReader) line() (string, error) {
	var b strings.Builder
	for {
		frag, err := c.r.ReadSlice('\n')
		b.Write(frag)
		if b.Len() > maxChunkLine {
			return "", fmt.Errorf("%w: line longer than %d bytes", errMalformedChunk, maxChunkLine)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && b.Len() == 0:
			return "", io.EOF
		case err == io.EOF:
			return "", fmt.Errorf("%w: body ends inside a line", errMalformedChunk)
		case err != nil:
			return "", err
		}
		s := b.String()
		if !strings.HasSuffix(s, "\r\n") {
			return "", fmt.Errorf("%w: line not ended by CRLF", errMalformedChunk)
		}
		return strings.TrimSuffix(s, "\r\n"), nil
	}
}
