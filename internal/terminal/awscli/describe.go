package awscli

import "strings"

// Invocation is what an aws command line asks for, whatever its
// spelling: its command, its operation (or aws s3's subcommand), and the
// options given, by their full names, as the CLI read them. Exercises
// check it rather than the line.
type Invocation struct {
	Command   string `json:"command"`   // "s3api" or "s3"
	Operation string `json:"operation"` // "list-object-versions", "cp"
	// Options are the options given, by name without dashes: a string,
	// a list of strings (options that take several), true or false (a
	// flag, false for its --no- form); the positional arguments are under
	// their names ("outfile", "paths", "path"), and aws s3's --include and
	// --exclude under "filters", in order.
	Options map[string]any `json:"options"`
	// Globals are the global options given (output, query, …).
	Globals map[string]any `json:"globals"`
}

// Describe reads an aws command line (the words after "aws") as the CLI
// does, without running it. Its error is what the CLI would print for a
// line it refuses to read.
func Describe(args []string) (*Invocation, error) {
	gp := globalParser()
	globals, rest, err := gp.parseKnownArgs(args)
	if err != nil {
		return nil, err
	}
	inv := &Invocation{Globals: given(gp, globals), Options: map[string]any{}}
	inv.Command, _ = globals.str("command")
	var p *argParser
	switch inv.Command {
	case "s3api":
		m, err := s3Model()
		if err != nil {
			return nil, &cliError{err.Error()}
		}
		svc := &argParser{}
		svc.add(&argAction{dest: "operation", required: true})
		ns, opArgs, err := svc.parseKnownArgs(rest)
		if err != nil {
			return nil, err
		}
		inv.Operation, _ = ns.str("operation")
		op := m.Operation(inv.Operation)
		if op == nil {
			return nil, &cliError{"aws s3api has no operation " + inv.Operation}
		}
		p = &argParser{}
		for _, a := range argTable(m, op) {
			p.add(a.action)
		}
		rest = opArgs
	case "s3":
		top := &argParser{}
		top.add(&argAction{dest: "subcommand", nargs: nargsOptional})
		ns, subArgs, err := top.parseKnownArgs(rest)
		if err != nil {
			return nil, err
		}
		inv.Operation, _ = ns.str("subcommand")
		for _, sc := range s3Subcommands {
			if sc.name == inv.Operation {
				p = &argParser{}
				for _, a := range sc.args {
					p.add(a.action())
				}
			}
		}
		if p == nil {
			return nil, &cliError{"aws s3 has no command " + inv.Operation}
		}
		rest = subArgs
	default:
		return inv, nil
	}
	ns, extras, err := p.parseKnownArgs(rest)
	if err != nil {
		return nil, err
	}
	if len(extras) > 0 {
		return nil, &unknownOptions{extras}
	}
	inv.Options = given(p, ns)
	return inv, nil
}

// given are the arguments a line gave, by name.
func given(p *argParser, ns parsed) map[string]any {
	out := map[string]any{}
	for _, a := range p.actions {
		v, ok := ns[a.dest]
		if !ok || v == nil || a.dest == "command" || sameScalar(v, a.def) {
			continue
		}
		name := strings.TrimPrefix(a.option, "--")
		if a.option == "" || a.kind == actionAppendFilter {
			name = a.dest
		}
		if a.nargs == nargsNone {
			b, _ := v.(bool)
			if b != a.constant {
				continue
			}
			name = strings.TrimPrefix(name, "no-")
		}
		out[name] = v
	}
	return out
}

// sameScalar reports whether v and def are the same string, number or
// boolean.
func sameScalar(v, def any) bool {
	switch v := v.(type) {
	case string, bool, int64, float64:
		return v == def
	}
	return false
}
