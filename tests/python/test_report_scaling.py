"""`scaling`: the thread-count column table of TheBandwidthBenchmark's extractResults."""

from reportkit import imported, report, report_json, results


def test_threads_table_from_one_run():
    code, out, err = report("scaling", results()["scale"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["#nt", "init", "sum", "copy", "update", "triad", "daxpy", "striad", "sdaxpy"]
    assert [l.split()[0] for l in lines[1:3]] == ["1", "2"]
    assert all(float(v) > 0 for v in lines[1].split()[1:])


def test_scaling_over_imported_files_of_different_thread_counts():
    files = imported()
    table = report_json("scaling", files["thebandwidthbenchmark-1t"], files["bwbench-4t"])
    assert table["columns"][0] == "nt"
    rows = {r["nt"]: r for r in table["rows"]}
    assert set(rows) == {1, 4}
    assert rows[1]["triad"] == 15250.0 and rows[4]["triad"] == 34476.64


def test_by_ranks_for_collectives():
    files = imported()
    table = report_json("scaling", files["mpibench-cart"], "--by", "ranks", "--view", "latency")
    assert [r["np"] for r in table["rows"]] == [2, 4]


def test_nothing_varies_is_exit_2():
    code, _, err = report("scaling", results()["a"])
    assert code == 2 and "nothing to scale over" in err
