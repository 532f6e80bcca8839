"""movebench run: every benchmark's suite runs are command lines of its own
options (--dry-run prints them), and one of them run alone records what the
suite records."""

import re

from net_mpi import ROOT_ENV, built_with_mpi, mpirun, needs_mpirun, ok

from conftest import load_result, run_movebench


def dry_run(*args):
    proc = run_movebench("run", "--dry-run", *args, check=0)
    return proc, [line.split() for line in proc.stdout.splitlines() if line.startswith("movebench ")]


def test_dry_run_prints_each_run_in_its_commands_own_options_and_measures_nothing(tmp_path):
    proc, lines = dry_run("--json", tmp_path / "dry.json")
    expected = {"mem", "link", "stream", "node"} | ({"beff", "coll", "p2p"} if built_with_mpi() else set())
    assert {line[1] for line in lines} == expected, proc.stdout
    assert [line[2] for line in lines if line[1] == "mem"] == ["bandwidth", "latency"]
    for line in lines:
        helptext = run_movebench(line[1], "--help", check=0).stdout
        for option in (t for t in line[2:] if t.startswith("-")):
            assert re.search(rf"^  (\S+,)?{re.escape(option)}[ ,]", helptext, re.M), (line[1], option)
    assert load_result(tmp_path / "dry.json")["timings"] == []


def test_a_suite_run_alone_records_what_the_suite_records(tmp_path, suite_run):
    in_suite = load_result(suite_run("link,stream")[1])
    _, lines = dry_run("--only", "link,stream")
    assert len(lines) == 2
    for line in lines:
        out = tmp_path / f"{line[1]}.json"
        run_movebench(*line[1:], "--json", out, check=0, timeout=120)
        alone = load_result(out)
        assert alone["settings"][line[1]] == in_suite["settings"][line[1]], line
        ops = {t["operation"] for t in alone["timings"]}
        assert ops == {t["operation"] for t in in_suite["timings"] if t["benchmark"] == line[1]}, line


@needs_mpirun
def test_an_mpi_suite_run_alone_records_what_the_suite_records(tmp_path, suite_run):
    _, suite = suite_run("coll", env=ROOT_ENV)
    _, lines = dry_run("--only", "coll")
    out = tmp_path / "coll.json"
    ok(mpirun(2, *lines[0][1:], "--json", out)[0])
    assert load_result(out)["settings"]["coll"] == load_result(suite)["settings"]["coll"]
