package web

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/textproto"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// get looks a header up by the key as given, so a key that is not in
// canonical form would never match what net/http stores.
func TestGetKeysAreCanonical(t *testing.T) {
	keys := map[string]string{} // key → where it is written
	for _, h := range unsupportedWriteHeaders {
		keys[h.key] = "unsupportedWriteHeaders"
	}
	for _, a := range checksumAlgorithms {
		keys[a.header] = "checksumAlgorithms"
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	calls := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			fn, ok := call.Fun.(*ast.Ident)
			if !ok || fn.Name != "get" {
				return true
			}
			if lit, ok := call.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				key, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				keys[key] = fset.Position(lit.Pos()).String()
				calls++
			}
			return true
		})
	}
	if calls == 0 {
		t.Fatal("found no call get(h, \"key\") to check")
	}
	for key, where := range keys {
		if want := textproto.CanonicalMIMEHeaderKey(key); key != want {
			t.Errorf("%s: header key %q is not canonical; get would never find it (write %q)", where, key, want)
		}
	}
}

func TestGetFindsWhatNetHTTPStores(t *testing.T) {
	h := make(map[string][]string)
	textproto.MIMEHeader(h).Add("x-amz-checksum-crc32", "AAAAAA==")
	textproto.MIMEHeader(h).Add("x-amz-checksum-crc32", "second")
	if got := get(h, "X-Amz-Checksum-Crc32"); got != "AAAAAA==" {
		t.Errorf("get = %q, want the first value AAAAAA==", got)
	}
	if got := get(h, "X-Amz-Tagging"); got != "" {
		t.Errorf("get of a missing header = %q, want empty", got)
	}
}
