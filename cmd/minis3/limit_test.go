package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// serveLimited serves h, as startServer does, on a connLimiter of max
// connections until the test ends, and returns the address.
func serveLimited(t *testing.T, max int, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := newConnLimiter(ln, max)
	srv := &http.Server{Handler: h, ConnState: conns.connState}
	go srv.Serve(conns)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func send(t *testing.T, conn net.Conn, request string) {
	t.Helper()
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
}

// answer reads one response from conn (through r) within the deadline.
func answer(conn net.Conn, r *bufio.Reader, deadline time.Duration) (*http.Response, error) {
	if err := conn.SetReadDeadline(time.Now().Add(deadline)); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(r, nil)
	if err == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return resp, err
}

// roundTrip sends a GET on conn and expects 200 OK; the deadline only
// bounds the test.
func roundTrip(t *testing.T, conn net.Conn, path string) {
	t.Helper()
	send(t, conn, "GET "+path+" HTTP/1.1\r\nHost: minis3\r\n\r\n")
	if resp, err := answer(conn, bufio.NewReader(conn), 10*time.Second); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %v %v", path, resp, err)
	}
}

var ok = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })

func TestConnLimiterClosesTheLongestQuietConnectionForANewOne(t *testing.T) {
	addr := serveLimited(t, 3, ok)
	silent := dial(t, addr)
	idle := dial(t, addr)
	roundTrip(t, idle, "/") // then idle: keep-alive
	quiet := dial(t, addr)

	// Three are open, none busy: the fourth takes the place of the one
	// quiet the longest, which never sent anything.
	roundTrip(t, dial(t, addr), "/")
	if err := readUntilClosed(silent, 10*time.Second); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the connection quiet the longest is still open")
	}
	roundTrip(t, idle, "/")
	roundTrip(t, quiet, "/")
}

func TestConnLimiterWaitsWhileEveryConnectionIsBusy(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	addr := serveLimited(t, 1, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			entered <- struct{}{}
			<-release
		}
		io.WriteString(w, "ok")
	}))
	busy := dial(t, addr)
	send(t, busy, "GET /slow HTTP/1.1\r\nHost: minis3\r\n\r\n")
	<-entered

	// The only connection is serving a request: it is not closed, and a
	// new one is not accepted.
	waiting := dial(t, addr)
	send(t, waiting, "GET /fast HTTP/1.1\r\nHost: minis3\r\n\r\n")
	r := bufio.NewReader(waiting)
	if resp, err := answer(waiting, r, 300*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a connection over the limit was served while the other was busy: %v %v", resp, err)
	}

	// Once answered, the busy connection is idle: it makes room.
	close(release)
	if resp, err := answer(busy, bufio.NewReader(busy), 10*time.Second); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the busy connection: %v %v", resp, err)
	}
	if resp, err := answer(waiting, r, 10*time.Second); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the waiting connection once the other went idle: %v %v", resp, err)
	}
	if err := readUntilClosed(busy, 10*time.Second); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the idle connection was kept open beyond the limit")
	}
}

func TestConnLimiterCloseEndsAWaitingAccept(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newConnLimiter(inner, 1)
	dial(t, inner.Addr().String())
	conn, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	l.connState(conn, http.StateActive) // busy: Accept cannot close it
	done := make(chan error)
	go func() {
		_, err := l.Accept() // no room: waits
		done <- err
	}()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
	}
	// Closing a connection twice gives its place back once; a state change
	// after the close is ignored.
	conn.Close()
	conn.Close()
	l.connState(conn, http.StateIdle)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open != 0 || l.quiet.Len() != 0 {
		t.Errorf("%d connections open, %d quiet after the only one closed", l.open, l.quiet.Len())
	}
}

func TestRequestLimitMakesFurtherRequestsWait(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxConns = 1
	s := started(t, cfg)
	if resp, body := rawGet(t, "PUT", s.s3URL()+"/turns", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("CreateBucket: %d %s", resp.StatusCode, body)
	}

	// A PUT whose body is not sent yet: the 100 Continue shows that its
	// handler is reading the body, holding the only turn.
	first := dial(t, s.s3Addr.String())
	send(t, first, "PUT /turns/k HTTP/1.1\r\nHost: minis3\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
	r1 := bufio.NewReader(first)
	if resp, err := answer(first, r1, 10*time.Second); err != nil || resp.StatusCode != http.StatusContinue {
		t.Fatalf("the PUT: %v %v, want 100 Continue", resp, err)
	}

	second := dial(t, s.s3Addr.String())
	send(t, second, "GET /_minis3/clock HTTP/1.1\r\nHost: minis3\r\n\r\n")
	r2 := bufio.NewReader(second)
	if resp, err := answer(second, r2, 300*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a request over the limit was served at once: %v %v", resp, err)
	}
	send(t, first, "hi")
	if resp, err := answer(first, r1, 10*time.Second); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the PUT once its body came: %v %v", resp, err)
	}
	if resp, err := answer(second, r2, 10*time.Second); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the waiting request once the turn freed: %v %v", resp, err)
	}
}

func TestLimitRequestsDropsARequestWhoseClientLeft(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	served := 0
	h := limitRequests(1, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served++
		if r.URL.Path == "/slow" {
			entered <- struct{}{}
			<-release
		}
	}))
	done := make(chan struct{})
	go func() {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/slow", nil))
		close(done)
	}()
	<-entered

	// The only turn is taken; this request's client has gone.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/gone", nil).WithContext(ctx))
	close(release)
	<-done
	if rec.Code != http.StatusServiceUnavailable || served != 1 {
		t.Errorf("a request whose client left while waiting: status %d, %d requests served; want 503 and only the first", rec.Code, served)
	}
}
