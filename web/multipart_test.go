package web_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// upload runs a multipart upload of parts, numbered as given, and returns
// its ID and the parts to complete it with.
func (e *env) upload(t *testing.T, bucket, key string, numbers []int32, parts [][]byte) (string, []types.CompletedPart) {
	t.Helper()
	created, err := e.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &bucket, Key: &key, ContentType: aws.String("text/plain")})
	if err != nil {
		t.Fatal(err)
	}
	var done []types.CompletedPart
	for i, p := range parts {
		out, err := e.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: &bucket, Key: &key, UploadId: created.UploadId,
			PartNumber: aws.Int32(numbers[i]), Body: bytes.NewReader(p)})
		if err != nil {
			t.Fatalf("UploadPart %d: %v", numbers[i], err)
		}
		if want := `"` + md5hex(p) + `"`; aws.ToString(out.ETag) != want {
			t.Errorf("part %d ETag = %s, want %s", numbers[i], aws.ToString(out.ETag), want)
		}
		done = append(done, types.CompletedPart{PartNumber: aws.Int32(numbers[i]), ETag: out.ETag})
	}
	return aws.ToString(created.UploadId), done
}

func (e *env) complete(bucket, key, uploadID string, parts []types.CompletedPart) (*s3.CompleteMultipartUploadOutput, error) {
	return e.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: &bucket, Key: &key, UploadId: &uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}})
}

func TestMultipartETagsMatchS3(t *testing.T) {
	e := newEnv(t, envOptions{plainHTTP: true})
	e.bucket(t, "demo", "")
	big := bytes.Repeat([]byte("a"), 5242881)
	tests := []struct {
		name    string
		numbers []int32
		parts   [][]byte
		etag    string
	}{
		{"one part", []int32{1}, [][]byte{bytes.Repeat([]byte("upload-part-1"), 5)}, `"e747540af6911dbc890f8d3e0b48549b-1"`},
		{"three parts numbered 1 to 3", []int32{1, 2, 3}, [][]byte{big, big, big}, `"c7cb0938a47e31f70cf07028d22e6913-3"`},
		{"the same parts numbered 2 to 4", []int32{2, 3, 4}, [][]byte{big, big, big}, `"c7cb0938a47e31f70cf07028d22e6913-3"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, parts := e.upload(t, "demo", "obj", tt.numbers, tt.parts)
			out, err := e.complete("demo", "obj", id, parts)
			if err != nil {
				t.Fatal(err)
			}
			if aws.ToString(out.ETag) != tt.etag {
				t.Errorf("ETag = %s, want %s", aws.ToString(out.ETag), tt.etag)
			}
			if got := e.getBody(t, "demo", "obj", ""); got != string(bytes.Join(tt.parts, nil)) {
				t.Errorf("the object is not the parts joined (%d bytes)", len(got))
			}
		})
	}
}

func TestEntityTooSmallAtTheDefaultMinimum(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	id, parts := e.upload(t, "demo", "k", []int32{1, 2}, [][]byte{[]byte("abcd"), []byte("efgh")})
	_, err := e.complete("demo", "k", id, parts)
	wantAPIError(t, err, "EntityTooSmall", 400)
	body := fmt.Sprintf(`<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>%s</ETag></Part><Part><PartNumber>2</PartNumber><ETag>%s</ETag></Part></CompleteMultipartUpload>`,
		aws.ToString(parts[0].ETag), aws.ToString(parts[1].ETag))
	_, resp := e.raw(t, "POST", "/demo/k?uploadId="+id, []byte(body), nil)
	for _, want := range []string{"<ProposedSize>4</ProposedSize>", "<MinSizeAllowed>5242880</MinSizeAllowed>", "<PartNumber>1</PartNumber>",
		"<ETag>" + md5hex([]byte("abcd")) + "</ETag>"} {
		if !strings.Contains(string(resp), want) {
			t.Errorf("EntityTooSmall body %s lacks %s", resp, want)
		}
	}
}

func TestMultipartUpload(t *testing.T) {
	e := newEnv(t, envOptions{minPartSize: 1})
	e.bucket(t, "demo", "enabled")

	t.Run("a completed upload is a new version with the metadata of its creation", func(t *testing.T) {
		id, parts := e.upload(t, "demo", "k", []int32{1, 2}, [][]byte{[]byte("hello "), []byte("world")})
		out, err := e.complete("demo", "k", id, parts)
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(out.VersionId) != "v00000001" || !strings.HasSuffix(aws.ToString(out.Location), "/demo/k") {
			t.Errorf("VersionId %q Location %q", aws.ToString(out.VersionId), aws.ToString(out.Location))
		}
		got, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
		if err != nil {
			t.Fatal(err)
		}
		got.Body.Close()
		if aws.ToString(got.ContentType) != "text/plain" || aws.ToInt64(got.ContentLength) != 11 {
			t.Errorf("ContentType %q length %d", aws.ToString(got.ContentType), aws.ToInt64(got.ContentLength))
		}
		again, err := e.complete("demo", "k", id, parts)
		if err != nil || aws.ToString(again.ETag) != aws.ToString(out.ETag) {
			t.Errorf("repeating Complete: %v, ETag %s want %s", err, aws.ToString(again.ETag), aws.ToString(out.ETag))
		}
		_, err = e.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("demo"), Key: aws.String("k"), UploadId: &id})
		wantAPIError(t, err, "NoSuchUpload", 404)
	})

	t.Run("ListParts pages by part number", func(t *testing.T) {
		id, _ := e.upload(t, "demo", "p", []int32{1, 2, 5}, [][]byte{[]byte("a"), []byte("b"), []byte("c")})
		out, err := e.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("demo"), Key: aws.String("p"), UploadId: &id, MaxParts: aws.Int32(2)})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Parts) != 2 || !aws.ToBool(out.IsTruncated) || aws.ToString(out.NextPartNumberMarker) != "2" {
			t.Fatalf("page 1: %d parts, truncated %v, next %q", len(out.Parts), aws.ToBool(out.IsTruncated), aws.ToString(out.NextPartNumberMarker))
		}
		out, err = e.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String("demo"), Key: aws.String("p"), UploadId: &id, PartNumberMarker: out.NextPartNumberMarker})
		if err != nil || len(out.Parts) != 1 || aws.ToInt32(out.Parts[0].PartNumber) != 5 || aws.ToInt64(out.Parts[0].Size) != 1 {
			t.Errorf("page 2: %+v %v", out, err)
		}
		if _, err := e.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: aws.String("demo"), Key: aws.String("p"), UploadId: &id}); err != nil {
			t.Fatal(err)
		}
		_, err = e.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: aws.String("demo"), Key: aws.String("p"), UploadId: &id, PartNumber: aws.Int32(1), Body: strings.NewReader("x")})
		wantAPIError(t, err, "NoSuchUpload", 404)
	})

	t.Run("ListMultipartUploads lists open uploads by key", func(t *testing.T) {
		a, _ := e.upload(t, "demo", "up/a", nil, nil)
		b, _ := e.upload(t, "demo", "up/b", nil, nil)
		out, err := e.client.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: aws.String("demo"), Prefix: aws.String("up/")})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, u := range out.Uploads {
			got = append(got, aws.ToString(u.Key)+"="+aws.ToString(u.UploadId))
		}
		if want := "up/a=" + a + " up/b=" + b; strings.Join(got, " ") != want {
			t.Errorf("uploads %v, want %s", got, want)
		}
		out, err = e.client.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: aws.String("demo"), MaxUploads: aws.Int32(1), Prefix: aws.String("up/")})
		if err != nil || len(out.Uploads) != 1 || !aws.ToBool(out.IsTruncated) || aws.ToString(out.NextKeyMarker) != "up/a" {
			t.Errorf("one upload a page: %+v %v", out, err)
		}
	})

	t.Run("errors", func(t *testing.T) {
		id, parts := e.upload(t, "demo", "e", []int32{1, 2}, [][]byte{[]byte("x"), []byte("y")})
		wrongETag := []types.CompletedPart{{PartNumber: aws.Int32(1), ETag: aws.String(`"00000000000000000000000000000000"`)}}
		tests := []struct {
			name   string
			call   func() error
			code   string
			status int
		}{
			{"parts out of order", func() error {
				_, err := e.complete("demo", "e", id, []types.CompletedPart{parts[1], parts[0]})
				return err
			}, "InvalidPartOrder", 400},
			{"a part with a wrong ETag", func() error { _, err := e.complete("demo", "e", id, wrongETag); return err }, "InvalidPart", 400},
			{"no parts", func() error { _, err := e.complete("demo", "e", id, nil); return err }, "InvalidRequest", 400},
			{"an unknown upload", func() error { _, err := e.complete("demo", "e", "u99999999", parts); return err }, "NoSuchUpload", 404},
			{"part number 10001", func() error {
				_, err := e.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: aws.String("demo"), Key: aws.String("e"), UploadId: &id, PartNumber: aws.Int32(10001), Body: strings.NewReader("z")})
				return err
			}, "InvalidArgument", 400},
		}
		for _, tt := range tests {
			t.Run(tt.name+" is "+tt.code, func(t *testing.T) {
				wantAPIError(t, tt.call(), tt.code, tt.status)
			})
		}
		body := `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"deadbeef"</ETag></Part></CompleteMultipartUpload>`
		_, resp := e.raw(t, "POST", "/demo/e?uploadId="+id, []byte(body), nil)
		for _, want := range []string{"<UploadId>" + id + "</UploadId>", "<PartNumber>1</PartNumber>", "<ETag>&#34;deadbeef&#34;</ETag>"} {
			if !strings.Contains(string(resp), want) {
				t.Errorf("InvalidPart body %s lacks %s", resp, want)
			}
		}
	})
}
