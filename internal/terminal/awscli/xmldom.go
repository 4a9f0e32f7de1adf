package awscli

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// xmlNode is an XML element as Python's ElementTree holds it: its name
// without namespace, its attributes, the text before its first child, and
// its children.
type xmlNode struct {
	tag         string
	attrs       []xml.Attr
	text        string
	first, last *xmlNode // the first and last child
	next        *xmlNode // the next sibling
}

// children are the node's child elements in order.
func (n *xmlNode) children() []*xmlNode {
	var out []*xmlNode
	for c := n.first; c != nil; c = c.next {
		out = append(out, c)
	}
	return out
}

// child is the node's first child element named tag, or nil.
func (n *xmlNode) child(tag string) *xmlNode {
	for c := n.first; c != nil; c = c.next {
		if c.tag == tag {
			return c
		}
	}
	return nil
}

// parseXML reads a document into its root element. S3's answers are
// plain XML: a declaration, elements with attributes, text with the five
// entities and character references, CDATA; comments and processing
// instructions are skipped.
func parseXML(data []byte) (*xmlNode, error) {
	p := &xmlParser{s: data, names: map[string]string{}}
	var root *xmlNode
	var stack []*xmlNode
	for {
		p.text(stack)
		if p.i >= len(p.s) {
			break
		}
		switch {
		case p.skip("<?", "?>"), p.skip("<!--", "-->"), p.skip("<!DOCTYPE", ">"):
		case p.has("<![CDATA["):
			end := bytes.Index(p.s[p.i:], []byte("]]>"))
			if end < 0 {
				return nil, p.fail("unclosed CDATA section")
			}
			if len(stack) > 0 {
				p.addText(stack[len(stack)-1], string(p.s[p.i+9:p.i+end]))
			}
			p.i += end + 3
		case p.has("</"):
			name, ok := p.closeTag()
			if !ok || len(stack) == 0 || stack[len(stack)-1].tag != name {
				return nil, p.fail("mismatched tag")
			}
			stack = stack[:len(stack)-1]
		default:
			n, empty, err := p.openTag()
			if err != nil {
				return nil, err
			}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				if parent.last == nil {
					parent.first = n
				} else {
					parent.last.next = n
				}
				parent.last = n
			} else if root == nil {
				root = n
			} else {
				return nil, p.fail("junk after document element")
			}
			if !empty {
				stack = append(stack, n)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no element found: line 1, column 0")
	}
	if len(stack) > 0 {
		return nil, p.fail("no element found")
	}
	return root, nil
}

// xmlParser is a position in a document.
type xmlParser struct {
	s     []byte
	i     int
	names map[string]string // the tag names seen, made strings once
	nodes []xmlNode         // where new nodes are taken from
}

// node is a new node, taken from a block of them.
func (p *xmlParser) node() *xmlNode {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]xmlNode, 0, 256)
	}
	p.nodes = p.nodes[:len(p.nodes)+1]
	return &p.nodes[len(p.nodes)-1]
}

func (p *xmlParser) fail(what string) error {
	line := 1 + bytes.Count(p.s[:p.i], []byte("\n"))
	col := p.i - (bytes.LastIndexByte(p.s[:p.i], '\n') + 1)
	return fmt.Errorf("%s: line %d, column %d", what, line, col)
}

func (p *xmlParser) has(prefix string) bool {
	return len(p.s)-p.i >= len(prefix) && string(p.s[p.i:p.i+len(prefix)]) == prefix
}

// skip passes over a construct from open to close.
func (p *xmlParser) skip(open, close string) bool {
	if !p.has(open) {
		return false
	}
	end := bytes.Index(p.s[p.i:], []byte(close))
	if end < 0 {
		p.i = len(p.s)
	} else {
		p.i += end + len(close)
	}
	return true
}

// text reads the text up to the next tag into the open element.
func (p *xmlParser) text(stack []*xmlNode) {
	end := bytes.IndexByte(p.s[p.i:], '<')
	if end < 0 {
		end = len(p.s) - p.i
	}
	if end > 0 && len(stack) > 0 {
		p.addText(stack[len(stack)-1], unescapeXML(p.s[p.i:p.i+end]))
	}
	p.i += end
}

// addText adds text to n's own text: what comes before its first child.
func (p *xmlParser) addText(n *xmlNode, t string) {
	if n.first == nil {
		n.text += t
	}
}

func isNameByte(c byte) bool {
	return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '>' && c != '/' && c != '=' && c != '<'
}

// name reads a name and drops its namespace prefix.
func (p *xmlParser) name() string {
	start := p.i
	for p.i < len(p.s) && isNameByte(p.s[p.i]) {
		p.i++
	}
	b := p.s[start:p.i]
	if c := bytes.LastIndexByte(b, ':'); c >= 0 {
		b = b[c+1:]
	}
	if n, ok := p.names[string(b)]; ok {
		return n
	}
	n := string(b)
	p.names[n] = n
	return n
}

func (p *xmlParser) spaces() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *xmlParser) openTag() (*xmlNode, bool, error) {
	p.i++
	n := p.node()
	n.tag = p.name()
	for {
		p.spaces()
		if p.i >= len(p.s) {
			return nil, false, p.fail("unclosed token")
		}
		switch {
		case p.has("/>"):
			p.i += 2
			return n, true, nil
		case p.s[p.i] == '>':
			p.i++
			return n, false, nil
		}
		attrStart := p.i
		for p.i < len(p.s) && isNameByte(p.s[p.i]) {
			p.i++
		}
		qualified := string(p.s[attrStart:p.i])
		p.spaces()
		if p.i >= len(p.s) || p.s[p.i] != '=' {
			return nil, false, p.fail("not well-formed (invalid token)")
		}
		p.i++
		p.spaces()
		if p.i >= len(p.s) || p.s[p.i] != '"' && p.s[p.i] != '\'' {
			return nil, false, p.fail("not well-formed (invalid token)")
		}
		q := p.s[p.i]
		end := bytes.IndexByte(p.s[p.i+1:], q)
		if end < 0 {
			return nil, false, p.fail("unclosed token")
		}
		value := unescapeXML(p.s[p.i+1 : p.i+1+end])
		p.i += end + 2
		space, local, found := strings.Cut(qualified, ":")
		if !found {
			space, local = "", qualified
		}
		n.attrs = append(n.attrs, xml.Attr{Name: xml.Name{Space: space, Local: local}, Value: value})
	}
}

func (p *xmlParser) closeTag() (string, bool) {
	p.i += 2
	n := p.name()
	p.spaces()
	if p.i >= len(p.s) || p.s[p.i] != '>' {
		return "", false
	}
	p.i++
	return n, true
}

// unescapeXML decodes the entities and character references of text.
func unescapeXML(b []byte) string {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] != '&' {
			out.WriteByte(b[i])
			continue
		}
		end := bytes.IndexByte(b[i:], ';')
		if end < 0 {
			out.WriteByte('&')
			continue
		}
		ref := string(b[i+1 : i+end])
		switch {
		case ref == "lt":
			out.WriteByte('<')
		case ref == "gt":
			out.WriteByte('>')
		case ref == "amp":
			out.WriteByte('&')
		case ref == "quot":
			out.WriteByte('"')
		case ref == "apos":
			out.WriteByte('\'')
		case strings.HasPrefix(ref, "#x"):
			n, err := strconv.ParseUint(ref[2:], 16, 32)
			if err != nil {
				out.WriteString("&" + ref + ";")
			} else {
				out.WriteRune(rune(n))
			}
		case strings.HasPrefix(ref, "#"):
			n, err := strconv.ParseUint(ref[1:], 10, 32)
			if err != nil {
				out.WriteString("&" + ref + ";")
			} else {
				out.WriteRune(rune(n))
			}
		default:
			out.WriteString("&" + ref + ";")
		}
		i += end
	}
	return out.String()
}

// childrenNamed are n's child elements named tag.
func (n *xmlNode) childrenNamed(tag string) []*xmlNode {
	var out []*xmlNode
	for c := n.first; c != nil; c = c.next {
		if c.tag == tag {
			out = append(out, c)
		}
	}
	return out
}

// xmlWriter writes an XML document as ElementTree.tostring does.
type xmlWriter struct {
	b strings.Builder
}

func (w *xmlWriter) start(tag string, attrs ...string) {
	w.b.WriteString("<" + tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		w.b.WriteString(" " + attrs[i] + `="` + escapeXML(attrs[i+1], true) + `"`)
	}
	w.b.WriteString(">")
}

func (w *xmlWriter) end(tag string) { w.b.WriteString("</" + tag + ">") }

func (w *xmlWriter) text(s string) { w.b.WriteString(escapeXML(s, false)) }

// escapeXML is ElementTree's escaping of text, and of attribute values.
func escapeXML(s string, attr bool) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	if attr {
		r = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", "&#10;", "\r", "&#13;", "\t", "&#09;")
	}
	return r.Replace(s)
}
