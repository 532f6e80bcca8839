"""The package: one schema, a console script, `movebench report`, nothing evaluated."""

import re
import subprocess

import pytest

from conftest import REPO, binary_path
from movebench_report import model
from reportkit import report, run_tool

PACKAGE = REPO / "python" / "movebench_report"


def test_packaged_schema_is_docs_schema():
    packaged = (PACKAGE / "result.schema.json").read_bytes()
    assert packaged == (REPO / "docs" / "result.schema.json").read_bytes()
    assert model.schema()["title"] == "movebench result document"


def test_console_script_version_and_help():
    proc = run_tool("--version")
    assert proc.returncode == 0 and re.fullmatch(r"movebench-report \d+\.\d+\.\d+\n", proc.stdout)
    helptext = run_tool("--help").stdout
    for sub in ("table", "compare", "scaling", "plot", "html", "import"):
        assert sub in helptext
    proc = run_tool("table", "--nosuch")
    assert proc.returncode == 2 and proc.stdout == ""


def test_nothing_in_a_file_is_evaluated():
    source = "\n".join(p.read_text() for p in PACKAGE.rglob("*.py"))
    for forbidden in (
        r"\beval\(",
        r"\bexec\(",
        r"\bpickle\b",
        r"yaml\.load",
        r"\bmarshal\b",
        r"subprocess",
        r"os\.system",
    ):
        assert not re.search(forbidden, source), forbidden


def test_movebench_report_runs_the_tool():
    binary = binary_path()
    if "movebench report" not in subprocess.run([str(binary), "--help"], capture_output=True, text=True).stdout:
        pytest.skip(f"{binary} was built before `movebench report` existed")
    proc = subprocess.run([str(binary), "report", "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("movebench-report "), proc.stderr


def test_movebench_report_without_the_tool_is_one_line_and_exit_2(tmp_path):
    binary = binary_path()
    if "movebench report" not in subprocess.run([str(binary), "--help"], capture_output=True, text=True).stdout:
        pytest.skip(f"{binary} was built before `movebench report` existed")
    proc = subprocess.run(
        [str(binary), "report", "table"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"MOVEBENCH_REPORT": str(tmp_path / "nowhere" / "movebench-report")},
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "movebench-report is not installed" in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["nosuch"],
        ["table", "--unit", "XB/s", "x.json"],
        ["table", "--sizes", "1Q:", str(REPO / "tests" / "python" / "data" / "hpcc-beff.json")],
        ["scaling", "--size", "1Q", "x.json"],
        ["plot", "x.json"],
        ["import", "--format", "nosuch", "x.txt"],
        ["compare", "-data", "ONLYNAME"],
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args, tmp_path):
    code, out, err = report(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "error" in err, err
