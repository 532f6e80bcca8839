"""Issue 19: the HTML page answers at a glance. The summary rows (from
verdicts where the document has them, else derived and "unknown"), the node
picture, plots a person can read (series per axes, no line across sweeps),
the drill-down sections, and `table`'s verdict lines, on the committed real
full-suite result (tests/data/results/run.json) and the hand-made facts."""

import json
import re

import pytest

from movebench_report import pageplots
from movebench_report.facts import NO_PEAK
from movebench_report.model import Filter, load_sources
from movebench_report.summary import rows_of
from reportkit import REPO, SUITE, edited, report, report_json, scale_timings, suite_page, with_facts


def html_of(tmp_path, *files):
    out = tmp_path / "r.html"
    code, _, err = report("html", *files, "-o", out)
    assert code == 0, err
    return out.read_text()


def first_screen(html: str) -> str:
    """The page up to the node picture: what the summary section holds."""
    return html[: html.index("<h2>The node</h2>")]


def test_suite_without_verdicts_is_unknown_with_the_reason():
    doc = json.loads(SUITE.read_text())
    rows = rows_of(doc)
    paths = {r.path for r in rows}
    assert {"dram", "network"} <= paths or {"cache", "network"} <= paths, paths
    assert all(r.verdict == "unknown" and r.reasons == [NO_PEAK] for r in rows)
    html = first_screen(suite_page().read_text())
    assert "<table id='summary'>" in html and html.count(NO_PEAK) == len(rows)
    assert doc["host"]["cpu_model"] in html and doc["git_commit"][:10] in html and doc["host"]["hostname"] in html


def test_verdicts_peaks_and_facts_are_shown(tmp_path):
    doc_path = with_facts(SUITE, tmp_path / "facts.json")
    html = html_of(tmp_path, doc_path)
    summary = first_screen(html)
    assert "<td class='v-low'>low</td>" in summary and "3 of 8 channels empty on socket 0" in summary
    assert "<td class='v-degraded'>degraded</td>" in summary and "PCIe link trained at x8 of x16" in summary
    assert "ranks on one host: the NIC was not used" in summary
    assert re.search(r"<td>\d+%</td>", summary), "the fraction of the peak"
    assert "warning: CPU frequency governor is powersave" in summary
    node = html[html.index("<h2>The node</h2>") : html.index("<h2>Per benchmark</h2>")]
    assert "NVIDIA A100" in node and "16 GT/s x8 (max 16 GT/s x16)" in node and "DEGRADED" in node
    assert "mlx5_0" in node and "3 of 8 channels empty on socket 0" in node
    assert "Package 1" in node or "2 NUMA" in node or "peak 64 GB/s" in node


def test_figure_peak_drawn_and_fraction_computed(tmp_path):
    def peak(doc):
        for key, fig in doc["results"].items():
            if key.startswith("mem.triad."):
                fig["peak"] = {"value": fig["value"] * 2, "unit": fig["unit"], "source": "test peak"}

    doc = json.loads(edited(SUITE, tmp_path / "p.json", peak).read_text())
    dram = [r for r in rows_of(doc) if r.figure.startswith("mem.triad.")]
    assert dram and dram[0].fraction == pytest.approx(0.5) and dram[0].reasons == ["no verdict recorded"]


def slower(factor):
    """scale_timings, and the headline figures with them."""
    records = scale_timings(factor)

    def change(doc):
        records(doc)
        for fig in doc["results"].values():
            fig["value"] *= (1 / factor) if fig["unit"].endswith("/s") else factor

    return change


def test_two_files_side_by_side_slower_marked(tmp_path):
    slow = edited(SUITE, tmp_path / "slow.json", slower(1.5))
    html = first_screen(html_of(tmp_path, SUITE, slow))
    assert "run / run" not in html and "slow / run" in html
    assert "SLOWER" in html and "class='bad'" in html


def test_table_prints_the_verdict_lines_first():
    code, out, err = report("table", SUITE)
    assert code == 0, err
    assert out.startswith("summary: one row per path")
    assert out.index("unknown") < out.index("bandwidth (MB/s)")
    assert report_json("table", SUITE)["columns"][0] == "benchmark", "JSON stays one table"


def suite_plots():
    source = load_sources([SUITE])[0]
    return pageplots.benchmark_plots(source, Filter())


def test_no_axes_holds_more_than_8_series():
    plots = [p for ps in suite_plots().values() for p in ps]
    assert plots
    counts = [n for p in plots for n in p.series_per_axes]
    assert max(counts) <= pageplots.MAX_SERIES, [(p.title, p.series_per_axes) for p in plots]


def test_no_line_joins_two_points_of_one_size():
    """A line through two points at the same size is a jump between sweeps."""
    source = load_sources([SUITE])[0]
    for view in ("bandwidth", "latency"):
        points = [p for p in source.points() if p.value(view) and p.bytes > 0]
        for bench in {p.benchmark for p in points}:
            for s in pageplots.series_of([p for p in points if p.benchmark == bench], view):
                sizes = [x for x, _ in s.points]
                assert not s.is_sweep or len(sizes) == len(set(sizes)), (bench, view, s.label)


def test_every_plot_is_inline_svg_with_title_and_text():
    html = suite_page().read_text()
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    assert len(svgs) >= 3
    for svg in svgs:
        assert re.search(r"<title>[^<]{10,}</title><desc>[^<]{10,}</desc>", svg), svg[:300]
    assert "data:image" not in html and "<img" not in html


def test_drill_down_sections_collapsed_and_linked():
    html = suite_page().read_text()
    doc = json.loads(SUITE.read_text())
    for bench in {rec["benchmark"] for rec in doc["timings"]}:
        assert f"<details><summary id='bench-{bench}'>" in html
    for target in re.findall(r"href='#([^']+)'", first_screen(html)):
        assert f"id='{target}'" in html
    assert "<details open" not in html


def test_page_is_small_and_fetches_nothing():
    html = suite_page().read_text()
    assert len(html.encode()) < 2 * 2**20
    assert not re.search(r"""(src|href)\s*=\s*['"]?\s*(https?:|//|file:|ftp:)""", html, re.I)
    assert not re.search(r"url\(\s*['\"]?(https?:|//)|@import|<script|<link\b|<iframe", html, re.I)


def test_a_facts_document_at_schema_version_3_is_read(tmp_path):
    """The facts layer may raise the schema version (issue 18): version 3 reads as 2 with its additions."""

    def three(doc):
        doc["schema_version"] = 3

    path = edited(with_facts(SUITE, tmp_path / "f.json"), tmp_path / "v3.json", three)
    code, out, err = report("table", path)
    assert code == 0, err
    assert "degraded" in out and "PCIe link trained at x8 of x16" in out


def test_a_peak_that_says_why_it_is_unknown_gives_the_reason(tmp_path):
    def unknown(doc):
        for key, fig in doc["results"].items():
            if key.startswith("mem.triad."):
                fig["peak"] = {"status": "unknown", "why": "SMBIOS table not readable: run as root"}

    doc = json.loads(edited(SUITE, tmp_path / "u.json", unknown).read_text())
    dram = [r for r in rows_of(doc) if r.figure.startswith("mem.triad.")]
    assert dram and dram[0].reasons == ["SMBIOS table not readable: run as root"] and dram[0].verdict == "unknown"


def from_files(doc):
    """The real `movebench facts --dmidecode` document (tests/data/results/v3,
    from before `origin`) as this build writes it: the CPU and DRAM the
    dump's, every other part not in the file (collect.cpp)."""
    dump = doc["settings"]["facts"]["dmidecode"]
    facts = doc["facts"]
    facts["origin"] = {
        part: {"machine": "none", "why": f"not in the file (--dmidecode {dump}): x"}
        for part in ("pcie", "accelerators", "nics", "memory_tiers", "settings")
    }
    facts["origin"].update(
        {part: {"machine": "file", "option": "--dmidecode", "file": dump} for part in ("cpu", "dram")}
    )
    for part in ("pcie", "accelerators", "nics", "memory_tiers"):
        facts[part] = {"status": "unknown", "why": facts["origin"][part]["why"]}
    facts["settings"], facts["warnings"] = {}, []
    facts.pop("settings_note", None)


def test_facts_from_a_file_are_drawn_as_the_files_machine_not_this_host(tmp_path):
    """The node picture of `movebench facts --dmidecode F`: the dump's CPU
    and DRAM peak, said to come from the file, not the host that ran
    movebench (its CPU, caches and memory size); the caption says whose
    each part is. Before `origin`, the same document drew this VM's Xeon
    beside the EPYC's DIMMs."""
    path = edited(REPO / "tests" / "data" / "results" / "v3" / "facts.json", tmp_path / "f.json", from_files)
    doc = json.loads(path.read_text())
    html = html_of(tmp_path, path)
    node = html[html.index("<h2>The node</h2>") :]
    dump = doc["settings"]["facts"]["dmidecode"]
    picture = node.split("<figcaption")[0]
    assert "AMD EPYC 9454P" in picture and "from --dmidecode" in picture and dump in picture  # the box wraps it
    assert doc["host"]["cpu_model"] not in picture  # the host ran movebench; the facts are not its own
    assert "346 GB/s" in picture and "GiB" not in picture  # the dump's peak, not the host's memory size
    assert (
        f"; facts of the machine --dmidecode {dump} describes: CPU, DRAM; not in the file: PCIe, "
        "accelerators, NICs, memory tiers, settings</figcaption>"
    ) in node
    # a document of this machine's own facts says nothing of the kind
    assert "facts of the machine" not in suite_page().read_text()
