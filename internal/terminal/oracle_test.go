package terminal_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"minis3/core"
	"minis3/internal/terminal"
	"minis3/internal/wire"
)

// The oracle: each script of testdata/oracle is run twice, by the real
// aws CLI (imported once by testdata/awsbatch.py, or in bash for a line
// that needs a shell; in a directory of its own) against `minis3 serve
// --clock manual`, and by the terminal against a store of its own with the
// same clock; every line must print the same bytes on stdout and stderr
// and end with the same exit status. Lines starting with "minis3" move the
// clock (or tick) in both runs through the terminal's own minis3 command.
// The only difference allowed is the transfer progress aws s3 prints
// ("Completed 6 Bytes/6 Bytes (31 Bytes/s) with 1 file(s) remaining"),
// and, for the commands that transfer several files at once, the order of
// their lines, which the CLI's threads decide.

func TestOracle(t *testing.T) {
	scripts, err := filepath.Glob("testdata/oracle/*.txt")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no oracle scripts: %v", err)
	}
	aws := requireAWS(t)
	server := buildMinis3(t)
	for _, script := range scripts {
		t.Run(strings.TrimSuffix(filepath.Base(script), ".txt"), func(t *testing.T) {
			t.Parallel()
			lines := readScript(t, script)
			real := runReal(t, server, aws, lines)
			mine := runTerminal(t, real.origin, lines)
			compare(t, lines, real.outputs, mine)
		})
	}
}

// requireAWS is the real aws CLI. A machine without it fails the test:
// CI machines have it. Where aws is a pyenv shim, it is the script the
// shim runs, which starts faster.
func requireAWS(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("aws")
	if err != nil {
		t.Fatal("the aws CLI (v1, 1.45.11) is not installed: the oracle needs it")
	}
	if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte("pyenv")) {
		if out, err := exec.Command("pyenv", "which", "aws").Output(); err == nil {
			p = strings.TrimSpace(string(out))
		}
	}
	return p
}

var minis3Binary struct {
	once sync.Once
	path string
	err  error
}

// buildMinis3 builds cmd/minis3 once per test binary.
func buildMinis3(t *testing.T) string {
	t.Helper()
	minis3Binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "minis3-oracle-")
		if err != nil {
			minis3Binary.err = err
			return
		}
		minis3Binary.path = filepath.Join(dir, "minis3")
		cmd := exec.Command("go", "build", "-o", minis3Binary.path, "minis3/cmd/minis3")
		if out, err := cmd.CombinedOutput(); err != nil {
			minis3Binary.err = fmt.Errorf("building minis3: %v\n%s", err, out)
		}
	})
	if minis3Binary.err != nil {
		t.Fatal(minis3Binary.err)
	}
	return minis3Binary.path
}

// readScript reads a script's command lines: blank lines and comment
// lines (starting with "#") are left out.
func readScript(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

// output is what a line printed and its exit status.
type output struct {
	stdout, stderr string
	status         int
}

type realRun struct {
	origin  float64
	outputs []output
}

var s3AddrRE = regexp.MustCompile(`S3 API: (http://\S+)\n`)

// runReal runs the script with the real aws CLI against minis3 serve.
func runReal(t *testing.T, server, aws string, lines []string) realRun {
	t.Helper()
	endpoint := startServer(t, server)
	remote := &proxyStore{endpoint: endpoint}
	clock := remote.clock(t)
	home, config := t.TempDir(), t.TempDir()
	env := []string{
		"PATH=" + filepath.Dir(aws) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + config, "PYENV_ROOT=" + os.Getenv("PYENV_ROOT"),
		"AWS_ACCESS_KEY_ID=minis3", "AWS_SECRET_ACCESS_KEY=minis3", "AWS_DEFAULT_REGION=us-east-1",
		"AWS_ENDPOINT_URL=" + endpoint, "AWS_CONFIG_FILE=" + filepath.Join(config, "config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(config, "credentials"),
		"TZ=UTC", "LC_ALL=C",
	}
	shell := terminal.New(remote, nil)
	batch := startBatch(t, aws, env)
	run := realRun{origin: clock.Origin}
	status := 0
	for _, line := range lines {
		var out output
		before := snapshot(t, home)
		ran := false
		if strings.HasPrefix(line, "minis3 ") {
			res := shell.Run(line, terminal.Options{})
			out, ran = output{res.Stdout, res.Stderr, res.Status}, true
		} else if strings.HasPrefix(line, "aws ") {
			out, ran = batch.run(t, line, home)
		}
		if !ran {
			cmd := exec.Command("bash", "-c", fmt.Sprintf("(exit %d); %s", status, line))
			cmd.Dir, cmd.Env = home, env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			out = output{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
			if err != nil && cmd.ProcessState == nil {
				t.Fatalf("%s: %v", line, err)
			}
		}
		status = out.status
		run.outputs = append(run.outputs, out)
		stampChanged(t, home, before, remote.now(t), !strings.HasPrefix(line, "aws "))
	}
	return run
}

// awsBatch is testdata/awsbatch.py: the aws CLI imported once, running
// the script's plain aws command lines one after another, as the aws
// script would run each. Lines with more for bash to do than split words
// (a redirection, $?) it leaves to bash.
type awsBatch struct {
	in  io.Writer
	out *bufio.Reader
}

// startBatch starts testdata/awsbatch.py with the Python that runs the
// aws script and the aws CLI's environment.
func startBatch(t *testing.T, aws string, env []string) *awsBatch {
	t.Helper()
	python, err := interpreter(aws)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "testdata/awsbatch.py")
	cmd.Env, cmd.Stderr = env, os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = in.Close()
		_ = cmd.Wait()
	})
	return &awsBatch{in: in, out: bufio.NewReader(out)}
}

// interpreter is the program on the #! line of the script at path.
func interpreter(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	first, _ := bufio.NewReader(f).ReadString('\n')
	python, ok := strings.CutPrefix(strings.TrimSpace(first), "#!")
	if !ok || strings.ContainsAny(python, " \t") {
		return "", fmt.Errorf("%s does not start with #!PYTHON: %q", path, first)
	}
	return python, nil
}

// run runs line in dir; ran is false when bash must run it.
func (b *awsBatch) run(t *testing.T, line, dir string) (out output, ran bool) {
	t.Helper()
	req, _ := json.Marshal(map[string]string{"line": line, "cwd": dir})
	if _, err := b.in.Write(append(req, '\n')); err != nil {
		t.Fatalf("awsbatch.py: %v", err)
	}
	data, err := b.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("awsbatch.py answered nothing to %s: %v", line, err)
	}
	var answer struct {
		Ran            bool
		Stdout, Stderr []byte
		Status         int
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		t.Fatalf("awsbatch.py: %v: %s", err, data)
	}
	return output{string(answer.Stdout), string(answer.Stderr), answer.Status}, answer.Ran
}

// startServer runs minis3 serve with a manual clock on ports the kernel
// picks and returns its S3 endpoint.
func startServer(t *testing.T, server string) string {
	t.Helper()
	cmd := exec.Command(server, "serve", "--clock", "manual", "--data", t.TempDir(),
		"--addr", "127.0.0.1:0", "--s3-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		var seen strings.Builder
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadString('\n')
			seen.WriteString(line)
			if m := s3AddrRE.FindStringSubmatch(seen.String()); m != nil {
				found <- m[1]
				_, _ = io.Copy(io.Discard, r)
				return
			}
			if err != nil {
				close(found)
				return
			}
		}
	}()
	endpoint, ok := <-found
	if !ok {
		t.Fatal("minis3 serve printed no S3 address")
	}
	return endpoint
}

// proxyStore is the terminal's Store over a running minis3 serve: its
// minis3 commands move the real server's clock. It has no undo.
type proxyStore struct{ endpoint string }

func (p *proxyStore) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := http.NewRequest(r.Method, p.endpoint+r.URL.RequestURI(), r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	})
}

func (p *proxyStore) clock(t *testing.T) wire.Clock {
	t.Helper()
	resp, err := http.Get(p.endpoint + "/_minis3/clock")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c wire.Clock
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c
}

func (p *proxyStore) now(t *testing.T) time.Time {
	c := p.clock(t)
	tm, err := time.Parse(time.RFC3339Nano, c.Time)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func (p *proxyStore) Now() time.Time                          { return time.Time{} }
func (p *proxyStore) Changes() ([]core.Change, uint64, error) { return nil, 0, nil }
func (p *proxyStore) Restore([]core.Change) error {
	return fmt.Errorf("the real server has no undo")
}

// fileState is a file's content and modification time.
type fileState struct {
	data     string
	modified time.Time
}

func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	files := map[string]fileState{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files[path] = fileState{string(data), info.ModTime()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// stampChanged gives the files a line wrote the store's time, as the
// terminal does: those the shell wrote, and those the CLI wrote without
// setting their time (a download sets it to the object's).
func stampChanged(t *testing.T, dir string, before map[string]fileState, now time.Time, shellLine bool) {
	t.Helper()
	for path, after := range snapshot(t, dir) {
		old, existed := before[path]
		if existed && old == after {
			continue
		}
		if !shellLine && time.Since(after.modified).Abs() > 5*time.Minute {
			continue
		}
		if err := os.Chtimes(path, now, now); err != nil {
			t.Fatal(err)
		}
	}
}

// runTerminal runs the script in the terminal over a memory store whose
// clock has the server's origin.
func runTerminal(t *testing.T, origin float64, lines []string) []output {
	t.Helper()
	store, err := terminal.OpenStore(core.NewMemoryStorage(), core.Options{ManualClock: true, Origin: origin})
	if err != nil {
		t.Fatal(err)
	}
	shell := terminal.New(store, nil)
	var outs []output
	for _, line := range lines {
		res := shell.Run(line, terminal.Options{})
		outs = append(outs, output{res.Stdout, res.Stderr, res.Status})
	}
	return outs
}

var (
	progress = regexp.MustCompile(`Completed [^\r\n]*? remaining[^\r\n]*\r`)
	padding  = regexp.MustCompile(` +\n`)
	transfer = regexp.MustCompile(`^aws s3 ((cp|mv|rm) .*--recursive|sync |rb .*--force)`)
)

// normalise drops the transfer progress of aws s3 (and the spaces that
// covered it), and sorts the lines of a transfer of several files.
func normalise(line, s string) string {
	if !strings.HasPrefix(line, "aws s3 ") {
		return s
	}
	if progress.MatchString(s) {
		s = padding.ReplaceAllString(progress.ReplaceAllString(s, ""), "\n")
	}
	if transfer.MatchString(line) {
		ls := strings.SplitAfter(s, "\n")
		sort.Strings(ls)
		s = strings.Join(ls, "")
	}
	return s
}

func compare(t *testing.T, lines []string, real, mine []output) {
	t.Helper()
	failed := 0
	for i, line := range lines {
		r, m := real[i], mine[i]
		r.stdout, m.stdout = normalise(line, r.stdout), normalise(line, m.stdout)
		r.stderr, m.stderr = normalise(line, r.stderr), normalise(line, m.stderr)
		if r == m {
			continue
		}
		failed++
		t.Errorf("line %d: %s\n%s", i+1, line, difference(r, m))
	}
	if failed > 0 {
		t.Logf("%d of %d lines differ", failed, len(lines))
	}
}

func difference(r, m output) string {
	var b strings.Builder
	if r.status != m.status {
		fmt.Fprintf(&b, "  status: aws %d, terminal %d\n", r.status, m.status)
	}
	if r.stdout != m.stdout {
		fmt.Fprintf(&b, "  stdout of aws:\n%s  stdout of the terminal:\n%s", indent(r.stdout), indent(m.stdout))
	}
	if r.stderr != m.stderr {
		fmt.Fprintf(&b, "  stderr of aws:\n%s  stderr of the terminal:\n%s", indent(r.stderr), indent(m.stderr))
	}
	return b.String()
}

func indent(s string) string {
	if s == "" {
		return "    (nothing)\n"
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("    " + strconv.Quote(l) + "\n")
		}
	}
	return b.String()
}
