package terminal

import (
	"math"
	"time"

	"minis3/core"
)

// State is everything a shell keeps, for the page to save with its own
// state. It encodes to JSON (bytes as base64).
type State struct {
	Files   []FileState `json:"files"`
	Dirs    []string    `json:"dirs"`
	History []string    `json:"history"`
	// Status is the exit status of the last command: $?.
	Status int `json:"status"`
	// Undo are the steps undo takes back, the last first.
	Undo []UndoStep `json:"undo"`
}

// FileState is a file of the home folder.
type FileState struct {
	Name     string  `json:"name"`
	Data     []byte  `json:"data"`
	Modified float64 `json:"modified"` // Unix time, seconds
}

// UndoStep is what undoes one command line: the changes that put the
// store back, and the store's fingerprint after the command (and after
// anything the page did since), which must still be the store's for the
// changes to apply.
type UndoStep struct {
	Line        string   `json:"line"`
	Changes     []Change `json:"changes"`
	Fingerprint string   `json:"fingerprint"`
}

// Change is a core.Change: a stored item to write or remove.
type Change struct {
	Kind   core.Kind `json:"kind"`
	Key    string    `json:"key"`
	Value  []byte    `json:"value,omitempty"`
	Delete bool      `json:"delete,omitempty"`
}

func fromCore(changes []core.Change) []Change {
	out := make([]Change, len(changes))
	for i, c := range changes {
		out[i] = Change{Kind: c.Kind, Key: c.Key, Value: c.Value, Delete: c.Delete}
	}
	return out
}

func toCore(changes []Change) []core.Change {
	out := make([]core.Change, len(changes))
	for i, c := range changes {
		out[i] = core.Change{Kind: c.Kind, Key: c.Key, Value: c.Value, Delete: c.Delete}
	}
	return out
}

func unixTime(sec float64) time.Time {
	whole := math.Floor(sec)
	return time.Unix(int64(whole), int64((sec-whole)*1e9)).UTC()
}
