package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
)

// checkScript is the playground's checker of scenario files, which runs
// the page's own modules and its wasm under Node: the format has one
// implementation, the page's.
const checkScript = "scenario-check.mjs"

const scenarioUsage = `Usage: minis3 scenario check [--static DIR] FILE...

Checks scenario files as the playground loads them, and proves each
exercise solvable: every step of its stage and solution does what it
expects, its checks fail on the stage and pass after its solution. Prints
"FILE: OK" or one line per problem; exit status 0 when every file is
sound, 1 when one is not, 2 for a usage error or a file it cannot read.
It runs DIR/` + checkScript + ` with Node.js (node on the PATH); DIR is
the playground's directory, built (make build), "static" by default.
`

// scenarioCommand runs "minis3 scenario ..." and returns its exit status.
func scenarioCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && slices.Contains([]string{"-h", "-help", "--help", "help"}, args[0]) {
		fmt.Fprint(stdout, scenarioUsage)
		return 0
	}
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprint(stderr, scenarioUsage)
		return 2
	}
	flags := flag.NewFlagSet("minis3 scenario check", flag.ContinueOnError)
	static := flags.String("static", "static", "directory of the playground's static files")
	var parseOut bytes.Buffer
	flags.SetOutput(&parseOut)
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), scenarioUsage+"\nFlags:\n")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			_, _ = parseOut.WriteTo(stdout)
			return 0
		}
		_, _ = parseOut.WriteTo(stderr)
		return 2
	}
	if flags.NArg() == 0 {
		fmt.Fprintln(stderr, "minis3 scenario check: name at least one scenario file")
		flags.SetOutput(stderr)
		flags.Usage()
		return 2
	}
	script := filepath.Join(*static, checkScript)
	if _, err := os.Stat(script); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "minis3 scenario check: no %s in %s: give the playground's directory with --static\n", checkScript, *static)
		} else {
			fmt.Fprintln(stderr, "minis3 scenario check:", err)
		}
		return 2
	}
	node, err := exec.LookPath("node")
	if err != nil {
		fmt.Fprintln(stderr, "minis3 scenario check: there is no node on the PATH: it needs Node.js (18 or later) to run the playground's own checks")
		return 2
	}
	cmd := exec.CommandContext(ctx, node, append([]string{script}, flags.Args()...)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	default:
		fmt.Fprintln(stderr, "minis3 scenario check:", err)
		return 2
	}
}
