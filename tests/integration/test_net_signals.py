"""MPI jobs under signals: SIGTERM to one rank ends every rank with what was
measured kept and `complete: false` agreed; a rank stopped (SIGSTOP) at
start-up or mid-run ends the job within --step-timeout plus a few seconds,
with one clear line and a non-zero exit. Never a hang."""

import json
import signal
import time

import pytest
from net_mpi import end_job, movebench_errors, needs_mpirun, start_job, wait_for_rank

pytestmark = needs_mpirun
STEP = 5  # --step-timeout of these runs, seconds
# MPI start-up and tear-down on a loaded 2-core machine, and the launcher's own clean-up.
SLACK = 25


def records(path):
    try:
        return json.loads(path.read_text()).get("timings", [])
    except (OSError, ValueError):
        return []


def wait_for_records(path, n, job, limit=60):
    end = time.monotonic() + limit
    while time.monotonic() < end and job.poll() is None:
        if len(records(path)) >= n:
            return
        time.sleep(0.05)
    raise AssertionError(f"fewer than {n} records after {limit} s")


# Long enough to be stopped in the middle: p2p latency over many sizes.
# Long enough (several seconds) that the third record reaches the file, at a
# checkpoint (core/report), well before the last step.
LONG_P2P = ["p2p", "--tests", "latency,bw,bibw", "-m", "1:64K", "-i", "2000", "-x", "5"]


@pytest.mark.parametrize("target", [1, 0])
def test_sigterm_to_one_rank_is_agreed(tmp_path, target):
    out = tmp_path / "p2p.json"
    job = start_job(2, *LONG_P2P, "--step-timeout", 60, "--json", out)
    try:
        pid = wait_for_rank(job, target)
        wait_for_records(out, 3, job)
        import os

        os.kill(pid, signal.SIGTERM)
        _, err = job.communicate(timeout=60)
    finally:
        end_job(job)
    assert job.returncode != 0
    doc = json.loads(out.read_text())
    assert doc["complete"] is False, "a rank was interrupted: the file must not say complete"
    assert "interrupted" in doc["errors"]
    assert len(doc["timings"]) >= 3  # what was measured is kept
    assert len(doc["timings"]) < 2 * 17  # and it stopped early
    assert "did not finish" not in err  # stopped by agreement, not by the watchdog


def stopped_job_ends(job, started, what):
    _, err = job.communicate(timeout=STEP + SLACK + 30)
    seconds = time.monotonic() - started
    assert job.returncode != 0
    lines = [l for l in movebench_errors(err, "p2p") if "did not finish" in l]
    assert len(lines) == 1, err
    assert what in lines[0]
    return seconds


def test_rank_stopped_at_start_up_ends_the_job(tmp_path):
    import os

    started = time.monotonic()
    job = start_job(2, *LONG_P2P, "--step-timeout", STEP, "--json", tmp_path / "p2p.json")
    try:
        os.kill(wait_for_rank(job, 1), signal.SIGSTOP)
        stopped = time.monotonic()
        stopped_job_ends(job, started, "rank 0")
        assert time.monotonic() - stopped < STEP + SLACK
    finally:
        end_job(job)


@pytest.mark.parametrize("target", [1, 0])
def test_rank_stopped_mid_run_ends_the_job(tmp_path, target):
    import os

    out = tmp_path / "p2p.json"
    started = time.monotonic()
    job = start_job(2, *LONG_P2P, "--step-timeout", STEP, "--json", out)
    try:
        pid = wait_for_rank(job, target)
        wait_for_records(out, 3, job)
        os.kill(pid, signal.SIGSTOP)
        stopped = time.monotonic()
        stopped_job_ends(job, started, f"rank {1 - target}")
        assert time.monotonic() - stopped < STEP + SLACK
    finally:
        end_job(job)
    doc = json.loads(out.read_text())
    assert doc["complete"] is False
    assert len(doc["timings"]) >= 3
