"""`import`: other tools' outputs into valid movebench result documents."""

import json
import re

import pytest

from conftest import validate_result
from reportkit import DATA, imported, report, report_json, run_tool, shared_samples
from reportkit import PEER_SAMPLES as PEERS


def records(name):
    return json.loads(imported()[name].read_text())["timings"]


def find(name, op, size):
    return next(r for r in records(name) if r["operation"] == op and r["bytes"] == size)


def ns(value):
    """A time the tool printed in us, as the import records it (ns)."""
    return pytest.approx(value * 1e3, rel=1e-12)


def time_fig(value, stat):
    return {"value": value, "unit": "ns", "stat": stat, "of": "time", "better": "lower"}


def counted(kind="application", directions=1, factor=1.0):
    return {"bytes": kind, "directions": directions, "factor": factor}


def test_every_sample_imports_into_a_valid_document():
    files = imported()
    for sample in shared_samples():
        assert sample.stem in files
    assert {
        "hpcc-beff",
        "nvbandwidth",
        "osu_latency_full",
        "osu_bibw",
        "imb-alltoall-np4",
        "mpibench-cart",
        "bwbench-4t",
    } <= files.keys()
    for path in files.values():
        doc = validate_result(json.loads(path.read_text()))  # with the vocabulary's rules (conftest)
        assert doc["timings"], path
        assert doc["schema_version"] == 2, path
        for rec in doc["timings"]:
            for name, fig in rec["figures"].items():
                assert {"stat", "of", "better"} <= fig.keys(), (path, name)
                assert fig["unit"] not in ("s", "ms", "us"), (path, name)  # every time in ns
                assert ("accounting" in fig) == fig["unit"].endswith("B/s"), (path, name)


def test_mpibench_collectives():
    r = find("mpibench-np2-default", "allreduce", 65536)
    assert r["benchmark"] == "coll" and r["params"]["ranks"] == 2 and r["params"]["comm"] == "MPI_COMM_WORLD"
    assert r["figures"]["avg"] == time_fig(ns(17.3), "mean")  # mpiBench's us, in ns
    assert r["figures"]["busbw"]["value"] == pytest.approx(65536 / 17.3e-6 / 1e9, rel=1e-3)  # 2(n-1)/n = 1
    # the slowest rank's time (max), nccl-tests' algbw and busbw
    assert {k: r["figures"][k]["accounting"] for k in ("algbw", "busbw")} == {
        "algbw": counted("algorithm"),
        "busbw": counted("bus", 1, 1.0),
    }
    assert (r["figures"]["busbw"]["stat"], r["figures"]["busbw"]["of"]) == ("max", "time")
    assert find("mpibench-np2-default", "alltoall", 1024)["figures"]["busbw"]["accounting"] == counted("bus", 1, 0.5)
    ops = {r["operation"] for r in records("mpibench-np2-default")}
    assert {"barrier", "bcast", "alltoall", "alltoallv", "allgather", "gather", "scatter", "reduce"} <= ops
    cart = {r["params"]["comm"] for r in records("mpibench-cart")}
    assert cart == {"MPI_COMM_WORLD", "CartDim-1of2"}
    assert {r["params"]["nodes"] for r in records("mpibench-cart")} == {2}


def test_osu():
    bw = find("osu_bw", "bw", 1048576)["figures"]["bandwidth"]
    # all bytes over all time: the mean of the times; one direction
    assert bw == {
        "value": 23002.45,
        "unit": "MB/s",
        "stat": "mean",
        "of": "time",
        "better": "higher",
        "accounting": counted(),
    }
    assert find("osu_latency", "latency", 1)["figures"]["latency"] == time_fig(ns(0.28), "mean")
    assert find("osu_allreduce", "allreduce", 65536)["figures"]["avg"] == time_fig(ns(15.89), "mean")
    full = find("osu_latency_full", "latency", 16384)
    assert {k: (v["value"], v["stat"]) for k, v in full["figures"].items()} == {
        "latency": (ns(1.73), "mean"),
        "latency_min": (ns(1.69), "min"),
        "latency_max": (ns(1.81), "max"),
    }
    assert full["params"]["iters"] == 1000
    bibw = find("osu_bibw", "bibw", 65536)
    assert bibw["benchmark"] == "p2p" and bibw["figures"]["bandwidth"]["accounting"] == counted("application", 2)


def test_imb():
    pp = find("imb-pingpong-allreduce", "pingpong", 65536)
    assert pp["params"] == {"iters": 640, "ranks": 2}
    assert pp["figures"]["latency"] == time_fig(ns(4.42), "mean")
    # IMB's PingPong: one message over its one-way time (half a round trip)
    assert pp["figures"]["bandwidth"] == {
        "value": 14813.06,
        "unit": "MB/s",
        "stat": "mean",
        "of": "time",
        "better": "higher",
        "accounting": counted(),
    }
    ar = find("imb-pingpong-allreduce", "allreduce", 65536)
    assert ar["benchmark"] == "coll" and ar["figures"]["max"] == time_fig(ns(19.07), "max")
    assert ar["figures"]["busbw"]["accounting"] == counted("bus", 1, 1.0)
    barrier = find("imb-alltoall-np4", "barrier", 0)
    assert barrier["figures"]["avg"]["value"] == ns(0.90) and barrier["params"]["ranks"] == 4
    assert find("imb-alltoall-np4", "alltoall", 1024)["figures"]["busbw"]["accounting"] == counted("bus", 1, 0.75)
    doc = json.loads(imported()["imb-pingpong-allreduce"].read_text())
    assert doc["execution_time"] == "2026-11-21T05:48:14Z" and doc["complete"]


def test_stream_and_thebandwidthbenchmark():
    copy = find("stream-mccalpin-1t", "copy", 2 * 125000000 * 8)  # dataset: two arrays, as movebench mem
    # STREAM's rate: its kernel's loads and stores (no write-allocate) over the least time
    assert copy["figures"]["bandwidth"] == {
        "value": 21485.1,
        "unit": "MB/s",
        "stat": "min",
        "of": "time",
        "better": "higher",
        "accounting": counted(),
    }
    assert copy["figures"]["time_min"] == time_fig(pytest.approx(0.093088e9, rel=1e-12), "min")
    assert copy["params"]["threads"] == 1
    doc = json.loads(imported()["stream-mccalpin-1t"].read_text())
    assert doc["validated"] is True and doc["benchmark"] == "mem"
    triad = find("thebandwidthbenchmark-1t", "triad", 3 * 1000000000)
    assert triad["figures"]["bandwidth"]["unit"] == "GB/s" and triad["figures"]["flops"]["value"] == 1.27
    assert triad["figures"]["bandwidth"]["accounting"] == counted()
    assert triad["figures"]["flops"] == {
        "value": 1.27,
        "unit": "GFlop/s",
        "stat": "min",
        "of": "time",
        "better": "higher",
    }
    assert len(records("bwbench-4t")) == 8 and records("bwbench-4t")[0]["params"]["threads"] == 4


def test_hpcc_beff_json():
    doc = json.loads(imported()["hpcc-beff"].read_text())
    assert [r["bytes"] for r in doc["timings"]] == [64, 128, 256]
    last = doc["timings"][2]
    assert last["samples"][3] == pytest.approx(0.000130013)  # given in ms
    assert last["stats"]["min"] == pytest.approx(6.8891e-05) and last["params"]["looplength"] == 5
    assert doc["results"]["b_eff"]["value"] == pytest.approx(22061624.19637537)
    # every rank's messages to both ring neighbours over the slowest rank's least time
    assert doc["results"]["b_eff"]["accounting"] == counted("application", 2)
    assert (last["figures"]["bandwidth"]["stat"], last["figures"]["bandwidth"]["of"]) == ("min", "time")
    assert last["figures"]["bandwidth"]["accounting"] == counted("application", 2)
    assert doc["device"] == "Intel(R) FPGA Emulation Device" and doc["validated"]


def test_nvbandwidth():
    recs = records("nvbandwidth")
    bw = {
        (r["operation"], r["params"]["src"], r["params"]["dst"]): r["figures"]["bandwidth"]["value"]
        for r in recs
        if "bandwidth" in r["figures"]
    }
    assert bw[("host_to_device_memcpy_ce", "cpu0", "gpu1")] == 55.21
    assert bw[("device_to_host_memcpy_ce", "gpu1", "cpu0")] == 55.40
    assert ("device_to_device_memcpy_read_ce", "gpu0", "gpu0") not in bw  # N/A
    assert len(bw) == 6
    lat = [r for r in recs if "latency" in r["figures"]]
    assert [r["figures"]["latency"]["value"] for r in lat] == [794.71, 801.23]
    # the median over its trials of each trial's rate or time
    h2d = next(r for r in recs if r["operation"] == "host_to_device_memcpy_ce")["figures"]["bandwidth"]
    assert (h2d["stat"], h2d["of"], h2d["accounting"]) == ("median", "rate", counted())
    assert lat[0]["figures"]["latency"] == time_fig(794.71, "median")


def test_imported_data_compares_with_the_same_tools_other_run():
    files = imported()
    table = report_json("compare", files["osu_latency"], files["osu_latency_full"], "--view", "latency")
    assert [r["bytes"] for r in table["rows"]] == [1, 2, 4, 1024, 16384]
    assert all(r["B/A"] == 1.0 for r in table["rows"])


@pytest.mark.parametrize(
    "name, words",
    [
        ("truncated.json", "not output of a tool"),
        ("foreign.txt", "not output of a tool"),
        ("foreign.json", "not output of a tool"),
    ],
)
def test_foreign_input_is_one_line_and_exit_2(name, words, tmp_path):
    code, out, err = report("import", DATA / name, "-o", tmp_path / "x.json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and name in err and words in err
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "empty file"),
        (b"\x89PNG\r\n\x1a\n\x00\xff\xfe", "not a text file"),
        (b"START mpiBench v1.5\n0 : vm\n", "holds no results"),
        (b"# OSU MPI Latency Test v7.4\n# Size       Avg Latency(us)\n", "holds no results"),
        (b'{"name": "effective bandwidth", "timings": {"6": {"timings": [{"x": 1}]}}}', "unexpected shape"),
    ],
)
def test_malformed_inputs(content, words, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    code, _, err = report("import", bad)
    assert code == 2 and words in err and str(bad) in err and err.count("\n") == 1


def test_result_files_that_are_not_results(tmp_path):
    for name, words in (
        ("truncated.json", "truncated?"),
        ("foreign.json", "schema_version"),
        ("foreign.txt", "movebench-report import"),
    ):
        code, _, err = report("table", DATA / name)
        assert code == 2 and name in err and words in err and err.count("\n") == 1
    bad = tmp_path / "neg.json"
    doc = json.loads(next(iter(imported().values())).read_text())
    doc["timings"][0]["bytes"] = -1
    bad.write_text(json.dumps(doc))
    code, _, err = report("html", bad, "-o", tmp_path / "x.html")
    assert code == 2 and "timings/0/bytes" in err
    code, _, err = report("table", tmp_path / "missing.json")
    assert code == 2 and "missing.json: cannot read" in err


def test_console_script_imports_to_stdout():
    proc = run_tool("import", DATA / "osu_bibw.txt")
    assert proc.returncode == 0, proc.stderr
    assert validate_result(json.loads(proc.stdout))["benchmark"] == "p2p"


def test_one_collective_from_two_tools_side_by_side():
    files = imported()
    rows = report_json(
        "compare",
        files["mpibench-np2-default"],
        files["imb-pingpong-allreduce"],
        "--op",
        "allreduce",
        "--view",
        "latency",
        expect=(0, 3),
    )["rows"]
    assert [r["bytes"] for r in rows] == [2**k for k in range(3, 17)]  # both measured 8 B .. 64 KiB
    last = rows[-1]
    assert last["B/A"] == pytest.approx(18.96 / 17.3, rel=1e-3)  # IMB t_avg over mpiBench Avg


def test_osu_message_rate_columns():
    r = find("osu_mbw_mr", "mbw_mr", 8192)
    assert r["figures"]["bandwidth"]["value"] == 9123.45
    assert r["figures"]["message_rate"] == {
        "value": 1113702.39,
        "unit": "1/s",
        "stat": "mean",
        "of": "time",
        "better": "higher",
    }


# OSU 7.4 -z, one real output per kind of OSU test the importer reads
# (tests/data/README.md): its tail columns were once refused by the schema
# ("timings/14/figures/p99 ... is not valid under any of the given schemas").
TAILS = ("p50", "p90", "p99")
Z_OUTPUTS = {  # file: (operation, a size, the tail figures' names, their unit)
    "osu_latency_z": ("latency", 1, [f"latency_{t}" for t in TAILS], "ns"),
    "osu_bw_z": ("bw", 1048576, [f"bandwidth_{t}" for t in TAILS], "MB/s"),
    "osu_bibw_z": ("bibw", 1048576, [f"bandwidth_{t}" for t in TAILS], "MB/s"),
    "osu_mbw_mr_z": ("mbw_mr", 65536, [f"bandwidth_{t}" for t in TAILS], "MB/s"),
    "osu_allreduce_z": ("allreduce", 65536, list(TAILS), "ns"),
    "osu_allreduce_fz": ("allreduce", 65536, list(TAILS), "ns"),
    "osu_bcast_z": ("bcast", 65536, list(TAILS), "ns"),
    "osu_alltoall_z": ("alltoall", 65536, list(TAILS), "ns"),
    "osu_barrier_z": ("barrier", 0, list(TAILS), "ns"),
}


@pytest.mark.parametrize("name", sorted(Z_OUTPUTS))
def test_osu_tail_columns_are_figures_of_the_vocabulary(name):
    op, size, tails, unit = Z_OUTPUTS[name]
    doc = validate_result(json.loads(imported()[name].read_text()))
    # the operation as movebench coll names it (OSU's titles: 'Broadcast', 'All-to-All Personalized Exchange')
    assert {r["operation"] for r in doc["timings"]} == {op}
    figures = find(name, op, size)["figures"]
    for tail in tails:
        fig = figures[tail]
        # A tail latency is a percentile of the iterations' times; a tail
        # bandwidth of their rates (one per window), the P99 the fastest.
        want = ("time", "lower") if unit == "ns" else ("rate", "higher")
        assert (fig["stat"], fig["unit"], fig["of"], fig["better"]) == (tail.split("_")[-1], unit, *want), tail
    main = "bandwidth" if unit == "MB/s" else "latency" if op == "latency" else "avg"
    assert figures[main]["stat"] == "mean"  # the untailed column is still OSU's mean


def test_osu_tail_values_land_in_their_columns():
    # 'Bandwidth (MB/s) P50 Tail BW(MB/s)': one space apart, as OSU pads them
    bw = find("osu_bw_z", "bw", 65536)["figures"]
    assert [bw[k]["value"] for k in ("bandwidth", "bandwidth_p50", "bandwidth_p90", "bandwidth_p99")] == [
        388.05,
        18565.52,
        20198.52,
        20520.48,
    ]
    lat = find("osu_latency_z", "latency", 1)["figures"]
    assert [lat[k]["value"] for k in ("latency", "latency_p50", "latency_p99")] == [ns(70.15), ns(0.34), ns(0.53)]
    full = find("osu_allreduce_fz", "allreduce", 4)
    assert full["params"]["iters"] == 1000 and full["figures"]["p99"]["value"] == ns(3.41)
    assert find("osu_mbw_mr_z", "mbw_mr", 1)["figures"]["message_rate"]["value"] == 11264511.86
    assert find("osu_barrier_z", "barrier", 0)["figures"]["p90"]["value"] == ns(0.43)


def test_osu_tail_percentiles_outside_the_vocabulary_are_refused(tmp_path):
    # -z 25,75 prints P25 and P75 columns: the schema has p50, p90 and p99 only.
    text = (PEERS / "osu_latency_z.txt").read_text().replace("P90 Tail", "P25 Tail")
    (tmp_path / "osu_p25.txt").write_text(text)
    proc = run_tool("import", tmp_path / "osu_p25.txt")
    assert proc.returncode == 2 and "P25" in proc.stderr, proc.stderr


def test_babelstream_table_and_csv():
    """BabelStream 5.0's two layouts, from the same build: the rate of the best
    time in MB/s, the times in ns, each kernel's arrays as its bytes."""
    for name in ("babelstream-omp", "babelstream-omp-csv"):
        doc = json.loads(imported()[name].read_text())
        assert doc["benchmark"] == "mem" and doc["validated"] is True, name
        assert sorted(r["operation"] for r in doc["timings"]) == ["add", "copy", "dot", "mul", "triad"]
        assert doc["settings"]["mem"]["repetitions"] == 5
    copy = find("babelstream-omp", "copy", 2 * 1048576 * 8)
    assert copy["figures"]["bandwidth"] == {
        "value": 58629.410,
        "unit": "MB/s",
        "stat": "min",
        "of": "time",
        "better": "higher",
        "accounting": counted(),
    }
    assert copy["figures"]["time_min"] == time_fig(pytest.approx(0.00029e9, rel=1e-12), "min")
    assert find("babelstream-omp-csv", "triad", 3 * 1048576 * 8)["figures"]["bandwidth"]["value"] == 51576.4
    assert find("babelstream-omp-csv", "dot", 2 * 1048576 * 8)["figures"]["time_mean"] == time_fig(
        pytest.approx(0.00340135e9, rel=1e-12), "mean"
    )


def test_babelstream_units_and_a_failed_validation(tmp_path):
    csv = (DATA.parent.parent / "data" / "peers" / "babelstream-omp-csv.txt").read_text()
    gib = tmp_path / "gib.txt"  # the same run as --gibibytes would print it
    gib.write_text(csv.replace("max_MB_per_sec", "max_GiB_per_sec").replace(",52025,", ",48.452,"))
    failed = tmp_path / "failed.txt"  # BabelStream 4.x: the failure on stdout, then the table
    text = (DATA.parent.parent / "data" / "peers" / "babelstream-omp.txt").read_text()
    failed.write_text(text.replace("Function", "Validation failed on a[]. Average error 1.5\nFunction"))
    out = tmp_path / "out"
    code, _, err = report("import", gib, failed, "--outdir", out)
    assert code == 0, err
    copy = next(r for r in json.loads((out / "gib.json").read_text())["timings"] if r["operation"] == "copy")
    assert copy["figures"]["bandwidth"]["value"] == pytest.approx(48.452 * 2**30 / 1e6)
    assert json.loads((out / "failed.json").read_text())["validated"] is False
    odd = tmp_path / "odd.txt"
    odd.write_text(csv.replace("max_MB_per_sec", "max_PB_per_sec"))
    code, _, err = report("import", odd, "--outdir", out)
    assert code == 2 and "a rate unit BabelStream does not print: PB" in err, err


def test_nvbandwidth_json():
    """nvbandwidth -j (its JSON writer's layout, hand-made figures): the same
    records as its text; from 0.7 on its default buffer is 512 MiB, and the
    latency test chases 2 MiB whatever the buffer."""
    recs = records("nvbandwidth-json")
    h2d = next(r for r in recs if r["operation"] == "host_to_device_memcpy_ce")
    assert h2d["bytes"] == 512 * 2**20 and h2d["params"] == {"src": "cpu0", "dst": "gpu0", "engine": "CE"}
    assert h2d["figures"]["bandwidth"] == {
        "value": 0.001,
        "unit": "GB/s",
        "stat": "median",
        "of": "rate",
        "better": "higher",
        "accounting": counted(),
    }
    lat = next(r for r in recs if r["operation"] == "host_device_latency_sm")
    assert lat["bytes"] == 2 * 2**20 and lat["figures"]["latency"] == time_fig(1e9, "median")
    doc = json.loads(imported()["nvbandwidth-json"].read_text())
    assert doc["settings"]["link"]["driver_version"] == "570.00.00" and "H100" in doc["device"]
    assert len(recs) == 7
    # the text layout of 0.5: its default was still 64 MiB
    assert {r["bytes"] for r in records("nvbandwidth") if "bandwidth" in r["figures"]} == {64 * 2**20}


def test_nvbandwidth_json_of_a_real_h200():
    """A real `nvbandwidth -j` (v0.8, on an H200: tests/data/README.md): one
    record per Passed test case and matrix cell, with the value it printed,
    the direction its matrix title says, 512 MiB (its 0.7+ default) or the
    latency test's 2 MiB, and the device and driver it names."""
    real = json.loads((PEERS / "nvbandwidth-h200.txt").read_text())["nvbandwidth"]
    doc = json.loads(imported()["nvbandwidth-h200"].read_text())
    recs = {r["operation"]: r for r in doc["timings"]}
    cases = [c for c in real["testcases"] if c["status"] == "Passed"]
    assert cases and len(doc["timings"]) == sum(len(row) for c in cases for row in c["bandwidth_matrix"])
    for case in cases:
        rec = recs[case["name"]]
        name = "latency" if "latency" in case["bandwidth_description"] else "bandwidth"
        assert rec["figures"][name]["value"] == float(case["bandwidth_matrix"][0][0]), case["name"]
        assert rec["bytes"] == (2 if name == "latency" else 512) * 2**20
        to_cpu = re.search(r"\(row\) (\S+) ", case["bandwidth_description"]).group(1) == "<-"  # <->: row first
        assert (rec["params"]["src"], rec["params"]["dst"]) == (("gpu0", "cpu0") if to_cpu else ("cpu0", "gpu0"))
    assert doc["settings"]["link"]["driver_version"] == real["Driver Version"]
    assert doc["settings"]["link"]["tool_version"] == real["version"] and real["GPU Device list"][0] in doc["device"]
    code, out, err = report("table", imported()["nvbandwidth-h200"])
    assert code == 0, err
    name = real["GPU Device list"][0].split(": ")[1].split(" (")[0]  # '0: NVIDIA H200 (...)': the summary's name
    assert f"link:{name} H2D" in out and f"link:{name} D2H" in out


def test_babelstream_cuda_csv_of_a_real_h200():
    """BabelStream 5.0's CUDA model with --csv on an H200, its preamble kept:
    the device named, its arrays in device memory (the summary says
    device-memory, not dram), every kernel's rate as printed."""
    text = (PEERS / "babelstream-cuda-h200-csv.txt").read_text()
    doc = json.loads(imported()["babelstream-cuda-h200-csv"].read_text())
    device = re.search(r'CUDA Device 0: "([^"]+)"', text).group(1)
    assert doc["device"] == device and doc["settings"]["mem"]["device_memory"] is True
    rows = [line.split(",") for line in text.splitlines() if re.match(r"^[A-Z][a-z]+,\d", line)]
    assert rows and {r["operation"]: r["figures"]["bandwidth"]["value"] for r in doc["timings"]} == {
        row[0].lower(): float(row[4]) for row in rows
    }
    code, out, err = report("table", imported()["babelstream-cuda-h200-csv"])
    assert code == 0 and "device-memory" in out and " dram " not in out, err + out
    omp = json.loads(imported()["babelstream-omp-csv"].read_text())
    assert "device_memory" not in omp["settings"]["mem"]  # the OpenMP model's arrays are the host's
