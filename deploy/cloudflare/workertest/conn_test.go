package workertest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"minis3/core"
	"minis3/web"
)

// conn is one student's way into a MiniS3: the SDK, signed with their key
// pair, and signed plain HTTP for the /_minis3/ extensions.
type conn struct {
	url                  string
	http                 *http.Client
	caBundle             string // a file of the server's certificate, for the aws CLI
	accessKey, secretKey string
	client               *s3.Client
}

func newConn(url string, hc *http.Client, accessKey, secretKey string) *conn {
	return &conn{url: url, http: hc, accessKey: accessKey, secretKey: secretKey, client: s3.New(s3.Options{
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenSupported,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenSupported,
		Region:                     "us-east-1",
		BaseEndpoint:               aws.String(url),
		UsePathStyle:               true,
		Credentials:                credentials.NewStaticCredentialsProvider(accessKey, secretKey, ""),
		HTTPClient:                 hc,
		Retryer:                    aws.NopRetryer{},
	})}
}

// do sends a request to path with body, signed with the student's key pair
// (signed false: unsigned), and returns its status and body.
func (c *conn) do(t testing.TB, method, path, body string, signed bool) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, c.url+path, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	if signed {
		sum := sha256.Sum256([]byte(body))
		hash := hex.EncodeToString(sum[:])
		req.Header.Set("X-Amz-Content-Sha256", hash)
		signer := v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
		creds := aws.Credentials{AccessKeyID: c.accessKey, SecretAccessKey: c.secretKey}
		if err := signer.SignHTTP(ctx, creds, req, hash, "s3", "us-east-1", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

// target is a MiniS3 that gives each student a store of their own.
type target interface {
	// student returns a new student, with a new, empty store.
	student(t *testing.T) *conn
}

// maxObjectSize is the hosted store's largest object, deploy/cloudflare's
// MaxObjectSize; the native target is given the same.
const maxObjectSize = 16 << 20

// nativeTarget is web.Handler as minis3 serve runs it with --clock manual
// and credentials: a server per student, over an in-memory store.
type nativeTarget struct{}

func (nativeTarget) student(t *testing.T) *conn {
	store, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	creds := web.Credentials{AccessKey: "native", SecretKey: "native-secret"}
	srv := httptest.NewTLSServer(web.RequireSigV4(web.NewHandler(store, web.Options{MaxObjectSize: maxObjectSize}), creds, time.Now))
	t.Cleanup(func() {
		srv.Close()
		store.Close()
	})
	c := newConn(srv.URL, srv.Client(), creds.AccessKey, creds.SecretKey)
	c.caBundle = filepath.Join(t.TempDir(), "native.pem")
	pemCert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(c.caBundle, pemCert, 0o600); err != nil {
		t.Fatal(err)
	}
	return c
}

// workerTarget is the worker: each student a new access key of the class.
type workerTarget struct {
	w        *worker
	students atomic.Int64
}

func (wt *workerTarget) student(t *testing.T) *conn {
	return wt.w.conn(t, fmt.Sprintf("check-%d", wt.students.Add(1)))
}

// conn is the conn of the student with accessKey, whose key pair the
// instructor gets from the worker.
func (w *worker) conn(t testing.TB, accessKey string) *conn {
	s := w.student(t, accessKey)
	c := newConn(w.URL, w.http, s.AccessKeyID, s.SecretAccessKey)
	c.caBundle = caBundle(t)
	return c
}
