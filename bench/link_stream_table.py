#!/usr/bin/env python3
"""The link bandwidth table of docs/performance.md from runs of bench/link_stream.sh.

Each cell is the median over the runs of that figure: the average bandwidth
(the tests' median in brackets) or, for duplex, the total (overlap in brackets).
Usage: bench/link_stream_table.py DIR [DIR ...]
"""

import collections
import json
import statistics
import sys

BACKENDS = {
    "host": ("host", ["pageable", "pinned"]),
    "opencl": ("PoCL", ["pageable", "pinned", "mapped", "registered"]),
}
SIZES = [64 << 10, 16 << 20]


def load(dirs):
    """(backend, kind, path, operation, bytes) -> [(average, median, overlap)] over the runs."""
    found = collections.defaultdict(list)
    for run in dirs:
        for backend in BACKENDS:
            with open(f"{run}/link_bw_{backend}.json") as f:
                doc = json.load(f)
            for rec in doc["timings"]:
                fig = {name: x["value"] for name, x in rec["figures"].items()}
                par = rec["params"]
                key = (backend, par["host_memory"], par["path"], rec["operation"], rec["bytes"])
                found[key].append((fig["bandwidth"], fig["bandwidth_median"], par.get("overlap")))
    return found


def cell(values):
    if not values:
        return None
    average = statistics.median(v[0] for v in values)
    if values[0][2] is not None:
        return f"{average:.0f} ({statistics.median(v[2] for v in values):.2f})"
    return f"{average:.0f} ({statistics.median(v[1] for v in values):.0f})"


def size_text(n):
    return f"{n >> 10} KiB" if n < 1 << 20 else f"{n >> 20} MiB"


def main(dirs):
    found = load(dirs)
    for backend, (label, kinds) in BACKENDS.items():
        for kind in kinds:
            for path in ("copy", "kernel"):
                for size in SIZES:
                    cells = [
                        cell(found.get((backend, kind, path, f"{path}.{op}", size)))
                        for op in ("read", "write", "duplex.total")
                    ]
                    if cells[0] is None:
                        continue
                    row = " | ".join(c or "-" for c in cells)
                    print(f"| {label}, {kind} | {path} | {size_text(size)} | {row} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: bench/link_stream_table.py DIR [DIR ...]")
    main(sys.argv[1:])
