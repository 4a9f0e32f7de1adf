package modelcheck

import (
	"flag"
	"testing"

	"pgregory.net/rapid"

	"minis3/internal/model"
)

// modelOnly is a face that takes every step and answers nothing: it lets
// the generator run on the model alone.
type modelOnly struct{}

func (modelOnly) Supports(Step) bool                { return true }
func (modelOnly) Do(Step) Outcome                   { return Outcome{} }
func (modelOnly) Observe(_ Step, o Outcome) Outcome { return o }
func (modelOnly) State() (model.State, error)       { return model.State{}, nil }
func (modelOnly) Close() error                      { return nil }

// TestSequencesReachEveryAnswer draws a thousand sequences on the model
// alone and checks that they reach every answer the check relies on: each
// op succeeding, each error code S3 gives for it, ticks that expire
// something, S3's lifecycle taking each kind of action, the expiry dates
// answers carry. A generator that stopped reaching one would check nothing
// there.
func TestSequencesReachEveryAnswer(t *testing.T) {
	for name, value := range map[string]string{"rapid.checks": "1000", "rapid.seed": "1", "rapid.steps": "50"} {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, value); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { flag.Set(name, old) })
	}
	seen := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		m := model.New(MinPartSize, pick(&generator{t: t}, "origin", origins))
		g := &generator{t: t, m: m, face: modelOnly{}}
		t.Repeat(map[string]func(*rapid.T){"step": func(t *rapid.T) {
			g.t = t
			s := g.step()
			o := Expect(m, s)
			for _, answer := range answers(s, o) {
				seen[answer]++
			}
		}})
	})
	for _, want := range []string{
		"create-bucket ok", "create-bucket BucketAlreadyOwnedByYou", "create-bucket InvalidBucketName",
		"delete-bucket ok", "delete-bucket BucketNotEmpty", "head-bucket ok", "list-buckets ok",
		"set-versioning ok", "get-versioning ok",
		"put ok", "put NoSuchBucket", "put KeyTooLongError",
		"get ok", "get NoSuchKey", "get NoSuchVersion", "get MethodNotAllowed", "get InvalidArgument",
		"head ok", "head NoSuchKey", "head MethodNotAllowed",
		"delete ok", "delete InvalidArgument", "delete-objects ok",
		"list-versions ok", "list-versions InvalidArgument", "list-objects ok",
		"create-upload ok", "upload-part ok", "upload-part NoSuchUpload", "complete-upload ok",
		"complete-upload InvalidPart", "complete-upload InvalidRequest", "complete-upload NoSuchUpload",
		"abort-upload ok", "list-parts ok", "list-uploads ok",
		"set-clock ok", "evaluate ok", "evaluate InvalidArgument", "tick ok", "tick with actions", "tick InvalidArgument",
		"put-lifecycle ok", "put-lifecycle InvalidArgument", "put-lifecycle MalformedXML", "put-lifecycle InvalidRequest",
		"get-lifecycle ok", "get-lifecycle NoSuchLifecycleConfiguration", "delete-lifecycle ok",
		"run-lifecycle ok", "preview-lifecycle ok", "set-clock with runs",
		"lifecycle expire_current", "lifecycle expire_noncurrent", "lifecycle expire_delete_marker",
		"lifecycle abort_multipart_upload", "lifecycle transition", "lifecycle transition_noncurrent",
		"put with an expiry", "get with an expiry", "head with an expiry", "create-upload with an abort date",
		"put InvalidTag", "put BadRequest", "get InvalidObjectState",
		"put-tagging ok", "put-tagging InvalidTag", "put-tagging BadRequest", "put-tagging NoSuchKey", "put-tagging MethodNotAllowed",
		"get-tagging ok", "get-tagging NoSuchKey", "delete-tagging ok",
		"put PreconditionFailed", "put NoSuchKey", "complete-upload PreconditionFailed", "complete-upload ConditionalRequestConflict",
		"put-bucket-tagging ok", "put-bucket-tagging BadRequest", "put-bucket-tagging InvalidTag",
		"get-bucket-tagging ok", "get-bucket-tagging NoSuchTagSet", "delete-bucket-tagging ok",
		"reopen ok", "a refused commit",
	} {
		if seen[want] < 20 {
			t.Errorf("a thousand sequences answered %q %d times, want at least 20", want, seen[want])
		}
	}
}

// answers are the answers a step reached, as TestSequencesReachEveryAnswer
// names them.
func answers(s Step, o Outcome) []string {
	out := []string{string(s.Op) + " ok"}
	if o.Err != nil {
		out = []string{string(s.Op) + " " + o.Err.Code}
	}
	if s.FailCommit {
		out = append(out, "a refused commit")
	}
	var actions []model.Action
	switch v := o.Value.(type) {
	case []model.Action:
		if len(v) > 0 && s.Op == Tick {
			out = append(out, "tick with actions")
		}
		if s.Op == RunLifecycle {
			actions = v
		}
	case []model.Run:
		if len(v) > 0 {
			out = append(out, "set-clock with runs")
		}
		for _, run := range v {
			actions = append(actions, run.Actions...)
		}
	case model.PutResult:
		if v.Expiration != nil {
			out = append(out, string(s.Op)+" with an expiry")
		}
	case model.Object:
		if v.Expiration != nil {
			out = append(out, string(s.Op)+" with an expiry")
		}
	case model.UploadInfo:
		if v.Abort != nil {
			out = append(out, "create-upload with an abort date")
		}
	}
	for _, a := range actions {
		out = append(out, "lifecycle "+a.Kind)
	}
	return out
}
