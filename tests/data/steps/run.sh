#!/bin/sh
# The raw runs behind docs/beff.md's "p2p's eager limit" and docs/mem.md's
# "the chase's L3" and seq example: run from this folder with MOVEBENCH set to the binary
# (build/release/movebench). Each output starts with its command and the load.
set -u
MOVEBENCH=${MOVEBENCH:-../../../build/release/movebench}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
record() {  # record NAME COMMAND...: the command, the load, then what it printed
  name=$1; shift
  { echo "\$ $*"; uptime; "$@" 2>&1; } > "$name.txt"
}
# mem seq's load kernel, 4 KiB to 4 MiB (four times the L2) at two sizes per
# octave, as tests/integration/test_sweep_steps.py sweeps it.
seq=$(python3 -c "print(','.join(str(s) for p in range(12, 22) for s in (2**p, 3 * 2**p // 2) if s < 2**22) + ',' + str(2**22))")
record seq-sum "$MOVEBENCH" mem seq -k sum --sizes-bytes "$seq" --point-time 0.01 --samples 7 --outdir /tmp/seq-dat
# An artificial step at a known size: link's host sweep with every copy of
# 64 KiB or more made eight times (tests/faults/memcpy_faults.cpp, mode slow).
faults=${FAULTS:-../../../build/release/tests/libmemcpy_faults.so}
for run in 1 2 3; do
  record link-slow-from-64k-$run env LD_PRELOAD="$faults" MOVEBENCH_FAULT_MODE=slow MOVEBENCH_FAULT_BYTES=65536 \
    "$MOVEBENCH" link bandwidth --backend host --directions read --paths copy --host-memory pageable \
    --sizes 4K:256K --fine 2 --time-budget 0.02
done
# The same sweep ten times more, the steps rule with the scatter term (docs/results.md).
for run in 1 2 3 4 5 6 7 8 9 10; do
  record link-slow-live-$run env LD_PRELOAD="$faults" MOVEBENCH_FAULT_MODE=slow MOVEBENCH_FAULT_BYTES=65536 \
    "$MOVEBENCH" link bandwidth --backend host --directions read --paths copy --host-memory pageable \
    --sizes 4K:256K --fine 2 --time-budget 0.02
done
# p2p's eager-to-rendezvous switch, Open MPI's shared-memory transport at its
# default eager limit (4 KiB) and set to 16 KiB through its MCA variable.
for run in 1 2; do
  record p2p-eager-default-$run mpirun.openmpi -np 2 --bind-to none \
    "$MOVEBENCH" p2p --tests latency -m 1K:64K -i 500 -x 50 -z --json p2p-eager-default-$run.json
  record p2p-eager-16k-$run env OMPI_MCA_btl_vader_eager_limit=16384 mpirun.openmpi -np 2 --bind-to none \
    "$MOVEBENCH" p2p --tests latency -m 1K:64K -i 500 -x 50 -z --json p2p-eager-16k-$run.json
done
# The same switch swept at two sizes per octave from 256 B to 64 KiB (limit/16 ..
# 16 x limit, as test_net_p2p.py's switch test sweeps it), three runs: the steps
# rule of change_points (the scatter between points in its noise) on the mean.
dense=$(python3 -c "print(','.join(str(round(4096 * 2 ** (i / 2))) for i in range(-8, 9)))")
for run in 1 2 3 4 5 6 7 8; do
  record p2p-eager-dense-$run mpirun.openmpi -np 2 --bind-to none \
    "$MOVEBENCH" p2p --tests latency -m "$dense" -i 200 -x 20 --json p2p-eager-dense-$run.json
done
# The chase past the L3 hwloc reports (32 MiB on the development VM): 4 KiB to
# 256 MiB, two sizes per octave, with 4 KiB pages (THP madvise: the chase does
# not ask) and with huge pages; then 512 KiB to 8 MiB at four sizes per octave.
wide=$(python3 -c "print(','.join(str(s) for p in range(12, 29) for s in (2**p, 3 * 2**p // 2) if s < 2**28) + ',' + str(2**28))")
fine=$(python3 -c "print(','.join(str(int(2**19 * 2**(i / 4)) // 4096 * 4096) for i in range(17)))")
record chase-4k-pages "$MOVEBENCH" mem latency --sizes-bytes "$wide" --point-time 0.02 --samples 7
record chase-huge-pages "$MOVEBENCH" mem latency --sizes-bytes "$wide" --point-time 0.02 --samples 7 --huge-pages
record chase-fine-4k-pages "$MOVEBENCH" mem latency --sizes-bytes "$fine" --point-time 0.02 --samples 7
record chase-fine-huge-pages "$MOVEBENCH" mem latency --sizes-bytes "$fine" --point-time 0.02 --samples 7 --huge-pages
