"""Running movebench under mpirun for the beff/coll/p2p tests."""

import os
import re
import shutil
import subprocess
import time

import pytest

from conftest import ahead_of_other_work, binary_path

# The MPI family of the binary under test (MOVEBENCH_BIN): `make test` runs
# these tests once against the Open MPI build and once against the MPICH
# one (build/release/mpich/movebench, the MPICH twin). Each family is started by its own launcher, named
# explicitly: plain `mpirun` is whichever Debian's alternatives chose.
MPI_FAMILY = os.environ.get("MOVEBENCH_MPI_FAMILY", "openmpi")
_LAUNCHERS = {"openmpi": ("mpirun.openmpi", "mpirun"), "mpich": ("mpiexec.mpich", "mpirun.mpich")}
assert MPI_FAMILY in _LAUNCHERS, f"MOVEBENCH_MPI_FAMILY={MPI_FAMILY}: openmpi or mpich"
MPIRUN = next(filter(None, map(shutil.which, _LAUNCHERS[MPI_FAMILY])), None)
needs_mpirun = pytest.mark.skipif(MPIRUN is None, reason=f"no {_LAUNCHERS[MPI_FAMILY][0]} on PATH")

# CI runs as root; Open MPI refuses that unless told (MPICH ignores these).
ROOT_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    # Two cores shared by many jobs: never spin-wait for a core.
    "OMPI_MCA_mpi_yield_when_idle": "1",
}

MPIBENCH_LINE = re.compile(
    r"^(?P<op>\S.{19})\tBytes:\t(?P<bytes>[ \d]{8})\tIters:\t(?P<iters>[ \d]{7})\t"
    r"Avg:\t(?P<avg>[ \d.]{8,})\tMin:\t(?P<min>[ \d.]{8,})\tMax:\t(?P<max>[ \d.]{8,})\t"
    r"Comm: (?P<comm>\S+)\tRanks: (?P<ranks>\d+)$"
)


def built_with_mpi():
    return "coll.allreduce" in subprocess.run([str(binary_path()), "--list"], capture_output=True, text=True).stdout


def mpirun(np, *args, timeout=120, oversubscribe=None, launcher_args=False, first=False):
    """Runs `mpirun -np N movebench ARGS`; returns (proc, seconds). With
    launcher_args, ARGS starts with launcher options up to the first that is
    a movebench command (env_args). `first`: the launcher and its ranks
    ahead of other work on the machine (conftest.ahead_of_other_work), for a
    test that reads latency steps a scheduler slice would hide."""
    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    cmd = [MPIRUN, "-np", str(np)]
    # Open MPI refuses more ranks than cores unless told; MPICH's hydra
    # oversubscribes by itself and refuses the flag.
    if MPI_FAMILY == "openmpi" and (oversubscribe or np > (os.cpu_count() or 1)):
        cmd.append("--oversubscribe")
    if MPI_FAMILY == "openmpi" and first:  # ahead of other work: poll, never yield to it (ROOT_ENV yields)
        cmd += ["--mca", "mpi_yield_when_idle", "0"]
    args = list(map(str, args))
    if launcher_args:
        first = next(i for i, a in enumerate(args) if a in ("p2p", "coll", "beff", "run"))
        cmd += args[:first]
        args = args[first:]
    cmd += [str(binary_path()), *args]
    start = time.monotonic()
    proc = subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ, **ROOT_ENV),
        preexec_fn=ahead_of_other_work if first else None,
    )
    return proc, time.monotonic() - start


def ok(proc):
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc


def movebench_errors(stderr, command):
    """Lines movebench itself wrote (mpirun adds its own banners)."""
    return [l for l in stderr.splitlines() if l.startswith(f"movebench {command}: ")]


def load(path):
    from conftest import load_result

    return load_result(path)


def launcher_is_open_mpi():
    out = subprocess.run([MPIRUN, "--version"], capture_output=True, text=True).stdout
    return "Open MPI" in out or "OpenRTE" in out


def env_args(name, value):
    """Launcher options that give every rank NAME=VALUE (Open MPI: -x; MPICH's hydra: -genv)."""
    return ["-x", f"{name}={value}"] if launcher_is_open_mpi() else ["-genv", name, str(value)]


def start_job(np, *args, extra=()):
    """Starts `mpirun -np N [extra] movebench ARGS` in its own session; returns the Popen."""
    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    cmd = [MPIRUN, "-np", str(np), *extra]
    if np > (os.cpu_count() or 1):
        cmd.append("--oversubscribe" if launcher_is_open_mpi() else "")
    cmd = [c for c in cmd if c] + [str(binary_path()), *map(str, args)]
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, **ROOT_ENV),
        start_new_session=True,
    )


def rank_pids(job):
    """{rank: pid} of the movebench processes of a job started by start_job."""
    exe = os.path.realpath(binary_path())
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.path.realpath(f"/proc/{entry}/exe") != exe or os.getsid(int(entry)) != job.pid:
                continue
            env = open(f"/proc/{entry}/environ", "rb").read().split(b"\0")
        except OSError:
            continue
        for var in env:
            key, _, value = var.partition(b"=")
            if key in (b"OMPI_COMM_WORLD_RANK", b"PMI_RANK", b"PMIX_RANK"):
                out[int(value)] = int(entry)
                break
    return out


def wait_for_rank(job, rank, limit=60):
    """The pid of `rank` as soon as it exists."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        pid = rank_pids(job).get(rank)
        if pid:
            return pid
        time.sleep(0.005)
    raise AssertionError(f"rank {rank} did not start within {limit} s")


def end_job(job):
    """Kills whatever is left of the job (stopped ranks included)."""
    import signal

    try:
        os.killpg(job.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    job.wait()


def assert_validation_skipped(proc, path, command, option):
    """A run with its checks turned off: exit 0, `validated: false`, the reason
    naming the option in the document (schema-checked) and on stderr, once."""
    ok(proc)
    reason = f"{command} {option}: received data not checked"
    doc = load(path)
    assert doc["validated"] is False
    assert doc["validation_skipped"] == reason
    assert doc["errors"] == {}
    assert movebench_errors(proc.stderr, command) == [f"movebench {command}: validation: SKIPPED ({reason})"]
    return doc
