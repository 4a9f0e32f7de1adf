package core

import (
	"fmt"
	"testing"

	"minis3/internal/paired"
)

// benchRecords builds keys×versions data versions under 4 prefixes, p0/ to
// p3/, created at times 0..versions-1, so that a threshold picks a known
// share; each stack newest first.
func benchRecords(keys, versions int) []*ObjectRecord {
	out := make([]*ObjectRecord, keys)
	for k := range keys {
		r := &ObjectRecord{Key: fmt.Sprintf("p%d/key-%07d", k%4, k)}
		for j := versions - 1; j >= 0; j-- {
			seq := uint64(k*versions + j + 1)
			r.Versions = append(r.Versions, &Version{VersionID: formatVersionID(seq), CreatedAt: float64(j), seq: seq})
		}
		out[k] = r
	}
	return out
}

// BenchmarkEvaluateExpiration evaluates a rule over 10k, 100k and 1M
// versions: "few" selects the oldest noncurrent version under one prefix
// of four, "half" half of every key's versions. ns/version is the time per
// version in the records.
func BenchmarkEvaluateExpiration(b *testing.B) {
	for _, size := range []struct {
		name           string
		keys, versions int
	}{{"10k", 1_000, 10}, {"100k", 10_000, 10}, {"1M", 100_000, 10}} {
		records := benchRecords(size.keys, size.versions)
		for _, sel := range []struct {
			name string
			rule ExpirationRule
		}{
			{"few", ExpirationRule{ID: "few", Prefix: "p1/", ExpireNoncurrentAfter: Seconds(9)}},
			{"half", ExpirationRule{ID: "half", ExpireNoncurrentAfter: Seconds(5)}},
		} {
			b.Run(size.name+"/"+sel.name, func(b *testing.B) {
				var n int
				for b.Loop() {
					actions, err := EvaluateExpiration(records, []ExpirationRule{sel.rule}, 9)
					if err != nil {
						b.Fatal(err)
					}
					n = len(actions)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(size.keys*size.versions), "ns/version")
				b.ReportMetric(float64(n), "actions")
			})
		}
	}
}

// BenchmarkLifecycleTick is a tick of 1,000 actions, its commit to memory
// storage included, in buckets of 10k and 1M versions: before each tick,
// 1,000 new keys of two versions each are written under a prefix of their
// own, and the tick expires their noncurrent versions. Its cost must not
// grow with the bucket.
func BenchmarkLifecycleTick(b *testing.B) {
	for _, size := range []struct {
		name string
		keys int // of 10 versions each
	}{{"10k", 1_000}, {"1M", 100_000}} {
		b.Run(size.name, func(b *testing.B) {
			s, err := Open(NewMemoryStorage(), Options{Clock: func() float64 { return 9 }})
			if err != nil {
				b.Fatal(err)
			}
			must := func(err error) {
				if err != nil {
					b.Fatal(err)
				}
			}
			must(s.CreateBucket("bench"))
			must(s.SetBucketVersioning("bench", Enabled))
			for _, r := range benchRecords(size.keys, 10) {
				for range r.Versions {
					_, err := s.PutObject("bench", r.Key, []byte("x"), PutOptions{})
					must(err)
				}
			}
			b.ReportAllocs()
			round := 0
			for b.Loop() {
				b.StopTimer()
				round++
				prefix := fmt.Sprintf("tick-%06d/", round)
				for k := range 1_000 {
					key := fmt.Sprintf("%skey-%04d", prefix, k)
					for range 2 {
						_, err := s.PutObject("bench", key, []byte("x"), PutOptions{})
						must(err)
					}
				}
				b.StartTimer()
				actions, err := s.LifecycleTick("bench", []ExpirationRule{{ID: "expire", Prefix: prefix, ExpireNoncurrentAfter: Seconds(0)}})
				must(err)
				if len(actions) != 1_000 {
					b.Fatalf("the tick took %d actions, want 1,000", len(actions))
				}
			}
		})
	}
}

// BenchmarkWriteBesideUploads is a PUT and a DELETE of a key in a bucket
// that has completed 10 multipart uploads and in one that has completed
// 10,000 (paired, so a slow spell falls on both alike). A write's cost must
// not grow with the bucket's multipart history: 10k/10 is the ratio of
// their medians.
func BenchmarkWriteBesideUploads(b *testing.B) {
	var stores []*Store
	for _, completed := range []int{10, 10_000} {
		s, err := Open(NewMemoryStorage(), Options{Clock: func() float64 { return 1 }})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.CreateBucket("bench"); err != nil {
			b.Fatal(err)
		}
		for range completed {
			u, err := s.CreateMultipartUpload("bench", "done", PutOptions{})
			if err != nil {
				b.Fatal(err)
			}
			p, err := s.UploadPart("bench", "done", u.UploadID, 1, []byte("part"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.CompleteMultipartUpload("bench", "done", u.UploadID, []CompletedPart{{PartNumber: 1, ETag: p.ETag}}); err != nil {
				b.Fatal(err)
			}
		}
		stores = append(stores, s)
	}
	medians := paired.Medians(b, len(stores), func(j, i int) {
		key := fmt.Sprintf("key-%d", i)
		if _, err := stores[j].PutObject("bench", key, []byte("x"), PutOptions{}); err != nil {
			b.Fatal(err)
		}
		if _, err := stores[j].DeleteObject("bench", key, DeleteOptions{}); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(medians[1]/medians[0], "10k/10")
}
