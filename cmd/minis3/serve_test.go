package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// syncBuffer is a bytes.Buffer safe for the servers' goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func testConfig(t testing.TB) serveConfig {
	return serveConfig{Addr: "127.0.0.1:0", S3Addr: "127.0.0.1:0", Data: t.TempDir(), Clock: "manual", Static: t.TempDir(),
		MaxConns: defaultMaxConns, ReadHeaderTimeout: defaultReadHeaderTimeout, ReadTimeout: defaultReadTimeout,
		WriteTimeout: defaultWriteTimeout, IdleTimeout: defaultIdleTimeout}
}

func s3Client(url string) *s3.Client {
	return s3.New(s3.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(url), UsePathStyle: true, Retryer: aws.NopRetryer{},
		Credentials:                credentials.NewStaticCredentialsProvider("minis3", "minis3-secret", ""),
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenSupported,
	})
}

// started starts a server of cfg that logs nowhere and shuts down when
// the test ends.
func started(t testing.TB, cfg serveConfig) *server {
	t.Helper()
	s, err := startServer(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.shutdown() })
	return s
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, body := rawGet(t, "GET", url, "")
	return resp, string(body)
}

func TestServerServesTheS3APIAndLogsEachRequest(t *testing.T) {
	var logs syncBuffer
	s, err := startServer(testConfig(t), &logs)
	if err != nil {
		t.Fatal(err)
	}
	client := s3Client(s.s3URL())
	if _, err := client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String("demo")}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String("demo"), Key: aws.String("k"), Body: strings.NewReader("hi")}); err != nil {
		t.Fatal(err)
	}
	if err := s.shutdown(); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^\S+ s3 PUT /demo/k\S* 200 0B \S+$`)
	if !line.MatchString(logs.String()) {
		t.Errorf("no log line for the PUT in:\n%s", logs.String())
	}
	if n := strings.Count(logs.String(), "\n"); n != 2 {
		t.Errorf("%d log lines for 2 requests:\n%s", n, logs.String())
	}
}

func TestPlaygroundStaticFiles(t *testing.T) {
	cfg := testConfig(t)
	s := started(t, cfg)

	resp, body := get(t, s.pageURL())
	if resp.StatusCode != 404 || !strings.Contains(body, "not built") || !strings.Contains(body, "make build") {
		t.Errorf("without index.html: %d %s", resp.StatusCode, body)
	}
	files := map[string]string{"index.html": "<!doctype html><title>MiniS3</title>", "minis3.wasm": "\x00asm", "app.js": "export {}"}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(cfg.Static, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ path, contentType, body string }{
		{"", "text/html; charset=utf-8", files["index.html"]},
		{"minis3.wasm", "application/wasm", files["minis3.wasm"]},
		{"app.js", "text/javascript; charset=utf-8", files["app.js"]},
	}
	for _, tt := range tests {
		t.Run("/"+tt.path, func(t *testing.T) {
			resp, body := get(t, s.pageURL()+tt.path)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.contentType || body != tt.body {
				t.Errorf("got %d %q %q, want 200 %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.contentType, tt.body)
			}
			if got := resp.Header.Get("Content-Security-Policy"); got != contentSecurityPolicy {
				t.Errorf("Content-Security-Policy %q, want %q", got, contentSecurityPolicy)
			}
		})
	}
}

// TestPlaygroundPolicyMatchesPage checks that the header the server sends is
// the policy the page itself declares in its meta tag: the playground's,
// and the example course page's, which embeds the playground.
func TestPlaygroundPolicyMatchesPage(t *testing.T) {
	for _, tt := range []struct{ page, policy string }{
		{"index.html", contentSecurityPolicy},
		{"examples/course.html", examplesPolicy},
	} {
		page, err := os.ReadFile(filepath.Join("..", "..", "static", filepath.FromSlash(tt.page)))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatch(page)
		if m == nil {
			t.Fatalf("static/%s has no Content-Security-Policy meta tag", tt.page)
		}
		if string(m[1]) != tt.policy {
			t.Errorf("static/%s declares %q, the server sends %q", tt.page, m[1], tt.policy)
		}
	}
}

// TestExamplesPolicy checks that the example course pages get the policy
// that lets them embed the playground, and the playground its own.
func TestExamplesPolicy(t *testing.T) {
	cfg := testConfig(t)
	s := started(t, cfg)
	for name, content := range map[string]string{"index.html": "<!doctype html><title>MiniS3</title>", "examples/course.html": "<!doctype html><title>course</title>"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(cfg.Static, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cfg.Static, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ path, policy string }{
		{"", contentSecurityPolicy},
		{"examples/course.html", examplesPolicy},
		{"examples/../index.html", contentSecurityPolicy},
	} {
		resp, _ := get(t, s.pageURL()+tt.path)
		if got := resp.Header.Get("Content-Security-Policy"); resp.StatusCode != 200 || got != tt.policy {
			t.Errorf("/%s: %d with policy %q, want 200 with %q", tt.path, resp.StatusCode, got, tt.policy)
		}
	}
}

func TestStartFailsClearly(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		change   func(*serveConfig)
		mentions []string
	}{
		{"the S3 port is taken", func(c *serveConfig) { c.S3Addr = busy.Addr().String() }, []string{"--s3-addr", busy.Addr().String()}},
		{"the playground port is taken", func(c *serveConfig) { c.Addr = busy.Addr().String() }, []string{"--addr", busy.Addr().String()}},
		{"the data directory is a file", func(c *serveConfig) { c.Data = notADir }, []string{"data directory", notADir}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(t)
			tt.change(&cfg)
			var stderr bytes.Buffer
			err := serve(context.Background(), cfg, io.Discard, &stderr)
			if err == nil {
				t.Fatal("serve succeeded")
			}
			for _, m := range tt.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
			if cfg.Data == notADir {
				return
			}
			// The failed start closed the store: its data directory opens again.
			cfg.Addr, cfg.S3Addr = "127.0.0.1:0", "127.0.0.1:0"
			s, err := startServer(cfg, io.Discard)
			if err != nil {
				t.Fatalf("the failed start left the store open: %v", err)
			}
			if err := s.shutdown(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestServeStopsWhenItsContextEnds(t *testing.T) {
	cfg := testConfig(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stdout syncBuffer
	done := make(chan error)
	go func() { done <- serve(ctx, cfg, &stdout, io.Discard) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"MiniS3 playground: http://127.0.0.1:", "S3 API: http://127.0.0.1:", "shutting down"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
}

func TestServeFlags(t *testing.T) {
	defaults := serveConfig{Addr: "127.0.0.1:8080", S3Addr: "127.0.0.1:9000", Data: "./data", Clock: "wall", Static: "static",
		MaxConns: 256, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 5 * time.Minute, WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute}
	with := func(change func(*serveConfig)) serveConfig {
		c := defaults
		change(&c)
		return c
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want serveConfig
		err  string // a part of the message on stderr; "" for success
	}{
		{"defaults", nil, nil, defaults, ""},
		{"every flag", []string{"--addr", "127.0.0.1:1", "--s3-addr", "127.0.0.1:2", "--data", "d", "--clock", "manual", "--static", "s",
			"--public", "--access-key", "AK", "--secret-key", "SK", "--max-conns", "3", "--read-header-timeout", "1s",
			"--read-timeout", "2s", "--write-timeout", "3s", "--idle-timeout", "4s"}, nil,
			serveConfig{Addr: "127.0.0.1:1", S3Addr: "127.0.0.1:2", Data: "d", Clock: "manual", Static: "s", Public: true,
				AccessKey: "AK", SecretKey: "SK", MaxConns: 3, ReadHeaderTimeout: time.Second, ReadTimeout: 2 * time.Second,
				WriteTimeout: 3 * time.Second, IdleTimeout: 4 * time.Second}, ""},
		{"credentials from the environment", nil, map[string]string{"MINIS3_ACCESS_KEY": "envAK", "MINIS3_SECRET_KEY": "envSK"},
			with(func(c *serveConfig) { c.AccessKey, c.SecretKey = "envAK", "envSK" }), ""},
		{"flags win over the environment", []string{"--access-key", "AK", "--secret-key", "SK"},
			map[string]string{"MINIS3_ACCESS_KEY": "envAK", "MINIS3_SECRET_KEY": "envSK"},
			with(func(c *serveConfig) { c.AccessKey, c.SecretKey = "AK", "SK" }), ""},
		{"an access key without a secret key", []string{"--access-key", "AK"}, nil, serveConfig{}, "go together"},
		{"a secret key without an access key", []string{"--secret-key", "SK"}, nil, serveConfig{}, "go together"},
		{"an access key flag with only the environment's access key", []string{"--access-key", "AK"},
			map[string]string{"MINIS3_ACCESS_KEY": "envAK"}, serveConfig{}, "go together"},
		{"no connections allowed", []string{"--max-conns", "0"}, nil, serveConfig{}, "--max-conns"},
		{"a zero timeout", []string{"--read-header-timeout", "0s"}, nil, serveConfig{}, "timeouts"},
		{"a negative timeout", []string{"--idle-timeout", "-1s"}, nil, serveConfig{}, "timeouts"},
		{"an unknown clock", []string{"--clock", "fast"}, nil, serveConfig{}, "wall or manual"},
		{"a stray argument", []string{"now"}, nil, serveConfig{}, "unexpected arguments"},
		{"an unknown flag", []string{"--port", "1"}, nil, serveConfig{}, "-port"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got, err := parseServeFlags(tt.args, func(k string) string { return tt.env[k] }, io.Discard, &stderr)
			if (err != nil) != (tt.err != "") {
				t.Fatalf("err = %v, want error: %v", err, tt.err != "")
			}
			if tt.err != "" && !strings.Contains(stderr.String(), tt.err) {
				t.Errorf("stderr %q does not mention %q", stderr.String(), tt.err)
			}
			if tt.err == "" && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if _, err := parseServeFlags([]string{"-h"}, func(string) string { return "" }, &stdout, &stderr); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
	if stderr.Len() != 0 || strings.Count(stdout.String(), "Usage: minis3 serve") != 1 {
		t.Errorf("-h printed the usage %d times on stdout and %q on stderr", strings.Count(stdout.String(), "Usage: minis3 serve"), stderr.String())
	}
	for _, want := range []string{"s3-addr", "-public", "-access-key", "MINIS3_ACCESS_KEY", "MINIS3_SECRET_KEY", "-max-conns", "-read-header-timeout", "loopback"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the usage does not mention %q:\n%s", want, stdout.String())
		}
	}
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"version"}, 0, "minis3 "},
		{[]string{"-h"}, 0, "minis3 serve"},
		{[]string{"help"}, 0, "minis3 serve"},
		{[]string{"serve", "-h"}, 0, "-s3-addr"},
		{[]string{"-h"}, 0, "minis3 scenario check FILE..."},
		{[]string{"scenario", "check", "-h"}, 0, "-static"},
		{[]string{"scenario"}, 2, "Usage: minis3 scenario check"},
		{[]string{"scenario", "-h"}, 0, "Usage: minis3 scenario check"},
		{[]string{"scenario", "check"}, 2, "name at least one scenario file"},
		{[]string{"scenario", "check", "--static", "testdata"}, 2, "name at least one scenario file"},
		{[]string{"scenario", "check", "--static", "testdata", "x.json"}, 2, "no scenario-check.mjs in testdata"},
		{nil, 2, "Usage"},
		{[]string{"launch"}, 2, `unknown command "launch"`},
		{[]string{"serve", "--clock", "fast"}, 2, "wall or manual"},
		{[]string{"serve", "--access-key", "AK"}, 2, "go together"},
		{[]string{"serve", "--s3-addr", "0.0.0.0:0", "--addr", "127.0.0.1:0"}, 1, "--public"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			if code := run(context.Background(), tt.args, &out, &out); code != tt.code || !strings.Contains(out.String(), tt.contains) {
				t.Errorf("exit %d, output %q; want %d containing %q", code, out.String(), tt.code, tt.contains)
			}
		})
	}
}
