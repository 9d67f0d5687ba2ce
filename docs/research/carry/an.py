import json, sys, math
# usage: an.py carried.json fresh.json [drop_last]
c = json.load(open(sys.argv[1])); f = json.load(open(sys.argv[2])); drop = len(sys.argv) > 3
def clean(d):
    x = {int(k): v for k, v in d.items() if k != "hf"}
    if drop and x: x.pop(max(x))
    return x
c = [clean(d) for d in c]; f = [clean(d) for d in f]
print("mean last depth carried %.2f fresh %.2f" % (sum(max(d) for d in c)/len(c), sum(max(d) for d in f)/len(f)))
allr=[]
for D in (7,8,9,10):
    allr += [math.log(a[D] / b[D]) for a, b in zip(c, f) if D in a and D in b]
print("geo ratio d7-10 %.3f (n=%d)" % (math.exp(sum(allr)/len(allr)), len(allr)))
for D in range(1, 16):
    rs = [math.log(a[D] / b[D]) for a, b in zip(c, f) if D in a and D in b]
    if len(rs) >= 10:
        ca = sorted(a[D] for a in c if D in a); fa = sorted(b[D] for b in f if D in b)
        print(f"d{D:2d} n={len(rs):2d} carried/fresh geo {math.exp(sum(rs)/len(rs)):.3f}  median carried {ca[len(ca)//2]:7d} fresh {fa[len(fa)//2]:7d}")
