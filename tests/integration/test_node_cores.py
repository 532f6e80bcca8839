"""movebench node --parts cores: the core matrix (docs/node.md). Every pair
of the endpoints measured (a positive, finite one-way latency per pair),
each relation present summarised, --cpus picking the endpoints, bad input
one line and exit 2. What these tests assert holds on any CPU: which pairs
and relations there are follows from the endpoints and hwloc's topology,
never from a timing."""

import json
import math
import os
import re

import pytest

from conftest import run_movebench, validate_result

ALLOWED = sorted(os.sched_getaffinity(0))
# Every pair of up to this many CPUs keeps the test short on a large machine.
MOST_ENDPOINTS = 4
ENDPOINTS = ALLOWED[:MOST_ENDPOINTS]
needs_two_cpus = pytest.mark.skipif(len(ALLOWED) < 2, reason="the core matrix needs two CPUs")
ROW = re.compile(r"^(smt_sibling|same_l2|same_l3|same_socket|other_socket)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+")


def cores_run(tmp_path, *extra):
    out = tmp_path / "node.json"
    cpus = ",".join(map(str, ENDPOINTS))
    proc = run_movebench("node", "--parts", "cores", "--cpus", cpus, "--time-budget", "2", "--json", out, *extra)
    assert proc.returncode == 0, proc.stderr
    return proc, validate_result(json.loads(out.read_text()))


def records(doc):
    return [r for r in doc["timings"] if r["benchmark"] == "node" and r["operation"] == "cores"]


@needs_two_cpus
def test_every_pair_measured_and_each_relation_summarised(tmp_path):
    proc, doc = cores_run(tmp_path)
    recs = records(doc)
    pairs = {(r["params"]["cpu_a"], r["params"]["cpu_b"]) for r in recs}
    want = {(a, b) for i, a in enumerate(ENDPOINTS) for b in ENDPOINTS[i + 1 :]}
    assert pairs == want
    for r in recs:
        latency = r["figures"]["latency"]
        assert latency["unit"] == "ns" and latency["stat"] == "median"
        assert math.isfinite(latency["value"]) and latency["value"] > 0, r
        assert r["figures"]["round_trip"]["value"] == pytest.approx(2 * latency["value"])
        assert r["figures"]["latency_min"]["value"] <= latency["value"]
        assert len(r["samples"]) == r["params"]["blocks"]
    relations = {r["params"]["relation"] for r in recs}
    rows = {m[1]: int(m[2]) for m in map(ROW.match, proc.stdout.splitlines()) if m}
    assert set(rows) == relations, proc.stdout
    for relation in relations:
        assert rows[relation] == sum(r["params"]["relation"] == relation for r in recs)
        assert doc["results"][f"node.cores.{relation}"]["value"] > 0
    # The matrix: a row per endpoint, a figure in every cell off the diagonal.
    for cpu in ENDPOINTS:
        row = next(line.split() for line in proc.stdout.splitlines() if line.split()[:1] == [str(cpu)])
        assert len(row) == 1 + len(ENDPOINTS) and row[1 + ENDPOINTS.index(cpu)] == "-", row
        assert all(float(cell) > 0 for i, cell in enumerate(row[1:]) if i != ENDPOINTS.index(cpu)), row


@needs_two_cpus
def test_cpus_picks_the_endpoints(tmp_path):
    pick = [ALLOWED[-1], ALLOWED[0]]
    out = tmp_path / "node.json"
    run_movebench(
        "node", "--parts", "cores", "--cpus", f"{pick[0]},{pick[1]}", "--time-budget", "1", "--json", out, check=0
    )
    doc = json.loads(out.read_text())
    assert [(r["params"]["cpu_a"], r["params"]["cpu_b"]) for r in records(doc)] == [(min(pick), max(pick))]


# The part's own check: the core matrix needs two distinct CPUs (the
# parsing of --cpus is the command's, tested in test_node.py).
@pytest.mark.parametrize("cpus", [lambda: str(ALLOWED[0]), lambda: f"{ALLOWED[0]},{ALLOWED[0]}"])
def test_fewer_than_two_cpus_is_one_line_and_exit_2(cpus, tmp_path):
    proc = run_movebench("node", "--parts", "cores", "--cpus", cpus(), cwd=tmp_path)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, (proc.returncode, lines)
    assert "--parts cores: the core matrix needs two CPUs, 1 given" in lines[0], lines
