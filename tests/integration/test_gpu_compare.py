"""bench/gpu_compare.py, the one job that puts movebench's GPU figures beside
nvbandwidth's and BabelStream's (issue 12's goals), run here on the OpenCL
backend (PoCL) with stand-ins for the peers: scripts that check the command
line the job gives them and print a peer's output. BabelStream's is real
(its OpenMP model, tests/data/peers/babelstream-omp-csv.txt); nvbandwidth's
is hand-made in the layout of its JSON writer (json_output.cpp, v0.8), with
figures chosen so that each goal's outcome is known in advance."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import REPO, binary_path, load_result

SCRIPT = REPO / "bench" / "gpu_compare.py"
NVBW_JSON = REPO / "tests" / "python" / "data" / "nvbandwidth-json.json"
BABELSTREAM_CSV = REPO / "tests" / "data" / "peers" / "babelstream-omp-csv.txt"
SMALL = [
    "--backend",
    "opencl",
    "--rounds",
    "2",
    "--link-bytes",
    "4M",
    # PoCL's chase of a 2 MiB ring stays in the CPU's caches, about 20 ns a
    # load: 256 loads (link's default) make a 5 us probe, within what a loaded
    # machine's empty probes vary by (twice in make test the chase came out
    # unresolved, no figure); 7575, nvbandwidth's loads per SM on an H200,
    # make it about 150 us
    "--link-chase-steps",
    "7575",
    "--elements",
    "1048576",
    "--reps",
    "5",
    "--stream-chunks",
    "4",
    "--stream-sweep",
    "4K",
    "--stream-sweep-total",
    "64K",
]


def stand_in(path, output, must_have):
    """An executable that exits 3 unless every word of must_have is in its
    command line, and otherwise prints `output`."""
    path.write_text(
        textwrap.dedent(f"""\
        #!{sys.executable}
        import sys
        missing = [w for w in {must_have!r} if w not in sys.argv[1:]]
        if missing:
            print("stand-in: not given", missing, file=sys.stderr)
            sys.exit(3)
        sys.stdout.write(open({str(output)!r}).read())
        """)
    )
    path.chmod(0o755)
    return path


def compare(tmp_path, *extra):
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--movebench", str(binary_path()), *SMALL, "--out", str(out), *map(str, extra)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    return proc, out


def rows(out):
    return {r["figure"]: r for r in json.loads((out / "summary.json").read_text())["rows"]}


def check_mem_rows(got, value):
    """mem against BabelStream in BabelStream's convention (--timing host-sync), goal 0.99;
    movebench's own convention (--timing device) beside it, judged against nothing."""
    copy = got["mem copy vs BabelStream Copy"]
    want = sorted(value[(r, "movebench", "mem.host-sync.copy")] / value[(r, "babelstream", "Copy")] for r in (0, 1))
    assert sorted(copy["ratio"]["samples"]) == pytest.approx(want, rel=1e-5)
    assert copy["met"] == (copy["ratio"]["median"] >= 0.99) and copy["goal"] == ">= 0.99"
    assert got["mem sum vs BabelStream Dot"]["goal"] == ">= 0.98"
    beside = got["mem copy (--timing device) beside BabelStream Copy"]
    assert beside["met"] is None and beside["ratio"]["runs"] == 2
    # the two conventions' difference per call, from each document's best call
    gap = got["mem copy: host-sync call less device-timed call"]
    best = {t: [value[(r, "movebench", f"mem.{t}.copy.best_call")] for r in (0, 1)] for t in ("host-sync", "device")}
    shares = sorted((h - d) / h for h, d in zip(best["host-sync"], best["device"]))
    assert sorted(gap["ratio"]["samples"]) == pytest.approx(shares, abs=1e-4)
    assert gap["met"] == (gap["ratio"]["median"] <= 0.005)


def check_latency_rows(got):
    """A latency 10^9 ns: movebench's chase (ns) is nowhere within 5 % of it. Judged in
    nvbandwidth's statistic, the mean over every unit of the chase per unit (None where
    PoCL's clock resolved no unit's chase); the median over units and the chase from one
    unit beside it, judged against nothing."""
    latency = "nvbandwidth host_device_latency_sm"
    judged = got[f"link latency.chase_per_unit, mean over SMs, vs {latency}"]
    assert judged["met"] in (False, None) and judged["goal"] == "0.95..1.05 (time)"
    for beside in ("latency.chase_per_unit, median over SMs, beside", "latency.chase, one SM, beside"):
        assert got[f"link {beside} {latency}"]["met"] is None
    assert got[f"link latency.chase, one SM, beside {latency}"]["ratio"]["runs"] == 2


def test_every_goal_is_judged_from_both_tools_figures_round_by_round(tmp_path):
    nvbw = stand_in(
        tmp_path / "nvbandwidth",
        NVBW_JSON,
        [
            "-j",
            "-t",
            "host_to_device_memcpy_ce",
            "device_to_host_bidirectional_memcpy_ce",
            "host_to_device_memcpy_sm",
            "host_device_latency_sm",
            "-b",
            "4",
        ],
    )
    babel = stand_in(tmp_path / "cuda-stream", BABELSTREAM_CSV, ["--csv", "--arraysize", "1048576", "--numtimes", "5"])
    proc, out = compare(tmp_path, "--nvbandwidth", nvbw, "--babelstream", babel)
    assert proc.returncode == 0, proc.stderr
    got = rows(out)
    # nvbandwidth's H2D copy figure is 0.001 GB/s: movebench is far above it; its D2H 10^6 GB/s: far below.
    h2d = got["link copy.read vs nvbandwidth host_to_device_memcpy_ce"]
    assert h2d["met"] is True and h2d["ratio"]["min"] > 100 and h2d["peer"]["median"] == pytest.approx(1.0)
    assert got["link copy.write vs nvbandwidth device_to_host_memcpy_ce"]["met"] is False
    for name in (
        "copy.duplex.read vs nvbandwidth host_to_device_bidirectional_memcpy_ce",
        "kernel.read vs nvbandwidth host_to_device_memcpy_sm",
        "kernel.write vs nvbandwidth device_to_host_memcpy_sm",
    ):
        assert got[f"link {name}"]["met"] is True, name
    check_latency_rows(got)
    for r in (0, 1):  # the chase's loads as asked (--link-chase-steps)
        assert load_result(out / "json" / f"r{r}_link-lat.json")["settings"]["link"]["steps"] == 7575
    # every ratio is movebench's figure over the peer's in the same round
    samples = [l.split("\t") for l in (out / "samples.tsv").read_text().splitlines()[1:]]
    value = {(int(r), tool, fig): float(v) for r, tool, fig, v, _ in samples}
    check_mem_rows(got, value)
    assert value[(0, "babelstream", "Dot")] == pytest.approx(43146.2)
    assert {"mem sum vs BabelStream Dot", "mem update vs BabelStream Mul", "mem daxpy vs BabelStream Add"} <= set(got)
    # stream: every design against offload at 1 MiB chunks, and its small-chunk round trip against 2 us
    assert any(k.startswith("stream persistent 1 MiB chunks vs offload") for k in got)
    trip = got["stream persistent round trip (4096B chunks)"]
    assert trip["met"] == (trip["movebench"]["median"] <= 2000)
    summary = (out / "summary.md").read_text()
    assert "| link copy.read vs nvbandwidth host_to_device_memcpy_ce |" in summary and "| yes |" in summary
    assert json.loads((out / "summary.json").read_text())["context"]["nvbandwidth"]["Driver Version"] == "570.00.00"
    # the commands given to every tool are kept, in rotated order
    commands = (out / "commands.txt").read_text().splitlines()
    # (link-bw is two runs: copy on pinned, kernel on mapped host memory; mem two, one per --timing)
    assert len(commands) == 2 * 9 and commands[0] != commands[9]
    mem = [c for c in commands if " mem " in c]
    assert (
        len([c for c in mem if "--timing host-sync " in c]) == 2
        and len([c for c in mem if "--timing device " in c]) == 2
    )
    link = [c for c in commands if " link bandwidth " in c]
    assert any("--paths copy " in c and "--host-memory pinned " in c for c in link)
    assert any("--paths kernel " in c and "--host-memory mapped " in c for c in link)


def test_a_peer_that_fails_is_recorded_and_the_job_goes_on(tmp_path):
    babel = stand_in(tmp_path / "cuda-stream", BABELSTREAM_CSV, ["--no-such-option"])
    proc, out = compare(tmp_path, "--babelstream", babel, "--elements", "1048576")
    assert proc.returncode == 1
    summary = json.loads((out / "summary.json").read_text())
    assert len([f for f in summary["failures"] if "babelstream: exit status 3" in f]) == 2
    got = rows(out)
    assert got["mem copy vs BabelStream Copy"]["met"] is None and got["mem copy vs BabelStream Copy"]["movebench"]


def test_a_peer_run_on_another_array_size_is_refused(tmp_path):
    babel = stand_in(tmp_path / "cuda-stream", BABELSTREAM_CSV, ["--csv"])
    proc, out = compare(tmp_path, "--babelstream", babel, "--elements", "2M")
    assert proc.returncode == 1
    failures = json.loads((out / "summary.json").read_text())["failures"]
    assert any("BabelStream ran [1048576] elements, not 2097152" in f for f in failures), failures


def test_peer_output_that_does_not_read_is_a_failed_run_not_a_traceback(tmp_path):
    """A peer that prints bytes that are not UTF-8, or JSON of another shape:
    each such run is recorded as failed and the job goes on to its summary.
    The peer's unit and mem's only: link latency's chase on PoCL can be under
    its clock's resolution on a loaded machine (no figure, a failed run of
    its own: session 18's fresh clone beside the report tests)."""
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(
        b"\xff\xfe{\"nvbandwidth\": {\"testcases\": [{\"status\": \"Passed\", \"name\": \"x\", "
        b"\"bandwidth_matrix\": [[\"e\", \".\", \"N/A\", \"nan\"]]}]}}\n"
    )
    odd = tmp_path / "odd.json"
    odd.write_text('{"nvbandwidth": {"testcases": "not a list"}}')
    for output in (garbage, odd):
        nvbw = stand_in(tmp_path / "nvbandwidth", output, ["-j"])
        proc, out = compare(tmp_path, "--nvbandwidth", nvbw, "--rounds", "1", "--only", "nvbw,mem")
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        failures = json.loads((out / "summary.json").read_text())["failures"]
        assert len(failures) == 1 and "nvbw" in failures[0], failures
        assert rows(out)["mem copy vs BabelStream Copy"]["movebench"]  # the other runs were made


def test_an_interrupted_job_keeps_what_it_measured(tmp_path):
    """SIGTERM while a peer runs: the runs made so far are summarized, the
    interruption is recorded, the exit status says not everything ran."""
    slow = tmp_path / "cuda-stream"
    slow.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(60)\n")
    slow.chmod(0o755)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [
            sys.executable,
            str(SCRIPT),
            "--movebench",
            str(binary_path()),
            *SMALL,
            "--babelstream",
            str(slow),
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    commands = out / "commands.txt"
    deadline = time.time() + 120
    # round 0 runs BabelStream last: wait until it has started
    while time.time() < deadline and not (commands.exists() and "cuda-stream" in commands.read_text()):
        time.sleep(0.2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    summary = json.loads((out / "summary.json").read_text())
    assert any("interrupted" in f for f in summary["failures"]), summary["failures"]
    got = {r["figure"]: r for r in summary["rows"]}
    assert got["mem copy vs BabelStream Copy"]["movebench"]["runs"] == 1
    assert got["mem copy vs BabelStream Copy"]["peer"] is None


@pytest.mark.parametrize(
    "args, message",
    [
        (["--nvbandwidth", "/no/such/nvbandwidth"], "--nvbandwidth '/no/such/nvbandwidth' is not an executable"),
        (["--link-bytes", "1500K"], "--link-bytes must be whole MiB"),
        (["--rounds", "0"], "argument --rounds: must be a positive integer, got '0'"),
        (["--backend", "hip"], "argument --backend: invalid choice: 'hip'"),
        (["--out", "/proc/no-such-folder"], "--out '/proc/no-such-folder': No such file or directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    proc, _ = compare(tmp_path, *args)
    assert proc.returncode == 2 and message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


JOB = REPO / "bench" / "gpu_job.sh"
# The job's knobs at PoCL's scale: small sizes, one round, short budgets.
JOB_SMALL = {
    "BACKEND": "opencl",
    "ELEMENTS": "1048576",
    "REPS": "3",
    "ROUNDS": "1",
    "SEQ_SIZES": "1K:16K:x4",
    "SEQ_ONE_SIZES": "1K:4K:x4",
    "LATENCY_SIZES": "4K,64K",
    "LINK_SIZES": "64K",
    "WINDOW": "16K",
    "BUDGET": "0.02",
    "STREAM_CHUNKS": "4",
    "PERSISTENT_SIZES": "64K:1M:x4",
    # The GPU's bounds, four times over: PoCL's stream step beside two CPU
    # hogs and other work ran past its 20 s run time-out (make test, 2026-11-28).
    "TIME_SCALE": "4",
    "CHASE_STEPS": "7575",  # as SMALL's --link-chase-steps
}


def test_the_gpu_job_dry_runs_on_pocl_with_stand_ins(tmp_path):
    """bench/gpu_job.sh, as a lent GPU runs it, here on PoCL with small sizes,
    nvidia-smi and BabelStream stand-ins: every step in priority order, each
    exit 0, each output kept; the comparison in both conventions against
    BabelStream; the latency chase and the seq sweeps in device memory."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    smi = bin_dir / "nvidia-smi"
    smi.write_text("#!/bin/sh\necho stand-in nvidia-smi \"$@\"\n")
    smi.chmod(0o755)
    babel = stand_in(tmp_path / "cuda-stream", BABELSTREAM_CSV, ["--csv", "--arraysize", "1048576", "--numtimes", "3"])
    env = {**os.environ, **JOB_SMALL, "BABELSTREAM": str(babel), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    out = tmp_path / "job"
    proc = subprocess.run(
        ["bash", str(JOB), str(out), str(binary_path())], env=env, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr
    commands = [line.split("\t") for line in (out / "commands.txt").read_text().splitlines()]
    tags = [c[0] for c in commands]
    assert tags == [
        "01-context",
        "02-smi-q-before",
        "03-clocks-before",
        "04-compare",
        "05-mem-latency",
        "06-mem-latency-window",
        "07-mem-seq",
        "08-mem-seq-one-pass",
        "09-facts",
        "10-link",
        "11-link-chase-sms",
        "12-stream",
        "13-stream-persistent",
        "14-clocks-after",
        "15-smi-q-after",
    ]
    failed = {c[0]: (out / f"{c[0]}.out").read_text()[-2000:] for c in commands if c[1] != "rc=0"}
    assert not failed, (failed, commands)
    assert all((out / f"{t}.out").exists() for t in tags)
    got = rows(out / "compare")
    assert got["mem copy vs BabelStream Copy"]["ratio"]["runs"] == 1
    assert got["mem copy (--timing device) beside BabelStream Copy"]["movebench"]
    for name in ("mem-latency", "mem-latency-window", "mem-seq", "mem-seq-one-pass"):
        assert load_result(out / f"{name}.json")["validated"] is True, name
    assert load_result(out / "mem-latency-window.json")["settings"]["mem"]["tlb_window"] == 16 << 10
    assert load_result(out / "mem-seq.json")["settings"]["mem"]["passes_per_launch"] == "all"
    assert load_result(out / "mem-seq-one-pass.json")["settings"]["mem"]["passes_per_launch"] == "1"
    check_chase_per_sm(out / "link-chase-sms.json")
    stream_step_chase = load_result(out / "compare-stream" / "json" / "r0_link-lat.json")
    assert stream_step_chase["settings"]["link"]["steps"] == 7575  # CHASE_STEPS


def check_chase_per_sm(path):
    """The job's chase from each unit in turn, at nvbandwidth's ring and loads per SM:
    validated, one entry per compute unit."""
    chase = load_result(path)
    assert chase["validated"] is True and chase["settings"]["link"]["steps"] == 7575
    (per_unit,) = [t for t in chase["timings"] if t["operation"] == "latency.chase_per_unit"]
    assert len(per_unit["params"]["units"]) == chase["link_device"]["compute_units"]


def test_the_gpu_jobs_bounds_fit_one_call():
    """Every step's time-out added up stays within 580 s, so that the whole job fits
    one 600 s call of the device tool with room to start."""
    bounds = [int(line.split()[2]) for line in JOB.read_text().splitlines() if line.startswith("step ")]
    assert len(bounds) == 15 and sum(bounds) <= 580, bounds
