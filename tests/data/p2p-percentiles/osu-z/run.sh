#!/bin/bash
# OSU's osu_latency -z and movebench p2p -z side by side: alternating rounds,
# the same sizes, iterations and warm-up, each run's whole output kept.
# OSU is built outside the repository from its public sources (docs/performance.md).
# usage: run.sh MOVEBENCH OSU_LATENCY OUT [ROUNDS]
set -u
BIN=$1; OSU=$2; OUT=$3; ROUNDS=${4:-10}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SAME="-m 8:65536 -i 10000 -x 1000"
{ echo "# $(grep -m1 'model name' /proc/cpuinfo); $(mpirun --version | head -1)"
  echo "# osu: mpirun -np 2 $OSU -z $SAME"
  echo "# movebench: mpirun -np 2 $BIN p2p --tests latency -z $SAME --json OUT/r<round>-movebench.json"
} > "$OUT/commands.txt"
for r in $(seq 1 "$ROUNDS"); do
  if (( r % 2 )); then order="osu movebench"; else order="movebench osu"; fi
  for tool in $order; do
    { echo "# round $r $tool: $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
      if [[ $tool == osu ]]; then
        timeout 300 mpirun -np 2 "$OSU" -z $SAME
      else
        timeout 300 mpirun -np 2 "$BIN" p2p --tests latency -z $SAME --json "$OUT/r${r}-movebench.json"
      fi
    } > "$OUT/r${r}-${tool}.txt" 2>&1
  done
done
