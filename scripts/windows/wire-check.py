#!/usr/bin/env python3
"""Talks to an engine the way WinBoard does over Windows pipes: every line ends in CRLF, and each
answer is awaited before the next command is sent, so an answer left in an unflushed buffer is a
hang (a failure here), not a delay.

Usage: wire-check.py [--name NAME] [--merged-stderr] ENGINE [ARG...]
  (ENGINE: a program, e.g. a wrapper running `wine fairybridge.exe`)

Checks, one line each on stdout:
  cecp   xboard/protover 2 (CRLF) up to `feature done=1`, `ping`/`pong` after each command, a
         Wreckage game start and a searched move (`go` answered by `move`), `quit` and exit 0;
  uci    uci/isready (CRLF), UCI_Variant pillage, `go depth 4` answered by `bestmove`, `quit`;
  no-stderr  CECP with the error output closed (a GUI may start an engine with none), after the
         engine has written an error there (a --variants file that does not exist);
         with --merged-stderr instead (ENGINE's error output is its standard output, as WinBoard
         starts an engine: scripts/windows/winboard-start.c): that error arrives as a line of its
         own, `fairybridge: ` and the file's name, before the protocol's lines, which stay whole.
--name NAME: CECP's `feature myname` and UCI's `id name` must both be NAME (the --version line).
Exit status 0 when every check held, 1 otherwise.
"""

import os
import queue
import subprocess
import sys
import threading
import time

TIMEOUT = 30.0  # s for one answer (Wine's first start in a fresh prefix is the slow part)


class Engine:
    def __init__(self, argv, close_stderr=False):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=None if close_stderr else subprocess.DEVNULL, bufsize=0,
                                     preexec_fn=(lambda: os.close(2)) if close_stderr else None)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        while True:
            chunk = self.proc.stdout.read(4096)
            if not chunk:
                self.lines.put(None)
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self.lines.put(line.decode("utf-8", "replace"))

    def send(self, line):
        self.proc.stdin.write(line.encode() + b"\r\n")
        self.proc.stdin.flush()

    def until(self, want, what):
        """Lines up to the first for which want(line) holds; raises on timeout or end of output."""
        deadline = time.monotonic() + TIMEOUT
        got = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"no {what} within {TIMEOUT:.0f} s; last lines: {self.seen[-5:]}")
            if line is None:
                raise RuntimeError(f"output ended before {what}; last lines: {self.seen[-5:]}")
            self.seen.append(line)
            got.append(line)
            if line.endswith("\r"):
                raise RuntimeError(f"a line ends in CR: {line!r}")
            if line.startswith("Error") or line.startswith("Illegal move") or "info string error" in line:
                raise RuntimeError(f"the engine refused a line: {line!r}")
            if want(line):
                return got

    def finish(self):
        self.send("quit")
        try:
            code = self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise RuntimeError("the engine did not exit after quit")
        if code != 0:
            raise RuntimeError(f"the engine exited with {code} after quit")


NAME = None  # --name: what myname and id name must say


def cecp(argv):
    e = Engine(argv)
    e.send("xboard")
    e.send("protover 2")
    features = e.until(lambda l: l == "feature done=1", "feature done=1")
    names = [l for l in features if "myname=" in l]
    if not names:
        raise RuntimeError("no feature myname")
    myname = names[0].split('myname="', 1)[1].split('"', 1)[0]
    if NAME is not None and myname != NAME:
        raise RuntimeError(f"feature myname={myname!r}, not {NAME!r}")
    for n, cmd in enumerate(["variant wreckage", "new", "level 0 0:10 0", "post"], 1):
        e.send(cmd)
        e.send(f"ping {n}")
        e.until(lambda l, n=n: l == f"pong {n}", f"pong {n} after {cmd!r}")
    e.send("go")
    move = e.until(lambda l: l.startswith("move "), "a move after go")[-1]
    e.finish()
    return f"{myname}; Wreckage answered go with {move!r}"


def uci(argv):
    e = Engine(argv)
    e.send("uci")
    ident = e.until(lambda l: l == "uciok", "uciok")[0]
    if NAME is not None and ident != f"id name {NAME}":
        raise RuntimeError(f"{ident!r}, not 'id name {NAME}'")
    e.send("setoption name UCI_Variant value pillage")
    e.send("isready")
    e.until(lambda l: l == "readyok", "readyok")
    e.send("position startpos")
    e.send("go depth 4")
    best = e.until(lambda l: l.startswith("bestmove "), "bestmove")[-1]
    e.finish()
    return f"{ident}; Pillage answered go depth 4 with {best!r}"


def no_stderr(argv):
    e = Engine(argv + ["--variants", "no-such-definition-file.toml"], close_stderr=True)
    e.send("xboard")
    e.send("protover 2")
    e.until(lambda l: l == "feature done=1", "feature done=1")
    e.send("ping 9")
    e.until(lambda l: l == "pong 9", "pong 9")
    e.finish()
    return "answered ping after writing an error to a closed error output"


def merged_stderr(argv):
    missing = "no-such-definition-file.toml"
    e = Engine(argv + ["--variants", missing])
    e.send("xboard")
    e.send("protover 2")
    lines = e.until(lambda l: l == "feature done=1", "feature done=1")
    errors = [l for l in lines if l.startswith("fairybridge: ")]
    if not any(missing in l for l in errors):
        raise RuntimeError(f"no line 'fairybridge: ...{missing}...' before feature done=1: {lines}")
    # Protocol lines before `feature done=1`: features only (or a blank line), none cut by the error.
    odd = [l for l in lines if l not in errors and l and not l.startswith("feature ")]
    if odd:
        raise RuntimeError(f"lines neither feature nor our error: {odd}")
    e.send("ping 9")
    e.until(lambda l: l == "pong 9", "pong 9")
    e.finish()
    return f"the error came as a line of its own on the engine's one pipe: {errors[0]!r}"


def main():
    global NAME
    args = sys.argv[1:]
    merged = False
    while args and args[0].startswith("--"):
        if args[0] == "--merged-stderr":
            merged = True
            args = args[1:]
        elif args[0] == "--name" and len(args) > 1:
            NAME = args[1]
            args = args[2:]
        else:
            break
    if not args:
        print(__doc__)
        return 2
    argv = args
    ok = True
    third = ("merged-stderr", merged_stderr) if merged else ("no-stderr", no_stderr)
    for name, check in [("cecp", cecp), ("uci", uci), third]:
        try:
            print(f"  {name}: ok: {check(argv)}")
        except (RuntimeError, OSError) as e:
            ok = False
            print(f"  {name}: FAILED: {e}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
