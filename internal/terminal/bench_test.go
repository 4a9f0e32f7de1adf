package terminal_test

import (
	"fmt"
	"testing"
	"time"

	"minis3/core"
	"minis3/internal/terminal"
)

// BenchmarkTerminalCommand1000Versions times commands on a bucket of
// 1,000 versions (100 keys of 10 versions each), from the line to the
// printed output, through the store's S3 API, against its budget in
// BENCHMARKS.md.
func BenchmarkTerminalCommand1000Versions(b *testing.B) {
	store, err := terminal.OpenStore(core.NewMemoryStorage(), core.Options{ManualClock: true, Origin: testOrigin})
	if err != nil {
		b.Fatal(err)
	}
	s := store.Core()
	if err := s.CreateBucket("big"); err != nil {
		b.Fatal(err)
	}
	if err := s.SetBucketVersioning("big", core.Enabled); err != nil {
		b.Fatal(err)
	}
	for v := 0; v < 10; v++ {
		for k := 0; k < 100; k++ {
			if _, err := s.PutObject("big", fmt.Sprintf("logs/%03d.log", k), []byte("version"), core.PutOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, c := range []struct{ name, line string }{
		{"ListObjectVersions", "aws s3api list-object-versions --bucket big"},
		{"ListObjectVersionsText", "aws s3api list-object-versions --bucket big --output text"},
		{"ListObjectVersionsQuery", "aws s3api list-object-versions --bucket big --query 'Versions[?IsLatest].{Key: Key, Id: VersionId}'"},
		{"S3Ls", "aws s3 ls s3://big --recursive"},
		{"PutObject", "aws s3api put-object --bucket big --key logs/000.log"},
	} {
		b.Run(c.name, func(b *testing.B) {
			sh := terminal.New(store, nil)
			start := time.Now()
			for b.Loop() {
				if res := sh.Run(c.line, terminal.Options{}); res.Status != 0 {
					b.Fatalf("%s: %s", c.line, res.Stderr)
				}
			}
			b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/command")
		})
	}
}
