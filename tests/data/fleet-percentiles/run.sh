#!/bin/bash
# Alternating rounds of fleet (two ranks, one pair) with and without
# --percentiles (docs/performance.md).
set -u
BIN=$1; OUT=$2; ROUNDS=${3:-10}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for r in $(seq 1 "$ROUNDS"); do
  if (( r % 2 )); then order="on off"; else order="off on"; fi
  for mode in $order; do
    flag=--percentiles; [[ $mode == off ]] && flag=--no-percentiles
    { echo "# round $r $mode: $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
      timeout 300 mpirun -np 2 "$BIN" fleet --per rank --array-bytes 16M --chase-bytes 4M --repetitions 3 \
        --time-budget 4 $flag --json "$OUT/r${r}-${mode}.json"
    } > "$OUT/r${r}-${mode}.txt" 2>&1
  done
done
