"""The coll --percentiles comparison of docs/performance.md from the raw outputs
beside this file: per operation and size, the best and the median (min-max)
over the rounds of mpiBench's Avg (us), with and without --percentiles.
Run: python3 tests/data/coll-percentiles/summarize.py tests/data/coll-percentiles"""

import glob
import re
import statistics
import sys

LINE = re.compile(r"^(\w+)\s+Bytes:\s+(\d+)\s+Iters:\s+\d+\s+Avg:\s+([\d.]+)")


def spread(values):
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main(folder):
    rows = {}
    for path in sorted(glob.glob(f"{folder}/r*-*.txt")):
        mode = re.search(r"-(on|off)\.txt$", path)[1]
        with open(path) as f:
            for line in f:
                if m := LINE.match(line):
                    rows.setdefault((m[1], int(m[2]), mode), []).append(float(m[3]))
    print(
        "| operation | size | without: best | without: median (min-max) | with: best | with: median (min-max) "
        "| best with / without | median with / without |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for op, size in sorted({k[:2] for k in rows}):
        off, on = rows[(op, size, "off")], rows[(op, size, "on")]
        best = min(on) / min(off)
        middle = statistics.median(on) / statistics.median(off)
        print(
            f"| {op} | {size} B | {min(off):.2f} | {spread(off)} | {min(on):.2f} | {spread(on)} "
            f"| {best:.2f} | {middle:.2f} |"
        )


if __name__ == "__main__":
    main(sys.argv[1])
