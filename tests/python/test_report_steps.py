"""The report's steps of an imported sweep (python/movebench_report/steps.py)
are the binary's (src/core/change_points, src/judge/steps): the C++ unit
tests' sweeps with known steps give the same steps here, a document the
binary judged gives its own `steps` back, and an imported peer sweep's steps
are drawn on the page as the binary's are, named from the facts the document
holds, else "unexplained"."""

import json
import math
import random
import re
from pathlib import Path

import pytest

from conftest import run_movebench
from movebench_report import steps
from movebench_report.steps import SweepPoint, find_steps
from reportkit import report

DATA = Path(__file__).resolve().parents[1] / "data"


def sweep(levels, sigma=0.0, seed=1):
    """tests/unit/test_change_points.cpp's sweep(): sizes 1K, 2K, 4K ...;
    nine samples per point spread by log-normal noise, the value their median."""
    rng = random.Random(seed)
    out, size = [], 1024
    for level in levels:
        samples = [level * math.exp(rng.gauss(0, sigma) if sigma > 0 else 0.0) for _ in range(9)]
        out.append(SweepPoint(size, sorted(samples)[4], samples))
        size *= 2
    return out


def repeat(*runs):
    return [value for value, count in runs for _ in range(count)]


def test_flat_sweep_has_no_steps():
    assert find_steps(sweep(repeat((5.0, 12))))[2] == []


def test_known_steps_without_noise():
    noise, _, found, _ = find_steps(sweep(repeat((1.5, 6), (4.0, 6), (90.0, 6))))
    assert [(s["before"], s["after"]) for s in found] == [(5, 6), (11, 12)]
    assert found[0]["size_before"] == 1024 * 32 and found[0]["size"] == 1024 * 64
    assert found[0]["from"] == pytest.approx(1.5) and found[0]["to"] == pytest.approx(4.0)
    assert found[0]["ratio"] == pytest.approx(4.0 / 1.5) and found[1]["ratio"] == pytest.approx(22.5)
    assert noise == steps.LEAST_NOISE  # identical samples: the least noise


def test_known_steps_under_noise_on_every_seed():
    for seed in range(1, 41):
        noise, _, found, _ = find_steps(sweep(repeat((100.0, 7), (40.0, 7), (20.0, 7)), 0.05, seed))
        assert [s["after"] for s in found] == [7, 14], seed
        assert found[0]["ratio"] == pytest.approx(0.4, abs=0.04) and noise == pytest.approx(0.05, abs=0.03)


def test_noise_alone_and_steps_below_the_floor_are_no_steps():
    for seed in range(1, 41):
        assert find_steps(sweep(repeat((50.0, 20)), 0.1, seed))[2] == [], seed
        _, floor_ratio, found, _ = find_steps(sweep(repeat((10.0, 6), (11.0, 6)), 0.10, seed))
        assert found == [] and floor_ratio > 1.2, seed
    assert find_steps(sweep(repeat((10.0, 6), (10.5, 6))))[2] == []  # 5%: under the least ratio


def test_transitions_are_one_step():
    found = find_steps(sweep(repeat((2.0, 5), (5.0, 1), (12.0, 5))))[2]
    assert [(s["before"], s["after"]) for s in found] == [(4, 6)] and found[0]["ratio"] == pytest.approx(6.0)
    # The transition's own curvature sets the scatter; 95 falls within the floor from 130 after it.
    found = find_steps(sweep([4, 4, 4, 4, 4, 7, 29, 95, 130, 130, 130, 130]))[2]
    after = math.exp((math.log(95) + 4 * math.log(130)) / 5)
    assert [(s["before"], s["after"]) for s in found] == [(4, 7)] and found[0]["ratio"] == pytest.approx(after / 4)


def test_a_steady_climb_a_lone_point_and_a_short_sweep_are_no_steps():
    climb = [1.6**i for i in range(12)] + [1.6**11] * 6
    assert find_steps(sweep(climb))[2] == [] and find_steps(sweep(climb, 0.02, 3))[2] == []
    assert find_steps(sweep(repeat((5.0, 1), (1.0, 8))))[2] == []
    assert find_steps(sweep(repeat((1.0, 5), (9.0, 1), (1.0, 5))))[2] == []
    assert find_steps(sweep([1.0, 100.0]))[2] == [] and find_steps(sweep([1.0, 1.0, 0.0, 100.0, 100.0]))[2] == []


def test_noise_floor_from_the_samples_and_the_scatter():
    assert steps.sweep_noise([SweepPoint(1, 1, [])]) == steps.DEFAULT_NOISE
    spread = [SweepPoint(1, 1, [1.0, math.exp(0.2), math.exp(-0.2)])]
    assert steps.sweep_noise(spread) == pytest.approx(1.4826 * 0.2)
    assert steps.scatter_noise([0, 0.5, 1, 1.5, 2, 2.5]) == 0 and steps.scatter_noise([0, 0, 0, 0, 3, 3, 3, 3, 3]) == 0
    assert steps.scatter_noise([0, 0.2, 0, 0.2, 0, 0.2, 0]) == pytest.approx(1.4826 * 0.4 / math.sqrt(6))
    alternating = [SweepPoint(1024 * (i + 1), v, [v, v * 1.01, v * 0.99]) for i, v in enumerate([1.0, 2.0] * 4 + [1.0])]
    noise, _, found, _ = find_steps(alternating)
    assert noise == pytest.approx(1.4826 * 2 * math.log(2) / math.sqrt(6)) and found == []


def test_the_kept_slow_copy_sweeps_fall_at_64_kib():
    """tests/unit/test_change_points.cpp's KeptSlowCopySweepsFallAt64KiB: link's
    host sweeps with every copy of 64 KiB or more made eight times, each point's
    samples spread as the run printed (noise floor x f: sigma ln f / 4)."""
    for run in (1, 2, 3):
        text = (DATA / "steps" / f"link-slow-from-64k-{run}.txt").read_text()
        rows = re.findall(r"^\s+(\d+)\s+\d+\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+copy\.read$", text, re.M)
        sigma = math.log(float(re.search(r"noise floor x([\d.]+)", text)[1])) / steps.FLOOR_SIGMAS
        d = sigma / 1.4826
        points = [
            SweepPoint(float(b), float(v), [float(v) * math.exp(-d), float(v), float(v) * math.exp(d)]) for b, v in rows
        ]
        assert len(points) == 13
        noise, _, found, _ = find_steps(points)
        assert [(s["size_before"], s["size"]) for s in found] == [(46340, 65536)], run
        assert find_steps(points, rate=True)[2:] == (found, 0), "no ramp: link's rate hardly grows below 64 KiB"
        assert found[0]["ratio"] < 0.25 and noise > sigma, run


def rate_with_fixed_cost(fixed_s, fast, slow, edge):
    """tests/unit/test_change_points.cpp's rate_with_fixed_cost(): 1 KiB .. 1 GiB
    by doubling, each call a fixed cost plus its bytes at `fast` up to `edge`,
    `slow` beyond; no noise."""
    out, size = [], 1024
    while size <= 1 << 30:
        rate = size / (fixed_s + size / (fast if size <= edge else slow))
        out.append(SweepPoint(size, rate, [rate] * 3))
        size *= 2
    return out


def test_a_ramp_bound_by_a_fixed_cost_is_left_out():
    """The C++'s RampBoundByAFixedCostIsLeftOut and NoRampWhereTheTimePerCallGrows."""
    points = rate_with_fixed_cost(100e-9, 8e12, 4e12, 64 << 20)
    assert steps.overhead_bound_points(points) == 10
    _, _, as_levels, bound = find_steps(points)
    assert len(as_levels) == 1 and as_levels[0]["ratio"] > 1 and bound == 0
    _, _, found, bound = find_steps(points, rate=True)
    assert bound == 10 and [(s["before"], s["after"]) for s in found] == [(16, 17)]
    assert found[0]["size_before"] == 64 << 20 and found[0]["ratio"] < 0.75
    assert found[0]["from"] > 0.75 * 8e12 and found[0]["to"] == pytest.approx(4e12, rel=0.05)
    climb = [1.6**i for i in range(12)]
    for flat_or_climbing in (sweep(repeat((5.0, 12))), sweep(climb), sweep([1, 2]), sweep([1, 2, 4, 0, 16])):
        assert steps.overhead_bound_points(flat_or_climbing) == 0
    _, _, found, bound = find_steps(sweep([1, 2, 4, 8, 16, 32]), rate=True)
    assert bound == 6 and found == []


RUN3 = DATA / "gpu" / "2026-11-28-h200" / "run3"


def seq_sweep(doc, kernel):
    return [
        SweepPoint(t["bytes"], t["figures"]["bandwidth"]["value"], t["samples"])
        for t in doc["timings"]
        if t["operation"] == kernel
    ]


def test_h200_seq_sweeps_fall_from_their_l2_level():
    """The C++'s H200SeqSweepsFallFromTheirL2Level, on the same committed run."""
    doc = json.loads((RUN3 / "mem-seq.json").read_text())
    for kernel in ("copy", "triad", "init"):
        points = seq_sweep(doc, kernel)
        assert len(points) == 21
        _, _, found, bound = find_steps(points, rate=True)
        assert bound >= 8 and points[bound - 1].size <= 3 << 20, kernel
        falls = [s for s in found if s["ratio"] < 1]
        if kernel == "init":
            assert falls == []
            continue
        (fall,) = falls
        assert fall["size_before"] == (64 << 20 if kernel == "copy" else 48 << 20), kernel
        assert fall["size"] <= 4 * fall["size_before"] and fall["to"] < 4.5e6
        assert fall["from"] > (7e6 if kernel == "copy" else 1e7), kernel


def h200_run3(name):
    """A document of the run, its device's caches as the CUDA device now
    reports them: the SM's L1 (256 KiB on compute capability 9.0: src/facts/accelerators.cpp's
    table) beside the recorded L2; the C++'s h200_run3()."""
    doc = json.loads((RUN3 / name).read_text())
    device = doc["mem_device"]
    assert device["compute_capability"] == "9.0"
    device["caches"].insert(0, {"level": 1, "bytes": 256 * 1024, "instances": device["multiprocessors"]})
    return doc


def test_h200_steps_named_after_the_l1_and_the_l2():
    """The C++'s H200ChaseRisesAtTheL1AndTheL2 and H200SeqSweepsSayTheirRampAndFallAtTheL2."""
    (chase,) = steps.sweep_steps(h200_run3("mem-latency.json"))
    assert chase["steps"][0]["cause"] == "L1 cache (256.00 KiB)" and chase["steps"][0]["size_before"] == 131072
    assert "overhead_bound" not in chase
    (windowed,) = steps.sweep_steps(h200_run3("mem-latency-window.json"))
    assert [s["cause"] for s in windowed["steps"]] == ["L1 cache (256.00 KiB)", "L2 cache (60.00 MiB)"]
    seq = steps.sweep_steps(h200_run3("mem-seq.json"))
    assert [s["operation"] for s in seq] == ["copy", "init", "triad"]
    for sweep_found in seq:
        assert sweep_found["overhead_bound"]["points"] >= 8
        falls = [s for s in sweep_found["steps"] if s["ratio"] < 1]
        assert [s["cause"] for s in falls] == ([] if sweep_found["operation"] == "init" else ["L2 cache (60.00 MiB)"])


# The C++'s machine(): L1 32 KiB and L2 1 MiB per core (2), one L3 of 32
# MiB; THP madvise, 2 MiB huge pages.
SHARED_L3 = {
    "host": {
        "caches": [
            {"level": 1, "bytes": 32768, "instances": 2},
            {"level": 2, "bytes": 1048576, "instances": 2},
            {"level": 3, "bytes": 33554432, "instances": 1},
        ]
    },
    "facts": {"settings": {"thp": {"value": "madvise"}, "page_bytes": {"value": 4096, "huge_bytes": 2097152}}},
}
SHARE = "L3 cache's share (32.00 MiB shared by 2 L2s: other cores', or guests', lines hold part of it)"


def test_a_guest_falling_into_memory_before_its_l3_names_the_l3s_share():
    """The C++'s AGuestFallingIntoMemoryBeforeItsL3NamesTheL3sShare and
    TheLastLevelsShareWhereItsSizeIsOutOfReach."""
    timings, size = [], float(1 << 20)
    while size <= 128 * 1048576:
        ns = 14 if size <= 4.1 * 1048576 else 150 if size <= 33 * 1048576 else 180
        figure = {"latency": {"value": ns, "unit": "ns"}}
        samples = [ns * 1e-9, ns * 1.01e-9, ns * 0.99e-9]
        timings.append(
            {"benchmark": "mem", "operation": "latency", "bytes": size, "params": {"huge_pages": True}}
            | {"samples": samples, "figures": figure}
        )
        size *= math.sqrt(2)
    (chase,) = steps.sweep_steps(SHARED_L3 | {"timings": timings})
    assert [s["cause"] for s in chase["steps"]] == [SHARE, "L3 cache (32.00 MiB)"]
    causes = steps.step_causes(SHARED_L3, "mem", True)
    huge = "huge page size (2.00 MiB, THP madvise)"
    assert steps.causes_of(4 << 20, 8 << 20, causes, True) == [SHARE, huge]
    assert steps.causes_of(4 << 20, 8 << 20, causes, False) == [huge]
    assert steps.causes_of(12 << 20, 24 << 20, causes, True) == ["L3 cache (32.00 MiB)"]
    own = json.loads(json.dumps(SHARED_L3))
    own["host"]["caches"][2]["instances"] = 2
    assert steps.step_causes(own, "mem", True)[3][0] == (
        "L3 cache's share (32.00 MiB, the last level: other cores', or guests', lines may hold part of it)"
    )
    own["host"]["caches"] = own["host"]["caches"][:1]
    assert not any("share" in name for name, _, _ in steps.step_causes(own, "mem", True))


def test_the_module_prints_a_files_steps_as_the_binary_does(capsys):
    """python -m movebench_report.steps FILE (docs/mem.md quotes it on the H200 run)."""
    assert steps.main([str(RUN3 / "mem-seq.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"== {RUN3 / 'mem-seq.json'}"
    assert out[1].startswith("steps of mem copy bandwidth (noise floor x")
    assert out[2].startswith("  up to 1.00 MiB (10 points): bound by a fixed cost per call")
    assert out[3].startswith("  64.00 MiB -> 128.00 MiB: ") and out[3].endswith("(x0.5024): L2 cache (60.00 MiB)")
    assert steps.main([str(RUN3 / "no-such-file.json")]) == 2


def _split(d: dict, skip=("steps",)) -> tuple:
    """(its numbers, the rest) of a dict: numbers compared to rounding, the rest exactly."""
    numbers = {k: v for k, v in d.items() if isinstance(v, float) and k not in skip}
    return numbers, {k: v for k, v in d.items() if k not in numbers and k not in skip}


def _same(ours, theirs):
    """Two documents' `steps`: equal, numbers to rounding."""
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        (an, ar), (bn, br) = _split(a), _split(b)
        assert ar == br and an == pytest.approx(bn, rel=1e-9)
        assert len(a["steps"]) == len(b["steps"]), (a, b)
        for x, y in zip(a["steps"], b["steps"]):
            (xn, xr), (yn, yr) = _split(x, ()), _split(y, ())
            assert xr == yr and xn == pytest.approx(yn, rel=1e-9)


@pytest.mark.parametrize(
    "args",
    [
        ["mem", "latency", "--sizes", "4K:16M:x2", "--point-time", "0.002"],
        ["mem", "seq", "--sizes", "4K:2M:x2", "--point-time", "0.002", "--kernels", "copy,triad"],
    ],
    ids=["mem-latency", "mem-seq"],
)
def test_a_document_the_binary_judged_gives_its_own_steps(tmp_path, args):
    """Whatever this machine measured: the report finds and names the steps the binary wrote."""
    path = tmp_path / "sweep.json"
    proc = run_movebench(*args, "--json", path, check=0)
    doc = json.loads(path.read_text())
    assert doc["steps"], "the binary judges every sweep of five points or more"
    _same(steps.sweep_steps(doc), doc["steps"])
    for line in steps.step_lines(doc["steps"]):  # and prints them as the binary does
        assert line in proc.stdout.splitlines(), line


# osu_latency's text with a step from 64 B to 128 B (made up: the sizes and
# layout of tests/data/peers/osu_latency.txt, the latency eight times higher
# from 128 B on).
OSU_STEP = "# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n" + "".join(
    f"{2**i:<24}{1.0 if i < 7 else 8.0:.2f}\n" for i in range(13)
)


def test_an_imported_sweeps_step_is_found_named_and_drawn(tmp_path):
    (tmp_path / "osu_latency.txt").write_text(OSU_STEP)
    code, _, err = report("import", tmp_path / "osu_latency.txt", "--outdir", tmp_path)
    assert code == 0, err
    imported = tmp_path / "osu_latency.json"
    doc = json.loads(imported.read_text())
    assert "steps" not in doc
    (sweep_found,) = steps.sweep_steps(doc)
    assert sweep_found["noise"] == steps.DEFAULT_NOISE  # OSU prints one value per size: no samples
    (step,) = sweep_found["steps"]
    assert (step["size_before"], step["size"], step["cause"], step["also"]) == (64, 128, "unexplained", [])
    assert step["ratio"] == pytest.approx(8.0)
    # A fact the document holds names it: a cache of 128 B (made up) and an eager limit of 64 B,
    # both at the step's ends; in an MPI command's sweep the eager limit first.
    doc["host"]["caches"] = [{"level": 1, "bytes": 128, "instances": 1}]
    doc["mpi"] = {"eager_limits": [{"name": "made_up_eager_limit", "bytes": 64}]}
    (named,) = steps.sweep_steps(doc)[0]["steps"]
    assert named["cause"] == "eager limit (made_up_eager_limit = 64 B)" and named["also"] == ["L1 cache (128 B)"]
    # The page marks it on the sweep's plot as it marks the binary's.
    page = tmp_path / "osu.html"
    code, _, err = report("html", imported, "-o", page)
    assert code == 0, err
    assert ">x8 unexplained<" in page.read_text()
