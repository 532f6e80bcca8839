"""End to end: every sweep's steps (judge/steps over core/change_points),
named from the facts. The chase sweep over this machine's caches, as hwloc
reports them in the document (host.caches), never sizes written here: its
steps at the L1 and L2 sizes found and named after them, and a step about
the L3's size named after it. Small points (seven samples of 1.4 ms), so
the whole test takes seconds on a quiet machine."""

import pytest
from step_naming import two_per_octave

from conftest import ahead_of_other_work, load_result, run_movebench

# The L3 is asserted where its sweep stays this small (a chase four times its
# size, at most this many bytes).
MOST_CHASE = 256 << 20


def chase_sizes(top: int) -> list:
    """4 KiB up to `top`, at mem latency's own default grid."""
    return two_per_octave(4096, top)


# A chase that another process disturbed at most of its points (this
# machine shared) can hide a step under its noise floor: another process
# sharing the core between two samples refills the private L2 with its own
# lines (make test's integration stage beside two CPU hogs once saw no L2
# step in three sweeps). So the chase runs ahead of other work (nice -20
# where allowed), and the sweep is measured again, up to ATTEMPTS times in
# all, until the L1's and the L2's steps are both seen.
ATTEMPTS = 3


@pytest.fixture(scope="module")
def chase(tmp_path_factory):
    probe = tmp_path_factory.mktemp("steps") / "probe.json"
    run_movebench("facts", "--json", probe, check=0)
    caches = sorted(load_result(probe)["host"]["caches"], key=lambda c: c["level"])
    if len(caches) < 2:
        pytest.skip("hwloc reports fewer than two cache levels")
    last = caches[-1]["bytes"]
    top = 4 * last if 4 * last <= MOST_CHASE else 8 * caches[1]["bytes"]
    out = probe.parent / "chase.json"
    for _ in range(ATTEMPTS):
        proc = run_movebench(
            "mem", "latency", "--sizes-bytes", ",".join(map(str, chase_sizes(top))),
            "--point-time", "0.01", "--samples", "7", "--json", out, check=0, timeout=300,
            preexec_fn=ahead_of_other_work,
        )  # fmt: skip
        doc = load_result(out)
        if all(named(doc, c["level"]) for c in caches[:2]):
            break
    return proc, doc, caches, top


def named(doc, level: int) -> list:
    """The chase's steps whose cause, or another cause that fits, is cache level `level`."""
    [sweep] = [s for s in doc["steps"] if s["benchmark"] == "mem" and s["figure"] == "latency"]
    return [s for s in sweep["steps"] if any(c.startswith(f"L{level} cache") for c in [s["cause"], *s["also"]])]


def test_chase_steps_at_l1_and_l2_are_found_and_named(chase):
    _, doc, caches, _ = chase
    for cache in caches[:2]:
        found = named(doc, cache["level"])
        assert found, f"no step named after L{cache['level']} ({cache['bytes']} B): {doc['steps']}"
        # Named only where the step is: within the naming reach of the cache's size.
        for s in found:
            assert s["size_before"] / 2 <= cache["bytes"] <= 2 * s["size"]
            assert s["ratio"] > 1, "latency rises past a cache"


def test_chase_step_at_the_last_level_cache(chase):
    """Where the chase shows a step about the last-level cache's size, it is
    named after it. Whether a shared VM shows one at all is the host's doing
    (the guest's L3 is its neighbours' too): on the development VM the
    latency climbs from the L2 on without a level at the L3."""
    _, doc, caches, top = chase
    last = caches[-1]
    if len(caches) < 3 or top < 4 * last["bytes"]:
        pytest.skip(f"the L{last['level']} ({last['bytes']} B) is too large to sweep past quickly")
    [sweep] = doc["steps"]
    around = [s for s in sweep["steps"] if s["size_before"] <= last["bytes"] <= s["size"]]
    for s in around:
        assert any(c.startswith(f"L{last['level']} cache") for c in [s["cause"], *s["also"]]), s


def test_steps_are_printed_under_the_table(chase):
    proc, doc, _, _ = chase
    table_end = proc.stdout.index("Solution Validates")
    heading = proc.stdout.index("steps of mem latency latency")
    assert heading > table_end
    [sweep] = doc["steps"]
    for s in sweep["steps"]:
        assert s["cause"] in proc.stdout[heading:]
    assert sweep["floor_ratio"] >= 1.1 and sweep["noise"] > 0
