#!/usr/bin/env python3
"""The link bandwidth table of docs/performance.md from runs of bench/link_stream.sh:
the median over the runs of each figure. Usage: bench/link_stream_table.py DIR [DIR ...]"""
import json,statistics as st,collections,sys
runs=sys.argv[1:]
val=collections.defaultdict(list)
for r in runs:
    for b in ['host','opencl']:
        d=json.load(open(f'{r}/link_bw_{b}.json'))
        for rec in d['timings']:
            f={k:x['value'] for k,x in rec['figures'].items()}
            key=(b,rec['params']['host_memory'],rec['params']['path'],rec['operation'],rec['bytes'])
            val[key].append((f['bandwidth'],f['bandwidth_median'],rec['params'].get('overlap')))
def g(b,k,p,op,sz):
    v=val.get((b,k,p,op,sz))
    if not v: return '-'
    a=st.median(x[0] for x in v); m=st.median(x[1] for x in v)
    if v[0][2] is not None: return f"{a:.0f} ({st.median(x[2] for x in v):.2f})"
    return f"{a:.0f} ({m:.0f})"
kinds={'host':['pageable','pinned'],'opencl':['pageable','pinned','mapped','registered']}
for b in ['host','opencl']:
  for k in kinds[b]:
    for p in ['copy','kernel']:
      for sz in [65536,16777216]:
        r=g(b,k,p,f'{p}.read',sz)
        if r=='-': continue
        name={'host':'host','opencl':'PoCL'}[b]
        print(f"| {name}, {k} | {p} | {sz//1024 if sz<1<<20 else sz>>20} {'KiB' if sz<1<<20 else 'MiB'} | {r} | {g(b,k,p,f'{p}.write',sz)} | {g(b,k,p,f'{p}.duplex.total',sz)} |")
