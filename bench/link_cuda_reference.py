#!/usr/bin/env python3
"""movebench link (CUDA, pinned copies) beside the same copies made by PyTorch
or CuPy in the same run, as ratios: the issue-4 goal is H2D and D2H at least
0.98 of the reference. Needs a GPU; not run in CI.

    bench/link_cuda_reference.py --bin build/release/movebench --sizes-bytes 64M,256M
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile


def parse_sizes(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    out = []
    for item in text.split(","):
        item = item.strip().upper()
        out.append(int(item[:-1]) * units[item[-1]] if item[-1] in units else int(item))
    return out


def torch_rate(size, reps, direction):
    """MB/s of `reps` pinned copies queued back to back on one stream, timed by CUDA events."""
    import torch
    host = torch.empty(size, dtype=torch.uint8, pin_memory=True)
    dev = torch.empty(size, dtype=torch.uint8, device="cuda")
    stream = torch.cuda.Stream()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def copy():
        if direction == "read":
            dev.copy_(host, non_blocking=True)
        else:
            host.copy_(dev, non_blocking=True)

    with torch.cuda.stream(stream):
        copy()  # warm-up
        start.record(stream)
        for _ in range(reps):
            copy()
        end.record(stream)
    end.synchronize()
    return size * reps / (start.elapsed_time(end) * 1e-3) / 1e6


def cupy_rate(size, reps, direction):
    import cupy
    host = cupy.cuda.alloc_pinned_memory(size)
    dev = cupy.cuda.alloc(size)
    stream = cupy.cuda.Stream(non_blocking=True)
    kind = cupy.cuda.runtime.memcpyHostToDevice if direction == "read" else cupy.cuda.runtime.memcpyDeviceToHost
    dst, src = (dev.ptr, host.ptr) if direction == "read" else (host.ptr, dev.ptr)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    cupy.cuda.runtime.memcpyAsync(dst, src, size, kind, stream.ptr)
    start.record(stream)
    for _ in range(reps):
        cupy.cuda.runtime.memcpyAsync(dst, src, size, kind, stream.ptr)
    end.record(stream)
    end.synchronize()
    return size * reps / (cupy.cuda.get_elapsed_time(start, end) * 1e-3) / 1e6


def reference(size, reps, direction, trials):
    for name, fn in (("pytorch", torch_rate), ("cupy", cupy_rate)):
        try:
            rates = sorted(fn(size, reps, direction) for _ in range(trials))
            return name, rates[len(rates) // 2]
        except ImportError:
            continue
    sys.exit("neither PyTorch nor CuPy is importable: nothing to compare with")


def movebench_command(binary, sizes, count, batch, out):
    """The movebench run, in the shared option names (docs/options.md)."""
    return [binary, "link", "bandwidth", "--backend", "cuda", "--paths", "copy", "--directions", "read,write",
            "--host-memory", "pinned", "--sizes-bytes", ",".join(map(str, sizes)), "--repetitions", str(count),
            "--batch", str(batch), "--json", out]


def movebench_rates(binary, sizes, count, batch):
    """Median MB/s per (operation, bytes) of one movebench run; exits with its code if it fails."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "link.json")
        proc = subprocess.run(movebench_command(binary, sizes, count, batch, out), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            sys.exit(proc.returncode)
        with open(out) as f:
            doc = json.load(f)
    return {(t["operation"], t["bytes"]): t["figures"]["bandwidth_median"]["value"] for t in doc["timings"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/release/movebench")
    # movebench's names (docs/options.md); the older --sizes and --count are still taken.
    ap.add_argument("--sizes-bytes", "--sizes", dest="sizes", default="16M,64M,256M")
    ap.add_argument("--repetitions", "--count", dest="count", type=int, default=20,
                    help="tests per size (both tools)")
    ap.add_argument("--batch", type=int, default=8, help="copies per test (both tools)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternating rounds (movebench, then the reference); medians over them")
    args = ap.parse_args()
    sizes = parse_sizes(args.sizes)
    ours, refs = collections.defaultdict(list), collections.defaultdict(list)
    name = None
    for _ in range(args.rounds):
        for key, rate in movebench_rates(args.bin, sizes, args.count, args.batch).items():
            ours[key].append(rate)
        for size in sizes:
            for direction in ("read", "write"):
                name, ref = reference(size, args.batch, direction, args.count)
                refs[(f"copy.{direction}", size)].append(ref)
    print(f"{'bytes':>12} {'direction':>9} {'movebench MB/s':>15} {'reference MB/s':>15} {'ratio':>6}  "
          f"reference: {name}, medians of {args.rounds} alternating rounds")
    for size in sizes:
        for direction in ("read", "write"):
            key = (f"copy.{direction}", size)
            mine, ref = statistics.median(ours[key]), statistics.median(refs[key])
            per_round = " ".join(f"{a / b:.3f}" for a, b in zip(ours[key], refs[key]))
            print(f"{size:>12} {direction:>9} {mine:>15.0f} {ref:>15.0f} {mine / ref:>6.3f}  per round: {per_round}")


if __name__ == "__main__":
    main()
