package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

func TestBucketVersioningConfiguration(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "")
	b := aws.String("demo")

	t.Run("a never-versioned bucket has no Status", func(t *testing.T) {
		out, err := e.client.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: b})
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != "" {
			t.Errorf("Status = %q, want none", out.Status)
		}
		_, body := e.raw(t, "GET", "/demo?versioning", nil, nil)
		if strings.Contains(string(body), "Status") || !strings.Contains(string(body), "<VersioningConfiguration") {
			t.Errorf("body = %s, want an empty VersioningConfiguration", body)
		}
	})

	for _, status := range []types.BucketVersioningStatus{types.BucketVersioningStatusEnabled, types.BucketVersioningStatusSuspended} {
		t.Run("status "+string(status)+" is stored and returned", func(t *testing.T) {
			_, err := e.client.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: b,
				VersioningConfiguration: &types.VersioningConfiguration{Status: status}})
			if err != nil {
				t.Fatal(err)
			}
			out, err := e.client.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: b})
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != status {
				t.Errorf("Status = %q, want %q", out.Status, status)
			}
		})
	}

	refused := []struct {
		name       string
		bucket     string
		cfg        types.VersioningConfiguration
		code       string
		httpStatus int
	}{
		{"lower-case enabled is malformed", "demo", types.VersioningConfiguration{Status: "enabled"}, "MalformedXML", 400},
		{"Disabled is malformed", "demo", types.VersioningConfiguration{Status: "Disabled"}, "MalformedXML", 400},
		{"a missing Status is an illegal configuration", "demo", types.VersioningConfiguration{}, "IllegalVersioningConfigurationException", 400},
		{"a missing bucket is NoSuchBucket", "nothere", types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}, "NoSuchBucket", 404},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.client.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: &tt.bucket, VersioningConfiguration: &tt.cfg})
			wantAPIError(t, err, tt.code, tt.httpStatus)
		})
	}
}

// TestVersionHeadersFollowTheBucketState pins x-amz-version-id and
// x-amz-delete-marker on PUT, GET and DELETE in the three states.
func TestVersionHeadersFollowTheBucketState(t *testing.T) {
	tests := []struct {
		state                      string
		putVersion, getVersion     string
		deleteVersion              string
		deleteMarker, getDMHeaders bool
	}{
		{state: "", putVersion: "", getVersion: "", deleteVersion: "", deleteMarker: false},
		{state: "enabled", putVersion: "v00000001", getVersion: "v00000001", deleteVersion: "v00000002", deleteMarker: true},
		{state: "suspended", putVersion: "", getVersion: "null", deleteVersion: "null", deleteMarker: true},
	}
	for _, tt := range tests {
		name := tt.state
		if name == "" {
			name = "unversioned"
		}
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			e.bucket(t, "demo", tt.state)
			resp, _ := e.raw(t, "PUT", "/demo/k", []byte("body"), nil)
			if got := resp.Header.Get("x-amz-version-id"); got != tt.putVersion {
				t.Errorf("PUT x-amz-version-id = %q, want %q", got, tt.putVersion)
			}
			if _, ok := resp.Header["X-Amz-Version-Id"]; ok != (tt.putVersion != "") {
				t.Errorf("PUT sent x-amz-version-id: %v, want %v", ok, tt.putVersion != "")
			}
			resp, _ = e.raw(t, "GET", "/demo/k", nil, nil)
			if _, ok := resp.Header["X-Amz-Version-Id"]; ok != (tt.getVersion != "") || resp.Header.Get("x-amz-version-id") != tt.getVersion {
				t.Errorf("GET x-amz-version-id = %q (sent: %v), want %q", resp.Header.Get("x-amz-version-id"), ok, tt.getVersion)
			}
			resp, _ = e.raw(t, "DELETE", "/demo/k", nil, nil)
			if resp.StatusCode != http.StatusNoContent {
				t.Errorf("DELETE status = %d, want 204", resp.StatusCode)
			}
			if got := resp.Header.Get("x-amz-version-id"); got != tt.deleteVersion {
				t.Errorf("DELETE x-amz-version-id = %q, want %q", got, tt.deleteVersion)
			}
			if got := resp.Header.Get("x-amz-delete-marker") == "true"; got != tt.deleteMarker {
				t.Errorf("DELETE x-amz-delete-marker: %v, want %v", got, tt.deleteMarker)
			}
			_, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
			wantAPIError(t, err, "NoSuchKey", 404)
			if got := responseHeader(t, err, "x-amz-delete-marker") == "true"; got != tt.deleteMarker {
				t.Errorf("GET after DELETE: x-amz-delete-marker %v, want %v", got, tt.deleteMarker)
			}
		})
	}
}

func TestDeleteMarkers(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	v1 := e.put(t, "demo", "k", "one")
	v2 := e.put(t, "demo", "k", "two")
	out, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
	if err != nil {
		t.Fatal(err)
	}
	if !aws.ToBool(out.DeleteMarker) || aws.ToString(out.VersionId) != "v00000003" || v1 != "v00000001" || v2 != "v00000002" {
		t.Fatalf("versions %s %s, delete marker %v %s; want v00000001 v00000002, marker v00000003",
			v1, v2, aws.ToBool(out.DeleteMarker), aws.ToString(out.VersionId))
	}

	t.Run("GET of a key under a marker is NoSuchKey with the marker's headers", func(t *testing.T) {
		_, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
		wantAPIError(t, err, "NoSuchKey", 404)
		if dm, vid := responseHeader(t, err, "x-amz-delete-marker"), responseHeader(t, err, "x-amz-version-id"); dm != "true" || vid != "v00000003" {
			t.Errorf("headers x-amz-delete-marker=%q x-amz-version-id=%q, want true v00000003", dm, vid)
		}
	})
	t.Run("HEAD of a key under a marker is a bodiless 404 with the marker's headers", func(t *testing.T) {
		_, err := e.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("demo"), Key: aws.String("k")})
		wantAPIError(t, err, "NotFound", 404)
		if dm := responseHeader(t, err, "x-amz-delete-marker"); dm != "true" {
			t.Errorf("x-amz-delete-marker = %q, want true", dm)
		}
		resp, body := e.raw(t, "HEAD", "/demo/k", nil, nil)
		if resp.StatusCode != 404 || len(body) != 0 {
			t.Errorf("raw HEAD: %d with %d body bytes, want 404 and none", resp.StatusCode, len(body))
		}
	})
	t.Run("GET by the marker's version ID is 405 with Allow DELETE", func(t *testing.T) {
		_, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: aws.String("v00000003")})
		wantAPIError(t, err, "MethodNotAllowed", 405)
		if allow, dm := responseHeader(t, err, "Allow"), responseHeader(t, err, "x-amz-delete-marker"); allow != "DELETE" || dm != "true" {
			t.Errorf("Allow=%q x-amz-delete-marker=%q, want DELETE and true", allow, dm)
		}
		_, body := e.raw(t, "GET", "/demo/k?versionId=v00000003", nil, nil)
		for _, want := range []string{"<Method>GET</Method>", "<ResourceType>DeleteMarker</ResourceType>"} {
			if !strings.Contains(string(body), want) {
				t.Errorf("body %s lacks %s", body, want)
			}
		}
	})
	t.Run("GET by an older version ID reads it", func(t *testing.T) {
		if got := e.getBody(t, "demo", "k", "v00000001"); got != "one" {
			t.Errorf("body = %q, want one", got)
		}
	})
	versionErrors := []struct {
		name, versionID, code string
		status                int
	}{
		{"an unknown well-formed version is NoSuchVersion", "v00000099", "NoSuchVersion", 404},
		{"a malformed version is InvalidArgument", "bogus", "InvalidArgument", 400},
		{"an empty version is InvalidArgument", "", "InvalidArgument", 400},
	}
	for _, tt := range versionErrors {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: aws.String(tt.versionID)})
			wantAPIError(t, err, tt.code, tt.status)
		})
	}
	t.Run("DELETE of an unknown version is a silent 204", func(t *testing.T) {
		out, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: aws.String("v00000099")})
		if err != nil || aws.ToString(out.VersionId) != "v00000099" || aws.ToBool(out.DeleteMarker) {
			t.Errorf("DeleteObject = %+v, %v; want version v00000099, no marker", out, err)
		}
	})
	t.Run("DELETE of the marker by version ID brings the data back", func(t *testing.T) {
		out, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: aws.String("v00000003")})
		if err != nil || !aws.ToBool(out.DeleteMarker) || aws.ToString(out.VersionId) != "v00000003" {
			t.Fatalf("DeleteObject = %+v, %v; want marker v00000003 removed", out, err)
		}
		if got := e.getBody(t, "demo", "k", ""); got != "two" {
			t.Errorf("body = %q, want two", got)
		}
	})
}

func TestNullVersions(t *testing.T) {
	t.Run("a suspended PUT replaces the null version and keeps the others", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.bucket(t, "demo", "enabled")
		e.put(t, "demo", "k", "versioned")
		if err := e.store.SetBucketVersioning("demo", "suspended"); err != nil {
			t.Fatal(err)
		}
		e.put(t, "demo", "k", "null one")
		e.put(t, "demo", "k", "null two")
		out, err := e.client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String("demo")})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, v := range out.Versions {
			ids = append(ids, aws.ToString(v.VersionId))
		}
		if strings.Join(ids, " ") != "null v00000001" {
			t.Errorf("versions = %v, want [null v00000001]", ids)
		}
		got, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: aws.String("null")})
		if err != nil {
			t.Fatal(err)
		}
		got.Body.Close()
		if aws.ToString(got.VersionId) != "null" {
			t.Errorf("GET ?versionId=null: version %q, want null", aws.ToString(got.VersionId))
		}
	})
	t.Run("an unversioned bucket reads versionId=null without a version header", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.bucket(t, "demo", "")
		e.put(t, "demo", "k", "plain")
		resp, body := e.raw(t, "GET", "/demo/k?versionId=null", nil, nil)
		if resp.StatusCode != 200 || string(body) != "plain" || resp.Header.Get("x-amz-version-id") != "" {
			t.Errorf("GET ?versionId=null: %d %q version %q; want 200 plain, no version", resp.StatusCode, body, resp.Header.Get("x-amz-version-id"))
		}
		_, err := e.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), VersionId: aws.String("v00000001")})
		wantAPIError(t, err, "InvalidArgument", 400)
	})
}
