package jsonv

import (
	"fmt"
	"strconv"
	"strings"
)

// A Decoder reads one checked JSON document, value by value. Each method
// reads the next value; after an error the Decoder is spent.
type Decoder struct {
	// Strict makes Object refuse a member that names none of its fields,
	// as encoding/json's Decoder.DisallowUnknownFields does.
	Strict bool
	data   []byte
	off    int // the next value; whitespace before it is skipped
}

// NewDecoder checks that data is one JSON value with nothing but
// whitespace around it, and returns a Decoder of that value. The error is
// a *SyntaxError.
func NewDecoder(data []byte) (*Decoder, error) {
	start := space(data, 0)
	end, err := scan(data, start, 0)
	if err != nil {
		return nil, err
	}
	if end = space(data, end); end < len(data) {
		return nil, invalid(data, end, "after top-level value")
	}
	return &Decoder{data: data, off: start}, nil
}

// Unmarshal reads data, one JSON value, into v with read.
func Unmarshal[T any](data []byte, v *T, read func(*Decoder, *T) error) error {
	d, err := NewDecoder(data)
	if err != nil {
		return err
	}
	return read(d, v)
}

// A TypeError is a value of the wrong JSON type for where it is, or a
// number that does not fit.
type TypeError struct {
	Offset int    // where the value starts
	Field  string // the names of the fields that lead to it, joined by "."; "" at the top
	Want   string // what the value must be: "a number", "an integer", "a string", "an object", ...
	Got    string // what it is: "number", "string", "bool", "array", "object", or "number 1e999"
}

func (e *TypeError) Error() string {
	field := e.Field
	if field == "" {
		field = "the value"
	}
	return fmt.Sprintf("%s must be %s, not a JSON %s", field, e.Want, e.Got)
}

// typeError is the TypeError for the next value, which is not want.
func (d *Decoder) typeError(want string) error {
	got := "number"
	switch d.data[d.off] {
	case '"':
		got = "string"
	case 't', 'f':
		got = "bool"
	case '[':
		got = "array"
	case '{':
		got = "object"
	}
	return &TypeError{Offset: d.off, Want: want, Got: got}
}

// skip steps over the next value.
func (d *Decoder) skip() {
	end, _ := scan(d.data, d.off, 0) // checked by NewDecoder
	d.off = space(d.data, end)
}

// next returns the first byte of the next value.
func (d *Decoder) next() byte { return d.data[d.off] }

// punct steps over the punctuation (, : ] }) at the offset.
func (d *Decoder) punct() { d.off = space(d.data, d.off+1) }

// Raw returns the next value's text.
func (d *Decoder) Raw() []byte {
	start := d.off
	end, _ := scan(d.data, start, 0)
	d.off = space(d.data, end)
	return d.data[start:end]
}

// String reads a string into s; null leaves s as it is.
func (d *Decoder) String(s *string) error {
	switch d.next() {
	case 'n':
		d.skip()
	case '"':
		var end int
		*s, end = unquote(d.data, d.off)
		d.off = space(d.data, end)
	default:
		return d.typeError("a string")
	}
	return nil
}

// Bool reads true or false into v; null leaves v as it is.
func (d *Decoder) Bool(v *bool) error {
	switch d.next() {
	case 'n':
	case 't':
		*v = true
	case 'f':
		*v = false
	default:
		return d.typeError("a bool")
	}
	d.skip()
	return nil
}

// number returns the literal of the next value, which must be want (a
// number), and steps over it; for null it returns "".
func (d *Decoder) number(want string) (string, error) {
	switch c := d.next(); {
	case c == 'n':
		d.skip()
		return "", nil
	case c != '-' && (c < '0' || c > '9'):
		return "", d.typeError(want)
	}
	start := d.off
	end, _ := scanNumber(d.data, start)
	d.off = space(d.data, end)
	return string(d.data[start:end]), nil
}

// misfit is the TypeError for the number lit at start, which is not want.
func misfit(start int, lit, want string) error {
	return &TypeError{Offset: start, Want: want, Got: "number " + lit}
}

// Float reads a number into f; null leaves f as it is.
func (d *Decoder) Float(f *float64) error {
	start := d.off
	lit, err := d.number("a number")
	if lit == "" {
		return err
	}
	v, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return misfit(start, lit, "a number")
	}
	*f = v
	return nil
}

// Int reads an integer into n; null leaves n as it is.
func (d *Decoder) Int(n *int) error {
	start := d.off
	lit, err := d.number("an integer")
	if lit == "" {
		return err
	}
	v, err := strconv.Atoi(lit)
	if err != nil {
		return misfit(start, lit, "an integer")
	}
	*n = v
	return nil
}

// Int64 reads an integer into n; null leaves n as it is.
func (d *Decoder) Int64(n *int64) error {
	start := d.off
	lit, err := d.number("an integer")
	if lit == "" {
		return err
	}
	v, err := strconv.ParseInt(lit, 10, 64)
	if err != nil {
		return misfit(start, lit, "an integer")
	}
	*n = v
	return nil
}

// Uint64 reads a non-negative integer into n; null leaves n as it is.
func (d *Decoder) Uint64(n *uint64) error {
	start := d.off
	lit, err := d.number("a non-negative integer")
	if lit == "" {
		return err
	}
	v, err := strconv.ParseUint(lit, 10, 64)
	if err != nil {
		return misfit(start, lit, "a non-negative integer")
	}
	*n = v
	return nil
}

// items reads the array or object that opens with open, which must be
// want: item is called for each element or member, in document order, to
// read its value, which is skipped if item leaves it. A member goes to
// item by its name, or, with names, by the entry of names it matches
// (exactly or under Unicode case folding, as encoding/json matches); one
// that matches none is skipped, or refused with Strict, and the name is
// prepended to the Field of a *TypeError item returns. null calls
// nothing.
func (d *Decoder) items(open byte, want string, names []string, item func(name string) error) error {
	switch d.next() {
	case 'n':
		d.skip()
		return nil
	case open:
	default:
		return d.typeError(want)
	}
	closer := byte(']')
	if open == '{' {
		closer = '}'
	}
	for d.punct(); d.next() != closer; {
		var key string
		if open == '{' {
			_ = d.String(&key)
			d.punct()
		}
		name, known := key, names == nil
		for _, n := range names {
			if strings.EqualFold(key, n) {
				name, known = n, true
				break
			}
		}
		if !known && d.Strict {
			return fmt.Errorf("json: unknown field %q", key)
		}
		start := d.off
		if known {
			if err := item(name); err != nil {
				if te, ok := err.(*TypeError); ok && names != nil {
					te.Field = strings.TrimSuffix(name+"."+te.Field, ".")
				}
				return err
			}
		}
		if d.off == start {
			d.skip()
		}
		if d.next() == ',' {
			d.punct()
		}
	}
	d.punct()
	return nil
}

// Object reads an object into the fields called names: for each member, in
// document order, whose name is one of names (exactly or under Unicode
// case folding, as encoding/json matches), field is called with that entry
// of names to read the member's value; a value field leaves is skipped.
// Other members are skipped, or refused with Strict. null is no object and
// calls nothing. The name is prepended to the Field of a *TypeError field
// returns.
func (d *Decoder) Object(names []string, field func(name string) error) error {
	return d.items('{', "an object", names, field)
}

// StringMap reads an object of strings into m, adding to a map m holds;
// null sets m to nil.
func (d *Decoder) StringMap(m *map[string]string) error {
	if d.next() == 'n' {
		d.skip()
		*m = nil
		return nil
	}
	if *m == nil && d.next() == '{' {
		*m = make(map[string]string)
	}
	return d.items('{', "an object", nil, func(name string) error {
		var v string
		err := d.String(&v)
		(*m)[name] = v
		return err
	})
}

// Slice reads an array into s with read for each element, as encoding/json
// does: the elements s holds are read into, not replaced, and an empty
// array is an empty slice; null sets s to nil.
func Slice[T any](d *Decoder, s *[]T, read func(*Decoder, *T) error) error {
	if d.next() == 'n' {
		d.skip()
		*s = nil
		return nil
	}
	out, n := *s, 0
	err := d.items('[', "an array", nil, func(string) error {
		if n < cap(out) {
			out = out[:n+1]
		} else {
			var zero T
			out = append(out, zero)
		}
		n++
		return read(d, &out[n-1])
	})
	switch {
	case err != nil:
		return err
	case n == 0:
		*s = []T{}
	default:
		*s = out[:n]
	}
	return nil
}

// Pointer reads the next value into the T *p points to, allocating it when
// *p is nil; null sets *p to nil.
func Pointer[T any](d *Decoder, p **T, read func(*Decoder, *T) error) error {
	if d.next() == 'n' {
		d.skip()
		*p = nil
		return nil
	}
	if *p == nil {
		*p = new(T)
	}
	return read(d, *p)
}
