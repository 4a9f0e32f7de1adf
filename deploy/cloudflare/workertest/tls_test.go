package workertest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// The worker serves HTTPS, as Cloudflare does, so that the SDK streams
// bodies as aws-chunked with checksum trailers as it does there. Its
// certificate, for 127.0.0.1, is made once per test binary.
var certificate struct {
	once            sync.Once
	keyPEM, certPEM string
	pool            *x509.CertPool
	err             error
}

func makeCertificate() {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		certificate.err = err
		return
	}
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "MiniS3 worker under test"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		certificate.err = err
		return
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		certificate.err = err
		return
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		certificate.err = err
		return
	}
	certificate.keyPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
	certificate.certPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	certificate.pool = x509.NewCertPool()
	certificate.pool.AddCert(cert)
}

// workerCertificate returns the worker's key and certificate in PEM.
func workerCertificate(t testing.TB) (keyPEM, certPEM string) {
	t.Helper()
	certificate.once.Do(makeCertificate)
	if certificate.err != nil {
		t.Fatal(certificate.err)
	}
	return certificate.keyPEM, certificate.certPEM
}

// httpClient is an HTTP client that trusts the worker's certificate.
func httpClient(t testing.TB) *http.Client {
	workerCertificate(t)
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: certificate.pool}}}
}

// caBundle writes the worker's certificate to a file, for the aws CLI's
// --ca-bundle.
func caBundle(t testing.TB) string {
	_, certPEM := workerCertificate(t)
	path := filepath.Join(t.TempDir(), "worker.pem")
	if err := os.WriteFile(path, []byte(certPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
