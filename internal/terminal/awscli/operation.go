package awscli

import (
	"strings"
	"unicode/utf8"
)

// An operation's arguments are those of its input shape (--bucket for
// Bucket, --no-… beside each boolean) and the CLI's own: the output file
// of an operation with a streaming body, the pagination options, and
// --cli-input-json and --generate-cli-skeleton.

// argKind says how an operation argument becomes a parameter.
type argKind int

const (
	argMember   argKind = iota // a member of the input shape
	argOutfile                 // the file a streaming body goes to
	argPaging                  // --starting-token, --page-size, --max-items
	argSkeleton                // --cli-input-json, --generate-cli-skeleton
)

// opArg is one argument of an operation.
type opArg struct {
	name   string // the CLI's name: "version-id"
	kind   argKind
	member *Ref   // argMember
	param  string // argPaging: StartingToken, PageSize or MaxItems
	action *argAction
}

func (a *opArg) cliName() string {
	if a.kind == argOutfile {
		return a.name
	}
	return "--" + a.name
}

// argTable is the operation's argument table, in the CLI's order.
func argTable(m *Model, op *Operation) []*opArg {
	var table []*opArg
	add := func(a *opArg) { table = append(table, a) }
	if op.Input != nil {
		in := op.Input.Shape
		for _, mem := range in.Members {
			dest := pyName(mem.CLIName)
			required := in.isRequired(mem.Name) && !mem.traits().IdempotencyToken
			switch mem.Shape.Type {
			case "boolean":
				add(&opArg{name: mem.CLIName, member: mem, action: &argAction{option: "--" + mem.CLIName, dest: dest, nargs: nargsNone, constant: true}})
				add(&opArg{name: "no-" + mem.CLIName, member: mem, action: &argAction{option: "--no-" + mem.CLIName, dest: dest, nargs: nargsNone, constant: false}})
			case "list":
				add(&opArg{name: mem.CLIName, member: mem, action: &argAction{option: "--" + mem.CLIName, dest: dest, nargs: nargsAny, required: required}})
			default:
				a := &argAction{option: "--" + mem.CLIName, dest: dest, required: required}
				switch mem.Shape.Type {
				case "long":
					a.convert = argInt
				case "float", "double":
					a.convert = argFloat
				}
				add(&opArg{name: mem.CLIName, member: mem, action: a})
			}
		}
	}
	streaming := op.Output != nil && op.Output.Shape.Payload != "" && op.Output.Shape.member(op.Output.Shape.Payload).traits().Streaming
	if streaming {
		add(&opArg{name: "outfile", kind: argOutfile, action: &argAction{dest: "outfile", required: true}})
	} else {
		add(&opArg{name: "cli-input-json", kind: argSkeleton, action: &argAction{option: "--cli-input-json", dest: "cli_input_json"}})
	}
	if p := m.Paginators[op.Name]; p != nil {
		add(&opArg{name: "starting-token", kind: argPaging, param: "StartingToken", action: &argAction{option: "--starting-token", dest: "starting_token"}})
		limitType := "integer"
		if p.LimitKey != "" {
			limitType = op.Input.Shape.member(p.LimitKey).Shape.Type
			add(&opArg{name: "page-size", kind: argPaging, param: "PageSize", action: &argAction{option: "--page-size", dest: "page_size", convert: pagingType(limitType)}})
		}
		add(&opArg{name: "max-items", kind: argPaging, param: "MaxItems", action: &argAction{option: "--max-items", dest: "max_items", convert: pagingType(limitType)}})
	}
	if !streaming {
		add(&opArg{name: "generate-cli-skeleton", kind: argSkeleton, action: &argAction{option: "--generate-cli-skeleton", dest: "generate_cli_skeleton", nargs: nargsOptional}})
	}
	return table
}

func pagingType(t string) func(string) (any, error) {
	if t == "string" {
		return nil
	}
	return argInt
}

// pyName is an argument's Python name: dashes as underscores.
func pyName(cliName string) string { return strings.ReplaceAll(cliName, "-", "_") }

// s3api runs aws s3api OPERATION [options].
func (c *cli) s3api(args []string) (int, error) {
	m, err := s3Model()
	if err != nil {
		return 0, &cliError{err.Error()}
	}
	choices := make([]string, 0, len(m.Operations)+2)
	for _, op := range m.Operations {
		choices = append(choices, op.CLIName)
	}
	choices = append(choices, "wait", "help")
	svc := &argParser{}
	svc.add(&argAction{dest: "operation", choices: choices, required: true})
	ns, rest, err := svc.parseKnownArgs(args)
	if err != nil {
		return 0, err
	}
	name, _ := ns.str("operation")
	if name == "help" || name == "wait" {
		return 0, &cliError{"aws s3api " + name + " is not available in MiniS3's terminal."}
	}
	return c.operation(m, m.Operation(name), rest)
}

// operation runs one s3api operation with its arguments.
func (c *cli) operation(m *Model, op *Operation, args []string) (int, error) {
	table := argTable(m, op)
	p := &argParser{}
	skeleton := false
	for _, a := range table {
		if a.kind == argSkeleton && contains(args, a.cliName()) {
			skeleton = true
		}
	}
	for _, a := range table {
		if skeleton {
			a.action.required = false
		}
		p.add(a.action)
	}
	p.add(&argAction{dest: "help", nargs: nargsOptional})
	ns, extras, err := p.parseKnownArgs(args)
	if err != nil {
		return 0, err
	}
	if h, _ := ns.str("help"); h == "help" {
		return 0, &cliError{"The help pages of the aws CLI are not available in MiniS3's terminal."}
	} else if h != "" {
		extras = append(extras, h)
	}
	if len(extras) > 0 {
		return 0, &unknownOptions{extras}
	}
	for _, a := range table {
		if a.kind == argSkeleton && ns[a.action.dest] != nil {
			return 0, &cliError{"--" + a.name + " is not available in MiniS3's terminal."}
		}
	}
	paginate := c.paginate() && m.Paginators[op.Name] != nil
	if pg := m.Paginators[op.Name]; pg != nil {
		manual := append(append([]string{}, pg.InputTokens...), pg.LimitKey)
		for _, key := range manual {
			if key == "" {
				continue
			}
			if mem := op.Input.Shape.member(key); mem != nil && ns[pyName(mem.CLIName)] != nil {
				paginate = false
			}
		}
		if !paginate {
			var used []string
			for _, name := range []string{"starting-token", "page-size", "max-items"} {
				if v := ns[pyName(name)]; v != nil && v != "" && v != int64(0) {
					used = append(used, "--"+name)
				}
			}
			if len(used) > 0 {
				return 0, &cliError{"Error during pagination: Cannot specify --no-paginate along with pagination arguments: " + strings.Join(used, ", ")}
			}
		}
	}
	params, paging, outfile, err := c.callParameters(table, ns)
	if err != nil {
		return 0, err
	}
	cl := &client{env: c.env}
	if paginate {
		pages, err := newPager(cl, op, m.Paginators[op.Name], params, paging)
		if err != nil {
			return 0, err
		}
		return 0, c.display(nil, pages)
	}
	result, err := cl.call(op, params, outfile)
	if err != nil {
		return 0, err
	}
	return 0, c.display(result, nil)
}

// callParameters builds the operation's parameters from the parsed
// arguments, in the order of the argument table.
func (c *cli) callParameters(table []*opArg, ns parsed) (params, paging *Dict, outfile string, err error) {
	params, paging = NewDict(), NewDict()
	for _, a := range table {
		v := ns[a.action.dest]
		switch a.kind {
		case argOutfile:
			outfile, _ = v.(string)
			continue
		case argPaging:
			if v != nil {
				if a.param == "MaxItems" {
					if n, ok := v.(int64); ok && n <= 0 {
						c.stderr.WriteString("warning: Non-positive values for --max-items may result in undefined behavior.\n")
					}
				}
				paging.Set(a.param, v)
			}
			continue
		case argSkeleton:
			continue
		}
		if v == nil {
			continue
		}
		value, err := c.parameter(a, v)
		if err != nil {
			return nil, nil, "", err
		}
		params.Set(a.member.Name, value)
	}
	return params, paging, outfile, nil
}

// parameter is the parameter a member argument's parsed value v becomes:
// a flag's boolean as it is, else the content of the file a file://
// value names, read as shorthand, JSON or the member's scalar type.
func (c *cli) parameter(a *opArg, v any) (any, error) {
	if a.member.Shape.Type == "boolean" {
		return v, nil
	}
	v, err := c.loadParamFile(a, v)
	if err != nil {
		return nil, err
	}
	return c.unpack(a, v)
}

// paramFileDisabled are the arguments whose file://… values are taken as
// they are.
var paramFileDisabled = map[string]bool{
	"website-redirect-location": true,
}

// loadParamFile is the CLI's file://… and fileb://… handling: the
// argument's value is the file's content (text, or bytes).
func (c *cli) loadParamFile(a *opArg, v any) (any, error) {
	if paramFileDisabled[a.name] {
		return v, nil
	}
	s, ok := v.(string)
	if list, isList := v.([]any); isList && len(list) == 1 {
		s, ok = list[0].(string)
	}
	if !ok {
		return v, nil
	}
	content, found, err := c.readParamFile(s)
	if err != nil {
		return nil, paramError(a.cliName(), err.Error())
	}
	if found {
		return content, nil
	}
	return v, nil
}

// readParamFile reads the file a file://, fileb://, http:// or https://
// value names.
func (c *cli) readParamFile(s string) (any, bool, error) {
	for _, prefix := range []string{"file://", "fileb://"} {
		if !strings.HasPrefix(s, prefix) {
			continue
		}
		path := s[len(prefix):]
		data, err := c.env.Files.ReadFile(path)
		if err != nil {
			return nil, false, &cliError{"Unable to load paramfile " + s + ": " + osErrorText(err, path)}
		}
		if prefix == "fileb://" {
			return data, true, nil
		}
		if !utf8.Valid(data) {
			return nil, false, &cliError{"Unable to load paramfile (" + path + "), text contents could not be decoded.  If this is a binary file, please use the fileb:// prefix instead of the file:// prefix."}
		}
		text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
		return text, true, nil
	}
	for _, prefix := range []string{"http://", "https://"} {
		if strings.HasPrefix(s, prefix) {
			return nil, false, &cliError{"Unable to retrieve " + s + ": MiniS3's terminal does not fetch URLs"}
		}
	}
	return nil, false, nil
}

func paramError(cliName, msg string) error {
	return &cliError{"Error parsing parameter '" + cliName + "': " + msg}
}

// unpack turns an argument's text into its parameter: shorthand syntax or
// JSON for structures, maps and lists, the type's value for scalars.
func (c *cli) unpack(a *opArg, v any) (any, error) {
	shape := a.member.Shape
	if shape.Type == "blob" && a.member.traits().Streaming {
		return c.streamingBody(v, a.cliName())
	}
	if c.shorthandApplies(shape, v) {
		return c.parseShorthandArg(a, v)
	}
	return c.unpackValue(shape, v, a.cliName())
}

// shorthandApplies is _should_parse_as_shorthand.
func (c *cli) shorthandApplies(shape *Shape, v any) bool {
	check := v
	if list, ok := v.([]any); ok && len(list) > 0 {
		check = list[0]
	}
	if s, ok := check.(string); ok {
		t := strings.TrimSpace(s)
		if strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") {
			return false
		}
	}
	switch shape.Type {
	case "structure", "map":
		return !shape.Document
	case "list":
		switch shape.Member.Shape.Type {
		case "structure", "list", "map":
			return true
		}
	}
	return false
}

func (c *cli) parseShorthandArg(a *opArg, v any) (any, error) {
	shape := a.member.Shape
	files := func(s string) (any, bool, error) { return c.readParamFile(s) }
	parse := func(s string) (any, error) {
		if shape.Type == "structure" && len(shape.Members) == 1 && shape.Members[0].Name == "Value" &&
			shape.Members[0].Shape.Type == "string" && !strings.Contains(s, "=") {
			d := NewDict()
			d.Set("Value", s)
			return d, nil
		}
		d, err := parseShorthand(s, files)
		if err != nil {
			return nil, err
		}
		return d, nil
	}
	var parsed any
	switch v := v.(type) {
	case []any:
		list := make([]any, len(v))
		for i, e := range v {
			s, _ := e.(string)
			p, err := parse(s)
			if err != nil {
				return nil, paramError(a.cliName(), err.Error())
			}
			list[i] = p
		}
		parsed = list
	case string:
		p, err := parse(v)
		if err != nil {
			return nil, paramError(a.cliName(), err.Error())
		}
		parsed = p
	default:
		return v, nil
	}
	out, err := backCompat(parsed, shape)
	if err != nil {
		return nil, &cliError{err.Error()}
	}
	return out, nil
}

// unpackValue is unpack_cli_arg: JSON for complex shapes, the scalar's
// type otherwise.
func (c *cli) unpackValue(shape *Shape, v any, cliName string) (any, error) {
	switch shape.Type {
	case "structure", "map":
		s := textOf(v)
		t := strings.TrimLeftFunc(s, isPySpace)
		if t == "" {
			return nil, &cliError{"string index out of range"}
		}
		if t[0] == '{' {
			return unpackJSON(s, cliName)
		}
		return nil, paramError(cliName, "Invalid JSON:\n"+s)
	case "list":
		if s, ok := v.(string); ok {
			if t := strings.TrimLeftFunc(s, isPySpace); t != "" && t[0] == '[' {
				return unpackJSON(s, cliName)
			}
		}
		list, _ := v.([]any)
		if len(list) == 1 {
			if s, ok := list[0].(string); ok {
				if t := strings.TrimSpace(s); t != "" && t[0] == '[' {
					return unpackJSON(s, cliName)
				}
			}
		}
		out := make([]any, len(list))
		for i, e := range list {
			u, err := c.unpackValue(shape.Member.Shape, e, cliName)
			if err != nil {
				if list, ok := v.([]any); ok && len(list) > 0 {
					if _, isCLI := err.(*cliError); !isCLI {
						return nil, paramError(cliName, pyStrValue(list[0]))
					}
				}
				return nil, err
			}
			out[i] = u
		}
		return out, nil
	}
	return c.unpackScalar(shape, v, cliName)
}

func textOf(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	return pyStr(v)
}

func unpackJSON(s, cliName string) (any, error) {
	v, err := pyJSONDecode(s)
	if err != nil {
		return nil, paramError(cliName, "Invalid JSON: "+err.Error()+"\nJSON received: "+s)
	}
	return v, nil
}

// unpackScalar is unpack_scalar_cli_arg.
func (c *cli) unpackScalar(shape *Shape, v any, cliName string) (any, error) {
	switch shape.Type {
	case "integer", "long":
		if n, ok := v.(int64); ok {
			return n, nil
		}
		n, err := pyInt(textOf(v))
		if err != nil {
			return nil, &cliError{err.Error()}
		}
		return n, nil
	case "float", "double":
		if f, ok := v.(float64); ok {
			return f, nil
		}
		f, err := pyFloatParse(textOf(v))
		if err != nil {
			return nil, &cliError{err.Error()}
		}
		return f, nil
	case "boolean":
		if s, ok := v.(string); ok {
			return strings.ToLower(s) != "false" && s != "", nil
		}
	}
	return v, nil
}

// streamingBody reads the file a streaming body argument (--body) names.
func (c *cli) streamingBody(v any, cliName string) (any, error) {
	path := textOf(v)
	info, err := c.env.Files.Stat(path)
	if err != nil || info.IsDir() {
		return nil, paramError(cliName, "Blob values must be a path to a file.")
	}
	data, err := c.env.Files.ReadFile(path)
	if err != nil {
		return nil, &cliError{osErrorText(err, path)}
	}
	return data, nil
}
