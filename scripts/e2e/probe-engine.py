#!/usr/bin/env python3
"""A scripted CECP engine for probing XBoard (scripts/xboard-probe.py).

Usage: probe-engine.py CONFIG.json
CONFIG: {"variant": "pillage", "setup": "setup (...) 10x10+0_fairy FEN" or null,
         "pieces": ["piece P& ...", ...], "moves": ["e2e4", ...], "log": "FILE"}
It answers `variant` with the setup and piece lines (none for XBoard's own games), and each time it
is to move (`go`, or `usermove` when not in force mode) sends the next move. With no move left it
stays silent.
"""
import json
import sys


def main():
    cfg = json.load(open(sys.argv[1]))
    log = open(cfg["log"], "a")
    moves = list(cfg["moves"])
    forced = False

    def send(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        log.write("> " + line + "\n")
        log.flush()

    for raw in sys.stdin:
        line = raw.strip()
        log.write("< " + line + "\n")
        log.flush()
        word, _, rest = line.partition(" ")
        if word == "protover":
            send('feature myname="probe" usermove=1 setboard=1 ping=1 sigint=0 sigterm=0 '
                 'variants="' + cfg["variant"] + '" done=1')
        elif word == "ping":
            send("pong " + rest)
        elif word == "variant":
            if cfg.get("setup"):
                send(cfg["setup"])
            for p in cfg["pieces"]:
                send(p)
        elif word == "new":
            forced = False
        elif word == "force":
            forced = True
        elif word == "quit":
            return
        elif word == "go" or (word == "usermove" and not forced):
            forced = False
            if moves:
                send("move " + moves.pop(0))


if __name__ == "__main__":
    main()
