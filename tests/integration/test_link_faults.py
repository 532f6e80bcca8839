"""Fault injection for link and stream on the host backend, whose transfers
are memcpy calls: tests/faults/memcpy_faults.cpp (LD_PRELOAD) drops or
damages chosen copies of one size. A first run only counts the copies of that
size (and must pass); then each copy in turn is spoiled, one per run, and
every such run must fail validation: exit 1, a "validation FAILED" line,
`validated: false`. So no copy a run makes, timed transfer, warm-up,
staging or read-back, can go wrong unseen: link checks every transfer of a
batch in its own cleared destination and every round of the round trip with
its own pattern (before, only the last transfer of a batch was checked, and
the round trip passed with every copy dropped)."""

import json
import re

import pytest

from conftest import binary_path, run_movebench

SIZE = 16384  # the transfers' size; no other copy of a run has it
HOST = ["--backend", "host", "--timeout", "10"]
BANDWIDTH = ["bandwidth", "--sizes", str(SIZE), "-c", "2", "--batch", "4", "--host-memory", "pinned"]
CASES = {
    "copy-read": ["link", *HOST, *BANDWIDTH, "--paths", "copy", "--directions", "read"],
    "copy-write": ["link", *HOST, *BANDWIDTH, "--paths", "copy", "--directions", "write"],
    "copy-duplex": ["link", *HOST, *BANDWIDTH, "--paths", "copy", "--directions", "duplex"],
    # the kernel path moves data with loops; its staging and read-back are copies
    "kernel-duplex": ["link", *HOST, *BANDWIDTH, "--paths", "kernel", "--directions", "duplex"],
    "roundtrip": [
        "link",
        *HOST,
        "latency",
        "--roundtrip-sizes",
        str(SIZE),
        "--roundtrips",
        "3",
        "--ring-bytes",
        "64K",
        "--steps",
        "16",
    ],
    # stream's offload design: a copy in, a kernel, a copy out per pass
    "stream-offload": [
        "stream",
        *HOST,
        "--designs",
        "offload",
        "--chunks",
        "4",
        "--chunk-count",
        str(SIZE // 16),
        "--iterations",
        "2",
    ],
}
COUNT_LINE = re.compile(r"^memcpy_faults: (\d+) copies of (\d+) bytes, (\d+) spoiled$", re.M)


def shim():
    path = binary_path().parent / "tests" / "libmemcpy_faults.so"
    if not path.exists():
        pytest.skip(f"no fault-injection library at {path}")
    return path


def run_with_faults(tmp_path, args, at, mode="drop", every=0):
    out = tmp_path / "r.json"
    env = {
        "LD_PRELOAD": str(shim()),
        "MOVEBENCH_FAULT_BYTES": str(SIZE),
        "MOVEBENCH_FAULT_AT": str(at),
        "MOVEBENCH_FAULT_EVERY": str(every),
        "MOVEBENCH_FAULT_MODE": mode,
    }
    proc = run_movebench(*args, "--json", out, env=env, timeout=60)
    counts = COUNT_LINE.search(proc.stderr)
    assert counts, proc.stderr
    return proc, json.loads(out.read_text()), int(counts.group(1)), int(counts.group(3))


def assert_caught(proc, doc, what):
    assert proc.returncode == 1, (what, proc.returncode, proc.stdout, proc.stderr)
    assert doc["validated"] is False, what
    failed = [l for l in proc.stderr.splitlines() if "validation FAILED" in l]
    assert len(failed) == 1, (what, proc.stderr)


@pytest.mark.parametrize("case", CASES)
def test_every_single_spoiled_copy_is_caught(tmp_path, case):
    args = CASES[case]
    proc, doc, copies, spoiled = run_with_faults(tmp_path, args, at=-1)
    assert proc.returncode == 0, proc.stderr
    assert doc["validated"] is True and spoiled == 0
    assert copies >= 4, f"{case}: only {copies} copies of {SIZE} bytes; the size does not reach the transfers"
    for k in range(copies):
        for mode in ("drop", "flip") if k % 3 == 0 else ("drop",):
            proc, doc, _, spoiled = run_with_faults(tmp_path, args, at=k, mode=mode)
            assert spoiled == 1, (case, k, mode)
            assert_caught(proc, doc, f"{case}: copy {k} of {copies} ({mode})")


def test_one_copy_in_eight_dropped_at_every_phase(tmp_path):
    """One copy in 8 dropped, with batches of 8, starting at each phase in
    turn: whichever transfer of a batch it hits, the run fails. Before, only
    a drop of the last transfer or of the read-back was seen."""
    args = [
        "link",
        *HOST,
        "bandwidth",
        "--sizes",
        str(SIZE),
        "-c",
        "3",
        "--batch",
        "8",
        "--paths",
        "copy",
        "--directions",
        "read",
        "--host-memory",
        "pinned",
    ]
    for first in range(1, 8):
        proc, doc, _, spoiled = run_with_faults(tmp_path, args, at=first, every=8)
        assert spoiled > 0
        assert_caught(proc, doc, f"every 8th copy from {first}")
