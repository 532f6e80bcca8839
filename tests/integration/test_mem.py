"""movebench mem, end to end on tiny sizes: tables, JSON, sweeps, latency, signals."""

import re
import signal

import pytest

from conftest import interrupted_once_measuring, load_result, run_movebench

KERNELS = ["Init", "Sum", "Copy", "Update", "Triad", "Daxpy", "STriad", "SDaxpy"]
ROW = re.compile(r"^(\w+):\s+([\d.]+)\s+([\d.]+|-)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", re.M)


def table_rows(stdout):
    return {m.group(1): m for m in ROW.finditer(stdout)}


def test_default_table_validates_and_matches_json(tmp_path):
    out = tmp_path / "mem.json"
    proc = run_movebench("mem", "-n", "256K", "-r", "4", "--threads", "2", "--json", out, check=0)
    rows = table_rows(proc.stdout)
    assert list(rows) == KERNELS
    assert "Function      Rate(MB/s)  Rate(MFlop/s)" in proc.stdout
    assert re.search(r"^Solution Validates\n(peak: .*\n)*\Z", proc.stdout, re.M), proc.stdout[-400:]
    for label, m in rows.items():
        avg, lo, hi, med = (float(m.group(i)) for i in range(4, 8))
        assert 0 < lo <= med <= hi and lo <= avg <= hi, label
        assert (m.group(3) == "-") == (label in ("Init", "Copy"))

    doc = load_result(out)
    assert doc["validated"] is True and doc["complete"] is True
    assert doc["settings"]["mem"]["traffic"]["triad"] == {
        "formula": "a = b + c * s",
        "loads": 2,
        "stores": 1,
        "write_allocate": True,
        "flops": 2,
        "arrays": 3,
    }
    records = doc["timings"]
    assert [r["operation"] for r in records] == [k.lower() for k in KERNELS]
    for r in records:
        assert len(r["samples"]) == 4 and r["stats"]["count"] == 4
        assert r["params"]["threads"] == 2 and r["params"]["elements"] == 256 * 1024
        assert len(r["params"]["warmup_samples"]) == 1
    # The table's rate is the JSON's bandwidth figure: traffic / best time.
    triad = records[4]
    traffic = 3 * 8 * 256 * 1024
    assert triad["figures"]["bandwidth"]["value"] == pytest.approx(traffic / triad["stats"]["min"] / 1e6)
    assert float(rows["Triad"].group(2)) == pytest.approx(triad["figures"]["bandwidth"]["value"], rel=1e-3)
    assert doc["results"]["mem.triad.2t"]["unit"] == "MB/s"


def test_write_allocate_column_counts_the_extra_read():
    proc = run_movebench(
        "mem",
        "-n",
        "64K",
        "-r",
        "2",
        "--nt-stores",
        "off",
        "--write-allocate",
        "--kernels",
        "copy,update",
        "--parsable",
        check=0,
    )
    lines = dict(re.findall(r"name=mem\.(\w+) metric=(bandwidth_write_allocate)", proc.stdout))
    assert lines == {"copy": "bandwidth_write_allocate"}  # update has no write-allocate
    bw = {m[0]: float(m[1]) for m in re.findall(r"name=mem\.(\w+) metric=bandwidth value=(\S+)", proc.stdout)}
    wa = float(re.search(r"name=mem\.copy metric=bandwidth_write_allocate value=(\S+)", proc.stdout).group(1))
    assert wa == pytest.approx(bw["copy"] * 3 / 2, rel=1e-4)


@pytest.mark.parametrize("elem", ["double", "float"])
@pytest.mark.parametrize("nt", ["on", "off"])
def test_types_and_store_kinds_validate(elem, nt, tmp_path):
    out = tmp_path / "r.json"
    proc = run_movebench(
        "mem",
        "-n",
        "100003",
        "-r",
        "3",
        "--type",
        elem,
        "--nt-stores",
        nt,
        "--align",
        "8" if elem == "double" else "4",
        "--json",
        out,
        check=0,
    )
    assert "Solution Validates" in proc.stdout
    # A build without streaming stores says so and stores plainly.
    available = load_result(out)["settings"]["mem"]["nt_stores_available"]
    shapes = shapes_line(proc.stdout)
    assert set(shapes) == {k.lower() for k in KERNELS}
    for kernel, shape in shapes.items():
        if kernel == "sum":
            assert shape in ("plain", "page", "plain-256", "page-256")  # sum stores nothing
        else:
            assert streams(shape) == (nt == "on" and available), (kernel, shape)


ALL_SHAPES = ["plain", "nt", "page", "page-nt", "plain-256", "nt-256", "page-256", "page-nt-256"]


def streams(shape):
    return shape in ("nt", "page-nt", "nt-256", "page-nt-256")


def built_shapes():
    """The shapes this build has, from the error line naming them (the -256
    ones on AVX-512 builds only)."""
    proc = run_movebench("mem", "--shape", "none", check=2)
    return re.search(r"expected auto, (.*?) \(see --help\)", proc.stderr).group(1).split(", ")


def shapes_line(stdout):
    """{kernel: shape} from the header line 'Shapes (...): init nt, sum plain, ...'."""
    line = re.search(r"^Shapes \((.*?)\): (.*)$", stdout, re.M)
    assert line, stdout
    return dict(item.split() for item in line.group(2).split(", "))


@pytest.mark.parametrize("shape", ALL_SHAPES)
def test_every_forced_shape_validates_and_is_recorded(tmp_path, shape):
    out = tmp_path / "shape.json"
    built = built_shapes()
    assert {"plain", "nt", "page", "page-nt"} <= set(built) <= set(ALL_SHAPES)
    if shape not in built:  # a -256 shape on a build without AVX-512: refused, one line
        proc = run_movebench("mem", "-n", "1K", "--shape", shape, check=2)
        assert proc.stderr.count("\n") == 1 and f"unknown shape '{shape}'" in proc.stderr
        return
    proc = run_movebench("mem", "-n", "100003", "-r", "2", "--threads", "2", "--shape", shape, "--json", out, check=0)
    assert f"Shapes (--shape {shape}):" in proc.stdout
    doc = load_result(out)
    assert doc["validated"] is True
    for r in doc["timings"]:
        plain = {"nt": "plain", "page-nt": "page", "nt-256": "plain-256", "page-nt-256": "page-256"}
        expected = shape if r["operation"] != "sum" else plain.get(shape, shape)
        assert r["params"]["shape"] == expected
    cal = doc["settings"]["mem"]["calibration"]["2"]
    assert cal["shape_option"] == shape and cal["seconds"] == 0  # forced: nothing calibrated


def test_calibration_is_recorded_and_bounded(tmp_path):
    out = tmp_path / "cal.json"
    proc = run_movebench("mem", "-n", "1M", "-r", "2", "--threads", "1,2", "--json", out, check=0)
    doc = load_result(out)
    for threads in ("1", "2"):
        cal = doc["settings"]["mem"]["calibration"][threads]
        # Bounded by its mechanism, on any CPU and under any load: a kernel
        # begins a round past the minimum only while its share of the budget
        # lasts, so each last round began within the share (the wall time a
        # busy machine adds comes after that check, and is not asserted).
        assert 0 < cal["seconds"] and cal["budget_seconds"] <= 0.5, cal
        assert cal["share_seconds"] == pytest.approx(cal["budget_seconds"] / len(cal["kernels"]))
        assert sum(v["seconds"] for v in cal["kernels"].values()) <= cal["seconds"], cal
        for k, v in cal["kernels"].items():
            if v["rounds"] > 1:
                assert v["last_round_began_seconds"] <= cal["share_seconds"], (k, v)
            assert 0 <= v["last_round_began_seconds"] <= v["seconds"], (k, v)
        chosen = {
            r["operation"]: r["params"]["shape"] for r in doc["timings"] if r["params"]["threads"] == int(threads)
        }
        assert chosen == {k: v["shape"] for k, v in cal["kernels"].items()}
        for k, v in cal["kernels"].items():
            assert v["shape"] in v["window_call_seconds"], (k, v)  # the winner was timed
            assert 1 <= v["rounds"] <= 9 or len(v["window_call_seconds"]) == 1, (k, v)
    assert re.search(r"^Shapes \(calibrated in \d+\.\d+ s\):", proc.stdout, re.M)


@pytest.mark.parametrize(
    "args",
    [
        ["-n", "1025", "-r", "2", "--threads", "2"],  # the last element of a slice was never processed
        ["-n", "17", "-r", "2", "--threads", "2"],
        ["-n", "33", "-r", "2", "--threads", "2", "--type", "float"],
        ["-n", "1K", "-r", "1000", "--type", "float"],  # values overflowed to inf over the repetitions
        ["-n", "1K", "-r", "8000"],
    ],
)
def test_former_validation_faults_now_validate(args):
    proc = run_movebench("mem", *args, check=0)
    assert re.search(r"^Solution Validates\n(peak: .*\n)*\Z", proc.stdout, re.M), proc.stdout[-400:]


@pytest.mark.parametrize(
    "mode",
    [
        ["-n", "64K", "--threads", "2"],
        [
            "seq",
            "--sizes",
            "4K,64K",
            "--point-time",
            "0.01",
            "--samples",
            "2",
            "-k",
            "triad,daxpy,update,init",
            "--outdir",
            "dat",
        ],
    ],
)
@pytest.mark.parametrize("kind", ["swap", "skip"])
def test_misplaced_element_and_skipped_call_fail_validation(tmp_path, mode, kind):
    # swap: two neighbours exchanged (data written to the wrong index);
    # skip: the check expects one call more than ran (a call skipped).
    proc = run_movebench("mem", *mode, "-r", "2", "--corrupt-kind", kind, "--json", tmp_path / "bad.json", cwd=tmp_path)
    assert proc.returncode == 1
    assert "Solution does not validate" in proc.stdout
    assert load_result(tmp_path / "bad.json")["validated"] is False


def test_shape_contradicting_nt_stores_is_a_usage_error():
    proc = run_movebench("mem", "-n", "1K", "--shape", "page-nt", "--nt-stores", "off")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "--shape page-nt contradicts --nt-stores off" in proc.stderr


def test_corrupted_array_fails_validation_keeping_results(tmp_path):
    out = tmp_path / "bad.json"
    proc = run_movebench("mem", "-n", "64K", "-r", "2", "--json", out, "--corrupt-for-test")
    assert proc.returncode == 1
    assert "Solution does not validate" in proc.stdout
    doc = load_result(out)
    assert doc["validated"] is False
    assert "array a[" in doc["errors"]["validation"]
    assert len(doc["timings"]) == 8


def test_scaling_run_prints_the_column_table():
    proc = run_movebench("mem", "-n", "128K", "-r", "2", "--threads", "1,2", "--verbose-affinity", check=0)
    table = proc.stdout[proc.stdout.index("#nt") :].splitlines()
    assert table[0].split() == ["#nt"] + KERNELS
    assert [line.split()[0] for line in table[1:3]] == ["1", "2"]
    assert all(len(line.split()) == 9 for line in table[1:3])
    assert re.search(r"thread 1 running on CPU \d+, affinity mask \d+", proc.stdout)
    # The 1-thread team pins the main thread (OpenMP's master); the 2-thread
    # team that follows must still get two CPUs.
    import os

    if len(os.sched_getaffinity(0)) >= 2:
        last_two = re.findall(r"thread \d+ running on CPU (\d+)", proc.stdout)[-2:]
        assert len(set(last_two)) == 2, proc.stdout


@pytest.mark.parametrize("mode,threads", [("seq", 1), ("tp", 2)])
def test_sweeps_write_one_data_file_per_kernel(tmp_path, mode, threads):
    out = tmp_path / "sweep.json"
    dat = tmp_path / "dat"
    sizes = [1024, 4096, 16384, 65536]
    proc = run_movebench(
        "mem",
        mode,
        "--sizes",
        "1K:64K:x4",
        "--point-time",
        "0.02",
        "--samples",
        "3",
        *(["--threads", threads] if mode == "tp" else []),
        "--outdir",
        dat,
        "--json",
        out,
        check=0,
    )
    assert "Solution Validates" in proc.stdout
    for label in KERNELS:
        lines = (dat / f"{label}.dat").read_text().splitlines()
        assert lines[0].startswith(f"# {label}:") and lines[1].startswith("# N  Bytes(MB)  Rate(GB/s)")
        rows = [line.split() for line in lines[2:]]
        assert [int(r[0]) for r in rows] == sizes
        assert all(float(r[2]) > 0 for r in rows)
    doc = load_result(out)
    assert len(doc["timings"]) == 8 * len(sizes)
    triad = [r for r in doc["timings"] if r["operation"] == "triad"]
    assert [r["params"]["elements"] for r in triad] == [s * threads for s in sizes]
    assert [r["bytes"] for r in triad] == [3 * 8 * s * threads for s in sizes]
    assert all(r["params"]["mode"] == mode for r in triad)


def test_latency_grows_from_cache_to_memory(tmp_path):
    out = tmp_path / "lat.json"
    proc = run_movebench("mem", "latency", "--sizes", "4K,64M", "--point-time", "0.05", "--json", out, check=0)
    assert "Solution Validates" in proc.stdout
    doc = load_result(out)
    lat = {r["bytes"]: r["figures"]["latency"]["value"] for r in doc["timings"]}
    assert set(lat) == {4096, 64 << 20}
    assert 0 < lat[4096] < lat[64 << 20], lat


def test_parsable_lines_have_a_fixed_key_order():
    proc = run_movebench("mem", "-n", "16K", "-r", "2", "--kernels", "triad", "--parsable", "--threads", "1", check=0)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("MOVEBENCH_RESULT")]
    assert len(lines) == 3  # bandwidth, bandwidth_median, flops
    assert re.fullmatch(
        r"MOVEBENCH_RESULT name=mem\.triad metric=bandwidth value=\S+ unit=MB/s stat=min of=time "
        r"better=higher accounting=application bytes=393216 .*threads=1.*",
        lines[0],
    )
    # a figure that is no bandwidth has no accounting
    assert re.fullmatch(
        r"MOVEBENCH_RESULT name=mem\.triad metric=flops value=\S+ unit=MFlop/s stat=min of=time "
        r"better=higher bytes=393216 .*",
        lines[2],
    )


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupted_run_keeps_what_it_measured(tmp_path, sig, code):
    out = tmp_path / "int.json"
    # 64K elements: rounds of microseconds, so the run has measured many by
    # the time the signal comes, also under qemu (make aarch64) and in the
    # sanitized build.
    returncode, stdout = interrupted_once_measuring(["mem", "-n", "64K", "--threads", "2"], out, sig)
    assert returncode == code
    doc = load_result(out)
    assert doc["complete"] is False
    assert "interrupted" in doc["errors"]
    assert len(doc["timings"]) == 8, "the rounds measured before the signal are kept"
    assert doc["timings"][0]["stats"]["count"] >= 1
    assert doc["validated"] is True, "what was measured is still validated"
    assert "Solution Validates" in stdout


@pytest.mark.parametrize("env", [{"OMP_PROC_BIND": "close"}, {"OMP_PROC_BIND": "spread", "OMP_PLACES": "cores"}, {}])
def test_threads_get_distinct_cpus_whatever_openmp_was_told(env):
    # libgomp pins the initial thread before main() when OMP_PROC_BIND is
    # set; the team must still spread over every CPU the process may use.
    import os

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs two CPUs")
    proc = run_movebench("mem", "-n", "64K", "-r", "2", "-k", "copy", "--verbose-affinity", env=env, check=0)
    cpus = re.findall(r"thread \d+ running on CPU (\d+)", proc.stdout)
    assert len(cpus) == len(os.sched_getaffinity(0)) and len(set(cpus)) == len(cpus), proc.stdout
