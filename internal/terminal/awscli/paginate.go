package awscli

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The CLI pages through the results of a listing for the user: it calls
// the operation again with the token of each answer until the listing
// ends, or until --max-items items; then it prints a NextToken, the base64
// of a JSON object holding the operation's own token and, when it cut a
// page short, how many of that page's items it printed
// ("boto_truncate_amount"). --starting-token takes it back. This is
// botocore's PageIterator.

// pager pages through one operation's results.
type pager struct {
	cl     *client
	op     *Operation
	cfg    *Paginator
	params *Dict // the call's parameters, which each page's token updates

	maxItems      *int64
	startingToken *string
	pageSize      any

	resumeToken  string // the NextToken to print; "" for none
	nonAggregate *Dict  // the first page's non-aggregate keys
}

func newPager(cl *client, op *Operation, cfg *Paginator, params, paging *Dict) (*pager, error) {
	p := &pager{cl: cl, op: op, cfg: cfg, params: params}
	if v, ok := paging.Get("MaxItems"); ok {
		n := v.(int64)
		p.maxItems = &n
	}
	if v, ok := paging.Get("StartingToken"); ok {
		s := v.(string)
		p.startingToken = &s
	}
	if v, ok := paging.Get("PageSize"); ok {
		if cfg.LimitKey == "" {
			return nil, &cliError{"Error during pagination: PageSize parameter is not supported for the pagination interface for this operation."}
		}
		if op.Input.Shape.member(cfg.LimitKey).Shape.Type == "string" {
			p.pageSize = pyStr(v)
		} else {
			p.pageSize = v
		}
	}
	return p, nil
}

// token is a pagination token: the input tokens (nil for None) and,
// when a page was cut short, how many of its items were kept.
type token struct {
	values   *Dict
	truncate *int64
}

// pages calls each page's operation and hands the page to fn, as the
// PageIterator yields it.
func (p *pager) pages(fn func(page *Dict) error) error {
	next := NewDict()
	for _, k := range p.cfg.InputTokens {
		next.Set(k, nil)
	}
	startTruncation := int64(0)
	if p.startingToken != nil {
		t, err := p.parseStartingToken()
		if err != nil {
			return err
		}
		next = t.values
		p.inject(next)
		if t.truncate != nil {
			startTruncation = *t.truncate
		}
	}
	if p.pageSize != nil {
		p.params.Set(p.cfg.LimitKey, p.pageSize)
	}
	primary := p.cfg.ResultKeys[0]
	var previous *Dict
	total := int64(0)
	for first := true; ; first = false {
		page, err := p.cl.call(p.op, p.params, "")
		if err != nil {
			return err
		}
		truncation := int64(0)
		if first {
			if p.startingToken != nil {
				truncation = startTruncation
				p.truncateStart(page, primary, truncation)
			}
			p.nonAggregate = NewDict()
			for _, k := range p.cfg.NonAggregateKeys {
				v, _ := search(page, k)
				p.nonAggregate.Set(k, v)
			}
		}
		items, _ := search(page, primary)
		n := int64(length(items))
		if p.maxItems != nil && total+n > *p.maxItems {
			keep := n - (total + n - *p.maxItems)
			list, _ := items.([]any)
			page.Set(primary, list[:keep])
			amount := keep + truncation
			next.Set("boto_truncate_amount", amount)
			p.resumeToken = encodeToken(next)
			return fn(page)
		}
		if err := fn(page); err != nil {
			return err
		}
		total += n
		if next, err = p.nextToken(page); err != nil {
			return err
		}
		done := true
		for _, k := range next.Keys() {
			if v, _ := next.Get(k); v != nil {
				done = false
			}
		}
		if done {
			return nil
		}
		if p.maxItems != nil && total == *p.maxItems {
			p.resumeToken = encodeToken(next)
			return nil
		}
		if previous != nil && sameToken(previous, next) {
			return &cliError{"Error during pagination: The same next token was received twice: " + pyRepr(next)}
		}
		p.inject(next)
		previous = next
	}
}

// truncateStart drops the items of the first page a starting token says
// were printed already, and empties the other result keys.
func (p *pager) truncateStart(page *Dict, primary string, n int64) {
	all, _ := search(page, primary)
	switch v := all.(type) {
	case []any:
		page.Set(primary, v[min(int(n), len(v)):])
	case string:
		page.Set(primary, string([]rune(v)[min(int(n), len([]rune(v))):]))
	default:
		page.Set(primary, nil)
	}
	for _, k := range p.cfg.ResultKeys[1:] {
		sample, _ := search(page, k)
		switch sample.(type) {
		case []any:
			page.Set(k, []any{})
		case string:
			page.Set(k, "")
		case int64, float64:
		default:
			page.Set(k, nil)
		}
	}
}

func length(v any) int {
	switch v := v.(type) {
	case []any:
		return len(v)
	case string:
		return len([]rune(v))
	case *Dict:
		return v.Len()
	}
	return 0
}

// inject puts a token into the parameters: its values, and no value for
// its None ones.
func (p *pager) inject(t *Dict) {
	for _, k := range t.Keys() {
		v, _ := t.Get(k)
		if v != nil && v != "None" {
			p.params.Set(k, v)
		} else {
			p.params.Delete(k)
		}
	}
}

// nextToken is the token of the next page, or an empty one at the end.
func (p *pager) nextToken(page *Dict) (*Dict, error) {
	next := NewDict()
	if p.cfg.MoreResults != "" {
		more, err := search(page, p.cfg.MoreResults)
		if err != nil {
			return nil, err
		}
		if isFalse(more) {
			return next, nil
		}
	}
	for i, out := range p.cfg.OutputTokens {
		v, err := search(page, out)
		if err != nil {
			return nil, err
		}
		if isFalse(v) {
			v = nil
		}
		next.Set(p.cfg.InputTokens[i], v)
	}
	return next, nil
}

// isFalse is Python's truthiness, negated.
func isFalse(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case string:
		return v == ""
	case int64:
		return v == 0
	case float64:
		return v == 0
	case []any:
		return len(v) == 0
	case *Dict:
		return v.Len() == 0
	}
	return false
}

func sameToken(a, b *Dict) bool { return pyRepr(a) == pyRepr(b) }

// encodeToken is botocore's TokenEncoder: json.dumps, then base64.
func encodeToken(t *Dict) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range t.Keys() {
		if i > 0 {
			b.WriteString(", ")
		}
		v, _ := t.Get(k)
		b.WriteString(asciiJSONString(k) + ": ")
		if s, ok := v.(string); ok {
			b.WriteString(asciiJSONString(s))
		} else {
			b.WriteString(pyJSONCompact(v))
		}
	}
	b.WriteByte('}')
	return base64.StdEncoding.EncodeToString([]byte(b.String()))
}

// parseStartingToken reads --starting-token: a token this CLI printed,
// or (as botocore falls back to) the operation's own token values joined
// by "___".
func (p *pager) parseStartingToken() (*token, error) {
	s := *p.startingToken
	if t := decodeToken(s); t != nil {
		return t, nil
	}
	parts := strings.Split(s, "___")
	t := &token{values: NewDict()}
	if len(parts) == len(p.cfg.InputTokens)+1 {
		if n, err := pyInt(parts[len(parts)-1]); err == nil {
			parts = parts[:len(parts)-1]
			t.truncate = &n
		} else {
			parts = []string{s}
		}
	}
	if len(parts) > len(p.cfg.InputTokens) {
		return nil, &cliError{"Bad starting token: " + s}
	}
	for i, k := range p.cfg.InputTokens {
		if i < len(parts) && parts[i] != "None" {
			t.values.Set(k, parts[i])
		} else {
			t.values.Set(k, nil)
		}
	}
	return t, nil
}

// decodeToken reads a base64 JSON token, or returns nil for one that
// is not.
func decodeToken(s string) *token {
	// Python's b64decode drops what is not of base64's alphabet.
	clean := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '/' || r == '=' {
			return r
		}
		return -1
	}, s)
	data, err := base64.StdEncoding.DecodeString(clean)
	if err != nil || !utf8.Valid(data) {
		return nil
	}
	v, err := pyJSONDecode(string(data))
	if err != nil {
		return nil
	}
	d, ok := v.(*Dict)
	if !ok {
		return nil
	}
	d.Delete("boto_encoded_keys")
	t := &token{values: d}
	if amount, ok := d.Get("boto_truncate_amount"); ok {
		d.Delete("boto_truncate_amount")
		switch n := amount.(type) {
		case int64:
			t.truncate = &n
		case string:
			if i, err := strconv.ParseInt(n, 10, 64); err == nil {
				t.truncate = &i
			}
		}
	}
	return t
}

// fullResult is build_full_result: the result keys of every page joined,
// the first page's non-aggregate keys, and the NextToken.
func (p *pager) fullResult() (*Dict, error) {
	full := NewDict()
	err := p.pages(func(page *Dict) error {
		for _, k := range p.cfg.ResultKeys {
			v, _ := search(page, k)
			if v == nil {
				continue
			}
			existing, ok := full.Get(k)
			if !ok || existing == nil {
				full.Set(k, v)
				continue
			}
			switch v := v.(type) {
			case []any:
				full.Set(k, append(existing.([]any), v...))
			case int64:
				full.Set(k, existing.(int64)+v)
			case string:
				full.Set(k, existing.(string)+v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, k := range p.nonAggregate.Keys() {
		v, _ := p.nonAggregate.Get(k)
		full.Set(k, v)
	}
	if p.resumeToken != "" {
		full.Set("NextToken", p.resumeToken)
	}
	return full, nil
}
