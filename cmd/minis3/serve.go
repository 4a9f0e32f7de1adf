package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
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
	// Public allows Addr and S3Addr to be addresses other than loopback.
	Public bool
	// AccessKey and SecretKey, when set, make every S3 and extension
	// request need an AWS Signature Version 4 made with them.
	AccessKey, SecretKey string
	// MaxConns bounds the requests each server serves at once; more wait.
	// Each keeps at most openConnsPerRequest times as many connections
	// open (connLimiter).
	MaxConns int
	// The http.Server timeouts of both servers.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
}

// The defaults of the serve flags that are not addresses or paths. The
// read and write timeouts leave the largest body (web.DefaultMaxObjectSize)
// time to cross a slow classroom network.
const (
	defaultMaxConns          = 256
	defaultReadHeaderTimeout = 10 * time.Second
	defaultReadTimeout       = 5 * time.Minute
	defaultWriteTimeout      = 5 * time.Minute
	defaultIdleTimeout       = 2 * time.Minute
)

// openConnsPerRequest × --max-conns is how many connections each server
// keeps open at most (connLimiter): room for many idle keep-alive
// connections beside the requests in progress, while both servers together
// stay within ordinary file descriptor limits.
const openConnsPerRequest = 4

// The environment variables that give the credentials when the flags do not.
const (
	accessKeyEnv = "MINIS3_ACCESS_KEY"
	secretKeyEnv = "MINIS3_SECRET_KEY"
)

func parseServeFlags(args []string, getenv func(string) string, stdout, stderr io.Writer) (serveConfig, error) {
	var cfg serveConfig
	fs := flag.NewFlagSet("minis3 serve", flag.ContinueOnError)
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8080", "address of the playground page")
	fs.StringVar(&cfg.S3Addr, "s3-addr", "127.0.0.1:9000", "address of the S3 API")
	fs.StringVar(&cfg.Data, "data", "./data", "data directory (bbolt)")
	fs.StringVar(&cfg.Clock, "clock", "wall", "clock: wall (real time) or manual (moved only through PUT /_minis3/clock)")
	fs.StringVar(&cfg.Static, "static", "static", "directory of the playground's static files")
	fs.BoolVar(&cfg.Public, "public", false, "allow --addr and --s3-addr to be non-loopback addresses (reachable from other machines)")
	fs.StringVar(&cfg.AccessKey, "access-key", "", "require AWS SigV4 signatures made with this access key (or $"+accessKeyEnv+"); needs --secret-key")
	fs.StringVar(&cfg.SecretKey, "secret-key", "", "the secret key of --access-key (or $"+secretKeyEnv+")")
	fs.IntVar(&cfg.MaxConns, "max-conns", defaultMaxConns, fmt.Sprintf("most requests served at once per server; further ones wait. Each server keeps at most %d times as many connections open: when full, a new one takes the place of the one idle, or silent since it opened, the longest", openConnsPerRequest))
	fs.DurationVar(&cfg.ReadHeaderTimeout, "read-header-timeout", defaultReadHeaderTimeout, "time a client has to send a request's headers")
	fs.DurationVar(&cfg.ReadTimeout, "read-timeout", defaultReadTimeout, "time a client has to send a whole request, body included")
	fs.DurationVar(&cfg.WriteTimeout, "write-timeout", defaultWriteTimeout, "time to send a response, from the end of the request's headers")
	fs.DurationVar(&cfg.IdleTimeout, "idle-timeout", defaultIdleTimeout, "how long an idle keep-alive connection stays open")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: minis3 serve [flags]\n\nServes the MiniS3 playground page and the S3 API over a durable store.\n"+
			"It binds to loopback only unless --public is given. With --access-key and --secret-key\n"+
			"(or $%s and $%s) every S3 request must be signed with AWS Signature Version 4.\n\nFlags:\n", accessKeyEnv, secretKeyEnv)
		fs.PrintDefaults()
	}
	// What Parse prints (the usage, after an error message or alone for
	// -h) goes to stdout when help was asked for, to stderr otherwise.
	var parseOut bytes.Buffer
	fs.SetOutput(&parseOut)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	if err != nil {
		out := stderr
		if errors.Is(err, flag.ErrHelp) {
			out = stdout
		}
		_, _ = parseOut.WriteTo(out)
		return cfg, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments: %q", fs.Args())
		fmt.Fprintln(stderr, "minis3 serve:", err)
		fs.Usage()
		return cfg, err
	}
	if cfg.AccessKey == "" {
		cfg.AccessKey = getenv(accessKeyEnv)
	}
	if cfg.SecretKey == "" {
		cfg.SecretKey = getenv(secretKeyEnv)
	}
	switch {
	case cfg.Clock != "wall" && cfg.Clock != "manual":
		err = fmt.Errorf("--clock must be wall or manual, not %q", cfg.Clock)
	case (cfg.AccessKey == "") != (cfg.SecretKey == ""):
		err = fmt.Errorf("--access-key and --secret-key (or $%s and $%s) go together: one is set, the other is not", accessKeyEnv, secretKeyEnv)
	case cfg.MaxConns < 1:
		err = fmt.Errorf("--max-conns must be at least 1, not %d", cfg.MaxConns)
	case cfg.ReadHeaderTimeout <= 0 || cfg.ReadTimeout <= 0 || cfg.WriteTimeout <= 0 || cfg.IdleTimeout <= 0:
		err = errors.New("the timeouts must be positive durations")
	}
	if err != nil {
		fmt.Fprintln(stderr, "minis3 serve:", err)
		return cfg, err
	}
	return cfg, nil
}

// isLoopback reports whether serving on addr (host:port) stays on this
// machine: the host is a loopback IP or "localhost". An empty host means
// every interface.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// server is a running "minis3 serve": the store and its two HTTP servers.
type server struct {
	store      *core.Store
	s3         *http.Server
	playground *http.Server
	s3Addr     net.Addr
	pageAddr   net.Addr
	errs       chan error
	// stopDaily ends the daily lifecycle runs of a wall clock, which close
	// dailyDone when they have stopped; both are nil on a manual clock.
	stopDaily chan struct{}
	dailyDone chan struct{}
}

// startServer opens the store and starts serving on both addresses. On
// failure nothing is left open.
func startServer(cfg serveConfig, logw io.Writer) (*server, error) {
	if !cfg.Public {
		for _, a := range []struct{ addr, flag string }{{cfg.S3Addr, "--s3-addr"}, {cfg.Addr, "--addr"}} {
			if !isLoopback(a.addr) {
				return nil, fmt.Errorf("refusing to serve on %s (%s): it is not a loopback address, so other machines could reach the store; pass --public to allow it", a.addr, a.flag)
			}
		}
	}
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
	var api http.Handler = web.NewHandler(store, web.Options{})
	if cfg.AccessKey != "" {
		api = web.RequireSigV4(api, web.Credentials{AccessKey: cfg.AccessKey, SecretKey: cfg.SecretKey}, time.Now)
	}
	// httpServer serves h, logged under name, on ln within the limits of
	// cfg; it returns the listener to serve.
	httpServer := func(ln net.Listener, name string, h http.Handler) (*http.Server, net.Listener) {
		conns := newConnLimiter(ln, openConnsPerRequest*cfg.MaxConns)
		return &http.Server{Handler: logRequests(logw, name, limitRequests(cfg.MaxConns, h)), ConnState: conns.connState,
			ReadHeaderTimeout: cfg.ReadHeaderTimeout, ReadTimeout: cfg.ReadTimeout,
			WriteTimeout: cfg.WriteTimeout, IdleTimeout: cfg.IdleTimeout}, conns
	}
	s3srv, s3conns := httpServer(s3ln, "s3", api)
	pagesrv, pageconns := httpServer(pageln, "page", playgroundHandler(cfg.Static))
	s := &server{
		store:      store,
		s3:         s3srv,
		playground: pagesrv,
		s3Addr:     s3ln.Addr(),
		pageAddr:   pageln.Addr(),
		errs:       make(chan error, 2),
	}
	if cfg.Clock == "wall" {
		s.stopDaily, s.dailyDone = make(chan struct{}), make(chan struct{})
		go dailyRuns(store, time.Now, time.After, s.stopDaily, s.dailyDone, logw)
	}
	for _, p := range []struct {
		srv *http.Server
		ln  net.Listener
	}{{s.s3, s3conns}, {s.playground, pageconns}} {
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

// shutdown stops both servers, letting requests in flight finish, and the
// daily lifecycle runs, then closes the store.
func (s *server) shutdown() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := errors.Join(s.s3.Shutdown(ctx), s.playground.Shutdown(ctx))
	if s.stopDaily != nil {
		close(s.stopDaily)
		<-s.dailyDone
	}
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
	if cfg.AccessKey != "" {
		fmt.Fprintf(stdout, "S3 requests must be signed (SigV4) with access key %s\n", cfg.AccessKey)
	}
	for _, a := range []net.Addr{s.pageAddr, s.s3Addr} {
		if ip := a.(*net.TCPAddr).IP; !ip.IsLoopback() {
			risk := "anyone who can reach it can read and change the store: no --access-key is set"
			if cfg.AccessKey != "" {
				risk = "S3 requests need signatures, but they travel over plain HTTP and the playground page is open to all"
			}
			fmt.Fprintf(stderr, "warning: --public: serving on %s, which is not a loopback address: %s\n", a, risk)
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
