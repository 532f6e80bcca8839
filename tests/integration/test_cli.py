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


@pytest.mark.parametrize(
    "args",
    [
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
    ],
)
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
    subprocess.run(["cmake", "--install", str(build_dir), "--prefix", str(tmp_path)], check=True, capture_output=True)
    installed = tmp_path / "bin" / "movebench"
    out = subprocess.run([str(installed), "--version"], capture_output=True, text=True, check=True).stdout
    assert out.startswith("movebench ")


def hidden_venv_command(command, empty):
    """`command` in a mount namespace where the source tree's .venv is an
    empty folder (the worktree's own .venv stays as it is), or None where
    namespaces cannot be made (not root)."""
    empty.mkdir(exist_ok=True)
    probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True)
    if probe.returncode != 0:
        return None
    script = 'mount --bind "$0" "$1" && shift && exec "$@"'
    return ["unshare", "--mount", "sh", "-c", script, str(empty), str(REPO / ".venv"), *map(str, command)]


def test_install_carries_the_report_tool(movebench, tmp_path):
    """`make install PREFIX=...` once installed the binary alone: `movebench
    report` from the install worked only while the source tree's .venv
    existed. Installed as make install does (its two steps), then run with
    that .venv hidden and nothing of the source tree on PATH."""
    recipe = re.search(r"^install:.*\n((?:\t.*\n)+)", (REPO / "Makefile").read_text(), re.M)[1]
    assert "scripts/install_report.sh $(PREFIX)" in recipe, recipe
    prefix = tmp_path / "prefix"
    subprocess.run(
        ["cmake", "--install", str(movebench.parent), "--prefix", str(prefix)], check=True, capture_output=True
    )
    subprocess.run(
        [str(REPO / "scripts" / "install_report.sh"), str(prefix)], check=True, capture_output=True, timeout=900
    )
    command = hidden_venv_command(
        [
            prefix / "bin" / "movebench",
            "report",
            "html",
            REPO / "tests" / "data" / "results" / "v2" / "mem.json",
            "-o",
            tmp_path / "r.html",
        ],
        tmp_path / "empty",
    )
    if command is None:
        pytest.skip("cannot hide the source tree's .venv: unshare --mount needs root")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "<html" in (tmp_path / "r.html").read_text().lower()


def test_result_names_the_commit_it_was_built_from(tmp_path):
    # Read at build time, so it follows commits without a reconfigure.
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    out = tmp_path / "r.json"
    run_movebench("mem", "-n", "16K", "-r", "1", "-k", "copy", "--json", out, check=0)
    commit = json.loads(out.read_text())["git_commit"]
    assert commit.startswith(head.stdout.strip()[:10]), (commit, head.stdout)


def test_run_only_takes_a_comma_separated_list(suite_run):
    proc, out = suite_run("link,stream")
    assert proc.returncode == 0, proc.stderr
    assert {t["benchmark"] for t in load_result(out)["timings"]} == {"link", "stream"}


# Each command's page, where every option of its --help must be described.
PAGES = {
    "mem": "docs/mem.md",
    "link": "docs/link.md",
    "stream": "docs/stream.md",
    "beff": "docs/beff.md",
    "coll": "docs/coll.md",
    "p2p": "docs/beff.md",
    "run": "README.md",
    "facts": "docs/facts.md",
    "fleet": "docs/fleet.md",
    "node": "docs/node.md",
}


@pytest.mark.parametrize("command", sorted(PAGES))
def test_every_option_of_help_is_in_the_docs(command):
    helptext = run_movebench(command, "--help", check=0).stdout
    options = set(re.findall(r"^\s+(?:-\w,)?(--[a-z0-9-]+)", helptext, re.M)) - {"--help"}
    assert options, helptext
    page = (REPO / PAGES[command]).read_text()
    assert [o for o in sorted(options) if o not in page] == []
