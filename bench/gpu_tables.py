#!/usr/bin/env python3
"""gpu_tables.py: the tables of docs/performance.md's GPU sections, made from the
committed outputs of a GPU job (tests/data/gpu/<date>-<device>/, tests/data/peers,
tests/data/results), and the numbers those files hold, which
tests/integration/test_gpu_docs.py holds every figure of those tables against.

  gpu_tables.py babelstream BABELSTREAM_CSV MEM_JSON [MEM_JSON ...]

prints mem's kernels beside BabelStream's twins (one markdown table): each
kernel's best call and rate in each timing convention the documents were
measured in (settings.mem.timing; a document without it is movebench's own,
`device`), the ratio to BabelStream's rate, and what BabelStream's call
takes beyond movebench's device-timed one (the launch and the host's wait its
convention counts). Exit 2 on bad input.
"""

import csv
import gzip
import io
import json
import re
import sys
from pathlib import Path

# movebench mem kernel -> BabelStream's kernel that moves the same bytes per element
# (bench/gpu_compare.py's table: the comparison it makes).
BABELSTREAM_TWINS = {"copy": "Copy", "update": "Mul", "triad": "Triad", "daxpy": "Add", "sum": "Dot"}
TIMINGS = ("host-sync", "device")  # BabelStream's convention first, then movebench's own

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def read_text(path):
    """A committed file's text; .gz files unpacked."""
    path = Path(path)
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def json_numbers(value):
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield float(value)
    elif isinstance(value, dict):
        for v in value.values():
            yield from json_numbers(v)
    elif isinstance(value, list):
        for v in value:
            yield from json_numbers(v)


def held_numbers(paths):
    """Every number the files under `paths` hold: each one printed in their text, and
    every number of a JSON document (.json, .json.gz) as stored."""
    out = set()
    for root in paths:
        root = Path(root)
        for path in sorted([root] if root.is_file() else root.rglob("*")):
            if not path.is_file():
                continue
            text = read_text(path)
            out.update(float(m) for m in NUMBER.findall(text))
            if path.name.endswith((".json", ".json.gz")):
                out.update(json_numbers(json.loads(text)))
    return out


def babelstream_calls(text):
    """{function: (best call s, MB/s)} and the element counts, from BabelStream's --csv output."""
    lines = [line for line in text.splitlines() if line.count(",") >= 4]
    if not lines or not lines[0].startswith("function"):
        raise ValueError("no BabelStream --csv table")
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    calls = {r["function"]: (float(r["min_runtime"]), float(r["max_MB_per_sec"])) for r in rows}
    return calls, {int(r["n_elements"]) for r in rows}


def mem_calls(doc):
    """{kernel: (best call s, MB/s)} of a mem bandwidth document, its timing convention and elements."""
    mem = doc.get("settings", {}).get("mem", {})
    calls = {}
    for t in doc.get("timings", []):
        if t.get("benchmark") == "mem" and t.get("samples"):
            calls[t["operation"]] = (min(t["samples"]), t["figures"]["bandwidth"]["value"])
    return calls, mem.get("timing", "device"), mem.get("elements")


def babelstream_table(babelstream_text, docs):
    """Markdown rows: every BabelStream twin, BabelStream's best call and rate, then
    each convention's (in TIMINGS order) best call, rate and ratio to BabelStream's rate."""
    peer, elements = babelstream_calls(babelstream_text)
    ours = {}
    for doc in docs:
        calls, timing, n = mem_calls(doc)
        if {n} != elements:
            raise ValueError(f"mem ran {n} elements, BabelStream {sorted(elements)}")
        ours[timing] = calls
    timings = [t for t in TIMINGS if t in ours]
    head = ["mem kernel", "BabelStream", "BabelStream: best call, us (MB/s)"]
    for t in timings:
        head += [f"mem --timing {t}: best call, us (MB/s)", "ratio of rates"]
    head.append("BabelStream's call less mem's device-timed call, us")
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for kernel, twin in BABELSTREAM_TWINS.items():
        p_call, p_rate = peer[twin]
        cells = [f"`{kernel}`", twin, f"{p_call * 1e6:.1f} ({p_rate:.0f})"]
        for t in timings:
            call, rate = ours[t][kernel]
            cells += [f"{call * 1e6:.1f} ({rate:.0f})", f"{rate / p_rate:.3f}"]
        # sum reads one array where Dot reads two: their calls are not the same bytes
        gap = "-" if kernel == "sum" or "device" not in ours else f"{(p_call - ours['device'][kernel][0]) * 1e6:.1f}"
        lines.append("| " + " | ".join(cells + [gap]) + " |")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) < 4 or argv[1] != "babelstream":
        print(
            "gpu_tables.py: usage: gpu_tables.py babelstream BABELSTREAM_CSV MEM_JSON [MEM_JSON ...]", file=sys.stderr
        )
        return 2
    try:
        docs = [json.loads(read_text(p)) for p in argv[3:]]
        sys.stdout.write(babelstream_table(read_text(argv[2]), docs))
    except (OSError, ValueError, KeyError) as e:
        print(f"gpu_tables.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
