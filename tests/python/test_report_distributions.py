"""The report and latency distributions (docs/report.md): `--stat p99` takes
each record's percentile whatever its name, the summary's latency rows show
P50 and P99, the report's own HdrHistogram decoder reads what HdrHistogram's
Python port reads, and `plot --distributions` refuses files without any."""

import random

import pytest
from hdrh.histogram import HdrHistogram

from movebench_report import distributions
from reportkit import imported, report, report_json


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
