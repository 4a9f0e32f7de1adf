package web_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"minis3/core"
	"minis3/web"
)

// TestSDKStreamingUploadsStoreExactBytes checks that PutObject and
// UploadPart through the SDK over HTTPS, which stream the body as
// aws-chunked with a CRC32 trailer, store exactly the bytes sent.
func TestSDKStreamingUploadsStoreExactBytes(t *testing.T) {
	store, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true, MinPartSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var mu sync.Mutex
	var seen []string
	h := web.NewHandler(store, web.Options{})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "PUT" {
			mu.Lock()
			seen = append(seen, r.Header.Get("x-amz-content-sha256")+" "+r.Header.Get("x-amz-trailer"))
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	client := newClient(srv.URL, srv.Client())
	if err := store.CreateBucket("demo"); err != nil {
		t.Fatal(err)
	}
	large := make([]byte, 200_000)
	for i := range large {
		large[i] = byte(i * 7)
	}
	bodies := map[string][]byte{
		"framing-lookalike": []byte("5\r\nabcde\r\n0\r\n\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n"),
		"large-binary":      large,
		"one-byte":          {0},
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			if _, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("demo"), Key: &name, Body: bytes.NewReader(body)}); err != nil {
				t.Fatal(err)
			}
			obj, err := store.GetObject("demo", name, core.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(obj.Body, body) || obj.Version.ETag != md5hex(body) {
				t.Errorf("stored %d bytes (ETag %s), sent %d (MD5 %s)", len(obj.Body), obj.Version.ETag, len(body), md5hex(body))
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 1 || seen[0] != "STREAMING-UNSIGNED-PAYLOAD-TRAILER x-amz-checksum-crc32" {
				t.Errorf("the SDK sent %q; this test means to exercise aws-chunked with a trailer", seen)
			}
		})
	}
	t.Run("an upload part", func(t *testing.T) {
		up, err := client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String("demo"), Key: aws.String("mp")})
		if err != nil {
			t.Fatal(err)
		}
		out, err := client.UploadPart(ctx, &s3.UploadPartInput{Bucket: aws.String("demo"), Key: aws.String("mp"), UploadId: up.UploadId,
			PartNumber: aws.Int32(1), Body: bytes.NewReader(large)})
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(out.ETag) != `"`+md5hex(large)+`"` {
			t.Errorf("part ETag %s, want the MD5 of the part", aws.ToString(out.ETag))
		}
	})
}

func crc32Base64(data []byte) string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc32.ChecksumIEEE(data))
	return base64.StdEncoding.EncodeToString(b[:])
}

// chunk frames data as one aws-chunked chunk, with a chunk signature
// extension when sig is set.
func chunk(data, sig string) string {
	ext := ""
	if sig != "" {
		ext = ";chunk-signature=" + sig
	}
	return fmt.Sprintf("%x%s\r\n%s\r\n", len(data), ext, data)
}

func TestAWSChunkedBodies(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	sig := strings.Repeat("ab", 32)
	signed := map[string]string{"x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", "Content-Encoding": "aws-chunked", "x-amz-decoded-content-length": "11"}
	trailer := func(crc string) map[string]string {
		return map[string]string{"x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER", "Content-Encoding": "aws-chunked,br",
			"x-amz-decoded-content-length": "11", "x-amz-trailer": "x-amz-checksum-crc32"}
	}
	good := crc32Base64([]byte("hello world"))
	tests := []struct {
		name, body string
		header     map[string]string
		status     int
		code       string
	}{
		{"signed chunks", chunk("hello ", sig) + chunk("world", sig) + chunk("", sig) + "\r\n", signed, 200, ""},
		{"unsigned chunks with a checksum trailer", chunk("hello ", "") + chunk("world", "") + "0\r\nx-amz-checksum-crc32:" + good + "\r\n\r\n", trailer(good), 200, ""},
		{"a trailer that does not match", chunk("hello world", "") + "0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n", trailer("AAAAAA=="), 400, "BadDigest"},
		{"fewer bytes than declared", chunk("hello", sig) + chunk("", sig) + "\r\n", signed, 400, "IncompleteBody"},
		{"more bytes than declared", chunk("hello world!", sig) + chunk("", sig) + "\r\n", signed, 400, "IncompleteBody"},
		{"a chunk size that is not hex", "zz\r\nhello world\r\n0\r\n\r\n", signed, 400, "InvalidRequest"},
		{"a chunk longer than its size", "2\r\nhello world\r\n0\r\n\r\n", signed, 400, "InvalidRequest"},
		{"no decoded length", chunk("hello world", sig) + chunk("", sig), map[string]string{"x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"}, 411, "MissingContentLength"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.raw(t, "PUT", "/demo/k", []byte(tt.body), tt.header)
			if resp.StatusCode != tt.status || (tt.code != "" && !strings.Contains(string(body), "<Code>"+tt.code+"</Code>")) {
				t.Fatalf("got %d %s, want %d %s", resp.StatusCode, body, tt.status, tt.code)
			}
			if tt.status != 200 {
				return
			}
			// A checksum sent as a trailer is answered like one sent as a
			// header.
			if want := map[bool]string{true: good}[tt.header["x-amz-trailer"] != ""]; resp.Header.Get("x-amz-checksum-crc32") != want {
				t.Errorf("the PUT answers x-amz-checksum-crc32 %q, want %q", resp.Header.Get("x-amz-checksum-crc32"), want)
			}
			resp, data := e.raw(t, "GET", "/demo/k", nil, nil)
			if string(data) != "hello world" {
				t.Errorf("stored %q, want hello world", data)
			}
			if want := strings.TrimPrefix(tt.header["Content-Encoding"], "aws-chunked"); resp.Header.Get("Content-Encoding") != strings.TrimPrefix(want, ",") {
				t.Errorf("Content-Encoding %q: aws-chunked must not be stored", resp.Header.Get("Content-Encoding"))
			}
		})
	}
}

// TestChunkedBodyLimit checks that a declared length over the limit is
// refused before the body is read.
func TestChunkedBodyLimit(t *testing.T) {
	e := newEnv(t, envOptions{maxObjectSize: 4})
	e.bucket(t, "demo", "")
	req, err := http.NewRequest("PUT", e.srv.URL+"/demo/k", io.MultiReader(strings.NewReader(chunk("hello", ""))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-amz-content-sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER")
	req.Header.Set("x-amz-decoded-content-length", "5")
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(data), "<Code>EntityTooLarge</Code>") || !strings.Contains(string(data), "<MaxSizeAllowed>4</MaxSizeAllowed>") {
		t.Errorf("got %d %s", resp.StatusCode, data)
	}
}
