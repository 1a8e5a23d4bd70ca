"""Runs a command with its standard error on a pseudo-terminal and its standard output on a
pipe, as a user's terminal would hold it, and prints both as JSON: what the progress tests of
`correspond` read. Usage: run.py PROGRAM ARGS..."""

import json
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
done = subprocess.run(
    sys.argv[1:],
    stdin=subprocess.DEVNULL,
    stdout=subprocess.PIPE,
    stderr=slave,
    check=False,
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
print(
    json.dumps(
        {
            "code": done.returncode,
            "stdout": done.stdout.decode("utf-8", "replace"),
            "terminal": terminal.decode("utf-8", "replace"),
        }
    )
)
