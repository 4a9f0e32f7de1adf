package awscli

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// request is an HTTP request as botocore's rest-xml serializer makes it,
// before the endpoint is known.
type request struct {
	method string
	path   string // with the operation's fixed query (?versioning)
	query  [][2]string
	header [][2]string
	body   []byte
}

func (r *request) setHeader(name, value string) {
	for i, h := range r.header {
		if strings.EqualFold(h[0], name) {
			r.header[i][1] = value
			return
		}
	}
	r.header = append(r.header, [2]string{name, value})
}

// target is the path and query the request is sent to.
func (r *request) target() string {
	t := r.path
	if len(r.query) > 0 {
		parts := make([]string, len(r.query))
		for i, q := range r.query {
			parts[i] = percentEncode(q[0], "") + "=" + percentEncode(q[1], "")
		}
		sep := "?"
		if strings.Contains(t, "?") {
			sep = "&"
		}
		t += sep + strings.Join(parts, "&")
	}
	return t
}

// percentEncode is botocore's percent_encode: UTF-8 bytes, everything but
// letters, digits, -._~ and safe as %XX.
func percentEncode(s, safe string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~"+safe, c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// serialize makes the request of op with params, which the validation
// has checked against the input shape.
func serialize(op *Operation, params *Dict) (*request, error) {
	r := &request{method: op.Method}
	if op.Input == nil {
		r.path = op.URI
		return r, nil
	}
	shape := op.Input.Shape
	labels := map[string]string{}
	for _, name := range params.Keys() {
		v, _ := params.Get(name)
		if v == nil {
			continue
		}
		m := shape.member(name)
		t := m.traits()
		key := t.LocationName
		if key == "" {
			key = name
		}
		switch t.Location {
		case "uri":
			labels[key] = queryValue(v, m.Shape)
		case "querystring":
			switch v := v.(type) {
			case *Dict:
				for _, k := range v.Keys() {
					e, _ := v.Get(k)
					r.query = append(r.query, [2]string{k, pyStr(e)})
				}
			case []any:
				for _, e := range v {
					r.query = append(r.query, [2]string{key, queryValue(e, m.Shape.Member.Shape)})
				}
			default:
				r.query = append(r.query, [2]string{key, queryValue(v, m.Shape)})
			}
		case "header":
			if list, ok := v.([]any); ok && len(list) == 0 {
				continue
			}
			r.setHeader(key, headerValue(v, m))
		case "headers":
			if d, ok := v.(*Dict); ok {
				for _, k := range d.Keys() {
					e, _ := d.Get(k)
					r.setHeader(key+k, pyStr(e))
				}
			}
		}
	}
	r.path = renderURI(op.URI, labels)
	if p := shape.Payload; p != "" {
		m := shape.member(p)
		v, _ := params.Get(p)
		switch {
		case m.Shape.Type == "blob" || m.Shape.Type == "string":
			switch v := v.(type) {
			case []byte:
				r.body = v
			case string:
				r.body = []byte(v)
			default:
				r.body = []byte{}
			}
		case v != nil:
			name := m.traits().LocationName
			if name == "" {
				name = p
			}
			var w xmlWriter
			writeXML(&w, v, m, name)
			r.body = []byte(w.b.String())
		default:
			r.body = []byte{}
		}
	}
	return r, nil
}

// renderURI fills the operation's URI template: {Bucket} percent-encoded,
// {Key+} with its slashes kept.
func renderURI(template string, labels map[string]string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(template[open:], '}')
		if end < 0 {
			break
		}
		name := template[open+1 : open+end]
		b.WriteString(template[:open])
		if n, greedy := strings.CutSuffix(name, "+"); greedy {
			b.WriteString(percentEncode(labels[n], "/~"))
		} else {
			b.WriteString(percentEncode(labels[name], ""))
		}
		template = template[open+end+1:]
	}
	b.WriteString(template)
	return b.String()
}

// queryValue is a value in a URI or query string.
func queryValue(v any, shape *Shape) string {
	switch shape.Type {
	case "boolean":
		return strings.ToLower(pyStr(v))
	case "timestamp":
		if t, err := parseTimestamp(v); err == nil {
			return iso8601(t)
		}
	}
	return pyStr(v)
}

// headerValue is a value in a header.
func headerValue(v any, m *Ref) string {
	switch m.Shape.Type {
	case "timestamp":
		if t, err := parseTimestamp(v); err == nil {
			return t.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
		}
	case "list":
		var parts []string
		for _, e := range v.([]any) {
			if s, ok := e.(string); ok && strings.ContainsAny(s, `",`) {
				parts = append(parts, `"`+strings.ReplaceAll(s, `"`, `\"`)+`"`)
			} else if e != nil {
				parts = append(parts, pyStr(e))
			}
		}
		return strings.Join(parts, ",")
	case "boolean":
		return strings.ToLower(pyStr(v))
	}
	if m.traits().JSONValue {
		return base64.StdEncoding.EncodeToString([]byte(pyJSONCompact(v)))
	}
	return pyStr(v)
}

// writeXML writes v, of the shape m refers to, as element name.
func writeXML(w *xmlWriter, v any, m *Ref, name string) {
	t := m.traits()
	var attrs []string
	if t.XMLNamespace != "" {
		attrs = []string{"xmlns", t.XMLNamespace}
	}
	leaf := func(text string) {
		if text == "" {
			w.b.WriteString("<" + name)
			for i := 0; i+1 < len(attrs); i += 2 {
				w.b.WriteString(" " + attrs[i] + `="` + escapeXML(attrs[i+1], true) + `"`)
			}
			w.b.WriteString(" />")
			return
		}
		w.start(name, attrs...)
		w.text(text)
		w.end(name)
	}
	shape := m.Shape
	switch shape.Type {
	case "structure":
		d, _ := v.(*Dict)
		var inner xmlWriter
		for _, k := range d.Keys() {
			mv, _ := d.Get(k)
			mm := shape.member(k)
			if mv == nil {
				break
			}
			mt := mm.traits()
			mname := mt.LocationName
			if mname == "" {
				mname = k
			}
			if mt.XMLAttribute {
				attrs = append(attrs, mname, pyStr(mv))
				continue
			}
			writeXML(&inner, mv, mm, mname)
		}
		if inner.b.Len() == 0 {
			leaf("")
			return
		}
		w.start(name, attrs...)
		w.b.WriteString(inner.b.String())
		w.end(name)
	case "list":
		list, _ := v.([]any)
		member := shape.Member
		if t.Flattened {
			for _, e := range list {
				writeXML(w, e, member, name)
			}
			return
		}
		element := member.traits().LocationName
		if element == "" {
			element = "member"
		}
		var inner xmlWriter
		for _, e := range list {
			writeXML(&inner, e, member, element)
		}
		if inner.b.Len() == 0 {
			leaf("")
			return
		}
		w.start(name, attrs...)
		w.b.WriteString(inner.b.String())
		w.end(name)
	case "map":
		d, _ := v.(*Dict)
		keyName, valueName := shape.Key.traits().LocationName, shape.Value.traits().LocationName
		if keyName == "" {
			keyName = "key"
		}
		if valueName == "" {
			valueName = "value"
		}
		var inner xmlWriter
		for _, k := range d.Keys() {
			e, _ := d.Get(k)
			var entry xmlWriter
			writeXML(&entry, k, shape.Key, keyName)
			writeXML(&entry, e, shape.Value, valueName)
			if t.Flattened {
				w.start(name)
				w.b.WriteString(entry.b.String())
				w.end(name)
			} else {
				inner.start("entry")
				inner.b.WriteString(entry.b.String())
				inner.end("entry")
			}
		}
		if !t.Flattened {
			w.start(name, attrs...)
			w.b.WriteString(inner.b.String())
			w.end(name)
		}
	case "boolean":
		if b, _ := v.(bool); b {
			leaf("true")
		} else {
			leaf("false")
		}
	case "blob":
		switch v := v.(type) {
		case []byte:
			leaf(base64.StdEncoding.EncodeToString(v))
		default:
			leaf(base64.StdEncoding.EncodeToString([]byte(pyStr(v))))
		}
	case "timestamp":
		if t, err := parseTimestamp(v); err == nil {
			leaf(iso8601(t))
		}
	default:
		leaf(pyStr(v))
	}
}

// iso8601 is botocore's ISO 8601 text of a time: seconds, and
// microseconds only when there are some.
func iso8601(t time.Time) string {
	t = t.UTC()
	if us := t.Nanosecond() / 1000; us > 0 {
		return t.Format("2006-01-02T15:04:05") + fmt.Sprintf(".%06dZ", us)
	}
	return t.Format("2006-01-02T15:04:05Z")
}

// parseTimestamp reads a timestamp argument as botocore does for the
// common forms: seconds since the epoch, or an ISO 8601 date or time
// (UTC unless it says otherwise).
func parseTimestamp(v any) (time.Time, error) {
	switch v := v.(type) {
	case int64:
		return time.Unix(v, 0).UTC(), nil
	case float64:
		sec := int64(v)
		return time.Unix(sec, int64((v-float64(sec))*1e9)).UTC(), nil
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return parseTimestamp(f)
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999", "2006-01-02T15:04",
			"2006-01-02", "2006-01-02 15:04:05", "2006-01-02T15:04:05Z0700", time.RFC1123, time.RFC1123Z, "20060102T150405Z", "20060102"} {
			if t, err := time.Parse(layout, v); err == nil {
				return t, nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("Invalid timestamp %s", pyRepr(v))
}

// pyJSONCompact is json.dumps(v, separators=(',', ':')).
func pyJSONCompact(v any) string {
	var b bytes.Buffer
	var write func(v any)
	write = func(v any) {
		switch v := v.(type) {
		case []any:
			b.WriteByte('[')
			for i, e := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				write(e)
			}
			b.WriteByte(']')
		case *Dict:
			b.WriteByte('{')
			for i, k := range v.Keys() {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(asciiJSONString(k))
				b.WriteByte(':')
				e, _ := v.Get(k)
				write(e)
			}
			b.WriteByte('}')
		case string:
			b.WriteString(asciiJSONString(v))
		default:
			b.WriteString(pyJSON(v))
		}
	}
	write(v)
	return b.String()
}

// asciiJSONString is a JSON string as Python's json.dumps writes it by
// default: everything outside ASCII as \u escapes.
func asciiJSONString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r > 0x7e && r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// unquotePlus is urllib's unquote_plus: "+" is a space, %XX a byte.
func unquotePlus(s string) string {
	v, err := url.QueryUnescape(s)
	if err != nil {
		return strings.ReplaceAll(s, "+", " ")
	}
	return v
}
