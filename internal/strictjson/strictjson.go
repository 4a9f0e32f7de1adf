// Package strictjson reads a JSON request into a Go value with
// encoding/json, as MiniS3's JSON faces read what callers send: the
// document must be exactly one JSON value, a member the value has no
// field for is refused, and a mistake is said in words a caller can act
// on ("now must be a number, not a JSON string").
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Decode reads data, one JSON value and nothing after it, into v (a
// pointer), as encoding/json reads it: member names match field names
// exactly or under case folding, the last of repeated members wins, and
// null leaves a value as it is, or sets a pointer, slice or map to nil. A
// member that names no field is refused.
//
// The error is a *TypeError for a value of the wrong type or a number
// that does not fit; otherwise it says what is wrong with the document:
// its syntax, with the offset of the offending byte ("invalid character
// 'x' after top-level value (at offset 11)"), or an unknown member
// (`json: unknown field "x"`).
func Decode(data []byte, v any) error {
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		return syntaxError(err)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	err := d.Decode(v)
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		return &TypeError{Field: ute.Field, Want: want(ute.Type), Got: ute.Value}
	}
	return err
}

// syntaxError words a *json.SyntaxError with the offset of the byte at
// fault, as "... (at offset N)". encoding/json's Offset counts the bytes
// read, the offending one included; at the end of the input there is
// none.
func syntaxError(err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	offset := se.Offset
	if !strings.HasPrefix(se.Error(), "unexpected end") {
		offset--
	}
	return fmt.Errorf("%s (at offset %d)", se.Error(), offset)
}

// A TypeError is a value of the wrong JSON type for where it is, or a
// number that does not fit.
type TypeError struct {
	Field string // the names of the members that lead to it, joined by "."; "" at the top
	Want  string // what the value must be: "a number", "an integer", "a string", "an object", ...
	Got   string // what it is: "number", "string", "bool", "array", "object", or "number 1e999"
}

func (e *TypeError) Error() string {
	field := e.Field
	if field == "" {
		field = "the value"
	}
	return fmt.Sprintf("%s must be %s, not a JSON %s", field, e.Want, e.Got)
}

// want is what a JSON value must be to be read into a t.
func want(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a non-negative integer"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a bool"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
