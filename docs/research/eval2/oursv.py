#!/usr/bin/env python3
"""oursv.py NAME BIN VARIANT DEFS file.json ...: our eval in a user variant (e.g. normal with some terms zeroed)."""
import json, sys, subprocess, re
name, binp, var, defs = sys.argv[1:5]
for f in sys.argv[5:]:
    d = json.load(open(f))
    inp = f"uci\nsetoption name UCI_Variant value {var}\n" + "".join(f"position fen {r['fen']}\neval\n" for r in d) + "quit\n"
    out = subprocess.run(["nice", "-n", "19", binp, "--variants", defs], input=inp, capture_output=True, text=True).stdout
    v = [int(x) for x in re.findall(r"info string eval cp (-?\d+)", out)]
    assert len(v) == len(d)
    for r, x in zip(d, v): r['ours'][name] = x
    json.dump(d, open(f, 'w'))
