"""Fault injection: tests/faults/mpi_faults.cpp, preloaded into every rank,
spoils one received transfer in N through the MPI profiling interface. With
-C (every iteration checked) p2p, coll and beff must catch it: a non-zero
exit, one clear line, `validated: false`. Without the shim the same runs pass."""

import json

import pytest
from net_mpi import env_args, movebench_errors, mpirun, needs_mpirun

from conftest import binary_path

pytestmark = needs_mpirun

CASES = {
    "p2p": ["p2p", "-m", "1K,64K", "-i", "20", "-x", "2", "-C"],
    "coll": ["coll", "-e", "4K", "-i", "10", "-C"],
    "coll-reductions": ["coll", "-e", "4K", "-i", "10", "-C", "Allreduce", "Reduce", "Reduce_scatter"],
    "beff-fpga": ["beff", "--definition", "fpga", "-u", "40", "-l", "10", "-m", "12", "-n", "2", "-C"],
    "beff-hpcc": [
        "beff",
        "--definition",
        "hpcc",
        "--max-size",
        "16K",
        "--random-patterns",
        "1",
        "--repetitions",
        "1",
        "--loop-length",
        "20",
        "-C",
    ],
}


def shim():
    path = binary_path().parent / "tests" / "libmpi_faults.so"
    if not path.exists():
        pytest.skip(f"no fault-injection library at {path}")
    return path


def run_case(tmp_path, args, *env):
    out = tmp_path / "r.json"
    extra = [a for name, value in env for a in env_args(name, value)]
    proc, _ = mpirun(2, *extra, *args, "--step-timeout", "30", "--json", out, timeout=120, launcher_args=True)
    return proc, json.loads(out.read_text())


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("mode", ["flip", "drop", "shift"])
def test_one_spoiled_transfer_in_8_is_caught(tmp_path, case, mode):
    args = CASES[case]
    proc, doc = run_case(
        tmp_path, args, ("LD_PRELOAD", shim()), ("MOVEBENCH_FAULT_EVERY", 8), ("MOVEBENCH_FAULT_MODE", mode)
    )
    assert proc.returncode == 1, proc.stderr
    assert doc["validated"] is False
    lines = [l for l in movebench_errors(proc.stderr, args[0]) if "validation failed" in l]
    assert lines, proc.stderr
    assert "wrong" in lines[0] or "instead of" in lines[0]


@pytest.mark.parametrize("case", ["p2p", "coll", "beff-fpga"])
def test_the_same_runs_pass_without_faults(tmp_path, case):
    proc, doc = run_case(tmp_path, CASES[case])
    assert proc.returncode == 0, proc.stderr
    assert doc["validated"] is True
