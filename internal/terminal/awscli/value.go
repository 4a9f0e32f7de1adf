package awscli

import (
	"math"
	"strconv"
	"strings"
)

// The values the CLI handles are Python's, as botocore builds them from a
// response and as the CLI reads them from its arguments. In Go a value is
// one of:
//
//	nil       None
//	bool      True, False
//	int64     int
//	float64   float
//	string    str
//	[]any     list
//	*Dict     dict (which keeps its keys in insertion order)

// Dict is a Python dict: keys in the order they were first set. Small
// dicts, as a response's structures are, look their keys up in order;
// larger ones keep an index.
type Dict struct {
	keys   []string
	values []any
	index  map[string]int // once there are more than indexFrom keys
	// ordered marks a collections.OrderedDict, as the CLI reads JSON
	// arguments into; it shows only in the dict's repr.
	ordered bool
}

const indexFrom = 16

// NewDict returns an empty Dict.
func NewDict() *Dict { return &Dict{} }

// newDictSized returns an empty Dict with room for n keys.
func newDictSized(n int) *Dict {
	return &Dict{keys: make([]string, 0, n), values: make([]any, 0, n)}
}

func (d *Dict) find(key string) int {
	if d.index != nil {
		if i, ok := d.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range d.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Set sets key to v, keeping key's place if it is there already.
func (d *Dict) Set(key string, v any) {
	if i := d.find(key); i >= 0 {
		d.values[i] = v
		return
	}
	d.keys = append(d.keys, key)
	d.values = append(d.values, v)
	switch {
	case d.index != nil:
		d.index[key] = len(d.keys) - 1
	case len(d.keys) > indexFrom:
		d.index = make(map[string]int, len(d.keys))
		for i, k := range d.keys {
			d.index[k] = i
		}
	}
}

// Get returns key's value and whether key is there.
func (d *Dict) Get(key string) (any, bool) {
	if i := d.find(key); i >= 0 {
		return d.values[i], true
	}
	return nil, false
}

// Delete removes key.
func (d *Dict) Delete(key string) {
	i := d.find(key)
	if i < 0 {
		return
	}
	d.keys = append(d.keys[:i:i], d.keys[i+1:]...)
	d.values = append(d.values[:i:i], d.values[i+1:]...)
	if d.index != nil {
		d.index = make(map[string]int, len(d.keys))
		for j, k := range d.keys {
			d.index[k] = j
		}
	}
}

// Keys are the keys in order.
func (d *Dict) Keys() []string { return d.keys }

// Len is the number of keys.
func (d *Dict) Len() int { return len(d.keys) }

// pyStr is Python's str(v) of a scalar, as the text output prints it.
func pyStr(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return pyFloat(v)
	case string:
		return v
	}
	return pyJSON(v)
}

// pyFloat is Python's repr of a float: the shortest digits that read back
// as f, in positional notation when the decimal point falls within 16
// digits of the first, else in exponent notation with at least two
// exponent digits.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	point := x + 1 // digits before the decimal point
	switch {
	case point > 16 || point < -3:
		s := digits[:1]
		if len(digits) > 1 {
			s += "." + digits[1:]
		}
		es := strconv.Itoa(abs(x))
		if len(es) < 2 {
			es = "0" + es
		}
		if x < 0 {
			return sign + s + "e-" + es
		}
		return sign + s + "e+" + es
	case point <= 0:
		return sign + "0." + strings.Repeat("0", -point) + digits
	case point >= len(digits):
		return sign + digits + strings.Repeat("0", point-len(digits)) + ".0"
	}
	return sign + digits[:point] + "." + digits[point:]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
