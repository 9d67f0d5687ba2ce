#!/usr/bin/env python3
"""A scripted CECP engine that plays a fixed list of answers: it probes XBoard
(scripts/xboard-probe.py) and drives the match referee (tests/match_wildrose_turns.rs).

Usage: scripted-engine.py CONFIG.json
CONFIG: {"variant": "pillage", "setup": "setup (...) 10x10+0_fairy FEN" or null,
         "pieces": ["piece P& ...", ...], "moves": ["e2e4", ...], "log": "FILE"}
It answers `variant` with the setup and piece lines (none for XBoard's own games), and each time it
is to move (`go`, or `usermove` when not in force mode) sends the next answer: `resign`, or a move
as `move ANSWER` (`e7e8,e8b8`; `@@@@` passes inside the opponent's turn of several moves). With no
answer left it stays silent. Every line it reads (`< `) and writes (`> `) goes to the log.
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
            send('feature myname="scripted" usermove=1 setboard=1 ping=1 time=1 sigint=0 sigterm=0 '
                 'variants="' + cfg["variant"] + '" done=1')
        elif word == "ping":
            send("pong " + rest)
        elif word == "variant":
            if cfg.get("setup"):
                send(cfg["setup"])
            for p in cfg.get("pieces", []):
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
                answer = moves.pop(0)
                send(answer if answer == "resign" else "move " + answer)


if __name__ == "__main__":
    main()
