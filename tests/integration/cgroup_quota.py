"""A CPU quota for chosen processes, through whichever cgroup the machine
has: v1's cpu controller (cpu.cfs_quota_us, cpu.cfs_period_us) or v2's
(cpu.max, on a cgroup2 mount whose cpu controller is available). Used by
the fleet and p2p tests to slow exactly one rank.

What a quota guarantees, on any CPU: the group runs at most `allowance()`
of CPU between two stops (the quota, plus what runs before the scheduler's
next tick sees it spent, on each CPU), and a stop lasts until the period
ends. Work that needs more CPU than that is stopped; over many periods the
group gets the quota's share of one CPU. Work that fits in one allowance
is not slowed at all: a sample must need several allowances of CPU to show
the quota. And on a loaded machine every process already gets only a share
of a CPU (`share_of_a_cpu()`): a quota above that share slows nothing."""

import contextlib
import os
import pathlib
import subprocess
import sys
import time
import uuid

V1_ROOT = pathlib.Path("/sys/fs/cgroup/cpu")
V2_CANDIDATES = (pathlib.Path("/sys/fs/cgroup"), pathlib.Path("/sys/fs/cgroup/unified"))
PERIOD_US = 100_000
LEAST_QUOTA_US = 1000  # the kernel refuses less (cpu.cfs_quota_us, cpu.max)
GREATEST_V1_SHARES = 262144  # cpu.shares' most (kernel/sched: MAX_SHARES, 1 << 18)
GREATEST_V2_WEIGHT = 10000  # cpu.weight's most (Documentation/admin-guide/cgroup-v2.rst)


def _v2_root():
    for root in V2_CANDIDATES:
        controllers = root / "cgroup.controllers"
        if controllers.exists() and "cpu" in controllers.read_text().split():
            return root
    return None


def missing():
    """Why no quota can be set here, or None."""
    if os.geteuid() != 0:
        return "a CPU quota needs root"
    if (V1_ROOT / "cpu.cfs_quota_us").exists() or _v2_root() is not None:
        return None
    return "no cgroup cpu controller (neither v1 cpu.cfs_quota_us nor v2 cpu.max)"


@contextlib.contextmanager
def quota(share, period_us=PERIOD_US, first=False):
    """A new cgroup limited to `share` of one CPU in each period (a shorter
    period spreads the same share more evenly over a measurement); yields the
    path of its cgroup.procs (write a pid there to move that process in).
    `first`: the group's weight the greatest the kernel takes, so that within
    its quota it runs ahead of other work on the machine (as a niced -20
    process does). Removed after."""
    name = f"movebench-fleet-{uuid.uuid4().hex[:8]}"
    quota_us = max(1000, int(share * period_us))
    if (V1_ROOT / "cpu.cfs_quota_us").exists():
        group = V1_ROOT / name
        group.mkdir()
        (group / "cpu.cfs_period_us").write_text(str(period_us))
        (group / "cpu.cfs_quota_us").write_text(str(quota_us))
        if first:
            (group / "cpu.shares").write_text(str(GREATEST_V1_SHARES))
    else:
        root = _v2_root()
        with contextlib.suppress(OSError):  # may be on already, or not ours to change
            (root / "cgroup.subtree_control").write_text("+cpu")
        group = root / name
        group.mkdir()
        (group / "cpu.max").write_text(f"{quota_us} {period_us}")
        if first:
            (group / "cpu.weight").write_text(str(GREATEST_V2_WEIGHT))
    try:
        yield group / "cgroup.procs"
    finally:
        # Whatever is left in it (nothing once the job ended) goes back to the root.
        parent_procs = group.parent / "cgroup.procs"
        for pid in (group / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):
                parent_procs.write_text(pid)
        # A process that has just exited can hold the group for a moment
        # (EBUSY): a few tries, so that no empty group is left behind.
        for _ in range(50):
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)


def lift(procs):
    """Takes the quota off the cgroup of `procs` (what quota() yielded): its
    processes run unlimited from now on, as a node whose burst of other work
    has passed."""
    group = pathlib.Path(procs).parent
    if (group / "cpu.cfs_quota_us").exists():
        (group / "cpu.cfs_quota_us").write_text("-1")
    else:
        period = (group / "cpu.max").read_text().split()[1]
        (group / "cpu.max").write_text(f"max {period}")


def share_of_a_cpu(seconds=0.1):
    """The least share of one CPU a spinning thread of this process gets
    now, free or pinned to any one of its CPUs (as mem pins a team's
    threads: a pinned thread cannot move to a CPU the load has left): 1 on
    an idle machine, about cores/load or less on a loaded one."""

    def spin():
        wall, cpu = time.perf_counter(), time.thread_time()
        while time.perf_counter() - wall < seconds:
            pass
        return (time.thread_time() - cpu) / (time.perf_counter() - wall)

    allowed = os.sched_getaffinity(0)
    shares = [spin()]
    try:
        for one in sorted(allowed):
            os.sched_setaffinity(0, {one})
            shares.append(spin())
    finally:
        os.sched_setaffinity(0, allowed)
    return min(shares)


# A spinner in the cgroup: the most CPU it got between two stops (a gap in
# its clock of half a period or more; a preemption by the load is shorter).
_SPINNER = """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
seconds, gap = float(sys.argv[2]), float(sys.argv[3])
last = time.perf_counter()
end, since, most = last + seconds, time.thread_time(), 0.0
while last < end:
    now = time.perf_counter()
    if now - last > gap:
        cpu = time.thread_time()
        most, since = max(most, cpu - since), cpu
    last = now
print(most)
"""


def allowance(threads, periods=6, period_us=200_000):
    """The most CPU `threads` spinning processes in one group got between
    two stops under the least quota, in seconds (the sum of each one's
    most): measured, as it depends on the kernel's tick and slice."""
    with quota(LEAST_QUOTA_US / period_us, period_us) as procs:
        spinners = [
            subprocess.Popen(
                [sys.executable, "-c", _SPINNER, str(procs), str(periods * period_us / 1e6), str(period_us / 2e6)],
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(threads)
        ]
        return sum(float(s.communicate(timeout=60)[0]) for s in spinners)


def below_the_load(threads, below=8, earlier=1.0):
    """A quota (share of one CPU, period in us) of the least quota per
    period, its share `below` times under what `threads` threads get now
    on this machine, or got `earlier` (a share_of_a_cpu() measured then),
    whichever is less; at most a quarter of a CPU, a period of at most 1 s
    (the kernel's most)."""
    share = min(0.25, threads * min(earlier, share_of_a_cpu()) / below)
    period_us = min(1_000_000, round(LEAST_QUOTA_US / share))
    return LEAST_QUOTA_US / period_us, period_us


def rank_wrapper(tmp_path, binary, first=False):
    """The program an MPI launcher starts: the rank named by $SLOW_RANK moves
    itself into the cgroup whose cgroup.procs is $SLOW_PROCS (when that is
    set), then every rank becomes `binary`. Open MPI passes the two only
    where -x names them; hydra passes all. `first`: every rank at nice -20,
    ahead of other work on the machine (a rank in a group competes there
    through the group's weight: quota(first=True))."""
    script = pathlib.Path(tmp_path) / "slow_rank.sh"
    script.write_text(
        "#!/bin/sh\n"
        'rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-$SLURM_PROCID}}}\n'
        'if [ -n "$SLOW_PROCS" ] && [ "$rank" = "$SLOW_RANK" ]; then\n'
        '  echo $$ > "$SLOW_PROCS" || exit 3\n'
        "fi\n" + ("renice -n -20 -p $$ >/dev/null || exit 3\n" if first else "") + f'exec "{binary}" "$@"\n'
    )
    script.chmod(0o755)
    return script


def thread_missing():
    """Why one thread of a process cannot be given a quota of its own here,
    or None: cgroup v1's cpu controller takes a single thread into a group
    (its tasks file); v2 only within a threaded subtree of the process's own
    cgroup, which this helper does not build."""
    if os.geteuid() != 0:
        return "a CPU quota needs root"
    if not (V1_ROOT / "tasks").exists():
        return "no cgroup v1 cpu controller (a single thread's quota needs its tasks file)"
    return None


def _v1_group_of(pid, tid):
    """The v1 cpu cgroup folder thread `tid` of `pid` is in now."""
    for line in pathlib.Path(f"/proc/{pid}/task/{tid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            return V1_ROOT / path.lstrip("/")
    return V1_ROOT


@contextlib.contextmanager
def thread_quota(pid, tid, share, period_us):
    """Thread `tid` of process `pid` alone under a quota of `share` of one
    CPU per period (cgroup v1: thread_missing()), the rest of the process
    as it was; the thread back in its own group after."""
    home = _v1_group_of(pid, tid)
    with quota(share, period_us) as procs:
        (procs.parent / "tasks").write_text(str(tid))
        try:
            yield
        finally:
            with contextlib.suppress(OSError):  # the thread may have ended
                (home / "tasks").write_text(str(tid))
