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
// something. A generator that stopped reaching one would check nothing
// there.
func TestSequencesReachEveryAnswer(t *testing.T) {
	for name, value := range map[string]string{"rapid.checks": "1000", "rapid.seed": "1", "rapid.steps": "30"} {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, value); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { flag.Set(name, old) })
	}
	seen := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		m := model.New(MinPartSize)
		g := &generator{t: t, m: m, face: modelOnly{}}
		t.Repeat(map[string]func(*rapid.T){"step": func(t *rapid.T) {
			g.t = t
			s := g.step()
			o := Expect(m, s)
			answer := string(s.Op) + " ok"
			if o.Err != nil {
				answer = string(s.Op) + " " + o.Err.Code
			}
			if a, ok := o.Value.([]model.Action); ok && len(a) > 0 && s.Op == Tick {
				answer = "tick with actions"
			}
			seen[answer]++
			if s.FailCommit {
				seen["a refused commit"]++
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
		"put-lifecycle ok", "put-lifecycle InvalidArgument", "get-lifecycle NoSuchLifecycleConfiguration", "delete-lifecycle ok",
		"reopen ok", "a refused commit",
	} {
		if seen[want] < 20 {
			t.Errorf("a thousand sequences answered %q %d times, want at least 20", want, seen[want])
		}
	}
}
