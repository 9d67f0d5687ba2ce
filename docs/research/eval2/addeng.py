#!/usr/bin/env python3
"""addeng.py NAME BIN file.json ... : add our engine BIN's static eval as ours[NAME]."""
import os
import json, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kd'))
import eval_positions as ep
name, binp = sys.argv[1:3]
for f in sys.argv[3:]:
    d = json.load(open(f))
    v = ep.ours(binp, [r['fen'] for r in d])
    for r, x in zip(d, v): r['ours'][name] = x
    json.dump(d, open(f, 'w'))
