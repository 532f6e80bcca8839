"""The front door: --version, --list, --help, and bad input everywhere."""
import json
import re
import subprocess

import pytest

from conftest import REPO, load_result, run_movebench


def test_version_is_exactly_name_and_semver():
    out = run_movebench("--version", check=0).stdout
    assert re.fullmatch(r"movebench \d+\.\d+\.\d+\n", out)


def test_list_prints_stable_dotted_names():
    names = run_movebench("--list", check=0).stdout.split()
    for kernel in ("init", "sum", "copy", "update", "triad", "daxpy", "striad", "sdaxpy", "latency"):
        assert f"mem.{kernel}" in names
    assert all(re.fullmatch(r"[a-z0-9_]+\.[a-z0-9_.]+", n) for n in names)


def subcommands():
    help_text = run_movebench("--help", check=0).stdout
    section = help_text.split("Subcommands:")[1]
    return re.findall(r"^\s+([a-z0-9]+)\s", section, re.M)


def test_every_subcommand_has_help():
    subs = subcommands()
    assert "mem" in subs and "run" in subs
    for sub in subs:
        proc = run_movebench(sub, "--help", check=0)
        assert "--json" in proc.stdout, sub


@pytest.mark.parametrize("args", [
    ["nosuchcommand"],
    ["mem", "--bogus"],
    ["mem", "-n", "1Q"],
    ["mem", "-n", "-5"],
    ["mem", "-n", "0"],
    ["mem", "--threads", "0"],
    ["mem", "--threads", "two"],
    ["mem", "-n", "1T"],
    ["mem", "--align", "3"],
    ["mem", "--kernels", "stream"],
    ["mem", "--bind", "9999"],
    ["mem", "--type", "int"],
    ["mem", "-r", "0"],
    ["mem", "-n", "1M", "--array-bytes", "8M"],
    ["mem", "latency", "--sizes", "64"],
    ["mem", "--json", "/nonexistent-dir/out.json"],
    ["run", "--only", "nosuch"],
])
def test_bad_input_is_one_line_and_exit_2(args, tmp_path):
    proc = run_movebench(*args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "error" in lines[0]
    assert proc.stdout == ""
    assert list(tmp_path.iterdir()) == [], "nothing may be written on bad input"


def test_install_puts_the_binary_in_prefix(movebench, tmp_path):
    build_dir = movebench.parent
    subprocess.run(["cmake", "--install", str(build_dir), "--prefix", str(tmp_path)], check=True,
                   capture_output=True)
    installed = tmp_path / "bin" / "movebench"
    out = subprocess.run([str(installed), "--version"], capture_output=True, text=True, check=True).stdout
    assert out.startswith("movebench ")


def test_result_names_the_commit_it_was_built_from(tmp_path):
    # Read at build time, so it follows commits without a reconfigure.
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    out = tmp_path / "r.json"
    run_movebench("mem", "-n", "16K", "-r", "1", "-k", "copy", "--json", out, check=0)
    commit = json.loads(out.read_text())["git_commit"]
    assert commit.startswith(head.stdout.strip()[:10]), (commit, head.stdout)


def test_run_only_takes_a_comma_separated_list(tmp_path):
    out = tmp_path / "only.json"
    proc = run_movebench("run", "--only", "link,stream", "--json", out, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert {t["benchmark"] for t in load_result(out)["timings"]} == {"link", "stream"}


# Each command's page, where every option of its --help must be described.
PAGES = {"mem": "docs/mem.md", "link": "docs/link.md", "stream": "docs/stream.md", "beff": "docs/beff.md",
         "coll": "docs/coll.md", "p2p": "docs/beff.md", "run": "README.md"}


@pytest.mark.parametrize("command", sorted(PAGES))
def test_every_option_of_help_is_in_the_docs(command):
    helptext = run_movebench(command, "--help", check=0).stdout
    options = set(re.findall(r"^\s+(?:-\w,)?(--[a-z0-9-]+)", helptext, re.M)) - {"--help"}
    assert options, helptext
    page = (REPO / PAGES[command]).read_text()
    assert [o for o in sorted(options) if o not in page] == []
