package awscli

import (
	"fmt"
	"strings"
	"unicode"
)

// The CLI's shorthand syntax for structures, lists and maps:
//
//	--versioning-configuration Status=Enabled
//	--delete 'Objects=[{Key=a},{Key=b}],Quiet=true'
//
// The parser reads the text alone into dicts, lists and strings; then the
// argument's shape adjusts it (backCompat): numbers and booleans where the
// shape has them, a single value where it wants a list made a list of one.
// The messages are the CLI's, including their quirks.

// shorthandError is a shorthand syntax error.
type shorthandError struct{ msg string }

func (e *shorthandError) Error() string { return e.msg }

// syntaxError is ShorthandParseSyntaxError, whose message in this version
// of the CLI prints its placeholder for the input's location literally.
func shorthandSyntaxError(expected, actual string) error {
	return &shorthandError{fmt.Sprintf("Expected: '%s', received: '%s' for input:\n{self._error_location()}", expected, actual)}
}

// The characters the parser's regular expressions allow (Python's
// re, where \s is any Unicode space and no class goes past U+FFFF).

// isStartWord: a value's first character.
func isStartWord(r rune) bool {
	return r == '!' || r >= '#' && r <= '&' || r >= '(' && r <= '+' || r >= '-' && r <= '<' ||
		r >= '>' && r <= 'Z' || r >= '\\' && r <= 'z' || r >= '|' && r <= 0xffff
}

// isFirstFollow: the rest of a first value (or a value in a list).
func isFirstFollow(r rune) bool {
	return pyIsSpace(r) || r == '!' || r >= '#' && r <= '&' || r >= '(' && r <= '+' || r >= '-' && r <= '\\' ||
		r >= '^' && r <= '|' || r >= '~' && r <= 0xffff
}

// isSecondFollow: the rest of a second value of a comma-separated list.
func isSecondFollow(r rune) bool {
	return pyIsSpace(r) || r == '!' || r >= '#' && r <= '&' || r >= '(' && r <= '+' || r >= '-' && r <= '<' ||
		r >= '>' && r <= 0xffff
}

// pyIsSpace is Python's str.isspace of one character.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// matchWord is the length of the longest word at the start of rs: a first
// character as start allows, then characters as follow allows, where \,
// (an escaped comma) counts as a character each time.
func matchWord(rs []rune, follow func(rune) bool) int {
	i := 0
	for first := true; i < len(rs); first = false {
		switch {
		case rs[i] == '\\' && i+1 < len(rs) && rs[i+1] == ',':
			i += 2
		case first && isStartWord(rs[i]), !first && follow(rs[i]):
			i++
		default:
			return i
		}
	}
	return i
}

// matchQuoted is the length of a quoted value at the start of rs (q, then
// escaped quotes or other characters, then q), or 0: the first of the
// ways the regular expression (?:\\q|[^q])* tries that ends with q.
func matchQuoted(rs []rune, q rune) int {
	if len(rs) == 0 || rs[0] != q {
		return 0
	}
	var at func(i int) int
	at = func(i int) int {
		if i >= len(rs) {
			return 0
		}
		if rs[i] == '\\' && i+1 < len(rs) && rs[i+1] == q {
			if n := at(i + 2); n > 0 {
				return n
			}
		}
		if rs[i] != q {
			if n := at(i + 1); n > 0 {
				return n
			}
			return 0
		}
		return i + 1
	}
	return at(1)
}

type shorthandParser struct {
	in    []rune
	i     int
	files fileReader
	// paramfiles: the current key was written key@=value, whose value may
	// be file://… or fileb://….
	paramfiles bool
}

// fileReader reads a file://… or fileb://… value, or returns ok=false.
type fileReader func(value string) (content any, ok bool, err error)

// parseShorthand reads value as shorthand syntax.
func parseShorthand(value string, files fileReader) (*Dict, error) {
	p := &shorthandParser{in: []rune(value), files: files}
	return p.parameter()
}

func (p *shorthandParser) eof() bool { return p.i >= len(p.in) }

func (p *shorthandParser) current() rune {
	if p.eof() {
		return -1
	}
	return p.in[p.i]
}

func isPySpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

func (p *shorthandParser) skipSpace() {
	for !p.eof() && isPySpace(p.in[p.i]) {
		p.i++
	}
}

func (p *shorthandParser) expect(c rune, space bool) error {
	if space {
		p.skipSpace()
	}
	if p.eof() {
		return shorthandSyntaxError(string(c), "EOF")
	}
	if p.in[p.i] != c {
		return shorthandSyntaxError(string(c), string(p.in[p.i]))
	}
	p.i++
	if space {
		p.skipSpace()
	}
	return nil
}

func (p *shorthandParser) parameter() (*Dict, error) {
	params := NewDict()
	key, v, err := p.keyval()
	if err != nil {
		return nil, err
	}
	params.Set(key, v)
	last := p.i
	for !p.eof() {
		if err := p.expect(',', true); err != nil {
			return nil, err
		}
		key, v, err := p.keyval()
		if err != nil {
			return nil, err
		}
		if _, dup := params.Get(key); dup {
			return nil, p.duplicateKey(key, last+1)
		}
		params.Set(key, v)
		last = p.i
	}
	return params, nil
}

// duplicateKey is DuplicateKeyInObjectError, which shows where it is.
func (p *shorthandParser) duplicateKey(key string, index int) error {
	value := string(p.in)
	consumed, remaining, spaces := value, "", index
	before := string(p.in[:min(index, len(p.in))])
	if n := strings.LastIndex(before, "\n"); n >= 0 {
		spaces = index - len([]rune(before[:n])) - 1
	}
	after := string(p.in[min(index, len(p.in)):])
	if n := strings.Index(after, "\n"); n >= 0 {
		cut := len(before) + n
		consumed, remaining = value[:cut], value[cut:]
	}
	location := consumed + "\n" + strings.Repeat(" ", spaces) + "^" + remaining
	return &shorthandError{fmt.Sprintf("Second instance of key \"%s\" encountered for input:\n%s\nThis is often because there is a preceding \",\" instead of a space.", key, location)}
}

func (p *shorthandParser) keyval() (string, any, error) {
	key := p.key()
	p.paramfiles = false
	save := p.i
	if p.expect('@', true) == nil {
		p.paramfiles = true
	} else {
		p.i = save
	}
	if err := p.expect('=', true); err != nil {
		return "", nil, err
	}
	v, err := p.values()
	return key, v, err
}

func (p *shorthandParser) key() string {
	start := p.i
	for !p.eof() {
		c := p.in[p.i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.#/:", c)) {
			break
		}
		p.i++
	}
	return string(p.in[start:p.i])
}

func (p *shorthandParser) values() (any, error) {
	switch {
	case p.eof():
		return "", nil
	case p.current() == '[':
		return p.explicitList()
	case p.current() == '{':
		return p.hashLiteral()
	}
	return p.csvValue()
}

func (p *shorthandParser) csvValue() (any, error) {
	first, err := p.firstValue()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.eof() || p.in[p.i] != ',' {
		return first, nil
	}
	if err := p.expect(',', true); err != nil {
		return nil, err
	}
	list := []any{first}
	for {
		current, err := p.secondValue()
		if err == nil {
			p.skipSpace()
			if p.eof() {
				list = append(list, current)
				break
			}
			err = p.expect(',', true)
		}
		if err != nil {
			if p.eof() {
				return nil, err
			}
			p.backtrackTo(',')
			break
		}
		list = append(list, current)
	}
	if len(list) == 1 {
		return first, nil
	}
	return list, nil
}

func (p *shorthandParser) backtrackTo(c rune) {
	for p.i >= 0 && (p.i >= len(p.in) || p.in[p.i] != c) {
		p.i--
	}
}

func (p *shorthandParser) plainValue() (any, error) {
	n := matchWord(p.in[p.i:], isFirstFollow)
	if n == 0 {
		return "", nil
	}
	m := string(p.in[p.i : p.i+n])
	p.i += n
	return p.resolve(strings.TrimRightFunc(strings.ReplaceAll(m, `\,`, ","), pyIsSpace))
}

func (p *shorthandParser) explicitList() (any, error) {
	if err := p.expect('[', true); err != nil {
		return nil, err
	}
	list := []any{}
	for p.current() != ']' {
		v, err := p.explicitValues()
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		p.skipSpace()
		if p.current() != ']' {
			if err := p.expect(',', false); err != nil {
				return nil, err
			}
			p.skipSpace()
		}
	}
	if err := p.expect(']', false); err != nil {
		return nil, err
	}
	return list, nil
}

func (p *shorthandParser) explicitValues() (any, error) {
	switch p.current() {
	case '[':
		return p.explicitList()
	case '{':
		return p.hashLiteral()
	}
	return p.firstValue()
}

func (p *shorthandParser) hashLiteral() (any, error) {
	if err := p.expect('{', true); err != nil {
		return nil, err
	}
	d := NewDict()
	for p.current() != '}' {
		key := p.key()
		p.paramfiles = false
		save := p.i
		if p.expect('@', true) == nil {
			p.paramfiles = true
		} else {
			p.i = save
		}
		if err := p.expect('=', true); err != nil {
			return nil, err
		}
		v, err := p.explicitValues()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.current() != '}' {
			if err := p.expect(',', false); err != nil {
				return nil, err
			}
			p.skipSpace()
		}
		d.Set(key, v)
	}
	if err := p.expect('}', false); err != nil {
		return nil, err
	}
	return d, nil
}

func (p *shorthandParser) firstValue() (any, error) {
	switch p.current() {
	case '\'':
		return p.quoted('\'', "singled quoted")
	case '"':
		return p.quoted('"', "double quoted")
	}
	return p.plainValue()
}

func (p *shorthandParser) secondValue() (any, error) {
	switch p.current() {
	case '\'':
		return p.quoted('\'', "singled quoted")
	case '"':
		return p.quoted('"', "double quoted")
	}
	n := matchWord(p.in[p.i:], isSecondFollow)
	if n == 0 {
		return nil, shorthandSyntaxError("<second>", "<none>")
	}
	m := string(p.in[p.i : p.i+n])
	p.i += n
	return p.resolve(strings.TrimRightFunc(strings.ReplaceAll(m, `\,`, ","), pyIsSpace))
}

func (p *shorthandParser) quoted(q rune, name string) (any, error) {
	n := matchQuoted(p.in[p.i:], q)
	if n == 0 {
		return nil, shorthandSyntaxError("<"+name+">", "<none>")
	}
	v := string(p.in[p.i+1 : p.i+n-1])
	p.i += n
	v = strings.ReplaceAll(v, `\`+string(q), string(q))
	v = strings.ReplaceAll(v, `\\`, `\`)
	return p.resolve(v)
}

// resolve reads a key@=file://… value's file.
func (p *shorthandParser) resolve(v string) (any, error) {
	if !p.paramfiles || p.files == nil {
		return v, nil
	}
	content, ok, err := p.files(v)
	if err != nil {
		return nil, err
	}
	if ok {
		return content, nil
	}
	return v, nil
}

// backCompat adjusts a parsed shorthand value to the argument's shape:
// scalars to their types, a lone value where a list goes made a list. A
// number that does not read is Python's ValueError, which the CLI does
// not catch.
func backCompat(v any, shape *Shape) (any, error) {
	switch shape.Type {
	case "structure":
		d, ok := v.(*Dict)
		if !ok {
			return v, nil
		}
		for _, m := range shape.Members {
			if mv, ok := d.Get(m.Name); ok {
				nv, err := backCompat(mv, m.Shape)
				if err != nil {
					return nil, err
				}
				d.Set(m.Name, nv)
			}
		}
		return d, nil
	case "list":
		list, ok := v.([]any)
		if !ok {
			if v == nil {
				return nil, nil
			}
			// The CLI makes it a list of one and looks no further.
			return []any{v}, nil
		}
		for i, e := range list {
			nv, err := backCompat(e, shape.Member.Shape)
			if err != nil {
				return nil, err
			}
			list[i] = nv
		}
		return list, nil
	case "map":
		d, ok := v.(*Dict)
		if !ok {
			return v, nil
		}
		for _, k := range d.Keys() {
			mv, _ := d.Get(k)
			nv, err := backCompat(mv, shape.Value.Shape)
			if err != nil {
				return nil, err
			}
			d.Set(k, nv)
		}
		return d, nil
	}
	s, ok := v.(string)
	if !ok {
		return v, nil
	}
	switch shape.Type {
	case "integer", "long":
		n, err := pyInt(s)
		if err != nil {
			return nil, err
		}
		return n, nil
	case "double", "float":
		f, err := pyFloatParse(s)
		if err != nil {
			return nil, err
		}
		return f, nil
	case "boolean":
		switch strings.ToLower(s) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return v, nil
}
