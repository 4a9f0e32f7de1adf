package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"minis3/core"
	"minis3/core/boltstore"
	"minis3/internal/wire"
)

// crashIterationsEnv sets how many times TestCrashKillLosesNoAcknowledgedWrite
// kills the server; crashSeedEnv fixes the seed of its random choices.
const (
	crashIterationsEnv     = "MINIS3_CRASH_ITERATIONS"
	crashSeedEnv           = "MINIS3_CRASH_SEED"
	defaultCrashIterations = 60
)

// buildBinary builds minis3 into a temporary directory and returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build minis3: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "minis3")
	if out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// crashOp is one operation of the crash loop. It is sent to the server over
// HTTP and applied to an in-memory model store; both must report the same
// outcome.
type crashOp struct {
	kind    string // "create", "versioning", "put", "delete", "clock", "tick"
	bucket  string
	key     string
	version string // delete: the versionId to delete, "" for none
	body    []byte // put
	status  string // versioning: "Enabled" or "Suspended"
	now     float64
	rules   string // tick: the JSON rules
}

func (op crashOp) String() string {
	switch op.kind {
	case "put":
		return fmt.Sprintf("put %s/%s (%d bytes)", op.bucket, op.key, len(op.body))
	case "delete":
		return fmt.Sprintf("delete %s/%s versionId=%q", op.bucket, op.key, op.version)
	case "clock":
		return fmt.Sprintf("clock %v", op.now)
	case "tick":
		return fmt.Sprintf("tick %s %s", op.bucket, op.rules)
	}
	return fmt.Sprintf("%s %s %s", op.kind, op.bucket, op.status)
}

// request is op as an HTTP request to the server at base.
func (op crashOp) request(base string) *http.Request {
	var (
		method, path string
		body         []byte
	)
	switch op.kind {
	case "create":
		method, path = "PUT", "/"+op.bucket
	case "versioning":
		method, path = "PUT", "/"+op.bucket+"?versioning"
		body = []byte(`<VersioningConfiguration><Status>` + op.status + `</Status></VersioningConfiguration>`)
	case "put":
		method, path, body = "PUT", "/"+op.bucket+"/"+op.key, op.body
	case "delete":
		method, path = "DELETE", "/"+op.bucket+"/"+op.key
		if op.version != "" {
			path += "?versionId=" + op.version
		}
	case "clock":
		method, path = "PUT", "/_minis3/clock"
		body = []byte(fmt.Sprintf(`{"now": %v}`, op.now))
	case "tick":
		method, path = "POST", "/_minis3/buckets/"+op.bucket+"/lifecycle-tick"
		body = []byte(`{"rules": ` + op.rules + `}`)
	}
	req, err := http.NewRequest(method, base+path, bytes.NewReader(body))
	if err != nil {
		panic(err) // the paths above are always valid URLs
	}
	return req
}

// outcome is what the server's response says happened.
func (op crashOp) outcome(resp *http.Response, body []byte) string {
	h := resp.Header
	switch op.kind {
	case "put":
		return fmt.Sprintf("%d v=%s etag=%s", resp.StatusCode, h.Get("x-amz-version-id"), h.Get("ETag"))
	case "delete":
		return fmt.Sprintf("%d v=%s dm=%s", resp.StatusCode, h.Get("x-amz-version-id"), h.Get("x-amz-delete-marker"))
	case "tick":
		return fmt.Sprintf("%d %s", resp.StatusCode, bytes.TrimSpace(body))
	}
	return strconv.Itoa(resp.StatusCode)
}

// apply performs op on the model store and returns the outcome the server
// must report for it.
func (op crashOp) apply(m *core.Store) (string, error) {
	switch op.kind {
	case "create":
		return "200", m.CreateBucket(op.bucket)
	case "versioning":
		return "200", m.SetBucketVersioning(op.bucket, core.VersioningState(strings.ToLower(op.status)))
	case "put":
		res, err := m.PutObject(op.bucket, op.key, op.body, core.PutOptions{})
		v := res.VersionID
		if v == core.NullVersionID {
			v = ""
		}
		return fmt.Sprintf("200 v=%s etag=%q", v, res.ETag), err
	case "delete":
		res, err := m.DeleteObject(op.bucket, op.key, core.DeleteOptions{VersionID: op.version})
		dm := ""
		if res.DeleteMarker {
			dm = "true"
		}
		return fmt.Sprintf("204 v=%s dm=%s", res.VersionID, dm), err
	case "clock":
		_, err := m.SetClock(op.now)
		return "200", err
	case "tick":
		rules, err := wire.DecodeRules([]byte(op.rules))
		if err != nil {
			return "", err
		}
		actions, err := m.LifecycleTick(op.bucket, rules)
		body, jerr := json.Marshal(wire.ActionsBody{Actions: wire.Actions(actions)})
		if jerr != nil {
			return "", jerr
		}
		return "200 " + string(body), err
	}
	return "", fmt.Errorf("unknown operation %q", op.kind)
}

// crashBuckets are the buckets of the loop: one versioned, one never
// versioned, one suspended (null versions over versioned ones).
var crashBuckets = []string{"ver", "plain", "susp"}

// crashSetup creates the buckets.
var crashSetup = []crashOp{
	{kind: "create", bucket: "ver"},
	{kind: "versioning", bucket: "ver", status: "Enabled"},
	{kind: "create", bucket: "plain"},
	{kind: "create", bucket: "susp"},
	{kind: "versioning", bucket: "susp", status: "Enabled"},
}

var crashKeys = []string{"a", "b", "logs/1", "logs/2"}

// nextOp draws a random operation that is valid against the model m.
func nextOp(rng *rand.Rand, m *core.Store) crashOp {
	bucket := crashBuckets[rng.IntN(len(crashBuckets))]
	key := crashKeys[rng.IntN(len(crashKeys))]
	switch n := rng.IntN(100); {
	case n < 45:
		size := rng.IntN(2048)
		if rng.IntN(8) == 0 {
			size = rng.IntN(1 << 20) // a large body keeps the request in flight longer
		}
		body := make([]byte, size)
		for i := range body {
			body[i] = byte(rng.Uint32())
		}
		return crashOp{kind: "put", bucket: bucket, key: key, body: body}
	case n < 60:
		return crashOp{kind: "delete", bucket: bucket, key: key}
	case n < 75:
		// A delete by version ID of an existing entry, when there is one.
		recs, _ := m.Snapshot(bucket)
		for _, r := range recs {
			if r.Key == key {
				e := r.Versions[rng.IntN(len(r.Versions))]
				return crashOp{kind: "delete", bucket: bucket, key: key, version: e.ID()}
			}
		}
		return crashOp{kind: "delete", bucket: bucket, key: key}
	case n < 85:
		return crashOp{kind: "clock", now: m.Now() + float64(rng.IntN(8))/2}
	case n < 95 && bucket == "susp" && rng.IntN(2) == 0:
		status := "Suspended"
		if v, _ := m.BucketVersioning(bucket); v == core.Suspended {
			status = "Enabled"
		}
		return crashOp{kind: "versioning", bucket: bucket, status: status}
	default:
		return crashOp{kind: "tick", bucket: bucket,
			rules: fmt.Sprintf(`[{"id":"logs","prefix":"logs/","expireCurrentAfter":%d,"expireNoncurrentAfter":%d}]`, 2+rng.IntN(6), 1+rng.IntN(4))}
	}
}

// dumpStore describes everything a store holds: the clock, the buckets
// with their creation times and versioning, and every entry of every key
// with its sequence, creation time, size, ETag and a hash of its body.
func dumpStore(t *testing.T, s *core.Store) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "now %v\n", s.Now())
	buckets := s.ListBuckets()
	slices.SortFunc(buckets, func(x, y core.BucketInfo) int { return strings.Compare(x.Name, y.Name) })
	for _, bi := range buckets {
		fmt.Fprintf(&b, "bucket %s created %v %s\n", bi.Name, bi.CreatedAt, bi.Versioning)
		recs, err := s.Snapshot(bi.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			for _, e := range r.Versions {
				switch e := e.(type) {
				case *core.Version:
					obj, err := s.GetObject(bi.Name, r.Key, core.GetOptions{VersionID: e.VersionID})
					if err != nil {
						t.Fatalf("%s/%s version %s: %v", bi.Name, r.Key, e.VersionID, err)
					}
					fmt.Fprintf(&b, "  %s %s seq %d at %v size %d etag %s body %x\n", r.Key, e.VersionID, e.Seq(), e.CreatedAt,
						e.Size, e.ETag, sha256.Sum256(obj.Body))
				case *core.DeleteMarker:
					fmt.Fprintf(&b, "  %s %s seq %d at %v delete marker\n", r.Key, e.VersionID, e.Seq(), e.CreatedAt)
				}
			}
		}
	}
	return b.String()
}

// newModel applies ops to a fresh in-memory store.
func newModel(t *testing.T, ops []crashOp) *core.Store {
	t.Helper()
	m, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		if _, err := op.apply(m); err != nil {
			t.Fatalf("model: %s: %v", op, err)
		}
	}
	return m
}

// openDurable opens the data directory the killed server left, checks the
// store's invariants and returns its dump.
func openDurable(t *testing.T, data string) string {
	t.Helper()
	storage, err := boltstore.Open(data)
	if err != nil {
		t.Fatalf("reopening the data directory after the kill: %v", err)
	}
	s, err := core.Open(storage, core.Options{ManualClock: true})
	if err != nil {
		storage.Close()
		t.Fatalf("opening the store after the kill: %v", err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatalf("invariants broken after the kill: %v", err)
	}
	return dumpStore(t, s)
}

// versionNumber is n of a version ID vNNNNNNNN, 0 for any other ID.
func versionNumber(id string) uint64 {
	n, err := strconv.ParseUint(strings.TrimPrefix(id, "v"), 10, 64)
	if !strings.HasPrefix(id, "v") || err != nil {
		return 0
	}
	return n
}

// crashRun is what the client loop of one iteration did before the kill.
type crashRun struct {
	acked    int      // how many operations got their whole response
	inFlight *crashOp // the operation whose response never came
	err      error    // why it never came
	failure  string   // a response that disagreed with the model
}

// runOps sends random operations to base until one gets no response,
// applying each to the model m. An operation counts as acknowledged once its
// whole response is read.
func runOps(client *http.Client, base string, rng *rand.Rand, m *core.Store, highest map[string]uint64) crashRun {
	var run crashRun
	for {
		op := nextOp(rng, m)
		resp, err := client.Do(op.request(base))
		var body []byte
		if err == nil {
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		if err != nil {
			run.inFlight, run.err = &op, err
			return run
		}
		want, merr := op.apply(m)
		got := op.outcome(resp, body)
		if merr != nil || got != want {
			run.failure = fmt.Sprintf("%s: server answered %q (%s), the model %q (%v)", op, got, body, want, merr)
			return run
		}
		run.acked++
		if n := versionNumber(resp.Header.Get("x-amz-version-id")); n != 0 && op.version == "" {
			if n <= highest[op.bucket] {
				run.failure = fmt.Sprintf("%s: version ID v%08d handed out again (highest seen v%08d)", op, n, highest[op.bucket])
				return run
			}
			highest[op.bucket] = n
		}
	}
}

// TestCrashKillLosesNoAcknowledgedWrite runs minis3 over a bbolt data
// directory, sends it random PUTs, DELETEs (with and without versionId),
// versioning changes, clock moves and lifecycle ticks, and kills it with
// SIGKILL after a random delay while requests are in flight, many times.
// After every kill the data directory must hold exactly the acknowledged
// operations, plus the one in flight either wholly or not at all, with
// every body byte-exact, bucket creation times unchanged and the store's
// invariants intact; version IDs are never handed out twice.
func TestCrashKillLosesNoAcknowledgedWrite(t *testing.T) {
	iterations := defaultCrashIterations
	if v := os.Getenv(crashIterationsEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a positive number", crashIterationsEnv, v)
		}
		iterations = n
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(crashSeedEnv); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: want a number", crashSeedEnv, v)
		}
		seed = n
	}
	t.Logf("%d iterations, seed %d (rerun with %s=%d)", iterations, seed, crashSeedEnv, seed)
	opRNG := rand.New(rand.NewPCG(seed, 1))
	killRNG := rand.New(rand.NewPCG(seed, 2))

	bin := buildBinary(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	start := func() (*process, string) {
		p := startProcess(t, bin, "serve", "--clock", "manual", "--data", data, "--addr", anyPort, "--s3-addr", anyPort, "--static", dir)
		return p, "http://" + p.serving(t)
	}

	model := newModel(t, crashSetup)
	highest := make(map[string]uint64)
	p, base := start()
	for _, op := range crashSetup {
		resp, err := http.DefaultClient.Do(op.request(base))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("setup %s: %d", op, resp.StatusCode)
		}
	}

	var inFlightApplied, inFlightLost, totalAcked int
	for i := range iterations {
		transport := &http.Transport{}
		client := &http.Client{Transport: transport}
		done := make(chan crashRun, 1)
		go func() { done <- runOps(client, base, opRNG, model, highest) }()
		delay := time.Duration(killRNG.Int64N(int64(60 * time.Millisecond)))
		timer := time.NewTimer(delay)
		var run crashRun
		select {
		case <-timer.C:
			if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-p.exited
			run = <-done
		case run = <-done:
			timer.Stop()
			if run.failure == "" {
				t.Fatalf("iteration %d (seed %d): %s failed before the kill: %v\nstderr:\n%s", i, seed, run.inFlight, run.err, p.stderr)
			}
		}
		transport.CloseIdleConnections()
		if run.failure != "" {
			t.Fatalf("iteration %d (seed %d): %s", i, seed, run.failure)
		}
		totalAcked += run.acked

		// The model holds every acknowledged operation. The durable store
		// must equal it, or it with the in-flight operation applied.
		got := openDurable(t, data)
		if before := dumpStore(t, model); got == before {
			inFlightLost++
		} else {
			if _, err := run.inFlight.apply(model); err != nil {
				t.Fatalf("model: in-flight %s: %v", run.inFlight, err)
			}
			if after := dumpStore(t, model); got != after {
				t.Fatalf("iteration %d (seed %d, kill after %v, %d acknowledged, in flight: %s): the data directory holds\n%s\nwant the acknowledged state\n%s\nor it with the in-flight operation\n%s",
					i, seed, delay, run.acked, run.inFlight, got, before, after)
			}
			inFlightApplied++
		}
		p, base = start()
	}
	p.stop(t)
	model.Close()
	t.Logf("%d kills, %d acknowledged operations, in-flight operation applied %d times, absent %d times",
		iterations, totalAcked, inFlightApplied, inFlightLost)
}
