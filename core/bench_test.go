package core

import (
	"fmt"
	"testing"
)

// benchRecords builds keys×versions data versions under 4 prefixes, created
// at times 0..versions-1 so that a threshold picks a known share.
func benchRecords(keys, versions int) []*ObjectRecord {
	out := make([]*ObjectRecord, keys)
	seq := uint64(1)
	for k := range keys {
		r := &ObjectRecord{Key: fmt.Sprintf("p%d/key-%07d", k%4, k)}
		for j := versions - 1; j >= 0; j-- {
			r.Versions = append(r.Versions, &Version{VersionID: formatVersionID(seq), CreatedAt: float64(j), seq: seq})
			seq++
		}
		out[k] = r
	}
	// Sorted by key: the prefix digit leads, then the key number.
	sortRecords(out)
	return out
}

func sortRecords(rs []*ObjectRecord) {
	buckets := [4][]*ObjectRecord{}
	for _, r := range rs {
		buckets[r.Key[1]-'0'] = append(buckets[r.Key[1]-'0'], r)
	}
	rs = rs[:0]
	for _, b := range buckets {
		rs = append(rs, b...)
	}
}

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
			// One prefix of four, only the oldest noncurrent version: ~1 in 40... per scanned key.
			{"few", ExpirationRule{ID: "few", Prefix: "p1/", ExpireNoncurrentAfter: Seconds(9)}},
			{"half", ExpirationRule{ID: "half", ExpireNoncurrentAfter: Seconds(5)}},
		} {
			b.Run(size.name+"/"+sel.name, func(b *testing.B) {
				versions := size.keys * size.versions
				var n int
				for b.Loop() {
					actions, err := EvaluateExpiration(records, []ExpirationRule{sel.rule}, 9)
					if err != nil {
						b.Fatal(err)
					}
					n = len(actions)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(versions), "ns/version")
				b.ReportMetric(float64(n), "actions")
			})
		}
	}
}

func BenchmarkPutObjectMemory(b *testing.B) {
	s, err := Open(NewMemoryStorage(), Options{Clock: func() float64 { return 1 }})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.CreateBucket("bench"); err != nil {
		b.Fatal(err)
	}
	if err := s.SetBucketVersioning("bench", Enabled); err != nil {
		b.Fatal(err)
	}
	body := make([]byte, 1024)
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%04d", i)
	}
	i := 0
	for b.Loop() {
		if _, err := s.PutObject("bench", keys[i%len(keys)], body, PutOptions{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
