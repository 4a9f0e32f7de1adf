package modelcheck

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"minis3/internal/model"
)

// Outcome is what a step answered, in the model's terms, so that every
// face can be compared with the model.
type Outcome struct {
	// Err is the error answered, nil on success. Only its Code and, for a
	// delete marker, DeleteMarker and VersionID are compared.
	Err *model.Error `json:",omitempty"`
	// Value is the answer: a model type (model.PutResult for a put,
	// []model.VersionsPage for a version listing, ...), or nil for an op
	// that answers nothing.
	Value any `json:",omitempty"`
	// Headers are what S3's HTTP answer carries of the state; the model
	// predicts them and a face that speaks HTTP observes them.
	Headers *Headers `json:",omitempty"`
}

// Headers are the response headers that carry state [ref §1.2].
type Headers struct {
	VersionID    string `json:",omitempty"` // x-amz-version-id; "" when absent
	DeleteMarker bool   `json:",omitempty"` // x-amz-delete-marker: true
	Status       int    // the HTTP status
}

// Failed is the outcome of an error.
func Failed(err error) Outcome {
	e, ok := err.(*model.Error)
	if !ok {
		return Outcome{Err: &model.Error{Code: "InternalError", Why: err.Error()}}
	}
	return Outcome{Err: &model.Error{Code: e.Code, DeleteMarker: e.DeleteMarker, VersionID: e.VersionID}}
}

// internalError is the outcome of a commit the storage refused.
var internalError = Outcome{Err: &model.Error{Code: "InternalError"}}

// Equal reports whether a and b are the same answer: errors by code and
// delete marker, values by content (an empty list is no list).
func Equal(a, b Outcome) bool {
	if (a.Err == nil) != (b.Err == nil) {
		return false
	}
	if a.Err != nil && (a.Err.Code != b.Err.Code || a.Err.DeleteMarker != b.Err.DeleteMarker || a.Err.VersionID != b.Err.VersionID) {
		return false
	}
	return reflect.DeepEqual(Canonical(a.Value), Canonical(b.Value)) && reflect.DeepEqual(a.Headers, b.Headers)
}

// String is the outcome on one line.
func (o Outcome) String() string {
	var b strings.Builder
	if o.Err != nil {
		b.WriteString(o.Err.Code)
		if o.Err.DeleteMarker {
			fmt.Fprintf(&b, " (delete marker %s)", o.Err.VersionID)
		}
	} else {
		b.WriteString("ok")
		if o.Value != nil {
			j, _ := json.Marshal(Canonical(o.Value))
			b.WriteString(" " + string(j))
		}
	}
	if h := o.Headers; h != nil {
		fmt.Fprintf(&b, " [HTTP %d", h.Status)
		if h.VersionID != "" {
			fmt.Fprintf(&b, " x-amz-version-id: %s", h.VersionID)
		}
		if h.DeleteMarker {
			b.WriteString(" x-amz-delete-marker: true")
		}
		b.WriteString("]")
	}
	return b.String()
}

// Canonical is v with every empty slice and map made nil, so that two
// answers that list nothing compare equal however each spelled it.
func Canonical(v any) any {
	if v == nil {
		return nil
	}
	rv := canonical(reflect.ValueOf(v))
	return rv.Interface()
}

func canonical(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.Len() == 0 {
			return reflect.Zero(v.Type())
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(canonical(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.Len() == 0 {
			return reflect.Zero(v.Type())
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), canonical(it.Value()))
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(canonical(v.Elem()))
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := range v.NumField() {
			if out.Field(i).CanSet() {
				out.Field(i).Set(canonical(v.Field(i)))
			}
		}
		return out
	}
	return v
}

// EqualStates reports whether two observed states are the same.
func EqualStates(a, b model.State) bool {
	return reflect.DeepEqual(Canonical(a), Canonical(b))
}

// Diff is a readable comparison of want (the model's) and got (the
// store's): their JSON, line by line, the lines only the model has marked
// "-" and those only the store has "+".
func Diff(want, got any) string {
	w, _ := json.MarshalIndent(Canonical(want), "", "  ")
	g, _ := json.MarshalIndent(Canonical(got), "", "  ")
	a, b := strings.Split(string(w), "\n"), strings.Split(string(g), "\n")
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			fmt.Fprintf(&out, "    %s\n", a[i])
			i, j = i+1, j+1
		case j == len(b) || i < len(a) && lcs[i+1][j] >= lcs[i][j+1]:
			fmt.Fprintf(&out, "  - %s\n", a[i])
			i++
		default:
			fmt.Fprintf(&out, "  + %s\n", b[j])
			j++
		}
	}
	return out.String()
}
