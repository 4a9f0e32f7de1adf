package jsonv

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is how deeply arrays and objects may nest, as in encoding/json.
const maxDepth = 10000

// A SyntaxError is a document that is not one JSON value. Its message is
// encoding/json's for the same mistake.
type SyntaxError struct {
	Offset int // of the offending byte, or the length of the document
	msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s (at offset %d)", e.msg, e.Offset) }

// invalid is the SyntaxError for the byte at i (the end of the document
// when there is none), found where context says.
func invalid(data []byte, i int, context string) error {
	if i >= len(data) {
		return &SyntaxError{Offset: len(data), msg: "unexpected end of JSON input"}
	}
	return &SyntaxError{Offset: i, msg: fmt.Sprintf("invalid character %q %s", rune(data[i]), context)}
}

// space returns the offset of the first byte from i on that is not JSON
// whitespace.
func space(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// scan checks the value that starts at data[i], nested in depth arrays and
// objects, and returns the offset just past it.
func scan(data []byte, i, depth int) (int, error) {
	if i >= len(data) {
		return i, invalid(data, i, "")
	}
	switch c := data[i]; {
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return i, &SyntaxError{Offset: i, msg: "exceeded max depth"}
		}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		i = space(data, i+1)
		if i < len(data) && data[i] == end {
			return i + 1, nil
		}
		for {
			var err error
			if c == '{' {
				if i >= len(data) || data[i] != '"' {
					return i, invalid(data, i, "looking for beginning of object key string")
				}
				if i, err = scanString(data, i); err != nil {
					return i, err
				}
				if i = space(data, i); i >= len(data) || data[i] != ':' {
					return i, invalid(data, i, "after object key")
				}
				i = space(data, i+1)
			}
			if i, err = scan(data, i, depth+1); err != nil {
				return i, err
			}
			switch i = space(data, i); {
			case i < len(data) && data[i] == ',':
				i = space(data, i+1)
			case i < len(data) && data[i] == end:
				return i + 1, nil
			case c == '{':
				return i, invalid(data, i, "after object key:value pair")
			default:
				return i, invalid(data, i, "after array element")
			}
		}
	case c == '"':
		return scanString(data, i)
	case c == '-' || '0' <= c && c <= '9':
		return scanNumber(data, i)
	case c == 't':
		return scanLiteral(data, i, "true")
	case c == 'f':
		return scanLiteral(data, i, "false")
	case c == 'n':
		return scanLiteral(data, i, "null")
	}
	return i, invalid(data, i, "looking for beginning of value")
}

func scanLiteral(data []byte, i int, lit string) (int, error) {
	for k := 1; k < len(lit); k++ {
		if i+k >= len(data) || data[i+k] != lit[k] {
			return i + k, invalid(data, i+k, fmt.Sprintf("in literal %s (expecting %q)", lit, rune(lit[k])))
		}
	}
	return i + len(lit), nil
}

func isDigit(data []byte, i int) bool { return i < len(data) && '0' <= data[i] && data[i] <= '9' }

func digits(data []byte, i int) int {
	for isDigit(data, i) {
		i++
	}
	return i
}

// scanNumber checks the number at data[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(data []byte, i int) (int, error) {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case isDigit(data, i):
		i = digits(data, i)
	default:
		return i, invalid(data, i, "in numeric literal")
	}
	if i < len(data) && data[i] == '.' {
		if i++; !isDigit(data, i) {
			return i, invalid(data, i, "after decimal point in numeric literal")
		}
		i = digits(data, i)
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		if i++; i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if !isDigit(data, i) {
			return i, invalid(data, i, "in exponent of numeric literal")
		}
		i = digits(data, i)
	}
	return i, nil
}

// scanString checks the string at data[i] (its opening quote).
func scanString(data []byte, i int) (int, error) {
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			i++
			if i >= len(data) {
				break
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for range 4 {
					if i++; i >= len(data) || hexDigit(data[i]) < 0 {
						return i, invalid(data, i, `in \u hexadecimal character escape`)
					}
				}
			default:
				return i, invalid(data, i, "in string escape code")
			}
		case c < ' ':
			return i, invalid(data, i, "in string literal")
		}
	}
	return i, invalid(data, i, "")
}

func hexDigit(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

// escapedRune reads the \uXXXX at data[i], or returns -1.
func escapedRune(data []byte, i int) rune {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range data[i+2 : i+6] {
		r = r<<4 | hexDigit(c)
	}
	return r
}

// unquote returns the contents of the checked string at data[i] and the
// offset just past it, as encoding/json reads them: escapes resolved, a
// surrogate pair joined, a lone surrogate and each byte of invalid UTF-8
// replaced by U+FFFD.
func unquote(data []byte, i int) (string, int) {
	i++
	start := i
	for data[i] != '"' && data[i] != '\\' && data[i] < utf8.RuneSelf {
		i++
	}
	if data[i] == '"' {
		return string(data[start:i]), i + 1
	}
	b := append([]byte(nil), data[start:i]...)
	for data[i] != '"' {
		c := data[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(data[i:])
			b = utf8.AppendRune(b, r)
			i += size
			continue
		}
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		switch c = data[i+1]; c {
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'u':
			r := escapedRune(data, i)
			i += 6
			if utf16.IsSurrogate(r) {
				if pair := utf16.DecodeRune(r, escapedRune(data, i)); pair != utf8.RuneError {
					r = pair
					i += 6
				}
			}
			b = utf8.AppendRune(b, r) // U+FFFD for a lone surrogate
			continue
		}
		b = append(b, c)
		i += 2
	}
	return string(b), i + 1
}
