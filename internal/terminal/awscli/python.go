package awscli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Python's text of values, where the CLI's messages show them.

// pyRepr is Python's repr(v).
func pyRepr(v any) string {
	switch v := v.(type) {
	case string:
		return pyReprString(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *Dict:
		parts := make([]string, len(v.keys))
		for i, k := range v.keys {
			if v.ordered {
				parts[i] = "(" + pyReprString(k) + ", " + pyRepr(v.values[i]) + ")"
			} else {
				parts[i] = pyReprString(k) + ": " + pyRepr(v.values[i])
			}
		}
		if v.ordered {
			if len(parts) == 0 {
				return "OrderedDict()"
			}
			return "OrderedDict([" + strings.Join(parts, ", ") + "])"
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return pyStr(v)
}

// pyStrValue is Python's str(v): a string as it is, anything else as its
// repr.
func pyStrValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}

// pyType is Python's str(type(v)).
func pyType(v any) string {
	switch v := v.(type) {
	case nil:
		return "<class 'NoneType'>"
	case bool:
		return "<class 'bool'>"
	case int64:
		return "<class 'int'>"
	case float64:
		return "<class 'float'>"
	case string:
		return "<class 'str'>"
	case []any:
		return "<class 'list'>"
	case *Dict:
		if v.ordered {
			return "<class 'collections.OrderedDict'>"
		}
		return "<class 'dict'>"
	}
	return fmt.Sprintf("<class '%T'>", v)
}

// pyReprString is repr of a str: single quotes unless it holds a single
// quote and no double quote, and escapes for what is not printable.
func pyReprString(s string) string {
	quote := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case !isPrintable(r):
			switch {
			case r <= 0xff:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r <= 0xffff:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// isPrintable approximates Python's str.isprintable for one character:
// not a control, format or separator character, of those a name or a key
// may hold.
func isPrintable(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0, r == 0xad, r >= 0x200b && r <= 0x200f,
		r >= 0x2028 && r <= 0x202e, r >= 0x2060 && r <= 0x2064, r == 0xfeff, r >= 0xd800 && r <= 0xdfff:
		return false
	}
	return true
}

// pyInt is Python's int(s): an optional sign, digits (underscores between
// them allowed), spaces around. Its error is Python's ValueError text.
func pyInt(s string) (int64, error) {
	t := strings.TrimSpace(s)
	digits := strings.TrimLeft(t, "+-")
	ok := len(t)-len(digits) <= 1 && digits != "" && !strings.HasPrefix(digits, "_") && !strings.HasSuffix(digits, "_") && !strings.Contains(digits, "__")
	if ok {
		if n, err := strconv.ParseInt(strings.ReplaceAll(t, "_", ""), 10, 64); err == nil {
			return n, nil
		}
	}
	return 0, fmt.Errorf("invalid literal for int() with base 10: %s", pyReprString(s))
}

// pyFloatParse is Python's float(s).
func pyFloatParse(s string) (float64, error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(strings.TrimLeft(t, "+-")) {
	case "inf", "infinity", "nan":
	default:
		if strings.ContainsAny(t, "xXpP") {
			t = "!"
		}
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, fmt.Errorf("could not convert string to float: %s", pyReprString(s))
	}
	return f, nil
}

// closeMatches is difflib.get_close_matches(word, possibilities, n,
// cutoff): the possibilities most like word, best first.
func closeMatches(word string, possibilities []string, n int, cutoff float64) []string {
	type scored struct {
		score float64
		s     string
	}
	var found []scored
	for _, p := range possibilities {
		if r := similarity(p, word); r >= cutoff {
			found = append(found, scored{r, p})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].score != found[j].score {
			return found[i].score > found[j].score
		}
		return found[i].s > found[j].s
	})
	var out []string
	for i := 0; i < len(found) && i < n; i++ {
		out = append(out, found[i].s)
	}
	return out
}

// similarity is difflib.SequenceMatcher(None, a, b).ratio(): twice the
// characters of the matching blocks over the length of both.
func similarity(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra)+len(rb) == 0 {
		return 1
	}
	return 2 * float64(matchingChars(ra, rb)) / float64(len(ra)+len(rb))
}

// matchingChars sums the matching blocks as SequenceMatcher finds them:
// the longest match (the earliest in a, then in b, of the longest), then
// the same on each side of it.
func matchingChars(a, b []rune) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	besti, bestj, best := 0, 0, 0
	prev := map[int]int{}
	for i := range a {
		cur := map[int]int{}
		for j := range b {
			if b[j] != a[i] {
				continue
			}
			k := prev[j-1] + 1
			cur[j] = k
			if k > best {
				besti, bestj, best = i-k+1, j-k+1, k
			}
		}
		prev = cur
	}
	if best == 0 {
		return 0
	}
	return best + matchingChars(a[:besti], b[:bestj]) + matchingChars(a[besti+best:], b[bestj+best:])
}
