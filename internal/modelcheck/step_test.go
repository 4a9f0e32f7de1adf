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
	ten := 10.0
	steps := []Step{
		{Op: CreateBucket, Bucket: "demo"},
		{Op: Put, Bucket: "demo", Key: "ü/é\x00\t", Body: "a\nb", ContentType: "text/plain", FailCommit: true},
		{Op: SetClock, Now: 14.999},
		{Op: Tick, Bucket: "demo", Rules: []model.Rule{{ID: "r", Prefix: "logs/", ExpireCurrentAfter: &ten}}},
		{Op: DeleteObjects, Bucket: "demo", Objects: []model.ObjectID{{Key: "a", VersionID: "null"}}},
		{Op: ListVersions, Bucket: "demo", List: &ListArgs{Prefix: "a", Delimiter: "/", KeyMarker: "a", VersionIDMarker: "v00000001", MaxKeys: 2}},
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
