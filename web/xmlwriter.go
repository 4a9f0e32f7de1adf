package web

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"strconv"
	"strings"
)

// xmlWriter appends an XML document element by element. Every response
// document is written with it rather than with encoding/xml's reflection,
// which dominated the time of large listings and the size of the wasm; the
// bytes are the ones xml.Marshal wrote (TestResponseDocumentsMatchMarshal
// and the golden listings pin that).
type xmlWriter struct {
	buf  []byte
	root string // the root element, which send closes
}

// newXMLWriter starts a document with the XML declaration and the root
// element in S3's namespace; size is a guess of the document's length.
func newXMLWriter(root string, size int) *xmlWriter {
	w := &xmlWriter{buf: make([]byte, 0, size), root: root}
	w.buf = append(w.buf, xml.Header...)
	w.buf = append(w.buf, '<')
	w.buf = append(w.buf, root...)
	w.buf = append(w.buf, ` xmlns="`...)
	w.buf = append(w.buf, xmlNS...)
	w.buf = append(w.buf, `">`...)
	return w
}

// newErrorWriter starts S3's error document, whose root element Error has
// no namespace, with its Code and Message.
func newErrorWriter(code, message string) *xmlWriter {
	w := &xmlWriter{buf: append(make([]byte, 0, 512), xml.Header...), root: "Error"}
	w.open(w.root)
	w.text("Code", code)
	w.text("Message", message)
	return w
}

// open starts element name.
func (w *xmlWriter) open(name string) {
	w.buf = append(w.buf, '<')
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, '>')
}

// close ends element name.
func (w *xmlWriter) close(name string) {
	w.buf = append(w.buf, "</"...)
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, '>')
}

// text writes <name>s</name> with s escaped as encoding/xml escapes it.
func (w *xmlWriter) text(name, s string) {
	w.open(name)
	w.escape(s)
	w.close(name)
}

// textIf writes the element only when s is not empty (",omitempty").
func (w *xmlWriter) textIf(name, s string) {
	if s != "" {
		w.text(name, s)
	}
}

// int writes <name> with n in decimal.
func (w *xmlWriter) int(name string, n int64) {
	w.open(name)
	w.buf = strconv.AppendInt(w.buf, n, 10)
	w.close(name)
}

// bool writes <name> with true or false.
func (w *xmlWriter) bool(name string, b bool) {
	w.open(name)
	w.buf = strconv.AppendBool(w.buf, b)
	w.close(name)
}

// owner writes an Owner (or Initiator) element: the store's one account.
func (w *xmlWriter) owner(name string) {
	w.open(name)
	w.text("ID", ownerID)
	w.close(name)
}

// escape appends s as character data, escaped exactly as xml.EscapeText
// escapes it. ASCII, the usual case for keys and ETags, is escaped here;
// a string with other bytes goes through xml.EscapeText itself, so the
// handling of UTF-8 and of invalid characters stays encoding/xml's.
func (w *xmlWriter) escape(s string) {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		plain = !needsEscape[s[i]]
	}
	if plain {
		w.buf = append(w.buf, s...)
		return
	}
	start := len(w.buf)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			w.buf = append(w.buf, "&amp;"...)
		case '<':
			w.buf = append(w.buf, "&lt;"...)
		case '>':
			w.buf = append(w.buf, "&gt;"...)
		case '"':
			w.buf = append(w.buf, "&#34;"...)
		case '\'':
			w.buf = append(w.buf, "&#39;"...)
		case '\t':
			w.buf = append(w.buf, "&#x9;"...)
		case '\n':
			w.buf = append(w.buf, "&#xA;"...)
		case '\r':
			w.buf = append(w.buf, "&#xD;"...)
		default:
			if c < 0x20 || c >= 0x80 {
				b := bytes.NewBuffer(w.buf[:start])
				_ = xml.EscapeText(b, []byte(s)) // a bytes.Buffer never fails
				w.buf = b.Bytes()
				return
			}
			w.buf = append(w.buf, c)
		}
	}
}

// needsEscape marks the bytes escape cannot copy as they are.
var needsEscape = func() (t [256]bool) {
	for c := range t {
		t[c] = c < 0x20 || c >= 0x80 || strings.ContainsRune(`&<>"'`, rune(c))
	}
	return t
}()

// time writes <name> with clock seconds in the listings' ISO 8601 format.
func (w *xmlWriter) time(name string, sec float64) {
	w.open(name)
	w.buf = clockTime(sec).AppendFormat(w.buf, isoTimeLayout)
	w.close(name)
}

// etag writes an ETag element: the hex digest in (escaped) double quotes,
// as quoteETag and escape together would write it.
func (w *xmlWriter) etag(etag string) {
	w.open("ETag")
	w.buf = append(w.buf, "&#34;"...)
	w.escape(etag)
	w.buf = append(w.buf, "&#34;"...)
	w.close("ETag")
}

// send ends the root element and writes the document with status.
func (w *xmlWriter) send(rw http.ResponseWriter, status int) {
	w.close(w.root)
	rw.Header().Set("Content-Type", "application/xml")
	rw.Header().Set("Content-Length", strconv.Itoa(len(w.buf)))
	rw.WriteHeader(status)
	_, _ = rw.Write(w.buf)
}
