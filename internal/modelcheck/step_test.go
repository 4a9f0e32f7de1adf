package modelcheck

import (
	"reflect"
	"strings"
	"testing"

	"minis3/internal/model"
)

// TestStepsRoundTripThroughTheirFile checks that a saved sequence reads
// back as the same steps, odd strings included. (JSON carries text: the
// generator makes no string that is not UTF-8.)
func TestStepsRoundTripThroughTheirFile(t *testing.T) {
	ten, one, two := 10.0, 1, 2
	date, yes, size := 1764892800.0, true, int64(5)
	steps := []Step{
		{Op: Open, Origin: DefaultOrigin + 13.5*3600},
		{Op: CreateBucket, Bucket: "demo"},
		{Op: Put, Bucket: "demo", Key: "ü/é\x00\t", Body: "a\nb", ContentType: "text/plain", FailCommit: true},
		{Op: SetClock, Now: 14.999},
		{Op: Tick, Bucket: "demo", Rules: []model.Rule{{ID: "r", Prefix: "logs/", ExpireCurrentAfter: &ten}}},
		{Op: DeleteObjects, Bucket: "demo", Objects: []model.ObjectID{{Key: "a", VersionID: "null"}}},
		{Op: ListVersions, Bucket: "demo", List: &ListArgs{Prefix: "a", Delimiter: "/", KeyMarker: "a", VersionIDMarker: "v00000001", MaxKeys: 2}},
		{Op: Put, Bucket: "demo", Key: "a", Tags: []model.Tag{{Key: "env", Value: ""}}},
		{Op: PutTagging, Bucket: "demo", Key: "a", VersionID: "null"},
		{Op: PutLifecycle, Bucket: "demo", Lifecycle: &model.LifecycleConfiguration{Rules: []model.LifecycleRule{
			{ID: "r1", Enabled: true, Prefix: new(string), Expiration: &model.Expiration{Days: &one}},
			{Filter: &model.LifecycleFilter{And: &model.LifecycleAnd{Prefix: new(string), Tags: []model.Tag{{Key: "env", Value: "prod"}}, ObjectSizeLessThan: &size}},
				Expiration:                     &model.Expiration{Date: &date, ExpiredObjectDeleteMarker: &yes},
				NoncurrentVersionExpiration:    &model.NoncurrentVersionExpiration{NewerNoncurrentVersions: &two},
				AbortIncompleteMultipartUpload: &model.AbortIncompleteMultipartUpload{DaysAfterInitiation: 1},
				Transitions:                    []model.Transition{{Days: &one, StorageClass: "GLACIER"}},
				NoncurrentVersionTransitions:   []model.NoncurrentVersionTransition{{StorageClass: "DEEP_ARCHIVE", NewerNoncurrentVersions: &one}}},
		}}},
		{Op: SetClock, Now: 86400},
	}
	got, err := DecodeSteps(EncodeSteps("a comment\non two lines", steps))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, steps) {
		t.Errorf("read back\n%v\nwant\n%v", got, steps)
	}
}

// TestStepFileRefusesUnknownFields checks that a misspelt field in a saved
// sequence is an error, not a step with an argument left out.
func TestStepFileRefusesUnknownFields(t *testing.T) {
	_, err := DecodeSteps([]byte(`{"op":"put","bucket":"demo","kye":"a"}`))
	if err == nil || !strings.Contains(err.Error(), "kye") {
		t.Errorf("DecodeSteps = %v, want an error naming the unknown field", err)
	}
}

// TestOnlyTheFirstStepOpens checks that a saved sequence cannot open its
// store anywhere but at its start.
func TestOnlyTheFirstStepOpens(t *testing.T) {
	_, err := DecodeSteps([]byte(`{"op":"create-bucket","bucket":"demo"}` + "\n" + `{"op":"open","origin":1764806400}`))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("DecodeSteps = %v, want an error for line 2", err)
	}
}
