package web

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"minis3/core"
	"minis3/internal/jsonv"
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
// which is not the same as 0. (The json tags define the shape, which
// readRule reads; the tests hold it to encoding/json.)
type RuleJSON struct {
	ID                    string   `json:"id"`
	Prefix                string   `json:"prefix"`
	ExpireCurrentAfter    *float64 `json:"expireCurrentAfter"`
	ExpireNoncurrentAfter *float64 `json:"expireNoncurrentAfter"`
}

func readRule(d *jsonv.Decoder, r *RuleJSON) error {
	return d.Object([]string{"id", "prefix", "expireCurrentAfter", "expireNoncurrentAfter"}, func(name string) error {
		switch name {
		case "id":
			return d.String(&r.ID)
		case "prefix":
			return d.String(&r.Prefix)
		case "expireCurrentAfter":
			return jsonv.Pointer(d, &r.ExpireCurrentAfter, (*jsonv.Decoder).Float)
		case "expireNoncurrentAfter":
			return jsonv.Pointer(d, &r.ExpireNoncurrentAfter, (*jsonv.Decoder).Float)
		}
		return nil
	})
}

// ActionJSON is a lifecycle action as the extensions report it. (The json
// tags define the shape, which AppendActions writes.)
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
	if err := decodeJSON(data, func(d *jsonv.Decoder) error { return jsonv.Slice(d, &in, readRule) }); err != nil {
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

// AppendActions appends actions as the JSON array encoding/json writes for
// them.
func AppendActions(b []byte, actions []ActionJSON) []byte {
	return jsonv.AppendArray(b, actions, func(b []byte, a ActionJSON) []byte {
		b = append(b, `{"ruleId":`...)
		b = jsonv.AppendString(b, a.RuleID)
		b = append(b, `,"key":`...)
		b = jsonv.AppendString(b, a.Key)
		b = append(b, `,"versionId":`...)
		b = jsonv.AppendString(b, a.VersionID)
		b = append(b, `,"kind":`...)
		b = jsonv.AppendString(b, a.Kind)
		return append(b, '}')
	})
}

func jsonInvalid(format string, args ...any) error {
	return &core.Error{Code: core.InvalidArgument, Message: fmt.Sprintf(format, args...)}
}

// decodeJSON reads data, exactly one JSON value, with read, refusing
// unknown fields. A value of the wrong type is reported as what it must
// be: "now must be a number, not a JSON string".
func decodeJSON(data []byte, read func(*jsonv.Decoder) error) error {
	d, err := jsonv.NewDecoder(data)
	if err == nil {
		d.Strict = true
		err = read(d)
	}
	var te *jsonv.TypeError
	switch {
	case errors.As(err, &te):
		return jsonInvalid("%s", te.Error())
	case err != nil:
		return jsonInvalid("not the expected JSON: %v", err)
	}
	return nil
}

// A jsonBody is a JSON response body. The json tags of the bodies define
// their shapes, which their appendJSON methods write; the tests hold them
// to encoding/json.
type jsonBody interface {
	appendJSON(b []byte) []byte
}

type jsonError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e jsonError) appendJSON(b []byte) []byte {
	b = append(b, `{"code":`...)
	b = jsonv.AppendString(b, e.Code)
	b = append(b, `,"message":`...)
	b = jsonv.AppendString(b, e.Message)
	return append(b, '}')
}

// actionsJSON is the body of a tick or preview: {"actions": [...]}.
type actionsJSON []ActionJSON

func (a actionsJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"actions":`...)
	b = AppendActions(b, a)
	return append(b, '}')
}

func writeJSON(w http.ResponseWriter, status int, v jsonBody) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(v.appendJSON(nil), '\n'))
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
	// A missing bucket is NoSuchBucket, whatever the rules say.
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	rules, err := h.requestRules(r, bucket)
	if err != nil {
		return err
	}
	actions, err := run(bucket, rules)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, actionsJSON(EncodeActions(actions)))
	return nil
}

type clockJSON struct {
	Now *float64 `json:"now"`
}

func (c clockJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"now":`...)
	if c.Now == nil {
		b = append(b, "null"...)
	} else {
		b = jsonv.AppendFloat(b, *c.Now)
	}
	return append(b, '}')
}

func readClock(d *jsonv.Decoder, c *clockJSON) error {
	return d.Object([]string{"now"}, func(string) error {
		return jsonv.Pointer(d, &c.Now, (*jsonv.Decoder).Float)
	})
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
	if err := decodeJSON(body, func(d *jsonv.Decoder) error { return readClock(d, &in) }); err != nil {
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
		var rules []byte
		if err := decodeJSON(body, func(d *jsonv.Decoder) error { return readTickBody(d, &rules) }); err != nil {
			return nil, err
		}
		if len(rules) > 0 && string(rules) != "null" {
			return DecodeRules(rules)
		}
	}
	cfg, err := h.store.BucketLifecycle(bucket)
	if err != nil {
		return nil, err
	}
	return cfg.ExpirationRules(), nil
}

// readTickBody reads the body of a tick or preview, {"rules": [...]},
// keeping the text of the rules for DecodeRules.
func readTickBody(d *jsonv.Decoder, rules *[]byte) error {
	return d.Object([]string{"rules"}, func(string) error {
		*rules = d.Raw()
		return nil
	})
}
