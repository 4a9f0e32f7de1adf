package main

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// logRequests writes one line per request to w: the server's name, method,
// path (with query), status, response bytes and duration.
func logRequests(w io.Writer, name string, next http.Handler) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: rw, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "%s %s %s %s %d %dB %s\n", start.UTC().Format("2006-01-02T15:04:05.000Z"), name,
			r.Method, r.URL.RequestURI(), rec.status, rec.bytes, time.Since(start).Round(time.Microsecond))
	})
}

// recorder remembers the status and counts the bytes of a response.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}
