package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// openIdle opens n TCP connections to addr that send nothing, and closes
// them when the test ends.
func openIdle(tb testing.TB, addr string, n int) []net.Conn {
	tb.Helper()
	conns := make([]net.Conn, 0, n)
	tb.Cleanup(func() { closeAll(conns) })
	for i := range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			// Client and server share this process: each connection
			// holds two of its file descriptors.
			tb.Fatalf("idle connection %d of %d: %v", i+1, n, err)
		}
		conns = append(conns, c)
	}
	return conns
}

func closeAll(conns []net.Conn) {
	for _, c := range conns {
		c.Close()
	}
}

// getClock sends GET /_minis3/clock on a connection of its own and
// checks the answer.
func getClock(tb testing.TB, baseURL string) {
	tb.Helper()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get(baseURL + "/_minis3/clock")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), `{"now":`) {
		tb.Fatalf("GET /_minis3/clock: %d %q %v", resp.StatusCode, body, err)
	}
}

func TestIdleConnectionsDoNotDelayRequests(t *testing.T) {
	for _, idle := range []int{300, 1000} {
		t.Run(fmt.Sprintf("%d idle connections", idle), func(t *testing.T) {
			cfg := testConfig(t)
			// A header timeout no run of this test reaches: had the request
			// waited for it to free connections, some idle ones would be
			// found closed below.
			cfg.ReadHeaderTimeout = time.Minute
			s := started(t, cfg)
			conns := openIdle(t, s.s3Addr.String(), idle)

			getClock(t, s.s3URL())

			// The server closed none of the idle connections to answer it:
			// each of them is still open and answers a request of its own.
			for i, c := range conns {
				if _, err := io.WriteString(c, "GET /_minis3/clock HTTP/1.1\r\nHost: minis3\r\n\r\n"); err != nil {
					t.Fatalf("idle connection %d: %v", i, err)
				}
			}
			for i, c := range conns {
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					t.Fatalf("idle connection %d was closed: %v", i, err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("idle connection %d: status %d", i, resp.StatusCode)
				}
			}
		})
	}
}

func TestAFloodBeyondTheOpenLimitClosesTheOldestIdleConnections(t *testing.T) {
	cfg := testConfig(t)
	cfg.ReadHeaderTimeout, cfg.MaxConns = time.Minute, 16
	s := started(t, cfg)
	limit := openConnsPerRequest * cfg.MaxConns
	conns := openIdle(t, s.s3Addr.String(), 300)

	getClock(t, s.s3URL())

	// The server closed the older idle connections, oldest first, to make
	// room for newer ones, the last time for the request's: it keeps the
	// newest limit-1.
	kept := conns[len(conns)-(limit-1):]
	for i, c := range conns[:len(conns)-len(kept)] {
		if err := readUntilClosed(c, 10*time.Second); errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("idle connection %d of %d is still open, the open limit being %d", i, len(conns), limit)
		}
	}
	for _, c := range kept {
		roundTrip(t, c, "/_minis3/clock")
	}
}

// BenchmarkRequestAmidIdleConnections times one request on a new
// connection while freshly opened connections sit idle (none, for
// reference), with the serve defaults (header timeout included). Each
// iteration opens its own idle connections, so run it with a small fixed
// count (BENCHMARKS.md, "How to run").
func BenchmarkRequestAmidIdleConnections(b *testing.B) {
	for _, idle := range []int{0, 300, 1000} {
		b.Run(fmt.Sprintf("idle=%d", idle), func(b *testing.B) {
			s := started(b, testConfig(b))
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				conns := openIdle(b, s.s3Addr.String(), idle)
				b.StartTimer()
				getClock(b, s.s3URL())
				b.StopTimer()
				closeAll(conns)
				b.StartTimer()
			}
		})
	}
}
