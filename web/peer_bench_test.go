package web_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"minis3/core"
	"minis3/internal/paired"
	"minis3/web"
)

// peer is an S3 server under benchmark, with an SDK client pointed at it.
type peer struct {
	name   string
	h      http.Handler
	srv    *httptest.Server
	client *s3.Client
}

// The versioned bucket every row reads holds peerKeys keys of
// peerVersions versions each: 10,000 versions in all.
const (
	peerKeys     = 1000
	peerVersions = 10
	peerBody     = 1024
)

// newPeers starts MiniS3 (memory storage, wall clock) and gofakes3 (s3mem)
// behind plain-HTTP test servers, and fills the same versioned buckets in
// both through the SDK: "read" with peerKeys × peerVersions versions for GET
// and ListObjectVersions, and an empty "write" for PUT.
func newPeers(b *testing.B) []*peer {
	b.Helper()
	store, err := core.Open(core.NewMemoryStorage(), core.Options{})
	if err != nil {
		b.Fatal(err)
	}
	fake := gofakes3.New(s3mem.New(), gofakes3.WithIntegrityCheck(true))
	peers := []*peer{{name: "minis3", h: web.NewHandler(store, web.Options{})}, {name: "gofakes3", h: fake.Server()}}
	for _, p := range peers {
		p.srv = httptest.NewServer(p.h)
	}
	b.Cleanup(func() {
		for _, p := range peers {
			p.srv.Close()
		}
		store.Close()
	})
	body := bytes.Repeat([]byte("b"), peerBody)
	for _, p := range peers {
		p.client = newClient(p.srv.URL, p.srv.Client())
		for _, bucket := range []string{"read", "write"} {
			if _, err := p.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
				b.Fatalf("%s: CreateBucket: %v", p.name, err)
			}
			if _, err := p.client.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: aws.String(bucket),
				VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
				b.Fatalf("%s: PutBucketVersioning: %v", p.name, err)
			}
		}
		for v := range peerVersions {
			for k := range peerKeys {
				if _, err := p.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("read"), Key: aws.String(peerKey(k)),
					Body: bytes.NewReader(body)}); err != nil {
					b.Fatalf("%s: PutObject %d of version %d: %v", p.name, k, v, err)
				}
			}
		}
		if n := listFirstPage(b, p); n != core.DefaultMaxKeys {
			b.Fatalf("%s lists %d versions on the first page, want %d", p.name, n, core.DefaultMaxKeys)
		}
	}
	// gofakes3 v1.2.0 (s3mem) marks the page truncated but sends no
	// NextKeyMarker/NextVersionIdMarker, so a client cannot go past it;
	// only MiniS3 is checked page by page.
	if n := listAllVersions(b, peers[0]); n != peerKeys*peerVersions {
		b.Fatalf("minis3 lists %d versions, want %d", n, peerKeys*peerVersions)
	}
	return peers
}

// listFirstPage lists the first page of the "read" bucket's versions (1,000
// entries, S3's default page) and returns how many it holds.
func listFirstPage(b *testing.B, p *peer) int {
	out, err := p.client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String("read")})
	if err != nil {
		b.Fatalf("%s: ListObjectVersions: %v", p.name, err)
	}
	if !aws.ToBool(out.IsTruncated) {
		b.Fatalf("%s: the first page of %d versions is not truncated", p.name, peerKeys*peerVersions)
	}
	return len(out.Versions)
}

func peerKey(k int) string { return fmt.Sprintf("dir%d/key-%04d", k%10, k) }

// listAllVersions lists the "read" bucket page by page (1,000 entries each,
// S3's default) and returns how many versions it holds, checking that every
// key lists exactly one latest version.
func listAllVersions(b *testing.B, p *peer) int {
	n := 0
	in := &s3.ListObjectVersionsInput{Bucket: aws.String("read")}
	latest := map[string]int{}
	for {
		out, err := p.client.ListObjectVersions(ctx, in)
		if err != nil {
			b.Fatalf("%s: ListObjectVersions: %v", p.name, err)
		}
		for _, v := range out.Versions {
			if aws.ToBool(v.IsLatest) {
				latest[aws.ToString(v.Key)]++
			}
		}
		n += len(out.Versions)
		if !aws.ToBool(out.IsTruncated) {
			break
		}
		if aws.ToString(out.NextKeyMarker) == aws.ToString(in.KeyMarker) && aws.ToString(out.NextVersionIdMarker) == aws.ToString(in.VersionIdMarker) {
			b.Fatalf("%s: ListObjectVersions is truncated after %d versions but its next page starts at the same marker %q/%q",
				p.name, n, aws.ToString(in.KeyMarker), aws.ToString(in.VersionIdMarker))
		}
		in.KeyMarker, in.VersionIdMarker = out.NextKeyMarker, out.NextVersionIdMarker
	}
	if n > 0 && len(latest) != peerKeys {
		b.Fatalf("%s: %d keys list a latest version, want %d", p.name, len(latest), peerKeys)
	}
	for key, count := range latest {
		if count != 1 {
			b.Fatalf("%s: key %s lists %d latest versions", p.name, key, count)
		}
	}
	return n
}

// BenchmarkPeer drives MiniS3's handler and gofakes3 (s3mem backend) with
// the same AWS SDK for Go v2 workload, side by side, on versioned buckets:
//
//   - PUT: a 1 KiB object, a new version of one of 1,000 keys in turn;
//   - PUT-server: the same PUT (into other keys of the same bucket) served
//     straight into an httptest.ResponseRecorder: the server's own share,
//     about a fifteenth of a PUT through the SDK on this machine;
//   - GET: the current version of one of 1,000 keys of the 10,000-version
//     bucket, body read in full;
//   - ListObjectVersions: the first page (1,000 entries, S3's default) of
//     the 10,000-version bucket. (Not all ten pages: gofakes3 cannot page
//     through versions, see newPeers.)
//   - ListObjectVersions-server: the same request (GET /read?versions)
//     served straight into an httptest.ResponseRecorder, without the SDK,
//     HTTP or XML parsing on the client side: the server's own share.
//
// Each row runs both servers as sub-benchmarks (.../server=minis3,
// .../server=gofakes3), so `benchstat -col /server` shows the ratio per row.
// The two run one after the other, so a drift of the machine between them
// moves the ratio; BenchmarkPeerPaired measures the same rows in pairs.
func BenchmarkPeer(b *testing.B) {
	peers := newPeers(b)
	for _, row := range peerRows() {
		for _, p := range peers {
			b.Run(row.name+"/server="+p.name, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					row.op(b, p, i)
					i++
				}
			})
		}
	}
}

// BenchmarkPeerPaired runs BenchmarkPeer's rows in pairs (package
// paired): every iteration sends the row's request to both servers, first
// to one and then to the other, the order swapping each time, and times
// each request. On a noisy
// machine a drift then falls on both servers alike: the sequential rows of
// BenchmarkPeer move by ±10 % between runs here, more than the servers
// differ on PUT. Each row reports both servers' median times and their
// ratio, minis3/gofakes3 (below 1: MiniS3 is ahead); ns/op is the pair.
func BenchmarkPeerPaired(b *testing.B) {
	peers := newPeers(b)
	for _, row := range peerRows() {
		b.Run(row.name, func(b *testing.B) {
			medians := paired.Medians(b, len(peers), func(j, i int) { row.op(b, peers[j], i) })
			for j, p := range peers {
				b.ReportMetric(medians[j], p.name+"-µs")
			}
			b.ReportMetric(medians[0]/medians[1], peers[0].name+"/"+peers[1].name)
		})
	}
}

// peerRow is one operation of the side-by-side workload; i numbers the
// iteration, so that both servers see the same keys in the same order.
type peerRow struct {
	name string
	op   func(b *testing.B, p *peer, i int)
}

func peerRows() []peerRow {
	body := bytes.Repeat([]byte("p"), peerBody)
	return []peerRow{
		{"PUT", func(b *testing.B, p *peer, i int) {
			if _, err := p.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("write"), Key: aws.String(peerKey(i % peerKeys)),
				Body: bytes.NewReader(body)}); err != nil {
				b.Fatal(err)
			}
		}},
		{"PUT-server", func(b *testing.B, p *peer, i int) {
			req := httptest.NewRequest(http.MethodPut, "/write/server/"+peerKey(i%peerKeys), bytes.NewReader(body))
			req.Header.Set("Content-Length", strconv.Itoa(len(body))) // gofakes3 requires the header itself
			w := httptest.NewRecorder()
			p.h.ServeHTTP(w, req)
			if w.Code != http.StatusOK || w.Header().Get("ETag") == "" {
				b.Fatalf("PUT /write/server/...: status %d, ETag %q, %.200s", w.Code, w.Header().Get("ETag"), w.Body.Bytes())
			}
		}},
		{"GET", func(b *testing.B, p *peer, i int) {
			out, err := p.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("read"), Key: aws.String(peerKey(i % peerKeys))})
			if err != nil {
				b.Fatal(err)
			}
			n, err := io.Copy(io.Discard, out.Body)
			out.Body.Close()
			if err != nil || n != peerBody {
				b.Fatalf("GET read %d bytes (%v), want %d", n, err, peerBody)
			}
		}},
		{"ListObjectVersions", func(b *testing.B, p *peer, i int) {
			if n := listFirstPage(b, p); n != core.DefaultMaxKeys {
				b.Fatalf("listed %d versions, want %d", n, core.DefaultMaxKeys)
			}
		}},
		{"ListObjectVersions-server", func(b *testing.B, p *peer, i int) {
			w := httptest.NewRecorder()
			p.h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/read?versions", nil))
			if w.Code != http.StatusOK || !bytes.Contains(w.Body.Bytes(), []byte("<IsTruncated>true</IsTruncated>")) {
				b.Fatalf("GET /read?versions: status %d, %.200s", w.Code, w.Body.Bytes())
			}
		}},
	}
}
