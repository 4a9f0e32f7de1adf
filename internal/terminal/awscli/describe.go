package awscli

import "strings"

// Invocation is what an aws command line asks for, whatever its
// spelling: its command, its operation (or aws s3's subcommand), and the
// options given, by their full names, with the values the CLI sends.
// Exercises check it rather than the line.
type Invocation struct {
	Command   string `json:"command"`   // "s3api" or "s3"
	Operation string `json:"operation"` // "list-object-versions", "cp"
	// Options are the options given, by name without dashes, each with
	// the value the CLI makes of it: a file://… value is the file's
	// content, and a structure, map or list is the parameter the CLI
	// reads from its shorthand or JSON, with its keys in order (so
	// Status=Enabled and '{"Status": "Enabled"}' are the same value);
	// a number is a number, a flag true or false (false for its --no-
	// form), another value the string given. The positional arguments
	// are under their names ("outfile", "paths", "path"), and aws s3's
	// --include and --exclude under "filters", in order; a streaming body
	// (--body) is the file's name.
	Options map[string]any `json:"options"`
	// Globals are the global options given (output, query, …).
	Globals map[string]any `json:"globals"`
}

// Describe reads an aws command line (the words after "aws") as the CLI
// does, without running it, with the files its file://… values name in
// files. Its error is what the CLI would print for a line it refuses to
// read, or whose parameters it refuses to send.
func Describe(args []string, files Files) (*Invocation, error) {
	c := &cli{env: &Env{Files: files}}
	gp := globalParser()
	globals, rest, err := gp.parseKnownArgs(args)
	if err != nil {
		return nil, err
	}
	inv := &Invocation{Globals: given(gp, globals), Options: map[string]any{}}
	inv.Command, _ = globals.str("command")
	var p *argParser
	var op *Operation // aws s3api's
	var table []*opArg
	var s3Table []s3Arg
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
		op = m.Operation(inv.Operation)
		if op == nil {
			return nil, &cliError{"aws s3api has no operation " + inv.Operation}
		}
		table = argTable(m, op)
		p = &argParser{}
		for _, a := range table {
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
				s3Table = sc.args
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
	if op != nil {
		err = c.readParameters(op, table, ns)
	} else {
		err = c.readS3Values(s3Table, ns)
	}
	if err != nil {
		return nil, err
	}
	inv.Options = given(p, ns)
	return inv, nil
}

// readParameters replaces the value of each member argument in ns by the
// parameter the CLI makes of it (a streaming body's file name aside), and
// checks the parameters as botocore does before it sends them.
func (c *cli) readParameters(op *Operation, table []*opArg, ns parsed) error {
	params := NewDict()
	for _, a := range table {
		v := ns[a.action.dest]
		if a.kind != argMember || v == nil || a.member.traits().Streaming {
			continue
		}
		value, err := c.parameter(a, v)
		if err != nil {
			return err
		}
		params.Set(a.member.Name, value)
		ns[a.action.dest] = value
	}
	if _, err := beforeParameterBuild(op, params); err != nil {
		return err
	}
	if op.Input == nil {
		return nil
	}
	return validate(params, op.Input.Shape)
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
		out[name] = plain(v)
	}
	return out
}

// plain is a value as JSON-comparable data: a dict becomes a map, whose
// keys encoding/json writes in order, whatever order they were given in.
func plain(v any) any {
	switch v := v.(type) {
	case *Dict:
		m := make(map[string]any, v.Len())
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			m[k] = plain(e)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	}
	return v
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
