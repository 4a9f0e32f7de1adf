package workertest

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"minis3/internal/paired"
)

// The worker's benchmarks (make bench-cloudflare), through the AWS SDK for
// Go over HTTPS to the worker under Miniflare on this machine:
//
//	go test -run '^$' -bench . -benchtime 20x -count 5 ./deploy/cloudflare/workertest/

// BenchmarkWarmPutGet1KiB times a PUT and a GET of 1 KiB to a store whose
// Go instance runs, taking turns, against their budgets in BENCHMARKS.md
// (put-median-ms, get-median-ms).
func BenchmarkWarmPutGet1KiB(b *testing.B) {
	c := sharedWorker(b).conn(b, fmt.Sprintf("bench-warm-%d", time.Now().UnixNano()))
	if _, err := c.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("bench")}); err != nil {
		b.Fatal(err)
	}
	body := bytes.Repeat([]byte("x"), 1024)
	op := func(j, _ int) {
		if j == 0 {
			if _, err := c.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("bench"), Key: aws.String("k"), Body: bytes.NewReader(body)}); err != nil {
				b.Fatal(err)
			}
			return
		}
		out, err := c.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("bench"), Key: aws.String("k")})
		if err != nil {
			b.Fatal(err)
		}
		got, err := io.ReadAll(out.Body)
		out.Body.Close()
		if err != nil || len(got) != len(body) {
			b.Fatalf("GET: %d bytes, %v", len(got), err)
		}
	}
	// Warm: the instance running, its code compiled by V8's optimising
	// tier, the connection open.
	for i := range 40 {
		op(i%2, i)
	}
	medians := paired.Medians(b, 2, op)
	b.ReportMetric(medians[0]/1e3, "put-median-ms")
	b.ReportMetric(medians[1]/1e3, "get-median-ms")
}

// BenchmarkColdStoreFirstRequest times a new student's first request
// (ListBuckets): the Durable Object made, its Go instance started, the
// empty store opened and put on the roster. Budget: cold-new-median-ms
// ≤ 500.
func BenchmarkColdStoreFirstRequest(b *testing.B) {
	w := sharedWorker(b)
	var times []time.Duration
	for i := 0; b.Loop(); i++ {
		c := w.conn(b, fmt.Sprintf("bench-cold-%d-%d", time.Now().UnixNano(), i))
		start := time.Now()
		if _, err := c.client.ListBuckets(ctx, &s3.ListBucketsInput{}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.ReportMetric(medianMs(times), "cold-new-median-ms")
}

// BenchmarkEvictedStoreFirstRequest times the first request (a GET of
// 1 KiB) to a store of 100 objects just evicted from memory (ctx.abort,
// as Cloudflare evicts an idle object), in a running isolate: the object
// made again, its Go instance started, the store loaded from storage.
// Budget: cold-evicted-median-ms ≤ 500.
func BenchmarkEvictedStoreFirstRequest(b *testing.B) {
	w := sharedWorker(b)
	key := fmt.Sprintf("bench-evicted-%d", time.Now().UnixNano())
	c := storeOf100(b, w, key)
	var times []time.Duration
	for b.Loop() {
		b.StopTimer()
		var answer struct{ Evicted bool }
		if w.test(b, "POST", "evict", key, "", &answer); !answer.Evicted {
			b.Fatal("not evicted")
		}
		b.StartTimer()
		start := time.Now()
		getSeven(b, c)
		times = append(times, time.Since(start))
	}
	b.ReportMetric(medianMs(times), "cold-evicted-median-ms")
}

// storeOf100 makes accessKey's store with a bucket of 100 objects of 1 KiB.
func storeOf100(b *testing.B, w *worker, accessKey string) *conn {
	c := w.conn(b, accessKey)
	if _, err := c.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("bench")}); err != nil {
		b.Fatal(err)
	}
	body := bytes.Repeat([]byte("x"), 1024)
	for i := range 100 {
		if _, err := c.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("bench"), Key: aws.String(fmt.Sprint(i)), Body: bytes.NewReader(body)}); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// getSeven reads object 7 of storeOf100's bucket.
func getSeven(b *testing.B, c *conn) {
	out, err := c.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("bench"), Key: aws.String("7")})
	if err != nil {
		b.Fatal(err)
	}
	defer out.Body.Close()
	if _, err := io.ReadAll(out.Body); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRestartedStoreFirstRequest times the first request (a GET of
// 1 KiB) to a store of 100 objects after Miniflare restarted, which drops
// every Durable Object and its Go instance: a new isolate, the instance
// started, the store loaded from storage. The restart is not timed.
// Reported: the worst case, a cold isolate as well as a cold store.
func BenchmarkRestartedStoreFirstRequest(b *testing.B) {
	w := startWorker(b, "manual")
	c := storeOf100(b, w, "bench-restarted")
	var times []time.Duration
	for b.Loop() {
		b.StopTimer()
		w.restart(b, map[string]any{})
		c = w.conn(b, "bench-restarted")
		b.StartTimer()
		start := time.Now()
		getSeven(b, c)
		times = append(times, time.Since(start))
	}
	b.ReportMetric(medianMs(times), "cold-restarted-median-ms")
}

// medianMs is the median of times, in milliseconds.
func medianMs(times []time.Duration) float64 {
	slices.Sort(times)
	return float64(times[len(times)/2].Microseconds()) / 1e3
}
