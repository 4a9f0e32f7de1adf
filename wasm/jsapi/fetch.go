//go:build js && wasm

package jsapi

import (
	"bytes"
	"maps"
	"net/http"
	"sync"
	"syscall/js"

	"minis3/core"
)

// fetch implements store.fetch(input, init): it makes a Request of its
// arguments as the global fetch would, marks it with the store's ID, checks
// the chunks of its body as fetch does (checkedBody), and hands it to the
// page's HTTP server. It returns a Promise of the Response.
func (s *storeObject) fetch(_ js.Value, args []js.Value) any {
	if s.api.cfg.Fetch == nil {
		return rejected(&core.Error{Code: core.NotImplemented, Message: "store.fetch needs the in-page HTTP server of the minis3 wasm build"})
	}
	if s.closed.Load() {
		return rejected(errClosed)
	}
	var req js.Value
	err := protect(func() error {
		req = js.Global().Get("Request").New(arg(args, 0), arg(args, 1))
		req.Get("headers").Call("set", StoreHeader, s.id)
		req = checkedBody(req)
		return nil
	})
	if err != nil {
		return rejected(err)
	}
	return s.api.cfg.Fetch(req)
}

// serveHTTP serves one request of store.fetch. The answer is made whole in
// memory under the store's locks, and sent after they are released: the
// page reads the Response when it likes, or never (a page that looks only
// at the status), and the store must not wait for it meanwhile.
func (s *storeObject) serveHTTP(w http.ResponseWriter, r *http.Request) {
	answer := &heldResponse{header: http.Header{}}
	s.serveLocked(answer, r)
	answer.send(w)
}

// serveLocked serves r with the store's web handler, after reloading the
// store if another writer changed the database. Every request but a GET or
// HEAD holds the database's write lock. Without the lock, a request whose
// commit another writer overtakes in between fails with InternalError (its
// body is consumed, so it is not retried).
func (s *storeObject) serveLocked(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		release := s.lock.acquire()
		defer release()
	}
	if err := s.refresh(); err != nil {
		writeInternalError(w, "MiniS3 could not reload the store after another tab changed it; reload the page.")
		return
	}
	cw := &clockSyncWriter{ResponseWriter: w, sync: s.syncClock}
	s.web.ServeHTTP(cw, r)
	cw.once.Do(cw.sync)
}

// clockSyncWriter refreshes the cached clock of store.now() before the
// response starts, so that a page awaiting the Response of a PUT of
// /_minis3/clock sees the new clock at once.
type clockSyncWriter struct {
	http.ResponseWriter
	sync func()
	once sync.Once
}

func (w *clockSyncWriter) WriteHeader(status int) {
	w.once.Do(w.sync)
	w.ResponseWriter.WriteHeader(status)
}

func (w *clockSyncWriter) Write(b []byte) (int, error) {
	w.once.Do(w.sync)
	return w.ResponseWriter.Write(b)
}

// heldResponse is an http.ResponseWriter that keeps the answer: its status,
// its header as it was when the status was written, and its body.
type heldResponse struct {
	header http.Header
	sent   http.Header // header at WriteHeader; nil before
	status int
	body   bytes.Buffer
}

func (h *heldResponse) Header() http.Header { return h.header }

func (h *heldResponse) WriteHeader(status int) {
	if h.sent == nil {
		h.status = status
		h.sent = h.header.Clone()
	}
}

func (h *heldResponse) Write(b []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return h.body.Write(b)
}

// send writes the held answer to w.
func (h *heldResponse) send(w http.ResponseWriter) {
	h.WriteHeader(http.StatusOK)
	maps.Copy(w.Header(), h.sent)
	w.WriteHeader(h.status)
	if h.body.Len() > 0 {
		_, _ = w.Write(h.body.Bytes())
	}
}
