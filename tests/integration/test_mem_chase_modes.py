"""End to end: `mem loaded-latency` (table, JSON, plot) and `mem latency
--tlb-window`. Small working sets and short points, so the tests also run
quickly under qemu-user (make aarch64)."""

import re

import pytest

from conftest import load_result, run_movebench
from movebench_report import cli

SMALL = ("--chase-bytes", "8M", "-n", "64K", "--point-time", "0.05", "--samples", "5")


def loaded_rows(stdout):
    """{delay: (load MB/s, ns min, ns median)} from the printed table."""
    rows = {}
    for m in re.finditer(r"^\s*(idle|\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$", stdout, re.M):
        rows[m.group(1)] = tuple(float(v) for v in m.groups()[1:])
    return rows


@pytest.fixture(scope="module")
def loaded_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("loaded") / "loaded.json"
    proc = run_movebench(
        "mem",
        "loaded-latency",
        "--threads",
        "2",
        "--delays",
        "idle,1000000,0",
        *SMALL,
        "--tlb-window",
        "64K",
        "--json",
        out,
        check=0,
        timeout=300,
    )
    return proc, load_result(out), out


def test_loaded_latency_table_from_idle_to_full_load(loaded_run):
    proc, _, _ = loaded_run
    assert "Loaded latency: pointer chase over 8.00 MiB (64 B per node, TLB window 64.00 KiB)" in proc.stdout
    assert re.search(r"Load: triad \(a = b \+ c \* s\) on 1 thread", proc.stdout)
    rows = loaded_rows(proc.stdout)
    assert list(rows) == ["idle", "1000000", "0"]
    assert rows["idle"][0] == 0, "idle loaders move no data"
    # A million spins after each 16 KiB chunk is a trickle next to no delay.
    assert rows["0"][0] > 2 * rows["1000000"][0] > 0
    for _load, lat_min, lat_median in rows.values():
        assert 0 < lat_min <= lat_median
    assert re.search(r"^Knee: ", proc.stdout, re.M)
    assert "Solution Validates" in proc.stdout


def test_loaded_latency_json_records_every_point(loaded_run):
    proc, doc, _ = loaded_run
    assert doc["validated"] and doc["complete"]
    s = doc["settings"]["mem"]
    assert s["mode"] == "loaded-latency" and s["delays"] == [-1, 1000000, 0] and s["tlb_window"] == 65536
    records = [r for r in doc["timings"] if r["operation"] == "loaded_latency"]
    assert [r["params"]["delay"] for r in records] == [-1, 1000000, 0]
    rows = loaded_rows(proc.stdout)
    for r, (delay, row) in zip(records, rows.items()):
        p = r["params"]
        assert p["loaders"] == 1 and p["threads"] == 2 and p["load_kernel"] == "triad"
        assert p["tlb_window"] == 65536 and r["bytes"] == 8 << 20
        assert p["idle"] == (delay == "idle")
        f = r["figures"]
        assert f["load_bandwidth"]["value"] == pytest.approx(row[0], abs=0.06)
        assert f["latency"]["value"] == pytest.approx(row[1], abs=0.006)
        assert f["latency"]["value"] == pytest.approx(min(r["samples"]) * 1e9)
        # The load's bytes over the time the chase was measured.
        assert f["load_bandwidth"]["value"] == pytest.approx(p["load_bytes"] / p["load_seconds"] * 1e-6)
    assert doc["results"]["mem.loaded_latency.most_load"]["unit"] == "ns"


def test_loaded_latency_plot(loaded_run, tmp_path):
    _, _, path = loaded_run
    out = tmp_path / "loaded.svg"
    assert cli.main(["plot", str(path), "-o", str(out)]) == 0
    text = out.read_text()
    assert "loaded latency" in text and "load bandwidth" in text and "triad on 1 thread" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (("--threads", "1"), "at least 2 threads"),
        (("--threads", "1,2"), "one thread count"),
        (("--delays", "idle,fast"), "invalid delay 'fast'"),
        (("--tlb-window", "100"), "invalid --tlb-window-bytes '100': a multiple of --stride-bytes (64 B)"),
        (("-k", "copy,triad"), "one load kernel"),
    ],
)
def test_loaded_latency_bad_input(args, message):
    proc = run_movebench("mem", "loaded-latency", *SMALL, *args, check=2)
    assert message in proc.stderr and proc.stderr.count("\n") == 1


def test_tlb_window_is_printed_and_recorded(tmp_path):
    out = tmp_path / "w.json"
    proc = run_movebench(
        "mem",
        "latency",
        "--sizes",
        "1M,4M",
        "--tlb-window",
        "256K",
        "--samples",
        "3",
        "--point-time",
        "0.03",
        "--json",
        out,
        check=0,
    )
    assert "TLB window 256.00 KiB" in proc.stdout and "Solution Validates" in proc.stdout
    doc = load_result(out)
    assert doc["settings"]["mem"]["tlb_window"] == 256 << 10
    assert [r["params"]["tlb_window"] for r in doc["timings"]] == [256 << 10] * 2
    # Without the option: no window, and the header says so.
    proc = run_movebench("mem", "latency", "--sizes", "1M", "--samples", "3", "--point-time", "0.03", check=0)
    assert "TLB window none" in proc.stdout
    proc = run_movebench("mem", "latency", "--sizes", "1M", "--tlb-window", "0", check=2)
    assert "invalid size '0'" in proc.stderr


@pytest.mark.parametrize("nt, elements", [("auto", "1K"), ("auto", "16M"), ("on", "1K"), ("off", "16M")])
def test_loaders_stream_their_stores_as_nt_stores_says(tmp_path, nt, elements):
    """--nt-stores auto meant streaming stores whatever the arrays' size;
    docs/mem.md says: on when the loaders' arrays (here one loader's three
    triad arrays) together exceed the last-level cache."""
    out = tmp_path / "l.json"
    run_movebench(
        "mem",
        "loaded-latency",
        "--threads",
        "2",
        "-n",
        elements,
        "--nt-stores",
        nt,
        "--delays",
        "0",
        "--chase-bytes",
        "64K",
        "--point-time",
        "0.01",
        "--samples",
        "2",
        "--json",
        out,
        check=0,
        timeout=120,
    )
    doc = load_result(out)
    llc = max((c["bytes"] for c in doc["host"]["caches"]), default=0)
    arrays = 3 * {"1K": 1 << 10, "16M": 16 << 20}[elements] * 8
    streams = nt == "on" or (nt == "auto" and 0 < llc < arrays)
    records = [r for r in doc["timings"] if r["operation"] == "loaded_latency"]
    assert records and all(r["params"]["nontemporal"] is streams for r in records), (llc, records[0]["params"])
