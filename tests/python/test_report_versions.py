"""Both layouts of the result document: version 1 files (tests/data/results/v1,
written by the last version 1 movebench and report tool) still read, and
their figures mean what their writers meant (vocabulary.meaning_v1); version
2 files say it themselves. table and compare show each figure's statistic
and bytes counted, and never compare figures that mean different things
silently."""

import json

import pytest

from conftest import REPO, validate_result
from movebench_report.vocabulary import meaning
from reportkit import edited, report, report_json

RESULTS = REPO / "tests" / "data" / "results"
V1 = sorted((RESULTS / "v1").glob("*.json"))
V2 = sorted((RESULTS / "v2").glob("*.json"))


def doc(path):
    return json.loads(path.read_text())


def meanings(path):
    """{(benchmark, operation, figure name): {Meaning}} of one file."""
    d = doc(path)
    out = {}
    for rec in d["timings"]:
        for name in rec["figures"]:
            out.setdefault((rec["benchmark"], rec["operation"], name), set()).add(
                meaning(name, rec, d["schema_version"])
            )
    return out


def test_both_versions_are_there_and_valid():
    assert {p.name for p in V1} >= {
        "mem.json",
        "lat.json",
        "link.json",
        "stream.json",
        "coll.json",
        "p2p.json",
        "beff.json",
    }
    assert {p.name for p in V1} >= {p.name for p in V2}
    for path in V1:
        assert validate_result(doc(path))["schema_version"] == 1, path
    for path in V2:
        assert validate_result(doc(path))["schema_version"] == 2, path


@pytest.mark.parametrize("name", [p.name for p in V2])
def test_version_1_figures_mean_what_version_2_says(name):
    """The same command at both versions: every figure read from the version
    1 file has the meaning the version 2 file writes for it."""
    old, new = meanings(RESULTS / "v1" / name), meanings(RESULTS / "v2" / name)
    common = old.keys() & new.keys()
    # (a link latency below the clock's resolution has no figure: a few may be missing in one run)
    assert len(common) >= 0.9 * len(new), (sorted(old), sorted(new))
    for key in common:
        assert old[key] == new[key], key


def text(meaning_):
    return meaning_.stat_text(), meaning_.accounting_text()


def test_version_1_words_that_read_two_ways():
    link = meanings(RESULTS / "v1" / "link.json")
    # version 1 wrote "min" for mem's least time (the best) and for link's least rate (the worst)
    assert {text(m) for m in link[("link", "copy.read", "bandwidth_min")]} == {
        ("min of rates (worst)", "application bytes")
    }
    assert {text(m) for m in meanings(RESULTS / "v1" / "mem.json")[("mem", "copy", "bandwidth")]} == {
        ("min of times (best)", "application bytes")
    }
    assert {text(m) for m in link[("link", "copy.duplex.total", "bandwidth")]} == {
        ("mean of times", "application bytes, both directions")
    }
    coll = meanings(RESULTS / "v1" / "coll.json")
    assert {m.accounting_text() for m in coll[("coll", "alltoall", "busbw")]} == {"bus bytes x0.5 (busbw)"}
    osu = meanings(RESULTS / "v1" / "imported-osu_bibw.json")
    assert {m.accounting_text() for m in osu[("p2p", "bibw", "bandwidth")]} == {"application bytes, both directions"}
    beff = meanings(RESULTS / "v1" / "beff.json")
    assert {text(m) for m in beff[("beff", "fpga", "bandwidth")]} == {
        ("min of times (best)", "application bytes, both directions")
    }


def test_table_reads_both_versions_side_by_side():
    for name in ("mem.json", "link.json", "coll.json", "p2p.json"):
        table = report_json("table", RESULTS / "v1" / name, "-data", "v2", RESULTS / "v2" / name)
        assert table["rows"], name
        assert not any(r["figure"].startswith("DIFFERS") for r in table["rows"]), name
        assert all(r[name[:-5] + " [MB/s]"] is not None for r in table["rows"] if r["v2 [MB/s]"] is not None), name


def test_table_shows_the_bytes_counted():
    rows = report_json("table", RESULTS / "v2" / "link.json")["rows"]
    figure = {r["operation"]: r["figure"] for r in rows}
    assert figure["copy.read"] == "mean of times; application bytes"
    assert figure["copy.duplex.total"] == "mean of times; application bytes, both directions"
    coll = {r["operation"]: r["figure"] for r in report_json("table", RESULTS / "v2" / "coll.json")["rows"]}
    assert coll["alltoall"] == "max of times (worst); bus bytes x0.5 (busbw)"  # the slowest rank
    mem = report_json("table", RESULTS / "v2" / "mem.json", "--figure", "bandwidth_median")["rows"]
    assert {r["figure"] for r in mem} == {"median of times; application bytes"}
    code, out, _ = report("table", RESULTS / "v2" / "p2p.json", "--format", "text")
    assert code == 0 and "application bytes, both directions" in out  # bibw


def test_compare_across_versions(tmp_path):
    rows = report_json("compare", RESULTS / "v1" / "mem.json", RESULTS / "v2" / "mem.json", expect=(0, 3))["rows"]
    assert len(rows) == 8 and all(r["B/A"] and r["verdict"] != "NOT COMPARED" for r in rows)
    assert {r["figure"] for r in rows} == {"min of times (best); application bytes"}
    # link's bandwidth_min of both versions: the worst test of each
    rows = report_json(
        "compare",
        RESULTS / "v1" / "link.json",
        RESULTS / "v2" / "link.json",
        "--figure",
        "bandwidth_min",
        expect=(0, 3),
    )["rows"]
    assert rows and {r["figure"] for r in rows} == {
        "min of rates (worst); application bytes",
        "min of rates (worst); application bytes, both directions",
    }


def counts_write_allocate(op):
    def change(d):
        for rec in d["timings"]:
            if op is None or rec["operation"] == op:
                rec["figures"]["bandwidth"]["accounting"]["bytes"] = "write_allocate"

    return change


def test_compare_refuses_figures_that_count_other_bytes(tmp_path):
    a = RESULTS / "v2" / "mem.json"
    one = edited(a, tmp_path / "one.json", counts_write_allocate("copy"))
    code, out, err = report("compare", a, one)
    assert code == 0, err
    copy = next(l for l in out.splitlines() if l.startswith("mem        copy"))
    assert "NOT COMPARED" in copy and "write-allocate bytes" in copy and "application bytes" in copy
    assert "NOT COMPARED: 1 of 8 points" in out
    rows = report_json("compare", a, one)["rows"]
    assert [r["B/A"] for r in rows if r["operation"] == "copy"] == [None]
    assert all(r["B/A"] == 1.0 for r in rows if r["operation"] != "copy")
    table = report_json("table", a, one)
    assert [r["operation"] for r in table["rows"] if r["figure"].startswith("DIFFERS")] == ["copy"]
    assert any(n.startswith("DIFFERS on 1 of 8 rows") for n in table["notes"])

    every = edited(a, tmp_path / "every.json", counts_write_allocate(None))
    code, out, err = report("compare", a, every)
    assert code == 2 and out == ""
    assert "differ in statistic or bytes counted" in err and "write-allocate bytes" in err and "--figure" in err


def test_compare_refuses_the_worst_against_the_best(tmp_path):
    """A version 1 link file's bandwidth_min (the worst test) against a file
    that calls the best test min (mem's meaning)."""

    def best_of(d):
        for rec in d["timings"]:
            fig = rec["figures"].get("bandwidth_min")
            if fig:
                fig["of"] = "time"

    a = RESULTS / "v2" / "link.json"
    b = edited(a, tmp_path / "b.json", best_of)
    code, _, err = report("compare", a, b, "--figure", "bandwidth_min")
    assert code == 2 and "min of rates (worst)" in err and "min of times (best)" in err


V3 = sorted((RESULTS / "v3").glob("*.json"))


def test_version_3_documents_validate_and_read_as_version_2():
    """Version 3 adds the machine's facts; its figures are version 2's, so the
    report tool reads them the same (the files: real runs, README there)."""
    assert {p.name for p in V3} >= {"mem.json", "facts.json"}
    for path in V3:
        d = validate_result(doc(path))
        assert d["schema_version"] == 3 and d["facts"]["cpu"]["model"], path
    rows = report_json("table", RESULTS / "v3" / "mem.json")["rows"]
    assert rows and {r["figure"] for r in rows} <= {
        "min of times (best); application bytes",
        "mean of times; application bytes",
        "median of times; application bytes",
    }, rows
    table = report_json("table", RESULTS / "v2" / "mem.json", "-data", "v3", RESULTS / "v3" / "mem.json")
    assert not any(r["figure"].startswith("DIFFERS") for r in table["rows"])


def test_busbw_factor_is_read_from_the_record_not_the_copy(tmp_path):
    """movebench coll writes each busbw figure's factor (accounting.factor,
    from its row in src/coll/coll_rows.hpp); vocabulary.BUS_FACTOR is only for
    documents that carry none. A factor no collective has (0.125) must show
    as written, for every collective."""

    def odd_factor(d):
        for rec in d["timings"]:
            if "busbw" in rec["figures"]:
                rec["figures"]["busbw"]["accounting"]["factor"] = 0.125

    path = edited(RESULTS / "run.json", tmp_path / "odd.json", odd_factor)
    d = doc(path)
    busbw = [rec for rec in d["timings"] if "busbw" in rec["figures"]]
    assert {rec["operation"] for rec in busbw} >= {"allreduce", "bcast"}
    for rec in busbw:
        assert meaning("busbw", rec, d["schema_version"]).accounting.factor == 0.125, rec["operation"]
    code, out, _ = report("table", path)
    assert code == 0
    bus_lines = [line for line in out.splitlines() if "(busbw)" in line]
    assert bus_lines and all("bus bytes x0.125 (busbw)" in line for line in bus_lines)
