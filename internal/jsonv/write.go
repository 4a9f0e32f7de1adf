package jsonv

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string exactly as encoding/json writes
// it: ", \ and control characters escaped, < > & escaped as \u003c \u003e
// \u0026 (HTML-safe), U+2028 and U+2029 escaped, and each byte of invalid
// UTF-8 written as \ufffd.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendFloat appends a finite f exactly as encoding/json writes a float64:
// the shortest decimal that reads back as f, in exponent form below 1e-6
// and from 1e21 on, with exponents unpadded (1e-7, not 1e-07).
func AppendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	// A whole number up to 2^53 (such as a time on whole seconds in the
	// bucket metadata every write rewrites) is its own shortest decimal:
	// no other decimal reads back as it. Writing it as an integer skips
	// the shortest-decimal search. Zero keeps the general path, for -0.
	if f == math.Trunc(f) && abs <= 1<<53 && f != 0 {
		return strconv.AppendInt(b, int64(f), 10)
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendArray appends items as a JSON array, each written by appendItem;
// a nil slice is null, as encoding/json writes it.
func AppendArray[T any](b []byte, items []T, appendItem func([]byte, T) []byte) []byte {
	if items == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, item := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendItem(b, item)
	}
	return append(b, ']')
}

// AppendStringMap appends m as a JSON object with its names in ascending
// byte order; a nil map is null, as encoding/json writes it.
func AppendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, name)
		b = append(b, ':')
		b = AppendString(b, m[name])
	}
	return append(b, '}')
}
