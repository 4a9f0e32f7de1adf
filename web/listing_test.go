package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// versionsPage renders one ListObjectVersions page the way the XML orders
// it: versions and markers by key and then newest first, then prefixes.
func versionsPage(out *s3.ListObjectVersionsOutput) string {
	type entry struct {
		key, id string
		marker  bool
		latest  bool
	}
	var entries []entry
	for _, v := range out.Versions {
		entries = append(entries, entry{aws.ToString(v.Key), aws.ToString(v.VersionId), false, aws.ToBool(v.IsLatest)})
	}
	for _, m := range out.DeleteMarkers {
		entries = append(entries, entry{aws.ToString(m.Key), aws.ToString(m.VersionId), true, aws.ToBool(m.IsLatest)})
	}
	// Keys ascending, then version IDs descending: the IDs of one key grow
	// with time in an enabled bucket.
	for i := range entries {
		for j := i + 1; j < len(entries); j++ {
			a, b := entries[i], entries[j]
			if b.key < a.key || (b.key == a.key && b.id > a.id) {
				entries[i], entries[j] = b, a
			}
		}
	}
	var parts []string
	for _, e := range entries {
		s := e.key + "@" + e.id
		if e.marker {
			s += "(marker)"
		}
		if e.latest {
			s += "*"
		}
		parts = append(parts, s)
	}
	for _, cp := range out.CommonPrefixes {
		parts = append(parts, "prefix "+aws.ToString(cp.Prefix))
	}
	next := ""
	if aws.ToBool(out.IsTruncated) {
		next = fmt.Sprintf(" | next %s/%s", aws.ToString(out.NextKeyMarker), aws.ToString(out.NextVersionIdMarker))
	}
	return strings.Join(parts, " ") + next
}

func TestListObjectVersionsPaging(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	e.put(t, "demo", "a", "1") // v1
	e.put(t, "demo", "a", "2") // v2
	e.put(t, "demo", "b", "3") // v3
	if _, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("b")}); err != nil {
		t.Fatal(err) // v4, a marker
	}
	e.put(t, "demo", "dir/x", "5") // v5
	e.put(t, "demo", "dir/y", "6") // v6
	e.put(t, "demo", "z", "7")     // v7

	in := &s3.ListObjectVersionsInput{Bucket: aws.String("demo"), Delimiter: aws.String("/"), MaxKeys: aws.Int32(2)}
	var pages []string
	for range 10 {
		out, err := e.client.ListObjectVersions(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, versionsPage(out))
		if !aws.ToBool(out.IsTruncated) {
			break
		}
		in.KeyMarker, in.VersionIdMarker = out.NextKeyMarker, out.NextVersionIdMarker
	}
	want := []string{
		"a@v00000002* a@v00000001 | next a/v00000001",
		"b@v00000004(marker)* b@v00000003 | next b/v00000003",
		"z@v00000007* prefix dir/",
	}
	if strings.Join(pages, "\n") != strings.Join(want, "\n") {
		t.Errorf("pages:\n%s\nwant:\n%s", strings.Join(pages, "\n"), strings.Join(want, "\n"))
	}

	params := []struct {
		name, query, want string
	}{
		{"key-marker alone skips every version of that key", "key-marker=a", "<Key>b</Key>"},
		{"a page may end on a common prefix", "delimiter=/&key-marker=b&version-id-marker=v00000003&max-keys=1", "<NextKeyMarker>dir/</NextKeyMarker>"},
		{"max-keys above 1000 is capped", "max-keys=5000", "<MaxKeys>1000</MaxKeys>"},
		{"max-keys=0 lists nothing and is not truncated", "max-keys=0", "<MaxKeys>0</MaxKeys><IsTruncated>false</IsTruncated></ListVersionsResult>"},
	}
	for _, tt := range params {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.raw(t, "GET", "/demo?versions&"+tt.query, nil, nil)
			if resp.StatusCode != 200 || !strings.Contains(string(body), tt.want) {
				t.Errorf("got %d %s, want %s", resp.StatusCode, body, tt.want)
			}
			if tt.query == "key-marker=a" && strings.Contains(string(body), "<Key>a</Key>") {
				t.Errorf("key a listed after key-marker=a: %s", body)
			}
		})
	}
	refused := []struct{ name, query, arg string }{
		{"version-id-marker without key-marker", "version-id-marker=v00000001", "version-id-marker"},
		{"an empty version-id-marker", "key-marker=a&version-id-marker=", "version-id-marker"},
		{"a max-keys that is not an integer", "max-keys=many", "max-keys"},
		{"a negative max-keys", "max-keys=-1", "max-keys"},
		{"an encoding-type other than url", "encoding-type=base64", "encoding-type"},
	}
	for _, tt := range refused {
		t.Run(tt.name+" is InvalidArgument", func(t *testing.T) {
			resp, body := e.raw(t, "GET", "/demo?versions&"+tt.query, nil, nil)
			if resp.StatusCode != 400 || !strings.Contains(string(body), "<Code>InvalidArgument</Code>") ||
				!strings.Contains(string(body), "<ArgumentName>"+tt.arg+"</ArgumentName>") {
				t.Errorf("got %d %s", resp.StatusCode, body)
			}
		})
	}
	t.Run("a never-versioned bucket lists null versions", func(t *testing.T) {
		e.bucket(t, "plain", "")
		e.put(t, "plain", "k", "x")
		out, err := e.client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String("plain")})
		if err != nil {
			t.Fatal(err)
		}
		if got := versionsPage(out); got != "k@null*" {
			t.Errorf("got %s, want k@null*", got)
		}
	})
}

func TestListObjectsV2Paging(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	for _, k := range []string{"asdf", "boo/bar", "boo/baz/xyzzy", "cquux/thud", "cquux/bla", "gone"} {
		e.put(t, "demo", k, k)
	}
	if _, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("gone")}); err != nil {
		t.Fatal(err)
	}
	pages := func(t *testing.T, in *s3.ListObjectsV2Input) []string {
		t.Helper()
		var out []string
		p := s3.NewListObjectsV2Paginator(e.client, in)
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var items []string
			for _, c := range page.Contents {
				items = append(items, aws.ToString(c.Key))
			}
			for _, cp := range page.CommonPrefixes {
				items = append(items, aws.ToString(cp.Prefix))
			}
			if int(aws.ToInt32(page.KeyCount)) != len(items) {
				t.Errorf("KeyCount %d for %v", aws.ToInt32(page.KeyCount), items)
			}
			out = append(out, strings.Join(items, ","))
		}
		return out
	}
	tests := []struct {
		name string
		in   s3.ListObjectsV2Input
		want []string
	}{
		{"two keys a page, markers hidden", s3.ListObjectsV2Input{MaxKeys: aws.Int32(2)},
			[]string{"asdf,boo/bar", "boo/baz/xyzzy,cquux/bla", "cquux/thud"}},
		{"a common prefix counts as one key", s3.ListObjectsV2Input{MaxKeys: aws.Int32(1), Delimiter: aws.String("/")},
			[]string{"asdf", "boo/", "cquux/"}},
		{"start-after skips keys up to it", s3.ListObjectsV2Input{StartAfter: aws.String("boo/baz")},
			[]string{"boo/baz/xyzzy,cquux/bla,cquux/thud"}},
		{"a prefix with a delimiter", s3.ListObjectsV2Input{Prefix: aws.String("boo/"), Delimiter: aws.String("/")},
			[]string{"boo/bar,boo/baz/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.Bucket = aws.String("demo")
			if got := pages(t, &in); strings.Join(got, " | ") != strings.Join(tt.want, " | ") {
				t.Errorf("pages %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("StartAfter is echoed", func(t *testing.T) {
		out, err := e.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("demo"), StartAfter: aws.String("b")})
		if err != nil || aws.ToString(out.StartAfter) != "b" {
			t.Errorf("StartAfter = %q, %v", aws.ToString(out.StartAfter), err)
		}
	})
	t.Run("an empty continuation token is InvalidArgument", func(t *testing.T) {
		_, err := e.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("demo"), ContinuationToken: aws.String("")})
		wantAPIError(t, err, "InvalidArgument", 400)
	})
	t.Run("max-keys=0 lists nothing", func(t *testing.T) {
		out, err := e.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("demo"), MaxKeys: aws.Int32(0)})
		if err != nil || len(out.Contents) != 0 || aws.ToBool(out.IsTruncated) || aws.ToInt32(out.KeyCount) != 0 {
			t.Errorf("got %+v, %v", out, err)
		}
	})
	t.Run("encoding-type=url encodes keys", func(t *testing.T) {
		e.put(t, "demo", "sp ace/ü+", "x")
		_, body := e.raw(t, "GET", "/demo?list-type=2&prefix=sp&encoding-type=url", nil, nil)
		if !strings.Contains(string(body), "<Key>sp+ace/%C3%BC%2B</Key>") || !strings.Contains(string(body), "<EncodingType>url</EncodingType>") {
			t.Errorf("body %s", body)
		}
	})
}

func TestListObjectsV1(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	for _, k := range []string{"a", "b/1", "b/2", "c"} {
		e.put(t, "demo", k, k)
	}
	out, err := e.client.ListObjects(ctx, &s3.ListObjectsInput{Bucket: aws.String("demo"), Delimiter: aws.String("/"), MaxKeys: aws.Int32(2)})
	if err != nil {
		t.Fatal(err)
	}
	if !aws.ToBool(out.IsTruncated) || aws.ToString(out.NextMarker) != "b/" || len(out.Contents) != 1 || len(out.CommonPrefixes) != 1 {
		t.Fatalf("page 1: truncated %v next %q, %d keys, %d prefixes", aws.ToBool(out.IsTruncated), aws.ToString(out.NextMarker), len(out.Contents), len(out.CommonPrefixes))
	}
	out, err = e.client.ListObjects(ctx, &s3.ListObjectsInput{Bucket: aws.String("demo"), Delimiter: aws.String("/"), Marker: out.NextMarker})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToBool(out.IsTruncated) || len(out.Contents) != 1 || aws.ToString(out.Contents[0].Key) != "c" || aws.ToString(out.Marker) != "b/" {
		t.Errorf("page 2: %+v", out)
	}
	if out.Contents[0].Owner == nil || out.Contents[0].StorageClass != types.ObjectStorageClassStandard {
		t.Errorf("V1 contents lack Owner or StorageClass")
	}
}

// A version created at 9.501 s lists as ...09.501Z: the fraction of the
// clock is kept to the nearest nanosecond, not cut short of it.
func TestListingTimestampsKeepTheirMilliseconds(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	for _, at := range []float64{9.501, 14.999} {
		e.setClock(t, at)
		e.put(t, "demo", fmt.Sprint(at), "x")
	}
	for _, path := range []string{"/demo?versions", "/demo?list-type=2"} {
		_, body := e.raw(t, "GET", path, nil, nil)
		for _, want := range []string{"2025-12-04T00:00:09.501Z", "2025-12-04T00:00:14.999Z"} {
			if !strings.Contains(string(body), want) {
				t.Errorf("GET %s does not list %s:\n%s", path, want, body)
			}
		}
	}
}
