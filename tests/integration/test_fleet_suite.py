"""movebench run --fleet: the suite runs fleet last, in place under mpirun
(every rank), its `fleet` and `outliers` in the same result as the per-node
benchmarks; --only fleet runs it alone; without --fleet the suite has none."""

from net_mpi import load, mpirun, needs_mpirun, ok

from conftest import run_movebench

FLEET_LINE = "movebench fleet --array-bytes"


def test_the_suite_runs_fleet_only_when_asked_and_last():
    plain = run_movebench("run", "--dry-run", check=0).stdout
    assert FLEET_LINE not in plain
    asked = run_movebench("run", "--dry-run", "--fleet", check=0).stdout.strip().splitlines()
    assert asked[-1].startswith(FLEET_LINE) and asked[:-1] == plain.strip().splitlines()
    alone = run_movebench("run", "--dry-run", "--only", "fleet", check=0).stdout.strip().splitlines()
    assert len(alone) == 1 and alone[0].startswith(FLEET_LINE)


@needs_mpirun
def test_run_fleet_under_mpirun_keeps_both_in_one_result(tmp_path):
    out = tmp_path / "run.json"
    proc, _ = mpirun(2, "run", "--only", "p2p", "--fleet", "--json", out, timeout=180)
    ok(proc)
    assert proc.stdout.count("==== movebench run: summary ====") == 1, "rank 0 speaks for the job"
    doc = load(out)
    assert {r["benchmark"] for r in doc["timings"]} == {"p2p", "fleet"}
    # In place under the launcher: both ranks of the job are the one unit's (per host, one machine).
    units = doc["fleet"]["units"]
    assert len(units) == 1 and units[0]["ranks"] == [0, 1] and units[0]["figures"]["mem.triad"] > 0
    assert doc["outliers"] == [] and "fleet.mem.triad.sum" in doc["results"]
    summary = proc.stdout.split("==== movebench run: summary ====")[1]
    assert any(l.startswith("fleet: triad sum ") and " outliers 0;" in l for l in summary.splitlines()), summary


@needs_mpirun
def test_run_fleet_alone_starts_its_own_two_rank_job(tmp_path):
    """Not under a launcher: the local 2-rank job's fleet sections are copied in."""
    out = tmp_path / "run.json"
    proc = run_movebench("run", "--only", "fleet", "--json", out, timeout=180, check=0)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = load(out)
    assert doc["fleet"]["units"][0]["ranks"] == [0, 1] and doc["outliers"] == []
    assert {r["benchmark"] for r in doc["timings"]} == {"fleet"}
