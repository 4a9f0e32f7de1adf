package awscli

import (
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/jmespath/go-jmespath"
)

// display prints a result (or the pages of a paginated call) in the
// format --output asks for, through --query.
func (c *cli) display(result *Dict, pages *pager) error {
	var q *query
	if s, ok := c.globals.str("query"); ok {
		q, _ = compileQuery(s)
	}
	switch c.output() {
	case "text":
		if pages == nil {
			formatText(&c.stdout, q.apply(result))
			return nil
		}
		first := true
		err := pages.pages(func(page *Dict) error {
			current := NewDict()
			if first {
				current = pages.nonAggregate
				first = false
			}
			for _, k := range pages.cfg.ResultKeys {
				v, _ := search(page, k)
				current.Set(k, v)
			}
			formatText(&c.stdout, q.apply(current))
			return nil
		})
		if err != nil {
			return err
		}
		if pages.resumeToken != "" {
			inner := NewDict()
			inner.Set("NextToken", pages.resumeToken)
			outer := NewDict()
			outer.Set("NextToken", inner)
			formatText(&c.stdout, q.apply(outer))
		}
		return nil
	case "table":
		return &cliError{"--output table is not available in MiniS3's terminal: use --output json or --output text."}
	}
	if pages != nil {
		full, err := pages.fullResult()
		if err != nil {
			return err
		}
		result = full
	}
	v := q.apply(result)
	if d, ok := v.(*Dict); ok && d.Len() == 0 {
		return nil
	}
	writePyJSON(&c.stdout, v, 0)
	c.stdout.WriteByte('\n')
	return nil
}

// formatText is the CLI's text output: a line of tab-separated scalars
// per object (its keys sorted), headed by the upper-cased name it is
// under, then its lists and objects, each the same way.
func formatText(b *strings.Builder, v any) {
	formatTextItem(b, v, "", nil)
}

func formatTextItem(b *strings.Builder, v any, identifier string, scalarKeys []string) {
	switch v := v.(type) {
	case *Dict:
		formatTextDict(b, v, identifier, scalarKeys)
	case []any:
		formatTextList(b, v, identifier)
	default:
		b.WriteString(pyStrValue(v) + "\n")
	}
}

func isScalar(v any) bool {
	switch v.(type) {
	case *Dict, []any:
		return false
	}
	return true
}

func formatTextList(b *strings.Builder, list []any, identifier string) {
	if len(list) == 0 {
		return
	}
	hasDict, hasList := false, false
	for _, e := range list {
		switch e.(type) {
		case *Dict:
			hasDict = true
		case []any:
			hasList = true
		}
	}
	switch {
	case hasDict:
		keys := map[string]bool{}
		for _, e := range list {
			if d, ok := e.(*Dict); ok {
				for _, k := range d.Keys() {
					if v, _ := d.Get(k); isScalar(v) {
						keys[k] = true
					}
				}
			}
		}
		all := sortedSet(keys)
		for _, e := range list {
			formatTextItem(b, e, identifier, all)
		}
	case hasList:
		var scalars, others []any
		for _, e := range list {
			if isScalar(e) {
				scalars = append(scalars, e)
			} else {
				others = append(others, e)
			}
		}
		if len(scalars) > 0 {
			formatScalarList(b, scalars, identifier)
		}
		for _, e := range others {
			formatTextItem(b, e, identifier, nil)
		}
	default:
		formatScalarList(b, list, identifier)
	}
}

func formatScalarList(b *strings.Builder, list []any, identifier string) {
	if identifier != "" {
		for _, e := range list {
			b.WriteString(strings.ToUpper(identifier) + "\t" + pyStrValue(e) + "\n")
		}
		return
	}
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = pyStrValue(e)
	}
	b.WriteString(strings.Join(parts, "\t") + "\n")
}

func formatTextDict(b *strings.Builder, d *Dict, identifier string, scalarKeys []string) {
	var scalars []string
	type named struct {
		key string
		v   any
	}
	var others []named
	if scalarKeys == nil {
		keys := append([]string(nil), d.Keys()...)
		sort.Strings(keys)
		for _, k := range keys {
			v, _ := d.Get(k)
			if isScalar(v) {
				scalars = append(scalars, pyStrValue(v))
			} else {
				others = append(others, named{k, v})
			}
		}
	} else {
		for _, k := range scalarKeys {
			v, ok := d.Get(k)
			if !ok {
				v = ""
			}
			scalars = append(scalars, pyStrValue(v))
		}
		var rest []string
		for _, k := range d.Keys() {
			if !slices.Contains(scalarKeys, k) {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		for _, k := range rest {
			v, _ := d.Get(k)
			others = append(others, named{k, v})
		}
	}
	if len(scalars) > 0 {
		if identifier != "" {
			scalars = append([]string{strings.ToUpper(identifier)}, scalars...)
		}
		b.WriteString(strings.Join(scalars, "\t") + "\n")
	}
	for _, o := range others {
		formatTextItem(b, o.v, o.key, nil)
	}
}

func sortedSet(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// query is a compiled --query: a JMESPath expression (go-jmespath), with
// what is needed to give its objects the key order Python's JMESPath
// gives them: that of the object they come from, or of the expression's
// multiselect hash.
type query struct {
	jp     *jmespath.JMESPath
	hashes [][]string // each multiselect hash's keys, in order
}

func compileQuery(expr string) (*query, error) {
	expr = legacyLiterals(expr)
	jp, err := jmespath.Compile(expr)
	if err != nil {
		return nil, err
	}
	ast, _ := jmespath.NewParser().Parse(expr)
	return &query{jp: jp, hashes: multiselectKeys(ast.PrettyPrint(0))}, nil
}

// legacyLiterals rewrites the literals that are not JSON (`demo`) as the
// JSON strings Python's JMESPath reads them as ("demo"), which
// go-jmespath refuses.
func legacyLiterals(expr string) string {
	var b strings.Builder
	rs := []rune(expr)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		if c == '\'' || c == '"' {
			j := i + 1
			for j < len(rs) && rs[j] != c {
				if rs[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(rs))
			b.WriteString(string(rs[i:end]))
			i = end - 1
			continue
		}
		if c != '`' {
			b.WriteRune(c)
			continue
		}
		j := i + 1
		for j < len(rs) && rs[j] != '`' {
			if rs[j] == '\\' && j+1 < len(rs) && rs[j+1] == '`' {
				j++
			}
			j++
		}
		if j >= len(rs) {
			b.WriteString(string(rs[i:]))
			break
		}
		lexeme := strings.ReplaceAll(string(rs[i+1:j]), "\\`", "`")
		if _, err := pyJSONDecode(lexeme); err != nil {
			quoted := `"` + strings.TrimLeftFunc(lexeme, pyIsSpace) + `"`
			if v, err := pyJSONDecode(quoted); err == nil {
				b.WriteString("`" + strings.ReplaceAll(asciiJSONString(v.(string)), "`", "\\`") + "`")
				i = j
				continue
			}
		}
		b.WriteString(string(rs[i : j+1]))
		i = j
	}
	return b.String()
}

// multiselectKeys reads the keys of every multiselect hash from
// go-jmespath's printed syntax tree.
func multiselectKeys(tree string) [][]string {
	lines := strings.Split(tree, "\n")
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	var out [][]string
	for i, l := range lines {
		if strings.TrimSpace(l) != "ASTMultiSelectHash {" {
			continue
		}
		base := indent(l)
		var keys []string
		for j := i + 1; j < len(lines) && indent(lines[j]) > base; j++ {
			if indent(lines[j]) == base+4 && strings.TrimSpace(lines[j]) == "ASTKeyValPair {" && j+1 < len(lines) {
				if v, ok := strings.CutPrefix(strings.TrimSpace(lines[j+1]), "value: "); ok {
					if k, err := strconv.Unquote(v); err == nil {
						keys = append(keys, k)
					}
				}
			}
		}
		out = append(out, keys)
	}
	return out
}

// apply is the query's result on v; no query gives v.
func (q *query) apply(v any) any {
	if q == nil {
		return v
	}
	conv := &converter{dicts: map[uintptr]*Dict{}}
	out, err := q.jp.Search(conv.toJMESPath(v))
	if err != nil {
		return nil
	}
	return conv.fromJMESPath(out, q.hashes)
}

// search is a JMESPath search of v, for the paginators' expressions.
func search(v *Dict, expr string) (any, error) {
	if isIdentifier(expr) {
		r, _ := v.Get(expr)
		return r, nil
	}
	q, err := compileQuery(expr)
	if err != nil {
		return nil, err
	}
	return q.apply(v), nil
}

// isIdentifier reports whether expr is a plain JMESPath field name.
func isIdentifier(expr string) bool {
	for i, c := range expr {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return expr != ""
}

// converter turns values into go-jmespath's (maps, float64 numbers) and
// back, remembering which map stands for which Dict.
type converter struct {
	dicts map[uintptr]*Dict
}

func (c *converter) toJMESPath(v any) any {
	switch v := v.(type) {
	case *Dict:
		m := make(map[string]any, v.Len())
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			m[k] = c.toJMESPath(e)
		}
		c.dicts[reflect.ValueOf(m).Pointer()] = v
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = c.toJMESPath(e)
		}
		return out
	case int64:
		return float64(v)
	case []byte:
		return string(v)
	}
	return v
}

func (c *converter) fromJMESPath(v any, hashes [][]string) any {
	switch v := v.(type) {
	case map[string]any:
		if d, ok := c.dicts[reflect.ValueOf(v).Pointer()]; ok {
			return d
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, h := range hashes {
			if sameKeys(h, keys) {
				keys = h
				break
			}
		}
		d := NewDict()
		for _, k := range keys {
			d.Set(k, c.fromJMESPath(v[k], hashes))
		}
		return d
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = c.fromJMESPath(e, hashes)
		}
		return out
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v)
		}
		return v
	}
	return v
}

// sameKeys reports whether the hash's keys are those of a sorted list.
func sameKeys(hash, sorted []string) bool {
	if len(hash) != len(sorted) {
		return false
	}
	h := append([]string(nil), hash...)
	sort.Strings(h)
	for i := range h {
		if h[i] != sorted[i] {
			return false
		}
	}
	return true
}
