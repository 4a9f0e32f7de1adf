package web

import (
	"bytes"
	"net/http"
	"strings"

	"minis3/core"
	"minis3/internal/jsonv"
	"minis3/internal/wire"
)

// The MiniS3 extension endpoints speak JSON:
//
//	GET  /_minis3/clock                               → {"now": 12}
//	PUT  /_minis3/clock  {"now": 15}                  → {"now": 15}   (manual clock only)
//	POST /_minis3/buckets/{bucket}/lifecycle-tick     {"rules": [...]} → {"actions": [...]}
//	POST /_minis3/buckets/{bucket}/lifecycle-preview  {"rules": [...]} → {"actions": [...]}
//
// Errors are {"code": "...", "message": "..."} with the code's HTTP status.

// writeJSON answers with the JSON body v and a newline.
func writeJSON(w http.ResponseWriter, status int, v wire.Shape) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(v.AppendJSON(nil), '\n'))
}

func writeJSONError(w http.ResponseWriter, err error) {
	e := asS3Error(err)
	if e.Code == core.MethodNotAllowed {
		w.Header().Set("Allow", e.Allow)
	}
	writeJSON(w, httpStatus(e.Code), wire.Error{Code: string(e.Code), Message: e.Message})
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
			writeJSON(w, http.StatusOK, wire.Clock{Now: ptr(h.store.Now())})
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
	writeJSON(w, http.StatusOK, wire.ActionsBody{Actions: wire.Actions(actions)})
	return nil
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
	var in wire.Clock
	if err := wire.Decode(body, func(d *jsonv.Decoder) error { return wire.ReadClock(d, &in) }); err != nil {
		return err
	}
	if in.Now == nil {
		return &core.Error{Code: core.InvalidArgument, Message: `the body must be {"now": <seconds>}`}
	}
	if err := h.store.SetClock(*in.Now); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.Clock{Now: ptr(h.store.Now())})
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
		var tick wire.Tick
		if err := wire.Decode(body, func(d *jsonv.Decoder) error { return wire.ReadTick(d, &tick) }); err != nil {
			return nil, err
		}
		if len(tick.Rules) > 0 && string(tick.Rules) != "null" {
			return wire.DecodeRules(tick.Rules)
		}
	}
	cfg, err := h.store.BucketLifecycle(bucket)
	if err != nil {
		return nil, err
	}
	return cfg.ExpirationRules(), nil
}
