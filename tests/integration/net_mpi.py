"""Running movebench under mpirun for the beff/coll/p2p tests."""
import json
import os
import re
import shutil
import subprocess
import time

import pytest

from conftest import binary_path

MPIRUN = shutil.which("mpirun")
needs_mpirun = pytest.mark.skipif(MPIRUN is None, reason="no mpirun on PATH")

# CI runs as root; Open MPI refuses that unless told.
ROOT_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
            # Two cores shared by many jobs: never spin-wait for a core.
            "OMPI_MCA_mpi_yield_when_idle": "1"}

MPIBENCH_LINE = re.compile(
    r"^(?P<op>\S.{19})\tBytes:\t(?P<bytes>[ \d]{8})\tIters:\t(?P<iters>[ \d]{7})\t"
    r"Avg:\t(?P<avg>[ \d.]{8,})\tMin:\t(?P<min>[ \d.]{8,})\tMax:\t(?P<max>[ \d.]{8,})\t"
    r"Comm: (?P<comm>\S+)\tRanks: (?P<ranks>\d+)$")


def built_with_mpi():
    return "coll.allreduce" in subprocess.run([str(binary_path()), "--list"], capture_output=True,
                                              text=True).stdout


def mpirun(np, *args, timeout=120, oversubscribe=None):
    """Runs `mpirun -np N movebench ARGS`; returns (proc, seconds)."""
    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    cmd = [MPIRUN, "-np", str(np)]
    if oversubscribe or np > (os.cpu_count() or 1):
        cmd.append("--oversubscribe")
    cmd += [str(binary_path()), *map(str, args)]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **ROOT_ENV))
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
