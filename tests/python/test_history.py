"""`movebench-report history` (docs/history.md) against SQLite and a real
PostgreSQL server (tests/conftest.py: postgres): a synthetic history of a
real result document (tests/data/results/v3/mem.json) on three hosts, 30
runs each with seeded noise (1 % of the figures' values): one with a step
(10 % slower from run 20, where its kernel changed), one with a slow drift
(1 % slower every run from run 12), one with neither. What is asserted is
what the mechanism guarantees for this seeded history: the step found at the
run that first showed it with the fact that changed there, the drift where
it began (within the runs its first steps hide in the noise), nothing named
on the calm host."""

import datetime as dt
import json
import shutil
import subprocess

import numpy as np
import pytest

from reportkit import REPO, as_run, edited, png_size, report

RUNS, STEP_AT, DRIFT_FROM = 30, 20, 12
START = dt.datetime(2026, 1, 1, 2, 0)
MEM = REPO / "tests" / "data" / "results" / "v3" / "mem.json"
GPU_SUITE = REPO / "tests" / "data" / "results" / "run-h200.json"  # a real run with a "low" link verdict
HEADLINES = 8  # mem.json's headline figures (one per kernel)


LAST_RUNS = 12  # host "last": 12 runs, only the latest 15 % slower


def slow_down(host: str, run: int) -> float:
    if host == "last":
        return 1.15 if run == LAST_RUNS - 1 else 1.0
    if host == "step":
        return 1.10 if run >= STEP_AT else 1.0
    if host == "drift":
        return 1 + 0.01 * max(0, run - DRIFT_FROM + 1)
    return 1.0


def nightly(tmp, host: str, noise, runs=RUNS) -> list:
    """Nightly runs of `host`: the real document, its time and scale changed."""
    paths = []
    for run in range(runs):

        def change(doc, run=run):
            as_run(host, START + dt.timedelta(days=run), slow_down(host, run) * (1 + 0.01 * noise[run]))(doc)
            if host == "step" and run >= STEP_AT:
                doc["host"]["kernel"] = "6.18.45-fc-v700"

        paths.append(edited(MEM, tmp / f"{host}-{run}.json", change))
    return paths


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def history_store(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("history")
    if request.param == "sqlite":
        url = str(tmp / "results.sqlite")
    else:
        url = request.getfixturevalue("postgres").new_database()
    noise = np.random.default_rng(31).standard_normal((4, RUNS))
    paths = [p for i, host in enumerate(("calm", "step", "drift")) for p in nightly(tmp, host, noise[i])]
    paths += nightly(tmp, "last", noise[3], LAST_RUNS) + [GPU_SUITE]
    code, _, err = report("store", "add", "--store", url, *paths)
    assert code == 0, err
    return url


def table(out: str, title: str) -> list:
    """The rows of the table of history's JSON output whose title says `title`."""
    [rows] = [t["rows"] for t in json.loads(out) if title in t["title"]]
    return rows


def run_index(began: str) -> int:
    return (dt.datetime.strptime(began, "%Y-%m-%d %H:%M") - START).days


def test_the_calm_host_names_nothing(history_store):
    code, out, err = report("history", "--store", history_store, "--host", "calm")
    assert code == 0, err
    assert "change points" not in out and "SLOWER" not in out
    assert out.count("calm ") == HEADLINES * RUNS + HEADLINES  # every run of every series, and each verdict


def test_a_step_is_found_at_the_run_that_first_showed_it(history_store):
    code, out, _ = report("history", "--store", history_store, "--host", "step", "--format", "json")
    assert code == 3  # the level each series is at is a step down
    changes = table(out, "change points")
    assert len(changes) == HEADLINES, changes
    for row in changes:
        assert run_index(row["began"]) == STEP_AT and row["verdict"] == "SLOWER", row
        assert "host.kernel: 6.18.44-fc-v669 -> 6.18.45-fc-v700" in row["facts changed"], row


def test_a_slow_drift_is_found_where_it_began(history_store):
    code, out, _ = report("history", "--store", history_store, "--host", "drift", "--format", "json")
    assert code == 3
    changes = table(out, "change points")
    began = {(row["figure"], run_index(row["began"])) for row in changes if row["verdict"] == "SLOWER"}
    assert {figure for figure, _ in began} == {
        f"mem.{k}.1t" for k in ("copy", "daxpy", "init", "sdaxpy", "striad", "sum", "triad", "update")
    }
    assert all(abs(run - DRIFT_FROM) <= 3 for _, run in began), began
    # The latest run is below its last 10 (about 5 % at this slope, so within the threshold or not by noise):
    # the exit code says so through the change point, whose level is the one the node is at.
    assert all(row["latest/median"] < 1 for row in table(out, "latest run"))


def test_the_latest_run_against_its_own_past(history_store):
    code, out, _ = report(
        "history", "--store", history_store, "--host", "last", "--figure", "mem.triad.1t", "--format", "json"
    )
    assert code == 3
    [row] = table(out, "latest run")
    assert row["verdict"] == "SLOWER" and row["runs"] == LAST_RUNS
    assert row["latest/median"] == pytest.approx(1 / 1.15, abs=0.03)
    code, out, _ = report(
        "history", "--store", history_store, "--host", "calm", "--figure", "mem.triad.1t", "--threshold", "0.2"
    )
    assert code == 0


def test_what_is_not_there_is_one_line(history_store, tmp_path):
    code, out, err = report("history", "--store", history_store, "--host", "nowhere")
    assert code == 2 and out == "" and err.count("\n") == 1 and "no figures of host 'nowhere'" in err
    code, out, err = report("history", "--store", history_store, "--figure", "mem.nothing")
    assert code == 2 and err.count("\n") == 1 and "no figures named 'mem.nothing'" in err


def test_the_prometheus_file(history_store, tmp_path):
    """Every series' latest figure in base units, its verdicts and history's
    answer, in a file promtool accepts (Debian's prometheus; where it is not
    installed, prometheus-client's own parser reads it)."""
    from prometheus_client.parser import text_string_to_metric_families

    prom = tmp_path / "movebench.prom"
    code, _, err = report("history", "--store", history_store, "--prometheus", prom)
    assert code == 3, err
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(prom.read_text())
        for s in family.samples
    }

    def value(name, **labels):
        [v] = [v for (n, ls), v in samples.items() if n == name and labels.items() <= dict(ls).items()]
        return v

    assert value("movebench_history_slower", host="step", figure="mem.triad.1t") == 1
    assert value("movebench_history_slower", host="calm", figure="mem.triad.1t") == 0
    verdict = json.loads(GPU_SUITE.read_text())["verdicts"][0]  # link.copy.read.pinned: low
    assert value("movebench_verdict", host="vm", figure=verdict["figure"], verdict=verdict["verdict"]) == 1
    assert value("movebench_verdict", host="vm", figure=verdict["figure"], verdict="normal") == 0
    assert value("movebench_peak_ratio", host="vm", figure=verdict["figure"]) == pytest.approx(verdict["fraction"])
    assert value("movebench_bandwidth_bytes_per_second", host="vm", figure=verdict["figure"]) == pytest.approx(
        verdict["value"] * 1e6
    )
    if shutil.which("promtool") is None:
        pytest.skip("promtool not installed (Debian's prometheus): the file was read by prometheus-client only")
    check = subprocess.run(
        ["promtool", "check", "metrics"],
        input=prom.read_text(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_node_health_check(history_store):
    """Silent and 0 for a healthy node; 3 and one line with the reason (a
    level that is a step down, a path below its band) for one that is not."""
    assert report("health", "--store", history_store, "--host", "calm") == (0, "", "")
    code, out, _ = report("health", "--store", history_store, "--host", "step")
    assert code == 3 and out.count("\n") == 1 and out.startswith("movebench: step: mem.") and "since run" in out
    code, out, _ = report("health", "--store", history_store, "--host", "vm")
    assert code == 3 and out.count("\n") == 1 and "link.copy.read.pinned low" in out, out
    code, out, err = report("health", "--store", history_store, "--host", "nowhere")
    assert code == 2 and err.count("\n") == 1


SVG = "{http://www.w3.org/2000/svg}"


def marks_in(svg_text: str) -> dict:
    """{kind: {stored run}} of the plot's marks (historyplot: <g id='change-P-S-run-R'>, 'slower-P-S-run-R')."""
    import re

    out = {}
    for kind, run in re.findall(r"id=['\"](change|slower)-\d+-\d+-run-(\d+)['\"]", svg_text):
        out.setdefault(kind, set()).add(int(run))
    return out


def runs_of(history_store, host: str, figure: str) -> list:
    """The stored run ids of a host's series, oldest first (history's JSON)."""
    code, out, _ = report("history", "--store", history_store, "--host", host, "--figure", figure, "--format", "json")
    return [row["run"] for row in table(out, "every run")]


def test_the_plot_marks_the_change_points_and_the_slower_runs(history_store, tmp_path):
    """One panel per figure, a line per host; the step's mark at the run that
    first showed it, the latest run that is slower ringed, none on the calm host."""
    import xml.etree.ElementTree as ET

    svg = tmp_path / "history.svg"
    code, _, err = report("history", "--store", history_store, "--figure", "mem.triad.1t", "--plot", svg)
    assert code == 3, err
    text = svg.read_text()
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    lines = [g.get("id") for g in root.iter(SVG + "g") if (g.get("id") or "").startswith("series-")]
    assert len(lines) == 5  # calm, drift, last, step and the GPU suite's host (vm, one run)
    marks = marks_in(text)
    assert runs_of(history_store, "step", "mem.triad.1t")[STEP_AT] in marks["change"]
    assert runs_of(history_store, "last", "mem.triad.1t")[-1] in marks["slower"]
    calm = set(runs_of(history_store, "calm", "mem.triad.1t"))
    assert not calm & (marks["change"] | marks.get("slower", set()))
    # the hosts' nightly runs share their times: the fleet's spread is drawn behind them, once
    assert [g.get("id") for g in root.iter(SVG + "g") if (g.get("id") or "").startswith("spread-")] == ["spread-0"]
    png = tmp_path / "history.png"
    assert report("history", "--store", history_store, "--host", "step", "--plot", png)[0] == 3
    assert png_size(png)[0] > 0


def test_the_history_page(history_store, tmp_path):
    """One self-contained page: the answer, the tables, a plot per figure with its marks."""
    page = tmp_path / "history.html"
    code, out, err = report("history", "--store", history_store, "--host", "step", "--html", page)
    assert code == 3, err
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert "<script" not in text and "http://" not in text.replace("http://www.w3.org", "")
    assert text.count("<svg") == HEADLINES  # one plot per figure
    assert "since run" in text and "change points" in text
    step_runs = runs_of(history_store, "step", "mem.triad.1t")
    assert step_runs[STEP_AT] in marks_in(text)["change"]
    assert out.startswith("history: every run")  # the tables still go to stdout


@pytest.mark.parametrize(
    "args, says",
    [
        (["--plot", "history.txt"], "plot files end in .png or .svg"),
        (["--plot", "nowhere/history.svg"], "does not exist"),
        (["--html", "nowhere/history.html"], "does not exist"),
    ],
)
def test_bad_plot_and_page_arguments_are_one_line(history_store, tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    code, out, err = report("history", "--store", history_store, *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err, err
    assert not list(tmp_path.iterdir())


def test_the_spread_is_the_range_of_the_series_at_each_common_time():
    """Two or more series at one time give the band's point there; a time only one series has gives none."""
    from types import SimpleNamespace as NS

    from movebench_report.historyplot import spread_of

    def member(*runs):
        return NS(series=NS(runs=[NS(time=t, value=v) for t, v in runs]))

    a = member((1, 10.0), (2, 11.0), (3, 9.0), (None, 1.0))
    b = member((1, 12.0), (2, 8.0))
    c = member((1, 11.0), (4, 5.0))
    assert spread_of([a, b, c]) == [(1, 10.0, 12.0), (2, 8.0, 11.0)]
    assert spread_of([a]) == []


def test_labels_from_the_store_are_bounded(tmp_path):
    """A host name as long as a file makes it is shortened in the plot and the page."""
    from movebench_report.labels import MAX_TEXT

    long_host = "n" * 5000
    paths = [
        edited(MEM, tmp_path / f"long-{run}.json", as_run(long_host, START + dt.timedelta(days=run)))
        for run in range(4)
    ]
    url = str(tmp_path / "long.sqlite")
    assert report("store", "add", "--store", url, *paths)[0] == 0
    page, svg = tmp_path / "long.html", tmp_path / "long.svg"
    code, _, err = report("history", "--store", url, "--figure", "mem.copy.1t", "--html", page, "--plot", svg)
    assert code == 0, err
    for text in (page.read_text(), svg.read_text()):
        assert long_host not in text and "n" * 60 in text
        assert "n" * (MAX_TEXT + 1) not in text
