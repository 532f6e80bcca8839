#!/usr/bin/env bash
# The link and stream figures of docs/performance.md: host and OpenCL (PoCL)
# here; add --backend cuda on a GPU machine. Usage: bench/link_stream.sh [movebench] [outdir]
set -euo pipefail
BIN=${1:-build/release/movebench}
OUT=${2:-results/link_stream}
mkdir -p "$OUT"
for b in host opencl; do
  "$BIN" link bandwidth --backend "$b" --sizes-bytes 4K:16M:x4 --repetitions 5 --paths copy,kernel \
    --directions read,write,duplex --json "$OUT/link_bw_$b.json" > "$OUT/link_bw_$b.txt"
  "$BIN" link latency --backend "$b" --repetitions 20 --json "$OUT/link_lat_$b.json" > "$OUT/link_lat_$b.txt"
  "$BIN" stream --backend "$b" --chunks 64 --chunk-elements 16384 --repetitions 4 --sizes-bytes 4K:1M:x4 \
    --json "$OUT/stream_$b.json" > "$OUT/stream_$b.txt"
done
