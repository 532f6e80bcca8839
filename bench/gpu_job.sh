#!/bin/bash
# gpu_job.sh: one lent GPU machine's job, every command and its whole output
# kept (issue 30): the device's own reports before and after, movebench's
# facts, the whole node (movebench node), mem and link on the device, and the
# default suite. Builds nothing: MOVEBENCH is a portable build carried there
# (docs/performance.md says how), LIBS the folder of the shared libraries it
# needs that the machine lacks.
#
#   bench/gpu_job.sh OUTDIR [MOVEBENCH]
#
# Writes OUTDIR/commands.txt (each command with its exit status and seconds),
# OUTDIR/NN-name.out (stdout and stderr together) and OUTDIR/NN-name.json.
# Each command is bounded (timeout); one failing does not stop the rest.
set -u
out=${1:?usage: gpu_job.sh OUTDIR [MOVEBENCH]}
BIN=${2:-build/gpu/movebench}
mkdir -p "$out"
n=0
step() { # step NAME SECONDS COMMAND...
  local name=$1 limit=$2; shift 2
  n=$((n + 1))
  local tag
  tag=$(printf '%02d-%s' "$n" "$name")
  local began=$SECONDS
  timeout --kill-after=5 "$limit" "$@" >"$out/$tag.out" 2>&1
  local rc=$?
  printf '%s\trc=%d\t%ds\t%s\n' "$tag" "$rc" "$((SECONDS - began))" "$*" >>"$out/commands.txt"
}
clocks='--query-gpu=name,pci.bus_id,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active,pcie.link.gen.current,pcie.link.width.current --format=csv'
step context 20 sh -c 'date -u; uname -a; grep -m1 "model name" /proc/cpuinfo; nproc; ls /sys/devices/system/node; cat /sys/devices/system/node/node*/distance 2>/dev/null'
step smi-q-before 30 nvidia-smi -q
step clocks-before 20 nvidia-smi $clocks
step facts 60 "$BIN" facts --json "$out/facts.json"
step node 240 "$BIN" node --time-budget 60 --json "$out/node.json"
step mem-cuda 120 "$BIN" mem --backend cuda --elements 512M --json "$out/mem-cuda.json"
step link 120 "$BIN" link --backend cuda --json "$out/link-cuda.json"
step clocks-after 20 nvidia-smi $clocks
step smi-q-after 30 nvidia-smi -q
exit 0
