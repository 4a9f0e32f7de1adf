package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"minis3/core"
	"minis3/core/boltstore"
	"minis3/web"
)

// serveConfig is what "minis3 serve" is told on its command line.
type serveConfig struct {
	Addr   string // the playground page
	S3Addr string // the S3 API and the MiniS3 extensions
	Data   string // the bbolt data directory
	Clock  string // "wall" or "manual"
	Static string // the playground's static files
}

func parseServeFlags(args []string, stdout, stderr io.Writer) (serveConfig, error) {
	var cfg serveConfig
	fs := flag.NewFlagSet("minis3 serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8080", "address of the playground page")
	fs.StringVar(&cfg.S3Addr, "s3-addr", "127.0.0.1:9000", "address of the S3 API")
	fs.StringVar(&cfg.Data, "data", "./data", "data directory (bbolt)")
	fs.StringVar(&cfg.Clock, "clock", "wall", "clock: wall (real time) or manual (moved only through PUT /_minis3/clock)")
	fs.StringVar(&cfg.Static, "static", "static", "directory of the playground's static files")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: minis3 serve [flags]\n\nServes the MiniS3 playground page and the S3 API over a durable store.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
		}
		return cfg, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments: %q", fs.Args())
		fmt.Fprintln(stderr, "minis3 serve:", err)
		fs.Usage()
		return cfg, err
	}
	if cfg.Clock != "wall" && cfg.Clock != "manual" {
		err := fmt.Errorf("--clock must be wall or manual, not %q", cfg.Clock)
		fmt.Fprintln(stderr, "minis3 serve:", err)
		return cfg, err
	}
	return cfg, nil
}

// server is a running "minis3 serve": the store and its two HTTP servers.
type server struct {
	store      *core.Store
	s3         *http.Server
	playground *http.Server
	s3Addr     net.Addr
	pageAddr   net.Addr
	errs       chan error
}

// startServer opens the store and starts serving on both addresses. On
// failure nothing is left open.
func startServer(cfg serveConfig, logw io.Writer) (*server, error) {
	storage, err := boltstore.Open(cfg.Data)
	if err != nil {
		return nil, fmt.Errorf("the data directory %q is unusable: %w", cfg.Data, err)
	}
	store, err := core.Open(storage, core.Options{ManualClock: cfg.Clock == "manual"})
	if err != nil {
		storage.Close()
		return nil, fmt.Errorf("the data directory %q is unusable: %w", cfg.Data, err)
	}
	s3ln, err := net.Listen("tcp", cfg.S3Addr)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("cannot serve the S3 API on %s (--s3-addr): %w", cfg.S3Addr, err)
	}
	pageln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		s3ln.Close()
		store.Close()
		return nil, fmt.Errorf("cannot serve the playground on %s (--addr): %w", cfg.Addr, err)
	}
	s := &server{
		store:      store,
		s3:         &http.Server{Handler: logRequests(logw, "s3", web.NewHandler(store, web.Options{})), ReadHeaderTimeout: 30 * time.Second},
		playground: &http.Server{Handler: logRequests(logw, "page", playgroundHandler(cfg.Static)), ReadHeaderTimeout: 30 * time.Second},
		s3Addr:     s3ln.Addr(),
		pageAddr:   pageln.Addr(),
		errs:       make(chan error, 2),
	}
	for _, p := range []struct {
		srv *http.Server
		ln  net.Listener
	}{{s.s3, s3ln}, {s.playground, pageln}} {
		go func() {
			if err := p.srv.Serve(p.ln); !errors.Is(err, http.ErrServerClosed) {
				s.errs <- err
			}
		}()
	}
	return s, nil
}

func (s *server) s3URL() string   { return "http://" + s.s3Addr.String() }
func (s *server) pageURL() string { return "http://" + s.pageAddr.String() + "/" }

// shutdown stops both servers, letting requests in flight finish, then
// closes the store.
func (s *server) shutdown() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := errors.Join(s.s3.Shutdown(ctx), s.playground.Shutdown(ctx))
	return errors.Join(err, s.store.Close())
}

// serve runs "minis3 serve" until ctx ends (SIGINT or SIGTERM), then shuts
// down cleanly.
func serve(ctx context.Context, cfg serveConfig, stdout, stderr io.Writer) error {
	s, err := startServer(cfg, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "MiniS3 playground: %s\nS3 API: %s\n", s.pageURL(), s.s3URL())
	fmt.Fprintf(stdout, "data: %s, clock: %s\n", cfg.Data, cfg.Clock)
	for _, a := range []net.Addr{s.pageAddr, s.s3Addr} {
		if ip := a.(*net.TCPAddr).IP; !ip.IsLoopback() {
			fmt.Fprintf(stdout, "warning: %s is not a loopback address: anyone who can reach it can read and change the store (MiniS3 has no authentication)\n", a)
		}
	}
	var runErr error
	select {
	case <-ctx.Done():
		fmt.Fprintln(stdout, "shutting down")
	case runErr = <-s.errs:
	}
	return errors.Join(runErr, s.shutdown())
}
