package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sample has a field of every kind the Decoder reads. "kind" and "s" have
// the letters whose case folding reaches beyond ASCII (K: U+212A, s:
// U+017F).
type sample struct {
	S    string            `json:"s"`
	Kind string            `json:"kind"`
	B    bool              `json:"b"`
	F    float64           `json:"f"`
	I    int               `json:"i"`
	I64  int64             `json:"i64"`
	U    uint64            `json:"u"`
	P    *float64          `json:"p"`
	M    map[string]string `json:"m"`
	L    []sample          `json:"l"`
	N    *sample           `json:"n"`
}

func readSample(d *Decoder, v *sample) error {
	return d.Object([]string{"s", "kind", "b", "f", "i", "i64", "u", "p", "m", "l", "n"}, func(name string) error {
		switch name {
		case "s":
			return d.String(&v.S)
		case "kind":
			return d.String(&v.Kind)
		case "b":
			return d.Bool(&v.B)
		case "f":
			return d.Float(&v.F)
		case "i":
			return d.Int(&v.I)
		case "i64":
			return d.Int64(&v.I64)
		case "u":
			return d.Uint64(&v.U)
		case "p":
			return Pointer(d, &v.P, (*Decoder).Float)
		case "m":
			return d.StringMap(&v.M)
		case "l":
			return Slice(d, &v.L, readSample)
		case "n":
			return Pointer(d, &v.N, readSample)
		}
		return nil
	})
}

// sampleDocs are documents for the differential tests: what encoding/json
// writes and reads, and what it refuses.
var sampleDocs = []string{
	// accepted
	`{}`, ` { } `, "\t\r\n{\"s\":\"x\"}\n", `null`,
	`{"s":"a","kind":"k","b":true,"f":1.5,"i":-3,"i64":9007199254740993,"u":18446744073709551615,"p":0,"m":{"a":"1"},"l":[{}],"n":{"s":"in"}}`,
	`{"u":1,"s":"reordered","f":-0}`,
	`{"S":"upper","KIND":"caps","\u017f":"long s","\u212aind":"kelvin"}`,
	`{"s":"first","s":"last","s":null}`,
	`{"b":true,"b":null,"p":1,"p":null,"m":{"a":"1"},"m":{"b":"2"},"m":null}`,
	`{"m":{"a":"1"},"m":{"b":"2","a":null}}`,
	`{"l":[{"s":"a","f":1},{"s":"b"}],"l":[{"f":2}]}`,
	`{"l":[{"s":"a"},{"s":"b"},{"s":"c"}],"l":[],"l":[{"i":1},{"i":2},{"i":3},{"i":4}]}`,
	`{"l":[{"s":"a"},{"s":"b"},{"s":"c"}],"l":[{"i":1}],"l":[{"i":1},{"i":2},{"i":3}]}`,
	`{"n":{"s":"a","f":1},"n":{"f":2}}`,
	`{"l":null,"n":null,"m":{}}`,
	`{"f":1e3,"i64":-0,"p":-1.25E-2,"u":0}`,
	`{"f":1e-400,"p":2.2250738585072014e-308}`,
	`{"s":"esc \" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u2028 \u003c"}`,
	`{"s":"pair \ud83c\udf89 lone \ud800 low \udc00 reversed \udc00\ud800 cut \ud83c\u0041 twice \ud83c\ud83c\udf89"}`,
	"{\"s\":\"raw \xff\xfe invalid, \xe6\x97 cut, \xed\xa0\x80 surrogate\"}",
	"{\"unknown\xff\":1,\"extra\":[1,{\"a\":[true,false,null]}],\"s\":\"kept\"}",
	`{"m":{"é":"1","\u0000":"nul"}}`,
	// refused: types
	`{"s":1}`, `{"s":true}`, `{"s":{}}`, `{"s":[]}`, `{"b":"true"}`, `{"b":0}`,
	`{"f":"1"}`, `{"f":1e400}`, `{"f":-1e309}`, `{"i":1.5}`, `{"i":1e3}`, `{"i":9223372036854775808}`,
	`{"i64":-9223372036854775809}`, `{"u":-1}`, `{"u":-0}`, `{"u":18446744073709551616}`, `{"u":1.0}`,
	`{"p":"x"}`, `{"m":[]}`, `{"m":{"a":1}}`, `{"l":{}}`, `{"l":[1]}`, `{"l":[{"s":1}]}`, `{"n":[]}`, `{"n":{"f":"x"}}`,
	`[]`, `"s"`, `1`, `true`,
	`{"s":1,"f":"first error wins"}`, `{"l":[{"n":{"m":{"a":false}}}]}`,
	// refused: syntax
	``, ` `, `{`, `{"s"`, `{"s":`, `{"s":"x"`, `{"s":"x",}`, `{,}`, `{"s" "x"}`, `{"s":"x" "f":1}`, `{s:"x"}`,
	`{"s":'x'}`, `{"s":"\x"}`, `{"s":"\u12"}`, `{"s":"\u12g4"}`, "{\"s\":\"tab\there\"}", "{\"s\":\"nl\nhere\"}",
	`{"f":01}`, `{"f":-}`, `{"f":1.}`, `{"f":.5}`, `{"f":1e}`, `{"f":1e+}`, `{"f":+1}`, `{"f":NaN}`, `{"f":Infinity}`,
	`{"b":tru}`, `{"b":True}`, `{"p":nul}`, `{"l":[1,]}`, `{"l":[,1]}`, `{"l":[1 2]}`,
	`{} {}`, `{}x`, `{}]`, `{}}`, `nul`, "\xef\xbb\xbf{}", "{}\x00", `{"s":"x"}/`,
}

// checkAsEncodingJSON reads doc into a sample with Unmarshal and with
// encoding/json, and fails unless both refuse it or both read the same
// value; when both refuse it for a value's type, the TypeError must say
// what encoding/json's says. With strict, unknown fields are refused, as
// by encoding/json's Decoder.DisallowUnknownFields.
func checkAsEncodingJSON(t *testing.T, doc []byte, strict bool) {
	t.Helper()
	var got, want sample
	d, err := NewDecoder(doc)
	if err == nil {
		d.Strict = strict
		err = readSample(d, &got)
	}
	var wantErr error
	if !json.Valid(doc) {
		wantErr = errors.New("not valid JSON")
	} else {
		dec := json.NewDecoder(bytes.NewReader(doc))
		if strict {
			dec.DisallowUnknownFields()
		}
		wantErr = dec.Decode(&want)
	}
	switch {
	case (err == nil) != (wantErr == nil):
		t.Fatalf("%q: jsonv says %v, encoding/json says %v", doc, err, wantErr)
	case err == nil && !reflect.DeepEqual(got, want):
		t.Fatalf("%q: jsonv reads %+v, encoding/json %+v", doc, got, want)
	case err == nil && string(marshal(t, got)) != string(marshal(t, want)):
		t.Fatalf("%q: jsonv reads %s, encoding/json %s", doc, marshal(t, got), marshal(t, want))
	}
	var te *TypeError
	var jte *json.UnmarshalTypeError
	if errors.As(wantErr, &jte) {
		if !errors.As(err, &te) || te.Field != jte.Field || te.Got != jte.Value || te.Want != kindOf(jte.Type) {
			t.Fatalf("%q: jsonv says %v, encoding/json says %v (%s must be %s)", doc, err, wantErr, jte.Field, kindOf(jte.Type))
		}
	} else if wantErr != nil && strings.Contains(wantErr.Error(), "unknown field") && err.Error() != wantErr.Error() {
		t.Fatalf("%q: jsonv says %v, encoding/json says %v", doc, err, wantErr)
	}
}

// kindOf is what a value of type t must be in JSON.
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a bool"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Uint64:
		return "a non-negative integer"
	}
	return "a number"
}

func TestDecodingIsEncodingJSON(t *testing.T) {
	for _, doc := range sampleDocs {
		checkAsEncodingJSON(t, []byte(doc), false)
		checkAsEncodingJSON(t, []byte(doc), true)
	}
}

func FuzzDecoding(f *testing.F) {
	f.Fuzz(func(t *testing.T, doc []byte, strict bool) {
		checkAsEncodingJSON(t, doc, strict)
	})
}

// Nesting is limited as in encoding/json: 10,000 levels, not one more.
func TestNestingIsLimitedAsInEncodingJSON(t *testing.T) {
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		for _, open := range []string{"[", `{"l":`} {
			close := map[string]string{"[": "]", `{"l":`: "}"}[open]
			doc := []byte(strings.Repeat(open, depth) + strings.Repeat(close, depth))
			if _, err := NewDecoder(doc); (err == nil) != json.Valid(doc) {
				t.Errorf("%d levels of %s: jsonv says %v, encoding/json valid = %v", depth, open, err, json.Valid(doc))
			}
		}
	}
}

func TestSyntaxErrorsSayWhatAndWhere(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{``, "unexpected end of JSON input (at offset 0)"},
		{`{"s":"x"`, "unexpected end of JSON input (at offset 8)"},
		{`rules please`, "invalid character 'r' looking for beginning of value (at offset 0)"},
		{`{"a":1,}`, "invalid character '}' looking for beginning of object key string (at offset 7)"},
		{`{"a" 1}`, "invalid character '1' after object key (at offset 5)"},
		{`{"a":1 "b":2}`, `invalid character '"' after object key:value pair (at offset 7)`},
		{`[1 2]`, "invalid character '2' after array element (at offset 3)"},
		{"\"a\tb\"", `invalid character '\t' in string literal (at offset 2)`},
		{`"\x"`, "invalid character 'x' in string escape code (at offset 2)"},
		{`"\u00g0"`, `invalid character 'g' in \u hexadecimal character escape (at offset 5)`},
		{`-x`, "invalid character 'x' in numeric literal (at offset 1)"},
		{`1.x`, "invalid character 'x' after decimal point in numeric literal (at offset 2)"},
		{`1ex`, "invalid character 'x' in exponent of numeric literal (at offset 2)"},
		{`trux`, "invalid character 'x' in literal true (expecting 'e') (at offset 3)"},
		{`{} x`, "invalid character 'x' after top-level value (at offset 3)"},
		{strings.Repeat("[", maxDepth+1), "exceeded max depth (at offset 10000)"},
	} {
		_, err := NewDecoder([]byte(tt.doc))
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("NewDecoder(%.20q) = %v, want the SyntaxError %s", tt.doc, err, tt.want)
		}
	}
}

// Raw returns a value's text as it stands, without the whitespace around
// it, and moves on.
func TestRawIsTheValuesText(t *testing.T) {
	d, err := NewDecoder([]byte(`{"a": [1, {"b": "\u0041"}] , "c" : null }`))
	if err != nil {
		t.Fatal(err)
	}
	var raws []string
	if err := d.Object([]string{"a", "c"}, func(string) error {
		raws = append(raws, string(d.Raw()))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(raws, "|"), `[1, {"b": "\u0041"}]|null`; got != want {
		t.Errorf("Raw read %s, want %s", got, want)
	}
}
