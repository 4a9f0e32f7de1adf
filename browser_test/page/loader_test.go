//go:build !js

package page

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
)

// TestLoaderSaysWhatFailed imports minis3.js from a directory whose
// minis3.wasm is missing, is not WebAssembly, is cut off in the middle of
// its body, or is served with another Content-Type (then compiled from its
// bytes rather than as it streams in), and checks the promise of the minis3
// object: it rejects with an Error naming the step that failed, or resolves.
func TestLoaderSaysWhatFailed(t *testing.T) {
	t.Parallel()
	static := chrome.Static(t)
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(static, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	loader, wasmExec, wasm := read("minis3.js"), read("wasm_exec.js"), read("minis3.wasm")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dir, name := filepath.Split(r.URL.Path)
		switch name {
		case "blank.html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!doctype html><title>loader</title>"))
			return
		case "minis3.js", "wasm_exec.js":
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Write(map[string][]byte{"minis3.js": loader, "wasm_exec.js": wasmExec}[name])
			return
		case "minis3.wasm":
		default:
			http.NotFound(w, r)
			return
		}
		switch dir {
		case "/missing/":
			http.NotFound(w, r)
		case "/garbage/":
			w.Header().Set("Content-Type", "application/wasm")
			w.Write([]byte("this is not WebAssembly"))
		case "/truncated/":
			// The length promises the whole module; the connection
			// closes after a tenth of it.
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Set("Content-Length", "7000000")
			w.Write(wasm[:700000])
		case "/octet-stream/":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(wasm)
		case "/octet-stream-garbage/":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write([]byte("this is not WebAssembly"))
		case "/octet-stream-truncated/":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", "7000000")
			w.Write(wasm[:700000])
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)

	tests := []struct {
		dir  string
		want string // in the rejection's message; "" for none
	}{
		{"missing", "minis3: fetching " + srv.URL + "/missing/minis3.wasm failed: HTTP 404"},
		{"garbage", "minis3: could not compile " + srv.URL + "/garbage/minis3.wasm: "},
		{"truncated", "minis3: could not read " + srv.URL + "/truncated/minis3.wasm: "},
		{"octet-stream", ""},
		{"octet-stream-garbage", "minis3: could not compile " + srv.URL + "/octet-stream-garbage/minis3.wasm: "},
		{"octet-stream-truncated", "minis3: could not read " + srv.URL + "/octet-stream-truncated/minis3.wasm: "},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			p := open(t, srv.URL+"/blank.html", 800, 600)
			got := chrome.Eval[struct {
				Resolved bool
				IsError  bool
				Message  string
			}](t, p, `try {
				const minis3 = await (await import("/`+tt.dir+`/minis3.js")).default;
				return { Resolved: typeof minis3.open === "function" };
			} catch (e) {
				return { IsError: e instanceof Error, Message: String(e.message) };
			}`)
			switch {
			case tt.want == "" && !got.Resolved:
				t.Errorf("rejected with %q, want the minis3 object", got.Message)
			case tt.want != "" && (!got.IsError || !strings.HasPrefix(got.Message, tt.want)):
				t.Errorf("got %+v, want an Error whose message starts %q", got, tt.want)
			}
		})
	}
}
