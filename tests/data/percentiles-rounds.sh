#!/bin/bash
# Alternating rounds of one movebench command with and without --percentiles
# (docs/performance.md): round r runs it with ("on") and without ("off"),
# the order swapped every round; each run's output in OUT/r<round>-<on|off>.txt,
# its result document beside it. The p2p, coll and fleet run.sh call it.
# usage: percentiles-rounds.sh BIN OUT ROUNDS ARGS... (movebench's arguments, np 2)
set -u
BIN=$1; OUT=$2; ROUNDS=$3; shift 3
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for r in $(seq 1 "$ROUNDS"); do
  if (( r % 2 )); then order="on off"; else order="off on"; fi
  for mode in $order; do
    flag=--percentiles; [[ $mode == off ]] && flag=--no-percentiles
    { echo "# round $r $mode: $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
      timeout 300 mpirun -np 2 "$BIN" "$@" $flag --json "$OUT/r${r}-${mode}.json"
    } > "$OUT/r${r}-${mode}.txt" 2>&1
  done
done
