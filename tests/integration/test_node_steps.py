"""movebench node as a step (docs/node.md, "As a step"): of `movebench run`,
bounded (the numa matrix with short calibration and a sample of the core
matrix), picked by --only and left out by --skip; of `fleet --node`, each
unit's headlines in its figures, compared across units and with --baseline;
and `node --hwloc-xml`, the measured figures as hwloc memory attributes read
back by hwloc's own lstopo. What they assert holds on any CPU: which figures
and records exist, and that the XML carries exactly the document's figures in
hwloc's units; never a timing."""

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from net_mpi import load, needs_mpirun
from test_fleet import fleet, report

from conftest import REPO, run_movebench, validate_result

TWO_CPUS = len(os.sched_getaffinity(0)) >= 2
STEP_FIGURES = re.findall(
    r'\{"(node\.[a-z0-9_.]+)", "(MB/s|ns)", (true|false)\}', (REPO / "src/node/node_step.hpp").read_text()
)


def dry_run(*args, check=0):
    proc = run_movebench("run", "--dry-run", *args, check=check)
    return proc, [line.split() for line in proc.stdout.splitlines() if line.startswith("movebench ")]


def test_the_suite_has_a_bounded_node_step_that_only_and_skip_pick():
    _, lines = dry_run()
    node = [line for line in lines if line[1] == "node"]
    assert len(node) == 1 and lines[-1] == node[0], lines  # last of the per-node benchmarks
    args = node[0][2:]
    assert args[args.index("--parts") + 1] == ("numa,cores" if TWO_CPUS else "numa")
    assert float(args[args.index("--time-budget") + 1]) <= 10
    assert args[args.index("--core-sample") + 1] == "32"
    assert "--array-bytes" in args
    _, skipped = dry_run("--skip", "node")
    assert skipped == lines[:-1]
    _, alone = dry_run("--only", "node")
    assert alone == node
    for bad, message in (
        (["--only", "node", "--skip", "mem"], "--only and --skip: give one of them"),
        (["--skip", "nodes"], "unknown benchmark 'nodes' in --skip"),
    ):
        proc, _ = dry_run(*bad, check=2)
        errors = [line for line in proc.stderr.splitlines() if "error" in line]  # after run's warnings
        assert len(errors) == 1 and message in errors[0], proc.stderr


def test_the_suite_runs_the_node_step_and_shows_its_headlines(tmp_path):
    out = tmp_path / "run.json"
    proc = run_movebench("run", "--only", "node", "--json", out, timeout=120, check=0)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = validate_result(json.loads(out.read_text()))
    ops = {r["operation"] for r in doc["timings"] if r["benchmark"] == "node"}
    assert ops == ({"numa", "cores"} if TWO_CPUS else {"numa"})
    for name in ("node.numa.local.sum", "node.numa.local.triad", "node.numa.local.chase"):
        assert doc["results"][name]["stat"] == "median" and doc["results"][name]["value"] > 0, name
    names = {n for n, _, _ in STEP_FIGURES}
    assert {n for n in doc["results"] if n.startswith("node.")} <= names
    if TWO_CPUS:
        cores = doc["settings"]["node"]["cores"]
        assert cores["every_pair_bound"] == 0 and cores["sampled_pairs"] == 32 and not cores["every_pair"]
    line = next(
        l for l in proc.stdout.split("==== movebench run: summary ====")[1].splitlines() if l.startswith("node:")
    )
    assert "local read " in line and " MB/s;" in line and "local latency " in line and " findings " in line, line


def memattrs(xml_path):
    """{(attribute name, target NUMA os index): value} of an hwloc XML."""
    root = ET.parse(xml_path).getroot()
    numa = {o.get("gp_index"): int(o.get("os_index")) for o in root.iter("object") if o.get("type") == "NUMANode"}
    return {
        (m.get("name"), numa[v.get("target_obj_gp_index")]): int(v.get("value"))
        for m in root.iter("memattr")
        for v in m.iter("memattr_value")
        if v.get("initiator_cpuset")
    }


def test_hwloc_xml_carries_the_measured_figures_in_hwlocs_units(tmp_path):
    xml, out = tmp_path / "topology.xml", tmp_path / "node.json"
    proc = run_movebench(
        "node", "--parts", "numa", "--array-bytes", "16M", "--time-budget", "1", "--hwloc-xml", xml, "--json", out
    )
    assert proc.returncode == 0, proc.stderr
    doc = validate_result(json.loads(out.read_text()))
    got = memattrs(xml)
    cells = 0
    for r in doc["timings"]:
        p = r["params"]
        if p["initiator"] != p["target"]:
            continue  # hwloc keys a value by target and initiator cpuset; one initiator per node here
        if p["kernel"] == "triad":
            assert got[("Bandwidth", p["target"])] == round(r["figures"]["bandwidth"]["value"] * 1e6 / 2**20)
        if p["kernel"] == "sum" and ("ReadBandwidth", p["target"]) in got:  # hwloc 2.8 on
            assert got[("ReadBandwidth", p["target"])] == round(r["figures"]["bandwidth"]["value"] * 1e6 / 2**20)
        if p["kernel"] == "chase":
            assert got[("Latency", p["target"])] == max(1, round(r["figures"]["latency"]["value"]))
        cells += 1
    assert cells >= 3
    lstopo = shutil.which("lstopo-no-graphics")
    if lstopo is None:
        pytest.skip("hwloc's lstopo not installed (scripts/setup.sh installs hwloc-nox)")
    shown = subprocess.run([lstopo, "--memattrs", "-i", str(xml)], capture_output=True, text=True, check=True).stdout
    for attribute in ("Bandwidth", "Latency"):
        section = shown.split(f"name `{attribute}'")[1].split("Memory attribute")[0]
        value = got[(attribute, doc["timings"][0]["params"]["target"])]
        assert re.search(rf"NUMANode L#\d+( \([^)]*\))? = {value} from cpuset", section), shown


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_hwloc_xml_write_that_fails_after_measuring_is_one_line_and_exit_1(tmp_path):
    """/dev/full opens for writing (the check before measuring passes) and
    every write to it fails (ENOSPC): the error path end to end."""
    out = tmp_path / "node.json"
    args = ["--parts", "numa", "--array-bytes", "16M", "--time-budget", "0.5", "--json", out]
    proc = run_movebench("node", *args, "--hwloc-xml", "/dev/full", check=1)
    assert proc.stderr.startswith("node: --hwloc-xml '/dev/full': ") and proc.stderr.count("\n") == 1, proc.stderr
    assert "hwloc_xml" in json.loads(out.read_text())["errors"]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--hwloc-xml", "/nonexistent-movebench/t.xml"],
            "--hwloc-xml '/nonexistent-movebench/t.xml': cannot write it",
        ),
        (["--hwloc-xml", "/tmp"], "--hwloc-xml '/tmp': cannot write it: a folder"),
        (["--parts", "cores", "--hwloc-xml", "x.xml"], "--hwloc-xml: writes the numa part's figures"),
        (["--core-sample", "-1"], "--core-sample"),
    ],
)
def test_bad_hwloc_xml_and_core_sample_are_one_line_and_exit_2(args, message):
    proc = run_movebench("node", *args, check=2)
    assert message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


@needs_mpirun
def test_fleet_runs_each_units_node_step_and_compares_its_headlines(tmp_path):
    out, ref = tmp_path / "fleet.json", tmp_path / "ref.json"
    ref.write_text(json.dumps({"node.numa.local.sum": 1e9}))  # more than any machine: slower, named
    memory = ["--array-bytes", "4M", "--chase-bytes", "1M", "--repetitions", "3", "--skip-pairs"]
    proc = fleet(tmp_path, 2, "--per", "host", *memory, "--node", "--baseline", ref, "--json", out, timeout=180)
    assert proc.returncode == 0, report(proc)
    doc = load(out)
    unit = doc["fleet"]["units"][0]
    assert unit["figures"]["node.numa.local.sum"] > 0 and unit["figures"]["mem.triad"] > 0
    assert isinstance(unit["node"]["findings"], list)
    ops = {r["operation"] for r in doc["timings"] if r["benchmark"] == "fleet"}
    assert {"node.numa.local.sum", "node.numa.local.triad", "node.numa.local.chase", "triad"} <= ops
    assert [r["figure"] for r in doc["regressions"]] == ["node.numa.local.sum"]
    assert "node step (movebench node's numa matrix" in proc.stdout and "numa.local.sum " in proc.stdout, proc.stdout
    compared = run_movebench("report", "compare", out, out, "--format", "markdown", timeout=60, check=0)
    assert compared.returncode == 0 and "node.numa.local.sum" in compared.stdout, compared.stdout + compared.stderr
