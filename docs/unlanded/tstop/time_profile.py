"""Mean thinking time and depth by move number (buckets of 5) per engine from a match PGN."""
import re, sys, collections
tot = collections.defaultdict(lambda: [0.0, 0, 0]); names=set()
text = open(sys.argv[1]).read()
for game in re.split(r'\n(?=\[Event )', text):
    w = re.search(r'\[White "([^"]*)"\]', game); b = re.search(r'\[Black "([^"]*)"\]', game)
    if not w or not b: continue
    body = game[game.rfind(']') + 1:]
    fen = re.search(r'\[FEN "([^"]*)"\]', game)
    side = 1 if fen and fen.group(1).split()[1] == 'b' else 0
    k = [0, 0]
    for m in re.finditer(r'\{[^}/]*/(\d+) (\d+\.\d+)s\}', body):
        name = (w.group(1), b.group(1))[side].split('-')[0]; names.add(name)
        bucket = k[side] // 5
        t = tot[(name, bucket)]; t[0] += float(m.group(2)); t[1] += 1; t[2] += int(m.group(1))
        k[side] += 1; side ^= 1
names = sorted(names)
print("moves  " + "  ".join(f"{n:>22}" for n in names))
for bk in range(0, 20):
    row = []
    for n in names:
        t = tot.get((n, bk))
        row.append(f"{t[0]/t[1]:6.3f}s d{t[2]/t[1]:5.2f} n{t[1]:5d}" if t and t[1] else " " * 22)
    print(f"{bk*5+1:3d}-{bk*5+5:<3d}" + "  ".join(row))
