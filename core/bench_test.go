package core

import (
	"fmt"
	"strconv"
	"testing"
)

// benchRecords builds keys×versions data versions under 4 prefixes, created
// at times 0..versions-1 so that a threshold picks a known share, as a
// store builds its records (newRecord): keys written one after the other,
// each stack newest first, so with decreasing sequence numbers and IDs.
func benchRecords(keys, versions int) []*ObjectRecord {
	out := make([]*ObjectRecord, keys)
	for k := range keys {
		var stack []Entry
		for j := versions - 1; j >= 0; j-- {
			seq := uint64(k*versions + j + 1)
			stack = append(stack, &Version{VersionID: formatVersionID(seq), CreatedAt: float64(j), seq: seq})
		}
		out[k] = newRecord(fmt.Sprintf("p%d/key-%07d", k%4, k), stack)
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
				// A loop to b.N, not b.Loop: b.Loop times every
				// iteration from the first, and as wasm in Chromium
				// the first thousands run while V8 still runs its
				// baseline code, which made the 10k rows' first run in
				// a page 1.5 to 1.9 times as slow as the runs after it
				// (natively the same). b.N's ramp-up runs go untimed.
				for range b.N {
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

// BenchmarkPutObjectMemory is one PUT of a 1 KiB body into a memory store.
// A PUT stores one entry and one body whatever the depth of its key's stack
// (format 3), and a new record shares the array of the one below it
// (newRecordOnto), so the three should cost about the same:
//
//   - new-key: an enabled bucket, every PUT a new key (stack depth 1);
//   - overwrite: an unversioned bucket of 1,000 keys, every PUT replaces a
//     key's null version (depth 1, and the old body is dropped);
//   - enabled-1000keys: an enabled bucket of 1,000 keys in turn, so every key
//     gains a version per 1,000 PUTs and the stacks deepen as the benchmark
//     runs, to b.N/1,000 (before format 3 a PUT rewrote its key's stack, and
//     this row cost 3 to 4 times the others).
func BenchmarkPutObjectMemory(b *testing.B) {
	for _, bc := range []struct {
		name       string
		versioning VersioningState
		keys       int // 0: a new key per PUT
	}{{"new-key", Enabled, 0}, {"overwrite", Unversioned, 1000}, {"enabled-1000keys", Enabled, 1000}} {
		b.Run(bc.name, func(b *testing.B) {
			s, err := Open(NewMemoryStorage(), Options{Clock: func() float64 { return 1 }})
			if err != nil {
				b.Fatal(err)
			}
			if err := s.CreateBucket("bench"); err != nil {
				b.Fatal(err)
			}
			if bc.versioning != Unversioned {
				if err := s.SetBucketVersioning("bench", bc.versioning); err != nil {
					b.Fatal(err)
				}
			}
			// The keys are made outside the measured PUT: the 1,000 keys
			// once, a new key with one allocation (fmt.Sprintf took
			// about 5 % of a PUT's time).
			keys := make([]string, bc.keys)
			for k := range keys {
				keys[k] = fmt.Sprintf("key-%04d", k)
			}
			next := []byte("key-")
			body := make([]byte, 1024)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				var key string
				if bc.keys == 0 {
					key = string(strconv.AppendInt(next[:4], int64(i), 10))
				} else {
					key = keys[i%bc.keys]
				}
				if _, err := s.PutObject("bench", key, body, PutOptions{}); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puts/s")
		})
	}
}

// BenchmarkLifecycleTick is one tick on a memory store over 10k, 100k and
// 1M versions (keys × 10 versions under 4 prefixes, created at 0..9, the
// tick at 9) whose rule expires noncurrent versions: all 9,000 of the 10k
// bucket; 10,000 in the others (the 4 oldest of the 2,500 keys under the
// rule's prefix), so the 1M tick scans a small part of the bucket. Each
// iteration starts from the same bucket: records are immutable, so only the
// bucket's map and index are rebuilt, outside the timer.
func BenchmarkLifecycleTick(b *testing.B) {
	for _, size := range []struct {
		name           string
		keys           int
		prefix         string
		after, actions int
	}{{"10k", 1_000, "", 0, 9_000}, {"100k", 10_000, "p1/", 6, 10_000}, {"1M", 100_000, "p1/key-000", 6, 10_000}} {
		records := benchRecords(size.keys, 10)
		rule := ExpirationRule{ID: "expire", Prefix: size.prefix, ExpireNoncurrentAfter: Seconds(float64(size.after))}
		b.Run(size.name, func(b *testing.B) {
			s, err := Open(NewMemoryStorage(), Options{Clock: func() float64 { return 9 }})
			if err != nil {
				b.Fatal(err)
			}
			if err := s.CreateBucket("bench"); err != nil {
				b.Fatal(err)
			}
			if err := s.SetBucketVersioning("bench", Enabled); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var n int
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				bs := s.buckets["bench"]
				bs.records = make(map[string]*ObjectRecord, len(records))
				bs.index = keyIndex{}
				for _, r := range records {
					bs.records[r.Key] = r
					bs.index.add(r.Key)
				}
				bs.index.keys(bs.records)
				// The counters run past what the records use, as in a
				// store that wrote them.
				bs.meta.NextSeq = uint64(len(records)*10 + 1)
				bs.meta.NextVersion = bs.meta.NextSeq
				b.StartTimer()
				actions, err := s.LifecycleTick("bench", []ExpirationRule{rule})
				if err != nil {
					b.Fatal(err)
				}
				n = len(actions)
			}
			if n != size.actions {
				b.Fatalf("the tick took %d actions, want %d", n, size.actions)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(size.keys*10), "ns/version")
			b.ReportMetric(float64(n), "actions")
		})
	}
}
