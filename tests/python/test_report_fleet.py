"""movebench-report on fleet results (issue 21): `table` gives the fleet's
answer (outliers first, then what got slower than the baseline) and a table
per figure across units and pairs; the HTML page's summary names them first
and the fleet section has a strip plot with them labelled; `compare` of two
fleet results goes unit by unit. On two real fleet results committed in
tests/data/results (the commands in tests/data/README.md): a calm run, and
one with rank 2 under a CPU quota, --baseline the calm one."""

import json
import re

import pytest

from conftest import REPO
from movebench_report import fleet, pageplots
from movebench_report.model import load_sources
from reportkit import report, report_json

RESULTS = REPO / "tests" / "data" / "results"
BEFORE, AFTER = RESULTS / "fleet-before.json", RESULTS / "fleet-after.json"
FAILED = RESULTS / "fleet-failed.json"  # rank 2 of 4 could not allocate its arrays
AGAIN = RESULTS / "fleet-measured-again.json"  # rank 2 slowed in the first memory pass only


def doc(path):
    return json.loads(path.read_text())


def test_table_answers_first_then_a_table_per_figure():
    code, out, err = report("table", AFTER)
    assert code == 0, err
    after = doc(AFTER)
    outliers, regressions = after["outliers"], after["regressions"]
    assert outliers and regressions, "the committed run names rank 2 and its pairs"
    answer = out[out.index("fleet: the answer") : out.index("fleet mem.copy per unit")]
    lines = [l for l in answer.splitlines() if "OUTLIER" in l or "SLOWER" in l]
    # Every outlier, then every regression, one line each, in that order.
    assert len(lines) == len(outliers) + len(regressions)
    assert all("OUTLIER" in l for l in lines[: len(outliers)]) and all("SLOWER" in l for l in lines[len(outliers) :])
    assert f"rank {outliers[0]['rank']}: {outliers[0]['figure']}" in lines[0]
    # One table per figure, its rows the units (or pairs), the worst first.
    for figure, _, better, of in fleet.FIGURES:
        title = f"after: fleet {figure} per {'unit' if of == 'units' else 'pair'}"
        assert title in out
        block = out[out.index(title) :].split("\n\n")[0].splitlines()
        rows = [l for l in block[2:] if l.startswith("host ")]
        assert len(rows) == len(after["fleet"][of])
        values = [float(re.split(r"\s{2,}", r)[1]) for r in rows]
        assert values == sorted(values, reverse=better == "lower")
    # The outlier's row is marked, and the pairs' rows that got slower.
    latency = out[out.index("fleet mem.latency per unit") :].split("\n\n")[0]
    assert re.search(rf"host \S+ rank {outliers[0]['rank']} .*OUTLIER", latency)
    slower_rows = sum(l.rstrip().endswith("SLOWER") for l in out.splitlines())
    assert slower_rows == len(regressions)


def test_table_of_a_fleet_without_baseline_has_no_baseline_columns():
    code, out, err = report("table", BEFORE)
    assert code == 0, err
    assert "0 outliers" in out and "since baseline" not in out and "OUTLIER" not in out.split("fleet mem.copy")[1]


def test_a_failed_unit_is_named_last_and_has_no_row_in_its_figures_tables():
    code, out, err = report("table", FAILED)
    assert code == 0, err
    [failed] = doc(FAILED)["failed_units"]
    answer = out[out.index("fleet: the answer") :].split("\n\n")[0]
    assert "4 units (per rank), 3 pairs: 0 outliers, 1 failed" in answer
    line = f"FAILED unit host {failed['host']} rank {failed['rank']} in {failed['step']}: {failed['reason']}"
    assert answer.rstrip().splitlines()[-1].endswith(line)
    # Its memory figures are none: the tables hold the three others.
    for figure in ("mem.copy", "mem.triad", "mem.latency"):
        block = out[out.index(f"fleet {figure} per unit") :].split("\n\n")[0].splitlines()
        rows = [l for l in block[2:] if l.startswith("host ")]
        assert len(rows) == 3 and not any(l.startswith(f"host {failed['host']} rank 2 ") for l in rows)


def test_units_measured_again_are_noted_under_each_unit_table_and_only_there():
    again = [u for u in doc(AGAIN)["fleet"]["units"] if u.get("measured_again")]
    assert [u["rank"] for u in again] == [2] and doc(AGAIN)["outliers"] == []
    code, out, err = report("table", AGAIN)
    assert code == 0, err
    note = f"measured again after the pairs, the best of both kept (suspect at first): host {again[0]['host']} rank 2"
    for figure, _, _, of in fleet.FIGURES:
        block = out[out.index(f"fleet {figure} per {'unit' if of == 'units' else 'pair'}") :].split("\n\n")[0]
        assert (note in block) == (of == "units"), block
    code, out, err = report("table", AFTER)  # no unit measured again there
    assert code == 0 and "measured again" not in out, err


def test_the_page_names_the_outliers_first_and_draws_each_figure(tmp_path):
    page = tmp_path / "fleet.html"
    code, _, err = report("html", AFTER, "-o", page)
    assert code == 0, err
    html = page.read_text()
    summary = html[: html.index("<h2>The node</h2>")]
    answer = summary[summary.index("<div id='fleet'>") :]
    items = re.findall(r"<li class='bad'>([^<]*)</li>", answer)
    after = doc(AFTER)
    assert len(items) == len(after["outliers"]) + len(after["regressions"])
    assert items[0].startswith("OUTLIER node host") and all(
        i.startswith("SLOWER") for i in items[len(after["outliers"]) :]
    )
    assert "No headline figure" not in summary  # the fleet's answer is the headline
    # The strip plot: one axes per figure, the outlier and every slower pair labelled by name.
    source = load_sources([AFTER])[0]
    plot = pageplots.fleet_strip_plot(source.label, fleet.fleet_of(after))
    assert plot.series_per_axes == [1] * len(fleet.FIGURES)
    assert plot.svg in html
    o = after["outliers"][0]
    assert f"host {o['host']} rank {o['rank']} (OUTLIER)" in plot.svg
    assert plot.svg.count("(SLOWER)") == len(after["regressions"])
    # The per-figure tables are in the fleet section too.
    assert "fleet mem.latency per unit" in html[html.index("id='bench-fleet'") :]


def test_compare_of_two_fleet_results_goes_unit_by_unit():
    rows = report_json("compare", BEFORE, AFTER, "--view", "latency", "--threshold", "0.75", expect=(0, 3))["rows"]
    latency = [r for r in rows if r["operation"] == "latency"]
    assert len(latency) == 4 and len({r["params"] for r in latency}) == 4  # one row per unit, not pooled
    # The same verdict fleet --baseline gave (threshold 75%, as that run was given).
    slower = {r["params"] for r in rows if r["verdict"] == "SLOWER" and r["operation"] == "pair_latency"}
    pairs = {tuple(sorted(r["pair"]["ranks"])) for r in doc(AFTER)["regressions"] if r["figure"] == "p2p.latency"}
    assert {tuple(int(x) for x in re.search(r"ranks=([\d,]+)", p)[1].split(",")) for p in slower} == pairs


@pytest.mark.parametrize(
    "breaks",
    [
        lambda d: d["fleet"]["units"].__setitem__(0, {"host": "x"}),
        lambda d: d["outliers"][0].pop("median"),
        lambda d: d["regressions"][0].__setitem__("ratio", "fast"),
        lambda d: d["regressions"][0]["pair"].__setitem__("hosts", 3),
        lambda d: d.__setitem__("baseline", [1]),
    ],
)
def test_a_malformed_fleet_section_is_one_line(tmp_path, breaks):
    bad = doc(AFTER)
    breaks(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    for command in (["table"], ["html", "-o", tmp_path / "p.html"]):
        code, out, err = report(*command, path)
        assert code == 2 and err.count("\n") == 1 and "`fleet` is not as movebench fleet writes it" in err, err


def test_node_figures_are_the_binarys_step_figures():
    # The report's list is the binary's (src/node/node_step.hpp, kStepFigures), name, unit and direction.
    header = (REPO / "src" / "node" / "node_step.hpp").read_text()
    step = re.findall(r'\{"(node\.[\w.]+)", "([^"]+)", (true|false)\}', header)
    assert step and [(n, u, "higher" if h == "true" else "lower") for n, u, h in step] == [
        (f, u, b) for f, u, b, _ in fleet.NODE_FIGURES
    ]
    assert all(of == "units" for *_, of in fleet.NODE_FIGURES)


def test_table_of_a_fleet_node_run_lists_the_node_figures(tmp_path):
    # fleet --node: each unit's node headlines join its figures (docs/fleet.md).
    # On the committed run, each unit given the step's figures (rank r's the
    # r-th fraction of a made-up value: the table's order is then known).
    after = doc(AFTER)
    for i, unit in enumerate(after["fleet"]["units"]):
        unit["figures"].update({f: 100.0 + i for f, *_ in fleet.NODE_FIGURES})
    path = tmp_path / "fleet-node.json"
    path.write_text(json.dumps(after))
    code, out, err = report("table", path)
    assert code == 0, err
    for figure, unit, better, _ in fleet.NODE_FIGURES:
        title = f"fleet-node: fleet {figure} per unit"
        assert title in out, figure
        block = out[out.index(title) :].split("\n\n")[0].splitlines()
        assert f"{figure} [{unit}]" in block[1]
        values = [float(re.split(r"\s{2,}", r)[1]) for r in block[2:] if r.startswith("host ")]
        assert len(values) == len(after["fleet"]["units"])
        assert values == sorted(values, reverse=better == "lower")
