package awscli

import (
	"fmt"
	"strings"
)

// validate is botocore's ParamValidator: every error in the parameters,
// reported together.
func validate(params *Dict, shape *Shape) error {
	var errs []string
	validateValue(params, shape, "", &errs)
	if len(errs) > 0 {
		return paramValidationError(strings.Join(errs, "\n"))
	}
	return nil
}

func paramValidationError(report string) error {
	return &cliError{"Parameter validation failed:\n" + report}
}

func fieldName(name string) string {
	if name == "" {
		return "input"
	}
	return strings.TrimPrefix(name, ".")
}

func validateValue(v any, shape *Shape, name string, errs *[]string) {
	report := func(format string, args ...any) { *errs = append(*errs, fmt.Sprintf(format, args...)) }
	invalidType := func(valid string) {
		report("Invalid type for parameter %s, value: %s, type: %s, valid types: %s", fieldName(name), pyStrValue(v), pyType(v), valid)
	}
	// minCheck is range_check: what is "length" or "value".
	minCheck := func(n float64, what string) {
		if shape.Min != nil && n < *shape.Min {
			report("Invalid %s for parameter %s, value: %s, valid min %s: %s", what, fieldName(name), pyFloatOrInt(n), what, pyFloatOrInt(*shape.Min))
		}
	}
	switch shape.Type {
	case "structure":
		d, ok := v.(*Dict)
		if !ok {
			invalidType("<class 'dict'>")
			return
		}
		for _, r := range shape.Required {
			if _, ok := d.Get(r); !ok {
				report("Missing required parameter in %s: \"%s\"", fieldName(name), r)
			}
		}
		var known []string
		for _, k := range d.Keys() {
			if shape.member(k) == nil {
				names := make([]string, len(shape.Members))
				for i, m := range shape.Members {
					names[i] = m.Name
				}
				report("Unknown parameter in %s: \"%s\", must be one of: %s", fieldName(name), k, strings.Join(names, ", "))
			} else {
				known = append(known, k)
			}
		}
		for _, k := range known {
			mv, _ := d.Get(k)
			validateValue(mv, shape.member(k).Shape, name+"."+k, errs)
		}
	case "list":
		list, ok := v.([]any)
		if !ok {
			invalidType("<class 'list'>, <class 'tuple'>")
			return
		}
		minCheck(float64(len(list)), "length")
		for i, e := range list {
			validateValue(e, shape.Member.Shape, fmt.Sprintf("%s[%d]", name, i), errs)
		}
	case "map":
		d, ok := v.(*Dict)
		if !ok {
			invalidType("<class 'dict'>")
			return
		}
		for _, k := range d.Keys() {
			validateValue(k, shape.Key.Shape, fmt.Sprintf("%s (key: %s)", name, k), errs)
			mv, _ := d.Get(k)
			validateValue(mv, shape.Value.Shape, name+"."+k, errs)
		}
	case "string":
		s, ok := v.(string)
		if !ok {
			invalidType("<class 'str'>")
			return
		}
		minCheck(float64(len([]rune(s))), "length")
	case "integer", "long":
		n, ok := v.(int64)
		if !ok {
			if b, isBool := v.(bool); isBool {
				n, ok = map[bool]int64{true: 1}[b], true
			}
		}
		if !ok {
			invalidType("<class 'int'>")
			return
		}
		minCheck(float64(n), "value")
	case "float", "double":
		switch n := v.(type) {
		case float64:
			minCheck(n, "value")
		case int64:
			minCheck(float64(n), "value")
		default:
			invalidType("<class 'float'>, <class 'decimal.Decimal'>, <class 'int'>")
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			invalidType("<class 'bool'>")
		}
	case "blob":
		switch v.(type) {
		case string, []byte:
		default:
			invalidType("<class 'bytes'>, <class 'bytearray'>, file-like object")
		}
	case "timestamp":
		if _, err := parseTimestamp(v); err != nil {
			invalidType("<class 'datetime.datetime'>, timestamp-string")
		}
	}
}

// pyFloatOrInt prints a bound as Python does: an int as an int.
func pyFloatOrInt(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprint(int64(f))
	}
	return pyFloat(f)
}
