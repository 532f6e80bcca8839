"""Bad command lines: one line on stderr and exit 2, before anything runs;
never a crash, a hang, or a run that measures nothing and exits 0.

The representative cases of the adversary battery (docs/reliability.md,
"Command lines"); each of them failed on main before the checks they test.
"""

import json
import os
import subprocess

import pytest

from conftest import binary_path, run_movebench

NON_UTF8 = os.fsdecode(b"bad\xff\xfe")


def one_line_exit_2(args, cwd, timeout=60):
    proc = subprocess.run(
        [str(binary_path()), *[os.fsencode(a) for a in args]], capture_output=True, timeout=timeout, cwd=cwd
    )
    lines = proc.stderr.decode(errors="replace").strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, lines)
    assert len(lines) == 1, lines
    return lines[0]


def test_no_arguments_is_a_usage_line_on_stderr_and_exit_2(tmp_path):
    proc = run_movebench(cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("usage: movebench"), proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        # overflow-safe size arithmetic (4 arrays x n x 8 bytes wrapped: SIGSEGV)
        ["mem", "-n", "2097152T"],
        # lists that would fill the memory before anything runs (std::bad_alloc, or a hang)
        ["link", "--backend", "host", "--sizes", "1:1T:+1"],
        ["mem", "seq", "--sizes", "1:1T:+1"],
        ["stream", "--backend", "host", "--sweep", "4:1T:+4"],
        # counts bounded by the machine (100000 threads: SIGSEGV; CPU 99 on a small host)
        ["mem", "--threads", "100000"],
        ["link", "--backend", "host", "--device", "99"],
        ["stream", "--backend", "host", "--device", "99"],
        ["link", "--backend", "host", "--batch", "100000000"],
        # inf, nan and absurd durations (--point-time inf hung)
        ["mem", "latency", "--sizes", "4K", "--point-time", "inf"],
        ["mem", "latency", "--sizes", "4K", "--point-time", "1e300"],
        ["mem", "seq", "--point-time", "1e300"],
        ["link", "--backend", "host", "--timeout", "inf"],
        ["beff", "--target-time", "inf"],
        ["coll", "-t", "nan"],
        ["coll", "--step-timeout", "inf", "-e", "8", "Barrier"],
        # explicit zeros and negatives that were taken as "the default" or wrapped
        ["mem", "seq", "--samples", "0"],
        ["mem", "latency", "--seed", "-1"],
        ["mem", "latency", "--seed", "99999999999999999999"],
        ["beff", "--seed", "-1"],
        ["link", "--backend", "host", "--steps", "-1"],
        ["p2p", "-i", "0"],
        # empty values and empty list items
        ["mem", "-n", ""],
        ["mem", "--json", ""],
        ["mem", "-k", "triad,"],
        ["mem", "-k", "triad,,copy"],
        ["link", "--backend", "host", "--directions", "read,"],
        ["stream", "--backend", "host", "--designs", "offload,"],
        ["beff", "-m", ""],
        ["p2p", "--tests", ""],
        ["p2p", "--tests", "latency,"],
        # a flag given an empty value was taken as given (found by the battery rebuilt on 2026-11-23)
        ["mem", "-n", "1K", "-r", "1", "--quiet="],
        ["run", "--quiet="],
        ["coll", "--no-check="],
        ["mem", "loaded-latency", "-t", "2", "-n", "1K", "--delays", "idle,"],
        # stream's size arithmetic wrapped to a run of nothing that passed
        ["stream", "--backend", "host", "--designs", "offload", "--chunk-count", "4611686018427387904"],
        ["stream", "--backend", "host", "--designs", "offload", "--chunk-count", "-1"],
        # found by the battery rebuilt again on 2026-11-23 (Intel): a wrapped byte
        # count (SIGSEGV), counts that allocated until std::bad_alloc
        ["mem", "loaded-latency", "-t", "2", "--elements", "2097152T"],
        ["mem", "-n", "1K", "--repetitions", "2147483647"],
        ["beff", "-n", "2147483647"],
        ["beff", "--repetitions", "2147483647"],
        ["p2p", "--window", "2147483647"],
        ["stream", "--backend", "host", "--inflight", "2147483647"],
        ["mem", "seq", "--samples", "2147483647"],
        # and again (15:20): every random pattern is built up front
        ["beff", "--definition", "hpcc", "--random-patterns", "2147483647"],
        ["beff", "--definition", "hpcc", "--random-patterns", "10001"],
        # link and stream keep a sample per repetition (and stream every chunk's round trip)
        ["link", "--backend", "host", "--repetitions", "1000001"],
        ["link", "latency", "--backend", "host", "--roundtrip-repetitions", "2147483647"],
        ["stream", "--backend", "host", "--repetitions", "1000001"],
        ["stream", "--backend", "host", "--chunks", "1048576", "--chunk-elements", "1", "--repetitions", "1000"],
        [
            "stream",
            "--backend",
            "host",
            "--chunks",
            "2",
            "--chunk-elements",
            "1048576",
            "--sizes-bytes",
            "4",
            "--repetitions",
            "100",
        ],
        # 2^45 chunks x 2^19 repetitions: the product wraps to 0 in 64 bits
        [
            "stream",
            "--backend",
            "host",
            "--chunks",
            "1048576",
            "--chunk-elements",
            "33554432",
            "--sizes-bytes",
            "4",
            "--repetitions",
            "524288",
        ],
        # a size list given to a mode that has none was not even parsed
        ["mem", "-n", "1K", "--sizes", "bogus"],
        ["mem", "bandwidth", "-n", "1K", "--sizes-elements", "1K"],
        ["mem", "loaded-latency", "-t", "2", "-n", "1K", "--sizes", "1K"],
        # an option of another mode was not even parsed (every pair: below)
        ["mem", "bandwidth", "--tlb-window-bytes", "bogus"],
        # the rest of a tp thread list, and --elements beside a size list, were dropped
        ["mem", "tp", "-t", "1,2"],
        ["mem", "seq", "-n", "4K", "--sizes", "1K"],
        # offload alone has no chunks in flight and no chunk-size curve
        ["stream", "--backend", "host", "--designs", "offload", "--sizes-bytes", "4K"],
        ["stream", "--backend", "host", "--designs", "offload", "--inflight", "2"],
        # the latency test has one message in flight
        ["p2p", "--tests", "latency", "-W", "16"],
        # each b_eff definition's own options, given to the other alone
        ["beff", "--definition", "hpcc", "-u", "500"],
        ["beff", "--definition", "fpga", "--max-bytes", "1K"],
        # --help given a value printed the help and exited 0
        ["--help=maybe"],
        ["mem", "--help=maybe"],
        # options that would measure nothing
        ["coll", "-m", "1"],
        ["coll", "-b", "8K", "-e", "16K", "-m", "1K"],
    ],
)
def test_bad_value_is_one_line_and_exit_2(args, tmp_path):
    one_line_exit_2(args, tmp_path)


@pytest.mark.parametrize(
    "args, option, value, limit",
    [
        # A TLB window above every working set it would cut changed nothing (one
        # random cycle, as with none) and was accepted unchecked.
        (
            ["mem", "latency", "--sizes-bytes", "4K,16K", "--tlb-window-bytes", "64K"],
            "--tlb-window-bytes",
            "64K",
            "the largest working set, 16.00 KiB",
        ),
        (
            ["mem", "loaded-latency", "-t", "2", "-n", "1K", "--chase-bytes", "1M", "--tlb-window", "2M"],
            "--tlb-window-bytes",
            "2M",
            "--chase-bytes), 1.00 MiB",
        ),
        # A load chunk above one load array ran whole arrays under the chunk's name.
        (
            ["mem", "loaded-latency", "-t", "2", "-n", "1K", "--chase-bytes", "1M", "--chunk-bytes", "16K"],
            "--chunk-bytes",
            "16K",
            "8.00 KiB (1024 elements",
        ),
        (
            ["mem", "loaded-latency", "-t", "2", "-n", "1K", "--chase-bytes", "1M", "--chunk", "1M"],
            "--chunk-bytes",
            "1M",
            "8.00 KiB (1024 elements",
        ),
    ],
)
def test_tlb_window_and_load_chunk_at_most_what_they_cut(args, option, value, limit, tmp_path):
    line = one_line_exit_2(args, tmp_path)
    assert f"{option} '{value}'" in line and limit in line, line


def test_tlb_window_and_load_chunk_up_to_the_limit_run(tmp_path):
    """The limits are inclusive; a window above only the smaller sets of a
    sweep is taken (each of those is one window); the default chunk shrinks
    to a smaller array and says so in the record."""
    fast = ["--time-budget", "0.01", "--repetitions", "2"]
    out = tmp_path / "lat.json"
    run_movebench(
        "mem",
        "latency",
        "--sizes-bytes",
        "4K,16K",
        "--tlb-window-bytes",
        "16K",
        *fast,
        "--json",
        out,
        check=0,
        cwd=tmp_path,
    )
    assert [r["params"]["tlb_window"] for r in json.loads(out.read_text())["timings"]] == [16384, 16384]
    common = ["mem", "loaded-latency", "-t", "2", "-n", "1K", "--chase-bytes", "64K", "--delays", "0", *fast]
    for extra, chunk in (
        (["--chunk-bytes", "8K", "--tlb-window-bytes", "64K"], 8192),
        ([], 8192),
        (["--chunk-bytes", "8"], 8),
    ):
        out = tmp_path / "loaded.json"
        run_movebench(*common, *extra, "--json", out, check=0, cwd=tmp_path)
        doc = json.loads(out.read_text())
        assert doc["settings"]["mem"]["chunk_bytes"] == chunk, extra
        assert {r["params"]["chunk_bytes"] for r in doc["timings"]} == {chunk}, extra


def test_outputs_are_checked_before_the_first_measurement(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    # beff --dump-json to a missing folder exited 0 after the whole run
    line = one_line_exit_2(
        ["beff", "--definition", "fpga", "-m", "4", "--dump-json", str(blocker / "x.json")], tmp_path
    )
    assert "Not a directory" in line
    # mem seq --outdir under a file: refused before the arrays are timed
    line = one_line_exit_2(["mem", "seq", "--sizes", "1K", "--outdir", str(blocker / "dat")], tmp_path)
    assert "dat" in line
    # a FIFO as --json blocked the run forever (opened for writing, no reader)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    line = one_line_exit_2(["mem", "-n", "1K", "--json", str(fifo)], tmp_path, timeout=20)
    assert "not a regular file" in line


def test_any_bytes_in_arguments_give_a_valid_result_file(tmp_path):
    # A non-UTF-8 --outdir with --json ended in `terminate called ... invalid UTF-8`.
    out = tmp_path / "out.json"
    proc = subprocess.run(
        [
            str(binary_path()),
            "mem",
            "seq",
            "--sizes",
            "1K",
            "--point-time",
            "0.01",
            "-k",
            "copy",
            "--outdir",
            os.fsencode(str(tmp_path / NON_UTF8)),
            "--json",
            str(out),
        ],
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_bytes().decode("utf-8"))  # strict UTF-8, standard JSON
    assert doc["settings"]["mem"]["outdir"].endswith("bad\ufffd\ufffd")
    assert list((tmp_path / NON_UTF8).glob("*.dat"))


# Which modes use each option that not every mode uses (ModeOptions in
# src/mem/mem_command.cpp and src/link/link_command.cpp): given to any other
# mode it was silently ignored, even unparsed (the battery's
# `mem bandwidth --tlb-window-bytes bogus` exited 0). One row per option:
# (option, value or None for a flag, the modes that use it).
MEM_MODES = ["bandwidth", "seq", "tp", "latency", "loaded-latency"]
ARRAYS = ["bandwidth", "seq", "tp", "loaded-latency"]
TABLE = ["bandwidth", "seq", "tp"]
TIMED = ["seq", "tp", "latency", "loaded-latency"]
CHASE = ["latency", "loaded-latency"]
MEM_OPTIONS = [
    ("--elements", "1K", ARRAYS),
    ("--array-bytes", "8K", ARRAYS),
    ("--threads", "1", ["bandwidth", "tp", "loaded-latency"]),
    ("--bind", "close", MEM_MODES),
    ("--verbose-affinity", None, ["bandwidth"]),
    ("--align-bytes", "128", ARRAYS),
    ("--type", "float", TABLE),
    ("--nt-stores", "off", ARRAYS),
    ("--shape", "plain", ARRAYS),
    ("--kernels", "copy", ARRAYS),
    ("--write-allocate", None, TABLE),
    ("--unit", "GB/s", ARRAYS),
    ("--huge-pages", None, MEM_MODES),
    ("--sizes-elements", "1K", ["seq", "tp"]),
    ("--sizes-bytes", "8K", ["seq", "tp", "latency"]),
    ("--sizes", "1K", ["seq", "tp", "latency"]),
    ("--samples", "1", TIMED),
    ("--time-budget", "0.002", TIMED),
    ("--outdir", "dat", ["seq", "tp"]),
    ("--stride-bytes", "128", CHASE),
    ("--seed", "7", CHASE),
    ("--tlb-window-bytes", "1K", CHASE),
    ("--chase-bytes", "64K", ["loaded-latency"]),
    ("--delays", "0", ["loaded-latency"]),
    ("--chunk-bytes", "1K", ["loaded-latency"]),
]
LINK_BANDWIDTH, LINK_LATENCY = ["bandwidth", "all"], ["latency", "all"]
LINK_OPTIONS = [
    ("--directions", "read", LINK_BANDWIDTH),
    ("--paths", "copy", LINK_BANDWIDTH),
    ("--sizes-bytes", "4K", LINK_BANDWIDTH),
    ("--fine", "2", LINK_BANDWIDTH),
    ("--batch", "1", LINK_BANDWIDTH),
    ("--ring-bytes", "4K", LINK_LATENCY),
    ("--steps", "4", LINK_LATENCY),
    ("--write-bytes", "64", LINK_LATENCY),
    ("--roundtrip-sizes-bytes", "4", LINK_LATENCY),
    ("--roundtrip-repetitions", "2", LINK_LATENCY),
]
LINK_MODES = ["all", "bandwidth", "latency"]


def option_args(option, value):
    return [option] if value is None else [option, value]


def mode_pairs(table, modes, used):
    """(option, value, mode) for every mode that uses the option (used) or not."""
    return [pytest.param(o, v, m, id=f"{o}-{m}") for o, v, users in table for m in modes if (m in users) == used]


@pytest.mark.parametrize(
    "command, option, value, mode",
    [("mem", *p.values) for p in mode_pairs(MEM_OPTIONS, MEM_MODES, False)]
    + [("link", *p.values) for p in mode_pairs(LINK_OPTIONS, LINK_MODES, False)],
)
def test_option_given_to_a_mode_that_ignores_it_is_refused(command, option, value, mode, tmp_path):
    line = one_line_exit_2([command, mode, *option_args(option, value)], tmp_path)
    assert f"{option} applies to {command} " in line and f"not to {command} {mode}" in line, line
    users = next(u for o, _, u in (MEM_OPTIONS if command == "mem" else LINK_OPTIONS) if o == option)
    assert all(u in line for u in users), line


# Tiny runs of each mode, keyed so that the option under test replaces its
# own group (a size list is given once; a size list and --elements exclude
# each other in seq and tp).
MEM_BASE = {
    "bandwidth": {"length": ["-n", "1K"], "reps": ["-r", "1"], "threads": ["-t", "1"], "shape": ["--shape", "plain"]},
    "seq": {
        "sizes": ["--sizes-elements", "1K"],
        "time": ["--time-budget", "0.002"],
        "reps": ["-r", "1"],
        "kernels": ["-k", "copy"],
        "shape": ["--shape", "plain"],
    },
    "latency": {"sizes": ["--sizes-bytes", "4K"], "time": ["--time-budget", "0.002"], "reps": ["-r", "1"]},
    "loaded-latency": {
        "length": ["-n", "1K"],
        "threads": ["-t", "2"],
        "chase": ["--chase-bytes", "64K"],
        "delays": ["--delays", "0"],
        "time": ["--time-budget", "0.002"],
        "reps": ["-r", "1"],
        "shape": ["--shape", "plain"],
    },
}
MEM_BASE["tp"] = {**MEM_BASE["seq"], "threads": ["-t", "1"]}
MEM_GROUP = {
    "--elements": "length",
    "--array-bytes": "length",
    "--threads": "threads",
    "--shape": "shape",
    "--kernels": "kernels",
    "--sizes-elements": "sizes",
    "--sizes-bytes": "sizes",
    "--sizes": "sizes",
    "--time-budget": "time",
    "--chase-bytes": "chase",
    "--delays": "delays",
}


@pytest.mark.parametrize("option, value, mode", mode_pairs(MEM_OPTIONS, MEM_MODES, True))
def test_mem_option_is_taken_by_every_mode_that_uses_it(option, value, mode, tmp_path):
    base = dict(MEM_BASE[mode])
    base.pop(MEM_GROUP.get(option), None)
    if option in ("--elements", "--array-bytes"):
        base.pop("sizes", None)  # seq/tp: their default sizes up to the array length
        if mode in ("seq", "tp"):
            value = "256" if option == "--elements" else "2K"
    if option == "--threads" and mode == "loaded-latency":
        value = "2"  # one chases, one loads
    if option == "--sizes" and mode == "latency":
        value = "4K"  # bytes there
    run_movebench(
        "mem",
        mode,
        *[a for group in base.values() for a in group],
        *option_args(option, value),
        cwd=tmp_path,
        check=0,
        timeout=120,
    )


LINK_BASE = {
    "bandwidth": {
        "--sizes-bytes": ["--sizes-bytes", "4K"],
        "-c": ["-c", "1"],
        "--batch": ["--batch", "1"],
        "--paths": ["--paths", "copy"],
        "--directions": ["--directions", "read"],
    },
    "latency": {
        "-c": ["-c", "1"],
        "--ring-bytes": ["--ring-bytes", "4K"],
        "--steps": ["--steps", "4"],
        "--roundtrip-sizes-bytes": ["--roundtrip-sizes-bytes", "4"],
        "--roundtrip-repetitions": ["--roundtrip-repetitions", "2"],
    },
}
LINK_BASE["all"] = {**LINK_BASE["bandwidth"], **LINK_BASE["latency"]}


@pytest.mark.parametrize("option, value, mode", mode_pairs(LINK_OPTIONS, LINK_MODES, True))
def test_link_option_is_taken_by_every_mode_that_uses_it(option, value, mode, tmp_path):
    base = dict(LINK_BASE[mode])
    base.pop(option, None)
    run_movebench(
        "link",
        "--backend",
        "host",
        mode,
        *[a for group in base.values() for a in group],
        *option_args(option, value),
        cwd=tmp_path,
        check=0,
        timeout=120,
    )
