"""movebench run under an MPI launcher: one result file, local benchmarks once."""

from net_mpi import load, mpirun, needs_mpirun, ok


def link_headers(stdout):
    return [line for line in stdout.splitlines() if line.startswith("== link")]


@needs_mpirun
def test_run_under_mpirun_runs_local_benchmarks_on_rank_0_only(tmp_path, suite_run):
    out = tmp_path / "run.json"
    proc, _ = mpirun(2, "run", "--only", "link", "coll", "--json", out, timeout=240)
    ok(proc)
    assert proc.stdout.count("==== movebench run: summary ====") == 1, "rank 0 speaks for the job"
    doc = load(out)
    benchmarks = {r["benchmark"] for r in doc["timings"]}
    assert {"link", "coll"} <= benchmarks
    assert doc["mpi"] is not None and doc["validated"] is True
    # link is not collective: a copy on rank 1 would double its tables.
    # (suite_run: the run test_progress_tty.py reads too, measured once)
    alone, _ = suite_run("link", timeout=120)
    assert alone.returncode == 0, alone.stderr
    assert link_headers(alone.stdout) and len(link_headers(proc.stdout)) == len(link_headers(alone.stdout))
