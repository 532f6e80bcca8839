"""A CPU quota for chosen processes, through whichever cgroup the machine
has: v1's cpu controller (cpu.cfs_quota_us, cpu.cfs_period_us) or v2's
(cpu.max, on a cgroup2 mount whose cpu controller is available). Used by
the fleet tests to slow exactly one rank.

A quota slows only what needs more CPU than it allows at one stretch: a
sample that fits in one period's allowance can run whole between two stops
and measure full speed. So the fleet tests do not pick a share: they give
the least quota the kernel takes (QUOTA_US, 1 ms) a period chosen from how
long fleet's samples are (their records say) and from the longest stretch
this machine's kernel lets a quota'd process run (longest_stretch), so that
every sample is slowed by a factor that holds whatever the CPU
(period_to_slow)."""

import contextlib
import functools
import math
import multiprocessing
import os
import pathlib
import time
import uuid

V1_ROOT = pathlib.Path("/sys/fs/cgroup/cpu")
V2_CANDIDATES = (pathlib.Path("/sys/fs/cgroup"), pathlib.Path("/sys/fs/cgroup/unified"))
PERIOD_US = 100_000
QUOTA_US = 1000  # the least the kernel takes (cpu.cfs_quota_us, cpu.max)


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
def quota(share, period_us=PERIOD_US):
    """A new cgroup limited to `share` of one CPU in each period (a shorter
    period spreads the same share more evenly over a measurement; never
    under QUOTA_US a period); yields the path of its cgroup.procs (write a
    pid there to move that process in). Removed after."""
    name = f"movebench-fleet-{uuid.uuid4().hex[:8]}"
    quota_us = max(QUOTA_US, round(share * period_us))
    if (V1_ROOT / "cpu.cfs_quota_us").exists():
        group = V1_ROOT / name
        group.mkdir()
        (group / "cpu.cfs_period_us").write_text(str(period_us))
        (group / "cpu.cfs_quota_us").write_text(str(quota_us))
    else:
        root = _v2_root()
        with contextlib.suppress(OSError):  # may be on already, or not ours to change
            (root / "cgroup.subtree_control").write_text("+cpu")
        group = root / name
        group.mkdir()
        (group / "cpu.max").write_text(f"{quota_us} {period_us}")
    try:
        yield group / "cgroup.procs"
    finally:
        # Whatever is left in it (nothing once the job ended) goes back to the root.
        parent_procs = group.parent / "cgroup.procs"
        for pid in (group / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):
                parent_procs.write_text(pid)
        with contextlib.suppress(OSError):
            group.rmdir()


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


def _spin(procs, seconds, gap, result):
    """In the quota'd cgroup: spins for `seconds` and sends the most CPU time
    it got between two stops longer than `gap` (a stop for the quota's next
    period is; a shorter one, another process's turn on the CPU, is not and
    adds no CPU time)."""
    pathlib.Path(procs).write_text(str(os.getpid()))
    start = last = time.perf_counter()
    stretch = last_cpu = time.thread_time()
    longest = 0.0
    while last - start < seconds:
        now, cpu = time.perf_counter(), time.thread_time()
        if now - last > gap:
            longest = max(longest, last_cpu - stretch)
            stretch = last_cpu
        last, last_cpu = now, cpu
    result.send(max(longest, last_cpu - stretch))


@functools.cache
def longest_stretch(period_us=200_000, seconds=1.5):
    """The most CPU time (s) a spinning process in a cgroup of QUOTA_US per
    period_us got in one period here, over `seconds`: QUOTA_US or more (the
    kernel stops a group at its own granularity, a scheduler tick can pass
    first). A long period, so that its stops (period_us less that) stand out
    from other processes' turns on a loaded machine. Measured once per
    session."""
    with quota(QUOTA_US / period_us, period_us) as procs:
        mine, theirs = multiprocessing.Pipe(duplex=False)
        spinner = multiprocessing.get_context("fork").Process(
            target=_spin, args=(procs, seconds, period_us * 1e-6 / 2, theirs)
        )
        spinner.start()
        try:
            if not mine.poll(seconds + 30):
                raise TimeoutError("the spinner in the quota'd cgroup did not report")
            return mine.recv()
        finally:
            spinner.join(5)
            if spinner.is_alive():
                spinner.kill()
                spinner.join()


def period_to_slow(sample_s, factor, stretch_s):
    """The period (us) of a QUOTA_US quota that makes a sample needing
    `sample_s` seconds of CPU on each of its threads (all busy) last at
    least `factor` times `sample_s`, given the longest stretch `stretch_s`
    (longest_stretch()); None when no period can (a sample not over twice
    the longest stretch could slip between two stops).

    Why it holds: a process of t threads gets at most t x a of CPU in any
    one period (a: the longest stretch, one thread's quota and the kernel's
    lateness in stopping it, which each CPU adds once). A sample that lasts
    w overlaps at most w/P + 2 periods, so t x sample_s <= t x a x (w/P +
    2): w >= P x (sample_s/a - 2), which is factor x sample_s when P =
    factor / (1/a - 2/sample_s)."""
    if sample_s <= 2 * stretch_s:
        return None
    return max(QUOTA_US, math.ceil(factor / (1 / stretch_s - 2 / sample_s) * 1e6))
