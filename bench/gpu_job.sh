#!/bin/bash
# gpu_job.sh: one lent GPU machine's job, every command and its whole output
# kept (issue 30), in priority order, each under its own time-out (about five
# minutes expected, 580 s at the very most, so that it fits one 600 s call): the device's own
# reports before; mem against BabelStream in BabelStream's convention with
# movebench's own beside it (bench/gpu_compare.py, rounds); the latency chase
# in device memory; the seq sweep with a sample's calls in one launch, then one
# launch per call; movebench's facts and link; link's chase from each SM in
# turn at nvbandwidth's ring and loads per SM (host_device_latency_sm: 2 MiB,
# 7575 loads from each of 132 SMs); stream's designs at 1 MiB chunks and
# link's chase; the persistent design over chunk sizes; the device's reports
# after.
# Builds nothing: MOVEBENCH is a portable build carried there, BABELSTREAM
# BabelStream's CUDA model built outside the repository
# (docs/performance.md says how to build and carry both).
#
#   [BABELSTREAM=path/cuda-stream] bench/gpu_job.sh OUTDIR [MOVEBENCH]
#
# Writes OUTDIR/commands.txt (each command with its exit status and seconds),
# OUTDIR/NN-name.out (stdout and stderr together), OUTDIR/*.json and
# OUTDIR/compare/ (gpu_compare.py's samples, summary and raw outputs). Each
# command is bounded (timeout); one failing does not stop the rest; without
# BABELSTREAM the comparison runs mem's two conventions alone.
#
# The dry run of the tests (tests/integration/test_gpu_job.py) sets, for
# PoCL and stand-ins: BACKEND (default cuda), ELEMENTS (default 512M = 2^29,
# where a launch is under 0.5 % of a call), REPS, ROUNDS, SEQ_SIZES,
# SEQ_ONE_SIZES, LATENCY_SIZES (default: mem's own, 4 KiB to 256 MiB),
# LINK_SIZES (default: link's own), STREAM_CHUNKS (1 MiB chunks per
# stream pass, default 64), PERSISTENT_SIZES (the persistent design's chunk
# sizes, default 16K:16M:x4), WINDOW (the TLB window, 2M), BUDGET (each sweep point's
# --time-budget), CHASE_STEPS (the stream step's link chase's loads, default
# link's own: PoCL's chase stays in the CPU's caches and needs more to be
# timed on a loaded machine) and TIME_SCALE (default 1: every step's and
# run's time-out times this; PoCL on a loaded 2-core machine needs more than
# a GPU).
set -u
out=${1:?usage: gpu_job.sh OUTDIR [MOVEBENCH]}
BIN=${2:-build/gpu/movebench}
BACKEND=${BACKEND:-cuda}
ELEMENTS=${ELEMENTS:-512M}
REPS=${REPS:-20}
ROUNDS=${ROUNDS:-3}
SEQ_SIZES=${SEQ_SIZES:-1K:1G:x2}
SEQ_ONE_SIZES=${SEQ_ONE_SIZES:-1K:64M:x4}
BUDGET=${BUDGET:-0.1}
STREAM_CHUNKS=${STREAM_CHUNKS:-64}
PERSISTENT_SIZES=${PERSISTENT_SIZES:-16K:16M:x4}
WINDOW=${WINDOW:-2M}
TIME_SCALE=${TIME_SCALE:-1}
chase_steps=()
[[ -n ${CHASE_STEPS:-} ]] && chase_steps=(--link-chase-steps "$CHASE_STEPS")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
n=0
step() { # step NAME SECONDS COMMAND...
  local name=$1 limit=$(($2 * TIME_SCALE)); shift 2
  n=$((n + 1))
  local tag
  tag=$(printf '%02d-%s' "$n" "$name")
  local began=$SECONDS
  timeout --kill-after=5 "$limit" "$@" >"$out/$tag.out" 2>&1
  local rc=$?
  printf '%s\trc=%d\t%ds\t%s\n' "$tag" "$rc" "$((SECONDS - began))" "$*" >>"$out/commands.txt"
}
clocks='--query-gpu=name,pci.bus_id,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active,pcie.link.gen.current,pcie.link.width.current --format=csv'
peer=()
if [ -n "${BABELSTREAM:-}" ]; then peer=(--babelstream "$BABELSTREAM"); fi
latency_sizes=()
if [ -n "${LATENCY_SIZES:-}" ]; then latency_sizes=(--sizes-bytes "$LATENCY_SIZES"); fi
link_sizes=()
if [ -n "${LINK_SIZES:-}" ]; then link_sizes=(--sizes-bytes "$LINK_SIZES"); fi

step context 20 sh -c 'date -u; uname -a; grep -m1 "model name" /proc/cpuinfo; nproc; free -g; ls /sys/devices/system/node'
step smi-q-before 20 nvidia-smi -q
step clocks-before 20 nvidia-smi $clocks
# 1. mem against BabelStream: --timing host-sync (its convention) and --timing device, ROUNDS rounds
step compare 160 "$here/gpu_compare.py" --movebench "$BIN" --backend "$BACKEND" --only mem,babelstream "${peer[@]}" \
  --rounds "$ROUNDS" --elements "$ELEMENTS" --repetitions "$REPS" --timeout $((60 * TIME_SCALE)) --out "$out/compare"
# 2. the latency chase in device memory, every working set; then with a TLB window (2 MiB)
step mem-latency 40 "$BIN" mem latency --backend "$BACKEND" "${latency_sizes[@]}" --time-budget "$BUDGET" \
  --json "$out/mem-latency.json"
step mem-latency-window 30 "$BIN" mem latency --backend "$BACKEND" "${latency_sizes[@]}" --tlb-window-bytes "$WINDOW" \
  --time-budget "$BUDGET" --json "$out/mem-latency-window.json"
# 3. the seq sweep, a sample's calls in one launch (the L2 plateau), then one launch per call beside it
step mem-seq 45 "$BIN" mem seq --backend "$BACKEND" -k init,copy,triad --sizes-bytes "$SEQ_SIZES" \
  --time-budget "$BUDGET" --outdir "$out/dat-seq" --json "$out/mem-seq.json"
step mem-seq-one-pass 30 "$BIN" mem seq --backend "$BACKEND" -k copy --sizes-bytes "$SEQ_ONE_SIZES" \
  --passes-per-launch 1 --time-budget "$BUDGET" --outdir "$out/dat-seq-one" --json "$out/mem-seq-one-pass.json"
# 4. the machine's facts and the link, as in the earlier jobs
step facts 20 "$BIN" facts --json "$out/facts.json"
step link 45 "$BIN" link --backend "$BACKEND" "${link_sizes[@]}" --json "$out/link.json"
# 5. the chase from each SM in turn (latency.chase_per_unit), nvbandwidth's 2 MiB ring and its
# loads per SM (10^6 over 132 SMs), 5 chases of each length per SM: about 7 s on an H200
step link-chase-sms 30 "$BIN" link latency --backend "$BACKEND" --ring-bytes 2M --steps 7575 --repetitions 5 \
  --json "$out/link-chase-sms.json"
# 6. stream's designs at 1 MiB chunks and their small-chunk round trips; link's chase on a host ring
step stream 50 "$here/gpu_compare.py" --movebench "$BIN" --backend "$BACKEND" --only stream,link-lat \
  "${chase_steps[@]}" --rounds 2 --stream-chunks "$STREAM_CHUNKS" --timeout $((20 * TIME_SCALE)) --out "$out/compare-stream"
# 7. the persistent design against offload over chunk sizes at one total: how its
# time per chunk grows with the chunk (a fixed cost per chunk, or the bytes)
step stream-persistent 25 "$BIN" stream --backend "$BACKEND" --designs offload,persistent --chunks "$STREAM_CHUNKS" \
  --chunk-elements 262144 --sizes-bytes "$PERSISTENT_SIZES" --json "$out/stream-persistent.json"
step clocks-after 20 nvidia-smi $clocks
step smi-q-after 20 nvidia-smi -q
exit 0
