"""Every command's figures in the vocabulary of docs/results.md: schema
version 2, each figure's statistic and what it is of (the times or the
rates), which way is better, every time in ns, and which bytes each
bandwidth counts, for every command (tiny runs). validate_result (conftest)
checks the general rules on every document the tests load; here each
command's figures are checked for what they must say."""

import re

import pytest
from net_mpi import built_with_mpi, mpirun, needs_mpirun, ok

from conftest import figures_of, load_result, run_movebench


def meaning(fig):
    """(stat, of, better, unit, accounting as (bytes, directions, factor) or None)."""
    a = fig.get("accounting")
    return fig["stat"], fig["of"], fig["better"], fig["unit"], (a["bytes"], a["directions"], a["factor"]) if a else None


APP = ("application", 1, 1)
BOTH = ("application", 2, 1)


def figures(doc, operation):
    """{figure name: meaning} of the records of one operation (all of them the same)."""
    seen = {}
    for rec in doc["timings"]:
        if rec["operation"] == operation:
            for name, fig in rec["figures"].items():
                seen.setdefault(name, set()).add(meaning(fig))
    assert seen, f"no {operation} record"
    assert all(len(m) == 1 for m in seen.values()), seen
    return {name: m.pop() for name, m in seen.items()}


def common_checks(doc):
    assert doc["schema_version"] == 3  # 3 added the facts key; the figures are as in 2
    everything = list(figures_of(doc))
    assert everything
    for where, name, fig in everything:
        assert fig["unit"] not in ("us", "ms", "s"), (where, name)  # one time unit: ns


def run_json(tmp_path, *args):
    out = tmp_path / "out.json"
    run_movebench(*args, "--json", out, check=0)
    doc = load_result(out)
    common_checks(doc)
    return doc


def test_mem_bandwidth(tmp_path):
    doc = run_json(
        tmp_path,
        "mem",
        "-n",
        "64K",
        "-r",
        "3",
        "--threads",
        "1",
        "-k",
        "copy,triad",
        "--shape",
        "plain",
        "--write-allocate",
    )
    copy = figures(doc, "copy")
    assert copy["bandwidth"] == ("min", "time", "higher", "MB/s", APP)  # the least time: the best rate
    assert copy["bandwidth_median"] == ("median", "time", "higher", "MB/s", APP)
    assert copy["bandwidth_write_allocate"] == ("min", "time", "higher", "MB/s", ("write_allocate", 1, 1))
    assert figures(doc, "triad")["flops"] == ("min", "time", "higher", "MFlop/s", None)
    assert meaning(doc["results"]["mem.copy.1t"]) == copy["bandwidth"]


def test_mem_gb_unit_and_sweep(tmp_path):
    doc = run_json(
        tmp_path,
        "mem",
        "seq",
        "--sizes",
        "4K,16K",
        "--point-time",
        "0.002",
        "-k",
        "copy",
        "--unit",
        "GB/s",
        "--outdir",
        tmp_path / "dat",
    )
    assert figures(doc, "copy")["bandwidth"] == ("min", "time", "higher", "GB/s", APP)


def test_mem_latency_and_loaded_latency(tmp_path):
    doc = run_json(tmp_path, "mem", "latency", "--sizes", "4K,64K", "--point-time", "0.005")
    # 20 blocks (the default): P50 and the max of the distribution, not P90 (test_distributions.py)
    assert figures(doc, "latency") == {
        "latency": ("min", "time", "lower", "ns", None),
        "latency_median": ("median", "time", "lower", "ns", None),
        "latency_p50": ("p50", "time", "lower", "ns", None),
        "latency_max": ("max", "time", "lower", "ns", None),
    }
    doc = run_json(
        tmp_path,
        "mem",
        "loaded-latency",
        "--chase-bytes",
        "256K",
        "--delays",
        "idle,0",
        "--threads",
        "2",
        "-n",
        "64K",
        "--point-time",
        "0.01",
        "--samples",
        "3",
    )
    loaded = figures(doc, "loaded_latency")
    assert loaded["latency"] == ("min", "time", "lower", "ns", None)
    assert loaded["load_bandwidth"] == ("mean", "time", "higher", "MB/s", APP)
    assert meaning(doc["results"]["mem.loaded_latency.most_load"]) == ("min", "time", "lower", "ns", None)


def test_link_host(tmp_path):
    if " link " not in run_movebench("--help", check=0).stdout:
        pytest.skip("this movebench build has no link command")
    doc = run_json(
        tmp_path,
        "link",
        "--backend",
        "host",
        "--sizes",
        "4K",
        "-c",
        "3",
        "--batch",
        "2",
        "--host-memory",
        "pinned",
        "--ring-bytes",
        "64K",
        "--steps",
        "16",
        "--roundtrips",
        "5",
        "--roundtrip-sizes",
        "4",
    )
    read = figures(doc, "copy.read")
    # hdl_single_engine's average is all bytes over all time; min and max are
    # of the per-test rates: bandwidth_min is the worst test, not the best.
    assert read["bandwidth"] == ("mean", "time", "higher", "MB/s", APP)
    assert read["bandwidth_min"] == ("min", "rate", "higher", "MB/s", APP)
    assert read["bandwidth_max"] == ("max", "rate", "higher", "MB/s", APP)
    assert read["bandwidth_median"] == ("median", "rate", "higher", "MB/s", APP)
    assert figures(doc, "copy.duplex.write")["bandwidth"][4] == APP
    assert figures(doc, "copy.duplex.total")["bandwidth"][4] == BOTH  # both directions summed
    assert meaning(doc["results"]["link.copy.duplex.total.pinned"])[4] == BOTH
    assert figures(doc, "roundtrip")["latency"] == ("median", "time", "lower", "ns", None)
    assert meaning(doc["results"]["link.roundtrip.4"]) == ("median", "time", "lower", "ns", None)


def test_stream_host(tmp_path):
    if " stream " not in run_movebench("--help", check=0).stdout:
        pytest.skip("this movebench build has no stream command")
    doc = run_json(
        tmp_path,
        "stream",
        "--backend",
        "host",
        "--chunks",
        "4",
        "--chunk-count",
        "256",
        "--iterations",
        "3",
        "--designs",
        "offload,chunked",
        "--sweep",
        "1K,4K",
    )
    chunked = figures(doc, "chunked")
    assert chunked["latency"] == ("mean", "time", "lower", "ns", None)
    assert chunked["throughput"] == ("mean", "rate", "higher", "MB/s", APP)
    assert meaning(doc["results"]["stream.chunked.chunk90"]) == ("mean", "rate", "lower", "B", None)
    assert figures(doc, "launch_bound")["latency_min"] == ("min", "time", "lower", "ns", None)


@needs_mpirun
def test_coll(tmp_path):
    out = tmp_path / "coll.json"
    ok(mpirun(2, "coll", "-e", "1K", "-i", "5", "Allreduce", "Alltoall", "Barrier", "--json", out)[0])
    doc = load_result(out)
    common_checks(doc)
    allreduce = figures(doc, "allreduce")
    assert allreduce["avg"] == ("mean", "time", "lower", "ns", None)  # mpiBench's us, recorded in ns
    assert allreduce["max"] == ("max", "time", "lower", "ns", None)
    assert allreduce["algbw"] == ("max", "time", "higher", "GB/s", ("algorithm", 1, 1))
    assert allreduce["busbw"] == ("max", "time", "higher", "GB/s", ("bus", 1, 1))  # 2(n-1)/n with 2 ranks
    assert figures(doc, "alltoall")["busbw"][4] == ("bus", 1, 0.5)  # (n-1)/n
    assert "busbw" not in figures(doc, "barrier")
    assert doc["results"]["coll.allreduce.avg"]["unit"] == "ns"
    avg = [r["figures"]["avg"]["value"] for r in doc["timings"] if r["operation"] == "allreduce"]
    means = [sum(r["samples"]) / len(r["samples"]) * 1e9 for r in doc["timings"] if r["operation"] == "allreduce"]
    assert avg == pytest.approx(means, rel=1e-9)


@needs_mpirun
def test_p2p(tmp_path):
    out = tmp_path / "p2p.json"
    ok(mpirun(2, "p2p", "-m", "1,1K", "-i", "20", "-x", "2", "--percentiles", "--json", out)[0])
    doc = load_result(out)
    common_checks(doc)
    assert figures(doc, "latency")["latency"] == ("mean", "time", "lower", "ns", None)
    assert figures(doc, "latency")["latency_p50"] == ("p50", "time", "lower", "ns", None)  # --percentiles
    assert figures(doc, "bw")["bandwidth"] == ("mean", "time", "higher", "MB/s", APP)
    assert figures(doc, "bibw")["bandwidth"] == ("mean", "time", "higher", "MB/s", BOTH)
    assert doc["results"]["p2p.latency"]["unit"] == "ns"


@needs_mpirun
def test_beff(tmp_path):
    out = tmp_path / "beff.json"
    ok(
        mpirun(
            2,
            "beff",
            "--max-size",
            "1K",
            "--random-patterns",
            "1",
            "--repetitions",
            "2",
            "--loop-length",
            "20",
            "-u",
            "16",
            "-l",
            "8",
            "-o",
            "4",
            "-d",
            "2",
            "-m",
            "6",
            "-n",
            "2",
            "--json",
            out,
        )[0]
    )
    doc = load_result(out)
    common_checks(doc)
    for operation in ("hpcc", "fpga"):
        assert figures(doc, operation)["bandwidth"] == ("min", "time", "higher", "B/s", BOTH)
    res = doc["results"]
    assert meaning(res["beff.hpcc.b_eff"]) == ("min", "time", "higher", "B/s", BOTH)
    assert meaning(res["beff.hpcc.ring_latency_1B"]) == ("min", "time", "lower", "ns", None)
    assert meaning(res["beff.pingpong.latency_1B"]) == ("mean", "time", "lower", "ns", None)
    assert meaning(res["beff.pingpong.bandwidth_Lmax"]) == ("mean", "time", "higher", "B/s", APP)


@needs_mpirun
def test_run_suite_reads_its_local_mpi_job_with_the_vocabulary(tmp_path):
    """movebench run starts p2p as a local 2-rank job and reads its document
    back (Figure::from_json): the figures keep every word."""
    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    out = tmp_path / "run.json"
    proc = run_movebench("run", "--only", "p2p", "--json", out, check=0)
    doc = load_result(out)
    common_checks(doc)
    assert doc["benchmark"] == "run"
    assert figures(doc, "bibw")["bandwidth"] == ("mean", "time", "higher", "MB/s", BOTH)
    assert meaning(doc["results"]["p2p.latency"]) == ("mean", "time", "lower", "ns", None)
    # the summary line keeps OSU's us: the result's ns / 1000
    shown = float(re.search(r"^p2p: latency (\S+) us;", proc.stdout, re.M)[1])
    assert shown == pytest.approx(doc["results"]["p2p.latency"]["value"] / 1e3, rel=1e-3)
