package awscli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pyJSON is json.dumps(v, indent=4, ensure_ascii=False): how the CLI
// prints a result with --output json.
func pyJSON(v any) string {
	var b strings.Builder
	writePyJSON(&b, v, 0)
	return b.String()
}

func writePyJSON(b *strings.Builder, v any, depth int) {
	indent := func(d int) {
		b.WriteByte('\n')
		for ; d > 0; d-- {
			b.WriteString("    ")
		}
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		switch {
		case math.IsNaN(v):
			b.WriteString("NaN")
		case math.IsInf(v, 1):
			b.WriteString("Infinity")
		case math.IsInf(v, -1):
			b.WriteString("-Infinity")
		default:
			b.WriteString(pyFloat(v))
		}
	case string:
		writePyString(b, v)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writePyJSON(b, e, depth+1)
		}
		indent(depth)
		b.WriteByte(']')
	case *Dict:
		if v.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writePyString(b, k)
			b.WriteString(": ")
			writePyJSON(b, v.values[i], depth+1)
		}
		indent(depth)
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("awscli: %T is not a CLI value", v))
	}
}

// writePyString writes s as Python's json module does with
// ensure_ascii=False: quotes, backslashes and control characters escaped,
// everything else as it is.
func writePyString(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			fmt.Fprintf(b, `\u%04x`, c)
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// jsonError is Python's json.JSONDecodeError: a message and where in the
// document (counted in characters) it failed.
type jsonError struct {
	msg       string
	line, col int
	pos       int
}

func (e *jsonError) Error() string {
	return fmt.Sprintf("%s: line %d column %d (char %d)", e.msg, e.line, e.col, e.pos)
}

// pyJSONDecode is json.loads(s, object_pairs_hook=OrderedDict), with
// Python's error messages and positions.
func pyJSONDecode(s string) (any, error) {
	d := &jsonDecoder{s: []rune(s)}
	v, err := d.document()
	if err != nil {
		return nil, err
	}
	return v, nil
}

type jsonDecoder struct {
	s []rune
}

// fail is the error msg at position pos.
func (d *jsonDecoder) fail(msg string, pos int) error {
	line, last := 1, -1
	for i := 0; i < pos && i < len(d.s); i++ {
		if d.s[i] == '\n' {
			line++
			last = i
		}
	}
	return &jsonError{msg: msg, line: line, col: pos - last, pos: pos}
}

func (d *jsonDecoder) at(i int) rune {
	if i < len(d.s) {
		return d.s[i]
	}
	return utf8.RuneError
}

func isJSONSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

func (d *jsonDecoder) skip(i int) int {
	for i < len(d.s) && isJSONSpace(d.s[i]) {
		i++
	}
	return i
}

func (d *jsonDecoder) document() (any, error) {
	v, end, err := d.value(d.skip(0))
	if err != nil {
		return nil, err
	}
	if end = d.skip(end); end != len(d.s) {
		return nil, d.fail("Extra data", end)
	}
	return v, nil
}

// value scans the value at i; it returns the value and the index after it.
func (d *jsonDecoder) value(i int) (any, int, error) {
	if i >= len(d.s) {
		return nil, 0, d.fail("Expecting value", i)
	}
	has := func(word string) bool {
		w := []rune(word)
		return i+len(w) <= len(d.s) && string(d.s[i:i+len(w)]) == word
	}
	switch c := d.s[i]; {
	case c == '"':
		return d.str(i + 1)
	case c == '{':
		return d.object(i + 1)
	case c == '[':
		return d.array(i + 1)
	case has("null"):
		return nil, i + 4, nil
	case has("true"):
		return true, i + 4, nil
	case has("false"):
		return false, i + 5, nil
	}
	if v, end, ok := d.number(i); ok {
		return v, end, nil
	}
	switch {
	case has("NaN"):
		return math.NaN(), i + 3, nil
	case has("Infinity"):
		return math.Inf(1), i + 8, nil
	case has("-Infinity"):
		return math.Inf(-1), i + 9, nil
	}
	return nil, 0, d.fail("Expecting value", i)
}

// number matches -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)? at i.
func (d *jsonDecoder) number(i int) (any, int, bool) {
	digits := func(j int) int {
		for j < len(d.s) && d.s[j] >= '0' && d.s[j] <= '9' {
			j++
		}
		return j
	}
	j := i
	if d.at(j) == '-' {
		j++
	}
	switch {
	case d.at(j) == '0':
		j++
	case d.at(j) >= '1' && d.at(j) <= '9':
		j = digits(j)
	default:
		return nil, 0, false
	}
	integer := j
	if d.at(j) == '.' && d.at(j+1) >= '0' && d.at(j+1) <= '9' {
		j = digits(j + 1)
	}
	if c := d.at(j); c == 'e' || c == 'E' {
		k := j + 1
		if c := d.at(k); c == '+' || c == '-' {
			k++
		}
		if d.at(k) >= '0' && d.at(k) <= '9' {
			j = digits(k)
		}
	}
	text := string(d.s[i:j])
	if j == integer {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, j, true
		}
	}
	f, _ := strconv.ParseFloat(text, 64)
	return f, j, true
}

// str scans a string whose opening quote is at i-1.
func (d *jsonDecoder) str(i int) (any, int, error) {
	begin := i - 1
	var b strings.Builder
	for {
		if i >= len(d.s) {
			return nil, 0, d.fail("Unterminated string starting at", begin)
		}
		c := d.s[i]
		switch {
		case c == '"':
			return b.String(), i + 1, nil
		case c < 0x20:
			return nil, 0, d.fail("Invalid control character at", i)
		case c != '\\':
			b.WriteRune(c)
			i++
			continue
		}
		if i+1 >= len(d.s) {
			return nil, 0, d.fail("Unterminated string starting at", begin)
		}
		esc := d.s[i+1]
		if esc != 'u' {
			r, ok := map[rune]rune{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[esc]
			if !ok {
				return nil, 0, d.fail(`Invalid \escape`, i)
			}
			b.WriteRune(r)
			i += 2
			continue
		}
		u, ok := d.hex4(i + 2)
		if !ok {
			return nil, 0, d.fail(`Invalid \uXXXX escape`, i+1)
		}
		i += 6
		if u >= 0xd800 && u <= 0xdbff && d.at(i) == '\\' && d.at(i+1) == 'u' {
			u2, ok := d.hex4(i + 2)
			if !ok {
				return nil, 0, d.fail(`Invalid \uXXXX escape`, i+1)
			}
			if u2 >= 0xdc00 && u2 <= 0xdfff {
				u = 0x10000 + (u-0xd800)<<10 | (u2 - 0xdc00)
				i += 6
			}
		}
		b.WriteRune(rune(u))
	}
}

func (d *jsonDecoder) hex4(i int) (int, bool) {
	if i+4 > len(d.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.s[i:i+4]), 16, 32)
	return int(n), err == nil
}

// object scans an object whose brace is at i-1.
func (d *jsonDecoder) object(i int) (any, int, error) {
	obj := NewDict()
	obj.ordered = true
	i = d.skip(i)
	if d.at(i) == '}' {
		return obj, i + 1, nil
	}
	if i >= len(d.s) || d.s[i] != '"' {
		return nil, 0, d.fail("Expecting property name enclosed in double quotes", i)
	}
	for {
		k, end, err := d.str(i + 1)
		if err != nil {
			return nil, 0, err
		}
		i = d.skip(end)
		if d.at(i) != ':' || i >= len(d.s) {
			return nil, 0, d.fail("Expecting ':' delimiter", i)
		}
		v, end, err := d.value(d.skip(i + 1))
		if err != nil {
			return nil, 0, err
		}
		obj.Set(k.(string), v)
		i = d.skip(end)
		switch {
		case i < len(d.s) && d.s[i] == '}':
			return obj, i + 1, nil
		case i >= len(d.s) || d.s[i] != ',':
			return nil, 0, d.fail("Expecting ',' delimiter", i)
		}
		i = d.skip(i + 1)
		if i >= len(d.s) || d.s[i] != '"' {
			return nil, 0, d.fail("Expecting property name enclosed in double quotes", i)
		}
	}
}

// array scans an array whose bracket is at i-1.
func (d *jsonDecoder) array(i int) (any, int, error) {
	list := []any{}
	i = d.skip(i)
	if d.at(i) == ']' && i < len(d.s) {
		return list, i + 1, nil
	}
	for {
		v, end, err := d.value(i)
		if err != nil {
			return nil, 0, err
		}
		list = append(list, v)
		i = d.skip(end)
		switch {
		case i < len(d.s) && d.s[i] == ']':
			return list, i + 1, nil
		case i >= len(d.s) || d.s[i] != ',':
			return nil, 0, d.fail("Expecting ',' delimiter", i)
		}
		i = d.skip(i + 1)
	}
}
