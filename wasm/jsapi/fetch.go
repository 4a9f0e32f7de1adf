//go:build js && wasm

package jsapi

import (
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

// serveHTTP serves one request of store.fetch with the store's web handler,
// after reloading the store if another writer changed the database. Every
// request but a GET or HEAD holds the database's write lock. Without the
// lock, a request whose commit another writer overtakes in between fails
// with InternalError (its body is consumed, so it is not retried).
func (s *storeObject) serveHTTP(w http.ResponseWriter, r *http.Request) {
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
