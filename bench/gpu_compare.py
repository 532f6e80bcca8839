#!/usr/bin/env python3
"""gpu_compare.py: movebench's GPU figures beside nvbandwidth's and BabelStream's
in one job, in alternating rounds, as ratios against the goals of issue 12.

Runs binaries that are already built; builds nothing. nvbandwidth and
BabelStream's CUDA model (cuda-stream) are given by path: build them from
their public sources outside this repository (docs/performance.md, "CUDA").
Every round makes each run once, in an order that rotates by one every round:

  link-bw     movebench link bandwidth: pinned host memory for the copy
              engine, mapped for the kernel path, read/write/duplex, at
              nvbandwidth's buffer size, 16 timed transfers per test as its 16
  nvbw        nvbandwidth -j: host_to_device/device_to_host memcpy_ce, their
              bidirectional forms, the two memcpy_sm, host_device_latency_sm
  link-lat    movebench link latency on a host ring of nvbandwidth's 2 MiB:
              the chase from the SM the launch picks, then from each SM in
              turn (latency.chase_per_unit), as nvbandwidth chases
  mem         movebench mem --backend B at BabelStream's array size, twice:
              --timing host-sync (BabelStream's convention: the host's clock
              around each call, the queue finished after it) and --timing
              device (movebench's own: device events, the queue kept full)
  babelstream cuda-stream --csv, same size and repetitions
  stream      movebench stream: every design at 1 MiB chunks, then a sweep of
              small chunks (the round trip)

The goals (each checked on the median over rounds of the per-round ratio;
the spread is min..max of those ratios):
  link copy H2D, D2H          >= 0.98 x nvbandwidth memcpy_ce
  link copy duplex (each way) >= 0.95 x nvbandwidth bidirectional memcpy_ce
  link kernel H2D, D2H        >= 0.98 x nvbandwidth memcpy_sm
  link chase latency          within 5 % of nvbandwidth host_device_latency_sm,
                              in its statistic: the mean over every SM of
                              link's chase per unit; the median over SMs and
                              the chase from one SM beside it, judged against
                              nothing
  mem, each kernel with a BabelStream twin moving the same bytes, in
  BabelStream's convention (mem --timing host-sync)
                              >= 0.99 x BabelStream (copy/Copy, update/Mul,
                              triad/Triad, daxpy/Add), >= 0.98 (sum/Dot, as
                              rates); movebench's own convention (--timing
                              device) beside each, judged against nothing: the
                              two conventions differ by a launch and a wait
                              per call, which the default 2^29 elements keep
                              under 0.5 % of a call (its row says how much)
  mem, every kernel           >= 0.90 x the memory's peak (device clock x bus),
                              in movebench's own convention
  stream                      a design's small-chunk round trip <= 2 us, and
                              its 1 MiB-chunk throughput >= 0.90 x offload's

Writes OUT/context.txt, OUT/commands.txt, OUT/raw/, OUT/json/,
OUT/samples.tsv, OUT/summary.json and OUT/summary.md. Exit status 0 when
every run ran (goals met or not: the table says), 1 when a run failed,
2 on bad input.

    bench/gpu_compare.py --nvbandwidth ~/peers/nvbandwidth/nvbandwidth \\
        --babelstream ~/peers/BabelStream/build/cuda-stream --rounds 3
"""

import argparse
import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from rounds import Failed, OneLineParser, Runner, load_average, positive, rotated, run_job, stats

# nvbandwidth test case -> the movebench link figure that measures the same copy.
# nvbandwidth's bidirectional CE figure is the measured stream's own bytes while
# the other direction runs (its README, "Bandwidth calculation"): movebench's
# duplex.read / duplex.write, one direction each, count the same.
NVBW_TESTS = {
    "host_to_device_memcpy_ce": ("copy.read", 0.98),
    "device_to_host_memcpy_ce": ("copy.write", 0.98),
    "host_to_device_bidirectional_memcpy_ce": ("copy.duplex.read", 0.95),
    "device_to_host_bidirectional_memcpy_ce": ("copy.duplex.write", 0.95),
    "host_to_device_memcpy_sm": ("kernel.read", 0.98),
    "device_to_host_memcpy_sm": ("kernel.write", 0.98),
}
NVBW_LATENCY = "host_device_latency_sm"
NVBW_LATENCY_RING = 2 << 20  # nvbandwidth's latency buffer: 2 MiB whatever -b says

# movebench mem kernel -> the BabelStream kernel that moves the same bytes per
# element (movebench: copy c = a, update a = a*s, triad a = b + c*s,
# daxpy a = a + b*s, sum s += a; BabelStream: Copy c = a, Mul b = s*c,
# Triad a = b + s*c, Add c = a + b, Dot s += a*b). Dot reads two arrays and sum
# one, so they are compared as rates (MB/s), not times. init, striad and sdaxpy
# have no BabelStream twin: they meet the peak goal only.
BABELSTREAM_TWINS = {"copy": "Copy", "update": "Mul", "triad": "Triad", "daxpy": "Add", "sum": "Dot"}
MEM_KERNELS = ["init", "sum", "copy", "update", "triad", "daxpy", "striad", "sdaxpy"]

# mem's two timing conventions (mem --timing): BabelStream's, which every
# comparison with it is made in, and movebench's own, set beside it.
PEER_TIMING, OWN_TIMING = "host-sync", "device"
# A call's share that the two conventions may differ by at the compared size
# (issue 30: a launch under 0.5 % of a call).
TIMER_GAP_SHARE = 0.005

# The job's units: movebench's own, then each peer's (run only when given).
MOVEBENCH_UNITS = ["link-bw", "link-lat", "mem", "stream"]
PEER_UNITS = ["nvbw", "babelstream"]

STREAM_ROUNDTRIP_GOAL_NS = 2000.0
STREAM_THROUGHPUT_GOAL = 0.90


def parse_size(text):
    m = re.fullmatch(r"([1-9][0-9]*)([KMG]?)", text.strip().upper())
    if not m:
        raise argparse.ArgumentTypeError(f"a size such as 512M is needed, got '{text}'")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]


# ---- reading each tool's output -------------------------------------------


def nvbandwidth_figures(text):
    """({test case: value}, {what it says of itself}) from `nvbandwidth -j`
    (json_output.cpp: nvbandwidth.testcases[], each with name, status and
    bandwidth_matrix, rows of strings, 'N/A' where none). With one GPU the one
    number of the matrix is the figure: GB/s, or ns for latency."""
    start = text.find("{")
    if start < 0:
        raise Failed("nvbandwidth printed no JSON (was -j given?)")
    try:
        root = json.loads(text[start:]).get("nvbandwidth", {})
    except (ValueError, AttributeError) as e:
        raise Failed(f"nvbandwidth's JSON does not parse: {e}") from None
    about = {k: root.get(k) for k in ("version", "Driver Version", "CUDA Runtime Version", "GPU Device list")}
    out = {}
    for case in root.get("testcases", []):
        if not isinstance(case, dict) or case.get("status") != "Passed":
            continue
        rows = [row if isinstance(row, list) else [] for row in case.get("bandwidth_matrix", [])]
        cells = [v for row in rows for v in map(positive_number, row) if v is not None]
        if len(cells) == 1:
            out[case["name"]] = cells[0]
        elif cells:  # more than one GPU: GPU 0's column is the device movebench used (--device 0)
            first = positive_number(rows[0][0]) if rows[0] else None
            if first is not None:
                out[case["name"]] = first
    return out, about


def positive_number(cell):
    """A matrix cell as nvbandwidth writes it (a number as a string, or 'N/A'):
    its value when finite and above 0, else None."""
    try:
        value = float(str(cell))
    except ValueError:
        return None
    return value if 0 < value < float("inf") else None


def babelstream_figures(text):
    """{kernel: MB/s} from cuda-stream --csv (function,num_times,n_elements,sizeof,
    max_MB_per_sec,...): the best repetition, the first left out, MB = 10^6 B."""
    lines = [l for l in text.splitlines() if l.count(",") >= 4]
    if not lines or not lines[0].startswith("function"):
        raise Failed("BabelStream printed no CSV table (was --csv given?)")
    rows = csv.DictReader(io.StringIO("\n".join(lines)))
    rate = next((f for f in rows.fieldnames if f.startswith("max_") and f.endswith("_per_sec")), None)
    if rate != "max_MB_per_sec":
        raise Failed(f"BabelStream's rate column is {rate!r}, not max_MB_per_sec (its default unit, MB = 10^6 B)")
    rows = list(rows)
    return {row["function"]: float(row[rate]) for row in rows}, {int(row["n_elements"]) for row in rows}


def movebench_doc(path):
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise Failed(f"movebench's result document {path} does not read: {e}") from None
    if not doc.get("validated"):
        raise Failed("movebench did not validate")
    return doc


# The host memory each path is compared on: nvbandwidth's host buffers are
# page-locked driver allocations (cuMemHostAlloc), which its copy engine tests
# copy from and its SM tests' kernels reach through unified addressing. In
# movebench the copy path's is `pinned`; the kernel path runs on the kinds
# mapped into the device, and `mapped` is the same allocation mapped.
LINK_HOST_MEMORY = {"copy": "pinned", "kernel": "mapped"}


def link_bandwidths(doc, size):
    """{operation: MB/s}: each test's median at SIZE bytes on its path's host memory
    (nvbandwidth also reports the median of its trials)."""
    out = {}
    for t in doc.get("timings", []):
        path = t.get("operation", "").split(".")[0]
        if t.get("bytes") == size and t.get("params", {}).get("host_memory") == LINK_HOST_MEMORY.get(path):
            fig = t.get("figures", {}).get("bandwidth_median")
            if fig:
                out[t["operation"]] = fig["value"]
    return out


def best_call_seconds(doc):
    """{kernel: seconds}: the least time of one call of each mem kernel in the document."""
    out = {t["operation"]: min(t["samples"]) for t in doc.get("timings", []) if t.get("samples")}
    missing = [k for k in MEM_KERNELS if k not in out]
    if missing:
        raise Failed(f"movebench's document has no samples of {', '.join(missing)}")
    return out


def result(doc, key):
    fig = doc.get("results", {}).get(key)
    if not fig:
        raise Failed(f"movebench's document has no {key}")
    return fig["value"]


def unit_chase_figures(doc):
    """{'median': ns, 'mean': ns} over the units of link's chase per unit (its
    record's latency and latency_mean); {} where the device's clock resolved
    no unit's chase (PoCL's event clock can miss a chase that stays in cache)
    or the backend has no units."""
    for rec in doc.get("timings", []):
        figs = rec.get("figures", {})
        if rec.get("operation") == "latency.chase_per_unit" and "latency" in figs:
            return {"median": figs["latency"]["value"], "mean": figs["latency_mean"]["value"]}
    return {}


def stream_figures(doc):
    """{design: throughput MB/s at 1 MiB chunks} and {design: (chunk bytes, first-chunk
    latency ns, median chunk round trip ns)} at the sweep's smallest chunk."""
    throughput, roundtrip = {}, {}
    for t in doc.get("timings", []):
        params, figs = t.get("params", {}), t.get("figures", {})
        if "throughput" not in figs:
            continue
        if t["bytes"] == 1 << 20 and t["operation"] not in throughput:
            throughput[t["operation"]] = figs["throughput"]["value"]
        elif t["bytes"] < 1 << 20:
            seen = roundtrip.get(t["operation"])
            if seen is None or t["bytes"] < seen[0]:
                roundtrip[t["operation"]] = (
                    t["bytes"],
                    figs["latency"]["value"],
                    params["chunk_latency_median_s"] * 1e9,
                )
    return throughput, roundtrip


# ---- the job ----------------------------------------------------------------


class Comparison:
    def __init__(self, args):
        self.a = args
        self.out = Path(args.out)
        (self.out / "json").mkdir(parents=True, exist_ok=True)
        self.runner = Runner(self.out, args.timeout)
        self.samples = []  # dicts: round, tool, figure, value, unit
        self.failures = []
        self.peak = None
        self.nvbandwidth_about = None  # its version, driver and GPU list, from its own JSON

    def units(self):
        units = list(MOVEBENCH_UNITS)
        if self.a.nvbandwidth:
            units.append("nvbw")
        if self.a.babelstream:
            units.append("babelstream")
        if self.a.only:
            units = [u for u in units if u in self.a.only.split(",")]
        return units

    def record(self, r, tool, figure, value, unit):
        self.samples.append({"round": r, "tool": tool, "figure": figure, "value": value, "unit": unit})

    def movebench(self, r, unit, args):
        doc = self.out / "json" / f"r{r}_{unit}.json"
        self.runner.run(
            f"r{r}_{unit}.txt", [self.a.movebench] + args + ["--backend", self.a.backend, "--quiet", "--json", str(doc)]
        )
        return movebench_doc(doc)

    def measure(self, unit, r):
        """One unit of one round: its runs, each figure recorded."""
        getattr(self, "measure_" + unit.replace("-", "_"))(r)

    def measure_link_bw(self, r):
        unit = "link-bw"
        a = self.a
        # Each path on the host memory nvbandwidth uses for it (LINK_HOST_MEMORY), one run
        # each; a time budget above the tests' time, so every one of the repetitions runs.
        for path, kind in LINK_HOST_MEMORY.items():
            doc = self.movebench(
                r,
                f"{unit}-{path}",
                [
                    "link",
                    "bandwidth",
                    "--sizes-bytes",
                    str(a.link_bytes),
                    "--host-memory",
                    kind,
                    "--paths",
                    path,
                    "--directions",
                    "read,write,duplex",
                    "--repetitions",
                    str(a.link_repetitions),
                    "--time-budget",
                    "3600",
                    # nvbandwidth times 16 copies after warm-up ones; movebench's
                    # first transfer of a batch is its untimed warm-up
                    "--batch",
                    "17",
                ],
            )
            for op, value in link_bandwidths(doc, a.link_bytes).items():
                self.record(r, "movebench", f"link.{op}", value, "MB/s")

    def measure_link_lat(self, r):
        unit = "link-lat"
        steps = ["--steps", str(self.a.link_chase_steps)] if self.a.link_chase_steps else []
        doc = self.movebench(r, unit, ["link", "latency", "--ring-bytes", str(NVBW_LATENCY_RING), *steps])
        self.record(r, "movebench", "link.latency.chase", result(doc, "link.latency.chase"), "ns")
        for stat, value in unit_chase_figures(doc).items():
            self.record(r, "movebench", f"link.latency.chase_per_unit.{stat}", value, "ns")

    def measure_nvbw(self, r):
        unit = "nvbw"
        a = self.a
        tests = list(NVBW_TESTS) + [NVBW_LATENCY]
        text = self.runner.run(
            f"r{r}_{unit}.txt",
            [a.nvbandwidth, "-j", "-b", str(a.link_bytes >> 20), "-i", str(a.link_repetitions), "-t"] + tests,
        )
        figures, self.nvbandwidth_about = nvbandwidth_figures(text)
        for test, value in figures.items():
            if test == NVBW_LATENCY:
                self.record(r, "nvbandwidth", test, value, "ns")
            else:
                self.record(r, "nvbandwidth", test, value * 1000, "MB/s")  # GB/s = 10^9 B/s
        missing = [t for t in tests if t not in figures]
        if missing:
            raise Failed(f"nvbandwidth gave no figure for {', '.join(missing)}")

    def measure_mem(self, r):
        unit = "mem"
        a = self.a
        for timing in (PEER_TIMING, OWN_TIMING):
            doc = self.movebench(
                r,
                f"{unit}-{timing}",
                ["mem", "--elements", str(a.elements), "--repetitions", str(a.reps), "--timing", timing]
                + (["--type", "float"] if a.float else []),
            )
            if doc.get("settings", {}).get("mem", {}).get("timing") != timing:
                raise Failed(f"movebench's document does not record --timing {timing}")
            best = best_call_seconds(doc)
            for k in MEM_KERNELS:
                self.record(r, "movebench", f"mem.{timing}.{k}", result(doc, f"mem.{k}.{a.backend}"), "MB/s")
                self.record(r, "movebench", f"mem.{timing}.{k}.best_call", best[k], "s")
            if timing == OWN_TIMING:
                self.peak = (doc.get("mem_device") or {}).get("memory_peak_bytes_per_s") or self.peak

    def measure_babelstream(self, r):
        unit = "babelstream"
        a = self.a
        text = self.runner.run(
            f"r{r}_{unit}.txt",
            [a.babelstream, "--arraysize", str(a.elements), "--numtimes", str(a.reps), "--csv"]
            + (["--float"] if a.float else []),
        )
        figures, elements = babelstream_figures(text)
        if elements != {a.elements}:
            raise Failed(f"BabelStream ran {sorted(elements)} elements, not {a.elements}")
        for _kernel, twin in BABELSTREAM_TWINS.items():
            if twin not in figures:
                raise Failed(f"BabelStream printed no {twin}")
            self.record(r, "babelstream", twin, figures[twin], "MB/s")

    def measure_stream(self, r):
        unit = "stream"
        a = self.a
        doc = self.movebench(
            r, unit + "-1M", ["stream", "--chunks", str(a.stream_chunks), "--chunk-elements", str((1 << 20) // 4)]
        )
        throughput, _ = stream_figures(doc)
        # The sweep keeps chunks x chunk size constant: the total is two chunks of it
        # (two, as two are in flight).
        doc = self.movebench(
            r,
            unit + "-small",
            [
                "stream",
                "--chunks",
                "2",
                "--chunk-elements",
                str(a.stream_sweep_total // 8),
                "--sizes-bytes",
                a.stream_sweep,
            ],
        )
        _, roundtrip = stream_figures(doc)
        for design, value in throughput.items():
            self.record(r, "movebench", f"stream.{design}.throughput_1M", value, "MB/s")
        for design, (size, first, median) in roundtrip.items():
            self.record(r, "movebench", f"stream.{design}.roundtrip_{size}B", first, "ns")
            self.record(r, "movebench", f"stream.{design}.chunk_median_{size}B", median, "ns")

    def go(self):
        a, units = self.a, self.units()
        start = time.time()
        context = {
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "loadavg_start": load_average(),
            "gpu": gpu_description(),
            "cpu_model": cpu_model(),
            "movebench": " ".join(
                subprocess.run([a.movebench, "--version"], capture_output=True, text=True).stdout.split()[:3]
            ),
        }
        print(
            f"gpu_compare.py: {a.rounds} rounds x {len(units)} runs, backend {a.backend}, "
            f"GPU {context['gpu']} -> {self.out}",
            file=sys.stderr,
        )
        try:
            for r in range(a.rounds):
                for unit in rotated(units, r):
                    try:
                        self.measure(unit, r)
                    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
                        # a tool's output that does not read as its format: that run failed
                        self.failures.append(f"round {r} {unit}: output does not read ({type(e).__name__}: {e})")
                        print(f"gpu_compare.py: round {r} {unit}: output does not read: {e}", file=sys.stderr)
                    except Failed as e:
                        self.failures.append(f"round {r} {unit}: {e}")
                        print(f"gpu_compare.py: round {r} {unit}: {e}", file=sys.stderr)
                print(f"round {r + 1}/{a.rounds} done, {time.time() - start:.0f} s", file=sys.stderr)
        except KeyboardInterrupt:  # also SIGTERM (main): summarize what was measured
            self.failures.append("interrupted: the rounds after this point were not run")
        context["loadavg_end"] = load_average()
        if self.nvbandwidth_about:
            context["nvbandwidth"] = self.nvbandwidth_about
        context["seconds"] = round(time.time() - start)
        (self.out / "context.txt").write_text("".join(f"{k}: {v}\n" for k, v in context.items()))
        with open(self.out / "samples.tsv", "w") as f:
            f.write("round\ttool\tfigure\tvalue\tunit\n")
            for s in self.samples:
                f.write(f"{s['round']}\t{s['tool']}\t{s['figure']}\t{s['value']:.6g}\t{s['unit']}\n")
        summary = summarize(self.samples, self.peak, a, context, self.failures)
        (self.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        table = markdown(summary)
        (self.out / "summary.md").write_text(table)
        print(table)
        return 1 if self.failures else 0


def gpu_description():
    p = (
        subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.memory", "--format=csv,noheader"],
            capture_output=True,
            text=True,
        )
        if shutil.which("nvidia-smi")
        else None
    )
    return p.stdout.strip().splitlines()[0] if p and p.returncode == 0 and p.stdout.strip() else "no nvidia-smi"


def cpu_model():
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


# ---- ratios and goals -----------------------------------------------------------


def per_round(samples, tool, figure):
    return {s["round"]: s["value"] for s in samples if s["tool"] == tool and s["figure"] == figure}


def ratio_entry(name, ours, theirs, goal, test, unit, lower_is_better=False):
    """Ratios round by round (only rounds where both ran): ours/theirs for a rate,
    theirs/ours for a time, so that above 1 is always movebench ahead."""
    rounds = sorted(set(ours) & set(theirs))
    ratios = [(theirs[r] / ours[r]) if lower_is_better else (ours[r] / theirs[r]) for r in rounds]
    entry = {
        "figure": name,
        "unit": unit,
        "goal": goal,
        "movebench": stats(list(ours.values())) if ours else None,
        "peer": stats(list(theirs.values())) if theirs else None,
        "ratio": stats(ratios) if ratios else None,
    }
    entry["met"] = test(entry["ratio"]["median"]) if ratios else None
    return entry


def limit_entry(name, ours, limit, unit):
    """A time with a fixed bound as its goal: met when the median over rounds is within it."""
    entry = {
        "figure": name,
        "unit": unit,
        "goal": f"<= {limit:g} {unit}",
        "movebench": stats(list(ours.values())) if ours else None,
        "peer": None,
        "ratio": None,
    }
    entry["met"] = entry["movebench"]["median"] <= limit if ours else None
    return entry


AT_LEAST = {g: (lambda x, g=g: x >= g) for g in (0.90, 0.95, 0.98, 0.99, 1.00)}
# The goal against each BabelStream twin, in its convention: the four that move
# the same bytes, and the reduction (issue 30).
BABELSTREAM_GOALS = {"copy": 0.99, "update": 0.99, "triad": 0.99, "daxpy": 0.99, "sum": 0.98}


def link_rows(samples):
    """link's bandwidths and latency against nvbandwidth's twin tests."""
    rows = []
    for test, (op, goal) in NVBW_TESTS.items():
        rows.append(
            ratio_entry(
                f"link {op} vs nvbandwidth {test}",
                per_round(samples, "movebench", f"link.{op}"),
                per_round(samples, "nvbandwidth", test),
                f">= {goal:.2f}",
                AT_LEAST[goal],
                "MB/s",
            )
        )
    # nvbandwidth's latency is every SM's chase in turn, all launches' time over
    # all loads: the mean over SMs of link's chase per unit is its statistic.
    nvbw = per_round(samples, "nvbandwidth", NVBW_LATENCY)
    for name, figure, goal in (
        ("latency.chase_per_unit, mean over SMs, vs", "link.latency.chase_per_unit.mean", "0.95..1.05 (time)"),
        ("latency.chase_per_unit, median over SMs, beside", "link.latency.chase_per_unit.median", None),
        ("latency.chase, one SM, beside", "link.latency.chase", None),
    ):
        rows.append(
            ratio_entry(
                f"link {name} nvbandwidth {NVBW_LATENCY}",
                per_round(samples, "movebench", figure),
                nvbw,
                goal or "none: another statistic",
                (lambda x: 0.95 <= x <= 1.05) if goal else (lambda _x: None),
                "ns",
                lower_is_better=True,
            )
        )
    return rows


def timer_gap_entry(samples, kernel):
    """How much of a host-synchronised call the other convention leaves out: per round,
    (best host-sync call - best device-timed call) / best host-sync call."""
    ours = per_round(samples, "movebench", f"mem.{PEER_TIMING}.{kernel}.best_call")
    own = per_round(samples, "movebench", f"mem.{OWN_TIMING}.{kernel}.best_call")
    rounds = sorted(set(ours) & set(own))
    gaps = {r: (ours[r] - own[r]) * 1e6 for r in rounds}
    shares = [(ours[r] - own[r]) / ours[r] for r in rounds]
    entry = {
        "figure": f"mem {kernel}: host-sync call less device-timed call",
        "unit": "us",
        "goal": f"<= {TIMER_GAP_SHARE:g} of the call",
        "movebench": stats(list(gaps.values())) if gaps else None,
        "peer": None,
        "ratio": stats(shares) if shares else None,
    }
    entry["met"] = entry["ratio"]["median"] <= TIMER_GAP_SHARE if shares else None
    return entry


def mem_rows(samples, peak):
    """mem's kernels against BabelStream's twins in its convention, movebench's own
    convention beside each (judged against nothing), the gap between the two
    conventions per call and, given one, the memory's peak."""
    rows = []
    for kernel, twin in BABELSTREAM_TWINS.items():
        goal = BABELSTREAM_GOALS[kernel]
        rows.append(
            ratio_entry(
                f"mem {kernel} vs BabelStream {twin}",
                per_round(samples, "movebench", f"mem.{PEER_TIMING}.{kernel}"),
                per_round(samples, "babelstream", twin),
                f">= {goal:.2f}",
                AT_LEAST[goal],
                "MB/s",
            )
        )
        beside = ratio_entry(
            f"mem {kernel} (--timing device) beside BabelStream {twin}",
            per_round(samples, "movebench", f"mem.{OWN_TIMING}.{kernel}"),
            per_round(samples, "babelstream", twin),
            "none: another convention",
            lambda _x: None,
            "MB/s",
        )
        rows += [beside, timer_gap_entry(samples, kernel)]
    if peak:
        flat = {r: peak / 1e6 for r in {s["round"] for s in samples}}
        for kernel in MEM_KERNELS:
            rows.append(
                ratio_entry(
                    f"mem {kernel} vs memory peak",
                    per_round(samples, "movebench", f"mem.{OWN_TIMING}.{kernel}"),
                    flat,
                    ">= 0.90",
                    AT_LEAST[0.90],
                    "MB/s",
                )
            )
    return rows


def stream_rows(samples):
    """Each stream design's throughput against the offload design's, and its round trips against their bound."""
    rows = []
    designs = sorted({s["figure"].split(".")[1] for s in samples if s["figure"].startswith("stream.")})
    offload = per_round(samples, "movebench", "stream.offload.throughput_1M")
    for design in designs:
        if design == "offload":
            continue
        rows.append(
            ratio_entry(
                f"stream {design} 1 MiB chunks vs offload",
                per_round(samples, "movebench", f"stream.{design}.throughput_1M"),
                offload,
                f">= {STREAM_THROUGHPUT_GOAL:.2f}",
                AT_LEAST[0.90],
                "MB/s",
            )
        )
        for s in sorted({s["figure"] for s in samples if s["figure"].startswith(f"stream.{design}.roundtrip_")}):
            ours = per_round(samples, "movebench", s)
            rows.append(
                limit_entry(
                    f"stream {design} round trip ({s.rsplit('_', 1)[1]} chunks)", ours, STREAM_ROUNDTRIP_GOAL_NS, "ns"
                )
            )
    return rows


def summarize(samples, peak, args, context, failures):
    return {
        "statistic": "per round: movebench's and the peer's own figures (link, nvbandwidth: median of "
        "their trials; mem, BabelStream: best repetition; mem against BabelStream in its "
        "convention, --timing host-sync, with --timing device beside); ratio above 1 = "
        "movebench ahead; median (min..max) over rounds",
        "context": context,
        "peak_bytes_per_s": peak,
        "settings": {k: v for k, v in vars(args).items()},
        "rows": link_rows(samples) + mem_rows(samples, peak) + stream_rows(samples),
        "failures": failures,
    }


def markdown(summary):
    def cell(v, digits=0):
        return f"{v['median']:.{digits}f} ({v['min']:.{digits}f}..{v['max']:.{digits}f})" if v else "-"

    c = summary["context"]
    lines = [
        f"GPU: {c['gpu']}; host CPU: {c['cpu_model']}; {c['movebench']}; {c['date']}; "
        f"{summary['settings']['rounds']} rounds",
        "",
        "| figure | movebench | peer or goal | ratio (min..max) | goal | met |",
        "|---|---|---|---|---|---|",
    ]
    for row in summary["rows"]:
        met = {True: "yes", False: "NO", None: "not run"}[row["met"]]
        if row["goal"].startswith("none"):
            met = "-"
        lines.append(
            f"| {row['figure']} | {cell(row['movebench'])} {row['unit']} | {cell(row['peer'])} | "
            f"{cell(row['ratio'], 3)} | {row['goal']} | {met} |"
        )
    if summary["failures"]:
        lines += ["", "Failed runs:"] + [f"- {f}" for f in summary["failures"]]
    return "\n".join(lines) + "\n"


def add_link_options(p: argparse.ArgumentParser) -> None:
    """link-bw's and link-lat's sizes and counts."""
    p.add_argument(
        "--link-bytes",
        type=parse_size,
        default=512 << 20,
        help="bytes per copy, whole MiB (default 512M, nvbandwidth's default buffer)",
    )
    p.add_argument(
        "--link-repetitions",
        type=positive,
        default=3,
        help="link tests per size = nvbandwidth --testSamples (default 3, its default)",
    )
    p.add_argument(
        "--link-chase-steps",
        type=positive,
        help="link-lat: dependent loads per chase (link latency --steps; default link's own, 256: on an H200 the "
        "chase per load was the same at nvbandwidth's 7575 loads per SM, docs/performance.md)",
    )


def options() -> argparse.ArgumentParser:
    """The command line: the tools, the sizes and counts of each unit, which units to run."""
    p = OneLineParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--movebench", default="build/release/movebench")
    p.add_argument(
        "--backend",
        default="cuda",
        choices=["cuda", "opencl"],
        help="cuda (the goals' backend); opencl runs the same job on an OpenCL device",
    )
    p.add_argument("--nvbandwidth", help="nvbandwidth, built from NVIDIA/nvbandwidth")
    p.add_argument("--babelstream", help="BabelStream's cuda-stream (cmake -DMODEL=cuda)")
    p.add_argument("--rounds", type=positive, default=3)
    add_link_options(p)
    p.add_argument(
        "--elements",
        type=parse_size,
        default=1 << 29,
        help="mem and BabelStream array elements (default 2^29: 4 GiB of doubles per array, where a launch is "
        "under 0.5 %% of a call on a current GPU; BabelStream's own default is 2^25)",
    )
    p.add_argument(
        "--repetitions",
        "--reps",
        dest="reps",
        type=positive,
        default=100,
        help="mem and BabelStream repetitions (BabelStream's --numtimes)",
    )
    p.add_argument("--float", action="store_true", help="32-bit elements (mem --type float, BabelStream --float)")
    p.add_argument("--stream-chunks", type=positive, default=64, help="stream: 1 MiB chunks per pass")
    p.add_argument("--stream-sweep", default="64,256,4K", help="stream: the small chunk sizes for the round trip")
    p.add_argument(
        "--stream-sweep-total",
        type=parse_size,
        default=256 << 10,
        help="stream: bytes per pass in the small-chunk sweep (default 256K: 4096 chunks of 64 B, "
        "the most the graph design builds)",
    )
    p.add_argument(
        "--only",
        help="comma-separated units to run (link-bw, link-lat, mem, stream, nvbw, "
        "babelstream; default all that are given)",
    )
    p.add_argument("--timeout", type=positive, default=600, help="seconds one run may take")
    p.add_argument("--out", default=f"/tmp/gpu_compare.{datetime.now(timezone.utc):%Y%m%dT%H%M%SZ}")
    return p


def refusal(a) -> str | None:
    """What is wrong with the options that argparse cannot check, or None."""
    if a.link_bytes % (1 << 20):
        return "--link-bytes must be whole MiB (nvbandwidth's -b is in MiB)"
    for opt in ("movebench", "nvbandwidth", "babelstream"):
        path = getattr(a, opt)
        if path and not (Path(path).is_file() and os.access(path, os.X_OK)):
            return f"--{opt} '{path}' is not an executable"
    known = MOVEBENCH_UNITS + PEER_UNITS
    if a.only and not set(a.only.split(",")) <= set(known):
        return f"--only takes some of {', '.join(known)}, got '{a.only}'"
    return None


def main():
    a = options().parse_args()
    wrong = refusal(a)
    if wrong:
        print(f"gpu_compare.py: {wrong}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    return run_job(Comparison, a, "gpu_compare.py")


if __name__ == "__main__":
    sys.exit(main())
