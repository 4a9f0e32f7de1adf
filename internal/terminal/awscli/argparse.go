package awscli

import (
	"fmt"
	"strconv"
	"strings"
)

// The aws CLI reads its command line with Python's argparse, three times:
// the global options and the command (aws s3api), the operation
// (list-object-versions), then the operation's own options. This file
// reads a command line the way argparse (Python 3.11) does, so that the
// same lines are accepted and the same ones refused, with the same
// messages: options given as --name value or --name=value, a unique
// prefix of an option's name standing for it, "--" ending the options,
// and options and positional arguments in any order.

// actionKind is what an argument does with its values.
type actionKind int

const (
	actionStore        actionKind = iota // keep the value
	actionAppend                         // add the value to a list
	actionAppendFilter                   // add [option, value] to a list (aws s3's --include, --exclude)
)

// nargs is how many values an argument takes: one of these, or a number
// ("1", "2") for exactly that many in a list.
type nargs string

const (
	nargsOne      nargs = ""  // exactly one
	nargsOptional nargs = "?" // zero or one
	nargsAny      nargs = "*" // zero or more
	nargsSome     nargs = "+" // one or more
	nargsNone     nargs = "0" // a flag
)

// argAction is one argument of a parser.
type argAction struct {
	kind     actionKind
	option   string // "--bucket"; "" for a positional argument
	dest     string // where its value goes
	nargs    nargs
	constant any // a flag's value
	def      any // the value when absent
	required bool
	choices  []string
	// convert reads one value; its error is argparse's "invalid int value".
	convert func(string) (any, error)
	version string // set: --version, which prints this and stops
}

func (a *argAction) name() string {
	if a.option != "" {
		return a.option
	}
	return a.dest
}

// argParser is an argparse.ArgumentParser.
type argParser struct {
	actions []*argAction
}

func (p *argParser) add(a *argAction) *argAction {
	p.actions = append(p.actions, a)
	return a
}

// usageError is an error argparse reports with the usage text: exit
// status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// versionExit is --version: print the version, exit 0.
type versionExit struct{ text string }

func (e *versionExit) Error() string { return e.text }

func argError(a *argAction, format string, args ...any) error {
	return &usageError{fmt.Sprintf("argument %s: %s", a.name(), fmt.Sprintf(format, args...))}
}

// optionRef is what an option string on the command line names.
type optionRef struct {
	action   *argAction // nil: an option this parser does not know
	option   string
	explicit *string // the value after "="
}

// isNegativeNumber is argparse's ^-\d+$|^-\d*\.\d+$.
func isNegativeNumber(s string) bool {
	digits := func(t string) bool { return strings.Trim(t, "0123456789") == "" }
	if !strings.HasPrefix(s, "-") || len(s) < 2 {
		return false
	}
	whole, frac, dot := strings.Cut(s[1:], ".")
	if !dot {
		return digits(whole)
	}
	return digits(whole) && frac != "" && digits(frac)
}

// parseOptional says whether arg is an option and which.
func (p *argParser) parseOptional(arg string) (*optionRef, error) {
	if arg == "" || arg[0] != '-' {
		return nil, nil
	}
	if a := p.option(arg); a != nil {
		return &optionRef{action: a, option: arg}, nil
	}
	if len(arg) == 1 {
		return nil, nil
	}
	if name, value, ok := strings.Cut(arg, "="); ok {
		if a := p.option(name); a != nil {
			return &optionRef{action: a, option: name, explicit: &value}, nil
		}
	}
	refs := p.prefixMatches(arg)
	if len(refs) > 1 {
		names := make([]string, len(refs))
		for i, r := range refs {
			names[i] = r.option
		}
		return nil, &usageError{fmt.Sprintf("ambiguous option: %s could match %s", arg, strings.Join(names, ", "))}
	}
	if len(refs) == 1 {
		return refs[0], nil
	}
	if isNegativeNumber(arg) || strings.Contains(arg, " ") {
		return nil, nil
	}
	return &optionRef{option: arg}, nil
}

func (p *argParser) option(name string) *argAction {
	for _, a := range p.actions {
		if a.option != "" && a.option == name {
			return a
		}
	}
	return nil
}

// prefixMatches are the options arg abbreviates.
func (p *argParser) prefixMatches(arg string) []*optionRef {
	var refs []*optionRef
	if !strings.HasPrefix(arg, "--") {
		// Single-dash options: this CLI has none.
		return nil
	}
	prefix, value, hasValue := strings.Cut(arg, "=")
	for _, a := range p.actions {
		if a.option != "" && strings.HasPrefix(a.option, prefix) {
			r := &optionRef{action: a, option: a.option}
			if hasValue {
				v := value
				r.explicit = &v
			}
			refs = append(refs, r)
		}
	}
	return refs
}

// The nargs of each argument stand for a regular expression over the
// strings' kinds (A an argument, O an option, - the "--" marker), as in
// argparse: exactly one A, at most one, any number, at least one, or a
// count, with - allowed around them for a positional argument.

// accepts reports whether a takes exactly the strings of kinds g.
func (a *argAction) accepts(g string) bool {
	if a.option == "" {
		g = strings.TrimLeft(g, "-")
	} else if strings.Contains(g, "-") {
		return false
	}
	switch a.nargs {
	case nargsNone:
		return strings.Trim(g, "-") == ""
	case nargsOne:
		return strings.TrimRight(g, "-") == "A"
	case nargsOptional:
		t := strings.TrimRight(g, "-")
		return t == "" || t == "A"
	case nargsAny:
		return !strings.Contains(g, "O")
	case nargsSome:
		return strings.HasPrefix(g, "A") && !strings.Contains(g, "O")
	}
	n, _ := strconv.Atoi(string(a.nargs))
	return (n == 0 || strings.HasPrefix(g, "A")) && !strings.Contains(g, "O") && strings.Count(g, "A") == n
}

// matchArgument is how many of the strings whose kinds pattern lists a
// takes: the most it accepts.
func matchArgument(a *argAction, pattern string) (int, error) {
	for n := len(pattern); n >= 0; n-- {
		if a.accepts(pattern[:n]) {
			return n, nil
		}
	}
	switch a.nargs {
	case nargsOne:
		return 0, argError(a, "expected one argument")
	case nargsOptional:
		return 0, argError(a, "expected at most one argument")
	case nargsAny, nargsSome:
		return 0, argError(a, "expected at least one argument")
	}
	n, _ := strconv.Atoi(string(a.nargs))
	if n == 1 {
		return 0, argError(a, "expected one argument")
	}
	return 0, argError(a, "expected %d arguments", n)
}

// matchPartial is how many strings each of the first positionals takes,
// for as many of them as can be matched, each taking as many as it can
// while the others still match.
func matchPartial(positionals []*argAction, pattern string) []int {
	for i := len(positionals); i > 0; i-- {
		if counts, ok := matchSequence(positionals[:i], pattern); ok {
			return counts
		}
	}
	return nil
}

func matchSequence(actions []*argAction, pattern string) ([]int, bool) {
	if len(actions) == 0 {
		return nil, true
	}
	for n := len(pattern); n >= 0; n-- {
		if !actions[0].accepts(pattern[:n]) {
			continue
		}
		if rest, ok := matchSequence(actions[1:], pattern[n:]); ok {
			return append([]int{n}, rest...), true
		}
	}
	return nil, false
}

// parsed is argparse's namespace: each argument's value by dest.
type parsed map[string]any

func (ns parsed) str(dest string) (string, bool) {
	s, ok := ns[dest].(string)
	return s, ok
}

// parseKnownArgs is ArgumentParser.parse_known_args: the values of the
// arguments it knows, and the strings it does not.
func (p *argParser) parseKnownArgs(args []string) (parsed, []string, error) {
	ns := parsed{}
	for _, a := range p.actions {
		if _, set := ns[a.dest]; !set && a.version == "" {
			ns[a.dest] = a.def
		}
	}
	// The pattern: O for an option, A for anything else, - for "--".
	refs := map[int]*optionRef{}
	var pattern strings.Builder
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			pattern.WriteByte('-')
			for i++; i < len(args); i++ {
				pattern.WriteByte('A')
			}
			break
		}
		ref, err := p.parseOptional(args[i])
		if err != nil {
			return nil, nil, err
		}
		if ref == nil {
			pattern.WriteByte('A')
		} else {
			refs[i] = ref
			pattern.WriteByte('O')
		}
	}
	pat := pattern.String()
	seen := map[*argAction]bool{}
	var extras []string

	take := func(a *argAction, values []string, option string) error {
		seen[a] = true
		v, err := p.values(a, values)
		if err != nil {
			return err
		}
		if a.version != "" {
			return &versionExit{a.version}
		}
		switch a.kind {
		case actionAppend:
			list, _ := ns[a.dest].([]any)
			ns[a.dest] = append(list, v)
		case actionAppendFilter:
			list, _ := ns[a.dest].([]any)
			first := v
			if l, ok := v.([]any); ok && len(l) > 0 {
				first = l[0]
			}
			ns[a.dest] = append(list, []any{option, first})
		default:
			ns[a.dest] = v
		}
		return nil
	}
	consumeOptional := func(start int) (int, error) {
		ref := refs[start]
		if ref.action == nil {
			extras = append(extras, args[start])
			return start + 1, nil
		}
		if ref.explicit != nil {
			n, _ := matchArgument(ref.action, "A")
			if n != 1 {
				return 0, argError(ref.action, "ignored explicit argument %s", pyRepr(*ref.explicit))
			}
			return start + 1, take(ref.action, []string{*ref.explicit}, ref.option)
		}
		n, err := matchArgument(ref.action, pat[start+1:])
		if err != nil {
			return 0, err
		}
		return start + 1 + n, take(ref.action, args[start+1:start+1+n], ref.option)
	}
	var positionals []*argAction
	for _, a := range p.actions {
		if a.option == "" {
			positionals = append(positionals, a)
		}
	}
	consumePositionals := func(start int) (int, error) {
		counts := matchPartial(positionals, pat[start:])
		for i, n := range counts {
			if err := take(positionals[i], args[start:start+n], ""); err != nil {
				return 0, err
			}
			start += n
		}
		positionals = positionals[len(counts):]
		return start, nil
	}

	maxOption := -1
	for i := range refs {
		maxOption = max(maxOption, i)
	}
	start := 0
	for start <= maxOption {
		next := len(args)
		for i := range refs {
			if i >= start && i < next {
				next = i
			}
		}
		if start != next {
			end, err := consumePositionals(start)
			if err != nil {
				return nil, nil, err
			}
			if end > start {
				start = end
				continue
			}
			start = end
		}
		if _, ok := refs[start]; !ok {
			extras = append(extras, args[start:next]...)
			start = next
		}
		var err error
		if start, err = consumeOptional(start); err != nil {
			return nil, nil, err
		}
	}
	stop, err := consumePositionals(start)
	if err != nil {
		return nil, nil, err
	}
	extras = append(extras, args[stop:]...)

	var missing []string
	for _, a := range p.actions {
		if !seen[a] && a.required {
			missing = append(missing, a.name())
		}
	}
	if len(missing) > 0 {
		return nil, nil, &usageError{"the following arguments are required: " + strings.Join(missing, ", ")}
	}
	return ns, extras, nil
}

// values converts the strings an argument took, as argparse's _get_values.
func (p *argParser) values(a *argAction, strs []string) (any, error) {
	if a.nargs != nargsNone {
		for i, s := range strs {
			if s == "--" {
				strs = append(strs[:i:i], strs[i+1:]...)
				break
			}
		}
	}
	switch {
	case a.nargs == nargsNone:
		return a.constant, nil
	case len(strs) == 0 && a.nargs == nargsOptional:
		if a.option != "" {
			return a.constant, nil
		}
		return a.def, nil
	case len(strs) == 0 && a.nargs == nargsAny && a.option == "":
		return []any{}, nil
	case len(strs) == 1 && (a.nargs == nargsOne || a.nargs == nargsOptional):
		return p.value(a, strs[0])
	}
	list := make([]any, len(strs))
	for i, s := range strs {
		v, err := p.value(a, s)
		if err != nil {
			return nil, err
		}
		list[i] = v
	}
	return list, nil
}

func (p *argParser) value(a *argAction, s string) (any, error) {
	var v any = s
	if a.convert != nil {
		var err error
		if v, err = a.convert(s); err != nil {
			return nil, argError(a, "%s", err.Error())
		}
	}
	if a.choices != nil {
		if str, ok := v.(string); !ok || !contains(a.choices, str) {
			return nil, argError(a, "%s", invalidChoice(s, a.choices))
		}
	}
	return v, nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// invalidChoice is the CLI's message for a value not among choices: the
// choices two to a line, each padded to 40 characters, and the close
// matches.
func invalidChoice(value string, choices []string) string {
	var b strings.Builder
	b.WriteString("Invalid choice, valid choices are:\n")
	for i := 0; i < len(choices); i += 2 {
		b.WriteByte('\n')
		var line []string
		for _, c := range choices[i:min(i+2, len(choices))] {
			line = append(line, fmt.Sprintf("%-40s", c))
		}
		b.WriteString(strings.Join(line, " | "))
	}
	if close := closeMatches(value, choices, 3, 0.8); len(close) > 0 {
		b.WriteString("\n\n\nInvalid choice: " + pyRepr(value) + ", maybe you meant:\n")
		for _, c := range close {
			b.WriteString("\n  * " + c)
		}
	}
	return b.String()
}
