package web

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// TestXMLWriterEscapesAsEncodingXML compares the writer's escaping of
// character data with encoding/xml's, byte for byte.
func TestXMLWriterEscapesAsEncodingXML(t *testing.T) {
	for _, s := range hostileStrings {
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
