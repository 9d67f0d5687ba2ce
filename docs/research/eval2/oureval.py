#!/usr/bin/env python3
"""oureval.py BIN in.tsv out.txt : our static eval (stm view) for column 4 FENs, one per line."""
import subprocess, sys, re
binp, inp, outp = sys.argv[1:4]
fens = [l.rstrip('\n').split('\t')[3] for l in open(inp)]
out = []
CH = 20000
for k in range(0, len(fens), CH):
    chunk = fens[k:k+CH]
    s = "uci\n" + "".join(f"position fen {f}\neval\n" for f in chunk) + "quit\n"
    r = subprocess.run(["nice", "-n", "19", binp], input=s, capture_output=True, text=True)
    v = re.findall(r"info string eval cp (-?\d+)", r.stdout)
    assert len(v) == len(chunk), (len(v), len(chunk))
    out += v
open(outp, 'w').write("\n".join(out) + "\n")
