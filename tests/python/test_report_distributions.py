"""The report and latency distributions (docs/report.md): `--stat p99` takes
each record's percentile whatever its name, the summary's latency rows show
P50 and P99, the report's own HdrHistogram decoder reads what HdrHistogram's
Python port reads, `plot --distributions` refuses files without any, and the
HTML page draws each record's distribution as `plot --distributions` does,
at most PAGE_PANELS panels a benchmark."""

import json
import random

import pytest
from hdrh.histogram import HdrHistogram

from movebench_report import distributions
from movebench_report.model import Filter, load_sources
from reportkit import imported, report, report_json, results


def test_stat_takes_each_records_percentile_whatever_its_name():
    """OSU -z's p2p tail is `latency_p99`, its collective's `p99`: --stat p99 finds both."""
    samples = imported()
    rows = report_json(
        "table", samples["osu_latency_z"], samples["osu_allreduce_z"], "--view", "latency", "--stat", "p99"
    )["rows"]
    assert {r["benchmark"] for r in rows} == {"p2p", "coll"}
    assert all(r["figure"] == "p99 of times" for r in rows), rows
    code, out, err = report(
        "compare", samples["osu_latency_z"], samples["osu_latency_z"], "--view", "latency", "--stat", "p90"
    )
    assert code == 0 and "p90 of times" in out, err


def test_stat_and_figure_are_one_choice():
    samples = imported()
    code, _, err = report("table", samples["osu_latency_z"], "--stat", "p99", "--figure", "latency")
    assert code == 2 and "not allowed with" in err


def test_a_stat_no_record_has_is_an_error():
    code, _, err = report("table", imported()["osu_latency"], "--view", "latency", "--stat", "p99")
    assert code == 2 and "'p99' (--stat)" in err, err


def test_summary_latency_rows_show_p50_and_p99():
    code, out, err = report("table", imported()["osu_latency_z"], "--view", "latency")
    assert code == 0, err
    row = next(line for line in out.splitlines() if "network latency" in line)
    assert "(P50 " in row and ", P99 " in row, out


@pytest.mark.parametrize("seed", [1, 2])
def test_the_decoder_reads_what_hdrhistograms_port_reads(seed):
    """Values over six decades (zero runs, every bucket magnitude), as movebench's: ps, 3 digits."""
    rng = random.Random(seed)
    hist = HdrHistogram(1, 3_600_000_000_000_000, 3)
    for _ in range(3000):
        hist.record_value(int(rng.lognormvariate(14, 2.5)) + 1)
    ours = distributions.decode(hist.encode().decode())
    assert ours.total == hist.get_total_count()
    for percent in (0.1, 1, 50, 90, 99, 99.9, 99.99, 100):
        assert ours.percentile(percent) == hist.get_value_at_percentile(percent), percent
    assert ours.buckets[-1][0] == hist.get_max_value()


def test_the_decoder_refuses_what_is_no_histogram():
    for text in ("HISTFAAA", "bm90IGEgaGlzdG9ncmFt", "!"):
        with pytest.raises(ValueError):
            distributions.decode(text)


def test_plot_distributions_needs_a_distribution(tmp_path):
    code, _, err = report("plot", imported()["osu_latency_z"], "--distributions", "-o", tmp_path / "d.png")
    assert code == 2 and "no record with a latency distribution" in err, err


def _lat_doc():
    return json.loads(results()["lat"].read_text())


def test_the_page_draws_each_distribution_as_plot_does(tmp_path):
    """mem latency keeps one distribution per size: the page's mem section
    has its percentile plot, one line per record, each record's P50 and P99
    (the decoder's) in its text alternative."""
    page = tmp_path / "lat.html"
    code, _, err = report("html", results()["lat"], "-o", page)
    assert code == 0, err
    html = page.read_text()
    mem = html[html.index("id='bench-mem'") :]
    figure = mem[mem.index("<title>mem: latency distributions") :]
    desc = figure[figure.index("<desc>") : figure.index("</desc>")]
    records = [r for r in _lat_doc()["timings"] if (r.get("distribution") or {}).get("count")]
    assert records and f"({len(records)} records" in figure
    for r in records:
        decoded = distributions.decode(r["distribution"]["hdr"]["histogram"])
        p50, p99 = (distributions.format_time(decoded.percentile(q) * distributions.PS) for q in (50, 99))
        assert f"P50 {p50}, P99 {p99}" in desc, (p50, p99, desc)
    svg = figure[: figure.index("</svg>")]
    assert svg.count(">percentile [%]<") == 1  # one panel: one operation, up to MAX_SERIES records
    for tick in (">50<", ">90<", ">99<"):
        assert tick in svg


def test_the_pages_distribution_panels_are_bounded(tmp_path):
    """More operations than PAGE_PANELS: that many panels drawn, the rest counted in the title."""
    doc = _lat_doc()
    record = next(r for r in doc["timings"] if (r.get("distribution") or {}).get("count"))
    extra = distributions.PAGE_PANELS + 3
    doc["timings"] = [dict(record, operation=f"op{i:02d}") for i in range(extra)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(doc))
    source = load_sources([path])[0]
    (plot,) = distributions.page_plots(source, Filter())["mem"]
    assert plot.series_per_axes == [1] * distributions.PAGE_PANELS
    assert "3 more panels not drawn" in plot.title
    assert plot.svg.count(">percentile [%]<") == distributions.PAGE_PANELS


def test_a_broken_histogram_on_the_page_is_one_line(tmp_path):
    doc = _lat_doc()
    record = next(r for r in doc["timings"] if (r.get("distribution") or {}).get("count"))
    record["distribution"]["hdr"]["histogram"] = "HISTFAAA"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc))
    code, _, err = report("html", path, "-o", tmp_path / "p.html")
    assert code == 2 and err.count("\n") == 1 and "broken" in err and "histogram" in err, err
