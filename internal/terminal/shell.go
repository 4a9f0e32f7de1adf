// Package terminal is MiniS3's terminal: a small shell in which a learner
// types what they will type at work, the aws CLI's s3api and s3 commands
// (package awscli), against a MiniS3 store, with the output the real aws
// CLI prints.
//
// Beside aws, the shell has what those commands need: a home folder of
// files (echo TEXT > FILE, cat, ls, rm, mkdir), the shell's own help,
// history, clear, undo and reset, echo $? for the last exit status, and
// minis3 commands for what S3 has no command for: the clock, the
// chapter's lifecycle tick and its preview, and running the stored S3
// lifecycle configuration now.
//
// Every S3 request a command makes is a real HTTP request to the store's
// handler, and Run returns each one with its response, so that the page
// can list them. The shell's whole state (files, history, last status and
// what undo needs) is a State, which encodes to JSON for the page to keep.
package terminal

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"minis3/core"
	"minis3/internal/terminal/awscli"
	"minis3/internal/undo"
)

// Store is the store a shell works on.
type Store interface {
	// Handler serves the S3 API and the /_minis3/ extensions of the
	// store (package web).
	Handler() http.Handler
	// Now is the store's clock: the instant it shows.
	Now() time.Time
	// Changes returns the changes that undo every commit since its last
	// call (undo.Journal.Take), and the store's fingerprint.
	Changes() ([]core.Change, uint64, error)
	// Restore commits changes that undo earlier commits and opens the
	// store again from its storage.
	Restore([]core.Change) error
}

// MaxUndo is how many commands undo can go back.
const MaxUndo = 50

// MaxHistory is how many command lines the history keeps.
const MaxHistory = 500

// Shell is one terminal: its state and the store it works on.
type Shell struct {
	store  Store
	folder *Folder
	state  State
}

// Options are what a command line may need from the page.
type Options struct {
	// EditorRules are the chapter's rules in the page's editor, as the
	// JSON array /_minis3/ takes: what minis3 tick and minis3 preview use
	// when no --rules is given. Nil: there is no editor.
	EditorRules []byte
}

// Result is what one command line did.
type Result struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Status int    `json:"status"`
	// Clear asks the page to clear the screen (clear).
	Clear bool `json:"clear,omitempty"`
	// Changed says the command changed the store: undo can take it back.
	Changed bool `json:"changed,omitempty"`
	// Exchanges are the HTTP requests the command sent, with their
	// responses, in order.
	Exchanges []Exchange `json:"exchanges"`
}

// Exchange is one request and its response, in the shape of the page's
// HTTP view.
type Exchange struct {
	Method          string      `json:"method"`
	Path            string      `json:"path"`
	RequestHeaders  [][2]string `json:"requestHeaders"`
	RequestBody     string      `json:"requestBody"`
	Status          int         `json:"status"`
	StatusText      string      `json:"statusText"`
	ResponseHeaders [][2]string `json:"responseHeaders"`
	ResponseBody    string      `json:"responseBody"`
}

// New returns a shell on store with a state saved earlier (nil: a new
// one).
func New(store Store, saved *State) *Shell {
	sh := &Shell{store: store}
	sh.folder = newFolder(store.Now)
	if saved != nil {
		sh.state = *saved
		sh.folder.restore(saved.Files, saved.Dirs)
	}
	return sh
}

// State is the shell's state as it is now.
func (sh *Shell) State() State {
	st := sh.state
	st.Files, st.Dirs = sh.folder.save()
	if st.History == nil {
		st.History = []string{}
	}
	if st.Undo == nil {
		st.Undo = []UndoStep{}
	}
	return st
}

// Folder is a copy of the shell's home folder as it is now.
func (sh *Shell) Folder() *Folder {
	f := newFolder(sh.store.Now)
	f.restore(sh.folder.save())
	return f
}

// run is one command line being run.
type run struct {
	sh        *Shell
	opts      Options
	stdout    strings.Builder
	stderr    strings.Builder
	exchanges []Exchange
	clear     bool
	changed   bool // undo changed the store
}

// Run runs one command line.
func (sh *Shell) Run(line string, opts Options) Result {
	line = strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(line) != "" {
		sh.addHistory(line)
	}
	pending, fingerprint, err := sh.store.Changes()
	if err != nil {
		// What the page changed is not known: no step can be undone.
		sh.state.Undo = nil
	}
	sh.absorb(pending, fingerprint)

	r := &run{sh: sh, opts: opts, exchanges: []Exchange{}}
	status := r.line(line)
	sh.state.Status = status

	res := Result{Stdout: r.stdout.String(), Stderr: r.stderr.String(), Status: status, Clear: r.clear, Changed: r.changed, Exchanges: r.exchanges}
	changes, fp, err := sh.store.Changes()
	if err != nil {
		sh.state.Undo = nil
	} else if len(changes) > 0 {
		res.Changed = true
		sh.state.Undo = append(sh.state.Undo, UndoStep{Line: line, Changes: fromCore(changes), Fingerprint: hexFingerprint(fp)})
		if len(sh.state.Undo) > MaxUndo {
			sh.state.Undo = sh.state.Undo[len(sh.state.Undo)-MaxUndo:]
		}
	}
	return res
}

// absorb adds changes made outside the terminal since its last command
// (the page's forms) to the last undo step: undoing that command undoes
// them too.
func (sh *Shell) absorb(changes []core.Change, fingerprint uint64) {
	n := len(sh.state.Undo)
	if n == 0 || len(changes) == 0 {
		return
	}
	last := &sh.state.Undo[n-1]
	if last.Fingerprint == "" {
		return
	}
	last.Changes = fromCore(undo.Merge(toCore(last.Changes), changes))
	last.Fingerprint = hexFingerprint(fingerprint)
}

func hexFingerprint(fp uint64) string {
	return hex.EncodeToString([]byte{byte(fp >> 56), byte(fp >> 48), byte(fp >> 40), byte(fp >> 32), byte(fp >> 24), byte(fp >> 16), byte(fp >> 8), byte(fp)})
}

func (sh *Shell) addHistory(line string) {
	sh.state.History = append(sh.state.History, line)
	if len(sh.state.History) > MaxHistory {
		sh.state.History = sh.state.History[len(sh.state.History)-MaxHistory:]
	}
}

// line runs a command line and returns its exit status.
func (r *run) line(line string) int {
	cl, err := parseLine(line, r.sh.state.Status)
	if err != nil {
		if err == errUnterminated {
			r.stderr.WriteString("bash: " + err.Error() + "\n")
		} else {
			r.stderr.WriteString(err.Error() + "\n")
		}
		return 2
	}
	if len(cl.words) == 0 {
		if cl.output != "" {
			return r.redirect(cl, "")
		}
		return r.sh.state.Status
	}
	status := r.command(cl.words)
	if cl.output != "" {
		out := r.stdout.String()
		r.stdout.Reset()
		if s := r.redirect(cl, out); s != 0 {
			return s
		}
	}
	return status
}

// redirect writes out to the line's output file.
func (r *run) redirect(cl *commandLine, out string) int {
	data := []byte(out)
	if cl.append {
		if old, err := r.sh.folder.ReadFile(cl.output); err == nil {
			data = append(old, data...)
		}
	}
	if err := r.sh.folder.WriteFile(cl.output, data); err != nil {
		r.stderr.WriteString("bash: " + cl.output + ": " + shellErrorText(err) + "\n")
		return 1
	}
	return 0
}

// commands are the shell's commands, by name.
var commands = map[string]func(r *run, args []string) int{
	"aws":     (*run).aws,
	"echo":    (*run).echo,
	"cat":     (*run).cat,
	"ls":      (*run).ls,
	"rm":      (*run).rm,
	"mkdir":   (*run).mkdir,
	"help":    (*run).help,
	"history": (*run).history,
	"clear":   (*run).clearScreen,
	"undo":    (*run).undo,
	"reset":   (*run).reset,
	"minis3":  (*run).minis3,
}

// Commands are the names of the shell's commands, for completion.
func Commands() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (r *run) command(words []string) int {
	cmd, ok := commands[words[0]]
	if !ok {
		r.stderr.WriteString("bash: " + words[0] + ": command not found\n")
		return 127
	}
	return cmd(r, words[1:])
}

// aws runs the aws CLI.
func (r *run) aws(args []string) int {
	env := &awscli.Env{S3: r.sh.store.Handler(), Files: r.sh.folder, Exchange: r.record}
	res := awscli.Run(env, args)
	r.stdout.WriteString(res.Stdout)
	r.stderr.WriteString(res.Stderr)
	return res.Status
}

// record keeps an exchange for the page's HTTP view.
func (r *run) record(e awscli.Exchange) {
	r.exchanges = append(r.exchanges, Exchange{
		Method: e.Method, Path: e.Target, RequestHeaders: headerPairs(e.RequestHeader), RequestBody: string(e.RequestBody),
		Status: e.Status, StatusText: http.StatusText(e.Status), ResponseHeaders: headerPairs(e.ResponseHeader), ResponseBody: string(e.ResponseBody),
	})
}

func headerPairs(h http.Header) [][2]string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	out := [][2]string{}
	for _, k := range names {
		out = append(out, [2]string{strings.ToLower(k), strings.Join(h[k], ", ")})
	}
	return out
}

func (r *run) history([]string) int {
	for i, l := range r.sh.state.History {
		fmt.Fprintf(&r.stdout, "%5d  %s\n", i+1, l)
	}
	return 0
}

func (r *run) clearScreen([]string) int {
	r.clear = true
	return 0
}

const helpText = `MiniS3's terminal: the aws CLI (version 1) against the store of this page.

  aws s3api OPERATION [options]   any S3 operation, as the aws CLI runs it
  aws s3 ls|cp|mv|rm|sync|mb|rb   the aws CLI's file commands
  echo TEXT > FILE                write a file in the home folder (>> appends)
  cat FILE...  ls [DIR]  rm FILE  mkdir DIR
  echo $?                         the exit status of the last command
  history                         the command lines typed so far
  clear                           clear the screen
  undo                            put the store back as it was before the last
                                  command that changed it
  reset                           delete every bucket and set the clock to 0
  minis3 clock [+1d|+15s|15|2026-01-01T00:00:00Z]
                                  show or move the clock (S3's daily lifecycle
                                  runs at each midnight the clock passes)
  minis3 tick BUCKET [--rules JSON]     the chapter's lifecycle tick
  minis3 preview BUCKET [--rules JSON]  what the tick would do
  minis3 run BUCKET [--preview]   run the bucket's S3 lifecycle configuration now
  help                            this text

Files: --body FILE and file://FILE read the home folder; get-object and
aws s3 cp write it. See docs/TERMINAL.md for what differs from a real shell.
`

func (r *run) help([]string) int {
	r.stdout.WriteString(helpText)
	return 0
}
