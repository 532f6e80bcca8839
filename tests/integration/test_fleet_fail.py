"""movebench fleet when a unit fails (docs/fleet.md, "A unit that fails"):
a rank whose memory cannot be allocated (a real `ulimit -v` on that rank
alone) is named in failed_units with its step and reason, the other ranks'
figures are kept and the exit code is 1; a rank whose pair check fails
(the MPI commands' test hook) is named in the pairs and keeps its memory
figures; a rank killed (SIGKILL) mid-run
ends the job under Open MPI, and rank 0's file keeps what it had gathered
and names the step where the job stopped."""

import json
import os
import signal
import subprocess
import time

import pytest
from net_mpi import (
    MPI_FAMILY,
    MPIRUN,
    ROOT_ENV,
    built_with_mpi,
    end_job,
    load,
    mpirun,
    needs_mpirun,
    rank_pids,
    start_job,
)

from conftest import binary_path

pytestmark = needs_mpirun

FAILING_RANK = 2
# Rank 2's address space is limited to 800 MiB: Open MPI 4.1 on 4 local
# ranks needs at most 626 MiB of it to start here (VmPeak through
# MPI_Init, measured), about 588 MiB once started, and the unit's memory
# set-up asks 3 x 128 MiB of arrays more, so its allocation fails with
# about 170 MiB to spare either way. The other ranks have no limit and
# measure the same 128 MiB arrays.
LIMIT_KIB = 800 * 1024
OPTIONS = [
    "--per",
    "rank",
    "--array-bytes",
    "128M",
    "--chase-bytes",
    "4M",
    "--repetitions",
    "3",
    "--outlier-floor",
    "75%",
    "--message-bytes",
    "64K",
    "--latency-iterations",
    "2000",
    "--bandwidth-iterations",
    "10",
    "--timeout",
    "120",
]


def report(proc):
    return f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"


def limited_wrapper(tmp_path):
    """The program mpirun starts: the chosen rank limits its own address
    space (ulimit -v), then every rank becomes movebench."""
    script = tmp_path / "rank.sh"
    script.write_text(
        "#!/bin/sh\n"
        'rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-$PMIX_RANK}}\n'
        'if [ "$rank" = "$FLEET_LIMIT_RANK" ]; then ulimit -v "$FLEET_LIMIT_KIB" || exit 3; fi\n'
        f'exec "{binary_path()}" "$@"\n'
    )
    script.chmod(0o755)
    return script


@pytest.mark.skipif(MPI_FAMILY != "openmpi", reason="the address-space limit is measured for Open MPI's start-up")
def test_a_rank_that_cannot_allocate_its_memory_is_named_failed_and_the_others_kept(tmp_path):
    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    out = tmp_path / "fleet.json"
    cmd = [
        MPIRUN,
        "-np",
        "4",
        "--oversubscribe",
        "--bind-to",
        "none",
        "-x",
        "FLEET_LIMIT_RANK",
        "-x",
        "FLEET_LIMIT_KIB",
        str(limited_wrapper(tmp_path)),
        "fleet",
        *OPTIONS,
        "--json",
        str(out),
    ]
    env = dict(os.environ, **ROOT_ENV, FLEET_LIMIT_RANK=str(FAILING_RANK), FLEET_LIMIT_KIB=str(LIMIT_KIB))
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env)
    assert proc.returncode == 1, report(proc)  # a unit failed: exit 1 (docs/fleet.md)
    doc = load(out)  # schema-checked, failed_units included
    assert doc["complete"] is True and doc["validated"] is False, report(proc)
    # Named with its step and its reason, and nothing else failed.
    [failed] = doc["failed_units"]
    assert failed["rank"] == FAILING_RANK and failed["unit"] == FAILING_RANK and failed["host"], report(proc)
    assert failed["step"] == "memory set-up", report(proc)
    assert "out of memory" in failed["reason"] and "128.00 MiB" in failed["reason"], report(proc)
    assert "failed_units" in doc["errors"] and f"rank {FAILING_RANK} in memory set-up" in doc["errors"]["failed_units"]
    # The three others have their figures; the failed one has none.
    units = doc["fleet"]["units"]
    assert [u["rank"] for u in units] == [0, 1, 2, 3]
    for u in units:
        if u["rank"] == FAILING_RANK:
            assert u["figures"] == {}, report(proc)
        else:
            assert u["figures"]["mem.triad"] > 0 and u["figures"]["mem.copy"] > 0 and u["figures"]["mem.latency"] > 0
    # Its pairs were not measured; the others' were (ring and matching
    # among 0, 1, 3), and the bisection kept its one live pair (1, 3).
    pairs = sorted(tuple(p["units"]) for p in doc["fleet"]["pairs"])
    assert pairs and all(FAILING_RANK not in p for p in pairs), report(proc)
    assert all(p["figures"]["p2p.bw"] > 0 for p in doc["fleet"]["pairs"])
    assert doc["fleet"]["whole"]["bisection"]["pairs"] == 1
    # Left out of the median and the sum: the whole is the three units'.
    triads = [u["figures"]["mem.triad"] for u in units if u["rank"] != FAILING_RANK]
    assert doc["fleet"]["whole"]["mem.triad"]["sum"] == pytest.approx(sum(triads))
    assert doc["fleet"]["whole"]["mem.triad"]["median"] == pytest.approx(sorted(triads)[1])
    assert all(o.get("rank") != FAILING_RANK for o in doc["outliers"]), report(proc)
    assert {t["params"]["rank"] for t in doc["timings"] if t["operation"] == "triad"} == {0, 1, 3}
    assert "in_progress" not in doc["fleet"]
    # The text: its row without figures, "3 of 4 units", its line last.
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == f"FAILED unit host {failed['host']} rank 2 in memory set-up: {failed['reason']}", proc.stdout
    assert any(l.split()[:3] == ["2", failed["host"], "2"] and l.split()[3:] == ["-"] * 4 for l in lines), proc.stdout
    assert "over 3 of 4 units" in proc.stdout
    # On stderr, one line as every run error: the document's errors.failed_units.
    assert f"movebench fleet: error: {doc['errors']['failed_units']}" in proc.stderr.splitlines(), proc.stderr


def test_a_rank_whose_pair_check_fails_keeps_its_memory_figures_and_sits_out_the_pairs(tmp_path):
    # The test hook of every MPI command (--fail-for-test corrupt): the last
    # rank's checks see one received byte flipped, in the first pairs it has.
    out = tmp_path / "fleet.json"
    small = [{"128M": "16M"}.get(a, a) for a in OPTIONS]
    proc, _ = mpirun(4, "fleet", *small, "--fail-for-test", "corrupt", "--json", out, oversubscribe=True)
    assert proc.returncode == 1, report(proc)
    doc = load(out)
    [failed] = doc["failed_units"]
    assert failed["rank"] == 3 and failed["step"] == "pairs, warm-up", report(proc)
    assert failed["reason"].startswith("validation failed: byte ") and "is wrong" in failed["reason"]
    # Its memory figures were checked before: kept, and in the whole.
    units = doc["fleet"]["units"]
    assert all(u["figures"]["mem.triad"] > 0 for u in units)
    assert doc["fleet"]["whole"]["mem.triad"]["sum"] == pytest.approx(sum(u["figures"]["mem.triad"] for u in units))
    # No pair of it measured after (the warm-up's pair with it dropped), the others' all.
    assert sorted(tuple(p["units"]) for p in doc["fleet"]["pairs"]) == [(0, 1), (0, 2), (1, 2)]
    assert (
        proc.stdout.strip().splitlines()[-1].startswith("FAILED unit host ")
        and " rank 3 in pairs, warm-up: " in proc.stdout
    )
    assert "over 4 units" in proc.stdout


def wait_for_step(job, path, prefix, limit=120):
    """Polls rank 0's result file until `fleet.in_progress` starts with `prefix`."""
    end = time.monotonic() + limit
    while time.monotonic() < end and job.poll() is None:
        try:
            step = json.loads(path.read_text()).get("fleet", {}).get("in_progress", "")
        except (OSError, ValueError):
            step = ""  # not written yet (the file is replaced whole, never half)
        if step.startswith(prefix):
            return step
        time.sleep(0.01)
    raise AssertionError(
        f"the file never said a step starting with {prefix!r} (job: {job.poll()}, "
        f"stderr: {job.stderr.read() if job.poll() is not None else ''})"
    )


@pytest.mark.skipif(MPI_FAMILY != "openmpi", reason="what the launcher does with a killed rank is Open MPI's here")
def test_a_rank_killed_mid_run_leaves_what_rank_0_gathered_and_the_step(tmp_path):
    out = tmp_path / "fleet.json"
    # Rounds of 20000 ping-pongs a pair: long enough to be caught in.
    small = [{"128M": "16M", "2000": "20000"}.get(a, a) for a in OPTIONS]
    job = start_job(4, "fleet", *small, "--json", out, extra=["--bind-to", "none"])
    try:
        step = wait_for_step(job, out, "pairs, round")
        os.kill(rank_pids(job)[FAILING_RANK], signal.SIGKILL)
        stdout, stderr = job.communicate(timeout=120)
    finally:
        end_job(job)
    # Open MPI's mpirun ends the whole job when a rank dies: rank 0 cannot
    # name it; its file keeps the units' figures gathered before and says
    # where the job stopped.
    assert job.returncode != 0, stderr
    assert "rank 2" in stderr and "signal 9" in stderr, stderr
    doc = load(out)
    assert doc["complete"] is False
    stopped = doc["fleet"]["in_progress"]
    assert stopped.startswith(("pairs", "bisection", "facts")), (step, stopped)
    assert [u["rank"] for u in doc["fleet"]["units"]] == [0, 1, 2, 3]
    assert all(u["figures"]["mem.triad"] > 0 for u in doc["fleet"]["units"])
    assert doc["mpi"]["ranks"] == 4
    assert "FAILED" not in stdout and "outliers:" not in stdout
