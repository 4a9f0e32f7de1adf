package web

import (
	"net/http/httptest"
	"testing"

	"minis3/internal/wire"
)

// An extension answers with its shape's JSON (package wire holds each to
// encoding/json), a newline, and the JSON content type.
func TestExtensionAnswersAreJSONLines(t *testing.T) {
	for _, body := range []wire.Shape{wire.Clock{Now: ptr(14.999)}, wire.Error{Code: "NoSuchBucket", Message: "<gone>"},
		wire.ActionsBody{Actions: []wire.Action{{RuleID: "r", Key: "k", VersionID: "null", Kind: "expire_current"}}}} {
		rec := httptest.NewRecorder()
		writeJSON(rec, 200, body)
		if got, want := rec.Body.String(), string(body.AppendJSON(nil))+"\n"; got != want || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("writeJSON(%#v) wrote %q (%s), want %q (application/json)", body, got, rec.Header().Get("Content-Type"), want)
		}
	}
}
