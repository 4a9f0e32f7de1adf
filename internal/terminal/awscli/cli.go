// Package awscli is the aws command of MiniS3's terminal: aws s3api and
// aws s3 as the aws CLI version 1 (1.45.11, botocore 1.43.11) runs them,
// down to the bytes it prints.
//
// It reads a command line the way the CLI does (argparse's rules, the
// shorthand syntax, JSON, file://), checks the parameters as botocore
// does, sends the S3 requests botocore would send to an http.Handler (the
// web package's S3 API over a store), and parses and prints the answers
// the same way: JSON as Python's json.dumps with an indent of four and
// the model's member order, the text output, --query with JMESPath, the
// CLI's pagination and its tokens, and the CLI's own error messages and
// exit statuses.
//
// The operations of aws s3api come from the S3 service model of botocore
// (model.json), so every operation of S3 has its options; the S3 API
// answers those MiniS3 does not implement with NotImplemented.
package awscli

import (
	"io/fs"
	"net/http"
	"strings"
)

// Version is what aws --version prints. The real CLI names the machine's
// operating system where this names MiniS3.
const Version = "aws-cli/1.45.11 Python/3.11.7 MiniS3/terminal botocore/1.43.11"

// Env is what a command runs against.
type Env struct {
	// S3 serves the S3 API.
	S3 http.Handler
	// Files is the current directory: the files arguments name.
	Files Files
	// Exchange, when set, is told of every request sent to S3 and of the
	// response.
	Exchange func(Exchange)
}

// Exchange is one request the command sent and the response it got.
type Exchange struct {
	Method         string
	Target         string // path and query
	RequestHeader  http.Header
	RequestBody    []byte
	Status         int
	ResponseHeader http.Header
	ResponseBody   []byte
}

// Files is a folder of files: the shell's home folder, or a directory of
// the machine in tests.
type Files interface {
	ReadFile(name string) ([]byte, error)
	WriteFile(name string, data []byte) error
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	MkdirAll(name string) error
	Remove(name string) error
}

// Result is what a command printed and its exit status.
type Result struct {
	Stdout, Stderr string
	Status         int
}

// cliError is an exception the CLI prints as it is, between newlines, and
// exits with 255.
type cliError struct{ msg string }

func (e *cliError) Error() string { return e.msg }

// unknownOptions is UnknownArgumentError: the usage, then the options.
type unknownOptions struct{ args []string }

func (e *unknownOptions) Error() string { return "Unknown options: " + strings.Join(e.args, ", ") }

// usage is the CLI's usage text, as argparse prints it before an error.
const usage = "usage: \rNote: AWS CLI version 2, the latest major version of the AWS CLI, is now stable and recommended for general use. For more information, see the AWS CLI version 2 installation instructions at: https://docs.aws.amazon.com/cli/latest/userguide/install-cliv2.html\n\n" +
	"usage: aws [options] <command> <subcommand> [<subcommand> ...] [parameters]\n" +
	"To see help text, you can run:\n\n  aws help\n  aws <command> help\n  aws <command> <subcommand> help\n"

// cli is one run of the aws command.
type cli struct {
	env            *Env
	stdout, stderr strings.Builder
	globals        parsed
}

// Run runs the aws command with args (the words after "aws").
func Run(env *Env, args []string) Result {
	c := &cli{env: env}
	status := c.main(args)
	return Result{Stdout: c.stdout.String(), Stderr: c.stderr.String(), Status: status}
}

// main is clidriver.main: the global options and the command, then the
// command; its exceptions become messages and exit statuses.
func (c *cli) main(args []string) int {
	status, err := c.run(args)
	if err == nil {
		return status
	}
	switch e := err.(type) {
	case *usageError:
		c.stderr.WriteString(usage + "aws: error: " + e.msg + "\n")
		return 2
	case *versionExit:
		c.stdout.WriteString(e.text + "\n")
		return 0
	case *unknownOptions:
		c.stderr.WriteString(usage + "\n" + e.Error() + "\n")
		return 255
	}
	c.stderr.WriteString("\n" + err.Error() + "\n")
	return 255
}

// globalParser is the parser of the global options and the command.
func globalParser() *argParser {
	p := &argParser{}
	flag := func(name, dest string, value bool) {
		p.add(&argAction{option: "--" + name, dest: dest, nargs: nargsNone, constant: value, def: !value})
	}
	option := func(name, dest string, choices ...string) *argAction {
		return p.add(&argAction{option: "--" + name, dest: dest, choices: choices})
	}
	flag("debug", "debug", true)
	option("endpoint-url", "endpoint_url")
	flag("no-verify-ssl", "verify_ssl", false)
	flag("no-paginate", "paginate", false)
	option("output", "output", "json", "text", "table")
	option("query", "query")
	option("profile", "profile")
	option("region", "region")
	option("color", "color", "on", "off", "auto")
	flag("no-sign-request", "sign_request", false)
	option("ca-bundle", "ca_bundle")
	option("cli-read-timeout", "read_timeout")
	option("cli-connect-timeout", "connect_timeout")
	flag("v2-debug", "v2_debug", true)
	p.add(&argAction{option: "--version", dest: "version", nargs: nargsNone, version: Version})
	commands := []string{"s3api", "s3", "help"}
	if m, err := s3Model(); err == nil {
		commands = m.Commands
	}
	p.add(&argAction{dest: "command", choices: commands, required: true})
	return p
}

// argInt is argparse's type=int.
func argInt(s string) (any, error) {
	n, err := pyInt(s)
	if err != nil {
		return nil, &cliError{"invalid int value: " + pyReprString(s)}
	}
	return n, nil
}

// argFloat is argparse's type=float.
func argFloat(s string) (any, error) {
	f, err := pyFloatParse(s)
	if err != nil {
		return nil, &cliError{"invalid float value: " + pyReprString(s)}
	}
	return f, nil
}

func (c *cli) run(args []string) (int, error) {
	globals, rest, err := globalParser().parseKnownArgs(args)
	if err != nil {
		return 0, err
	}
	c.globals = globals
	for _, timeout := range []string{"read_timeout", "connect_timeout"} {
		if s, ok := globals.str(timeout); ok {
			if _, err := pyInt(s); err != nil {
				return 0, &cliError{err.Error()}
			}
		}
	}
	if q, ok := globals.str("query"); ok {
		if _, err := compileQuery(q); err != nil {
			return 0, &cliError{"Bad value for --query " + q + ": " + err.Error()}
		}
	}
	if u, ok := globals.str("endpoint_url"); ok && !strings.Contains(u, ":") {
		return 0, &cliError{`Bad value for --endpoint-url "` + u + `": scheme is missing.  Must be of the form http://<hostname>/ or https://<hostname>/`}
	}
	switch globals["command"] {
	case "s3api":
		return c.s3api(rest)
	case "s3":
		return c.s3(rest)
	}
	return 0, &cliError{"aws " + pyStr(globals["command"]) + " is not available in MiniS3's terminal: it has aws s3api and aws s3."}
}

// output is the output format: --output, else json.
func (c *cli) output() string {
	if o, ok := c.globals.str("output"); ok {
		return o
	}
	return "json"
}

// paginate reports whether the CLI pages through results (no
// --no-paginate).
func (c *cli) paginate() bool {
	p, _ := c.globals["paginate"].(bool)
	return p
}
