#!/usr/bin/env python3
"""A scripted CECP engine that plays a fixed list of answers (tests/match_wildrose_turns.rs).

Usage: rose-script.py LOG ANSWER...
Each time it is to act -- on `go`, or on `usermove` when not in force mode -- it answers with the
next ANSWER: `resign`, or a move to send as `move ANSWER` (`e7e8,e8b8`; `@@@@` is the pass inside
the opponent's turn of several moves). With no answer left it stays silent. Every line it reads is appended to LOG, so
the test can see what the referee told it.
"""
import sys


def main():
    log = open(sys.argv[1], "a")
    answers = list(sys.argv[2:])
    forced = False

    def send(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def act():
        if answers:
            answer = answers.pop(0)
            send(answer if answer == "resign" else "move " + answer)

    for raw in sys.stdin:
        line = raw.strip()
        log.write(line + "\n")
        log.flush()
        word, _, rest = line.partition(" ")
        if word == "protover":
            send('feature myname="Rose script" usermove=1 setboard=1 ping=1 time=1 '
                 'variants="wildrose" sigint=0 sigterm=0 done=1')
        elif word == "ping":
            send("pong " + rest)
        elif word == "quit":
            return
        elif word == "new":
            forced = False
        elif word == "force":
            forced = True
        elif word == "go":
            forced = False
            act()
        elif word == "usermove" and not forced:
            act()


if __name__ == "__main__":
    main()
