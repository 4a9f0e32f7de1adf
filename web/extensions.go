package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"minis3/core"
)

// The MiniS3 extension endpoints speak JSON:
//
//	GET  /_minis3/clock                               → {"now": 12}
//	PUT  /_minis3/clock  {"now": 15}                  → {"now": 15}   (manual clock only)
//	POST /_minis3/buckets/{bucket}/lifecycle-tick     {"rules": [...]} → {"actions": [...]}
//	POST /_minis3/buckets/{bucket}/lifecycle-preview  {"rules": [...]} → {"actions": [...]}
//
// Errors are {"code": "...", "message": "..."} with the code's HTTP status.

// RuleJSON is a lifecycle rule as the extensions and the JavaScript API
// take it. Thresholds are seconds; an omitted (or null) threshold is unset,
// which is not the same as 0.
type RuleJSON struct {
	ID                    string   `json:"id"`
	Prefix                string   `json:"prefix"`
	ExpireCurrentAfter    *float64 `json:"expireCurrentAfter"`
	ExpireNoncurrentAfter *float64 `json:"expireNoncurrentAfter"`
}

// ActionJSON is a lifecycle action as the extensions report it.
type ActionJSON struct {
	RuleID    string `json:"ruleId"`
	Key       string `json:"key"`
	VersionID string `json:"versionId"`
	Kind      string `json:"kind"`
}

// DecodeRules decodes a JSON array of rules (see RuleJSON) and validates
// them. Unknown fields, values of the wrong type and invalid rules (no
// threshold, a negative one) are InvalidArgument errors.
func DecodeRules(data []byte) ([]core.ExpirationRule, error) {
	var in []RuleJSON
	if err := decodeJSON(data, &in); err != nil {
		return nil, err
	}
	if in == nil {
		return nil, jsonInvalid("rules must be an array of rules")
	}
	rules := make([]core.ExpirationRule, len(in))
	for i, r := range in {
		rules[i] = core.ExpirationRule{ID: r.ID, Prefix: r.Prefix, ExpireCurrentAfter: r.ExpireCurrentAfter, ExpireNoncurrentAfter: r.ExpireNoncurrentAfter}
	}
	if err := core.ValidateRules(rules); err != nil {
		return nil, err
	}
	return rules, nil
}

// EncodeActions turns lifecycle actions into their JSON shape; the result is
// never nil, so it encodes as an array.
func EncodeActions(actions []core.LifecycleAction) []ActionJSON {
	out := make([]ActionJSON, len(actions))
	for i, a := range actions {
		out[i] = ActionJSON{RuleID: a.RuleID, Key: a.Key, VersionID: a.VersionID, Kind: a.Kind.String()}
	}
	return out
}

func jsonInvalid(format string, args ...any) error {
	return &core.Error{Code: core.InvalidArgument, Message: fmt.Sprintf(format, args...)}
}

// decodeJSON decodes exactly one JSON value into v, refusing unknown fields.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := te.Field
			if field == "" {
				field = "the value"
			}
			return jsonInvalid("%s must be %s, not a JSON %s", field, jsonKind(te.Type), te.Value)
		}
		return jsonInvalid("not the expected JSON: %v", err)
	}
	if dec.More() {
		return jsonInvalid("more than one JSON value where one is expected")
	}
	return nil
}

// jsonKind names the JSON value a Go type takes.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.String()
}

type jsonError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	out, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "encoding the response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(out, '\n'))
}

func writeJSONError(w http.ResponseWriter, err error) {
	e := asS3Error(err)
	if e.Code == core.MethodNotAllowed {
		w.Header().Set("Allow", e.Allow)
	}
	writeJSON(w, httpStatus(e.Code), jsonError{Code: string(e.Code), Message: e.Message})
}

func extensionNotFound(path string) error {
	return &core.Error{Code: codeNotFound, Message: "no MiniS3 extension endpoint at " + path}
}

// serveExtension serves the /_minis3/ endpoints.
func (h *Handler) serveExtension(w http.ResponseWriter, r *http.Request) {
	if err := h.extension(w, r); err != nil {
		writeJSONError(w, err)
	}
}

func (h *Handler) extension(w http.ResponseWriter, r *http.Request) error {
	rest := strings.TrimPrefix(r.URL.Path, extensionPrefix)
	if rest == "clock" {
		switch r.Method {
		case http.MethodGet:
			writeJSON(w, http.StatusOK, clockJSON{Now: ptr(h.store.Now())})
			return nil
		case http.MethodPut:
			return h.setClock(w, r)
		}
		return methodNotAllowed(r.Method, "clock", "GET, PUT")
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 || parts[0] != "buckets" || parts[1] == "" {
		return extensionNotFound(r.URL.Path)
	}
	var run func(string, []core.ExpirationRule) ([]core.LifecycleAction, error)
	switch parts[2] {
	case "lifecycle-tick":
		run = h.store.LifecycleTick
	case "lifecycle-preview":
		run = h.store.PreviewExpiration
	default:
		return extensionNotFound(r.URL.Path)
	}
	if r.Method != http.MethodPost {
		return methodNotAllowed(r.Method, parts[2], "POST")
	}
	bucket := parts[1]
	rules, err := h.requestRules(r, bucket)
	if err != nil {
		return err
	}
	actions, err := run(bucket, rules)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct {
		Actions []ActionJSON `json:"actions"`
	}{EncodeActions(actions)})
	return nil
}

type clockJSON struct {
	Now *float64 `json:"now"`
}

func (h *Handler) setClock(w http.ResponseWriter, r *http.Request) error {
	if !h.store.ManualClock() {
		return &core.Error{Code: core.InvalidRequest,
			Message: "this store runs on the wall clock; only a store with a manual clock (minis3 serve --clock manual) can be set"}
	}
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	var in clockJSON
	if err := decodeJSON(body, &in); err != nil {
		return err
	}
	if in.Now == nil {
		return jsonInvalid(`the body must be {"now": <seconds>}`)
	}
	if err := h.store.SetClock(*in.Now); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, clockJSON{Now: ptr(h.store.Now())})
	return nil
}

// requestRules are the rules of a tick or preview request: the body's
// "rules", or, without a body or without "rules", the bucket's stored
// lifecycle configuration.
func (h *Handler) requestRules(r *http.Request, bucket string) ([]core.ExpirationRule, error) {
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) > 0 {
		var in struct {
			Rules json.RawMessage `json:"rules"`
		}
		if err := decodeJSON(body, &in); err != nil {
			return nil, err
		}
		if len(in.Rules) > 0 && string(in.Rules) != "null" {
			return DecodeRules(in.Rules)
		}
	}
	cfg, err := h.store.BucketLifecycle(bucket)
	if err != nil {
		return nil, err
	}
	return cfg.ExpirationRules(), nil
}
