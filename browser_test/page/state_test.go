//go:build !js

package page

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// stateWrite matches JavaScript that changes the page's state in place:
// an assignment to a field of state, a call that changes a list, map or
// set held in it, or Object.assign onto it.
var stateWrite = regexp.MustCompile(`\bstate(\.\w+)+\s*(=[^=]|\+=|-=|\+\+|--)|\bstate(\.\w+)+\.(push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin|set|add|delete|clear)\(|Object\.assign\(\s*state\b`)

// TestOnlyStateJSChangesTheState greps the page's modules (static/app/)
// for writes into the page's state: state.js is its one owner, and every
// other module changes it through state.js's functions. (At run time a
// write elsewhere throws: the state is frozen.)
func TestOnlyStateJSChangesTheState(t *testing.T) {
	modules := appModules(t)
	if len(modules) < 10 {
		t.Fatalf("found only %v", modules)
	}
	for _, path := range modules {
		if filepath.Base(path) == "state.js" {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := stateWrite.FindString(line); m != "" {
				t.Errorf("%s:%d changes the state in place (%s): call a function of state.js", filepath.Base(path), i+1, strings.TrimSpace(line))
			}
		}
	}
}
