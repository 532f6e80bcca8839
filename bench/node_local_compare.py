#!/usr/bin/env python3
"""node_local_compare.py: `movebench node`'s local cell of one NUMA node (its
CPUs on its own memory) beside TheBandwidthBenchmark (sum, triad) and
multichase (the idle chase) pinned the same way, alternating, with medians,
spreads and ratios.

Runs binaries that are already built; builds nothing. Build the peers outside
this repository (docs/performance.md, "node numa: the local cell against
TheBandwidthBenchmark and multichase"). Pinned as node's local cell is: the
bandwidth peer on the node's CPUs with one OpenMP thread per core
(`numactl --cpunodebind=N --membind=N`, OMP_PLACES=cores, OMP_PROC_BIND=close),
the chase on the node's first CPU (`numactl --physcpubind=C --membind=N`),
arrays and ring of the same bytes as node's (--array-bytes), the chase with
node's 64 B stride and no TLB window (multichase -T the whole ring). node
itself runs with --numa-nodes N (it pins and binds its own cells). Each round
runs the three tools once, in an order that rotates by one every round.

Writes OUT/context.txt, OUT/commands.txt, OUT/raw/ (every output), OUT/json/
(node's documents), OUT/summary.json and OUT/summary.md. Exit status 2 on bad
input.
"""

import json
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from rounds import Failed, OneLineParser, Runner, load_average, positive, rotated, run_job, stats

STRIDE = 64  # node's chase stride (src/node/node_numa.cpp)
# figure: (node's kernel, its figure, the peer, higher is better)
FIGURES = {
    "sum": ("sum", "bandwidth", "tbb", True),
    "triad": ("triad", "bandwidth", "tbb", True),
    "chase": ("chase", "latency", "multichase", False),
}


def cpus_of(node):
    """The node's CPUs, and one per core (the first of each core, as node's team)."""
    text = Path(f"/sys/devices/system/node/node{node}/cpulist").read_text().strip()
    cpus = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        cpus += range(int(lo), int(hi or lo) + 1)
    cores = {}
    for c in cpus:
        topo = Path(f"/sys/devices/system/cpu/cpu{c}/topology")
        key = ((topo / "physical_package_id").read_text(), (topo / "core_id").read_text())
        cores.setdefault(key, c)
    return cpus, sorted(cores.values())


def number(text, pattern, what):
    m = re.search(pattern, text, re.M)
    if not m:
        raise Failed(f"no {what} in the output")
    return float(m.group(1))


class Compare:
    def __init__(self, args):
        self.args = args
        self.out = Path(args.out)
        (self.out / "json").mkdir(parents=True, exist_ok=True)
        self.runner = Runner(self.out, args.timeout)
        self.samples = {f: {"movebench": [], "peer": []} for f in FIGURES}
        self.failures = []

    def measure(self, tool, r):
        a, n = self.args, self.args.node
        cpus, per_core = cpus_of(n)
        name = f"r{r}_{tool}.txt"
        if tool == "movebench":
            doc = self.out / "json" / f"r{r}_movebench.json"
            command = [a.movebench, "node", "--parts", "numa", "--numa-nodes", str(n)]
            command += ["--array-bytes", str(a.array_bytes), "--time-budget", str(a.time_budget), "--json", str(doc)]
            self.runner.run(name, command)
            for figure, (kernel, key, _, _) in FIGURES.items():
                cell = [
                    rec
                    for rec in json.loads(doc.read_text())["timings"]
                    if rec["benchmark"] == "node"
                    and rec["params"].get("kernel") == kernel
                    and rec["params"]["initiator"] == n
                    and rec["params"]["target"] == n
                ]
                if not cell:
                    raise Failed(f"no local {kernel} cell in {doc}")
                self.samples[figure]["movebench"].append(cell[0]["figures"][key]["value"])
        elif tool == "tbb":
            env = {"OMP_NUM_THREADS": str(len(per_core)), "OMP_PLACES": "cores", "OMP_PROC_BIND": "close"}
            command = ["numactl", f"--cpunodebind={n}", f"--membind={n}", a.tbb]
            command += ["-s", str(a.array_bytes // 8), "-n", str(a.reps)]
            text = self.runner.run(name, command, env)
            if "Solution Validates" not in text:
                raise Failed("TheBandwidthBenchmark did not validate")
            for figure, label in (("sum", "Sum"), ("triad", "Triad")):  # GB/s (1e9 B/s)
                self.samples[figure]["peer"].append(1000 * number(text, rf"^{label}\s+([0-9.]+)", label))
        else:
            size = str(a.array_bytes)
            command = ["numactl", f"--physcpubind={cpus[0]}", f"--membind={n}", a.multichase]
            command += ["-s", str(STRIDE), "-m", size, "-T", size]
            text = self.runner.run(name, command)
            self.samples["chase"]["peer"].append(number(text, r"^\s*([0-9.]+)\s*$", "latency"))

    def go(self):
        a = self.args
        start = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "load": load_average()}
        for r in range(a.rounds):
            for tool in rotated(["movebench", "tbb", "multichase"], r):
                try:
                    self.measure(tool, r)
                except Failed as e:
                    self.failures.append(f"round {r} {tool}: {e}")
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        (self.out / "context.txt").write_text(
            f"start {start['date']}, load {start['load']}; end load {load_average()}\n"
            f"node {a.node}: CPUs {cpus_of(a.node)[0]}, one per core {cpus_of(a.node)[1]}\n\n{lscpu}"
        )
        return self.summarize()

    def summarize(self):
        summary, lines = (
            {},
            ["| figure | movebench median (min..max) | peer median (min..max) | ratio median (min..max) |"],
        )
        lines.append("| --- | --- | --- | --- |")
        for figure, (_, _, peer, higher) in FIGURES.items():
            mb, pe = self.samples[figure]["movebench"], self.samples[figure]["peer"]
            if not mb or not pe:
                continue
            # Per round, movebench over the peer (both ran in that round).
            ratios = [m / p for m, p in zip(mb, pe)]
            summary[figure] = {"peer": peer, "movebench": stats(mb), "peer_figures": stats(pe), "ratio": stats(ratios)}
            s = summary[figure]
            lines.append(
                f"| {figure} ({'MB/s' if higher else 'ns'}; {peer}) | {s['movebench']['median']:.1f} "
                f"({s['movebench']['min']:.1f}..{s['movebench']['max']:.1f}) | {s['peer_figures']['median']:.1f} "
                f"({s['peer_figures']['min']:.1f}..{s['peer_figures']['max']:.1f}) | {s['ratio']['median']:.3f} "
                f"({s['ratio']['min']:.3f}..{s['ratio']['max']:.3f}) |"
            )
        summary["failures"] = self.failures
        (self.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
        (self.out / "summary.md").write_text("\n".join(lines + [f"failed: {f}" for f in self.failures]) + "\n")
        print("\n".join(lines))
        return 1 if self.failures else 0


def main():
    p = OneLineParser(prog="node_local_compare.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--movebench", required=True, help="the movebench binary")
    p.add_argument("--tbb", required=True, help="TheBandwidthBenchmark's bwbench-GCC")
    p.add_argument("--multichase", required=True, help="multichase's multichase")
    p.add_argument("--out", required=True, help="folder for the raw outputs and the summary")
    p.add_argument("--node", type=int, default=0, help="the NUMA node whose local cell is compared (default 0)")
    p.add_argument("--array-bytes", type=positive, default=128 << 20, help="bytes per array and of the ring")
    p.add_argument("--rounds", type=positive, default=5)
    p.add_argument("--reps", type=positive, default=10, help="TheBandwidthBenchmark's -n")
    p.add_argument("--time-budget", type=positive, default=10, help="node's --time-budget, seconds")
    p.add_argument("--timeout", type=positive, default=300, help="seconds one run may take")
    args = p.parse_args()
    if not Path(f"/sys/devices/system/node/node{args.node}/cpulist").exists():
        p.error(f"--node {args.node}: no such NUMA node")
    return run_job(Compare, args, p.prog)


if __name__ == "__main__":
    sys.exit(main())
