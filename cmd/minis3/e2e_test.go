package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// process is a running minis3 binary.
type process struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	exited         chan struct{}
	err            error // cmd.Wait's result, once exited is closed
}

func startProcess(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), stdout: &syncBuffer{}, stderr: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// anyPort is the address the tests serve on: the kernel picks a free port
// as minis3 binds, so no other process (a browser, a test server running
// in parallel) can take it between a choice and the bind, as it could from
// a port that a test found free and let go.
const anyPort = "127.0.0.1:0"

// servingRE matches what minis3 prints once it listens on both addresses.
var servingRE = regexp.MustCompile(`MiniS3 playground: http://\S+/\nS3 API: http://(\S+)\n`)

// serving waits until minis3 prints the addresses it listens on, and
// returns the S3 API's (host:port). It prints them once both listeners are
// bound, so connections to either are accepted from then on. It checks
// every 10 ms for 10 s, failing at once if the process exits.
func (p *process) serving(t *testing.T) string {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for range 1000 {
		if m := servingRE.FindStringSubmatch(p.stdout.String()); m != nil {
			return m[1]
		}
		select {
		case <-p.exited:
			t.Fatalf("minis3 exited before serving: %v\nstdout:\n%s\nstderr:\n%s", p.err, p.stdout, p.stderr)
		case <-tick.C:
		}
	}
	t.Fatalf("minis3 printed no addresses after 10 s\nstdout:\n%s\nstderr:\n%s", p.stdout, p.stderr)
	return ""
}

// stop sends SIGTERM and waits for a clean exit.
func (p *process) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("minis3 did not stop within 30 s of SIGTERM")
	}
	if p.err != nil {
		t.Fatalf("minis3 exited with %v\nstderr:\n%s", p.err, p.stderr)
	}
	if !strings.Contains(p.stdout.String(), "shutting down") {
		t.Errorf("no shutdown message in:\n%s", p.stdout)
	}
}

func setClock(t *testing.T, s3URL string, now float64) {
	t.Helper()
	req, err := http.NewRequest("PUT", s3URL+"/_minis3/clock", strings.NewReader(fmt.Sprintf(`{"now": %v}`, now)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("PUT clock: %d %s", resp.StatusCode, body)
	}
}

// TestBinaryKeepsEverythingAcrossARestart builds minis3, serves a data
// directory with a manual clock, writes through the SDK, stops the process
// with SIGTERM, starts it again and reads everything back.
func TestBinaryKeepsEverythingAcrossARestart(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	serve := func(t *testing.T) (*process, string) {
		p := startProcess(t, bin, "serve", "--clock", "manual", "--data", data, "--addr", anyPort, "--s3-addr", anyPort, "--static", dir)
		return p, "http://" + p.serving(t)
	}
	ctx := context.Background()
	b, k := aws.String("demo"), aws.String("logs/app.log")

	p, url := serve(t)
	client := s3Client(url)
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: b}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: b,
		VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: k, Body: strings.NewReader("old")}); err != nil {
		t.Fatal(err)
	}
	setClock(t, url, 5)
	if _, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: k, Body: strings.NewReader("current"),
		ContentType: aws.String("text/plain"), Metadata: map[string]string{"chapter": "8"}}); err != nil {
		t.Fatal(err)
	}
	up, err := client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: b, Key: aws.String("mp")})
	if err != nil {
		t.Fatal(err)
	}
	part, err := client.UploadPart(ctx, &s3.UploadPartInput{Bucket: b, Key: aws.String("mp"), UploadId: up.UploadId, PartNumber: aws.Int32(1), Body: strings.NewReader("one part")})
	if err != nil {
		t.Fatal(err)
	}
	done, err := client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: b, Key: aws.String("mp"), UploadId: up.UploadId,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: []types.CompletedPart{{PartNumber: aws.Int32(1), ETag: part.ETag}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: b,
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: []types.LifecycleRule{{ID: aws.String("logs"),
			Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(10)}}}}}); err != nil {
		t.Fatal(err)
	}
	setClock(t, url, 12)
	p.stop(t)
	if !strings.Contains(p.stderr.String(), " s3 PUT /demo/logs/app.log") {
		t.Errorf("no request log line for the PUT in:\n%s", p.stderr)
	}

	p, url = serve(t)
	client = s3Client(url)

	t.Run("a second server on the same data directory fails clearly", func(t *testing.T) {
		second := startProcess(t, bin, "serve", "--data", data, "--addr", anyPort, "--s3-addr", anyPort)
		<-second.exited
		if second.err == nil || !strings.Contains(second.stderr.String(), "data directory") {
			t.Errorf("second server: %v, stderr %q; want a failure naming the data directory", second.err, second.stderr)
		}
	})

	resp, err := http.Get(url + "/_minis3/clock")
	if err != nil {
		t.Fatal(err)
	}
	var clock struct {
		Now    float64
		Origin int64
		Time   string
	}
	err = json.NewDecoder(resp.Body).Decode(&clock)
	resp.Body.Close()
	// The origin is the midnight UTC before the store was made, kept with it.
	origin := time.Unix(clock.Origin, 0).UTC()
	if err != nil || clock.Now != 12 || clock.Origin%86400 != 0 || time.Since(origin) > 48*time.Hour ||
		clock.Time != origin.Add(12*time.Second).Format(time.RFC3339) {
		t.Errorf("clock after restart: %+v, %v; want now 12 after the midnight before the store was made", clock, err)
	}
	got, err := client.GetObject(ctx, &s3.GetObjectInput{Bucket: b, Key: k})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(got.Body)
	got.Body.Close()
	if string(body) != "current" || aws.ToString(got.VersionId) != "v00000002" || aws.ToString(got.ContentType) != "text/plain" ||
		got.Metadata["chapter"] != "8" || !got.LastModified.Equal(origin.Add(5*time.Second)) {
		t.Errorf("current version after restart: %q %s %q %v %v", body, aws.ToString(got.VersionId), aws.ToString(got.ContentType), got.Metadata, got.LastModified)
	}
	versions, err := client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: b, Prefix: aws.String("logs/")})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range versions.Versions {
		ids = append(ids, aws.ToString(v.VersionId))
	}
	if strings.Join(ids, " ") != "v00000002 v00000001" {
		t.Errorf("versions after restart: %v", ids)
	}
	mp, err := client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: b, Key: aws.String("mp")})
	if err != nil || aws.ToString(mp.ETag) != aws.ToString(done.ETag) || aws.ToInt64(mp.ContentLength) != 8 {
		t.Errorf("multipart object after restart: %+v %v, want ETag %s", mp, err, aws.ToString(done.ETag))
	}
	lc, err := client.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: b})
	if err != nil || len(lc.Rules) != 1 || aws.ToInt32(lc.Rules[0].Expiration.Days) != 10 {
		t.Errorf("lifecycle after restart: %+v %v", lc, err)
	}
	put, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: k, Body: strings.NewReader("newest")})
	if err != nil || aws.ToString(put.VersionId) != "v00000004" {
		t.Errorf("the version counter after restart: %v %v, want v00000004", aws.ToString(put.VersionId), err)
	}
	p.stop(t)
}
