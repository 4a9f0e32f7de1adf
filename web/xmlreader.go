package web

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
)

// xmlElement is an element of a request document, as parseXML reads it:
// the local part of its name, its own character data (not its children's)
// and its child elements. Namespaces are left out: xml.Unmarshal, which
// read these documents before, matched MiniS3's field names in any
// namespace.
type xmlElement struct {
	name     string
	text     []byte
	children []*xmlElement
}

// maxXMLDepth is the depth of the deepest element MiniS3 reads, the Prefix
// in LifecycleConfiguration/Rule/Filter/Prefix; parseXML keeps no element
// below it.
const maxXMLDepth = 6

// parseXML reads a request document with encoding/xml's tokenizer as
// xml.Unmarshal read it into a struct: whatever comes before the root
// element (declaration, comments, white space) is skipped, and nothing
// after the root element's end is read. A syntax error, a body without a
// root element and a root element not called root are MalformedXML.
func parseXML(body []byte, root string) (*xmlElement, error) {
	d := xml.NewDecoder(bytes.NewReader(body))
	var open []*xmlElement // the open elements down to maxXMLDepth
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, malformedXML()
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxXMLDepth {
				continue
			}
			e := &xmlElement{name: t.Name.Local}
			if depth == 1 && e.name != root {
				return nil, malformedXML()
			}
			if depth > 1 {
				parent := open[len(open)-1]
				parent.children = append(parent.children, e)
			}
			open = append(open, e)
		case xml.EndElement:
			depth--
			if depth == 0 {
				return open[0], nil
			}
			open = open[:min(depth, maxXMLDepth)]
		case xml.CharData:
			if depth > 0 && depth <= maxXMLDepth {
				e := open[depth-1]
				e.text = append(e.text, t...)
			}
		}
	}
}

// readKnown is children (lifecycle.go) for the documents xml.Unmarshal
// read before parseXML did (versioning, Delete, CompleteMultipartUpload):
// a child element read does not know is skipped, as Unmarshal skipped it,
// but one it reads given twice where it may appear once is MalformedXML,
// as on S3, where Unmarshal kept the last.
func readKnown(e *xmlElement, read map[string]func(*xmlElement) error, repeatable ...string) error {
	known := &xmlElement{name: e.name}
	for _, c := range e.children {
		if read[c.name] != nil {
			known.children = append(known.children, c)
		}
	}
	return children(known, read, repeatable...)
}

// str is the element's character data, for a field that is nil when the
// element is absent.
func (e *xmlElement) str() *string {
	s := string(e.text)
	return &s
}

// bool reads the element's character data as an xs:boolean, the type S3's
// schema gives its booleans: empty is false, as xml.Unmarshal read it;
// anything else is xsBoolean's.
func (e *xmlElement) bool() (bool, error) {
	if len(e.text) == 0 {
		return false, nil
	}
	return xsBoolean(e.text)
}

// xsBoolean reads an xs:boolean: "true", "false", "1" or "0", with white
// space around it (XML Schema Part 2, 3.2.2). True, TRUE, T and the other
// spellings strconv.ParseBool takes are not booleans there.
func xsBoolean(text []byte) (bool, error) {
	switch strings.TrimSpace(string(text)) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not an xs:boolean", text)
}
