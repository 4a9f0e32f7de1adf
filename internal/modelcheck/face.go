package modelcheck

import (
	"testing"

	"minis3/internal/model"
)

// Face is one way into MiniS3, driven step by step beside the model: the
// Go API, the S3 HTTP API, or the JavaScript API in the browser.
type Face interface {
	// Supports reports whether the face can take the step: its op, its
	// arguments (an empty key has no URL), and FailCommit (whether the
	// face can make its storage refuse a commit).
	Supports(s Step) bool
	// Do takes the step and reports what the face answered, in the model's
	// terms. With s.FailCommit it makes the storage refuse the step's
	// commit, and only that one.
	Do(s Step) Outcome
	// Observe is what the face can see of an answer: it blurs what the
	// face cannot show (HTTP's whole-second dates, the headers a Go call
	// has not got). The runner compares observed answers.
	Observe(s Step, o Outcome) Outcome
	// State is everything a client of the face can read of the store.
	State() (model.State, error)
	// Close releases the face's store.
	Close() error
}

// Config is how one face is checked.
type Config struct {
	// Name names the face in messages and in the files of failing
	// sequences: "go", "go-bolt", "http", "js".
	Name string
	// Open is a face over a new, empty store whose manual clock reads 0
	// at origin (seconds since the Unix epoch) and whose part minimum is
	// MinPartSize.
	Open func(t *testing.T, origin float64) Face
	// Sequences is how many random sequences one run of make test checks.
	Sequences int
	// Steps is the average length of a sequence; 0 means rapid's default.
	Steps int
}
