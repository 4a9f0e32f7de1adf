package jsonv

import (
	"encoding/json"
	"math"
	"testing"
)

// hostileStrings are strings encoding/json escapes or repairs: quotes,
// backslashes, every control character class, HTML's < > &, the JavaScript
// line separators, invalid and truncated UTF-8, and surrogate halves
// encoded as UTF-8.
var hostileStrings = []string{
	"",
	"plain ascii / with slash",
	`"quoted" and \backslashed\`,
	"\b\f\n\r\t",
	"\x00\x01\x1f\x7f",
	"<script>alert('x')</script> & more",
	"line\u2028sep\u2029para",
	"ünïcödé 日本語 🎉",
	"bad \xff byte",
	"truncated \xe6\x97",
	"\xed\xa0\x80 surrogate as UTF-8",
	"\xc0\xaf overlong",
	"a\u00a0b\ufeffc\ufffd",
	"tail \xf0",
}

func TestAppendStringIsEncodingJSON(t *testing.T) {
	for _, s := range hostileStrings {
		if got, want := AppendString([]byte("x"), s), append([]byte("x"), marshal(t, s)...); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, encoding/json writes %s", s, got[1:], want[1:])
		}
	}
}

func TestAppendFloatIsEncodingJSON(t *testing.T) {
	for _, f := range []float64{
		0, math.Copysign(0, -1), 1, -1, 0.1, 14.999, 1764694000.125, 1e-6, 9.99999e-7, 1e-7, 1.5e-300,
		1e20, 1e21, 123456789012345678901234.0, -3.5e22, math.MaxFloat64, math.SmallestNonzeroFloat64,
		1 << 53, float64(1<<53) + 2, 5e-324, 1e100,
		// Whole numbers, written as integers up to 2^53.
		1764694000, -1764694000, 1e15, -(1 << 53), 1<<53 - 1, -(1<<53 - 1), float64(1<<53) + 4, 4.5, -0.5,
	} {
		if got, want := AppendFloat(nil, f), marshal(t, f); string(got) != string(want) {
			t.Errorf("AppendFloat(%v) = %s, encoding/json writes %s", f, got, want)
		}
	}
}

func TestAppendArrayAndStringMapAreEncodingJSON(t *testing.T) {
	appendItem := func(b []byte, s string) []byte { return AppendString(b, s) }
	for _, items := range [][]string{nil, {}, {"a"}, hostileStrings} {
		if got, want := AppendArray(nil, items, appendItem), marshal(t, items); string(got) != string(want) {
			t.Errorf("AppendArray(%q) = %s, encoding/json writes %s", items, got, want)
		}
	}
	all := map[string]string{}
	for i, s := range hostileStrings {
		all[s] = hostileStrings[len(hostileStrings)-1-i]
	}
	for _, m := range []map[string]string{nil, {}, {"b": "2", "a": "1", "B": "", "é": "e", "a\x00": "nul"}, all} {
		if got, want := AppendStringMap(nil, m), marshal(t, m); string(got) != string(want) {
			t.Errorf("AppendStringMap(%q) = %s, encoding/json writes %s", m, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendString(nil, s), marshal(t, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json writes %s", s, got, want)
		}
	})
}

func FuzzAppendFloat(f *testing.F) {
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		if got, want := AppendFloat(nil, x), marshal(t, x); string(got) != string(want) {
			t.Fatalf("AppendFloat(%v) = %s, encoding/json writes %s", x, got, want)
		}
	})
}

// marshal is what encoding/json writes for v.
func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
