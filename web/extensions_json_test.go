package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http/httptest"
	"reflect"
	"testing"

	"minis3/core"
	"minis3/internal/jsonv"
)

// referenceDecodeJSON is decodeJSON as it was over encoding/json: the
// reference the extensions' requests are read against.
func referenceDecodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := te.Field
			if field == "" {
				field = "the value"
			}
			kind := map[reflect.Kind]string{reflect.Float64: "a number", reflect.String: "a string",
				reflect.Slice: "an array", reflect.Struct: "an object"}[te.Type.Kind()]
			return jsonInvalid("%s must be %s, not a JSON %s", field, kind, te.Value)
		}
		return jsonInvalid("not the expected JSON: %v", err)
	}
	if dec.More() {
		return jsonInvalid("more than one JSON value where one is expected")
	}
	return nil
}

// closerAfterValue reports whether data is a JSON value followed by a ]
// or }, which encoding/json's Decoder.More took for the end of a stream:
// the old decodeJSON accepted such bodies, the new one refuses them.
func closerAfterValue(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")
	return len(rest) > 0 && (rest[0] == ']' || rest[0] == '}')
}

// A requestShape is one JSON request of the extensions, read with the
// new decoder and with the reference.
type requestShape struct {
	name            string
	read, reference func(data []byte) (any, error)
}

var requestShapes = []requestShape{
	{"clock",
		func(data []byte) (any, error) {
			var c clockJSON
			return c, decodeJSON(data, func(d *jsonv.Decoder) error { return readClock(d, &c) })
		},
		func(data []byte) (any, error) {
			var c clockJSON
			return c, referenceDecodeJSON(data, &c)
		}},
	{"tick body",
		func(data []byte) (any, error) {
			var rules []byte
			err := decodeJSON(data, func(d *jsonv.Decoder) error { return readTickBody(d, &rules) })
			return string(rules), err
		},
		func(data []byte) (any, error) {
			var in struct {
				Rules json.RawMessage `json:"rules"`
			}
			return string(in.Rules), referenceDecodeJSON(data, &in)
		}},
	{"rules",
		func(data []byte) (any, error) {
			var in []RuleJSON
			return in, decodeJSON(data, func(d *jsonv.Decoder) error { return jsonv.Slice(d, &in, readRule) })
		},
		func(data []byte) (any, error) {
			var in []RuleJSON
			return in, referenceDecodeJSON(data, &in)
		}},
}

// checkRequestDecoding reads data as every request shape and fails unless
// the new decoder and the reference both refuse it or both read the same
// value. A refusal for a value's type or an unknown field must say what
// the reference says; syntax errors are worded anew, with their offset.
func checkRequestDecoding(t *testing.T, data []byte) {
	t.Helper()
	for _, s := range requestShapes {
		got, err := s.read(data)
		want, wantErr := s.reference(data)
		switch {
		case err != nil && wantErr == nil && closerAfterValue(data):
		case (err == nil) != (wantErr == nil):
			t.Fatalf("%s %q: decodeJSON says %v, the reference says %v", s.name, data, err, wantErr)
		case err == nil && !reflect.DeepEqual(got, want):
			t.Fatalf("%s %q: decodeJSON reads %#v, the reference %#v", s.name, data, got, want)
		case err != nil && json.Valid(data) && err.Error() != wantErr.Error():
			t.Fatalf("%s %q: decodeJSON says\n%v\nthe reference says\n%v", s.name, data, err, wantErr)
		}
	}
}

// requestDocs are request bodies of the extensions, read as the reference
// reads them, and refused as it refuses them.
var requestDocs = []string{
	`{"now": 15}`, `{"now":-1e308}`, `{"now":null}`, `{"Now":1,"NOW":2}`, `{"now":1,"now":null}`, `{}`, ` {"now" : 1.5e3 } `,
	`{"rules": [{"id": "logs", "prefix": "logs/", "expireCurrentAfter": 10, "expireNoncurrentAfter": 12}]}`,
	`{"rules": null}`, `{"rules":[],"rules":null}`, `{"RULES":[{"ID":"x","Prefix":"p","ExpireCurrentAfter":0}]}`,
	`[{"id": "a", "prefix": "p/", "expireCurrentAfter": 0}, {"id": "b", "expireNoncurrentAfter": 2.5}]`,
	`[{"id":"\u003c\ud83c\udf89\ud800","expireCurrentAfter":1,"expireCurrentAfter":null}]`, `[]`, `null`, `[{}]`,
	// refused for their types or fields
	`{"now": "soon"}`, `{"now": true}`, `{"now": {}}`, `{"now": 1e400}`, `{"now": 1, "later": 2}`,
	`{"rules": [{"id": "r", "expireCurentAfter": 1}]}`, `{"rules": 5}`, `{"rules":[1]}`, `{"rules":[{"id":1}],"x":1}`,
	`{"id": "a"}`, `[{"id": 1, "expireCurrentAfter": 1}]`, `[{"prefix":["p"]}]`, `["r"]`, `[[]]`, `"rules"`, `7`, `true`,
	`[{"expireNoncurrentAfter":"1","id":2}]`, `[{"zzz":1,"id":2}]`,
	// refused for their syntax
	``, `rules please`, `{"now": 15`, `{"now": 15}{"now": 16}`, `{"now": 15} x`, `[] []`, `{"now":015}`, "{\"now\":1}\x00",
	// accepted by the old decoder only
	`{"now": 15}]`, `{"now": 15} } garbage`, `[]]`, `{"rules":null}}`,
}

func TestRequestsReadAsEncodingJSONReadThem(t *testing.T) {
	for _, doc := range requestDocs {
		checkRequestDecoding(t, []byte(doc))
	}
}

func FuzzRequestDecoding(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRequestDecoding(t, data)
	})
}

// The extensions' answers are what encoding/json writes, and a newline.
func TestResponsesAreEncodingJSON(t *testing.T) {
	hostile := []string{"", `"quoted" \back\`, "<b>&amp;</b>", "line\u2028sep\u2029", "bad \xff \xe6\x97", "\x00\x1f\b\f\n\r\t", "🎉 ü"}
	bodies := []jsonBody{clockJSON{}, clockJSON{Now: ptr(0.0)}, clockJSON{Now: ptr(14.999)}, clockJSON{Now: ptr(-1e-7)},
		clockJSON{Now: ptr(1e21)}, clockJSON{Now: ptr(math.MaxFloat64)}, actionsJSON(nil), actionsJSON{}}
	var actions actionsJSON
	for i, s := range hostile {
		bodies = append(bodies, jsonError{Code: s, Message: hostile[len(hostile)-1-i]})
		actions = append(actions, ActionJSON{RuleID: s, Key: s + "k", VersionID: "v" + s, Kind: core.ExpireCurrent.String()})
	}
	bodies = append(bodies, actions)
	for _, body := range bodies {
		rec := httptest.NewRecorder()
		writeJSON(rec, 200, body)
		reference := any(body)
		if a, ok := body.(actionsJSON); ok {
			reference = struct {
				Actions []ActionJSON `json:"actions"`
			}{a}
		}
		want, err := json.Marshal(reference)
		if err != nil {
			t.Fatal(err)
		}
		if got := rec.Body.String(); got != string(want)+"\n" || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("writeJSON(%#v) wrote %q (%s), encoding/json writes %q", body, got, rec.Header().Get("Content-Type"), want)
		}
	}
}

// DecodeRules and the extensions report a value of the wrong type as
// what it must be, by its field's path.
func TestTypeErrorsNameTheFieldAndTheType(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{`[{"id": "r", "expireCurrentAfter": "10"}]`, "expireCurrentAfter must be a number, not a JSON string"},
		{`[{"id": 1}]`, "id must be a string, not a JSON number"},
		{`[{"ID": true}]`, "id must be a string, not a JSON bool"},
		{`[{"expireNoncurrentAfter": 1e999}]`, "expireNoncurrentAfter must be a number, not a JSON number 1e999"},
		{`{"id": "a"}`, "the value must be an array, not a JSON object"},
		{`[5]`, "the value must be an object, not a JSON number"},
		{`[{"id": "r", "expireCurentAfter": 1}]`, `not the expected JSON: json: unknown field "expireCurentAfter"`},
		{`null`, "rules must be an array of rules"},
	} {
		_, err := DecodeRules([]byte(tt.doc))
		var e *core.Error
		if !errors.As(err, &e) || e.Code != core.InvalidArgument || e.Message != tt.want {
			t.Errorf("DecodeRules(%s) = %v, want InvalidArgument: %s", tt.doc, err, tt.want)
		}
	}
}

// The JavaScript API's listing of actions is encoding/json's.
func TestAppendActionsIsEncodingJSON(t *testing.T) {
	for _, actions := range [][]ActionJSON{nil, {}, {{RuleID: "<r>", Key: "k\u2028", VersionID: "null", Kind: "expire_noncurrent"}}} {
		want, err := json.Marshal(actions)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendActions(nil, actions); !bytes.Equal(got, want) {
			t.Errorf("AppendActions(%#v) = %s, encoding/json writes %s", actions, got, want)
		}
	}
}
