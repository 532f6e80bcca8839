"""End to end: every sweep's steps (judge/steps over core/change_points),
named from the facts. The chase sweep over this machine's caches, as hwloc
reports them in the document (host.caches), never sizes written here: its
steps at the L1 and L2 sizes found and named after them, and the cliff
into memory named after the L3 (its size, or its share where a shared L3's
other users leave less of it; that sweep on huge pages, from the L2's size
up). Small points (seven samples of 1.4 to 2.9 ms), so the whole test takes
seconds on a quiet machine."""

import pytest
from step_naming import two_per_octave

from conftest import ahead_of_other_work, load_result, run_movebench

# The L3 is asserted where its sweep stays this small (a chase four times its
# size, at most this many bytes).
MOST_CHASE = 256 << 20


def chase_sizes(top: int, bottom: int = 4096) -> list:
    """`bottom` (4 KiB) up to `top`, at mem latency's own default grid."""
    return two_per_octave(bottom, top)


# A chase that another process disturbed at most of its points (this
# machine shared) can hide a step under its noise floor: another process
# sharing the core between two samples refills the private L2 with its own
# lines (make test's integration stage beside two CPU hogs once saw no L2
# step in three sweeps). So the chase runs ahead of other work (nice -20
# where allowed), and the sweep is measured again, up to ATTEMPTS times in
# all, until the L1's and the L2's steps are both seen. (With 3, quiet, on
# the AMD EPYC guest, 2026-11-29: one run in three saw no L2 step in any
# sweep, and one fresh clone's make test failed on it; each sweep about 1 s.)
ATTEMPTS = 6


@pytest.fixture(scope="module")
def chase(tmp_path_factory):
    probe = tmp_path_factory.mktemp("steps") / "probe.json"
    run_movebench("facts", "--json", probe, check=0)
    caches = sorted(load_result(probe)["host"]["caches"], key=lambda c: c["level"])
    if len(caches) < 2:
        pytest.skip("hwloc reports fewer than two cache levels")
    top = 8 * caches[1]["bytes"]  # past the L2: the L3 has its own sweep (llc_chase)
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


@pytest.fixture(scope="module")
def llc_chase(chase, tmp_path_factory):
    """The chase from the L2's size to four times the last level's, on huge
    pages: with the base pages the L2 TLB's reach (12 MiB of 4 KiB pages on
    Zen 4) falls between the L2 and a 32 MiB L3 and takes the step's name,
    and the page walks blur the level. On a shared host the other guests
    hold part of the L3, so the cliff into memory moves
    (tests/data/steps/2026-11-28-zen4-llc-*.txt, docs/mem.md: at 1-2 MiB in
    the morning, 6-24 MiB in the afternoon): measured again, up to ATTEMPTS
    times in all, until a step named after the last level is seen."""
    _, doc, caches, _ = chase
    last = caches[-1]
    if len(caches) < 3 or 4 * last["bytes"] > MOST_CHASE:
        pytest.skip(f"the L{last['level']} ({last['bytes']} B) is too large to sweep past quickly")
    if doc.get("facts", {}).get("settings", {}).get("thp", {}).get("value") == "never":
        pytest.skip("transparent huge pages are off (never): no huge pages to chase on")
    out = tmp_path_factory.mktemp("llc") / "llc.json"
    for _ in range(ATTEMPTS):
        run_movebench(
            "mem", "latency", "--huge-pages", "--sizes-bytes", ",".join(map(str, chase_sizes(4 * last["bytes"], caches[1]["bytes"]))),
            "--point-time", "0.02", "--samples", "7", "--json", out, check=0, timeout=300,
            preexec_fn=ahead_of_other_work,
        )  # fmt: skip
        llc = load_result(out)
        if named(llc, last["level"]):
            break
    return llc, last


def test_chase_steps_past_the_l2_into_memory(llc_chase):
    """Past the L2 the chase falls off a cliff into memory (a step of more
    than twice), named after the last-level cache: its size where the step
    reaches it, else, where the cliff comes before half its size, its share
    (a guest whose neighbours hold most of a shared L3 falls off at a few
    MiB: the development VM named its L3 at 12 -> 24 MiB in one run, fell
    off at 4 -> 12 MiB in four others the same day; docs/mem.md). A step
    about the last level's size is named after it."""
    doc, last = llc_chase
    [sweep] = doc["steps"]
    cliffs = [s for s in sweep["steps"] if s["ratio"] > 2]
    assert cliffs, f"no cliff into memory: {sweep}"
    cliff = max(cliffs, key=lambda s: s["ratio"])
    assert any(c.startswith(f"L{last['level']} cache") for c in [cliff["cause"], *cliff["also"]]), cliff
    around = [s for s in sweep["steps"] if s["size_before"] / 2 <= last["bytes"] <= 2 * s["size"]]
    for s in around:
        assert s["ratio"] > 1, "latency rises past a cache"
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
