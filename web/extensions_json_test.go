package web

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"testing"

	"minis3/internal/wire"
)

// An extension answers with its shape's JSON, a newline, and the JSON
// content type.
func TestExtensionAnswersAreJSONLines(t *testing.T) {
	for _, body := range []any{wire.Clock{Now: ptr(14.999)}, wire.Error{Code: "NoSuchBucket", Message: "<gone>"},
		wire.ActionsBody{Actions: []wire.Action{{RuleID: "r", Key: "k", VersionID: "null", Kind: "expire_current"}}}} {
		rec := httptest.NewRecorder()
		writeJSON(rec, 200, body)
		want, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := rec.Body.String(), string(want)+"\n"; got != want || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("writeJSON(%#v) wrote %q (%s), want %q (application/json)", body, got, rec.Header().Get("Content-Type"), want)
		}
	}
}

// A value encoding/json cannot write (a number that is not finite, which
// no answer of the store holds) is an InternalError, not a broken body.
func TestAnUnwritableAnswerIsAnInternalError(t *testing.T) {
	rec := httptest.NewRecorder()
	writeJSON(rec, 200, wire.Clock{Now: ptr(math.Inf(1))})
	var got wire.Error
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != 500 || got.Code != "InternalError" {
		t.Errorf("writeJSON of an infinite clock: %d %q, want a 500 InternalError", rec.Code, rec.Body)
	}
}
