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

func testConfig(t *testing.T) serveConfig {
	return serveConfig{Addr: "127.0.0.1:0", S3Addr: "127.0.0.1:0", Data: t.TempDir(), Clock: "manual", Static: t.TempDir()}
}

func s3Client(url string) *s3.Client {
	return s3.New(s3.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(url), UsePathStyle: true, Retryer: aws.NopRetryer{},
		Credentials:                credentials.NewStaticCredentialsProvider("minis3", "minis3-secret", ""),
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenSupported,
	})
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
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
	s, err := startServer(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer s.shutdown()

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
		})
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
	tests := []struct {
		name string
		args []string
		want serveConfig
		err  bool
	}{
		{"defaults", nil, serveConfig{Addr: "127.0.0.1:8080", S3Addr: "127.0.0.1:9000", Data: "./data", Clock: "wall", Static: "static"}, false},
		{"every flag", []string{"--addr", "127.0.0.1:1", "--s3-addr", "127.0.0.1:2", "--data", "d", "--clock", "manual", "--static", "s"},
			serveConfig{Addr: "127.0.0.1:1", S3Addr: "127.0.0.1:2", Data: "d", Clock: "manual", Static: "s"}, false},
		{"an unknown clock", []string{"--clock", "fast"}, serveConfig{}, true},
		{"a stray argument", []string{"now"}, serveConfig{}, true},
		{"an unknown flag", []string{"--port", "1"}, serveConfig{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got, err := parseServeFlags(tt.args, io.Discard, &stderr)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error: %v", err, tt.err)
			}
			if tt.err && stderr.Len() == 0 {
				t.Error("no message on stderr")
			}
			if !tt.err && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	var stdout bytes.Buffer
	if _, err := parseServeFlags([]string{"-h"}, &stdout, io.Discard); !errors.Is(err, flag.ErrHelp) || !strings.Contains(stdout.String(), "s3-addr") {
		t.Errorf("-h: %v, usage %q", err, stdout.String())
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
		{nil, 2, "Usage"},
		{[]string{"launch"}, 2, `unknown command "launch"`},
		{[]string{"serve", "--clock", "fast"}, 2, "wall or manual"},
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
