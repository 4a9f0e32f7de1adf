package awscli

import (
	"strconv"
	"strings"
	"time"
)

// aws s3: the CLI's file commands (ls, cp, mv, rm, sync, mb, rb) on top of
// the same client, with their own options, messages and exit statuses.

// s3Arg is one option of an aws s3 subcommand, as the CLI declares it.
type s3Arg struct {
	name       string
	dest       string // "": the name with underscores
	nargs      nargs
	flag       bool // store_true (or store_false with value false)
	value      bool // a flag's value
	def        any
	constant   any
	choices    []string
	kind       actionKind
	positional bool
	typ        string // "integer", "map", "blob": how the value is read
}

var (
	recursiveArg    = s3Arg{name: "recursive", dest: "dir_op", flag: true, value: true}
	pageSizeArg     = s3Arg{name: "page-size", typ: "integer"}
	requestPayerArg = s3Arg{name: "request-payer", choices: []string{"requester"}, nargs: nargsOptional, constant: "requester"}
	dryrunArg       = s3Arg{name: "dryrun", flag: true, value: true}
	quietArg        = s3Arg{name: "quiet", flag: true, value: true}
	includeArg      = s3Arg{name: "include", dest: "filters", nargs: "1", kind: actionAppendFilter}
	excludeArg      = s3Arg{name: "exclude", dest: "filters", nargs: "1", kind: actionAppendFilter}
	onlyErrorsArg   = s3Arg{name: "only-show-errors", flag: true, value: true}
	caseConflictArg = s3Arg{name: "case-conflict", choices: []string{"ignore", "skip", "warn", "error"}, def: "ignore"}
	metadataArg     = s3Arg{name: "metadata", typ: "map"}
	directiveArg    = s3Arg{name: "metadata-directive", choices: []string{"COPY", "REPLACE"}}
)

// transferArgs are the options every transfer command has.
var transferArgs = []s3Arg{
	dryrunArg, quietArg, includeArg, excludeArg,
	{name: "acl", choices: []string{"private", "public-read", "public-read-write", "authenticated-read", "aws-exec-read", "bucket-owner-read", "bucket-owner-full-control", "log-delivery-write"}},
	{name: "follow-symlinks", flag: true, value: true, def: true},
	{name: "no-follow-symlinks", dest: "follow_symlinks", flag: true, value: false, def: true},
	{name: "no-guess-mime-type", dest: "guess_mime_type", flag: true, value: false, def: true},
	{name: "sse", nargs: nargsOptional, constant: "AES256", choices: []string{"AES256", "aws:kms"}},
	{name: "sse-c", nargs: nargsOptional, constant: "AES256", choices: []string{"AES256"}},
	{name: "sse-c-key", typ: "blob"},
	{name: "sse-kms-key-id"},
	{name: "sse-c-copy-source", nargs: nargsOptional, constant: "AES256", choices: []string{"AES256"}},
	{name: "sse-c-copy-source-key", typ: "blob"},
	{name: "storage-class", choices: []string{"STANDARD", "REDUCED_REDUNDANCY", "STANDARD_IA", "ONEZONE_IA", "INTELLIGENT_TIERING", "GLACIER", "DEEP_ARCHIVE", "GLACIER_IR"}},
	{name: "grants", nargs: nargsSome},
	{name: "website-redirect"},
	{name: "content-type"},
	{name: "cache-control"},
	{name: "content-disposition"},
	{name: "content-encoding"},
	{name: "content-language"},
	{name: "expires"},
	{name: "source-region"},
	onlyErrorsArg,
	{name: "no-progress", dest: "progress", flag: true, value: false},
	pageSizeArg,
	{name: "ignore-glacier-warnings", flag: true, value: true},
	{name: "force-glacier-transfer", flag: true, value: true},
	requestPayerArg,
	{name: "checksum-mode", choices: []string{"ENABLED"}},
	{name: "checksum-algorithm", choices: []string{"CRC64NVME", "CRC32", "SHA256", "SHA1", "CRC32C", "SHA512", "XXHASH64", "XXHASH3", "XXHASH128"}},
}

func paths(n nargs) s3Arg { return s3Arg{name: "paths", nargs: n, positional: true} }

func join(parts ...[]s3Arg) []s3Arg {
	var out []s3Arg
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// s3Subcommands are the subcommands of aws s3, in the CLI's order, with
// their options.
var s3Subcommands = []struct {
	name  string
	usage string
	args  []s3Arg
}{
	{"ls", "<S3Uri> or NONE", []s3Arg{{name: "paths", nargs: nargsOptional, def: "s3://", positional: true}, recursiveArg, pageSizeArg,
		{name: "human-readable", flag: true, value: true}, {name: "summarize", flag: true, value: true}, requestPayerArg,
		{name: "bucket-name-prefix"}, {name: "bucket-region"}}},
	{"website", "<S3Uri>", []s3Arg{paths("1"), {name: "index-document"}, {name: "error-document"}}},
	{"cp", "<LocalPath> <S3Uri> or <S3Uri> <LocalPath> or <S3Uri> <S3Uri>", join([]s3Arg{paths("2")}, transferArgs,
		[]s3Arg{metadataArg, directiveArg, {name: "expected-size"}, recursiveArg, caseConflictArg})},
	{"mv", "<LocalPath> <S3Uri> or <S3Uri> <LocalPath> or <S3Uri> <S3Uri>", join([]s3Arg{paths("2")}, transferArgs,
		[]s3Arg{metadataArg, directiveArg, recursiveArg, {name: "validate-same-s3-paths", flag: true, value: true}, caseConflictArg})},
	{"rm", "<S3Uri>", []s3Arg{paths("1"), dryrunArg, quietArg, recursiveArg, requestPayerArg, includeArg, excludeArg, onlyErrorsArg, pageSizeArg}},
	{"sync", "<LocalPath> <S3Uri> or <S3Uri> <LocalPath> or <S3Uri> <S3Uri>", join([]s3Arg{paths("2")}, transferArgs,
		[]s3Arg{metadataArg, directiveArg, caseConflictArg,
			{name: "size-only", flag: true, value: true}, {name: "exact-timestamps", flag: true, value: true}, {name: "delete", flag: true, value: true}})},
	{"mb", "<S3Uri>", []s3Arg{{name: "path", positional: true}, {name: "tags", nargs: "2", kind: actionAppend}}},
	{"rb", "<S3Uri>", []s3Arg{{name: "path", positional: true}, {name: "force", flag: true, value: true}}},
	{"presign", "<S3Uri>", []s3Arg{{name: "path", positional: true}, {name: "expires-in", def: int64(3600), typ: "integer"}}},
}

func (a s3Arg) action() *argAction {
	dest := a.dest
	if dest == "" {
		dest = pyName(a.name)
	}
	act := &argAction{dest: dest, nargs: a.nargs, def: a.def, constant: a.constant, choices: a.choices, kind: a.kind}
	if !a.positional {
		act.option = "--" + a.name
	} else {
		act.required = a.nargs != nargsOptional
	}
	if a.flag {
		act.nargs, act.constant = nargsNone, a.value
		if a.def == nil {
			act.def = !a.value
		}
	}
	return act
}

// s3 runs aws s3 SUBCOMMAND [options].
func (c *cli) s3(args []string) (int, error) {
	if len(args) == 1 && args[0] == "help" {
		return 0, &cliError{"The help pages of the aws CLI are not available in MiniS3's terminal."}
	}
	names := make([]string, len(s3Subcommands))
	for i, sc := range s3Subcommands {
		names[i] = sc.name
	}
	top := &argParser{}
	top.add(&argAction{dest: "subcommand", nargs: nargsOptional, choices: names})
	ns, rest, err := top.parseKnownArgs(args)
	if err != nil {
		return 0, err
	}
	name, _ := ns.str("subcommand")
	if name == "" {
		if len(rest) > 0 {
			return 0, &cliError{"Unknown options: " + strings.Join(rest, ",")}
		}
		return 0, &cliError{"usage: aws [options] <command> <subcommand> [parameters]\naws: error: too few arguments"}
	}
	for _, sc := range s3Subcommands {
		if sc.name == name {
			return c.s3Subcommand(sc.name, sc.usage, sc.args, rest)
		}
	}
	return 0, nil
}

// s3Subcommand parses a subcommand's options and runs it.
func (c *cli) s3Subcommand(name, usage string, table []s3Arg, args []string) (int, error) {
	if len(args) == 1 && args[0] == "help" {
		return 0, &cliError{"The help pages of the aws CLI are not available in MiniS3's terminal."}
	}
	p := &argParser{}
	for _, a := range table {
		p.add(a.action())
	}
	ns, rest, err := p.parseKnownArgs(args)
	if err != nil {
		return 0, err
	}
	if err := c.readS3Values(table, ns); err != nil {
		return 0, err
	}
	if len(rest) > 0 {
		return 0, &cliError{"Unknown options: " + strings.Join(rest, ",")}
	}
	cmd := &s3cmd{cli: c, name: name, usage: usage, args: ns, cl: &client{env: c.env}}
	switch name {
	case "ls":
		return cmd.ls()
	case "mb":
		return cmd.mb()
	case "rb":
		return cmd.rb()
	case "website", "presign":
		return 0, &cliError{"aws s3 " + name + " is not available in MiniS3's terminal."}
	}
	return cmd.transfer()
}

// readS3Values replaces each option's parsed value in ns by the value
// the command uses: the content of the file a file://… value names, read
// as the option's type.
func (c *cli) readS3Values(table []s3Arg, ns parsed) error {
	for _, a := range table {
		dest := a.action().dest
		v := ns[dest]
		if v == nil {
			continue
		}
		v, err := c.loadS3ParamFile(a, v)
		if err != nil {
			return err
		}
		if v, err = c.unpackS3Arg(a, v); err != nil {
			return err
		}
		ns[dest] = v
	}
	return nil
}

// loadS3ParamFile reads a file://… value of an option (the paths of a
// command with one path too, as the CLI does).
func (c *cli) loadS3ParamFile(a s3Arg, v any) (any, error) {
	s, ok := v.(string)
	if list, isList := v.([]any); isList && len(list) == 1 {
		s, ok = list[0].(string)
	}
	if !ok || a.name == "website-redirect" {
		return v, nil
	}
	content, found, err := c.readParamFile(s)
	if err != nil {
		return nil, paramError("--"+a.name, err.Error())
	}
	if found {
		return content, nil
	}
	return v, nil
}

// unpackS3Arg reads an option's value as its type.
func (c *cli) unpackS3Arg(a s3Arg, v any) (any, error) {
	switch a.typ {
	case "integer":
		if n, ok := v.(int64); ok {
			return n, nil
		}
		n, err := pyInt(textOf(v))
		if err != nil {
			return nil, &cliError{err.Error()}
		}
		return n, nil
	case "map":
		shape := &Shape{Type: "map", Key: &Ref{Shape: &Shape{Type: "string"}}, Value: &Ref{Shape: &Shape{Type: "string"}}}
		ref := &Ref{Name: "Metadata", CLIName: a.name, Shape: shape}
		arg := &opArg{name: a.name, member: ref}
		out, err := c.unpack(arg, v)
		if err != nil {
			return nil, err
		}
		var errs []string
		validateValue(out, shape, "", &errs)
		if len(errs) > 0 {
			return nil, paramValidationError(strings.Join(errs, "\n"))
		}
		return out, nil
	}
	return v, nil
}

// s3cmd is one aws s3 subcommand being run.
type s3cmd struct {
	cli   *cli
	name  string
	usage string
	args  parsed
	cl    *client
}

func (s *s3cmd) str(dest string) string {
	v, _ := s.args.str(dest)
	return v
}

func (s *s3cmd) flag(dest string) bool {
	b, _ := s.args[dest].(bool)
	return b
}

func (s *s3cmd) pageSize() any {
	if n, ok := s.args["page_size"].(int64); ok {
		return n
	}
	return nil
}

// findBucketKey splits "bucket/key".
func findBucketKey(p string) (bucket, key string) {
	bucket, key, _ = strings.Cut(p, "/")
	return bucket, key
}

// lastModified is how ls prints a time: local time (UTC here), to the
// second.
func lastModified(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t, err = time.Parse(time.RFC1123, s)
	}
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// humanSize is the CLI's human_readable_size.
func humanSize(n int64) string {
	if n == 1 {
		return "1 Byte"
	}
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " Bytes"
	}
	f := float64(n)
	unit := 1024.0
	for _, suffix := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		unit *= 1024
		if pyRound(f/unit*1024) < 1024 {
			return strconv.FormatFloat(1024*f/unit, 'f', 1, 64) + " " + suffix
		}
	}
	return strconv.FormatFloat(1024*f/unit, 'f', 1, 64) + " EiB"
}

// pyRound is Python's round: halves to even.
func pyRound(f float64) float64 {
	r := float64(int64(f))
	if d := f - r; d > 0.5 || d == 0.5 && int64(r)%2 == 1 {
		return r + 1
	}
	return r
}

// paginate runs a paginator over op with params, handing each page to fn.
func (s *s3cmd) paginate(opName string, params *Dict, pageSize any, fn func(page *Dict) error) error {
	m, err := s3Model()
	if err != nil {
		return &cliError{err.Error()}
	}
	op := m.Operation(opName)
	paging := NewDict()
	if pageSize != nil {
		paging.Set("PageSize", pageSize)
	}
	p, err := newPager(s.cl, op, m.Paginators[op.Name], params, paging)
	if err != nil {
		return err
	}
	return p.pages(fn)
}

// operation calls one operation, as the CLI's client does.
func (s *s3cmd) operation(cliName string, params *Dict, outfile string) (*Dict, error) {
	m, err := s3Model()
	if err != nil {
		return nil, &cliError{err.Error()}
	}
	return s.cl.call(m.Operation(cliName), params, outfile)
}

func dict(kv ...any) *Dict {
	d := NewDict()
	for i := 0; i+1 < len(kv); i += 2 {
		d.Set(kv[i].(string), kv[i+1])
	}
	return d
}

// ls lists buckets, or the objects and prefixes under a prefix.
func (s *s3cmd) ls() (int, error) {
	path := strings.TrimPrefix(s.str("paths"), "s3://")
	bucket, key := findBucketKey(path)
	human := s.flag("human_readable")
	var count, total int64
	empty, first := false, true
	display := func(page *Dict, basename bool) {
		prefixes, _ := page.Get("CommonPrefixes")
		contents, _ := page.Get("Contents")
		pl, _ := prefixes.([]any)
		cl, _ := contents.([]any)
		if len(pl) == 0 && len(cl) == 0 {
			empty = true
			return
		}
		for _, p := range pl {
			d, _ := p.(*Dict)
			v, _ := d.Get("Prefix")
			parts := strings.Split(pyStr(v), "/")
			name := ""
			if len(parts) >= 2 {
				name = parts[len(parts)-2]
			}
			s.cli.stdout.WriteString(strings.Repeat(" ", 27) + "PRE " + name + "/\n")
		}
		for _, o := range cl {
			d, _ := o.(*Dict)
			lm, _ := d.Get("LastModified")
			size, _ := d.Get("Size")
			n, _ := size.(int64)
			total += n
			count++
			sizeText := strconv.FormatInt(n, 10)
			if human {
				sizeText = humanSize(n)
			}
			k, _ := d.Get("Key")
			name := pyStr(k)
			if basename {
				name = name[strings.LastIndex(name, "/")+1:]
			}
			s.cli.stdout.WriteString(padRight(lastModified(pyStr(lm)), 19) + " " + padLeft(sizeText, 10) + " " + name + "\n")
		}
		first = false
	}
	var err error
	switch {
	case bucket == "":
		params := NewDict()
		if p := s.str("bucket_name_prefix"); p != "" {
			params.Set("Prefix", p)
		}
		if r := s.str("bucket_region"); r != "" {
			params.Set("BucketRegion", r)
		}
		err = s.paginate("list-buckets", params, s.pageSize(), func(page *Dict) error {
			buckets, _ := page.Get("Buckets")
			list, _ := buckets.([]any)
			for _, b := range list {
				d, _ := b.(*Dict)
				created, _ := d.Get("CreationDate")
				name, _ := d.Get("Name")
				s.cli.stdout.WriteString(padRight(lastModified(pyStr(created)), 19) + " " + pyStr(name) + "\n")
			}
			return nil
		})
	case s.flag("dir_op"):
		params := dict("Bucket", bucket, "Prefix", key)
		if p := s.args["request_payer"]; p != nil {
			params.Set("RequestPayer", p)
		}
		err = s.paginate("list-objects-v2", params, s.pageSize(), func(page *Dict) error {
			display(page, false)
			return nil
		})
	default:
		params := dict("Bucket", bucket, "Prefix", key, "Delimiter", "/")
		if p := s.args["request_payer"]; p != nil {
			params.Set("RequestPayer", p)
		}
		err = s.paginate("list-objects-v2", params, s.pageSize(), func(page *Dict) error {
			display(page, true)
			return nil
		})
	}
	if err != nil {
		return 0, err
	}
	if s.flag("summarize") {
		s.cli.stdout.WriteString("\nTotal Objects: " + strconv.FormatInt(count, 10) + "\n")
		size := strconv.FormatInt(total, 10)
		if human {
			size = humanSize(total)
		}
		s.cli.stdout.WriteString("   Total Size: " + size + "\n")
	}
	if key != "" && empty && first {
		return 1, nil
	}
	return 0, nil
}

func padRight(s string, n int) string {
	if len([]rune(s)) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len([]rune(s)))
}

func padLeft(s string, n int) string {
	if len([]rune(s)) >= n {
		return s
	}
	return strings.Repeat(" ", n-len([]rune(s))) + s
}

// mb makes a bucket.
func (s *s3cmd) mb() (int, error) {
	path := s.str("path")
	if !strings.HasPrefix(path, "s3://") {
		return 0, &cliError{s.usage + "\nError: Invalid argument type"}
	}
	bucket, _ := findBucketKey(path[5:])
	if strings.HasSuffix(bucket, "--x-s3") {
		return 0, &cliError{"Cannot use mb command with a directory bucket."}
	}
	params := dict("Bucket", bucket)
	if tags, ok := s.args["tags"].([]any); ok && len(tags) > 0 {
		var list []any
		for _, t := range tags {
			kv, _ := t.([]any)
			list = append(list, dict("Key", kv[0], "Value", kv[1]))
		}
		params.Set("CreateBucketConfiguration", dict("Tags", list))
	}
	if _, err := s.operation("create-bucket", params, ""); err != nil {
		s.cli.stderr.WriteString("make_bucket failed: " + path + " " + err.Error() + "\n")
		return 1, nil
	}
	s.cli.stdout.WriteString("make_bucket: " + bucket + "\n")
	return 0, nil
}

// rb removes a bucket; --force empties it first.
func (s *s3cmd) rb() (int, error) {
	path := s.str("path")
	if !strings.HasPrefix(path, "s3://") {
		return 0, &cliError{s.usage + "\nError: Invalid argument type"}
	}
	bucket, key := findBucketKey(path[5:])
	if key != "" {
		return 0, &cliError{"Please specify a valid bucket name only. E.g. s3://" + bucket}
	}
	if s.flag("force") {
		rm := &s3cmd{cli: s.cli, name: "rm", usage: "<S3Uri>", cl: s.cl,
			args: parsed{"paths": []any{path}, "dir_op": true, "follow_symlinks": true}}
		status, err := rm.transfer()
		if err != nil {
			return 0, err
		}
		if status != 0 {
			return 0, &cliError{"remove_bucket failed: Unable to delete all objects in the bucket, bucket will not be deleted."}
		}
	}
	if _, err := s.operation("delete-bucket", dict("Bucket", bucket), ""); err != nil {
		s.cli.stderr.WriteString("remove_bucket failed: " + path + " " + err.Error() + "\n")
		return 1, nil
	}
	s.cli.stdout.WriteString("remove_bucket: " + bucket + "\n")
	return 0, nil
}
