package awscli

import (
	"reflect"
	"strings"
	"testing"
)

// The expected values of these tables are what Python 3.11 and the aws
// CLI's own modules give for the same input.

func TestPyFloatIsPythonsRepr(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {1, "1.0"}, {1.5, "1.5"}, {0.1, "0.1"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
		{123456789012345678, "1.2345678901234568e+17"}, {0.0001, "0.0001"}, {0.00001, "1e-05"}, {1.5e-7, "1.5e-07"},
		{-2.5, "-2.5"}, {3.14159, "3.14159"}, {1e300, "1e+300"}, {1 << 53, "9007199254740992.0"},
	} {
		if got := pyFloat(c.f); got != c.want {
			t.Errorf("pyFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestPyJSONDecodeErrorsAreJSONModules(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "Expecting value: line 1 column 1 (char 0)"},
		{` `, "Expecting value: line 1 column 2 (char 1)"},
		{`{`, "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
		{`{"a"`, "Expecting ':' delimiter: line 1 column 5 (char 4)"},
		{`{"a":`, "Expecting value: line 1 column 6 (char 5)"},
		{`{"a":1`, "Expecting ',' delimiter: line 1 column 7 (char 6)"},
		{`{"a":1,`, "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"},
		{`{"a":1,}`, "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"},
		{`[1,]`, "Expecting value: line 1 column 4 (char 3)"},
		{`[1 2]`, "Expecting ',' delimiter: line 1 column 4 (char 3)"},
		{`{"a" 1}`, "Expecting ':' delimiter: line 1 column 6 (char 5)"},
		{`{a:1}`, "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
		{`"abc`, "Unterminated string starting at: line 1 column 1 (char 0)"},
		{`"a\qb"`, `Invalid \escape: line 1 column 3 (char 2)`},
		{"\"a\x01b\"", "Invalid control character at: line 1 column 3 (char 2)"},
		{`"\u12"`, `Invalid \uXXXX escape: line 1 column 3 (char 2)`},
		{`{"a":1} x`, "Extra data: line 1 column 9 (char 8)"},
		{`tru`, "Expecting value: line 1 column 1 (char 0)"},
		{`01`, "Extra data: line 1 column 2 (char 1)"},
		{`1.`, "Extra data: line 1 column 2 (char 1)"},
		{`{"é":"ü" 1}`, "Expecting ',' delimiter: line 1 column 10 (char 9)"},
		{"\n\n  {\"a\":\n 1 2}", "Expecting ',' delimiter: line 4 column 4 (char 13)"},
		{`"\`, "Unterminated string starting at: line 1 column 1 (char 0)"},
		{`{"a":[1,2,}`, "Expecting value: line 1 column 11 (char 10)"},
		{`{"Status": "Enabled"`, "Expecting ',' delimiter: line 1 column 21 (char 20)"},
	} {
		_, err := pyJSONDecode(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

func TestPyJSONKeepsTheOrderOfMembers(t *testing.T) {
	v, err := pyJSONDecode(`{"b": 1, "a": [true, null, 1.5, "x"], "b": 2}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n    \"b\": 2,\n    \"a\": [\n        true,\n        null,\n        1.5,\n        \"x\"\n    ]\n}"
	if got := pyJSON(v); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := pyRepr(v); got != "OrderedDict([('b', 2), ('a', [True, None, 1.5, 'x'])])" {
		t.Fatalf("repr: %s", got)
	}
}

func TestPyJSONEscapesAsEnsureASCIIFalse(t *testing.T) {
	if got := pyJSON("é\"\\\n\x01\u2028"); got != "\"é\\\"\\\\\\n\\u0001\u2028\"" {
		t.Fatalf("%s", got)
	}
}

func TestCloseMatchesAreDifflibs(t *testing.T) {
	ops := []string{"list-object-versions", "list-objects", "list-objects-v2", "list-buckets", "get-object-tagging", "put-object-tagging", "get-object", "delete-object-tagging"}
	for _, c := range []struct {
		word string
		want []string
	}{
		{"list-object-version", []string{"list-object-versions"}},
		{"list-objects-v3", []string{"list-objects-v2", "list-objects"}},
		{"get-object-tagg", []string{"get-object-tagging", "get-object"}},
		{"lst-buckets", []string{"list-buckets"}},
		{"s3apii", nil},
	} {
		if got := closeMatches(c.word, ops, 3, 0.8); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.word, got, c.want)
		}
	}
}

func TestFnmatchIsPythons(t *testing.T) {
	for _, c := range []struct {
		name, pattern string
		want          bool
	}{
		{"/h/dir/a.txt", "/h/dir/*.txt", true},
		{"/h/dir/sub/c.txt", "/h/dir/*.txt", true},
		{"b/k/x.json", "b/k/*", true},
		{"a.txt", "[!a]*", false},
		{"a.txt", "[a-c]?txt", true},
		{"[x", "[x", true},
		{"ab", "a[]b]", true},
		{"a]b", "a[]b]", false},
		{"a]", "a[]b]", true},
	} {
		if got := fnmatch(c.name, c.pattern); got != c.want {
			t.Errorf("fnmatch(%q, %q) = %v", c.name, c.pattern, got)
		}
	}
}

func TestShorthandIsTheCLIs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a=b", `{"a":"b"}`},
		{"a=b,c=d", `{"a":"b","c":"d"}`},
		{"a=b,c", `{"a":["b","c"]}`},
		{"a=[1,2],b={c=d}", `{"a":["1","2"],"b":{"c":"d"}}`},
		{"Objects=[{Key=a},{Key=b}],Quiet=true", `{"Objects":[{"Key":"a"},{"Key":"b"}],"Quiet":"true"}`},
		{"a='x,y'", `{"a":"x,y"}`},
		{`a="q\"x"`, `{"a":"q\"x"}`},
		{`a=b\,c`, `{"a":"b,c"}`},
		{"a= b ,c = d", `{"a":"b","c":"d"}`},
		{"Key=a b,Value=c", `{"Key":"a b","Value":"c"}`},
		{"a=[b,c]", `{"a":["b","c"]}`},
		{"a={b=c,d=[e]}", `{"a":{"b":"c","d":["e"]}}`},
		{"a=1,a=2", "ERR Second instance of key \"a\" encountered for input:\na=1,a=2\n    ^\nThis is often because there is a preceding \",\" instead of a space."},
		{"a", "ERR Expected: '=', received: 'EOF' for input:\n{self._error_location()}"},
		{"a=b,", "ERR Expected: '<second>', received: '<none>' for input:\n{self._error_location()}"},
		{"a=[{b=c}]x", "ERR Expected: ',', received: 'x' for input:\n{self._error_location()}"},
	} {
		d, err := parseShorthand(c.in, nil)
		got := ""
		if err != nil {
			got = "ERR " + err.Error()
		} else {
			got = pyJSONCompact(d)
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
	}
}

func TestTextOutputIsTheCLIs(t *testing.T) {
	d := func(kv ...any) *Dict { return dict(kv...) }
	for _, c := range []struct {
		v    any
		want string
	}{
		{d("a", int64(1), "b", []any{d("x", int64(1), "y", "z"), d("x", int64(2), "w", nil)}, "c", d("d", true)), "1\nB\t\t1\tz\nB\tNone\t2\t\nC\tTrue\n"},
		{[]any{int64(1), int64(2), int64(3)}, "1\t2\t3\n"},
		{[]any{[]any{int64(1), int64(2)}, []any{int64(3)}}, "1\t2\n3\n"},
		{d("L", []any{int64(1), "a"}), "L\t1\nL\ta\n"},
		{"x", "x\n"},
		{nil, "None\n"},
		{[]any{d("a", []any{int64(1), int64(2)}), d("a", "s")}, "[1, 2]\ns\n"},
	} {
		var b strings.Builder
		formatText(&b, c.v)
		if b.String() != c.want {
			t.Errorf("%s: %q, want %q", pyRepr(c.v), b.String(), c.want)
		}
	}
}

func TestNextTokenIsBotocoresBase64OfJSON(t *testing.T) {
	tok := dict("KeyMarker", nil, "VersionIdMarker", nil, "boto_truncate_amount", int64(2))
	if got := encodeToken(tok); got != "eyJLZXlNYXJrZXIiOiBudWxsLCAiVmVyc2lvbklkTWFya2VyIjogbnVsbCwgImJvdG9fdHJ1bmNhdGVfYW1vdW50IjogMn0=" {
		t.Fatalf("token: %s", got)
	}
	back := decodeToken("eyJLZXlNYXJrZXIiOiAiazAyIiwgIlZlcnNpb25JZE1hcmtlciI6ICJ2MDAwMDAwMDIifQ==")
	if back == nil || back.truncate != nil || pyRepr(back.values) != "OrderedDict([('KeyMarker', 'k02'), ('VersionIdMarker', 'v00000002')])" {
		t.Fatalf("decoded: %+v", back)
	}
}

func TestLegacyLiteralsBecomeJSONStrings(t *testing.T) {
	for _, c := range [][2]string{
		{"Buckets[?Name == `demo`].Name", "Buckets[?Name == `\"demo\"`].Name"},
		{"a[?b == `\"x\"`]", "a[?b == `\"x\"`]"},
		{"`1`", "`1`"},
		{"'a`b'", "'a`b'"},
	} {
		if got := legacyLiterals(c[0]); got != c[1] {
			t.Errorf("%s: %s, want %s", c[0], got, c[1])
		}
	}
}
