package web_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func TestGetObjectPartNumberReadsOnePart(t *testing.T) {
	e := newEnv(t, envOptions{minPartSize: 1})
	e.bucket(t, "demo", "enabled")
	id, parts := e.upload(t, "demo", "mp", []int32{1, 4, 9}, [][]byte{[]byte("aaaaa"), []byte("bbb"), []byte("cc")})
	done, err := e.complete("demo", "mp", id, parts)
	if err != nil {
		t.Fatal(err)
	}
	e.put(t, "demo", "plain", "0123456789")
	e.put(t, "demo", "empty", "")
	tests := []struct {
		name, key, query, body, contentRange, partsCount string
		status                                           int
	}{
		{"the first part", "mp", "partNumber=1", "aaaaa", "bytes 0-4/10", "3", 206},
		{"a middle part", "mp", "partNumber=2", "bbb", "bytes 5-7/10", "3", 206},
		{"the last part", "mp", "partNumber=3", "cc", "bytes 8-9/10", "3", 206},
		{"a part of a version named by ID", "mp", "partNumber=2&versionId=" + aws.ToString(done.VersionId), "bbb", "bytes 5-7/10", "3", 206},
		{"the whole multipart object, without partNumber", "mp", "", "aaaaabbbcc", "", "", 200},
		{"part 1 of an object written in one piece", "plain", "partNumber=1", "0123456789", "bytes 0-9/10", "", 206},
		{"part 1 of an empty object", "empty", "partNumber=1", "", "", "", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, method := range []string{"GET", "HEAD"} {
				resp, body := e.raw(t, method, "/demo/"+tt.key+"?"+tt.query, nil, nil)
				want := tt.body
				if method == "HEAD" {
					want = ""
				}
				if resp.StatusCode != tt.status || string(body) != want || resp.Header.Get("Content-Length") != strconv.Itoa(len(tt.body)) ||
					resp.Header.Get("Content-Range") != tt.contentRange || resp.Header.Get("X-Amz-Mp-Parts-Count") != tt.partsCount {
					t.Errorf("%s: %d %q, Content-Length %s, Content-Range %q, x-amz-mp-parts-count %q; want %d %q, %q, %q", method,
						resp.StatusCode, body, resp.Header.Get("Content-Length"), resp.Header.Get("Content-Range"), resp.Header.Get("X-Amz-Mp-Parts-Count"),
						tt.status, want, tt.contentRange, tt.partsCount)
				}
				if tt.key == "mp" && resp.Header.Get("ETag") != aws.ToString(done.ETag) {
					t.Errorf("%s: ETag %s, want the object's %s", method, resp.Header.Get("ETag"), aws.ToString(done.ETag))
				}
			}
		})
	}
	errs := []struct {
		name, key, query string
		header           map[string]string
		status           int
		code, element    string
	}{
		{"a part past the last", "mp", "partNumber=4", nil, 416, "InvalidPartNumber",
			"<PartNumberRequested>4</PartNumberRequested><ActualPartCount>3</ActualPartCount>"},
		{"part 2 of an object written in one piece", "plain", "partNumber=2", nil, 416, "InvalidPartNumber",
			"<PartNumberRequested>2</PartNumberRequested><ActualPartCount>1</ActualPartCount>"},
		{"part 0", "mp", "partNumber=0", nil, 400, "InvalidArgument", "<ArgumentName>partNumber</ArgumentName><ArgumentValue>0</ArgumentValue>"},
		{"part 10001", "mp", "partNumber=10001", nil, 400, "InvalidArgument", "<ArgumentValue>10001</ArgumentValue>"},
		{"a part number that is not a number", "mp", "partNumber=one", nil, 400, "InvalidArgument", "<ArgumentValue>one</ArgumentValue>"},
		{"a part number with a Range", "mp", "partNumber=1", map[string]string{"Range": "bytes=0-1"}, 400, "InvalidRequest",
			"Cannot specify both Range header and partNumber query parameter"},
	}
	for _, tt := range errs {
		t.Run(tt.name+" is "+tt.code, func(t *testing.T) {
			resp, body := e.raw(t, "GET", "/demo/"+tt.key+"?"+tt.query, nil, tt.header)
			if resp.StatusCode != tt.status || !strings.Contains(string(body), "<Code>"+tt.code+"</Code>") || !strings.Contains(string(body), tt.element) {
				t.Errorf("got %d %s, want %d %s with %s", resp.StatusCode, body, tt.status, tt.code, tt.element)
			}
			if resp, _ := e.raw(t, "HEAD", "/demo/"+tt.key+"?"+tt.query, nil, tt.header); resp.StatusCode != tt.status {
				t.Errorf("HEAD: %d, want %d", resp.StatusCode, tt.status)
			}
		})
	}
	t.Run("the SDK reads a part and the number of parts", func(t *testing.T) {
		out, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("mp"), PartNumber: aws.Int32(2)})
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(out.Body)
		out.Body.Close()
		if err != nil || string(data) != "bbb" || aws.ToInt32(out.PartsCount) != 3 || aws.ToString(out.ContentRange) != "bytes 5-7/10" {
			t.Errorf("got %q, PartsCount %d, ContentRange %q, %v", data, aws.ToInt32(out.PartsCount), aws.ToString(out.ContentRange), err)
		}
		head, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("mp"), PartNumber: aws.Int32(3)})
		if err != nil || aws.ToInt32(head.PartsCount) != 3 || aws.ToInt64(head.ContentLength) != 2 {
			t.Errorf("HeadObject part 3: PartsCount %d, ContentLength %d, %v", aws.ToInt32(head.PartsCount), aws.ToInt64(head.ContentLength), err)
		}
		_, err = e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("mp"), PartNumber: aws.Int32(4)})
		wantAPIError(t, err, "InvalidPartNumber", http.StatusRequestedRangeNotSatisfiable)
	})
}
