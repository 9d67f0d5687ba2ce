import re, sys
tot={}
st=[l for l in open(sys.argv[1]).read().split('\n') if l.startswith('STATS')]
for i,l in enumerate(st):
    if i%10==0: continue
    for k,v in re.findall(r'(\w+)=(\d+)', l):
        tot[k]=tot.get(k,0)+int(v)
n=tot['nodes']
print(sys.argv[1], {k:(round(v/n,4) if k not in ('depth','nodes') else v) for k,v in tot.items()})
