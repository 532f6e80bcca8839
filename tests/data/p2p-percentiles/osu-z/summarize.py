"""OSU's osu_latency -z against movebench p2p -z, from the raw outputs a
run.sh wrote: per size and figure (the mean and the P50, P90 and P99 tail
columns, one-way us: the first four figure columns of both tables), the
median over the rounds (of every FOLDER given, pooled) with its range, and
movebench's median over OSU's.
Run: python3 tests/data/p2p-percentiles/osu-z/summarize.py FOLDER [FOLDER...]"""

import glob
import re
import statistics
import sys

FIGURES = ("mean", "P50", "P90", "P99")


def tables(folders):
    """{(tool, size, figure): [one value per round]} from r<round>-<tool>.txt."""
    values = {}
    for path in sorted(p for folder in folders for p in glob.glob(f"{folder}/r*-*.txt")):
        tool = re.search(r"-(osu|movebench)\.txt$", path)[1]
        with open(path) as f:
            for line in f:
                fields = line.split()
                if fields and fields[0].isdigit():
                    for name, text in zip(FIGURES, fields[1:5]):
                        values.setdefault((tool, int(fields[0]), name), []).append(float(text))
    return values


def main(folders):
    values = tables(folders)
    print("| size | figure | OSU median (min-max) | movebench median (min-max) | movebench / OSU |")
    print("| --- | --- | --- | --- | --- |")
    for size in sorted({k[1] for k in values}):
        for name in FIGURES:
            osu, mine = values[("osu", size, name)], values[("movebench", size, name)]
            cells = [f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})" for v in (osu, mine)]
            ratio = statistics.median(mine) / statistics.median(osu)
            print(f"| {size} B | {name} | {cells[0]} | {cells[1]} | {ratio:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
