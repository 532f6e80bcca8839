"""movebench mem --backend opencl on PoCL (a real OpenCL platform on the
CPU), end to end on small arrays: the table, the JSON, the validation of the
device's own arrays (a spoiled one included), the two timing conventions,
the seq sweep and its passes per launch, the latency chase in device memory,
a signal, the options a device refuses; and mem's CUDA kernels linked in
wherever nvcc is found (there is no GPU here to run them)."""

import math
import re
import shutil
import signal
import subprocess

import pytest

from conftest import binary_path, interrupted_once_measuring, load_result, run_movebench

KERNELS = ["Init", "Sum", "Copy", "Update", "Triad", "Daxpy", "STriad", "SDaxpy"]
ROW = re.compile(r"^(\w+):\s+([\d.]+)\s+([\d.]+|-)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", re.M)
# Small enough for PoCL on two shared cores, large enough for a reduction
# over several work-groups.
SMALL = ["--backend", "opencl", "-n", "64K", "-r", "3"]


@pytest.mark.parametrize("elem,size", [("double", 8), ("float", 4)])
def test_opencl_table_validates_and_matches_json(tmp_path, elem, size):
    out = tmp_path / "dev.json"
    proc = run_movebench("mem", *SMALL, "--type", elem, "--json", out, check=0)
    rows = {m.group(1): m for m in ROW.finditer(proc.stdout)}
    assert list(rows) == KERNELS
    per_array = {8: r"512\.00 KiB", 4: r"256\.00 KiB"}[size]
    assert re.search(
        rf"^Device memory of .+ \[opencl backend\], {per_array} per array \(65536 elements of {elem}\)$",
        proc.stdout,
        re.M,
    ), proc.stdout
    assert re.search(
        r"^Timed on the device clock \(events\), rounds queued back to back; sum: \d+ groups of \d+, "
        r"double accumulators$",
        proc.stdout,
        re.M,
    ), proc.stdout
    # The table ends with the verdict of validation; only peak lines (the
    # facts layer: each headline figure against its peak) may follow it.
    assert re.search(r"^Solution Validates\n(peak: .*\n)*\Z", proc.stdout, re.M), proc.stdout[-400:]
    for label, m in rows.items():
        avg, lo, hi, med = (float(m.group(i)) for i in range(4, 8))
        assert 0 < lo <= med <= hi and lo <= avg <= hi, label

    doc = load_result(out)
    assert doc["validated"] is True and doc["complete"] is True
    assert doc["mem_device"]["backend"] == "opencl" and doc["mem_device"]["clock"] == "opencl event profiling"
    settings = doc["settings"]["mem"]
    assert settings["backend"] == "opencl" and "groups of" in settings["reduction"]
    assert "threads" not in settings and "shape" not in settings  # host-only settings are left out
    records = doc["timings"]
    assert [r["operation"] for r in records] == [k.lower() for k in KERNELS]
    for r in records:
        assert r["params"]["backend"] == "opencl" and r["params"]["device"] == doc["device"]
        assert r["params"]["elements"] == 65536 and r["params"]["type"] == elem
        assert len(r["samples"]) == 3 and len(r["params"]["warmup_samples"]) == 1
    triad = records[4]
    assert triad["figures"]["bandwidth"]["value"] == pytest.approx(3 * size * 65536 / triad["stats"]["min"] / 1e6)
    assert float(rows["Triad"].group(2)) == pytest.approx(triad["figures"]["bandwidth"]["value"], rel=1e-3)
    assert doc["results"]["mem.triad.opencl"]["value"] == triad["figures"]["bandwidth"]["value"]


@pytest.mark.parametrize(
    "kind,message",
    [
        ("value", r"array a\[32768\] holds -1 but must hold "),
        ("swap", r"array a\[32768\] holds \S+ but must hold "),
    ],
)
def test_opencl_spoiled_device_array_fails(tmp_path, kind, message):
    """The test hook spoils the array in device memory, after the timed
    calls and before the copy back: the host's replay must catch it."""
    out = tmp_path / "bad.json"
    proc = run_movebench(
        "mem", *SMALL, "-k", "copy,triad", "--corrupt-for-test", "--corrupt-kind", kind, "--json", out, check=1
    )
    assert re.search(r"^Solution does not validate: " + message, proc.stdout, re.M), proc.stdout
    assert load_result(out)["validated"] is False


def test_opencl_seq_sweep_writes_data_files_and_validates(tmp_path):
    out, dat = tmp_path / "seq.json", tmp_path / "dat"
    proc = run_movebench(
        "mem",
        "seq",
        "--backend",
        "opencl",
        "--sizes",
        "1K:16K:x4",
        "-k",
        "sum,daxpy",
        "--point-time",
        "0.02",
        "--samples",
        "2",
        "--outdir",
        dat,
        "--json",
        out,
        check=0,
    )
    assert re.search(
        r"^Running memory hierarchy sweeps: sequential, in the memory of .+ \[opencl backend\], "
        r"a sample's calls in one launch, 3 sizes",
        proc.stdout,
        re.M,
    ), proc.stdout
    # The table ends with the verdict of validation; only peak lines (the
    # facts layer: each headline figure against its peak) may follow it.
    assert re.search(r"^Solution Validates\n(peak: .*\n)*\Z", proc.stdout, re.M), proc.stdout[-400:]
    for label in ("Sum", "Daxpy"):
        lines = [l for l in (dat / f"{label}.dat").read_text().splitlines() if not l.startswith("#")]
        assert [int(l.split()[0]) for l in lines] == [1024, 4096, 16384]
    doc = load_result(out)
    assert doc["validated"] is True
    assert [(r["operation"], r["params"]["elements"]) for r in doc["timings"]] == [
        ("sum", 1024),
        ("sum", 4096),
        ("sum", 16384),
        ("daxpy", 1024),
        ("daxpy", 4096),
        ("daxpy", 16384),
    ]
    for r in doc["timings"]:
        assert len(r["samples"]) == 2 and r["params"]["calls_per_sample"] >= 1 and r["params"]["backend"] == "opencl"
    # The device's caches, which the report marks on the sweep: PoCL runs on this CPU, so they are the host's.
    device = doc["mem_device"]
    assert device["device_type"] == "cpu" and device["global_mem_cache_bytes"] > 0
    assert device["caches"] == doc["host"]["caches"] and device["caches"]


@pytest.mark.parametrize("timing", ["device", "host-sync"])
def test_each_timing_convention_is_named_and_recorded(tmp_path, timing):
    """--timing device (the default: events, the queue full) and host-sync
    (BabelStream's: the host's clock around each call, the queue finished
    after it): the header says which, the document records it, both validate."""
    out = tmp_path / "t.json"
    args = [] if timing == "device" else ["--timing", timing]
    proc = run_movebench("mem", *SMALL, *args, "-k", "copy,sum", "--json", out, check=0)
    header = {
        "device": "Timed on the device clock (events), rounds queued back to back",
        "host-sync": "Timed on the host clock per call, the queue finished after each (BabelStream's way)",
    }
    assert header[timing] in proc.stdout, proc.stdout
    doc = load_result(out)
    assert doc["validated"] is True and doc["settings"]["mem"]["timing"] == timing
    assert [r["params"]["timing"] for r in doc["timings"]] == [timing, timing]
    assert all(len(r["samples"]) == 3 and min(r["samples"]) > 0 for r in doc["timings"])


def seq_copy(tmp_path, name, *extra):
    out = tmp_path / f"{name}.json"
    run_movebench(
        "mem",
        "seq",
        "--backend",
        "opencl",
        "-k",
        "copy,sum",
        "--sizes-elements",
        "4K",
        "--time-budget",
        "0.1",
        "-r",
        "5",
        "--outdir",
        tmp_path / name,
        *extra,
        "--json",
        out,
    )
    doc = load_result(out)
    assert doc["validated"] is True
    return doc


def test_seq_passes_per_launch_measures_the_array_not_the_launch(tmp_path):
    """A 32 KiB copy is shorter than a launch and its wait: timed on the host
    around each launch (--timing host-sync), one launch per call pays a host
    round trip per call, a sample's calls in one launch (the default) one per
    sample, so the time per call falls whatever the kernels' speed on the
    device (on PoCL, queued launches are cheap, so the device's own clock
    would not show it). Both validate (every pass's scalar is its own call's).
    In three alternating rounds, the least time per call of each over all of
    them: a burst of other work (make test's builds beside the sanitizer's
    run of this test) falls on both alike."""
    per_call = {}
    for round_ in range(3):
        for name, passes in (("many", "all"), ("one", "1")):
            extra = ["--passes-per-launch", "1"] if passes == "1" else []
            doc = seq_copy(tmp_path, f"{name}{round_}", "--timing", "host-sync", *extra)
            assert doc["settings"]["mem"]["passes_per_launch"] == passes
            for r in doc["timings"]:
                assert r["params"]["passes_per_launch"] == passes
                key = (name, r["operation"])  # the least disturbed on a shared machine
                per_call[key] = min(per_call.get(key, math.inf), min(r["samples"]))
    for kernel in ("copy", "sum"):
        assert per_call[("many", kernel)] < per_call[("one", kernel)], per_call
    # a count between: the calls of a sample in launches of at most 3
    three = seq_copy(tmp_path, "three", "--passes-per-launch", "3")  # the device's clock, launches of 3 calls
    assert three["timings"][0]["params"]["passes_per_launch"] == "3"


def test_opencl_latency_chases_in_device_memory(tmp_path):
    """mem latency --backend: one work-item's chase through a ring in the
    device's memory (the host's pattern: one random cycle, the TLB window),
    each probe ending where the host's walk of the ring ends."""
    out = tmp_path / "lat.json"
    proc = run_movebench(
        "mem",
        "latency",
        "--backend",
        "opencl",
        "--sizes-bytes",
        "4K,64K,1M",
        "--time-budget",
        "0.05",
        "-r",
        "4",
        "--tlb-window-bytes",
        "16K",
        "--percentiles",
        "--json",
        out,
    )
    assert re.search(
        r"^Memory latency: .*TLB window 16\.00 KiB, 1 work-item of .+ \[opencl backend\], in its own memory$",
        proc.stdout,
        re.M,
    ), proc.stdout
    assert "Solution Validates" in proc.stdout and "NOT A SINGLE CYCLE" not in proc.stdout
    doc = load_result(out)
    assert doc["validated"] is True and doc["mem_device"]
    records = doc["timings"]
    assert [r["bytes"] for r in records] == [4096, 65536, 1 << 20]
    for r in records:
        p = r["params"]
        assert r["operation"] == "latency" and p["backend"] == "opencl" and p["tlb_window"] == 16384
        assert p["steps"] >= 16 and p["clock"] == "opencl event profiling" and p["empty_probe_s"] >= 0
        assert len(r["samples"]) == 4 and r["figures"]["latency"]["value"] <= r["figures"]["latency_median"]["value"]
    assert set(doc["results"]) == {"mem.latency.4096.opencl", "mem.latency.65536.opencl", "mem.latency.1048576.opencl"}


def test_opencl_seq_sweep_catches_a_spoiled_array(tmp_path):
    proc = run_movebench(
        "mem",
        "seq",
        "--backend",
        "opencl",
        "--sizes",
        "4K",
        "-k",
        "triad",
        "--point-time",
        "0.01",
        "--samples",
        "1",
        "--outdir",
        tmp_path,
        "--corrupt-for-test",
        check=1,
    )
    assert "Solution does not validate: triad at N=4096: array a[2048] holds -1" in proc.stdout


def test_interrupted_device_run_keeps_what_it_measured(tmp_path):
    out = tmp_path / "int.json"
    returncode, stdout = interrupted_once_measuring(["mem", "--backend", "opencl", "-n", "64K"], out, signal.SIGINT)
    assert returncode == 130
    doc = load_result(out)
    assert doc["complete"] is False and "interrupted" in doc["errors"]
    assert len(doc["timings"]) == 8 and doc["timings"][0]["stats"]["count"] >= 1
    assert doc["validated"] is True and "Solution Validates" in stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["--threads", "2"], "--threads applies to host memory (--backend host), not to --backend opencl"),
        (["--bind", "close"], "--bind applies to host memory"),
        (["--shape", "plain"], "--shape applies to host memory"),
        (["--nt-stores", "on"], "--nt-stores applies to host memory"),
        (["--huge-pages"], "--huge-pages applies to host memory"),
        (["--align", "128"], "--align-bytes applies to host memory"),
        (["--write-allocate"], "--write-allocate applies to host memory"),
        (["--verbose-affinity"], "--verbose-affinity applies to host memory"),
        (["tp"], "mem tp runs in host memory only: --backend opencl runs bandwidth, seq and latency"),
        (["loaded-latency"], "mem loaded-latency runs in host memory only"),
        (["--passes-per-launch", "2"], "--passes-per-launch"),
        (["seq", "--passes-per-launch", "0"], "invalid --passes-per-launch '0': all, or 1 to 1073741824"),
        (["--timing", "events"], "--timing"),
        (["--device", "7"], "no OpenCL device with index 7"),
    ],
)
def test_device_refuses_what_it_cannot_do(args, message):
    proc = run_movebench("mem", "--backend", "opencl", "-n", "4K", *args, check=2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["--huge-pages"], "--huge-pages applies to host memory"),
        (["--timing", "host-sync"], "--timing applies to mem bandwidth and seq"),
    ],
)
def test_device_latency_refuses_what_it_cannot_do(args, message):
    proc = run_movebench("mem", "latency", "--backend", "opencl", "--sizes-bytes", "4K", *args, check=2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["--device", "0"], "--platform and --device pick a device: they go with --backend opencl or cuda"),
        (["--backend", "host", "--platform", "0"], "--platform and --device pick a device"),
        (["--backend", "nope"], "unknown backend 'nope': host, opencl or cuda"),
        (["--timing", "host-sync"], "--timing is a device's: it goes with --backend opencl or cuda"),
        (
            ["seq", "--passes-per-launch", "4"],
            "--passes-per-launch is a device's: it goes with --backend opencl or cuda",
        ),
    ],
)
def test_host_refuses_device_options(args, message):
    proc = run_movebench("mem", "-n", "4K", *args, check=2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_cuda_mem_kernels_are_built_wherever_nvcc_is_found():
    """No GPU here: the CUDA kernels are compiled and linked in (nvcc and the
    symbol of their part), and the run stops at the missing device, exit 2."""
    nvcc = shutil.which("nvcc") or shutil.which("nvcc", path="/usr/local/cuda/bin")
    if not nvcc:
        pytest.skip("no nvcc on this machine")
    nm = shutil.which("nm")
    if nm:
        symbols = subprocess.run([nm, "-C", str(binary_path())], capture_output=True, text=True).stdout
        assert "movebench::mem::make_cuda_mem_kernels" in symbols
        assert "movebench::mem::cuda::launch<double>" in symbols
    proc = run_movebench("mem", "--backend", "cuda", "-n", "4K", check=2)
    assert "cuda" in proc.stderr.lower() and "not built" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
