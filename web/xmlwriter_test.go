package web

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// TestXMLWriterEscapesAsEncodingXML compares the writer's escaping of
// character data with encoding/xml's, byte for byte.
func TestXMLWriterEscapesAsEncodingXML(t *testing.T) {
	for _, s := range []string{
		"", "plain/key-1.txt", `<&>"'`, "a\tb\nc\rd", "nul\x00", "ctl\x01\x1f", "del\x7f",
		"bad\xffutf8", "\xc3", "ünï cödé", "emoji 🪣", "\ufffe\uffff", "\u2028", "rtl \u202e override",
		`"d41d8cd98f00b204e9800998ecf8427e"`,
	} {
		type elem struct {
			XMLName xml.Name `xml:"Key"`
			V       string   `xml:",chardata"`
		}
		want, err := xml.Marshal(elem{V: s})
		if err != nil {
			t.Fatal(err)
		}
		var w xmlWriter
		w.text("Key", s)
		if !bytes.Equal(w.buf, want) {
			t.Errorf("text(%q) = %s, encoding/xml writes %s", s, w.buf, want)
		}
	}
}
