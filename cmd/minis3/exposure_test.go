package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:9000", true},
		{"127.1.2.3:9000", true},
		{"[::1]:9000", true},
		{"localhost:9000", true},
		{"LocalHost:9000", true},
		{"0.0.0.0:9000", false},
		{"[::]:9000", false},
		{":9000", false},
		{"192.168.1.10:9000", false},
		{"10.0.0.1:9000", false},
		{"example.com:9000", false},
		{"localhost.example.com:9000", false},
		{"no port", false},
	}
	for _, tt := range tests {
		if got := isLoopback(tt.addr); got != tt.want {
			t.Errorf("isLoopback(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

func TestNonLoopbackAddressIsRefusedWithoutPublic(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", ":0", "192.168.1.10:0", "example.com:0"} {
		for _, which := range []string{"--s3-addr", "--addr"} {
			t.Run(which+" "+addr, func(t *testing.T) {
				cfg := testConfig(t)
				if which == "--s3-addr" {
					cfg.S3Addr = addr
				} else {
					cfg.Addr = addr
				}
				var stdout, stderr syncBuffer
				err := serve(context.Background(), cfg, &stdout, &stderr)
				if err == nil {
					t.Fatal("serve accepted a non-loopback address without --public")
				}
				for _, want := range []string{addr, which, "--public", "not a loopback address"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not mention %q", err, want)
					}
				}
				// Refused before anything was opened: the data directory is
				// still empty.
				if entries, err := os.ReadDir(cfg.Data); err != nil || len(entries) != 0 {
					t.Errorf("the data directory holds %v (%v) after a refused start", entries, err)
				}
			})
		}
	}
}

func TestPublicServesEveryInterfaceWithAWarning(t *testing.T) {
	tests := []struct {
		name      string
		accessKey string
		warning   string
	}{
		{"without credentials", "", "anyone who can reach it can read and change the store: no --access-key is set"},
		{"with credentials", "AK", "S3 requests need signatures, but they travel over plain HTTP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.S3Addr, cfg.Public = "0.0.0.0:0", true
			cfg.AccessKey, cfg.SecretKey = tt.accessKey, tt.accessKey
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var stdout, stderr syncBuffer
			if err := serve(ctx, cfg, &stdout, &stderr); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stderr.String(), "warning: --public: serving on ") || !strings.Contains(stderr.String(), tt.warning) {
				t.Errorf("stderr lacks the warning %q:\n%s", tt.warning, stderr.String())
			}
			if signed := strings.Contains(stdout.String(), "S3 requests must be signed (SigV4) with access key AK"); signed != (tt.accessKey != "") {
				t.Errorf("stdout tells of signatures: %v, want %v:\n%s", signed, tt.accessKey != "", stdout.String())
			}
			if n := strings.Count(stderr.String(), "warning:"); n != 1 {
				t.Errorf("%d warnings for one public address:\n%s", n, stderr.String())
			}
		})
	}
	t.Run("loopback addresses with --public", func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Public = true
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stdout, stderr syncBuffer
		if err := serve(ctx, cfg, &stdout, &stderr); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stderr.String(), "warning") {
			t.Errorf("a warning for loopback addresses:\n%s", stderr.String())
		}
	})
}

// readUntilClosed reads conn until the server closes it and returns the
// error that ended the reading: io.EOF or a reset when the server closed
// it, a timeout when it did not within the deadline.
func readUntilClosed(conn net.Conn, deadline time.Duration) error {
	if err := conn.SetReadDeadline(time.Now().Add(deadline)); err != nil {
		return err
	}
	_, err := io.Copy(io.Discard, conn)
	if err == nil {
		err = io.EOF
	}
	return err
}

func TestSlowClientIsDisconnectedAfterTheHeaderTimeout(t *testing.T) {
	cfg := testConfig(t)
	cfg.ReadHeaderTimeout, cfg.MaxConns = 100*time.Millisecond, 2
	s := started(t, cfg)

	slow, err := net.Dial("tcp", s.s3Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	for _, b := range []byte("GET /_minis3/clock HTTP/1.1\r\nHost: minis3\r\nX-Slow: a") {
		if _, err := slow.Write([]byte{b}); err != nil {
			t.Fatal(err)
		}
	}
	// While the slow client holds its connection, others are served.
	resp, body := get(t, s.s3URL()+"/_minis3/clock")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, `{"now":0,`) {
		t.Errorf("another client during the slow one: %d %s", resp.StatusCode, body)
	}
	// The server closes the slow connection once the header timeout passes;
	// the deadline only bounds the test.
	if err := readUntilClosed(slow, 10*time.Second); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the server kept a connection whose headers never ended for 10 s (header timeout 100 ms)")
	}
}

func TestServerWithCredentialsRequiresSignatures(t *testing.T) {
	cfg := testConfig(t)
	cfg.AccessKey, cfg.SecretKey = "minis3", "minis3-secret" // what s3Client signs with
	s := started(t, cfg)
	for _, path := range []string{"/", "/_minis3/clock"} {
		if resp, body := get(t, s.s3URL()+path); resp.StatusCode != 403 || !strings.Contains(body, "AccessDenied") {
			t.Errorf("unsigned GET %s: %d %s", path, resp.StatusCode, body)
		}
	}
	client := s3Client(s.s3URL())
	if _, err := client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String("signed")}); err != nil {
		t.Fatalf("a request signed with the configured pair: %v", err)
	}
	other := s3.New(s3.Options{Region: "us-east-1", BaseEndpoint: aws.String(s.s3URL()), UsePathStyle: true, Retryer: aws.NopRetryer{},
		Credentials: credentials.NewStaticCredentialsProvider("minis3", "another-secret", "")})
	_, err := other.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String("forged")})
	if err == nil || !strings.Contains(err.Error(), "SignatureDoesNotMatch") {
		t.Errorf("a request signed with another secret: %v, want SignatureDoesNotMatch", err)
	}
	if len(s.store.ListBuckets()) != 1 {
		t.Errorf("buckets %v, want only the signed one", s.store.ListBuckets())
	}
}
