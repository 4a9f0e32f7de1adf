"""Runs many aws CLI command lines in one Python process, for the oracle test.

Starting the aws CLI (Python, botocore's models) costs about a second of
CPU; the oracle runs hundreds of command lines. This program imports the
CLI once and runs each command line as the aws script does (a new driver,
its main with the line's arguments), with its stdout and stderr captured.

It reads one JSON object per line on stdin, {"line": "aws s3 ls", "cwd":
DIR}, and answers one per line on stdout: {"Ran": true, "Stdout": B64,
"Stderr": B64, "Status": N}, or {"Ran": false} when the line is more than
a plain aws command for bash to split into words (a redirection, a
variable, a glob, several commands): the test then runs it with bash.
"""

import base64
import io
import json
import os
import shlex
import sys

import awscli.clidriver

# Outside quotes, these make bash do more than split the line into words.
UNQUOTED_SPECIAL = set("|&;<>()$`*?[]{}~!#\\")
# Inside double quotes, these.
DOUBLE_QUOTED_SPECIAL = set("$`\\!")


def plain_words(line):
    """The words of line if bash would only split it, else None."""
    quote = None
    for c in line:
        if quote == "'":
            if c == "'":
                quote = None
        elif quote == '"':
            if c == '"':
                quote = None
            elif c in DOUBLE_QUOTED_SPECIAL:
                return None
        elif c in "'\"":
            quote = c
        elif c in UNQUOTED_SPECIAL:
            return None
    words = shlex.split(line)
    if not words or words[0] != "aws":
        return None
    return words[1:]


def run(args, cwd):
    """Runs the aws CLI with args in cwd: its stdout, stderr and status."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    saved = sys.stdout, sys.stderr, os.getcwd()
    sys.stdout, sys.stderr = out, err
    sys.argv = ["aws"] + args
    os.chdir(cwd)
    try:
        status = awscli.clidriver.create_clidriver().main(args)
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdout, sys.stderr = saved[0], saved[1]
        os.chdir(saved[2])
    out.flush()
    err.flush()
    return out.detach().getvalue(), err.detach().getvalue(), status


def main():
    for request in sys.stdin:
        req = json.loads(request)
        args = plain_words(req["line"])
        if args is None:
            answer = {"Ran": False}
        else:
            stdout, stderr, status = run(args, req["cwd"])
            answer = {
                "Ran": True,
                "Stdout": base64.b64encode(stdout).decode(),
                "Stderr": base64.b64encode(stderr).decode(),
                "Status": status,
            }
        sys.__stdout__.write(json.dumps(answer) + "\n")
        sys.__stdout__.flush()


if __name__ == "__main__":
    main()
