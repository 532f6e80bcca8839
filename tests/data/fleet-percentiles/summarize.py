"""The fleet --percentiles comparison of docs/performance.md from the result
documents a run.sh wrote: per run, the median of its pair's latency records
(one-way ns, the pair's mean ping-pong each repeat); over the rounds, the
best and the median (min-max), with and without --percentiles.
Run: python3 tests/data/fleet-percentiles/summarize.py FOLDER"""

import glob
import json
import re
import statistics
import sys


def run_latency(path):
    with open(path) as f:
        doc = json.load(f)
    pair = [r["figures"]["latency"]["value"] for r in doc["timings"] if r["operation"] == "pair_latency"]
    return statistics.median(pair)


def main(folder):
    runs = {"on": [], "off": []}
    for path in sorted(glob.glob(f"{folder}/r*-*.json")):
        runs[re.search(r"-(on|off)\.json$", path)[1]].append(run_latency(path))
    off, on = runs["off"], runs["on"]
    cells = [f"{min(v):.0f} | {statistics.median(v):.0f} ({min(v):.0f}-{max(v):.0f})" for v in (off, on)]
    print("| runs | without: best | without: median (min-max) | with: best | with: median (min-max) |", end="")
    print(" best with / without | median with / without |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    ratios = f"{min(on) / min(off):.2f} | {statistics.median(on) / statistics.median(off):.2f}"
    print(f"| {len(off)} + {len(on)} | {cells[0]} | {cells[1]} | {ratios} |")


if __name__ == "__main__":
    main(sys.argv[1])
