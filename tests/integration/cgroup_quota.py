"""A CPU quota for chosen processes, through whichever cgroup the machine
has: v1's cpu controller (cpu.cfs_quota_us, cpu.cfs_period_us) or v2's
(cpu.max, on a cgroup2 mount whose cpu controller is available). Used by
the fleet and p2p tests to slow exactly one rank."""

import contextlib
import os
import pathlib
import uuid

V1_ROOT = pathlib.Path("/sys/fs/cgroup/cpu")
V2_CANDIDATES = (pathlib.Path("/sys/fs/cgroup"), pathlib.Path("/sys/fs/cgroup/unified"))
PERIOD_US = 100_000


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
    period spreads the same share more evenly over a measurement); yields the
    path of its cgroup.procs (write a pid there to move that process in).
    Removed after."""
    name = f"movebench-fleet-{uuid.uuid4().hex[:8]}"
    quota_us = max(1000, int(share * period_us))
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


def rank_wrapper(tmp_path, binary):
    """The program an MPI launcher starts: the rank named by $SLOW_RANK moves
    itself into the cgroup whose cgroup.procs is $SLOW_PROCS (when that is
    set), then every rank becomes `binary`. Open MPI passes the two only
    where -x names them; hydra passes all."""
    script = pathlib.Path(tmp_path) / "slow_rank.sh"
    script.write_text(
        "#!/bin/sh\n"
        'rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-$SLURM_PROCID}}}\n'
        'if [ -n "$SLOW_PROCS" ] && [ "$rank" = "$SLOW_RANK" ]; then\n'
        '  echo $$ > "$SLOW_PROCS" || exit 3\n'
        "fi\n"
        f'exec "{binary}" "$@"\n'
    )
    script.chmod(0o755)
    return script
