"""movebench coll under mpirun: mpiBench's output, JSON, checks, failures."""

import json
import re

import pytest
from net_mpi import MPIBENCH_LINE, assert_validation_skipped, load, movebench_errors, mpirun, needs_mpirun, ok

from conftest import REPO
from movebench_report.vocabulary import bus_factor

pytestmark = needs_mpirun
# shared/ stands beside the checkout (CI clones the repository next to it).
SAMPLE = REPO / "tests" / "data" / "peers" / "mpibench-np2-default.txt"  # a real mpiBench output


def result_lines(stdout):
    lines = stdout.splitlines()
    assert lines[0] == "START mpiBench v1.5"
    assert lines[-1] == "END mpiBench"
    assert lines[-2].startswith("Message buffers (KB):\t")
    return [l for l in lines if "\tBytes:\t" in l]


def test_two_ranks_print_mpibench_lines_and_valid_json(tmp_path):
    out = tmp_path / "coll.json"
    proc, _ = mpirun(
        2,
        "coll",
        "-e",
        "1K",
        "-i",
        "20",
        "Allreduce",
        "Alltoall",
        "Bcast",
        "Gatherv",
        "Barrier",
        "Reduce_scatter",
        "--json",
        out,
    )
    ok(proc)
    lines = result_lines(proc.stdout)
    rows = [MPIBENCH_LINE.match(l) for l in lines]
    assert all(rows), [l for l, r in zip(lines, rows) if not r]
    ops = [r["op"].strip() for r in rows]
    # mpiBench's order, whatever the command line order; Reduce_scatter last.
    assert (
        ops.index("Barrier")
        < ops.index("Bcast")
        < ops.index("Alltoall")
        < ops.index("Gatherv")
        < ops.index("Allreduce")
        < ops.index("Reduce_scatter")
    )
    assert all(int(r["iters"]) == 20 and int(r["ranks"]) == 2 for r in rows)
    allreduce = [int(r["bytes"]) for r in rows if r["op"].strip() == "Allreduce"]
    assert allreduce == [8, 16, 32, 64, 128, 256, 512, 1024]  # doubles: no 0, 1, 2, 4
    for r in rows:
        assert float(r["min"]) <= float(r["avg"]) <= float(r["max"])
    doc = load(out)
    assert doc["validated"] is True and doc["complete"] is True
    assert doc["mpi"]["ranks"] == 2
    assert len(doc["timings"]) == len(rows)
    for t in doc["timings"]:
        assert len(t["samples"]) == 2  # one time per rank
        f = t["figures"]
        if t["operation"] == "allreduce":
            assert f["busbw"]["value"] == pytest.approx(f["algbw"]["value"] * 1.0)  # 2(n-1)/n = 1
            assert t["params"]["datatype"] == "MPI_DOUBLE"
        if t["operation"] == "alltoall":
            assert f["busbw"]["value"] == pytest.approx(f["algbw"]["value"] * 0.5)
            # algbw = n * bytes / max time
            assert f["algbw"]["value"] == pytest.approx(2 * t["bytes"] / (f["max"]["value"] * 1e-9) / 1e9, rel=1e-6)
    # the headline results: the largest size's busbw of each operation that has one, none for Barrier
    results = doc["results"]
    for op in ("allreduce", "alltoall", "bcast", "gatherv", "reduce_scatter"):
        last = [t for t in doc["timings"] if t["operation"] == op][-1]
        assert results[f"coll.{op}.busbw"]["value"] == last["figures"]["busbw"]["value"], op
    assert "coll.barrier.busbw" not in results and "coll.barrier.avg" in results


def test_lines_have_the_sample_files_layout():
    real = [l for l in SAMPLE.read_text().splitlines() if "\tBytes:\t" in l]
    assert real and all(MPIBENCH_LINE.match(l) for l in real)


def test_odd_ranks_cartesian_dims_and_every_iteration_checked(tmp_path):
    out = tmp_path / "coll3.json"
    proc, _ = mpirun(3, "coll", "-e", "64", "-i", "3", "-d", "2", "-C", "--json", out)  # the default set
    ok(proc)
    rows = [MPIBENCH_LINE.match(l) for l in result_lines(proc.stdout)]
    assert all(rows)
    comms = {r["comm"] for r in rows}
    assert comms == {"MPI_COMM_WORLD", "CartDim-1of2", "CartDim-2of2"}
    assert {r["op"].strip() for r in rows} == {
        "Barrier",
        "Bcast",
        "Alltoall",
        "Alltoallv",
        "Allgather",
        "Allgatherv",
        "Gather",
        "Gatherv",
        "Scatter",
        "Allreduce",
        "Reduce",
    }  # mpiBench's eleven; Reduce_scatter only by name
    # 3 ranks: a 3x1 grid, so dimension 1 holds all 3 and dimension 2 one each.
    assert {int(r["ranks"]) for r in rows if r["comm"] == "CartDim-1of2"} == {3}
    assert {int(r["ranks"]) for r in rows if r["comm"] == "CartDim-2of2"} == {1}
    doc = load(out)
    assert doc["validated"] is True
    assert doc["settings"]["coll"]["check"].startswith("every iteration")
    # The report tool reads busbw's factor from the record (accounting.factor);
    # its own copy is only for documents that do not carry one (version 1,
    # imported tools): it must agree with coll's table, row for row.
    factors = {
        (r["operation"], r["params"]["ranks"]): f["busbw"]["accounting"]["factor"]
        for r in doc["timings"]
        for f in [r["figures"]]
        if "busbw" in f
    }
    assert {op for op, _ in factors} == {
        "bcast",
        "alltoall",
        "alltoallv",
        "allgather",
        "allgatherv",
        "gather",
        "gatherv",
        "scatter",
        "allreduce",
        "reduce",
    }
    for (op, ranks), factor in factors.items():
        assert factor == pytest.approx(bus_factor(op, ranks)), (op, ranks)


def test_four_ranks_partitions(tmp_path):
    proc, _ = mpirun(4, "coll", "-e", "16", "-i", "2", "-p", "2", "Allgather", "Allreduce")
    ok(proc)
    rows = [MPIBENCH_LINE.match(l) for l in result_lines(proc.stdout)]
    assert {(r["comm"], int(r["ranks"])) for r in rows} == {("MPI_COMM_WORLD", 4), ("PartSize-4", 4), ("PartSize-2", 2)}


@pytest.mark.parametrize(
    "args, words",
    [
        (["-b", "2K", "-e", "1K"], "-b 2K is above -e 1K"),
        (["Allfoo"], "unknown operation 'Allfoo'"),
        (["-i", "0"], "invalid -i"),
        (["-e", "12Q"], "12Q"),
        (["--per-call", "--no-barrier"], "--per-call keeps a barrier"),
    ],
)
def test_bad_options_one_line_from_rank_0_exit_2(args, words):
    proc, _ = mpirun(2, "coll", *args)
    assert proc.returncode == 2
    errors = movebench_errors(proc.stderr, "coll")
    assert len(errors) == 1 and words in errors[0], proc.stderr


def test_wrong_received_data_fails_the_run_and_keeps_results(tmp_path):
    out = tmp_path / "bad.json"
    proc, _ = mpirun(
        2, "coll", "-e", "64", "-i", "2", "Alltoall", "Allreduce", "--fail-for-test", "corrupt", "--json", out
    )
    assert proc.returncode == 1
    assert any("validation failed" in l for l in movebench_errors(proc.stderr, "coll"))
    doc = load(out)
    assert doc["validated"] is False and "validation" in doc["errors"]
    assert len(doc["timings"]) >= 1  # what was measured is kept


def test_a_hanging_rank_is_aborted_by_the_watchdog(tmp_path):
    out = tmp_path / "hang.json"
    proc, seconds = mpirun(
        2,
        "coll",
        "-e",
        "8",
        "-i",
        "2",
        "Bcast",
        "--fail-for-test",
        "hang",
        "--step-timeout",
        "3",
        "--json",
        out,
        timeout=90,
    )
    assert proc.returncode != 0
    assert seconds < 60
    assert "did not finish within 3 s" in proc.stderr
    assert json.loads(out.read_text())["complete"] is False  # rank 0 wrote it at the start


def test_a_killed_rank_ends_the_job(tmp_path):
    proc, seconds = mpirun(
        2, "coll", "-e", "8", "-i", "2", "Bcast", "--fail-for-test", "die", "--step-timeout", "20", timeout=90
    )
    assert proc.returncode != 0
    assert seconds < 60


def test_suite_starts_a_small_local_mpi_job(suite_run):
    """`movebench run` outside a launcher runs coll as a 2-rank mpirun job of itself."""
    from net_mpi import ROOT_ENV, built_with_mpi

    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    proc, out = suite_run("coll", env=ROOT_ENV)
    assert proc.returncode == 0, proc.stderr
    summary = proc.stdout.split("==== movebench run: summary ====")[1]
    assert "coll (avg at the largest size): " in summary and "allreduce" in summary
    doc = load(out)
    # the summary's us are the result's ns / 1000
    shown = float(re.search(r" allreduce ([\d.]+) us;", summary)[1])
    assert shown == pytest.approx(doc["results"]["coll.allreduce.avg"]["value"] / 1e3, abs=0.006)
    assert doc["results"]["coll.allreduce.avg"]["unit"] == "ns"
    records = [t for t in doc["timings"] if t["benchmark"] == "coll"]
    assert {t["operation"] for t in records} == {"barrier", "bcast", "alltoall", "allreduce"}
    assert all(len(t["samples"]) == 2 for t in records)
    assert doc["mpi"]["ranks"] == 2 and doc["validated"] is True


def test_runs_without_a_launcher_as_one_rank():
    from net_mpi import built_with_mpi

    from conftest import run_movebench

    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    proc = run_movebench("coll", "-e", "8", "-i", "3", "Barrier", "Allreduce", check=0, timeout=60)
    rows = [MPIBENCH_LINE.match(l) for l in result_lines(proc.stdout)]
    assert [r["op"].strip() for r in rows] == ["Barrier", "Allreduce"]
    assert all(r["ranks"] == "1" and r["iters"] == "      5" for r in rows)  # -i below the 5 estimate calls


def test_per_call_timing_is_osu_procedure(tmp_path):
    out = tmp_path / "pc.json"
    proc, _ = mpirun(
        2, "coll", "-b", "8", "-e", "1K", "-i", "50", "-t", "0", "--per-call", "Allreduce", "Bcast", "--json", out
    )
    ok(proc)
    assert len(result_lines(proc.stdout)) == 2 * 8  # 8 B .. 1 KiB, two operations
    doc = load(out)
    assert doc["settings"]["coll"]["timing"] == "per-call"
    assert {r["params"]["timing"] for r in doc["timings"]} == {"per-call"}
    assert all(r["figures"]["avg"]["value"] > 0 for r in doc["timings"])


def test_no_check_records_the_skip_with_its_reason(tmp_path):
    out = tmp_path / "nocheck.json"
    proc, _ = mpirun(2, "coll", "-e", "64", "-i", "5", "Bcast", "Allreduce", "--no-check", "--json", out)
    doc = assert_validation_skipped(proc, out, "coll", "--no-check")
    assert result_lines(proc.stdout)  # mpiBench's output unchanged: still ends with END mpiBench
    assert doc["settings"]["coll"]["check"] == "none" and doc["timings"]
