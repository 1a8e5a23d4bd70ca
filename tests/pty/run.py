"""Runs a command with one of its outputs on a pseudo-terminal and the other on a pipe, as a
user's terminal would hold it, and prints both as JSON: what the tests of `correspond` read.

Usage: run.py [--stdout] PROGRAM ARGS...

By default standard error is on the terminal (the progress tests: "stdout" is the pipe's,
"terminal" the terminal's); with --stdout, standard output is (the pictures that refuse a
terminal: "stdout" is then standard error's pipe)."""

import json
import os
import pty
import subprocess
import sys

args = sys.argv[1:]
stdout_on_terminal = args[:1] == ["--stdout"]
if stdout_on_terminal:
    args = args[1:]
master, slave = pty.openpty()
done = subprocess.run(
    args,
    stdin=subprocess.DEVNULL,
    stdout=slave if stdout_on_terminal else subprocess.PIPE,
    stderr=subprocess.PIPE if stdout_on_terminal else slave,
    check=False,
    # A command that writes more than the terminal holds blocks until it is read, which is
    # after it ends: a test then fails here rather than waiting for ever.
    timeout=120,
)
os.close(slave)
terminal = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    terminal += chunk
piped = done.stderr if stdout_on_terminal else done.stdout
print(
    json.dumps(
        {
            "code": done.returncode,
            "stdout": piped.decode("utf-8", "replace"),
            "terminal": terminal.decode("utf-8", "replace"),
        }
    )
)
