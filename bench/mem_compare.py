#!/usr/bin/env python3
"""mem_compare.py: all eight `movebench mem` kernels beside the peers that run
the same operation on the same bytes, interleaved, with medians and ratios.

Runs binaries that are already built; builds nothing. Peers are optional and
given by path (build them outside this repository: docs/performance.md,
"Peers and kernel mapping"). Per round and thread count every run (movebench,
each peer, each likwid-bench kernel) is made once, in an order that rotates by
one every round. Every tool reports its best repetition (likwid-bench: the
mean of its iterations); the summary gives, per kernel and thread count, the
median over rounds, the spread (min..max over rounds) and the ratio of
movebench's median to the best peer's median.

Bytes are counted as STREAM and TheBandwidthBenchmark count them, without
write-allocate traffic: init 8 B/element, sum 8, copy 16, update 16, triad 24,
daxpy 24, striad 32, sdaxpy 32. A peer's kernel is compared only where it
computes the same thing on the same arrays (PEER_KERNELS below); STREAM's
scale and add, BabelStream's mul, add, dot and nstream, and likwid-bench's
load, update (no multiply) and ddot have no movebench kernel and are not run.

With --movebench-before, an earlier movebench build is one more run of each
round (the same options), and the summary gives the ratio of the two builds'
medians per kernel (after / before: a change's bars of performance, issue
20); it is never counted as a peer.

Writes OUT/context.txt (CPU model, lscpu, load average at start and end),
OUT/commands.txt, OUT/raw/ (every output), OUT/json/ (movebench --json
documents), OUT/samples.tsv (one figure per line), OUT/summary.json and
OUT/summary.md. Exit status 2 on bad input.
"""

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from rounds import Failed, OneLineParser, Runner, load_average, positive, rotated, run_job, stats

KERNELS = ["init", "sum", "copy", "update", "triad", "daxpy", "striad", "sdaxpy"]
# movebench's table label per kernel (also TheBandwidthBenchmark's, without ':').
LABELS = {
    "init": "Init",
    "sum": "Sum",
    "copy": "Copy",
    "update": "Update",
    "triad": "Triad",
    "daxpy": "Daxpy",
    "striad": "STriad",
    "sdaxpy": "SDaxpy",
}
BYTES_PER_ELEMENT = {
    "init": 8,
    "sum": 8,
    "copy": 16,
    "update": 16,
    "triad": 24,
    "daxpy": 24,
    "striad": 32,
    "sdaxpy": 32,
}

# Which peer kernel is the same operation on the same bytes as movebench's
# (movebench: init b = s, sum s += a, copy c = a, update a = a*s,
# triad a = b + c*s, daxpy a = a + b*s, striad a = b + c*d, sdaxpy a = a + b*c).
PEER_KERNELS = {
    # TheBandwidthBenchmark: what movebench mem grew from, the same eight kernels.
    "tbb": {k: LABELS[k] for k in KERNELS},
    "tbb_nt": {k: LABELS[k] for k in KERNELS},
    # STREAM: Copy c = a, Triad a = b + s*c. (Scale b = s*c is out of place,
    # Add c = a + b has no scalar: neither is a movebench kernel.)
    "stream": {"copy": "Copy", "triad": "Triad"},
    # BabelStream: Copy c = a, Triad a = b + s*c. (Mul b = s*c, Add, Dot
    # (reads two arrays), Nstream a += b + s*c: no movebench kernel.)
    "babelstream": {"copy": "Copy", "triad": "Triad"},
    # likwid-bench (its bench/x86-64/*.ptt, `likwid-bench -l KERNEL`): the plain
    # and the non-temporal (_mem) variant where one exists; the best median
    # counts. store: A = s (8 B); sum: s += A (8 B, 1 flop); copy A = B (16 B);
    # stream: A = B*s + C (24 B); daxpy: A = A + s*B (24 B, in place);
    # triad: A = B*C + D (32 B). Not mapped: update (A = A, 0 flops: no
    # multiply), load (0 flops: no sum), ddot (two arrays), and nothing is
    # a + b*c in place (sdaxpy). Suffix from --likwid-isa, e.g. _avx512.
    "likwid": {
        "init": ["store", "store_mem"],
        "sum": ["sum"],
        "copy": ["copy", "copy_mem"],
        "triad": ["stream", "stream_mem"],
        "daxpy": ["daxpy", "daxpy_mem"],
        "striad": ["triad", "triad_mem"],
    },
    # glibc memcpy of the same arrays, each thread its slice (bench/memcpy_reference.cpp).
    "memcpy": {"copy": "memcpy"},
}
# likwid-bench's stream count per kernel: its -w size is the total of all streams.
LIKWID_STREAMS = {"store": 1, "sum": 1, "copy": 2, "stream": 3, "daxpy": 2, "triad": 4}


def number(text, pattern, what):
    m = re.search(pattern, text, re.MULTILINE)
    if not m:
        raise Failed(f"no {what} in the output")
    return float(m.group(1))


class Comparison:
    def __init__(self, args):
        self.args = args
        self.out = Path(args.out)
        for d in ("raw", "json"):
            (self.out / d).mkdir(parents=True, exist_ok=True)
        self.samples = []  # dicts: round, threads, tool, variant, kernel, MBps, load
        self.shapes = []  # movebench's params.shape per kernel, where it reports one
        self.failures = []
        # Peers place their OpenMP threads as movebench does (--bind close).
        env = dict(os.environ)
        env.setdefault("OMP_PROC_BIND", "close")
        env.setdefault("OMP_PLACES", "cores")
        self.runner = Runner(self.out, args.timeout, env)

    # One run: its output kept in raw/, its command in commands.txt, bounded by --timeout.
    def run(self, name, command, threads):
        return self.runner.run(name, command, {"OMP_NUM_THREADS": str(threads)})

    def units(self):
        """Every run of one round, as (tool, variant or None)."""
        a = self.args
        units = [("movebench", None)]
        if a.movebench_before:
            units.append(("movebench_before", None))
        if a.memcpy_reference:
            units.append(("memcpy", None))
        for tool, path in (("stream", a.stream), ("tbb", a.tbb), ("tbb_nt", a.tbb_nt), ("babelstream", a.babelstream)):
            if path:
                units.append((tool, None))
        if a.likwid_bench:
            for _kernel, variants in PEER_KERNELS["likwid"].items():
                units += [("likwid", v + a.likwid_isa) for v in variants]
        return units

    def record(self, r, t, tool, variant, kernel, mbps, load):
        self.samples.append(
            {"round": r, "threads": t, "tool": tool, "variant": variant, "kernel": kernel, "MBps": mbps, "load": load}
        )

    def measure(self, tool, variant, t, r):
        name = f"r{r}_t{t}_{tool}{'_' + variant if variant else ''}.txt"
        load = load_average()
        if tool in ("movebench", "movebench_before"):
            self.measure_movebench(name, tool, t, r, load)
        elif tool == "likwid":
            self.measure_likwid(name, variant, t, r, load)
        else:
            self.measure_peer(name, tool, t, r, load)

    def measure_movebench(self, name, tool, t, r, load):
        """One run of this movebench (or --movebench-before): every kernel's row, and the shapes it chose."""
        a, n = self.args, self.args.n
        binary = a.movebench if tool == "movebench" else a.movebench_before
        doc = self.out / "json" / f"{tool}_r{r}_t{t}.json"
        text = self.run(
            name,
            [
                binary,
                "mem",
                "--elements",
                str(n),
                "--threads",
                str(t),
                "--repetitions",
                str(a.reps),
                "--bind",
                "close",
                "--json",
                str(doc),
            ]
            + shlex.split(a.movebench_args),
            t,
        )
        if "Solution Validates" not in text:
            raise Failed(f"{tool} did not validate")
        for k in KERNELS:
            self.record(r, t, tool, None, k, number(text, rf"^{LABELS[k]}:\s+([0-9.]+)", f"{LABELS[k]}: row"), load)
        if tool == "movebench":
            self.read_shapes(doc, r, t)

    def measure_peer(self, name, tool, t, r, load):
        """One run of a peer that measures every kernel (or memcpy_reference, copy alone) in one run."""
        a, n = self.args, self.args.n
        if tool == "memcpy":
            text = self.run(name, [a.memcpy_reference, "-n", str(n), "-t", str(t), "-r", str(a.reps)], t)
            self.record(r, t, tool, None, "copy", number(text, r"best_MBps=([0-9.]+)", "best_MBps"), load)
        elif tool == "stream":
            text = self.run(name, [a.stream], t)
            if f"Array size = {n} " not in text:
                raise Failed(f"{a.stream} was not built with -DSTREAM_ARRAY_SIZE={n}")
            if "Solution Validates" not in text:
                raise Failed("STREAM did not validate")
            for k, label in PEER_KERNELS[tool].items():
                self.record(r, t, tool, None, k, number(text, rf"^{label}:\s+([0-9.]+)", label), load)
        elif tool in ("tbb", "tbb_nt"):
            binary = a.tbb if tool == "tbb" else a.tbb_nt
            text = self.run(name, [binary, "-s", str(n), "-n", str(a.reps)], t)
            if "Solution Validates" not in text:
                raise Failed("TheBandwidthBenchmark did not validate")
            for k, label in PEER_KERNELS[tool].items():  # it prints GB/s (1e9 B/s)
                self.record(r, t, tool, None, k, 1000 * number(text, rf"^{label}\s+([0-9.]+)", label), load)
        elif tool == "babelstream":
            text = self.run(name, [a.babelstream, "-s", str(n), "-n", str(a.reps)], t)
            for k, label in PEER_KERNELS[tool].items():  # MBytes/sec (1e6 B/s), the default
                self.record(r, t, tool, None, k, number(text, rf"^{label}\s+([0-9.]+)", label), load)

    def measure_likwid(self, name, variant, t, r, load):
        """One run of likwid-bench: one kernel's variant."""
        a, n = self.args, self.args.n
        base = variant[: -len(a.likwid_isa)] if a.likwid_isa else variant
        kernel = next(k for k, vs in PEER_KERNELS["likwid"].items() if base in vs)
        size = 8 * n * LIKWID_STREAMS[base.replace("_mem", "")]
        # likwid-bench reads a size in bytes as a 32-bit int; its kB is 1000 B.
        if size < 2**31:
            size = f"{size}B"
        elif size % 1000 == 0:
            size = f"{size // 1000}kB"
        else:
            raise Failed(f"{size} B is too large for likwid-bench in B and not whole kB")
        text = self.run(name, [a.likwid_bench, "-t", variant, "-w", f"S0:{size}:{t}", "-i", str(a.reps)], t)
        self.record(r, t, "likwid", variant, kernel, number(text, r"^MByte/s:\s+([0-9.]+)", "MByte/s"), load)

    def read_shapes(self, doc, r, t):
        """The shape movebench chose per kernel (params.shape), where it reports one."""
        try:
            timings = json.loads(doc.read_text()).get("timings", [])
        except (OSError, ValueError):
            return
        for rec in timings:
            params = rec.get("params", {})
            if "shape" in params:
                self.shapes.append(
                    {
                        "round": r,
                        "threads": t,
                        "kernel": rec.get("operation"),
                        "shape": params["shape"],
                        "nontemporal": params.get("nontemporal"),
                    }
                )

    def context(self):
        """Where and when the comparison runs: date, host, lscpu, load, the movebench builds' versions."""
        a = self.args
        context = {
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "host": f"{os.uname().nodename} {os.uname().release}",
            "cpu": subprocess.run(["lscpu"], capture_output=True, text=True).stdout,
            "loadavg_start": load_average(),
            "movebench": subprocess.run([a.movebench, "--version"], capture_output=True, text=True)
            .stdout.strip()
            .splitlines()[:1],
            "movebench_before": subprocess.run([a.movebench_before, "--version"], capture_output=True, text=True)
            .stdout.strip()
            .splitlines()[:1]
            if a.movebench_before
            else None,
        }
        context["cpu_model"] = next(
            (l.split(":", 1)[1].strip() for l in context["cpu"].splitlines() if l.startswith("Model name:")), "unknown"
        )
        return context

    def measure_rounds(self, units, start):
        """Every round, each unit at each thread count; a failed run is noted and the rounds go on."""
        a = self.args
        try:
            for r in range(a.rounds):
                for t in a.threads:
                    for tool, variant in rotated(units, r):
                        try:
                            self.measure(tool, variant, t, r)
                        except Failed as e:
                            msg = f"round {r} threads {t} {tool} {variant or ''}: {e}"
                            self.failures.append(msg)
                            print(f"mem_compare.py: {msg}", file=sys.stderr)
                print(
                    f"round {r + 1}/{a.rounds} done, load {load_average()}, {time.time() - start:.0f} s",
                    file=sys.stderr,
                )
        except KeyboardInterrupt:  # also SIGTERM (main): summarize what was measured
            self.failures.append("interrupted: the rounds after this point were not run")

    def write_results(self, context):
        """context.txt, samples.tsv, summary.json and summary.md in the output folder; the table on stdout."""
        (self.out / "context.txt").write_text(
            "".join(f"{k}: {v}\n" for k, v in context.items() if k != "cpu") + "lscpu:\n" + context["cpu"]
        )
        with open(self.out / "samples.tsv", "w") as f:
            f.write("round\tthreads\ttool\tvariant\tkernel\tMBps\tload\n")
            for s in self.samples:
                f.write(
                    f"{s['round']}\t{s['threads']}\t{s['tool']}\t{s['variant'] or ''}\t{s['kernel']}\t"
                    f"{s['MBps']:.2f}\t{s['load']}\n"
                )
        summary = summarize(self.samples, self.args, context, self.shapes, self.failures)
        (self.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        table = markdown(summary)
        (self.out / "summary.md").write_text(table)
        print(table)

    def go(self):
        a = self.args
        units = self.units()
        start = time.time()
        context = self.context()
        print(
            f"mem_compare.py: {a.rounds} rounds x threads {a.threads} x {len(units)} runs, "
            f"N={a.n}, REPS={a.reps}, CPU {context['cpu_model']}, load {context['loadavg_start']} "
            f"-> {self.out}",
            file=sys.stderr,
        )
        self.measure_rounds(units, start)
        context["loadavg_end"] = load_average()
        context["seconds"] = round(time.time() - start)
        self.write_results(context)
        print(f"mem_compare.py: results in {self.out}", file=sys.stderr)
        return 1 if self.failures else 0


def summarize(samples, args, context, shapes, failures):
    threads = sorted({s["threads"] for s in samples})
    results = []
    for kernel in KERNELS:
        for t in threads:
            groups = {}
            for s in samples:
                if s["kernel"] == kernel and s["threads"] == t:
                    groups.setdefault((s["tool"], s["variant"]), []).append(s["MBps"])
            tools = {}
            for (tool, variant), xs in groups.items():
                entry = dict(stats(xs), variant=variant)
                # likwid-bench: the variant (plain or _mem) with the best median.
                if tool not in tools or entry["median"] > tools[tool]["median"]:
                    tools[tool] = entry
            entry = {
                "kernel": kernel,
                "threads": t,
                "bytes_per_element": BYTES_PER_ELEMENT[kernel],
                "tools": tools,
                "ratios": {},
            }
            mb = tools.get("movebench", {}).get("median")
            peers = [p for p in tools if p not in ("movebench", "movebench_before")]
            if mb:
                entry["ratios"] = {p: mb / tools[p]["median"] for p in peers}
            if mb and "movebench_before" in tools:
                entry["ratio_before"] = mb / tools["movebench_before"]["median"]
            best = max(peers, key=lambda p: tools[p]["median"], default=None)
            if best:
                entry["best_peer"] = best
                if mb:
                    entry["ratio_best_peer"] = mb / tools[best]["median"]
            entry["shapes"] = sorted({str(s["shape"]) for s in shapes if s["kernel"] == kernel and s["threads"] == t})
            results.append(entry)
    return {
        "unit": "MB/s (1e6 B/s), bytes per element as STREAM counts them, no write-allocate",
        "statistic": "median over rounds of each run's best repetition (likwid-bench: mean of its "
        "iterations); min..max over rounds",
        "settings": {
            "n": args.n,
            "reps": args.reps,
            "rounds": args.rounds,
            "threads": args.threads,
            "movebench_args": args.movebench_args,
            "likwid_isa": args.likwid_isa,
        },
        "cpu_model": context["cpu_model"],
        "host": context["host"],
        "date": context["date"],
        "loadavg_start": context["loadavg_start"],
        "loadavg_end": context.get("loadavg_end"),
        "movebench_version": context["movebench"],
        "mapping": PEER_KERNELS,
        "results": results,
        "shapes": shapes,
        "failures": failures,
    }


def median_cell(v):
    return f"{v['median']:.0f} ({v['min']:.0f}..{v['max']:.0f})" if v else "-"


def best_peer_table(results):
    """Per kernel and thread count: movebench, the best peer and their ratio."""
    threads = sorted({e["threads"] for e in results})
    head = ["kernel"]
    for t in threads:
        head += [f"movebench {t}t", f"best peer {t}t", f"ratio {t}t"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for kernel in KERNELS:
        row = [kernel]
        for t in threads:
            e = next(x for x in results if x["kernel"] == kernel and x["threads"] == t)
            best = e.get("best_peer")
            shape = f" [{', '.join(e['shapes'])}]" if e["shapes"] else ""
            row += [
                median_cell(e["tools"].get("movebench")) + shape,
                f"{median_cell(e['tools'][best])} {best}{' ' + e['tools'][best]['variant'] if e['tools'][best]['variant'] else ''}"
                if best
                else "-",
                f"{e['ratio_best_peer']:.2f}" if "ratio_best_peer" in e else "-",
            ]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def every_tool_table(results):
    """Per kernel and thread count: every tool's figure (likwid: its best variant)."""
    tools = []
    for e in results:
        tools += [t for t in e["tools"] if t not in tools]
    lines = [
        "",
        "Every tool (likwid: its best variant per kernel)",
        "",
        "| kernel | threads | " + " | ".join(tools) + " |",
        "|" + "---|" * (len(tools) + 2),
    ]
    for e in results:
        cells = []
        for tool in tools:
            v = e["tools"].get(tool)
            cells.append(median_cell(v) + (f" {v['variant']}" if v and v["variant"] else ""))
        lines.append(f"| {e['kernel']} | {e['threads']} | " + " | ".join(cells) + " |")
    return lines


def markdown(summary):
    results = summary["results"]
    lines = [
        f"CPU: {summary['cpu_model']}; load average {summary['loadavg_start']} at start, "
        f"{summary['loadavg_end']} at end; N={summary['settings']['n']}, "
        f"{summary['settings']['rounds']} rounds, {summary['date']}",
        "",
        "Median MB/s over rounds (min..max); ratio = movebench median / best peer median",
        "",
    ]
    lines += best_peer_table(results) + every_tool_table(results)
    before = [e for e in results if "ratio_before" in e]
    if before:
        lines += [
            "",
            "This build against --movebench-before (median / median)",
            "",
            "| kernel | threads | after / before |",
            "|---|---|---|",
        ]
        lines += [f"| {e['kernel']} | {e['threads']} | {e['ratio_before']:.3f} |" for e in before]
    if summary["failures"]:
        lines += ["", "Failed runs:"] + [f"- {f}" for f in summary["failures"]]
    return "\n".join(lines) + "\n"


def main():
    def threads(text):
        return [positive(x) for x in text.replace(",", " ").split()]

    p = OneLineParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--movebench", default="build/release/movebench")
    p.add_argument(
        "--movebench-before", help="an earlier movebench build, measured beside --movebench (after / before)"
    )
    p.add_argument("--memcpy-reference", help="bench/memcpy_reference (default: beside --movebench)")
    p.add_argument("--stream", help="McCalpin's stream.c built with -DSTREAM_ARRAY_SIZE=N")
    p.add_argument("--tbb", help="TheBandwidthBenchmark bwbench-GCC (plain build)")
    p.add_argument("--tbb-nt", help="TheBandwidthBenchmark built with -DAVX512_INTRINSICS")
    p.add_argument("--babelstream", help="BabelStream omp-stream")
    p.add_argument("--likwid-bench", help="likwid-bench")
    p.add_argument(
        "--likwid-isa", default="_avx512", help="likwid-bench kernel suffix (default _avx512; '' for scalar)"
    )
    p.add_argument(
        "-n", "--elements", dest="n", type=positive, default=80000000, help="elements per array (default 80000000)"
    )
    # movebench's name (docs/options.md); the older --reps is still taken.
    p.add_argument(
        "--repetitions", "--reps", dest="reps", type=positive, default=10, help="timed repetitions inside each run"
    )
    p.add_argument("--rounds", type=positive, default=5)
    p.add_argument("--threads", type=threads, default=[1, 2], help="thread counts, e.g. '1,2'")
    p.add_argument("--movebench-args", default="", help="extra options, e.g. '--nt-stores off'")
    p.add_argument("--timeout", type=positive, default=900, help="seconds one run may take")
    p.add_argument("--out", default=f"/tmp/mem_compare.{datetime.now(timezone.utc):%Y%m%dT%H%M%SZ}")
    a = p.parse_args()
    if a.memcpy_reference is None:
        candidate = Path(a.movebench).parent / "memcpy_reference"
        a.memcpy_reference = str(candidate) if os.access(candidate, os.X_OK) else None
        if not a.memcpy_reference:
            print(f"mem_compare.py: no memcpy_reference beside {a.movebench}: skipped", file=sys.stderr)
    for opt in (
        "movebench",
        "movebench_before",
        "memcpy_reference",
        "stream",
        "tbb",
        "tbb_nt",
        "babelstream",
        "likwid_bench",
    ):
        path = getattr(a, opt)
        if path and not os.access(path, os.X_OK):
            print(f"mem_compare.py: --{opt.replace('_', '-')} '{path}' is not an executable", file=sys.stderr)
            return 2
    if not a.threads:
        print("mem_compare.py: --threads needs at least one thread count", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    return run_job(Comparison, a, "mem_compare.py")


if __name__ == "__main__":
    sys.exit(main())
