#!/usr/bin/env python3
"""Our danger term (our_ks.py) against FSF 11's (fsf_kingdanger.py) for both kings of every broad-sample position. Usage: run in its folder, after analyse.py's inputs exist."""
import json,chess,numpy as np
from fsf_kingdanger import king_safety
from our_ks import danger
rows=[r for r in json.load(open('all.json')) if r['fsf_total'] is not None]
U=[];K=[];DO=[];DF=[]
for r in rows:
    b=chess.Board(r['fen']); stm=b.turn
    mob={stm:r['sides']['Mobility'][0][0]*2.13,(not stm):r['sides']['Mobility'][1][0]*2.13}
    for att in (True,False):
        k=king_safety(b,not att,mob)
        mg,eg,s=danger(b,att)
        U.append(s if s is not None else 0); K.append(k['kd']); DO.append(mg); DF.append(k['danger_mg']*100/213)
U,K,DO,DF=map(np.array,(U,K,DO,DF))
print('n kings',len(U),'corr(our units, FSF kd)',np.corrcoef(U,K)[0,1].round(2),'corr(our danger mg, FSF danger mg cp)',np.corrcoef(DO,DF)[0,1].round(2))
print('FSF danger mg cp: mean',DF.mean().round(1),'p90',np.percentile(DF,90).round(),'p99',np.percentile(DF,99).round(),' ours mg: mean',DO.mean().round(1),'p90',np.percentile(DO,90),'p99',np.percentile(DO,99))
print('share of kings with our danger > 0:', (DO>0).mean().round(2), ' FSF kd>100:', (K>100).mean().round(2))
# slope of ours on FSF danger
A=np.column_stack([np.ones(len(DF)),DF]); print('ours_mg ~ a + b*FSF_mg_cp: b', np.linalg.lstsq(A,DO,rcond=None)[0].round(2))
