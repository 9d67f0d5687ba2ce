#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs from the repository's fixtures into fuzz/seeds/<target>/
(perft positions, CECP and UCI transcripts, variant files, .zsg games, a PGN). `cargo fuzz cmin`
then keeps the ones that add coverage in fuzz/corpus/<target>/ (see fuzz/README.md)."""
import glob
import hashlib
import os
import random
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "seeds")
# The order of Registry::builtin() (src/variants/mod.rs): the first byte of a position input.
GAMES = ["normal", "wildcastle", "pillage", "wildrose", "wreckage", "crazyhouse"]
rng = random.Random(15)


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


# Positions: every perft FEN, in its game, with a random walk.
perft_fens = {}
for path in glob.glob(os.path.join(ROOT, "fixtures/perft/*.perft")):
    game = os.path.basename(path)[: -len(".perft")]
    game = "normal" if game == "chess" else game
    fens = [l[4:].strip() for l in read(path).splitlines() if l.startswith("epd ")]
    perft_fens[game] = fens
    for fen in fens:
        walk = bytes(rng.randrange(255) for _ in range(rng.randrange(4, 20)))
        put("position", bytes([GAMES.index(game)]) + fen.encode() + b"\n" + walk)
for i, game in enumerate(GAMES):
    put("position", bytes([i]) + b"\n" + bytes(rng.randrange(255) for _ in range(20)))

# Transcripts: GUI lines as sessions and as single lines; engine lines as engine lines.
moves_seen = set()
for path in sorted(glob.glob(os.path.join(ROOT, "protocol/transcripts/*.txt"))):
    text = read(path)
    gui = [l[2:] for l in text.splitlines() if l.startswith("> ")]
    engine = [l[2:].lstrip() for l in text.splitlines() if l.startswith("<")]
    uci = os.path.basename(path).startswith("uci-")
    put("uci_session" if uci else "cecp_session", "\n".join(gui[:64]))
    for line in gui + engine:
        put("uci_line" if uci else "cecp_line", line)
        for word in line.split()[1:]:
            if re.fullmatch(r"[a-zA-Z@]\S{2,}", word):
                moves_seen.add(word)
for tc in ["1+0.01", "40/60", "0.5+0.05", "st=0.1", "1e20", "10/1e19+1e20"]:
    put("uci_line", tc)

# Move texts in every notation, against positions of each game.
for i, game in enumerate(GAMES):
    fens = [""] + perft_fens.get(game, [])[:3]
    for fen in fens:
        words = rng.sample(sorted(moves_seen), min(10, len(moves_seen)))
        words += ["e4", "Nf3", "O-O", "exd5", "e8=Q", "Pawn e2 e4", "White Pawn e4", "e2 - e4", "pass"]
        put("move_text", bytes([i]) + fen.encode() + b"\n" + "\n".join(words).encode())

# Betza strings from the variant files.
for path in glob.glob(os.path.join(ROOT, "fixtures/variants/**/*.toml"), recursive=True):
    text = read(path)
    put("definition", text)
    for b in re.findall(r'betza\s*=\s*"([^"]*)"', text):
        put("betza", b)

# Zillions save games.
for path in glob.glob(os.path.join(ROOT, "fixtures/zsg/*.zsg")):
    put("zsg", read(path))

# PGN: a game of each kind the runner writes (tags, SAN moves, comments, result).
put("pgn", """[Event "fairybridge match"]
[White "a"]
[Black "b"]
[Result "1-0"]
[Variant "normal"]

1. e4 {+0.20/5 0.1s} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {mate} 1-0

[Event "fairybridge match"]
[Variant "wildcastle"]
[FEN "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
[Result "*"]

1. d4 d5 2. c4 (2. Nf3 Nf6) e6 $1 *
""")
