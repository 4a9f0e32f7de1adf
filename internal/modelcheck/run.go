package modelcheck

import (
	"embed"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"minis3/internal/model"
)

// Regressions are the sequences that once found a disagreement: each face
// replays every one it supports before it draws new ones.
//
//go:embed testdata/regressions/*.jsonl
var regressions embed.FS

// SoakVariable names the environment variable that turns a check into a
// soak: MINIS3_SOAK=10m draws sequences for ten minutes instead of a fixed
// number.
const SoakVariable = "MINIS3_SOAK"

// tb is what the runner needs of a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Check checks a face against the model: it replays the regressions, then
// draws c.Sequences random sequences (or sequences for the time
// MINIS3_SOAK gives), each on a new store. A disagreement fails the test
// with the shortest sequence that still shows it: rapid shrinks the
// sequence, then steps are left out one at a time while it still fails.
// A native test saves that sequence under testdata/regressions.
func Check(t *testing.T, c Config) {
	t.Run("regressions", func(t *testing.T) { replayRegressions(t, c) })
	t.Run("random", func(t *testing.T) {
		setRapidFlags(t, c)
		var failed []Step // the last sequence that failed
		t.Cleanup(func() {
			if t.Failed() && failed != nil {
				shortest := minimize(t, c, failed)
				problem, detail := attempt(t, c, shortest)
				t.Logf("the shortest sequence found:\n%s\n%s", problem, detail)
				saveFailure(t, c.Name, shortest, problem)
			}
		})
		soak := os.Getenv(SoakVariable)
		if soak == "" {
			rapid.Check(t, property(t, c, &failed, nil))
			return
		}
		d, err := time.ParseDuration(soak)
		if err != nil {
			t.Fatalf("%s=%q: %v", SoakVariable, soak, err)
		}
		var steps atomic.Int64
		sequences, start := 0, time.Now()
		for time.Since(start) < d {
			rapid.Check(t, property(t, c, &failed, &steps))
			sequences += c.Sequences
		}
		fmt.Printf("model soak, face %s: %d steps in %d sequences checked in %v, no disagreement\n",
			c.Name, steps.Load(), sequences, time.Since(start).Round(time.Second))
	})
}

// setRapidFlags sets rapid's number of checks and steps for this face, and
// turns off rapid's own fail files: a failure is saved as readable steps.
func setRapidFlags(t *testing.T, c Config) {
	set := func(name, value string) {
		if err := flag.Set(name, value); err != nil {
			t.Fatalf("setting -%s: %v", name, err)
		}
	}
	set("rapid.checks", strconv.Itoa(c.Sequences))
	if c.Steps > 0 {
		set("rapid.steps", strconv.Itoa(c.Steps))
	}
	set("rapid.nofailfile", "true")
}

// property is one random sequence on a new store, opened for the test
// outer. A sequence that fails is kept in failed; steps, when set, counts
// the steps checked.
func property(outer *testing.T, c Config, failed *[]Step, steps *atomic.Int64) func(*rapid.T) {
	return func(t *rapid.T) {
		open := Step{Op: Open, Origin: pick(&generator{t: t}, "origin", origins)}
		r := newRunner(t, c, outer, open)
		defer r.close()
		g := &generator{t: t, m: r.m, face: r.face}
		t.Repeat(map[string]func(*rapid.T){
			"step": func(t *rapid.T) {
				g.t, g.m = t, r.m
				s := g.step()
				if problem, detail := r.play(s); problem != "" {
					*failed = slices.Clone(r.steps)
					t.Fatalf("%s\n%s", problem, detail)
				}
				if steps != nil {
					steps.Add(1)
				}
			},
		})
	}
}

// minimizeTime bounds minimize: in the browser a long sequence replayed
// once per step could outlast the test's timeout.
const minimizeTime = 30 * time.Second

// attempt plays steps on a new face and the model, leaving out those the
// face does not support, and returns the first disagreement, or "".
func attempt(t *testing.T, c Config, steps []Step) (problem, detail string) {
	open := Step{Op: Open, Origin: DefaultOrigin}
	if len(steps) > 0 && steps[0].Op == Open {
		open, steps = steps[0], steps[1:]
	}
	r := newRunner(t, c, t, open)
	defer r.close()
	for _, s := range steps {
		if !r.face.Supports(s) {
			continue
		}
		if problem, detail := r.play(s); problem != "" {
			return problem, detail
		}
	}
	return "", ""
}

// minimize leaves out each step, and each refused commit, while the
// sequence still fails: rapid's shrinking keeps steps whose removal
// changes what the steps after them draw. It stops after minimizeTime,
// with the shortest sequence found by then.
func minimize(t *testing.T, c Config, steps []Step) []Step {
	deadline := time.Now().Add(minimizeTime)
	for i := len(steps) - 1; i >= 0 && time.Now().Before(deadline); i-- {
		shorter := slices.Delete(slices.Clone(steps), i, i+1)
		if problem, _ := attempt(t, c, shorter); problem != "" {
			steps = shorter
			continue
		}
		if steps[i].FailCommit {
			kept := slices.Clone(steps)
			kept[i].FailCommit = false
			if problem, _ := attempt(t, c, kept); problem != "" {
				steps = kept
			}
		}
	}
	return steps
}

// runner plays steps on a face and the model side by side.
type runner struct {
	t     tb
	face  Face
	m     *model.Store
	steps []Step
	log   []string // each step and the model's answer
}

// newRunner opens a face and the model as step open says, for the test
// outer, and logs the step as the sequence's first.
func newRunner(t tb, c Config, outer *testing.T, open Step) *runner {
	r := &runner{t: t, face: c.Open(outer, open.Origin), m: model.New(MinPartSize, open.Origin)}
	r.steps = append(r.steps, open)
	r.log = append(r.log, fmt.Sprintf("%3d. %s", 1, open))
	return r
}

func (r *runner) close() {
	if err := r.face.Close(); err != nil {
		r.t.Fatalf("closing the store: %v", err)
	}
}

// play takes one step on both and returns "" when they agree, or what
// differs: the sequence and the answers, and the detail of the difference.
// When the step's commit is refused, the store must answer InternalError
// and stay as it was, unless the step changes nothing in the model, not
// even a counter (it may then commit nothing and answer as the model).
func (r *runner) play(s Step) (problem, detail string) {
	r.steps = append(r.steps, s)
	before := r.m.Clone()
	want := Expect(r.m, s)
	mayFail := false
	if s.FailCommit {
		if reflect.DeepEqual(before, r.m) {
			mayFail = true
		} else {
			r.m, want = before, refused()
		}
	}
	got := r.face.Do(s)
	w, g := r.face.Observe(s, want), r.face.Observe(s, got)
	agree := Equal(w, g) || mayFail && Equal(r.face.Observe(s, refused()), g)
	r.log = append(r.log, fmt.Sprintf("%3d. %s\n       → %s", len(r.steps), s, w))
	if !agree {
		return r.report(fmt.Sprintf("the answers differ:\n  model: %s\n  store: %s", w, g)), Diff(w, g)
	}
	st, err := r.face.State()
	if err != nil {
		return r.report("reading the store's state: " + err.Error()), ""
	}
	if want := r.m.State(); !EqualStates(want, st) {
		return r.report("the states differ after the step (- model, + store):"), Diff(want, st)
	}
	return "", ""
}

// refused is the answer to a step whose commit the storage refused.
func refused() Outcome {
	return Outcome{Err: &model.Error{Code: "InternalError"}, Headers: &Headers{Status: 500}}
}

func (r *runner) report(what string) string {
	return fmt.Sprintf("model and store disagree at step %d of this sequence:\n%s\n%s",
		len(r.steps), strings.Join(r.log, "\n"), what)
}

// replayRegressions plays every saved sequence the face supports.
func replayRegressions(t *testing.T, c Config) {
	names, err := fs.Glob(regressions, "testdata/regressions/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		data, err := regressions.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := DecodeSteps(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(name), ".jsonl"), func(t *testing.T) {
			Replay(t, c, steps)
		})
	}
}

// Replay plays steps on a new face and the model; steps the face does not
// support are left out.
func Replay(t *testing.T, c Config, steps []Step) {
	if problem, detail := attempt(t, c, steps); problem != "" {
		t.Fatalf("%s\n%s", problem, detail)
	}
}

// saveFailure writes a failing sequence to testdata/regressions, where
// every later run replays it. A test in the browser cannot write there;
// the sequence it prints is saved by hand.
func saveFailure(t *testing.T, face string, steps []Step, problem string) {
	_, file, _, ok := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "testdata", "regressions")
	if _, err := os.Stat(dir); !ok || runtime.GOOS == "js" || err != nil {
		t.Logf("save these steps as %s/new-%s.jsonl:\n%s", dir, face, EncodeSteps("", steps))
		return
	}
	name := filepath.Join(dir, "new-"+face+".jsonl")
	data := EncodeSteps(fmt.Sprintf("Found by the %s face; rename this file after the bug it shows.\n\n%s", face, problem), steps)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Logf("saving the sequence: %v", err)
		return
	}
	t.Logf("saved as %s", name)
}
