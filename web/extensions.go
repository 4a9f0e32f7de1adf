package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"minis3/core"
	"minis3/internal/wire"
)

// The MiniS3 extension endpoints speak JSON:
//
//	GET  /_minis3/clock  → {"now": 15, "origin": 1764806400, "time": "2025-12-04T00:00:15Z"}
//	PUT  /_minis3/clock  {"now": 15} or {"time": "<RFC 3339>"} (manual clock only)
//	     → the clock, and "runs": the daily S3 lifecycle runs the move passed
//	POST /_minis3/buckets/{bucket}/lifecycle-tick     {"rules": [...]} → {"actions": [...]}
//	POST /_minis3/buckets/{bucket}/lifecycle-preview  {"rules": [...]} → {"actions": [...]}
//	POST /_minis3/buckets/{bucket}/lifecycle-run          → {"actions": [...]}
//	POST /_minis3/buckets/{bucket}/lifecycle-run-preview  → {"actions": [...]}
//
// A tick and its preview run the chapter's rules, given in the request; a
// run and its preview run the bucket's stored S3 lifecycle configuration
// now, as the daily run would at this instant. Errors are {"code": "...",
// "message": "..."} with the code's HTTP status.

// writeJSON answers with the JSON body v, a shape of package wire, and a
// newline.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body, _ = json.Marshal(wire.Error{Code: string(core.InternalError), Message: err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
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
			writeJSON(w, http.StatusOK, wire.ClockOf(h.store))
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
	var run func(bucket string, body []byte) ([]core.LifecycleAction, error)
	switch parts[2] {
	case "lifecycle-tick":
		run = h.chapterRules(h.store.LifecycleTick)
	case "lifecycle-preview":
		run = h.chapterRules(h.store.PreviewExpiration)
	case "lifecycle-run":
		run = storedConfiguration(h.store.RunLifecycle)
	case "lifecycle-run-preview":
		run = storedConfiguration(h.store.PreviewLifecycle)
	default:
		return extensionNotFound(r.URL.Path)
	}
	if r.Method != http.MethodPost {
		return methodNotAllowed(r.Method, parts[2], "POST")
	}
	bucket := parts[1]
	// A missing bucket is NoSuchBucket, whatever the body says.
	if _, err := h.store.HeadBucket(bucket); err != nil {
		return err
	}
	body, err := readPayload(r, MaxXMLBodySize, messageTooLong)
	if err != nil {
		return err
	}
	actions, err := run(bucket, body)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.ActionsBody{Actions: wire.Actions(actions)})
	return nil
}

// chapterRules runs fn with the chapter's rules of a tick or preview
// request, {"rules": [...]}.
func (h *Handler) chapterRules(fn func(string, []core.ExpirationRule) ([]core.LifecycleAction, error)) func(string, []byte) ([]core.LifecycleAction, error) {
	noRules := &core.Error{Code: core.InvalidArgument,
		Message: `the body must be {"rules": [...]}: the chapter's rules; the bucket's stored S3 configuration runs at lifecycle-run`}
	return func(bucket string, body []byte) ([]core.LifecycleAction, error) {
		if len(bytes.TrimSpace(body)) == 0 {
			return nil, noRules
		}
		var tick wire.Tick
		if err := wire.Decode(body, &tick); err != nil {
			return nil, err
		}
		if len(tick.Rules) == 0 || string(tick.Rules) == "null" {
			return nil, noRules
		}
		rules, err := wire.DecodeRules(tick.Rules)
		if err != nil {
			return nil, err
		}
		return fn(bucket, rules)
	}
}

// storedConfiguration runs fn, which runs or previews the bucket's stored
// configuration; the request has no body, or an empty JSON object (an
// object with no known member names: any member is refused).
func storedConfiguration(fn func(string) ([]core.LifecycleAction, error)) func(string, []byte) ([]core.LifecycleAction, error) {
	return func(bucket string, body []byte) ([]core.LifecycleAction, error) {
		if len(bytes.TrimSpace(body)) > 0 {
			if err := wire.Decode(body, &struct{}{}); err != nil {
				return nil, err
			}
		}
		return fn(bucket)
	}
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
	var move wire.ClockMove
	if err := wire.Decode(body, &move); err != nil {
		return err
	}
	now, err := move.Seconds(h.origin)
	if err != nil {
		return err
	}
	runs, err := h.store.SetClock(now)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.ClockMoved{Clock: wire.ClockOf(h.store), Runs: wire.Runs(runs, h.origin)})
	return nil
}
