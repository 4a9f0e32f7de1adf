package awscli

import (
	"bytes"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// response is an HTTP response as botocore sees it: the status, the
// headers in the order they came, and the body.
type response struct {
	status int
	header [][2]string
	body   []byte
}

// headerList is h in the order a Go server writes it: by name.
func headerList(h http.Header) [][2]string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var out [][2]string
	for _, k := range names {
		out = append(out, [2]string{k, strings.Join(h[k], ", ")})
	}
	return out
}

// get is the header named name (any case), as a Python HTTPHeaderDict.
func (r *response) get(name string) (string, bool) {
	for _, h := range r.header {
		if strings.EqualFold(h[0], name) {
			return h[1], true
		}
	}
	return "", false
}

// parseResponse is botocore's rest-xml parse of a successful response
// into the output shape.
func parseResponse(r *response, out *Ref) (*Dict, error) {
	parsed := NewDict()
	if out == nil {
		return parsed, nil
	}
	shape := out.Shape
	for _, m := range shape.Members {
		t := m.traits()
		switch t.Location {
		case "statusCode":
			parsed.Set(m.Name, int64(r.status))
		case "headers":
			prefix := strings.ToLower(t.LocationName)
			d := NewDict()
			for _, h := range r.header {
				if strings.HasPrefix(strings.ToLower(h[0]), prefix) {
					d.Set(h[0][len(prefix):], h[1])
				}
			}
			parsed.Set(m.Name, d)
		case "header":
			name := t.LocationName
			if name == "" {
				name = m.Name
			}
			if v, ok := r.get(name); ok {
				pv, err := headerScalar(v, m)
				if err != nil {
					return nil, err
				}
				parsed.Set(m.Name, pv)
			}
		}
	}
	if p := shape.Payload; p != "" {
		m := shape.member(p)
		switch {
		case m.Shape.Type == "blob" || m.Shape.Type == "string":
			parsed.Set(p, r.body)
		default:
			root, err := bodyRoot(r.body)
			if err != nil {
				return nil, err
			}
			v, err := parseXMLValue(m, []*xmlNode{root})
			if err != nil {
				return nil, err
			}
			parsed.Set(p, v)
		}
		return parsed, nil
	}
	root, err := bodyRoot(r.body)
	if err != nil {
		return nil, err
	}
	body, err := parseStructure(shape, root)
	if err != nil {
		return nil, err
	}
	for _, k := range body.Keys() {
		v, _ := body.Get(k)
		parsed.Set(k, v)
	}
	return parsed, nil
}

// bodyRoot is the root element of a body; an empty body is an element
// with nothing in it.
func bodyRoot(body []byte) (*xmlNode, error) {
	if len(body) == 0 {
		return &xmlNode{}, nil
	}
	root, err := parseXML(body)
	if err != nil {
		return nil, &cliError{msg: "Unable to parse response (" + err.Error() + "), invalid XML received. Further retries may succeed:\n" + pyRepr(string(body))}
	}
	return root, nil
}

// headerScalar reads a header's value as its member's type.
func headerScalar(v string, m *Ref) (any, error) {
	switch m.Shape.Type {
	case "integer", "long":
		n, err := pyInt(v)
		if err != nil {
			return nil, &cliError{msg: err.Error()}
		}
		return n, nil
	case "boolean":
		return v == "true", nil
	case "list":
		var list []any
		for _, e := range strings.Split(v, ",") {
			list = append(list, strings.TrimSpace(e))
		}
		return list, nil
	}
	return v, nil
}

// parseStructure reads the members of a structure that are in the body.
func parseStructure(shape *Shape, node *xmlNode) (*Dict, error) {
	parsed := newDictSized(len(shape.Members))
	for _, m := range shape.Members {
		t := m.traits()
		switch t.Location {
		case "header", "headers", "statusCode":
			continue
		}
		name := xmlName(m)
		if m.Shape.Type != "list" && m.Shape.Type != "map" {
			c := node.child(name)
			if c == nil {
				if t.XMLAttribute {
					for _, a := range node.attrs {
						if a.Name.Local == t.LocationName || a.Name.Space+":"+a.Name.Local == t.LocationName {
							parsed.Set(m.Name, a.Value)
						}
					}
				}
				continue
			}
			v, err := parseXMLNode(m, c)
			if err != nil {
				return nil, err
			}
			parsed.Set(m.Name, v)
			continue
		}
		nodes := node.childrenNamed(name)
		if len(nodes) == 0 {
			if t.XMLAttribute {
				for _, a := range node.attrs {
					if a.Name.Local == t.LocationName || a.Name.Space+":"+a.Name.Local == t.LocationName {
						parsed.Set(m.Name, a.Value)
					}
				}
			}
			continue
		}
		v, err := parseXMLValue(m, nodes)
		if err != nil {
			return nil, err
		}
		parsed.Set(m.Name, v)
	}
	return parsed, nil
}

// xmlName is the element name of a member.
func xmlName(m *Ref) string {
	t := m.traits()
	if m.Shape.Type == "list" && t.Flattened {
		if n := m.Shape.Member.traits().LocationName; n != "" {
			return n
		}
	}
	if t.LocationName != "" {
		return t.LocationName
	}
	return m.Name
}

// parseXMLValue reads the value of the shape m refers to from its
// elements: one, or more where the tag repeats.
func parseXMLValue(m *Ref, nodes []*xmlNode) (any, error) {
	shape := m.Shape
	switch shape.Type {
	case "list":
		items := nodes
		if !m.traits().Flattened && len(nodes) == 1 {
			items = nodes[0].children()
		}
		list := make([]any, 0, len(items))
		for _, item := range items {
			v, err := parseXMLNode(shape.Member, item)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case "map":
		entries := nodes
		if !m.traits().Flattened && len(nodes) == 1 {
			entries = nodes[0].children()
		}
		keyName, valueName := shape.Key.traits().LocationName, shape.Value.traits().LocationName
		if keyName == "" {
			keyName = "key"
		}
		if valueName == "" {
			valueName = "value"
		}
		d := NewDict()
		for _, e := range entries {
			var k string
			var v any
			for _, c := range e.children() {
				switch c.tag {
				case keyName:
					k = c.text
				case valueName:
					pv, err := parseXMLNode(shape.Value, c)
					if err != nil {
						return nil, err
					}
					v = pv
				}
			}
			d.Set(k, v)
		}
		return d, nil
	}
	return parseXMLNode(m, nodes[0])
}

// parseXMLNode reads the value of the shape m refers to from its one
// element.
func parseXMLNode(m *Ref, node *xmlNode) (any, error) {
	switch m.Shape.Type {
	case "structure":
		return parseStructure(m.Shape, node)
	case "list", "map":
		return parseXMLValue(m, []*xmlNode{node})
	case "integer", "long":
		n, err := pyInt(node.text)
		if err != nil {
			return nil, &cliError{msg: err.Error()}
		}
		return n, nil
	case "float", "double":
		f, err := pyFloatParse(node.text)
		if err != nil {
			return nil, &cliError{msg: err.Error()}
		}
		return f, nil
	case "boolean":
		return node.text == "true", nil
	}
	return node.text, nil
}

// parseError is botocore's parse of an error response: its Code and
// Message from the XML body ("Unknown" when absent, "None" when empty),
// or from the status when there is no body.
func parseError(r *response) (code, message string) {
	generic := r.status >= 500 && (len(bytes.TrimSpace(r.body)) == 0 || bytes.HasPrefix(bytes.TrimSpace(r.body), []byte("<html>")))
	if len(r.body) > 0 && !generic {
		if root, err := parseXML(r.body); err == nil {
			errNode := root
			if root.tag != "Error" {
				errNode = nil
				for _, c := range root.children() {
					if c.tag == "Error" {
						errNode = c
					}
				}
			}
			if errNode == nil {
				return "", ""
			}
			code, message = "Unknown", "Unknown"
			for _, c := range errNode.children() {
				text := c.text
				if text == "" && c.first == nil {
					text = "None"
				}
				switch c.tag {
				case "Code":
					code = text
				case "Message":
					message = text
				}
			}
			return code, message
		}
	}
	return strconv.Itoa(r.status), http.StatusText(r.status)
}
