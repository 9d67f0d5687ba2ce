#!/usr/bin/env python3
"""What XBoard 4.9.1 accepts with legality testing on: the measurements behind the README's Pillage
section, the `piece`/`setup` lines we send, and our Wild Castle castling moves, re-run on demand.

Usage: scripts/xboard-probe.py [OUTDIR]   (default target/xboard-probe; needs xboard, Xvfb)

Each probe is one short game between two scripted engines (scripts/e2e/scripted-engine.py) that announce
a position and `piece` lines and play fixed moves; XBoard judges the moves with legality testing on.
Wild Castle is XBoard's own game: its probes start from a FEN file instead of a `setup` line.
The Wreckage probes compare two `setup` parents: `fairy` (XBoard puts captures in the capturer's
holdings, as in crazyhouse) and `bughouse`, which we send (drops work, captures stay out).
A probe prints what XBoard did -- accepted or refused the last move, and its own final position --
next to what we expect it to do. Exit status 1 if any probe differs from its expectation.
Wire squares (ranks 0..9).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = os.path.join(ROOT, "scripts", "e2e", "scripted-engine.py")
FAIRYBRIDGE = os.environ.get("FAIRYBRIDGE", os.path.join(ROOT, "target", "release", "fairybridge"))


def our_lines(variant="pillage"):
    """The table and `piece` lines fairybridge itself sends for `variant VARIANT`."""
    out = subprocess.run([FAIRYBRIDGE], input=f"xboard\nprotover 2\nvariant {variant}\nquit\n",
                         capture_output=True, text=True, timeout=30).stdout
    setup = next(l for l in out.splitlines() if l.startswith("setup "))
    pieces = {l.split()[1][0]: l for l in out.splitlines() if l.startswith("piece ")}
    return setup.split()[1], pieces


OUR_TABLE, OUR_PIECES = our_lines()
WRECKAGE_TABLE, WRECKAGE_PIECES = our_lines("wreckage")
PAWN = OUR_PIECES["P"]                   # fmWfmnDfceF: XBoard's modifier order
SUPER = OUR_PIECES["S"]
KING = OUR_PIECES["K"]                   # KisjO1..isjO4
TABLE_COBRA = OUR_TABLE                  # the super pawn in the cobra slot
TABLE_LANCE = "(PNBRQ......C.....VS..Kpnbrq......c.....vs..k)"
START = "cv6vc/srnbqkbnrs/pppppppppp/10/10/10/10/PPPPPPPPPP/SRNBQKBNRS/CV6VC w KQkq - 0 1"
PAWN_OLD = "piece P& mfWmfnDcfeF"        # our order before: XBoard reads it as mW + mD + cF, no e.p.
PAWN_LOCUST = PAWN + "rcalmWlcarmW"      # what stop 8 sent: a sideways locust for e.p.
KING_NO_J = "piece K& KisO1isO2isO3isO4"

# (name, table, FEN, piece lines, White's moves, Black's moves, expected: "accepted" or "refused",
#  what the probe shows, XBoard's placement afterwards when accepted)
PROBES = [
    ("ep-first-double-step-old-order", TABLE_COBRA, START, [PAWN_OLD, SUPER, KING],
     ["a2a3", "a3a4", "c2c4"], ["d7d5", "d5d4", "d4c4,c4c3"], "refused",
     "modifiers out of XBoard's order: no e.p. at all", None),
    ("ep-first-double-step", TABLE_COBRA, START, [PAWN, SUPER, KING],
     ["a2a3", "a3a4", "c2c4"], ["d7d5", "d5d4", "d4c4,c4c3"], "accepted",
     "two-leg e.p. in the capturer's far half", 'cv6vc/srnbqkbnrs/ppp1pppppp/10/10/P9/2p7/1P1PPPPPPP/SRNBQKBNRS/CV6VC'),
    ("ep-later-double-step", TABLE_COBRA, START, [PAWN, SUPER, KING],
     ["c2c3", "c3c5"], ["d7d5", "d5c5,c5c4"], "accepted",
     "two-leg e.p. in the capturer's own half (XBoard's final position: no white pawn on c5)", 'cv6vc/srnbqkbnrs/ppp1pppppp/10/10/2p7/10/PP1PPPPPPP/SRNBQKBNRS/CV6VC'),
    ("ep-later-double-step-plain", TABLE_COBRA, START, [PAWN, SUPER, KING],
     ["c2c3", "c3c5"], ["d7d5", "d5c4"], "accepted",
     "plain e.p. in the own half: accepted, but XBoard leaves the victim on c5", 'cv6vc/srnbqkbnrs/ppp1pppppp/10/2P7/2p7/10/PP1PPPPPPP/SRNBQKBNRS/CV6VC'),
    ("king-beside-pawn-with-locust", TABLE_COBRA, "4k5/10/10/10/10/4K5/3p6/10/10/10 w - - 0 1",
     [PAWN_LOCUST, "piece K& K"], ["e4e3"], [], "refused",
     "a sideways locust in the pawn's line makes XBoard see pawns attacking sideways", None),
    ("king-beside-pawn", TABLE_COBRA, "4k5/10/10/10/10/4K5/3p6/10/10/10 w - - 0 1",
     [PAWN, "piece K& K"], ["e4e3"], [], "accepted", "the same king move without the locust", '4k5/10/10/10/10/10/3pK5/10/10/10'),
    ("castling-corner-empty-no-j", TABLE_COBRA, "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1",
     [PAWN, KING_NO_J], ["f0d0,b0e0"], [], "refused",
     "without j XBoard castles with the corner piece, which is gone", None),
    ("castling-corner-empty-j", TABLE_COBRA, "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1",
     [PAWN, KING], ["f0d0,b0e0"], [], "accepted", "with isjO the rook one file in is the partner", '5k4/10/10/10/10/10/10/10/10/3KR3R1'),
    ("castling-king-onto-rook", TABLE_COBRA, "10/5k4/10/10/10/10/10/10/SR3K2RS/C8C w KQ - 0 1",
     [PAWN, SUPER, KING], ["f1b1,b1b1"], [], "accepted", "O-O-O/4: king onto the rook's square", '10/5k4/10/10/10/10/10/10/SKR5RS/C8C'),
    ("super-pawn-promotion-cobra", TABLE_COBRA, "9k/4P5/2S7/10/10/10/10/10/10/K9 w - - 0 1",
     [PAWN, SUPER, "piece K& K"], ["c7a9c"], [], "refused",
     "XBoard lets only a pawn or a lance promote", None),
    ("super-pawn-promotion-lance", TABLE_LANCE, "9k/4P5/2S7/10/10/10/10/10/10/K9 w - - 0 1",
     [PAWN, SUPER, "piece K& K"], ["c7a9c"], [], "accepted", "in the lance slot it may", 'C8k/4P5/10/10/10/10/10/10/10/K9'),
    ("super-pawn-diagonal-lance", TABLE_LANCE, "9k/10/10/5Sp3/10/10/10/10/10/K9 w - - 0 1",
     [PAWN, SUPER, "piece K& K"], ["f6g7"], [], "accepted",
     "but a lance is a pawn to XBoard's e.p. code: it removes the black pawn on g6", '9k/10/6S3/10/10/10/10/10/10/K9'),
    # Wild Castle spec T4: castling from a d-file king, sent as the king's move (what we send).
    ("wildcastle-d-file-towards-h", None, "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1",
     [], ["d1f1"], ["d8f8"], "accepted", "king d1-f1, rook h1-e1 (XBoard calls it O-O-O)",
     "r3rk2/pppppppp/8/8/8/8/PPPPPPPP/R3RK2"),
    ("wildcastle-d-file-towards-a", None, "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1",
     [], ["d1b1"], ["d8b8"], "accepted", "king d1-b1, rook a1-c1",
     "1kr4r/pppppppp/8/8/8/8/PPPPPPPP/1KR4R"),
]


# Wreckage's holdings in XBoard, by `setup` parent (issue 23): the queen takes a pawn, then a ninja
# and the Guillotine are dropped. (name, size and parent, the same fields as above.)
WRECKAGE_FEN = "5k4/10/10/10/4p5/10/10/4Q5/10/5K4[GJJgjj] w - - 0 1"
WRECKAGE_PROBES = [
    ("wreckage-holdings-fairy", "10x10+3_fairy",
     (WRECKAGE_TABLE, WRECKAGE_FEN, list(WRECKAGE_PIECES.values()), ["e2e5", "G@a0"], ["J@a8", "f9g9"], "accepted",
      "parent fairy: drops work, but the captured pawn goes to White's holdings", "6k3/j9/10/10/4Q5/10/10/10/10/G4K4[PJJjg]")),
    ("wreckage-holdings-bughouse", "10x10+3_bughouse",
     (WRECKAGE_TABLE, WRECKAGE_FEN, list(WRECKAGE_PIECES.values()), ["e2e5", "G@a0"], ["J@a8", "f9g9"], "accepted",
      "parent bughouse (ours): drops work, the holdings stay the real ones", "6k3/j9/10/10/4Q5/10/10/10/10/G4K4[JJjg]")),
]


def start_xvfb(out):
    """A headless X server on a free display; its messages go to OUT/xvfb.log. The display number
    comes through a file (as in xboard-check.sh): pipe descriptors get mixed up with the standard
    ones when this runs with its standard input closed (CI)."""
    number_file = os.path.join(out, "xvfb.display")
    with open(number_file, "w") as numbers, open(os.path.join(out, "xvfb.log"), "w") as log:
        proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(numbers.fileno()), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(numbers.fileno(),), stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    for _ in range(100):
        display = open(number_file).read().strip()
        if display or proc.poll() is not None:
            break
        time.sleep(0.1)
    if not display or proc.poll() is not None:
        sys.exit(f"Xvfb did not start (see {out}/xvfb.log)")
    return proc, ":" + display


def run_probe(out, display, probe, variant=None, size="10x10+0_fairy"):
    name, table, fen, pieces, white, black, expected, shows, placement = probe
    d = os.path.join(out, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "home"))
    variant = variant or ("pillage" if table else "wildcastle")
    setup = f"setup {table} {size} {fen}" if table else None
    cmds = []
    for side, moves in (("white", white), ("black", black)):
        cfg = {"variant": variant, "setup": setup, "pieces": pieces,
               "moves": moves, "log": os.path.join(d, side + ".log")}
        path = os.path.join(d, side + ".json")
        json.dump(cfg, open(path, "w"))
        cmds.append(f"python3 {ENGINE} {path}")
    debug = os.path.join(d, "xboard.debug")
    final = os.path.join(d, "final.fen")
    args = ["xboard", "-fcp", cmds[0], "-scp", cmds[1], "-fd", d, "-sd", d,
            "-matchMode", "true", "-matchGames", "1", "-variant", variant, "-tc", "0:04", "-inc", "0",
            "-testLegality", "true", "-popupExitMessage", "false", "-saveSettingsOnExit", "false",
            "-autoCallFlag", "true", "-debugMode", "true", "-nameOfDebugFile", debug,
            "-savePositionFile", final, "-saveGameFile", os.path.join(d, "xboard.pgn"),
            "-size", "medium", "-soundProgram", "/bin/true"]
    if not table:
        start = os.path.join(d, "start.fen")
        open(start, "w").write(fen + "\n")
        args += ["-loadPositionFile", start, "-loadPositionIndex", "1"]
    env = dict(os.environ, DISPLAY=display, HOME=os.path.join(d, "home"))
    with open(os.path.join(d, "xboard.out"), "w") as xboard_out:
        try:
            subprocess.run(args, env=env, timeout=60, stdin=subprocess.DEVNULL, stdout=xboard_out,
                           stderr=subprocess.STDOUT)
        except subprocess.TimeoutExpired:
            return name, expected, "no result (XBoard did not finish)", "", shows, placement
    if not os.path.exists(debug):
        return name, expected, f"no result (XBoard did not run, see {d}/xboard.out)", "", shows, placement
    text = open(debug, errors="replace").read()
    last = (white + black)[-1] if (white + black) else ""
    # XBoard names a two-leg move by its first square and its last one (`d4c4,c4c3` -> `d4c3`).
    legs = last.split(",")
    glued = legs[0][:2] + legs[-1][2:]
    forfeit = re.search(r"Forfeit due to (?:invalid|illegal) move: (\S+)", text)
    if forfeit and forfeit.group(1) in (last, glued):
        result = "refused"
    elif forfeit:
        result = f"refused an earlier move ({forfeit.group(1)})"
    else:
        result = "accepted"
    position = open(final).read().strip().splitlines()[-1] if os.path.exists(final) else ""
    if result == "accepted" and placement and position.split()[:1] != [placement]:
        result = f"accepted, but XBoard's board is not {placement}"
    return name, expected, result, position, shows, placement


def main():
    if not shutil.which("xboard") and os.path.exists("/usr/games/xboard"):
        os.environ["PATH"] += os.pathsep + "/usr/games"
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "xboard-probe"))
    os.makedirs(out, exist_ok=True)
    xvfb, display = start_xvfb(out)
    print(f"Xvfb on display {display}")
    differ = 0
    runs = [(probe, None, "10x10+0_fairy") for probe in PROBES]
    runs += [((name,) + rest, "wreckage", size) for name, size, rest in WRECKAGE_PROBES]
    try:
        for probe, variant, size in runs:
            name, expected, result, position, shows, _ = run_probe(out, display, probe, variant, size)
            ok = result == expected
            differ += not ok
            print(f"{'ok  ' if ok else 'DIFF'} {name}: {result} (expected {expected}) -- {shows}")
            if position:
                print(f"     XBoard's position: {position}")
    finally:
        xvfb.terminate()
    print(f"{len(runs) - differ} of {len(runs)} probes as expected; logs in {out}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
