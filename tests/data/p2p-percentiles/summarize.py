"""The p2p --percentiles comparison of docs/performance.md from the raw outputs
beside this file: per size, the best and the median (min-max) over the rounds
of the mean latency (us), with and without --percentiles.
Run: python3 tests/data/p2p-percentiles/summarize.py tests/data/p2p-percentiles"""

import glob
import re
import statistics
import sys


def spread(values):
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main(folder):
    rows = {}
    for path in sorted(glob.glob(f"{folder}/r*-*.txt")):
        mode = re.search(r"-(on|off)\.txt$", path)[1]
        with open(path) as f:
            for line in f:
                if line[:1].isdigit():
                    size, avg = line.split()[:2]
                    rows.setdefault((int(size), mode), []).append(float(avg))
    print(
        "| size | without: best | without: median (min-max) | with: best | with: median (min-max) | best with / without | median with / without |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for size in sorted({k[0] for k in rows}):
        off, on = rows[(size, "off")], rows[(size, "on")]
        best = min(on) / min(off)
        middle = statistics.median(on) / statistics.median(off)
        print(
            f"| {size} B | {min(off):.2f} | {spread(off)} | {min(on):.2f} | {spread(on)} | {best:.2f} | {middle:.2f} |"
        )


if __name__ == "__main__":
    main(sys.argv[1])
