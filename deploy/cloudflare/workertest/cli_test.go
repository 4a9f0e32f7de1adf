package workertest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// cliResult is what one aws CLI command did.
type cliResult struct {
	stdout, stderr string
	exit           int
}

// aws runs the aws CLI as a student configured as docs/HOSTING.md says
// (path-style addressing, us-east-1), in dir, against c's MiniS3.
func (c *conn) aws(t *testing.T, dir string, args ...string) cliResult {
	t.Helper()
	config := filepath.Join(dir, "config")
	if err := os.WriteFile(config, []byte("[default]\nregion = us-east-1\ns3 =\n  addressing_style = path\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("aws", append([]string{"--endpoint-url", c.url, "--ca-bundle", c.caBundle}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "AWS_CONFIG_FILE="+config, "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(dir, "none"),
		"AWS_ACCESS_KEY_ID="+c.accessKey, "AWS_SECRET_ACCESS_KEY="+c.secretKey, "AWS_DEFAULT_REGION=us-east-1", "AWS_PAGER=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	r := cliResult{stdout: stdout.String(), stderr: stderr.String()}
	switch {
	case errors.As(err, &exit):
		r.exit = exit.ExitCode()
	case err != nil:
		t.Fatalf("aws %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// TestAWSCLIPrintsWhatItPrintsForTheNativeServer runs one session of the
// aws CLI, as a student would, against the native server and against the
// worker: every command must print the same and exit the same.
func TestAWSCLIPrintsWhatItPrintsForTheNativeServer(t *testing.T) {
	w := sharedWorker(t)
	session := [][]string{
		{"s3api", "create-bucket", "--bucket", "cli-demo"},
		{"s3", "cp", "--no-progress", "draft.txt", "s3://cli-demo/notes/today.txt"},
		{"s3api", "list-object-versions", "--bucket", "cli-demo", "--query", "Versions[].[Key,VersionId,IsLatest,Size,ETag]", "--output", "text"},
		{"s3api", "get-object", "--bucket", "cli-demo", "--key", "notes/missing.txt", "out.txt"},
	}
	targets := []struct {
		name string
		c    *conn
	}{{"native", nativeTarget{}.student(t)}, {"worker", w.conn(t, "cli-student")}}
	results := make([][]cliResult, len(targets))
	var wg sync.WaitGroup
	for i, tg := range targets {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "draft.txt"), []byte("first draft\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for _, args := range session {
				results[i] = append(results[i], tg.c.aws(t, dir, args...))
			}
		})
	}
	wg.Wait()
	for i, args := range session {
		if native, worker := results[0][i], results[1][i]; worker != native {
			t.Errorf("aws %s:\nworker: exit %d\n%s%s\nnative: exit %d\n%s%s", strings.Join(args, " "),
				worker.exit, worker.stdout, worker.stderr, native.exit, native.stdout, native.stderr)
		}
	}
	if got := results[1][2].stdout; got != "notes/today.txt\tnull\tTrue\t12\t\"968db5173ccc051a707824751881ebc1\"\n" {
		t.Errorf("list-object-versions printed %q", got)
	}
	if last := results[1][len(session)-1]; last.exit == 0 || !strings.Contains(last.stderr, "NoSuchKey") {
		t.Errorf("get-object of a missing key: exit %d, %s; want NoSuchKey", last.exit, last.stderr)
	}
}
