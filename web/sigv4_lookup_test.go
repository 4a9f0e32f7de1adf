package web_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"minis3/core"
	"minis3/web"
)

// TestSigV4LookupAcceptsEveryKnownKeyPair checks RequireSigV4Lookup: each
// access key the lookup knows signs with its own secret key, another's
// secret does not match, and an access key it does not know is
// InvalidAccessKeyId, whatever the secret.
func TestSigV4LookupAcceptsEveryKnownKeyPair(t *testing.T) {
	store, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	secrets := map[string]string{"alice": "alice-secret", "bob": "bob-secret"}
	asked := make(chan string, 16)
	srv := httptest.NewServer(web.RequireSigV4Lookup(web.NewHandler(store, web.Options{}), func(accessKey string) (string, bool) {
		asked <- accessKey
		secret, ok := secrets[accessKey]
		return secret, ok
	}, time.Now))
	t.Cleanup(srv.Close)
	if err := store.CreateBucket("bkt"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, access, secret string
		code                 string // "" for success
	}{
		{"alice with her secret", "alice", "alice-secret", ""},
		{"bob with his secret", "bob", "bob-secret", ""},
		{"alice with bob's secret", "alice", "bob-secret", "SignatureDoesNotMatch"},
		{"an unknown access key", "mallory", "alice-secret", "InvalidAccessKeyId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := clientWith(srv.URL, srv.Client(), tt.access, tt.secret)
			_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("bkt"), Key: aws.String(tt.access), Body: strings.NewReader("x")})
			if tt.code == "" {
				if err != nil {
					t.Fatalf("PutObject: %v", err)
				}
				if got := <-asked; got != tt.access {
					t.Errorf("the lookup was asked for %q, want %q", got, tt.access)
				}
				return
			}
			wantAPIError(t, err, tt.code, 403)
		})
	}
}
