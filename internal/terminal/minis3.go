package terminal

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"minis3/internal/terminal/awscli"
	"minis3/internal/wire"
)

// The minis3 commands do what S3 has no command for, through MiniS3's
// /_minis3/ extension endpoints (docs/S3-CLIENTS.md), so that they show
// in the HTTP view like every other request.

// call sends one request to the store's handler and records it.
func (r *run) call(method, target string, body []byte) (int, []byte) {
	header := http.Header{}
	if body != nil {
		header.Set("Content-Type", "application/json")
	}
	e := awscli.Do(r.sh.store.Handler(), method, target, header, body)
	r.record(e)
	return e.Status, e.ResponseBody
}

// extension calls a /_minis3/ endpoint and reads its JSON answer into v;
// a refusal is printed and gives exit status 1.
func (r *run) extension(method, target string, body any, v any) bool {
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	status, answer := r.call(method, target, data)
	if status >= 300 {
		var e wire.Error
		if json.Unmarshal(answer, &e) == nil && e.Code != "" {
			r.stderr.WriteString("minis3: " + e.Code + ": " + e.Message + "\n")
		} else {
			r.stderr.WriteString("minis3: " + strconv.Itoa(status) + " " + http.StatusText(status) + "\n")
		}
		return false
	}
	if err := json.Unmarshal(answer, v); err != nil {
		r.stderr.WriteString("minis3: " + err.Error() + "\n")
		return false
	}
	return true
}

const minis3Usage = `usage: minis3 clock [+1d | +2h | +30m | +15s | SECONDS | 2026-01-01T00:00:00Z]
       minis3 tick BUCKET [--rules JSON]
       minis3 preview BUCKET [--rules JSON]
       minis3 run BUCKET [--preview]
`

func (r *run) minis3(args []string) int {
	if len(args) == 0 {
		r.stderr.WriteString(minis3Usage)
		return 2
	}
	switch args[0] {
	case "clock":
		return r.clock(args[1:])
	case "tick", "preview":
		return r.chapterTick(args[0], args[1:])
	case "run":
		return r.lifecycleRun(args[1:])
	}
	r.stderr.WriteString("minis3: unknown command " + strconv.Quote(args[0]) + "\n" + minis3Usage)
	return 2
}

// clockStep reads +N, +Ns, +Nm, +Nh or +Nd: seconds to move the clock by.
func clockStep(arg string) (float64, bool) {
	rest, ok := strings.CutPrefix(arg, "+")
	if !ok || rest == "" {
		return 0, false
	}
	unit := 1.0
	switch rest[len(rest)-1] {
	case 's':
		rest = rest[:len(rest)-1]
	case 'm':
		unit, rest = 60, rest[:len(rest)-1]
	case 'h':
		unit, rest = 3600, rest[:len(rest)-1]
	case 'd':
		unit, rest = 86400, rest[:len(rest)-1]
	}
	if rest == "" || strings.Trim(rest, "0123456789.") != "" || strings.Count(rest, ".") > 1 || strings.HasPrefix(rest, ".") || strings.HasSuffix(rest, ".") {
		return 0, false
	}
	n, err := strconv.ParseFloat(rest, 64)
	return n * unit, err == nil
}

// clock shows the clock, or moves it by a step, to a number of seconds,
// or to an instant.
func (r *run) clock(args []string) int {
	var now wire.Clock
	if !r.extension(http.MethodGet, "/_minis3/clock", nil, &now) {
		return 1
	}
	if len(args) == 0 {
		r.printClock(now)
		return 0
	}
	if len(args) > 1 {
		r.stderr.WriteString(minis3Usage)
		return 2
	}
	var move wire.ClockMove
	arg := args[0]
	if step, ok := clockStep(arg); ok {
		to := *now.Now + step
		move.Now = &to
	} else if n, err := strconv.ParseFloat(arg, 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
		move.Now = &n
	} else if t, err := time.Parse("2006-01-02", arg); err == nil {
		s := t.Format(time.RFC3339)
		move.Time = &s
	} else {
		move.Time = &arg
	}
	var moved wire.ClockMoved
	if !r.extension(http.MethodPut, "/_minis3/clock", move, &moved) {
		return 1
	}
	r.printClock(moved.Clock)
	for _, run := range moved.Runs {
		r.stdout.WriteString("S3 lifecycle run of bucket " + run.Bucket + " at " + run.Time + ":\n")
		r.printActions(run.Actions, "  ")
	}
	return 0
}

func (r *run) printClock(c wire.Clock) {
	now := 0.0
	if c.Now != nil {
		now = *c.Now
	}
	fmt.Fprintf(&r.stdout, "clock: %s s  (%s)\n", strconv.FormatFloat(now, 'f', -1, 64), c.Time)
}

func (r *run) printActions(actions []wire.Action, indent string) {
	if len(actions) == 0 {
		r.stdout.WriteString(indent + "no actions\n")
		return
	}
	for _, a := range actions {
		line := indent + a.Kind + "  " + a.Key + "  " + a.VersionID
		if a.UploadID != "" {
			line += "  upload " + a.UploadID
		}
		if a.StorageClass != "" {
			line += "  to " + a.StorageClass
		}
		r.stdout.WriteString(line + "  (rule " + a.RuleID + ")\n")
	}
}

// chapterTick runs the chapter's tick, or its preview, with the rules of
// --rules or of the page's editor.
func (r *run) chapterTick(verb string, args []string) int {
	bucket, rules, ok := r.bucketAndRules(verb, args)
	if !ok {
		return 2
	}
	if rules == nil {
		r.stderr.WriteString("minis3 " + verb + ": give the chapter's rules with --rules '[{\"id\": \"logs\", \"prefix\": \"logs/\", \"expireCurrentAfter\": 10}]'\n")
		return 2
	}
	endpoint := "lifecycle-tick"
	if verb == "preview" {
		endpoint = "lifecycle-preview"
	}
	var res wire.ActionsBody
	if !r.extension(http.MethodPost, "/_minis3/buckets/"+url.PathEscape(bucket)+"/"+endpoint, map[string]json.RawMessage{"rules": rules}, &res) {
		return 1
	}
	r.printActions(res.Actions, "")
	return 0
}

// bucketAndRules reads BUCKET [--rules JSON].
func (r *run) bucketAndRules(verb string, args []string) (string, json.RawMessage, bool) {
	var bucket string
	rules := json.RawMessage(r.opts.EditorRules)
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--rules" && i+1 < len(args):
			rules = json.RawMessage(args[i+1])
			i++
		case strings.HasPrefix(args[i], "--rules="):
			rules = json.RawMessage(strings.TrimPrefix(args[i], "--rules="))
		case bucket == "" && !strings.HasPrefix(args[i], "-"):
			bucket = args[i]
		default:
			r.stderr.WriteString("minis3 " + verb + ": unexpected " + strconv.Quote(args[i]) + "\n" + minis3Usage)
			return "", nil, false
		}
	}
	if bucket == "" {
		r.stderr.WriteString("minis3 " + verb + ": which bucket?\n" + minis3Usage)
		return "", nil, false
	}
	if rules != nil && !json.Valid(rules) {
		r.stderr.WriteString("minis3 " + verb + ": --rules is not JSON\n")
		return "", nil, false
	}
	return bucket, rules, true
}

// lifecycleRun runs the bucket's stored S3 configuration now, or
// previews it.
func (r *run) lifecycleRun(args []string) int {
	var bucket string
	preview := false
	for _, a := range args {
		switch {
		case a == "--preview":
			preview = true
		case bucket == "" && !strings.HasPrefix(a, "-"):
			bucket = a
		default:
			r.stderr.WriteString("minis3 run: unexpected " + strconv.Quote(a) + "\n" + minis3Usage)
			return 2
		}
	}
	if bucket == "" {
		r.stderr.WriteString("minis3 run: which bucket?\n" + minis3Usage)
		return 2
	}
	endpoint := "lifecycle-run"
	if preview {
		endpoint = "lifecycle-run-preview"
	}
	var res wire.ActionsBody
	if !r.extension(http.MethodPost, "/_minis3/buckets/"+url.PathEscape(bucket)+"/"+endpoint, nil, &res) {
		return 1
	}
	r.printActions(res.Actions, "")
	return 0
}

// undo puts the store back as it was before the last command that
// changed it.
func (r *run) undo(args []string) int {
	sh := r.sh
	n := len(sh.state.Undo)
	if n == 0 {
		r.stderr.WriteString("undo: nothing to undo\n")
		return 1
	}
	step := sh.state.Undo[n-1]
	if _, fp, err := sh.store.Changes(); err != nil || hexFingerprint(fp) != step.Fingerprint {
		sh.state.Undo = nil
		r.stderr.WriteString("undo: the store was changed where this terminal could not follow (in another tab, or before the page was loaded again): nothing to undo\n")
		return 1
	}
	if err := sh.store.Restore(toCore(step.Changes)); err != nil {
		r.stderr.WriteString("undo: " + err.Error() + "\n")
		return 1
	}
	if _, _, err := sh.store.Changes(); err != nil {
		r.stderr.WriteString("undo: " + err.Error() + "\n")
	}
	sh.state.Undo = sh.state.Undo[:n-1]
	r.changed = true
	r.stdout.WriteString("undone: " + step.Line + "\n")
	return 0
}

// reset deletes every bucket, with its versions and uploads, and sets
// the clock to 0, through the S3 API.
func (r *run) reset(args []string) int {
	if len(args) > 0 {
		r.stderr.WriteString("reset: takes no arguments\n")
		return 2
	}
	status, body := r.call(http.MethodGet, "/", nil)
	if status != http.StatusOK {
		r.stderr.WriteString("reset: listing the buckets failed\n")
		return 1
	}
	for _, bucket := range xmlRecords(body, "Bucket", "Name") {
		b := bucket["Name"]
		if !r.emptyBucket(b) {
			return 1
		}
		if status, _ := r.call(http.MethodDelete, "/"+url.PathEscape(b), nil); status >= 300 {
			r.stderr.WriteString("reset: deleting bucket " + b + " failed\n")
			return 1
		}
	}
	var moved wire.ClockMoved
	zero := 0.0
	if !r.extension(http.MethodPut, "/_minis3/clock", wire.ClockMove{Now: &zero}, &moved) {
		return 1
	}
	r.stdout.WriteString("The store is empty and the clock is at 0.\n")
	return 0
}

// emptyBucket deletes every version, delete marker and upload of bucket.
func (r *run) emptyBucket(bucket string) bool {
	path := "/" + url.PathEscape(bucket)
	for {
		status, body := r.call(http.MethodGet, path+"?versions", nil)
		if status != http.StatusOK {
			r.stderr.WriteString("reset: listing bucket " + bucket + " failed\n")
			return false
		}
		var del bytes.Buffer
		del.WriteString("<Delete><Quiet>true</Quiet>")
		n := 0
		for _, e := range append(xmlRecords(body, "Version", "Key", "VersionId"), xmlRecords(body, "DeleteMarker", "Key", "VersionId")...) {
			n++
			del.WriteString("<Object><Key>")
			_ = xml.EscapeText(&del, []byte(e["Key"]))
			del.WriteString("</Key><VersionId>" + e["VersionId"] + "</VersionId></Object>")
		}
		del.WriteString("</Delete>")
		if n == 0 {
			break
		}
		if status, _ := r.call(http.MethodPost, path+"?delete", del.Bytes()); status >= 300 {
			r.stderr.WriteString("reset: deleting the versions of bucket " + bucket + " failed\n")
			return false
		}
	}
	status, body := r.call(http.MethodGet, path+"?uploads", nil)
	if status != http.StatusOK {
		r.stderr.WriteString("reset: listing the uploads of bucket " + bucket + " failed\n")
		return false
	}
	for _, u := range xmlRecords(body, "Upload", "Key", "UploadId") {
		target := path + "/" + awscliKeyPath(u["Key"]) + "?uploadId=" + url.QueryEscape(u["UploadId"])
		if status, _ := r.call(http.MethodDelete, target, nil); status >= 300 {
			r.stderr.WriteString("reset: aborting an upload of bucket " + bucket + " failed\n")
			return false
		}
	}
	return true
}

// xmlRecords reads the elements named record of an XML document, each as
// the text of its children named in fields.
func xmlRecords(body []byte, record string, fields ...string) []map[string]string {
	var out []map[string]string
	var current map[string]string
	field := ""
	d := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Local == record:
				current = map[string]string{}
			case current != nil && slices.Contains(fields, t.Name.Local):
				field = t.Name.Local
			}
		case xml.CharData:
			if current != nil && field != "" {
				current[field] += string(t)
			}
		case xml.EndElement:
			switch {
			case t.Name.Local == record && current != nil:
				out = append(out, current)
				current = nil
			case t.Name.Local == field:
				field = ""
			}
		}
	}
}

// awscliKeyPath escapes a key for a path, keeping its slashes.
func awscliKeyPath(key string) string {
	parts := strings.Split(key, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
