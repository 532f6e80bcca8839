"""`table`: real result files made by the binary, merged, filtered, in every format."""

import csv
import io
import json

import pytest

from conftest import run_movebench
from reportkit import report, report_json, results


def test_text_table_lists_every_kernel_of_a_run():
    code, out, err = report("table", results()["a"])
    assert code == 0, err
    for kernel in ("init", "sum", "copy", "update", "triad", "daxpy", "striad", "sdaxpy"):
        assert f" {kernel} " in out
    assert "a [MB/s]" in out


def test_json_values_are_the_records_bandwidth_figures():
    doc = json.loads(results()["a"].read_text())
    want = {r["operation"]: r["figures"]["bandwidth"]["value"] for r in doc["timings"]}
    table = report_json("table", results()["a"])
    got = {row["operation"]: row["a [MB/s]"] for row in table["rows"]}
    assert got.keys() == want.keys()
    for op, value in want.items():
        assert got[op] == pytest.approx(value, rel=1e-9)


def test_merge_gives_one_column_per_file():
    table = report_json("table", results()["a"], results()["b"])
    assert "a [MB/s]" in table["columns"] and "b [MB/s]" in table["columns"]
    assert all(row["a [MB/s]"] and row["b [MB/s]"] for row in table["rows"])


def test_filters_by_operation_size_and_benchmark():
    rows = report_json("table", results()["seq"], "--op", "triad", "--sizes", "90K:2M")["rows"]
    assert {r["operation"] for r in rows} == {"triad"}
    assert [r["bytes"] for r in rows] == [98304, 393216, 1572864]  # 3 arrays of 4K, 16K, 64K doubles
    code, _, err = report("table", results()["seq"], "-b", "coll")
    assert code == 2 and "no bandwidth figures" in err


def test_latency_view_of_a_chase():
    table = report_json("table", results()["lat"], "--view", "latency")
    assert table["columns"][5:7] == ["figure", "lat [ns]"]
    assert {r["figure"] for r in table["rows"]} == {"min of times (best)"}
    assert [r["bytes"] for r in table["rows"]] == sorted(r["bytes"] for r in table["rows"])
    assert all(0 < r["lat [ns]"] < 1e6 for r in table["rows"])


def test_unit_converts():
    mb = report_json("table", results()["a"], "--op", "copy")["rows"][0]["a [MB/s]"]
    gb = report_json("table", results()["a"], "--op", "copy", "--unit", "GB/s")["rows"][0]["a [GB/s]"]
    assert gb == pytest.approx(mb / 1000)


def test_markdown_and_csv():
    code, md, _ = report("table", results()["a"], "--format", "markdown")
    lines = md.splitlines()
    header = next(i for i, l in enumerate(lines) if l.startswith("| benchmark"))
    assert lines[header + 1].startswith("|---")
    assert sum(l.startswith("| mem |") for l in lines) == 8
    code, text, _ = report("table", results()["a"], "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 8 and float(rows[0]["a [MB/s]"]) > 0


def test_output_file(tmp_path):
    out = tmp_path / "t.md"
    code, stdout, _ = report("table", results()["a"], "--format", "markdown", "-o", out)
    text = out.read_text()
    assert code == 0 and stdout == "" and text.startswith("**summary")  # the verdict lines first
    assert "\n**bandwidth" in text


def test_any_benchmark_link_host_backend(tmp_path):
    if " link " not in run_movebench("--help", check=0).stdout:
        pytest.skip("this movebench build has no link command")
    out = tmp_path / "link.json"
    run_movebench("link", "--backend", "host", "--sizes", "4K:16K", "--count", "3", "--json", out, check=0)
    rows = report_json("table", out)["rows"]
    assert {"copy.read", "copy.write", "kernel.read"} <= {r["operation"] for r in rows}
    assert any("host_memory=pinned" in r["params"] for r in rows)
    latency = report_json("table", out, "--view", "latency")["rows"]
    assert any(r["operation"] == "roundtrip" for r in latency)


def test_a_different_calibrated_shape_is_the_same_point(tmp_path):
    """Two runs of one command may calibrate different loop shapes (and so
    streaming stores or not) for a kernel: their rows still merge."""
    doc = json.loads(results()["a"].read_text())
    for rec in doc["timings"]:
        rec["params"]["shape"] = "page-nt" if rec["params"].get("shape") != "page-nt" else "plain"
        rec["params"]["nontemporal"] = not rec["params"].get("nontemporal", False)
    other = tmp_path / "b.json"
    other.write_text(json.dumps(doc))
    table = report_json("table", results()["a"], other)
    assert len(table["rows"]) == len(json.loads(results()["a"].read_text())["timings"])
    assert all(row["a [MB/s]"] and row["b [MB/s]"] for row in table["rows"])
