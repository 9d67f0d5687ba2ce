#!/usr/bin/env python3
"""Labels training positions with a UCI engine's search, for `fairybridge tune --from-data`.

Usage:
  scripts/label-positions.py score ENGINE IN RAW [--depth N] [--workers N] [--variant NAME]
  scripts/label-positions.py blend RAW OUT [--lam L] [--scale S]
  scripts/label-positions.py suite ENGINE IN.epd OUT.epd [--depth N] [--max-score M] [--workers N]
                                   [--variant NAME]

`score` reads IN, a data file of `RESULT;FEN` lines (`fairybridge tune ... --data FILE --passes 0`
writes one), asks ENGINE (any UCI engine, e.g. /usr/games/fairy-stockfish) for a `go depth N` score
of each position from a fresh game (`ucinewgame`, 16 MB hash, one thread; `UCI_Variant NAME` when
--variant is given, for engines such as Fairy-Stockfish that play other games than chess), and
writes RAW, `RESULT;CP;FEN` lines with CP the score for White (a mate is +-3000). Positions keep
their order, so the tuner's held-out tail stays the last games; a position the engine gives no
score for is left out and counted.

`blend` turns RAW into OUT, `LABEL;FEN` lines the tuner reads:
LABEL = L * RESULT + (1 - L) / (1 + 10^(-CP / S)), by default L = 0.25, S = 400. A game's result
alone says little about one position of it; a stronger engine's score says what the position is
worth, which is what the evaluation's weights are fitted to predict.

`suite` keeps the lines of an opening suite (EPD, as `fairybridge openings` writes) that ENGINE
scores within M centipawns (default 50) at depth N (default 12), each line as it was but with its
`ce` the engine's score for the side to move, under a header that names the suite, the engine and
the command: openings balanced by a stronger judge than the engine that made them.

Exit status 0 on success, 2 on a usage or input error, 1 when the engine fails.
"""
import argparse
import multiprocessing
import os
import re
import subprocess
import sys

CHUNK = 500
MATE_CP = 3000


def usage_error(message):
    print(f"label-positions: {message}", file=sys.stderr)
    sys.exit(2)


def read_lines(path):
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            out.append((number, line))
    return out


class Engine:
    def __init__(self, command, variant):
        self.proc = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Hash value 16")
        self.send("setoption name Threads value 1")
        if variant:
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word):
        for line in self.proc.stdout:
            if line.split()[:1] == [word]:
                return
        raise RuntimeError(f"the engine ended before '{word}'")

    def score(self, fen, depth):
        """The last reported score of `go depth`, for the side to move, or None."""
        self.send("ucinewgame")
        self.send("position fen " + fen)
        self.send(f"go depth {depth}")
        score = None
        for line in self.proc.stdout:
            words = line.split()
            if words[:1] == ["bestmove"]:
                return score
            if words[:1] == ["info"] and "score" in words:
                i = words.index("score")
                if i + 2 < len(words) and words[i + 1] == "cp":
                    score = int(words[i + 2])
                elif i + 2 < len(words) and words[i + 1] == "mate":
                    score = MATE_CP if int(words[i + 2]) > 0 else -MATE_CP
        raise RuntimeError("the engine ended before 'bestmove'")

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def score_chunk(job):
    command, variant, depth, lines = job
    engine = Engine(command, variant)
    out = []
    for _number, line in lines:
        result, fen = line.split(";", 1)
        cp = engine.score(fen.strip(), depth)
        if cp is None:
            continue
        if fen.split()[1:2] == ["b"]:
            cp = -cp
        out.append(f"{result.strip()};{cp};{fen.strip()}")
    engine.quit()
    return out


def scored_chunks(args, lines):
    """`score_chunk`'s output for each chunk of `lines` (numbered `RESULT;FEN`), in order, scored
    by `args.engine` on `args.workers` processes."""
    jobs = [(args.engine, args.variant, args.depth, lines[i:i + CHUNK])
            for i in range(0, len(lines), CHUNK)]
    with multiprocessing.Pool(args.workers) as pool:
        yield from pool.imap(score_chunk, jobs)


def score(args):
    lines = read_lines(args.input)
    for number, line in lines:
        parts = line.split(";", 1)
        if len(parts) != 2 or len(parts[1].split()) < 2:
            usage_error(f"{args.input}:{number}: expected RESULT;FEN")
    written = 0
    with open(args.raw, "w") as out:
        for done, part in enumerate(scored_chunks(args, lines), 1):
            out.writelines(line + "\n" for line in part)
            out.flush()
            written += len(part)
            print(f"label-positions: {min(done * CHUNK, len(lines))}/{len(lines)} positions",
                  file=sys.stderr, flush=True)
    print(f"label-positions: {written} scored, {len(lines) - written} without a score",
          file=sys.stderr)


def suite(args):
    if args.max_score < 0:
        usage_error("--max-score must be at least 0")
    entries = []
    with open(args.input) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) < 4:
                usage_error(f"{args.input}:{number}: expected an EPD line")
            entries.append((number, line, " ".join(fields[:4]) + " 0 1"))
    scores = {}
    for part in scored_chunks(args, [(n, f"0.5;{fen}") for n, _, fen in entries]):
        for scored in part:
            _result, cp, fen = scored.split(";", 2)
            # Back from White's view to the side to move's, as EPD's `ce`.
            white_cp = int(cp)
            scores[fen] = -white_cp if fen.split()[1] == "b" else white_cp
    kept = []
    for _number, line, fen in entries:
        cp = scores.get(fen)
        if cp is None or abs(cp) > args.max_score:
            continue
        if re.search(r"\bce -?\d+;", line):
            kept.append(re.sub(r"\bce -?\d+;", f"ce {cp};", line, count=1))
        else:
            kept.append(f"{line} ce {cp};")
    with open(args.output, "w") as out:
        out.write(f"# {os.path.basename(args.input)} kept where {os.path.basename(args.engine)} at depth "
                  f"{args.depth} scores |ce| <= {args.max_score} cp for the side to move "
                  f"({len(kept)} of {len(entries)}; ce is its score). Made with:\n")
        out.write(f"#   scripts/label-positions.py suite {args.engine} {args.input} {os.path.basename(args.output)} "
                  f"--depth {args.depth} --max-score {args.max_score}"
                  + (f" --variant {args.variant}" if args.variant else "") + "\n")
        out.writelines(line + "\n" for line in kept)
    print(f"label-positions: kept {len(kept)} of {len(entries)} positions", file=sys.stderr)


def blend(args):
    if not 0.0 <= args.lam <= 1.0 or args.scale <= 0:
        usage_error("--lam must be from 0 to 1 and --scale above 0")
    with open(args.output, "w") as out:
        for number, line in read_lines(args.raw):
            parts = line.split(";", 2)
            try:
                result, cp = float(parts[0]), float(parts[1])
                fen = parts[2]
            except (ValueError, IndexError):
                usage_error(f"{args.raw}:{number}: expected RESULT;CP;FEN")
            if not 0.0 <= result <= 1.0:
                usage_error(f"{args.raw}:{number}: result {result} is not from 0 to 1")
            cp = max(-MATE_CP, min(MATE_CP, cp))
            label = args.lam * result + (1 - args.lam) / (1 + 10 ** (-cp / args.scale))
            out.write(f"{label:.4f};{fen}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def engine_command(name, help_text, output, depth):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("engine")
        p.add_argument("input")
        p.add_argument(output)
        p.add_argument("--depth", type=int, default=depth)
        p.add_argument("--workers", type=int, default=2)
        p.add_argument("--variant", default="")
        return p

    engine_command("score", "score positions with a UCI engine", "raw", 10)
    b = sub.add_parser("blend", help="turn scores and results into labels")
    b.add_argument("raw")
    b.add_argument("output")
    b.add_argument("--lam", type=float, default=0.25)
    b.add_argument("--scale", type=float, default=400.0)
    u = engine_command("suite", "keep the openings a UCI engine finds balanced", "output", 12)
    u.add_argument("--max-score", type=int, default=50)
    args = parser.parse_args()
    try:
        if args.command in ("score", "suite") and (args.depth < 1 or args.workers < 1):
            usage_error("--depth and --workers must be at least 1")
        if args.command == "score":
            score(args)
        elif args.command == "suite":
            suite(args)
        else:
            blend(args)
    except (RuntimeError, BrokenPipeError, subprocess.TimeoutExpired) as e:
        print(f"label-positions: the engine failed: {e}", file=sys.stderr)
        sys.exit(1)
    except OSError as e:
        usage_error(str(e))


if __name__ == "__main__":
    main()
