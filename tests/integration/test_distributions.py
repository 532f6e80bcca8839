"""Latency distributions (docs/results.md, "Distributions"): p2p's iterations,
link's probes and mem's timed chase blocks carry their distribution in the
result, HdrHistogram's own Python port decodes it to the same count and
percentiles as the figures, and a percentile the count cannot support is
neither a figure nor a number in the table."""

import contextlib
import io

import pytest
from hdrh.histogram import HdrHistogram

from conftest import REPO, load_result, run_movebench
from movebench_report import cli

# The support rule's least counts (core/distribution.hpp): a distribution-free
# 95% interval for the percentile exists among n samples.
LEAST = {"p50": 6, "p90": 29, "p99": 299, "p99.9": 2995}
SUFFIX = {"p50": "_p50", "p90": "_p90", "p99": "_p99", "p99.9": "_p99_9"}
PERCENT = {"p50": 50, "p90": 90, "p99": 99, "p99.9": 99.9}


def decoded(record):
    """The record's histogram as HdrHistogram's Python port reads it."""
    hdr = record["distribution"]["hdr"]
    assert hdr["unit"] == "ps" and hdr["significant_digits"] == 3
    return HdrHistogram.decode(hdr["histogram"])


def check_distribution(record, count, net=lambda ns: ns):
    """The distribution of `count` samples, its percentile figures those the
    decoded histogram gives (after `net`, ns to ns), each there exactly when
    the count supports it."""
    dist = record["distribution"]
    assert dist["count"] == count
    assert dist["clock_read_ns"]["subtracted"] is False and dist["clock_read_ns"]["median"] >= 0
    hist = decoded(record)
    assert hist.get_total_count() == count
    figures = record["figures"]
    for key, least in LEAST.items():
        assert dist["percentiles"][key] == {"least_count": least, "supported": count >= least}
        name = "latency" + SUFFIX[key]
        value = net(hist.get_value_at_percentile(PERCENT[key]) / 1000)
        if count >= least and value > 0:
            assert figures[name]["stat"] == key and figures[name]["unit"] == "ns"
            assert figures[name]["value"] == pytest.approx(value, rel=1e-6)
        else:
            assert name not in figures
    top = net(hist.get_max_value() / 1000)
    if top > 0:  # link's T(n) - T(0) at or below 0 is under the clock's resolution: no figure
        assert figures["latency_max"]["value"] == pytest.approx(top, rel=1e-6)
        assert figures["latency_max"]["stat"] == "max"
    else:
        assert "latency_max" not in figures


def test_mem_latency_blocks(tmp_path):
    out = tmp_path / "lat.json"
    proc = run_movebench(
        "mem",
        "latency",
        "--sizes-bytes",
        "16K,256K",
        "-r",
        "40",
        "--point-time",
        "0.2",
        "--percentiles",
        "--json",
        out,
        check=0,
    )
    doc = load_result(out)
    for record in doc["timings"]:
        # 40 blocks: P50 and P90 are supported, P99 and P99.9 are not.
        check_distribution(record, 40)
        assert record["distribution"]["event"].startswith("timed block of ")
        assert "latency_p90" in record["figures"] and "latency_p99" not in record["figures"]
    header = next(line for line in proc.stdout.splitlines() if "Working set" in line)
    assert header.split()[-5:] == ["P50", "P90", "P99", "P99.9", "Max"]
    rows = [line.split() for line in proc.stdout.splitlines() if line.split()[-3:-1] == ["n/a", "n/a"]]
    assert len(rows) == 2, proc.stdout
    assert "one load is too short to time alone" in proc.stdout and "not subtracted" in proc.stdout


def test_mem_latency_without_the_columns_keeps_its_table(tmp_path):
    out = tmp_path / "lat.json"
    proc = run_movebench(
        "mem", "latency", "--sizes-bytes", "16K", "-r", "10", "--point-time", "0.05", "--json", out, check=0
    )
    assert "P99.9" not in proc.stdout
    check_distribution(load_result(out)["timings"][0], 10)


def test_link_latency_probes(tmp_path):
    out = tmp_path / "lat.json"
    run_movebench(
        "link",
        "latency",
        "--backend",
        "host",
        "--ring-bytes",
        "64K",
        "--steps",
        "32",
        "-c",
        "30",
        "--write-bytes",
        "1K",
        "--roundtrips",
        "7",
        "--roundtrip-sizes",
        "64",
        "--json",
        out,
        check=0,
    )
    doc = load_result(out)
    seen = set()
    for record in doc["timings"]:
        seen.add(record["operation"])
        params = record["params"]
        base = params.get("empty_chase_s", params.get("empty_probe_s", 0)) * 1e9
        per = params["steps"] if record["operation"] == "latency.chase" else 1
        check_distribution(record, len(record["samples"]), net=lambda ns, b=base, p=per: (ns - b) / p)
    assert {"latency.chase", "latency.first_word", "roundtrip"} <= seen


@pytest.fixture(scope="module")
def mpi():
    import net_mpi

    if not net_mpi.built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    return net_mpi


@pytest.fixture(scope="module")
def p2p_run(mpi, tmp_path_factory):
    """p2p latency at two sizes, 300 iterations: (proc, result path)."""
    out = tmp_path_factory.mktemp("p2p") / "p2p.json"
    proc, _ = mpi.mpirun(2, "p2p", "--tests", "latency", "-m", "1,64", "-i", "300", "-x", "10", "-z", "--json", out)
    mpi.ok(proc)
    return proc, out


def test_p2p_latency_per_iteration(p2p_run):
    proc, out = p2p_run
    doc = load_result(out)
    for record in doc["timings"]:
        # 300 iterations: P99 is supported, P99.9 is not.
        check_distribution(record, 300)
        assert "latency_p99" in record["figures"] and "latency_p99_9" not in record["figures"]
    lines = proc.stdout.splitlines()
    header = next(line for line in lines if line.startswith("# Size"))
    assert header.startswith("# Size       Avg Latency(us)  P50 Tail Lat(us)  P90 Tail Lat(us)  P99 Tail Lat(us)")
    assert header.endswith("P99.9 Tail Lat(us)       Max Lat(us)")
    rows = [line.split() for line in lines if line[:1].isdigit()]
    assert [r[0] for r in rows] == ["1", "64"] and all(r[5] == "n/a" for r in rows)
    assert any("one sample per iteration" in line and "not subtracted" in line for line in lines)
    assert doc["settings"]["p2p"]["percentiles"] is True


def report(*args):
    """movebench-report in this process: (exit code, stdout)."""
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = cli.main([str(a) for a in args])
    return code, stdout.getvalue()


def test_p2p_percentiles_mean_what_an_imported_osu_z_tail_means(p2p_run, tmp_path):
    """The same name, unit and meaning as OSU -z's P99 column imported, and
    the report's table shows both the same way."""
    _, ours = p2p_run
    code, _ = report("import", REPO / "tests" / "data" / "peers" / "osu_latency_z.txt", "--outdir", tmp_path)
    assert code == 0
    theirs = next(tmp_path.glob("*.json"))
    mine = load_result(ours)["timings"][0]["figures"]["latency_p99"]
    osu = next(r for r in load_result(theirs)["timings"] if r["bytes"] == 1)["figures"]["latency_p99"]
    assert {k: mine[k] for k in ("unit", "stat", "of", "better")} == {
        k: osu[k] for k in ("unit", "stat", "of", "better")
    }
    code, text = report("table", ours, theirs, "--view", "latency", "--figure", "latency_p99")
    assert code == 0
    rows = [line for line in text.splitlines() if line.startswith("p2p ") and " 1 B " in line]
    # One row per source (OSU's import records no ranks), each its P99 in us under the same figure.
    assert len(rows) == 2 and all("p99 of times" in row for row in rows), text


def test_p2p_without_percentiles_is_osus_table(tmp_path, mpi):
    """--no-percentiles is the default (docs/performance.md); given, it is OSU's plain loop and table."""
    out = tmp_path / "p2p.json"
    proc, _ = mpi.mpirun(2, "p2p", "--tests", "latency", "-m", "1", "-i", "20", "--no-percentiles", "--json", out)
    mpi.ok(proc)
    assert "# Size       Avg Latency(us)\n" in proc.stdout
    record = load_result(out)["timings"][0]
    assert "distribution" not in record and "latency_max" not in record["figures"]
