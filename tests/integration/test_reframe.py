"""The ReFrame test library (contrib/reframe): its examples run against this
machine with the generic local configuration, pass, and report their
performance variables; a wrong result fails sanity, a missed reference fails
performance."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import REPO, binary_path

CONTRIB = REPO / "contrib" / "reframe"
REFRAME = pathlib.Path(sys.executable).parent / "reframe"  # python/requirements.txt installs it
ROOT_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def reframe(tmp_path, checks, *extra):
    """Runs ReFrame on `checks`; returns (proc, {test name: its report entry}, prefix)."""
    prefix = tmp_path / "rfm"
    cmd = [
        str(REFRAME),
        "-C",
        str(CONTRIB / "config" / "local.py"),
        "-c",
        str(checks),
        "-S",
        f"movebench={binary_path()}",
        "--prefix",
        str(prefix),
        "--report-file",
        str(prefix / "report.json"),
        "--exec-policy",
        "serial",
        *extra,
        "-r",
    ]
    # ReFrame keeps its own log in $TMPDIR: the test's folder, not /tmp.
    env = dict(os.environ, TMPDIR=str(tmp_path), **ROOT_ENV)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    report = json.loads((prefix / "report.json").read_text())
    cases = {c["name"]: c for run in report["runs"] for c in run["testcases"]}
    return proc, cases, prefix


def perf(case, key):
    """(value, unit) of one performance variable of a case."""
    values = {k.split(":", 2)[2]: v for k, v in case["perfvalues"].items()}
    assert key in values, f"{key} not among {sorted(values)}"
    return values[key][0], values[key][4]


def test_examples_pass_and_report_their_variables(tmp_path):
    assert REFRAME.exists(), f"ReFrame is not installed in the venv ({REFRAME})"
    proc, cases, prefix = reframe(tmp_path, CONTRIB / "movebench_examples.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert set(cases) == {
        "MovebenchMemBandwidth %threads=1",
        "MovebenchMemLatency",
        "MovebenchLink %backend=host",
        "MovebenchP2p",
        "MovebenchColl",
    }, sorted(cases)
    for name, case in cases.items():
        assert case["result"] == "pass", (name, case["fail_reason"])
        assert case["perfvalues"], name
    # One rank on the serial partition, two by mpirun on the mpi one.
    assert cases["MovebenchMemLatency"]["partition"] == "local"
    assert cases["MovebenchP2p"]["partition"] == "mpi" and cases["MovebenchP2p"]["num_tasks"] == 2
    expected = {
        "MovebenchMemBandwidth %threads=1": [("mem.triad.bandwidth", "MB/s"), ("mem.copy.bandwidth", "MB/s")],
        "MovebenchMemLatency": [("mem.latency@4096", "ns"), ("mem.latency@16777216", "ns")],
        "MovebenchLink %backend=host": [
            ("link.copy.read.bandwidth@1048576,host_memory=pinned", "MB/s"),
            ("link.copy.write.bandwidth@1048576,host_memory=pageable", "MB/s"),
        ],
        "MovebenchP2p": [("p2p.latency@1", "ns"), ("p2p.bw.bandwidth@65536", "MB/s")],
        "MovebenchColl": [("coll.allreduce.busbw@65536", "GB/s"), ("coll.bcast.avg@65536", "ns")],
    }
    for name, keys in expected.items():
        for key, unit in keys:
            value, got_unit = perf(cases[name], key)
            assert got_unit == unit and value > 0, (name, key, value, got_unit)
    # Each value is the one movebench printed on its MOVEBENCH_RESULT line.
    stdout = (
        pathlib.Path(cases["MovebenchP2p"]["stagedir"].replace("/stage/", "/output/")) / "rfm_job.out"
    ).read_text()
    line = next(
        l for l in stdout.splitlines() if l.startswith("MOVEBENCH_RESULT name=p2p.latency ") and " bytes=1 " in l
    )
    assert float(line.split(" value=")[1].split()[0]) == pytest.approx(perf(cases["MovebenchP2p"], "p2p.latency@1")[0])
    # ... and the perflog has it too.
    perflog = (prefix / "perflogs" / "local" / "mpi" / "MovebenchColl.log").read_text()
    assert "coll.allreduce.busbw@65536" in perflog


CHECKS_THAT_FAIL = '''
import sys
sys.path.insert(0, {contrib!r})
import reframe as rfm
from movebench_lib import MovebenchTest


@rfm.simple_test
class CorruptMem(MovebenchTest):
    """movebench's own validation fails: sanity must fail."""
    benchmark = 'mem'
    sizes = '64K'
    options = ['--repetitions', '2', '--corrupt-for-test']
    validation_line = r'^Solution Validates$'


@rfm.simple_test
class UnreachableReference(MovebenchTest):
    """A reference no machine meets: performance must fail."""
    benchmark = 'mem'
    sizes = '64K'
    options = ['--repetitions', '2', '-k', 'triad']
    perf_keys = ['mem.triad.bandwidth']
    reference = {{'*': {{'mem.triad.bandwidth': (1e12, -0.1, None, 'MB/s')}}}}
'''


def test_wrong_results_and_missed_references_fail(tmp_path):
    checks = tmp_path / "failing_checks.py"
    checks.write_text(CHECKS_THAT_FAIL.format(contrib=str(CONTRIB)))
    proc, cases, _ = reframe(tmp_path, checks)
    assert proc.returncode != 0
    assert cases["CorruptMem"]["result"] == "fail" and cases["CorruptMem"]["fail_phase"] == "sanity", cases[
        "CorruptMem"
    ]
    unreachable = cases["UnreachableReference"]
    assert unreachable["result"] == "fail" and unreachable["fail_phase"] == "performance", unreachable
    assert "mem.triad.bandwidth" in unreachable["fail_reason"]


def test_result_keys_name_every_line_once():
    sys.path.insert(0, str(CONTRIB))
    from movebench_lib import parse_results, result_keys

    text = "\n".join(
        [
            "MOVEBENCH_RESULT name=mem.triad metric=bandwidth value=1 unit=MB/s stat=min bytes=8 threads=1",
            "MOVEBENCH_RESULT name=mem.triad metric=bandwidth value=2 unit=MB/s stat=min bytes=8 threads=2",
            "MOVEBENCH_RESULT name=p2p.latency metric=latency value=3 unit=us stat=mean bytes=1 iters=10",
            "MOVEBENCH_RESULT name=p2p.latency metric=latency value=4 unit=us stat=mean bytes=2 iters=10",
            "MOVEBENCH_RESULT name=link.copy.read metric=bandwidth value=5 unit=MB/s stat=mean bytes=4 variance=0.5",
            "MOVEBENCH_RESULT name=link.copy.read metric=bandwidth value=6 unit=MB/s stat=mean bytes=4 variance=0.7",
            "not a result line",
        ]
    )
    results = parse_results(text)
    assert [r["value"] for r in results] == ["1", "2", "3", "4", "5", "6"]
    assert result_keys(results) == [
        "mem.triad.bandwidth,threads=1",
        "mem.triad.bandwidth,threads=2",
        "p2p.latency@1",
        "p2p.latency@2",
        # measured side figures never enter a name: the second of the same name is #2
        "link.copy.read.bandwidth",
        "link.copy.read.bandwidth#2",
    ]
