"""movebench run ends with one verdict per path measured (docs/facts.md#peaks-and-verdicts):
on this VM the DRAM peak is unknown and says why; with saved facts (--facts)
and a site band (--expect) the verdict and --fail-on's exit code are real;
bad --expect, --fail-on and --facts input is one line and exit 2."""

import os

import pytest

from conftest import REPO, load_result, run_movebench

FACTS = REPO / "tests" / "data" / "facts"
SUITE_TIMEOUT = 600  # the suite's mem part: a bandwidth table at 1 and all threads, then latency


def verdict_lines(stdout):
    """The lines after the summary's validation line: one per path."""
    lines = stdout.splitlines()
    at = max(i for i, line in enumerate(lines) if line.startswith("validation: "))
    return lines[at + 1 :]


@pytest.fixture(scope="module")
def mem_suite(suite_run):
    """The mem suite, measured once for these tests and test_store_option.py's
    (which reads what it stored): tests/conftest.py, suite_run."""
    proc, out = suite_run("mem", timeout=SUITE_TIMEOUT, store=True)
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc, load_result(out)


def test_run_prints_a_verdict_per_path_unknown_where_the_peak_is(mem_suite):
    proc, doc = mem_suite
    lines = verdict_lines(proc.stdout)
    assert [line.split(":")[0] for line in lines] == ["dram"], proc.stdout
    # No SMBIOS DIMM facts in this build or on this VM: unknown, and why.
    assert lines[0].startswith("dram: unknown: the DRAM peak is unknown ("), lines[0]
    verdicts = doc["verdicts"]  # load_result validated it against the schema
    assert [v["path"] for v in verdicts] == ["dram"]
    assert verdicts[0]["verdict"] == "unknown" and verdicts[0]["fraction"] is None
    most = max(int(name.split(".")[2][:-1]) for name in doc["results"] if name.startswith("mem.triad."))
    assert verdicts[0]["figure"] == f"mem.triad.{most}t"  # the all-thread run
    assert doc["results"][verdicts[0]["figure"]]["peak"]["status"] == "unknown"


def test_fewer_threads_than_all_get_no_dram_peak_and_say_why(mem_suite):
    _, doc = mem_suite
    if "mem.triad.2t" not in doc["results"]:
        pytest.skip("one CPU: the one-thread run is the all-thread run")
    peak = doc["results"]["mem.triad.1t"]["peak"]
    assert peak["status"] == "none" and "all-thread run" in peak["why"], peak


def test_fail_on_low_exits_1_when_a_site_band_makes_the_dram_figure_low(tmp_path):
    expect = tmp_path / "expect.json"
    expect.write_text('{"bands": [{"kind": "dram", "normal_from": 100, "source": "a band of 10000%: forces low"}]}')
    out = tmp_path / "run.json"
    proc = run_movebench(
        "run",
        "--only",
        "mem",
        "--facts",
        FACTS / "dram_ok_thp_never.json",
        "--expect",
        expect,
        "--fail-on",
        "low",
        "--json",
        out,
        check=1,
        timeout=SUITE_TIMEOUT,
    )
    line = verdict_lines(proc.stdout)[0]
    assert line.startswith("dram: low: triad "), line
    assert "of 204800 MB/s DRAM peak (8 channels x 3200 MT/s x 8 B, SMBIOS)" in line, line
    assert "normal from 10000% (a band of 10000%: forces low)" in line and "THP never" in line, line
    # The summary line shows the fraction too.
    summary = next(l for l in proc.stdout.splitlines() if l.startswith("mem:"))
    assert "% of 204800 MB/s DRAM peak" in summary, summary
    doc = load_result(out)
    assert doc["verdicts"][0]["verdict"] == "low"
    assert doc["verdicts"][0]["band"] == {"normal_from": 100, "source": "a band of 10000%: forces low"}
    assert "errors" in doc and not doc["errors"], doc["errors"]  # a low verdict is not a run error


@pytest.mark.parametrize(
    "args, words",
    [
        (["--fail-on", "sometimes"], "--fail-on 'sometimes': wants low or degraded"),
        (["--expect", "{missing}"], "No such file or directory"),
        (["--expect", "{empty}"], "empty"),
        (["--expect", "{binary}"], "binary data"),
        (["--expect", "{fifo}"], "not a regular file"),
        (["--expect", "{no_source}"], "'source' must say where the fraction comes from"),
        (["--expect", "{bad_kind}"], "'kind' must be one of"),
        (["--facts", "{binary}"], "binary data"),
        (["--facts", "{not_object}"], "not a JSON object"),
        (["--facts", "{missing}"], "No such file or directory"),
    ],
)
def test_bad_verdict_input_is_one_line_and_exit_2(tmp_path, args, words):
    files = {
        "missing": tmp_path / "missing.json",
        "empty": tmp_path / "empty.json",
        "binary": tmp_path / "binary.json",
        "no_source": tmp_path / "no_source.json",
        "bad_kind": tmp_path / "bad_kind.json",
        "fifo": tmp_path / "fifo.json",
        "not_object": tmp_path / "list.json",
    }
    os.mkfifo(files["fifo"])  # a reader that opened it would wait for a writer forever
    files["not_object"].write_text("[1, 2]")
    files["empty"].write_text("")
    files["binary"].write_bytes(b"\x00\xff\xfe{\x01")
    files["no_source"].write_text('{"bands": [{"kind": "dram", "normal_from": 0.7}]}')
    files["bad_kind"].write_text('{"bands": [{"kind": "l3", "normal_from": 0.7, "source": "x"}]}')
    out = tmp_path / "run.json"
    proc = run_movebench("run", "--only", "mem", *[a.format(**files) for a in args], "--json", out, check=2)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("movebench run: error: "), proc.stderr
    assert words in proc.stderr, proc.stderr
    assert proc.stdout == "" and not out.exists()
