//go:build js && wasm

package jsapi

import (
	"encoding/json"
	"net/http"
	"sync"
	"syscall/js"
	"time"

	"minis3/core"
	"minis3/internal/terminal"
)

// store.terminal(state) makes a terminal on the store (package terminal):
//
//	const term = await store.terminal(saved)     // saved: an earlier term.state(), or nothing
//	const res = await term.run("aws s3 ls", { rules })
//	// → { stdout, stderr, status, clear, changed, exchanges: [...] }
//	term.state()                                 // the terminal's state, to save
//	term.complete("aws s3api list-")             // → ["list-buckets", ...]
//	term.describe("aws s3api list-object-versions --buck=demo")
//	// → { name: "aws", args, aws: { command, operation, options: { bucket: "demo" }, globals } }
//	term.describe("aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Enabled")
//	// → … options: { bucket: "demo", "versioning-configuration": { Status: "Enabled" } } …
//
// rules are the chapter's rules of the page's editor, for minis3 tick and
// minis3 preview. Each exchange is an S3 request the command sent, as the
// page's HTTP view lists them. Runs take turns: a run waits for the one
// before it.

// terminalObject is one store.terminal().
type terminalObject struct {
	store *storeObject
	mu    sync.Mutex // one run at a time
	shell *terminal.Shell

	// What the synchronous methods read, as of the last run: they run on
	// the event loop, which a run may be waiting for (IndexedDB), so they
	// never wait for the run.
	seen   sync.Mutex
	state  []byte           // the shell's state, JSON
	files  []string         // its files' names
	folder *terminal.Folder // a copy of its home folder
}

// keep records the shell's state after a run.
func (t *terminalObject) keep() {
	data, _ := json.Marshal(t.shell.State())
	files := t.shell.FileNames()
	folder := t.shell.Folder()
	t.seen.Lock()
	defer t.seen.Unlock()
	t.state, t.files, t.folder = data, files, folder
}

// terminal implements store.terminal(state): a Promise of the terminal.
func (s *storeObject) terminal(args []js.Value) (job, error) {
	if s.closed.Load() {
		return nil, errClosed
	}
	var saved *terminal.State
	if st := arg(args, 0); isSet(st) {
		var state terminal.State
		text := js.Global().Get("JSON").Call("stringify", st).String()
		if err := json.Unmarshal([]byte(text), &state); err != nil {
			return nil, invalidArgument("state", "store.terminal takes a state that term.state() returned: %v", err)
		}
		saved = &state
	}
	return func() (any, error) {
		t := &terminalObject{store: s, shell: terminal.New(s, saved)}
		t.keep()
		obj := js.Global().Get("Object").New()
		obj.Set("run", method(t.run))
		obj.Set("state", js.FuncOf(func(js.Value, []js.Value) any {
			t.seen.Lock()
			defer t.seen.Unlock()
			v, _ := toJS(json.RawMessage(t.state))
			return v
		}))
		obj.Set("complete", js.FuncOf(func(_ js.Value, args []js.Value) any {
			line := ""
			if v := arg(args, 0); v.Type() == js.TypeString {
				line = v.String()
			}
			t.seen.Lock()
			files := t.files
			t.seen.Unlock()
			v, _ := toJS(terminal.Complete(line, files))
			return v
		}))
		obj.Set("describe", js.FuncOf(func(_ js.Value, args []js.Value) any {
			line := ""
			if v := arg(args, 0); v.Type() == js.TypeString {
				line = v.String()
			}
			t.seen.Lock()
			folder := t.folder
			t.seen.Unlock()
			c, err := terminal.Describe(line, folder)
			if err != nil {
				return js.Null()
			}
			v, _ := toJS(c)
			return v
		}))
		return obj, nil
	}, nil
}

// run implements term.run(line, { rules }).
func (t *terminalObject) run(args []js.Value) (job, error) {
	line, err := str(arg(args, 0), "line")
	if err != nil {
		return nil, err
	}
	opts := arg(args, 1)
	if err := checkKeys(opts, "run options", "rules"); err != nil {
		return nil, err
	}
	var run terminal.Options
	if isSet(opts) {
		if rules := opts.Get("rules"); isSet(rules) {
			run.EditorRules = []byte(js.Global().Get("JSON").Call("stringify", rules).String())
		}
	}
	return func() (any, error) {
		if t.store.closed.Load() {
			return nil, errClosed
		}
		t.mu.Lock()
		res := t.shell.Run(line, run)
		t.keep()
		t.mu.Unlock()
		return toJS(res)
	}, nil
}

// The store object is the terminal's store (terminal.Store).

// Handler serves a terminal's requests as store.fetch's: under the
// store's locks, after reloading it if another tab changed it.
func (s *storeObject) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

// Now is the instant the store's clock shows.
func (s *storeObject) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	sec := s.store.Origin() + s.store.Now()
	return time.Unix(0, int64(sec*1e9)).UTC()
}

// Changes gives what undoes the commits since the last call.
func (s *storeObject) Changes() ([]core.Change, uint64, error) { return s.journal.Take() }

// Restore commits changes that undo earlier commits, under the database's
// write lock, and loads the store again.
func (s *storeObject) Restore(changes []core.Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	release := s.lock.acquire()
	defer release()
	if err := s.journal.Commit(changes); err != nil {
		return storageFailure(err)
	}
	return s.reload()
}
