//go:build !js

package page

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
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
	app := filepath.Join(chrome.RepoRoot(t), "static", "app")
	n := 0
	err := filepath.WalkDir(app, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") || filepath.Base(path) == "state.js" {
			return err
		}
		n++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := stateWrite.FindString(line); m != "" {
				rel, _ := filepath.Rel(app, path)
				t.Errorf("%s:%d changes the state in place (%s): call a function of state.js", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("found only %d modules in %s", n, app)
	}
}
