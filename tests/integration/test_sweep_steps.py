"""End to end: the steps of the sweeps beside the chase (tests/integration/test_steps.py):
`mem seq`, link's size sweeps (the host backend and OpenCL through PoCL), stream's
chunk sweeps, and p2p's eager limit as the MPI library's own setting moves it. Every
size a cause is named after comes from the document's facts (hwloc's caches, the
TLBs, the page size, `ulimit -l`, MPI_T's eager limits), never from numbers here;
what a sweep of a shared machine shows is its own, so a step is asserted only where
its cause is certain, and every step found is held to the naming rule
(docs/results.md, "Steps"). Small sweeps: seconds each."""

import pytest
from step_naming import assert_named_by_the_rule, assert_printed, two_per_octave

from conftest import binary_path, load_result, run_movebench
from movebench_report.steps import step_causes


def sweep_entries(doc, benchmark, figure=None):
    return [s for s in doc["steps"] if s["benchmark"] == benchmark and figure in (None, s["figure"])]


@pytest.fixture(scope="module")
def caches(tmp_path_factory):
    probe = tmp_path_factory.mktemp("sweep_steps") / "facts.json"
    run_movebench("facts", "--json", probe, check=0)
    found = sorted(load_result(probe)["host"]["caches"], key=lambda c: c["level"])
    if not found:
        pytest.skip("hwloc reports no cache")
    return found


# A sweep disturbed at most of its points (this machine shared) can hide a step
# under its noise floor: it is measured again, up to ATTEMPTS times in all.
ATTEMPTS = 3


def test_mem_seq_steps_fall_at_a_cache_and_are_named_after_it(tmp_path, caches):
    """The load-only kernel `sum`, one thread, two sizes per octave from 4 KiB to
    four times the L2 (eight times the L1 where there is no L2): its bandwidth
    falls where the arrays leave the L1 (data from the L2 comes at a fraction of
    the L1's rate on every CPU with two levels), and that step is named after the
    L1 hwloc reports; every step found is named by the rule."""
    l1 = caches[0]
    top = 4 * caches[1]["bytes"] if len(caches) > 1 else 8 * l1["bytes"]
    out = tmp_path / "seq.json"
    for _ in range(ATTEMPTS):
        proc = run_movebench(
            "mem", "seq", "-k", "sum", "--sizes-bytes", ",".join(map(str, two_per_octave(4096, top))),
            "--point-time", "0.01", "--samples", "7", "--outdir", tmp_path / "dat", "--json", out,
            check=0, timeout=120,
        )  # fmt: skip
        doc = load_result(out)
        [sweep] = sweep_entries(doc, "mem", "bandwidth")
        at_l1 = [
            s for s in sweep["steps"] if any(c.startswith(f"L{l1['level']} cache") for c in [s["cause"], *s["also"]])
        ]
        if at_l1:
            break
    assert sweep["operation"] == "sum" and sweep["points"] == len(two_per_octave(4096, top))
    assert_named_by_the_rule(doc, sweep)
    assert at_l1, f"no step named after the L1 ({l1['bytes']} B) in {ATTEMPTS} sweeps: {sweep}"
    for s in at_l1:
        assert s["ratio"] < 1, "bandwidth falls past a cache"
        assert s["size_before"] / 2 <= l1["bytes"] <= 2 * s["size"]
    assert_printed(proc.stdout, sweep)
    assert proc.stdout.index("steps of mem sum bandwidth") > proc.stdout.index("Solution Validates")


@pytest.mark.parametrize("backend", ["host", "opencl"])
def test_link_size_sweeps_record_their_steps_named_by_the_rule(tmp_path, backend):
    """link's copy read over 4 KiB .. 4 MiB, two sizes per octave, on pageable and
    pinned host memory: one sweep per memory kind in `steps`, each saying its
    kind (`memory`, and in its heading under the tables), each step named from the facts a link
    sweep may be named after (never an MPI eager limit), printed under the tables."""
    out = tmp_path / "link.json"
    proc = run_movebench(
        "link", "bandwidth", "--backend", backend, "--directions", "read", "--paths", "copy",
        "--host-memory", "pageable,pinned", "--sizes", "4K:4M", "--fine", "2", "--time-budget", "0.02",
        "--json", out, check=0, timeout=180,
    )  # fmt: skip
    doc = load_result(out)
    sizes = sorted({t["bytes"] for t in doc["timings"] if t["operation"] == "copy.read"})
    sweeps = sweep_entries(doc, "link", "bandwidth")
    assert [(s["operation"], s["memory"]) for s in sweeps] == [("copy.read", "pageable"), ("copy.read", "pinned")]
    for sweep in sweeps:
        assert sweep["points"] == len(sizes) and sweep["floor_ratio"] >= 1.1 and sweep["noise"] > 0
        assert_named_by_the_rule(doc, sweep)
        assert not any("eager limit" in c for s in sweep["steps"] for c in [s["cause"], *s["also"]])
        assert_printed(proc.stdout, sweep)
    assert "pinned-memory limit" in str(step_causes(doc, "link", False)), "link's sweeps may be named after ulimit -l"


def test_stream_chunk_sweeps_record_their_steps_in_latency_and_throughput(tmp_path):
    """stream's chunk-size sweep of one design, 1 KiB .. 1 MiB by doubling at a
    constant 4 MiB: its latency and throughput sweeps each in `steps`, named
    by the rule, printed under the tables."""
    out = tmp_path / "stream.json"
    proc = run_movebench(
        "stream", "--backend", "host", "--designs", "chunked", "--chunks", "256", "--chunk-elements", "4096",
        "--repetitions", "3", "--sweep", "1K:1M:x2", "--json", out, check=0, timeout=120,
    )  # fmt: skip
    doc = load_result(out)
    sweeps = sweep_entries(doc, "stream")
    assert sorted(s["figure"] for s in sweeps) == ["latency", "throughput"], doc["steps"]
    for sweep in sweeps:
        assert sweep["operation"] == "chunked" and sweep["points"] == 11
        assert_named_by_the_rule(doc, sweep)
        assert_printed(proc.stdout, sweep)


def test_link_slowed_above_a_size_steps_there(tmp_path):
    """An artificial step at a known size by a real means: every copy of 64 KiB
    or more made eight times by tests/faults/memcpy_faults.cpp (LD_PRELOAD, mode
    `slow`), link's host sweep of 4 .. 256 KiB, two sizes per octave, falls
    there (about x0.1): the step is found across 64 KiB, bandwidth falling, and
    named by the rule (whatever the facts put within reach: the L1 on a CPU
    whose L1 is 32 KiB). The raw runs behind it: tests/data/steps/link-slow-*."""
    shim = binary_path().parent / "tests" / "libmemcpy_faults.so"
    if not shim.exists():
        pytest.skip(f"no fault-injection library at {shim}")
    env = {"LD_PRELOAD": str(shim), "MOVEBENCH_FAULT_MODE": "slow", "MOVEBENCH_FAULT_BYTES": str(64 * 1024)}
    out = tmp_path / "link.json"
    for _ in range(ATTEMPTS):
        proc = run_movebench(
            "link", "bandwidth", "--backend", "host", "--directions", "read", "--paths", "copy",
            "--host-memory", "pageable", "--sizes", "4K:256K", "--fine", "2", "--time-budget", "0.02",
            "--json", out, env=env, check=0, timeout=60,
        )  # fmt: skip
        doc = load_result(out)
        [sweep] = sweep_entries(doc, "link", "bandwidth")
        across = [s for s in sweep["steps"] if s["size_before"] < 64 * 1024 <= s["size"]]
        if across:
            break
    assert "each made 8 times" in proc.stderr, proc.stderr
    assert sweep["memory"] == "pageable" and sweep["points"] == 13
    assert across, f"no step across 64 KiB in {ATTEMPTS} sweeps: {sweep}"
    assert across[0]["ratio"] < 0.5, across
    assert_named_by_the_rule(doc, sweep)
    assert_printed(proc.stdout, sweep)
