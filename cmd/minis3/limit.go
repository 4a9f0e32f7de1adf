package main

import (
	"container/list"
	"net"
	"net/http"
	"sync"
)

// connLimiter is a server's listener and ConnState hook: it gives the
// server at most max open connections, yet a client that opens
// connections and sends nothing cannot hold off those that send requests.
// When a connection arrives and max are open, Accept closes the one quiet
// the longest, that is waiting for its first request (StateNew) or
// between two (StateIdle), to make room. Only when every open connection
// is serving a request (StateActive) does Accept wait, holding the new
// connection, for one to close or go quiet; further clients wait in the
// kernel's accept queue. A connection closed to make room may have just
// begun to send a request: its client sees it closed, as when the idle
// timeout closes a keep-alive connection.
type connLimiter struct {
	net.Listener
	max int

	mu    sync.Mutex
	open  int       // connections Accept made room for and not closed
	quiet list.List // the open *limitedConn in StateNew or StateIdle, quiet the longest first

	// changed holds a token once a connection closed or went quiet.
	changed   chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// newConnLimiter limits the connections l accepts to max open at once. The
// server serving it must have connState as its ConnState hook.
func newConnLimiter(l net.Listener, max int) *connLimiter {
	return &connLimiter{Listener: l, max: max, changed: make(chan struct{}, 1), done: make(chan struct{})}
}

// Accept accepts a connection, then makes room for it.
func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if err := l.makeRoom(); err != nil {
		c.Close()
		return nil, err
	}
	lc := &limitedConn{Conn: c, l: l}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.setQuiet(lc, true)
	return lc, nil
}

// makeRoom counts one more open connection once there is room for it:
// while max are open, it closes the longest quiet one, or waits when none
// is quiet.
func (l *connLimiter) makeRoom() error {
	for {
		l.mu.Lock()
		if l.open < l.max {
			l.open++
			l.mu.Unlock()
			return nil
		}
		oldest := l.quiet.Front()
		if oldest == nil {
			l.mu.Unlock()
			select {
			case <-l.changed:
			case <-l.done:
				return net.ErrClosed
			}
			continue
		}
		c := oldest.Value.(*limitedConn)
		l.setQuiet(c, false)
		l.mu.Unlock()
		c.Close()
	}
}

// Close stops the listener; an Accept waiting for room returns at once.
func (l *connLimiter) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// connState follows the connections from StateNew, where Accept leaves
// them quiet: StateIdle makes one quiet again, StateActive and
// StateHijacked make it busy. A closed connection has already left.
func (l *connLimiter) connState(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.closed {
		return
	}
	switch state {
	case http.StateIdle:
		l.setQuiet(c, true)
		l.notify()
	case http.StateActive, http.StateHijacked:
		l.setQuiet(c, false)
	}
}

// setQuiet puts c last in the quiet list, or takes it out. l.mu is held.
func (l *connLimiter) setQuiet(c *limitedConn, quiet bool) {
	if c.quietAt != nil {
		l.quiet.Remove(c.quietAt)
		c.quietAt = nil
	}
	if quiet {
		c.quietAt = l.quiet.PushBack(c)
	}
}

// notify tells a waiting makeRoom that there may be room. l.mu is held.
func (l *connLimiter) notify() {
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

// limitedConn is a connection of a connLimiter; it leaves the count when
// it is first closed.
type limitedConn struct {
	net.Conn
	l *connLimiter
	// Guarded by l.mu: the element of l.quiet while quiet, and whether
	// Close was called.
	quietAt *list.Element
	closed  bool
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	l := c.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if !c.closed {
		c.closed = true
		l.setQuiet(c, false)
		l.open--
		l.notify()
	}
	return err
}

// limitRequests lets at most n requests into next at once; the others wait
// for a turn. A request whose client leaves while it waits is not served:
// it is answered 503 Service Unavailable, for the log.
func limitRequests(n int, next http.Handler) http.Handler {
	turns := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case turns <- struct{}{}:
		case <-r.Context().Done():
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		defer func() { <-turns }()
		next.ServeHTTP(w, r)
	})
}
