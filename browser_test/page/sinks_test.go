//go:build !js

package page

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
)

// htmlSinks are the ways JavaScript turns a string into markup or code.
// The page builds its DOM with createElement and textContent only (dom.js
// h), so none may appear in its own scripts.
var htmlSinks = regexp.MustCompile(`\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|createContextualFragment|\.srcdoc\b|setHTMLUnsafe|parseHTMLUnsafe|\beval\s*\(|new\s+Function\s*\(|setAttribute\(\s*["']on|setAttribute\(\s*["']style`)

// TestPageScriptsHaveNoHTMLSinks greps the page's own scripts (static/app/
// and static/minis3.js; wasm_exec.js is Go's) for those sinks.
func TestPageScriptsHaveNoHTMLSinks(t *testing.T) {
	static := filepath.Join(chrome.RepoRoot(t), "static")
	files := append(appModules(t), filepath.Join(static, "minis3.js"))
	if len(files) < 8 {
		t.Fatalf("found only %v", files)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := htmlSinks.FindString(line); m != "" {
				t.Errorf("%s:%d uses %s: %s", filepath.Base(f), i+1, m, strings.TrimSpace(line))
			}
		}
	}
}
