package strictjson

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

type clock struct {
	Now  *float64 `json:"now"`
	Time string   `json:"time"`
}

type rule struct {
	ID    string   `json:"id"`
	After *float64 `json:"after"`
	Count int      `json:"count"`
	Seq   uint64   `json:"seq"`
	Tags  []string `json:"tags"`
	Inner *clock   `json:"inner"`
}

func ptr[T any](v T) *T { return &v }

// A syntax error says what is wrong and at which byte, as encoding/json
// words it.
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
		{`{"now": 15}]`, "invalid character ']' after top-level value (at offset 11)"},
		{`{"now": 15}{"now": 16}`, "invalid character '{' after top-level value (at offset 11)"},
	} {
		var c clock
		if err := Decode([]byte(tt.doc), &c); err == nil || err.Error() != tt.want {
			t.Errorf("Decode(%q) = %v, want %s", tt.doc, err, tt.want)
		}
	}
}

// A value of the wrong type is named by its field's path and said as what
// it must be.
func TestTypeErrorsNameTheFieldAndTheType(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{`{"id": 1}`, "id must be a string, not a JSON number"},
		{`{"ID": true}`, "id must be a string, not a JSON bool"},
		{`{"after": "10"}`, "after must be a number, not a JSON string"},
		{`{"after": 1e999}`, "after must be a number, not a JSON number 1e999"},
		{`{"count": 1.5}`, "count must be an integer, not a JSON number 1.5"},
		{`{"seq": -1}`, "seq must be a non-negative integer, not a JSON number -1"},
		{`{"tags": {}}`, "tags must be an array, not a JSON object"},
		{`{"tags": [1]}`, "tags must be a string, not a JSON number"},
		{`{"inner": {"now": []}}`, "inner.now must be a number, not a JSON array"},
		{`{"inner": 5}`, "inner must be an object, not a JSON number"},
		{`[]`, "the value must be an object, not a JSON array"},
		{`{"id": 1, "count": "x"}`, "id must be a string, not a JSON number"},
	} {
		var r rule
		err := Decode([]byte(tt.doc), &r)
		var te *TypeError
		if !errors.As(err, &te) || err.Error() != tt.want {
			t.Errorf("Decode(%s) = %v, want the TypeError %s", tt.doc, err, tt.want)
		}
	}
}

func TestUnknownMembersAreRefused(t *testing.T) {
	for _, doc := range []string{`{"later": 1}`, `{"inner": {"now": 1, "soon": 2}}`, `{"id": "r", "idd": "s"}`} {
		var r rule
		if err := Decode([]byte(doc), &r); err == nil || !strings.HasPrefix(err.Error(), "json: unknown field ") {
			t.Errorf("Decode(%s) = %v, want an unknown field", doc, err)
		}
	}
}

// Names match under case folding, the last repeated member wins, null
// leaves a string as it is and clears a pointer or a slice.
func TestDecodeReadsAsEncodingJSONDoes(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		want rule
	}{
		{`{"id": "a", "after": 0}`, rule{ID: "a", After: ptr(0.0)}},
		{`{"ID": "a", "Id": "b", "after": null}`, rule{ID: "b"}},
		{`{"id": null, "tags": [], "inner": {"NOW": 2}}`, rule{Tags: []string{}, Inner: &clock{Now: ptr(2.0)}}},
		{`{"tags": ["x"], "tags": null, "seq": 18446744073709551615}`, rule{Seq: 18446744073709551615}},
		{" \n{\"id\": \"\\u00e9\\ud83c\\udf89\"}\t", rule{ID: "é🎉"}},
	} {
		var r rule
		if err := Decode([]byte(tt.doc), &r); err != nil || !reflect.DeepEqual(r, tt.want) {
			t.Errorf("Decode(%s) = %+v, %v; want %+v", tt.doc, r, err, tt.want)
		}
	}
}
