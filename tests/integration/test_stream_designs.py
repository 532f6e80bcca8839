"""movebench stream on the host and OpenCL (PoCL) backends: every design,
simple-host-streaming's output, the chunk-size sweep and its 90% rule,
validation, exit codes."""

import re

import pytest
from linkrun import BACKENDS, assert_kept_after_interrupt, load, records, run, run_interrupted

DESIGNS = ["offload", "chunked", "pipeline", "persistent"]
SMALL = ["--chunks", "8", "--chunk-count", "256", "--iterations", "2", "--inflight", "2"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_design_passes_with_sample_output(tmp_path, backend):
    out = tmp_path / "stream.json"
    proc = run("stream", "--backend", backend, *SMALL, "--sweep", "1K:4K:x4", "--json", out, check=0)
    assert (
        "# Chunks:             8\nChunk count:          256\nTotal count:          2048\nIterations:           2"
        in proc.stdout
    )
    for d in DESIGNS:
        title = d.capitalize()
        assert re.search(rf"^{title} average latency:\s+[\d.]+ ms$", proc.stdout, re.M), d
        assert re.search(rf"^{title} average throughput:\s+[\d.]+ MB/s$", proc.stdout, re.M), d
    assert re.search(
        r"^Empty kernel, queued to completion seen \(t_launch \+ t_finish\): median [\d.]+ us, "
        r"min [\d.]+ us over 100$",
        proc.stdout,
        re.M,
    )
    assert proc.stdout.rstrip().endswith("PASSED")
    assert proc.stdout.count("smallest chunk keeping 90% of the best throughput") == 3  # all but offload
    doc = load(out)
    assert doc["validated"] is True
    for d in DESIGNS:
        recs = records(doc, d)
        assert recs and all(len(r["samples"]) == 2 for r in recs), d
        assert all(r["figures"]["throughput"]["value"] > 0 for r in recs), d
        assert f"stream.{d}.latency" in doc["results"]
    bound = records(doc, "launch_bound")
    assert len(bound) == 1 and len(bound[0]["samples"]) == 100
    assert 0 < bound[0]["figures"]["latency_min"]["value"] <= bound[0]["figures"]["latency"]["value"]
    assert doc["results"]["stream.launch_bound"]["value"] == bound[0]["figures"]["latency"]["value"]
    assert {r["bytes"] for r in records(doc, "chunked")} == {1024, 4096}
    assert doc["results"]["stream.chunked.chunk90"]["value"] in (1024, 4096)
    assert_chunk_percentiles_printed(proc.stdout, doc)


def assert_chunk_percentiles_printed(stdout, doc):
    """Each design's line of its chunks' percentiles and each sweep row's P50
    and P99 are the records' own (us, as the figures in ns say), and the note
    under them says how many chunks they rest on."""
    shown = {}
    for d in DESIGNS:
        line = re.search(rf"^{d.capitalize()} chunk latency \(us\):\s+P50 (\S+) P90 \S+ P99 (\S+) ", stdout, re.M)
        assert line, (d, stdout)
        shown[(d, None)] = line.groups()
    for row in re.findall(r"^\s+(\d+)\s+\d+\s+[\d.]+\s+[\d.]+\s+(\S+)\s+(\S+)$", stdout, re.M):
        shown.setdefault(("sweep", int(row[0])), []).append(row[1:])
    counts = set()
    for record in doc["timings"]:
        if record["operation"] not in DESIGNS:
            continue
        figures, count = record["figures"], record["distribution"]["count"]
        counts.add(count)
        want = tuple(
            f"{figures[name]['value'] / 1e3:.4g}" if name in figures else "n/a"
            for name in ("chunk_latency_p50", "chunk_latency_p99")
        )
        # The design's own run or one of the sweep's rows at its chunk size.
        seen = [shown.get((record["operation"], None))] + shown.get(("sweep", record["bytes"]), [])
        assert any(s and tuple(f"{float(v):.4g}" if v != "n/a" else v for v in s) == want for s in seen), (
            record["operation"], record["bytes"], want, seen)  # fmt: skip
    note = re.search(r"^percentiles: one sample per chunk .*?, (\d+)(?: to (\d+))? samples a row;", stdout, re.M)
    assert note, stdout
    assert {int(note[1]), int(note[2] or note[1])} == {min(counts), max(counts)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_corrupted_output_fails(tmp_path, backend):
    out = tmp_path / "bad.json"
    proc = run(
        "stream", "--backend", backend, *SMALL, "--designs", "chunked", "--corrupt-for-test", "--json", out, check=1
    )
    assert proc.stdout.rstrip().endswith("FAILED")
    assert "validation FAILED: chunked output element 2047 is wrong" in proc.stderr
    assert load(out)["validated"] is False


@pytest.mark.parametrize(
    "args,message",
    [
        (["--inflight", "0"], "invalid --inflight"),
        (["--inflight", "2147483647"], "--inflight 2147483647 exceeds --chunks 64"),
        (["--designs", "warp"], "unknown design 'warp'"),
        # A CUDA build knows graph and the host backend lacks it; a build without
        # CUDA does not have the design at all (nor lists it in --list).
        (["--backend", "host", "--designs", "graph"], ("has no 'graph' design", "unknown design 'graph'")),
        (["--chunks", "4", "--chunk-count", "256", "--sweep", "3K"], "must be whole words dividing"),
        (["--iterations", "0"], "invalid --repetitions (--iterations) '0': 1 to 1000000"),
    ],
)
def test_bad_input_is_exit_2(args, message):
    proc = run("stream", *args, check=2)
    messages = message if isinstance(message, tuple) else (message,)
    assert any(m in proc.stderr for m in messages) and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_suite_runs_link_and_stream_bounded(suite_run):
    proc, out = suite_run("link,stream")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    # one device, named: the default (host here: no accelerator, and PoCL's CPU device only when asked for)
    assert any(l.startswith("link (host): copy.read.pinned") for l in lines), proc.stdout
    assert any(l.startswith("stream (host): launch bound ") and "persistent.latency" in l for l in lines), proc.stdout
    assert "validation: PASSED" in proc.stdout
    doc = load(out)
    assert {t["benchmark"] for t in doc["timings"]} == {"link", "stream"}
    assert {t["params"]["backend"] for t in doc["timings"]} == {"host"}


@pytest.mark.parametrize("backend", BACKENDS)
def test_interrupted_stream_keeps_what_it_measured(tmp_path, backend):
    out = tmp_path / "int.json"
    code, stdout = run_interrupted(
        "stream", "--backend", backend, "--chunks", "8", "--chunk-count", "256", "--iterations", "20000", json_path=out
    )  # seconds per design
    assert code == 130
    assert_kept_after_interrupt(load(out))
    assert "PASSED" in stdout


def test_kept_chunk_round_trips_are_bounded_without_wrapping():
    # 2^45 chunks (the sweep's 4-byte chunks of 2^47 bytes) x 2^19 repetitions is 2^64:
    # a product would wrap to 0; the bound is checked by division.
    proc = run(
        "stream",
        "--backend",
        "host",
        "--chunks",
        "1048576",
        "--chunk-elements",
        "33554432",
        "--sizes-bytes",
        "4",
        "--repetitions",
        "524288",
        check=2,
    )
    assert "35184372088832 chunks x 524288 repetitions: at most 100000000 chunk round trips" in proc.stderr
