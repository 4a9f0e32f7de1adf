package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// Repeating a DeleteObjects of versions it already deleted answers Deleted
// for each again, as a repeated DeleteObject answers 204 [ref §1.2]; in
// the same 200 answer a version ID the bucket never issued is a per-key
// NoSuchVersion and a malformed one a per-key InvalidArgument.
func TestDeleteObjectsRepeatedAnswersDeletedForEachVersion(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.bucket(t, "demo", "enabled")
	data := e.put(t, "demo", "a", "1") // v00000001
	del, err := e.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("demo"), Key: aws.String("a")})
	if err != nil {
		t.Fatal(err)
	}
	marker := aws.ToString(del.VersionId) // v00000002
	ids := []types.ObjectIdentifier{{Key: aws.String("a"), VersionId: aws.String(data)}, {Key: aws.String("a"), VersionId: aws.String(marker)}}
	deleteObjects := func(objects []types.ObjectIdentifier) []string {
		t.Helper()
		out, err := e.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String("demo"), Delete: &types.Delete{Objects: objects}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range out.Deleted {
			got = append(got, fmt.Sprintf("deleted %s %s %v", aws.ToString(d.Key), aws.ToString(d.VersionId), aws.ToBool(d.DeleteMarker)))
		}
		for _, d := range out.Errors {
			got = append(got, fmt.Sprintf("error %s %s %s", aws.ToString(d.Key), aws.ToString(d.VersionId), aws.ToString(d.Code)))
		}
		return got
	}
	first := deleteObjects(ids)
	if want := "deleted a v00000001 false\ndeleted a v00000002 true"; strings.Join(first, "\n") != want {
		t.Errorf("first DeleteObjects:\n%s\nwant:\n%s", strings.Join(first, "\n"), want)
	}
	again := deleteObjects(append(ids,
		types.ObjectIdentifier{Key: aws.String("a"), VersionId: aws.String("v00000099")},
		types.ObjectIdentifier{Key: aws.String("a"), VersionId: aws.String("bogus")}))
	want := "deleted a v00000001 false\ndeleted a v00000002 false\nerror a v00000099 NoSuchVersion\nerror a bogus InvalidArgument"
	if strings.Join(again, "\n") != want {
		t.Errorf("repeated DeleteObjects:\n%s\nwant:\n%s", strings.Join(again, "\n"), want)
	}
	list, err := e.client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String("demo")})
	if err != nil || len(list.Versions)+len(list.DeleteMarkers) != 0 {
		t.Errorf("the bucket holds %d versions and %d markers (%v), want none", len(list.Versions), len(list.DeleteMarkers), err)
	}
}
