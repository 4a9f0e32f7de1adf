// Command minis3 runs MiniS3 natively: "minis3 serve" serves the playground
// page and the S3 API over a durable bbolt store; "minis3 scenario check"
// checks scenario files and proves their exercises solvable, with the
// playground's own modules run by Node.
//
//	minis3 serve [--addr 127.0.0.1:8080] [--s3-addr 127.0.0.1:9000] [--data ./data]
//	             [--clock wall|manual] [--static static] [--public]
//	             [--access-key KEY --secret-key SECRET] [--max-conns 256]
//	             [--read-header-timeout 10s] [--read-timeout 5m] [--write-timeout 5m] [--idle-timeout 2m]
//	minis3 scenario check [--static static] FILE...
//	minis3 version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
)

// version is the release, set with -ldflags "-X main.version=..."; builds
// without it report the module version or "devel".
var version = ""

const usage = `MiniS3: a small, exact S3-like object store for teaching.

Usage:
  minis3 serve [flags]             serve the playground page and the S3 API
  minis3 scenario check FILE...    check scenario files and prove their
                                   exercises solvable (needs Node.js)
  minis3 version                   print the version
  minis3 help                      print this help

Run "minis3 serve -h" for the serve flags, "minis3 scenario check -h" for
the checker's.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the command line: it returns the exit status (0 fine, 1 failed,
// 2 usage error).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		cfg, err := parseServeFlags(args[1:], os.Getenv, stdout, stderr)
		if err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if err := serve(ctx, cfg, stdout, stderr); err != nil {
			fmt.Fprintln(stderr, "minis3:", err)
			return 1
		}
		return 0
	case "scenario":
		return scenarioCommand(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "minis3 %s (%s)\n", versionString(), runtime.Version())
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "minis3: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}
