"""The steps of a sweep (docs/results.md, "Steps") for the documents the
binary did not judge: a peer tool's output that `import` read (OSU, IMB,
mpiBench, STREAM ...) has records over growing sizes but no `steps`. Found
here by the binary's own method (src/core/change_points: the penalised
least-squares segmentation of log(value) into levels, which is PELT's
answer, found by ruptures' Pelt(model="l2", min_size=1, jump=1); sigma the
larger of the points' sample spread and the scatter between neighbouring
points, the penalty (4 sigma)^2 / 2; then its rules: floor (4 standard errors
between two levels), plateau, transition, cliff), and named as src/judge/steps names them, from the facts
the document holds (caches, TLBs, pages, the pinned-memory limit, MPI's eager
limits), else "unexplained". The constants and every rule are the C++'s;
tests/python/test_report_steps.py holds the two equal on the C++'s own cases and
on documents the binary judged."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

# src/core/change_points.hpp
DEFAULT_NOISE = 0.05
LEAST_NOISE = 0.01
FLOOR_SIGMAS = 4
LEAST_RATIO = 1.10
CLIFF_OVER_DRIFT = 2
DRIFT_POINTS = 4
LEVEL_POINTS = 3
TRANSITION_POINTS = 3
DRIFT_NOISE_SIGMAS = 2
BOUND_TIME_RATIO = 2
BOUND_SLOPE = 0.75
# src/judge/steps.hpp and steps.cpp
CAUSE_REACH = 2
LEAST_SWEEP_POINTS = 5
SWEPT_FIGURES = ("bandwidth", "latency", "throughput")
MPI_BENCHMARKS = ("p2p", "coll", "beff")


@dataclass
class SweepPoint:
    size: float
    value: float
    samples: list


def _log_sample_spread(samples: list) -> float:
    """1.4826 x the MAD of log(samples); -1 when fewer than three are positive."""
    logs = [math.log(s) for s in samples if isinstance(s, (int, float)) and s > 0]
    if len(logs) < 3:
        return -1
    mid = statistics.median(logs)
    return 1.4826 * statistics.median(abs(v - mid) for v in logs)


def sweep_noise(points: list) -> float:
    """The noise sigma of a sweep's log(value): the median of its points' spreads."""
    spreads = [s for s in (_log_sample_spread(p.samples) for p in points) if s >= 0]
    return max(statistics.median(spreads) if spreads else DEFAULT_NOISE, LEAST_NOISE)


def scatter_noise(y: list) -> float:
    """The scatter between neighbouring points: 1.4826 x the median of
    |y[i] - 2 y[i-1] + y[i-2]| over sqrt 6; 0 with fewer than three points."""
    if len(y) < 3:
        return 0.0
    return 1.4826 * statistics.median(abs(y[i] - 2 * y[i - 1] + y[i - 2]) for i in range(2, len(y))) / math.sqrt(6)


def segment_levels(y: list, penalty: float) -> list:
    """The first index of each level after the first: ruptures' PELT, l2 cost."""
    import numpy as np
    import ruptures  # loads in a second: only where an imported sweep is drawn

    found = ruptures.Pelt(model="l2", min_size=1, jump=1).fit(np.array(y).reshape(-1, 1)).predict(pen=penalty)
    return [int(b) for b in found[:-1]]


def _mean(y: list, start: int, end: int) -> float:
    return sum(y[start:end]) / (end - start)


def _beside(y: list, level_start: int, last: int, first: int, level_end: int, noise: float) -> tuple:
    """(drift, rate) beside a step: the steeper of the least-squares slopes
    of the (up to) DRIFT_POINTS points of either side, less DRIFT_NOISE_SIGMAS
    standard errors of that slope under the noise, and the change between
    their means per point between their middles."""
    lo = max(level_start, last + 1 - DRIFT_POINTS if last + 1 >= DRIFT_POINTS else 0)
    hi = min(level_end, first + DRIFT_POINTS)

    def slope_beyond_noise(side):
        m = len(side)
        if m < 2:
            return 0.0
        mid, mean = (m - 1) / 2, sum(side) / m
        slope = sum((i - mid) * (v - mean) for i, v in enumerate(side)) / (m * (m * m - 1) / 12)
        return max(0.0, abs(slope) - DRIFT_NOISE_SIGMAS * noise * math.sqrt(12 / (m * (m * m - 1))))

    apart = (first + hi - 1) / 2 - (lo + last) / 2
    drift = max(slope_beyond_noise(y[lo : last + 1]), slope_beyond_noise(y[first:hi]))
    return drift, abs(_mean(y, first, hi) - _mean(y, lo, last + 1)) / apart


@dataclass
class _Candidate:
    first_boundary: int
    boundaries: int
    before: int
    after: int
    start: float  # the mean log of the level before
    end: float  # and after
    n_before: int  # the points of the level before
    n_after: int  # and after
    drift: float
    rate: float


def _candidates(y: list, bounds: list, noise: float) -> list:
    """One step per boundary, or per run of changes the same way with
    TRANSITION_POINTS points or fewer between them (a transition)."""
    starts = [0, *bounds, len(y)]
    means = [_mean(y, starts[i], starts[i + 1]) for i in range(len(starts) - 1)]
    out, b = [], 0
    while b < len(bounds):
        first, level_start, before = b, starts[b], starts[b + 1] - 1
        start, end, after = means[b], means[b + 1], starts[b + 1]
        while (
            b + 1 < len(bounds)
            and starts[b + 2] - before - 1 <= TRANSITION_POINTS
            and (means[b + 2] - means[b + 1]) * (end - start) > 0
        ):
            b += 1
            after, end = starts[b + 1], means[b + 1]
        n_before, n_after = before + 1 - level_start, starts[b + 2] - after
        drift, rate = _beside(y, level_start, before, after, starts[b + 2], noise)
        out.append(_Candidate(first, b + 1 - first, before, after, start, end, n_before, n_after, drift, rate))
        b += 1
    return out


def _step_floor(noise: float, n_before: int, n_after: int) -> float:
    """The least change in log between two levels of n_before and n_after points."""
    return max(FLOOR_SIGMAS * noise * math.sqrt(1 / n_before + 1 / n_after), math.log(LEAST_RATIO))


def _above_the_floor(y: list, bounds: list, noise: float) -> list:
    """The boundaries left once each one whose two levels differ by less than
    their floor is taken away, the weakest first."""
    bounds = list(bounds)
    while bounds:
        starts = [0, *bounds, len(y)]
        means = [_mean(y, starts[i], starts[i + 1]) for i in range(len(starts) - 1)]
        margins = [
            abs(means[b + 1] - means[b]) / _step_floor(noise, starts[b + 1] - starts[b], starts[b + 2] - starts[b + 1])
            for b in range(len(bounds))
        ]
        weakest = min(range(len(bounds)), key=lambda b: margins[b])
        if margins[weakest] >= 1:
            break
        del bounds[weakest]
    return bounds


def _least_change(y: list, bounds: list, first: int, count: int) -> int:
    """Of the boundaries first .. first + count - 1, the one whose two levels differ least."""
    starts = [0, *bounds, len(y)]

    def change(b):
        return abs(_mean(y, starts[b + 1], starts[b + 2]) - _mean(y, starts[b], starts[b + 1]))

    return min(range(first, first + count), key=change)


def overhead_bound_points(points: list) -> int:
    """The leading points of a rate's sweep bound by a fixed cost per call:
    each one's time per call (size / value) under BOUND_TIME_RATIO x the least
    up to it, LEVEL_POINTS or more of them, the least-squares slope of
    log(value) over log(size) across them BOUND_SLOPE or more; 0: none."""
    x, y, least_time = [], [], math.inf
    for p in points:
        if not (_positive(p.value) and _positive(p.size)):
            return 0
        time = math.log(p.size) - math.log(p.value)
        least_time = min(least_time, time)
        if x and time - least_time >= math.log(BOUND_TIME_RATIO):
            break
        x.append(math.log(p.size))
        y.append(math.log(p.value))
    if len(x) < LEVEL_POINTS:
        return 0
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    return len(x) if sxx > 0 and sxy / sxx >= BOUND_SLOPE else 0


def _positive(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 and math.isfinite(v)


def find_steps(points: list, rate: bool = False) -> tuple:
    """(noise, floor_ratio, [{"before", "after", "size_before", "size",
    "from", "to", "ratio"}], bound_points) of a sweep whose points are in
    order of size; of a rate (rate=True: bandwidth, throughput) past the
    leading points a fixed cost per call binds (bound_points)."""
    bound = overhead_bound_points(points) if rate else 0
    points = points[bound:]
    values = [p.value for p in points]
    valid = len(values) >= 3 and all(isinstance(v, (int, float)) and v > 0 and math.isfinite(v) for v in values)
    y = [math.log(v) for v in values] if valid else []
    noise = max(sweep_noise(points), scatter_noise(y))
    floor_ratio = math.exp(_step_floor(noise, LEVEL_POINTS, LEVEL_POINTS))
    if not valid:
        return noise, floor_ratio, [], bound
    bounds = _above_the_floor(y, segment_levels(y, (FLOOR_SIGMAS * noise) ** 2 / 2), noise)
    while True:  # take away the weakest failing step until every one holds
        candidates = _candidates(y, bounds, noise)
        weakest, weakest_margin = None, 1
        for c in candidates:
            floor = _step_floor(noise, c.n_before, c.n_after)
            drift = CLIFF_OVER_DRIFT * c.drift
            plateaus = min(c.n_before, c.n_after) >= LEVEL_POINTS
            margin = min(abs(c.end - c.start) / floor, c.rate / drift if drift > 0 else 1.0) if plateaus else 0.0
            if margin < weakest_margin:
                weakest, weakest_margin = c, margin
        if weakest is None:
            break
        del bounds[_least_change(y, bounds, weakest.first_boundary, weakest.boundaries)]
    steps = [
        {
            "before": bound + c.before,
            "after": bound + c.after,
            "size_before": points[c.before].size,
            "size": points[c.after].size,
            "from": math.exp(c.start),
            "to": math.exp(c.end),
            "ratio": math.exp(c.end - c.start),
        }
        for c in candidates
    ]
    return noise, floor_ratio, steps, bound


def _bytes_text(n: float) -> str:
    """The binary's format_bytes (src/core/sizes.cpp), so that a cause reads as the binary names it."""
    units, u = ("B", "KiB", "MiB", "GiB", "TiB"), 0
    while n >= 1024 and u < 4:
        n /= 1024
        u += 1
    return f"{n:.0f} B" if u == 0 else f"{n:.2f} {units[u]}"


def _number(value) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _at(doc, *keys):
    for k in keys:
        doc = doc.get(k) if isinstance(doc, dict) else None
    return doc


def _share_cause(caches) -> list:
    """[(name, bytes, least bytes)]: the host's last cache level's share
    (src/judge/steps.cpp, add_share_cause)."""
    levels = [c for c in caches if isinstance(c, dict)] if isinstance(caches, list) else []
    if len(levels) < 2:
        return []
    below, last = levels[-2], levels[-1]
    size, below_size = _number(last.get("bytes")), _number(below.get("bytes"))
    if size <= 0 or below_size <= 0:
        return []
    n_below = _number(below.get("instances"))
    shared = (
        f" shared by {n_below:.0f} L{_number(below.get('level')):.0f}s: other cores', or guests', lines hold part of it"
        if _number(last.get("instances")) < n_below
        else ", the last level: other cores', or guests', lines may hold part of it"
    )
    return [(f"L{_number(last.get('level')):.0f} cache's share ({_bytes_text(size)}{shared})", size, below_size)]


def step_causes(doc: dict, benchmark: str, huge_pages: bool) -> list:
    """[(name, bytes, least bytes)] the document's facts offer as causes
    (src/judge/steps.cpp, step_causes): least bytes 0 for a size, the range's
    start for a last level's share."""
    # An MPI command's eager limits first: on a tie (a 4 KiB limit and the page size) the limit names the step.
    eager = [
        (f"eager limit ({e.get('name', '?')} = {_bytes_text(_number(e['bytes']))})", _number(e["bytes"]), 0)
        for e in (_at(doc, "mpi", "eager_limits") or [] if benchmark in MPI_BENCHMARKS else [])
        if isinstance(e, dict) and _number(e.get("bytes")) > 0
    ]
    device = doc.get("mem_device") if benchmark == "mem" else None
    on_device = isinstance(device, dict) and "caches" in device
    caches = device["caches"] if on_device else _at(doc, "host", "caches")
    out = [
        (f"L{c.get('level', 0)} cache ({_bytes_text(_number(c.get('bytes')))})", _number(c.get("bytes")), 0)
        for c in (caches if isinstance(caches, list) else [])
        if isinstance(c, dict) and _number(c.get("bytes")) > 0
    ]
    if on_device:
        return eager + out
    out += _share_cause(caches)
    facts = doc.get("facts") if isinstance(doc.get("facts"), dict) else {}
    thp = _at(facts, "settings", "thp", "value")
    # Huge pages asked for and allowed: not the base pages' causes; THP "always": both.
    huge_asked = huge_pages and thp != "never"
    huge_used = huge_asked or thp == "always"
    for level in _at(facts, "cpu", "tlb", "levels") or []:
        page, entries = _number(_at(level, "page_bytes")), _number(_at(level, "entries"))
        if page > 0 and entries > 0 and (huge_used if page > 4096 else not huge_asked):
            reach = f"{entries:.0f} x {_bytes_text(page)} pages = {_bytes_text(page * entries)}"
            out.append((f"L{_number(level.get('level')):.0f} TLB reach ({reach})", page * entries, 0))
    page = _number(_at(facts, "settings", "page_bytes", "value"))
    if page > 0 and not huge_asked:
        out.append((f"page size ({_bytes_text(page)})", page, 0))
    huge = _number(_at(facts, "settings", "page_bytes", "huge_bytes"))
    if huge > 0 and huge_used:
        out.append(
            (f"huge page size ({_bytes_text(huge)}, THP {thp if isinstance(thp, str) and thp else 'unknown'})", huge, 0)
        )
    memlock = _number(_at(facts, "settings", "memlock_bytes", "value"))
    if memlock > 0 and benchmark in ("link", "stream", *MPI_BENCHMARKS):
        out.append((f"pinned-memory limit (ulimit -l, {_bytes_text(memlock)})", memlock, 0))
    return eager + out


def causes_of(size_before: float, size: float, causes: list, to_the_end: bool = False) -> list:
    """The causes within a factor CAUSE_REACH of the step's span, nearest (in
    log of size) first; a last level's share where the step goes `to_the_end`
    and its span lies between the level below and a CAUSE_REACH-th of the
    last level (src/judge/steps.hpp, causes_of)."""
    fit = []
    for name, n, least in causes:
        if least > 0:
            if to_the_end and least <= size_before and size * CAUSE_REACH <= n:
                fit.append((0.0, name))
            continue
        if n < size_before / CAUSE_REACH or n > size * CAUSE_REACH:
            continue
        distance = math.log(size_before / n) if n < size_before else math.log(n / size) if n > size else 0.0
        fit.append((distance, name))
    return [name for _, name in sorted(fit, key=lambda f: f[0])]


def goes_to_the_end(step: dict, end: float) -> bool:
    """The step takes its figure at least half the way (in log) from its level
    to `end`, the level its sweep ends at."""
    way = math.log(end / step["from"])
    return way != 0 and math.log(step["to"] / step["from"]) / way >= 0.5


def named_steps(steps: list, causes: list) -> list:
    """The document's form of a sweep's steps (src/judge/steps.cpp, named_steps)."""
    out = []
    end = steps[-1]["to"] if steps else 1.0
    for s in steps:
        fit = causes_of(s["size_before"], s["size"], causes, goes_to_the_end(s, end))
        cause = fit[0] if fit else "unexplained"
        if out and out[-1]["cause"] == cause != "unexplained" and (out[-1]["ratio"] > 1) == (s["ratio"] > 1):
            last = out[-1]  # one transition, cut in two: one step
            last.update(to=s["to"], size=s["size"], ratio=s["to"] / last["from"])
            continue
        out.append(
            {k: s[k] for k in ("from", "to", "size_before", "size", "ratio")} | {"cause": cause, "also": fit[1:]}
        )
    return out


def _series(timings: list) -> list:
    """[(benchmark, operation, figure, memory, unit, huge_pages, [SweepPoint])]
    of the records of one benchmark, operation, figure and memory kind
    (params.host_memory, "" where none) over growing sizes."""
    done, open_ = [], {}
    for t in timings:
        if not isinstance(t, dict):
            continue
        figures = t.get("figures") if isinstance(t.get("figures"), dict) else {}
        for name in SWEPT_FIGURES:
            figure = figures.get(name)
            if not isinstance(figure, dict) or not isinstance(figure.get("value"), (int, float)):
                continue
            if isinstance(figure["value"], bool):
                continue
            memory = _at(t, "params", "host_memory")
            key = (
                str(t.get("benchmark", "")),
                str(t.get("operation", "")),
                name,
                memory if isinstance(memory, str) else "",
            )
            size = _number(t.get("bytes"))
            series = open_.setdefault(key, [key, "", False, []])
            if series[3] and series[3][-1].size >= size:
                done.append(series)
                series = open_[key] = [key, "", False, []]
            series[1] = str(figure.get("unit", ""))
            series[2] = _at(t, "params", "huge_pages") is True
            samples = t.get("samples") if isinstance(t.get("samples"), list) else []
            series[3].append(SweepPoint(size, float(figure["value"]), samples))
    done += [open_[key] for key in sorted(open_)]  # the binary's order: broken off first, then by key
    return [(*key, unit, huge, pts) for key, unit, huge, pts in done if len(pts) >= LEAST_SWEEP_POINTS]


def sweep_steps(doc: dict) -> list:
    """Every sweep's steps, as the binary writes a document's `steps`."""
    out = []
    for bench, op, figure, memory, unit, huge, points in _series(doc.get("timings") or []):
        noise, floor_ratio, steps, bound = find_steps(points, rate=figure != "latency")
        out.append(
            {
                "benchmark": bench,
                "operation": op,
                "figure": figure,
                "unit": unit,
                "points": len(points),
                "noise": noise,
                "floor_ratio": floor_ratio,
                "steps": named_steps(steps, step_causes(doc, bench, huge)),
            }
            | ({"memory": memory} if memory else {})
            | ({"overhead_bound": {"points": bound, "through": points[bound - 1].size}} if bound else {})
        )
    return out


def _significant(value: float) -> str:
    """The binary's significant_text (src/core/figure.cpp): four significant digits, no trailing zeros."""
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    text = f"{value:.{max(0, 3 - math.floor(math.log10(abs(value))))}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def step_lines(sweeps: list) -> list:
    """The lines the binary prints under its tables (src/judge/steps.cpp, print_step_lines)."""
    out = []
    for sweep in sweeps:
        memory = f", {sweep['memory']} host memory" if sweep.get("memory") else ""
        none = " none above the noise floor" if not sweep["steps"] else ""
        out.append(
            f"steps of {sweep['benchmark']} {sweep['operation']} {sweep['figure']}{memory}"
            f" (noise floor x{_significant(sweep['floor_ratio'])}):{none}"
        )
        if "overhead_bound" in sweep:
            bound = sweep["overhead_bound"]
            out.append(
                f"  up to {_bytes_text(bound['through'])} ({bound['points']} points): bound by a fixed cost per call"
                f" (a launch, a pass, a transfer's set-up), each call's time within x{_significant(BOUND_TIME_RATIO)}"
                " of the least; no steps sought there"
            )
        for s in sweep["steps"]:
            line = (
                f"  {_bytes_text(s['size_before'])} -> {_bytes_text(s['size'])}: {_significant(s['from'])} ->"
                f" {_significant(s['to'])} {sweep['unit']} (x{_significant(s['ratio'])}): {s['cause']}"
            )
            out.append(line + (f"; also fits: {', '.join(s['also'])}" if s["also"] else ""))
    return out


def main(argv=None) -> int:
    """python -m movebench_report.steps FILE...: each result file's sweeps
    judged again by this rule (whatever `steps` it holds), printed as the binary prints them."""
    import argparse
    import json
    import sys

    parser = argparse.ArgumentParser(prog="python -m movebench_report.steps", description=main.__doc__)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    for name in args.files:
        try:
            with open(name, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"movebench_report.steps: {name}: {e}", file=sys.stderr)
            return 2
        print(f"== {name}")
        print("\n".join(step_lines(sweep_steps(doc))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
