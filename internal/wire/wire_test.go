package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"minis3/core"
)

// hostile are strings encoding/json escapes or repairs.
var hostile = []string{"", "plain", `"q" \b\`, "<b>&</b>", "line\u2028sep\u2029", "bad \xff \xe6\x97", "\x00\x1f\n\t\b\f\r", "🎉 ü"}

func ptr[T any](v T) *T { return &v }

// shapes are values of every shape, alone and in lists, with each optional
// field set and unset and hostile strings where strings go.
func shapes() []any {
	size := int64(5 << 20)
	values := []any{
		[]Bucket{}, []Version{}, []Object{}, []Part{}, []Upload{}, []Action{}, ActionsBody{}, ActionsBody{Actions: []Action{}},
		Deleted{}, Deleted{VersionID: "v00000001", DeleteMarker: true},
		Object{Size: math.MaxInt64, CreatedAt: 1e-7}, Written{Size: -1, CreatedAt: math.MaxFloat64},
		[]Version{{IsDeleteMarker: true, IsLatest: true, CreatedAt: 1e21}, {Size: ptr(int64(0))}, {Size: &size, ETag: "e"}},
		Clock{}, Clock{Now: ptr(0.0)}, Clock{Now: ptr(14.999)}, Clock{Now: ptr(-1e-7)}, Clock{Now: ptr(1e21)}, Clock{Now: ptr(math.MaxFloat64)},
		Clock{Now: ptr(15.0), Origin: 1764806400, Time: "2025-12-04T00:00:15Z"}, Clock{Origin: -62135596800},
		ClockMoved{}, ClockMoved{Clock: Clock{Now: ptr(86400.5)}, Runs: []Run{}},
		ClockMoved{Runs: []Run{{At: 86400, Actions: []Action{{Kind: "transition", StorageClass: "GLACIER"}, {Kind: "abort_multipart_upload", UploadID: "u1"}}}}},
		Written{Expiration: &Expiry{}}, Object{TagCount: 10, Expiration: &Expiry{Date: "2025-12-06T00:00:00Z"}},
		Upload{Abort: &Expiry{}}, []Tag{}, Tagging{}, Tagging{Tags: []Tag{}}, Expiry{},
		[]Version{{StorageClass: "GLACIER"}, {Tags: []Tag{}}, {Tags: []Tag{{Key: "k", Value: ""}, {}}}},
		[]Scheduled{}, Scheduled{}, Scheduled{Due: -1e-7}, Scheduled{Due: 1e21},
		[]Scheduled{{Action: Action{Kind: "transition", StorageClass: "GLACIER"}, Due: 86400}, {Action: Action{Kind: "abort_multipart_upload", UploadID: "u1"}, Due: 14.999}},
		Retagged{},
	}
	for i, s := range hostile {
		values = append(values,
			[]Bucket{{Name: s, CreatedAt: 1764694000.125, Versioning: s}},
			Written{VersionID: s, ETag: s, Size: 7, CreatedAt: 14.999},
			Object{Key: s, VersionID: s, ETag: s, Size: 1, CreatedAt: -0.5, ContentType: s},
			Deleted{VersionID: s},
			[]Version{{Key: s, VersionID: s, ETag: s, Size: &size}},
			[]Object{{Key: s, VersionID: s, ETag: s, Size: 3, CreatedAt: 2}},
			[]Part{{PartNumber: 10000, ETag: s, Size: size, CreatedAt: 1}},
			Upload{Key: s, UploadID: s, Initiated: 5},
			[]Upload{{Key: s, UploadID: s, Initiated: 1e-9}},
			ActionsBody{Actions: []Action{{RuleID: s, Key: s, VersionID: s, Kind: s, UploadID: s, StorageClass: s}}},
			ClockMoved{Clock: Clock{Time: s}, Runs: []Run{{Bucket: s, Time: s, Actions: []Action{{RuleID: s}}}}},
			Written{Expiration: &Expiry{Date: s, RuleID: s}},
			Object{StorageClass: s, Expiration: &Expiry{Date: s, RuleID: s}},
			Upload{Abort: &Expiry{Date: s, RuleID: s}},
			Tagging{VersionID: s, Tags: []Tag{{Key: s, Value: s}, {}}},
			[]Scheduled{{Action: Action{RuleID: s, Key: s, VersionID: s, Kind: s, UploadID: s, StorageClass: s}, Due: 2.5}},
			Retagged{VersionID: s},
			Error{Code: s, Message: hostile[len(hostile)-1-i]})
	}
	return values
}

// Every shape is written as testdata/shapes.txt has it, one shape a line:
// the bytes the HTTP extensions answer and the JavaScript API parses.
func TestShapesKeepTheirJSON(t *testing.T) {
	data, err := os.ReadFile("testdata/shapes.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	values := shapes()
	if len(lines) != len(values) {
		t.Fatalf("testdata/shapes.txt has %d lines for %d shapes", len(lines), len(values))
	}
	for i, v := range values {
		got, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != lines[i] {
			t.Errorf("%T %+v is written as\n%s\nwant\n%s", v, v, got, lines[i])
		}
	}
}

// referenceDecode is Decode as encoding/json does it: the reference the
// requests are read against.
func referenceDecode(data []byte, v any) error {
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
			return invalid("%s must be %s, not a JSON %s", field, kind, te.Value)
		}
		return invalid("not the expected JSON: %v", err)
	}
	if dec.More() {
		return invalid("more than one JSON value where one is expected")
	}
	return nil
}

// closerAfterValue reports whether data is a JSON value followed by a ]
// or }, which encoding/json's Decoder.More takes for the end of a stream:
// the reference accepts such bodies, Decode refuses them.
func closerAfterValue(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")
	return len(rest) > 0 && (rest[0] == ']' || rest[0] == '}')
}

// A request is one JSON request shape, read with Decode and with the
// reference.
type request struct {
	name            string
	read, reference func(data []byte) (any, error)
}

var requests = []request{
	{"clock",
		func(data []byte) (any, error) {
			var c ClockMove
			return c, Decode(data, &c)
		},
		func(data []byte) (any, error) {
			var c ClockMove
			return c, referenceDecode(data, &c)
		}},
	{"tick",
		func(data []byte) (any, error) {
			var tick Tick
			err := Decode(data, &tick)
			return string(tick.Rules), err
		},
		func(data []byte) (any, error) {
			var in struct {
				Rules json.RawMessage `json:"rules"`
			}
			return string(in.Rules), referenceDecode(data, &in)
		}},
	{"rules",
		func(data []byte) (any, error) {
			var in []Rule
			return in, Decode(data, &in)
		},
		func(data []byte) (any, error) {
			var in []Rule
			return in, referenceDecode(data, &in)
		}},
}

// checkRequest reads data as every request shape and fails unless Decode
// and the reference both refuse it or both read the same value. A refusal
// for a value's type or an unknown field must say what the reference says;
// syntax errors are worded anew, with their offset.
func checkRequest(t *testing.T, data []byte) {
	t.Helper()
	for _, r := range requests {
		got, err := r.read(data)
		want, wantErr := r.reference(data)
		switch {
		case err != nil && wantErr == nil && closerAfterValue(data):
		case (err == nil) != (wantErr == nil):
			t.Fatalf("%s %q: Decode says %v, the reference says %v", r.name, data, err, wantErr)
		case err == nil && !reflect.DeepEqual(got, want):
			t.Fatalf("%s %q: Decode reads %#v, the reference %#v", r.name, data, got, want)
		case err != nil && json.Valid(data) && err.Error() != wantErr.Error():
			t.Fatalf("%s %q: Decode says\n%v\nthe reference says\n%v", r.name, data, err, wantErr)
		}
	}
}

// requestDocs are request bodies, read as the reference reads them, and
// refused as it refuses them.
var requestDocs = []string{
	`{"now": 15}`, `{"time": "2025-12-04T00:00:15Z"}`, `{"time": null, "now": 2}`, `{"time": 15}`, `{"now":-1e308}`, `{"now":null}`, `{"Now":1,"NOW":2}`, `{"now":1,"now":null}`, `{}`, ` {"now" : 1.5e3 } `,
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
	// accepted by the reference only
	`{"now": 15}]`, `{"now": 15} } garbage`, `[]]`, `{"rules":null}}`,
}

func TestRequestsReadAsEncodingJSONReadsThem(t *testing.T) {
	for _, doc := range requestDocs {
		checkRequest(t, []byte(doc))
	}
}

func FuzzRequestDecoding(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRequest(t, data)
	})
}

// DecodeRules reports a value of the wrong type as what it must be, by its
// field's path; whether a rule is valid is the store's to say.
func TestDecodeRulesNamesTheFieldAndTheType(t *testing.T) {
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
	rules, err := DecodeRules([]byte(`[{"id": "none", "prefix": "p/"}, {"expireCurrentAfter": -1}]`))
	if err != nil || len(rules) != 2 {
		t.Errorf("DecodeRules of rules the store refuses = %v, %v; want them read", rules, err)
	}
}

// An omitted or null threshold is unset; zero is set.
func TestDecodeRulesTellsUnsetFromZero(t *testing.T) {
	rules, err := DecodeRules([]byte(`[{"id": "a", "prefix": "p/", "expireCurrentAfter": 0}, {"id": "b", "expireNoncurrentAfter": 2.5, "expireCurrentAfter": null}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []core.ExpirationRule{{ID: "a", Prefix: "p/", ExpireCurrentAfter: ptr(0.0)}, {ID: "b", ExpireNoncurrentAfter: ptr(2.5)}}
	if !reflect.DeepEqual(rules, want) {
		t.Errorf("got %+v, want %+v", rules, want)
	}
}

func TestClockMoveSecondsAreNowOrTimeLessOrigin(t *testing.T) {
	const origin = 1764806400 // 2025-12-04T00:00:00Z
	tests := []struct {
		name string
		move ClockMove
		want float64
		err  string
	}{
		{"now", ClockMove{Now: ptr(15.5)}, 15.5, ""},
		{"time", ClockMove{Time: ptr("2025-12-04T00:00:15Z")}, 15, ""},
		{"time with milliseconds", ClockMove{Time: ptr("2025-12-05T00:00:00.250Z")}, 86400.25, ""},
		{"time with an offset", ClockMove{Time: ptr("2025-12-04T01:00:00+01:00")}, 0, ""},
		{"time before the origin", ClockMove{Time: ptr("2025-12-03T00:00:00Z")}, -86400, ""},
		{"neither", ClockMove{}, 0, "InvalidArgument: the body must be"},
		{"both", ClockMove{Now: ptr(1.0), Time: ptr("2025-12-04T00:00:15Z")}, 0, "InvalidArgument: the body must be"},
		{"not RFC 3339", ClockMove{Time: ptr("tomorrow")}, 0, `InvalidArgument: time must be an RFC 3339 time such as 2025-12-04T00:00:15Z, not "tomorrow"`},
	}
	for _, tt := range tests {
		got, err := tt.move.Seconds(origin)
		if tt.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("%s: Seconds = %v, %v; want error %q", tt.name, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: Seconds = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestTimeIsRFC3339InUTC(t *testing.T) {
	tests := []struct {
		t    float64
		want string
	}{
		{0, "1970-01-01T00:00:00Z"},
		{1764806415, "2025-12-04T00:00:15Z"},
		{1764806415.5, "2025-12-04T00:00:15.5Z"},
		{1764806409.501, "2025-12-04T00:00:09.501Z"},
		{-62135596800, "0001-01-01T00:00:00Z"},
	}
	for _, tt := range tests {
		if got := Time(tt.t); got != tt.want {
			t.Errorf("Time(%v) = %s, want %s", tt.t, got, tt.want)
		}
	}
}

// Schedule keeps each action's fields and due time, in order.
func TestScheduleIsEachActionAndItsDueTime(t *testing.T) {
	got := Schedule([]core.ScheduledAction{
		{LifecycleAction: core.LifecycleAction{RuleID: "r", Key: "k", VersionID: "v00000001", Kind: core.Transition, StorageClass: "GLACIER"}, Due: 86400},
		{LifecycleAction: core.LifecycleAction{RuleID: "r", Key: "k", UploadID: "u00000001", Kind: core.AbortMultipartUpload}, Due: 172800},
	})
	want := []Scheduled{
		{Action: Action{RuleID: "r", Key: "k", VersionID: "v00000001", Kind: "transition", StorageClass: "GLACIER"}, Due: 86400},
		{Action: Action{RuleID: "r", Key: "k", Kind: "abort_multipart_upload", UploadID: "u00000001"}, Due: 172800},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Schedule = %+v, want %+v", got, want)
	}
	if got := Schedule(nil); got == nil || len(got) != 0 {
		t.Errorf("Schedule(nil) = %#v, want an empty slice", got)
	}
}
