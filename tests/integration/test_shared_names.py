"""Our own command lines use the shared option names (docs/options.md): the
README's examples, the suite's runs, the bench/ scripts and the ReFrame
library. The older names and the upstream short forms of the shared concepts
stay taken (test_options.py), but what movebench itself shows users to copy
is the one vocabulary."""

import functools
import importlib.util
import json
import re
import shlex
import subprocess
import sys

import pytest
from test_options import VOCABULARY, options

from conftest import REPO, binary_path, run_movebench

COMMANDS = ("mem", "link", "stream", "beff", "coll", "p2p", "node", "run")
SHARED = {name for name, _, _ in VOCABULARY.values()}
OLDER_SECTION = "Older names (still taken):"


@functools.cache
def allowed_names(command):
    """The names of `command`'s options a command line of ours may use: an
    option's first long name; a short form only where the option is no shared
    concept (mem -n, -k); the name itself where it has no long one (coll -t)."""
    text = run_movebench(command, "--help", check=0).stdout
    if "Options:" not in text:
        pytest.skip(f"movebench {command} takes no options in this build")
    current, _, older = text.partition(OLDER_SECTION)
    allowed = set()
    for name, (names, _) in options(current).items():
        longs = [n for n in names if n.startswith("--")]
        if not longs or name == longs[0] or (not name.startswith("--") and longs[0] not in SHARED):
            allowed.add(name)
    return allowed - set(options(older))


def not_shared(argv):
    """The option names of one command line (argv from the movebench command on) that are not shared names."""
    command, *rest = argv
    assert command in COMMANDS, argv
    allowed = allowed_names(command)
    return [
        t.split("=")[0]
        for t in rest
        if t.startswith("-") and not re.fullmatch(r"-[\d.]+", t) and t.split("=")[0] not in allowed
    ]


def command_lines(text, program=r"movebench"):
    """Every `movebench COMMAND ...` in `text`, as argv from COMMAND on, up to a backtick, comment or line end."""
    found = []
    pattern = rf"(?:^|[\s`'\"/]){program}\"? ((?:{'|'.join(COMMANDS)})(?=[\s`]|$)[^`\n#|>]*)"
    for m in re.finditer(pattern, text, re.M):
        try:
            found.append(shlex.split(m.group(1)))
        except ValueError:  # prose with an apostrophe
            found.append(m.group(1).split())
    return found


def test_the_check_finds_older_names():
    """Without this, the tests below could pass by checking nothing."""
    assert not_shared(["link", "latency", "-c", "2", "--roundtrips", "3", "--sizes", "4K"]) == [
        "-c",
        "--roundtrips",
        "--sizes",
    ]
    assert not_shared(["mem", "seq", "--sizes", "1K", "--point-time", "1", "-r", "2", "--samples", "2", "-t", "1"]) == [
        "--sizes",
        "--point-time",
        "-r",
        "--samples",
        "-t",
    ]
    assert not_shared(["mem", "-n", "1K", "-k", "triad", "--repetitions", "2", "--threads", "1"]) == []
    assert not_shared(["coll", "-b", "8", "-e", "64", "-i", "5", "-t", "100"]) == ["-b", "-e", "-i"]
    assert command_lines("$ movebench mem seq --sizes 1K -k triad   # a comment\n`movebench link -c 2`") == [
        ["mem", "seq", "--sizes", "1K", "-k", "triad"],
        ["link", "-c", "2"],
    ]


def test_readme_examples_use_the_shared_names():
    lines = command_lines((REPO / "README.md").read_text())
    assert len(lines) > 10
    for argv in lines:
        assert not not_shared(argv), argv


def test_the_suite_runs_in_the_shared_names():
    proc = run_movebench("run", "--dry-run", check=0)
    lines = [shlex.split(l.split("movebench ", 1)[1]) for l in proc.stdout.splitlines() if "movebench " in l]
    assert {argv[0] for argv in lines} >= {"mem", "link", "stream"}, proc.stdout
    for argv in lines:
        assert not not_shared(argv), argv


def test_bench_shell_scripts_use_the_shared_names():
    for script in sorted((REPO / "bench").glob("*.sh")):
        text = script.read_text().replace("\\\n", " ")
        lines = command_lines(text, program=r"\$BIN")
        assert lines, script
        for argv in lines:
            assert not not_shared([a for a in argv if "$" not in a]), (script.name, argv)


def load_script(name):
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gpu_compare_runs_movebench_in_the_shared_names(tmp_path):
    # It is made for a GPU; the same job on the OpenCL backend (PoCL), no peers, tiny sizes.
    out = tmp_path / "out"
    subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "gpu_compare.py"),
            "--movebench",
            str(binary_path()),
            "--backend",
            "opencl",
            "--rounds",
            "1",
            "--link-bytes",
            "1M",
            "--elements",
            "64K",
            "--reps",
            "2",
            "--stream-chunks",
            "2",
            "--stream-sweep",
            "4K",
            "--stream-sweep-total",
            "16K",
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    lines = (out / "commands.txt").read_text().splitlines()
    # link bandwidth twice (copy on pinned, kernel on mapped), latency, mem twice (--timing host-sync and
    # device), stream twice
    assert len(lines) == 7
    for line in lines:
        argv = shlex.split(line)
        assert argv[0] == str(binary_path()) and not not_shared(argv[1:]), line


def test_mem_compare_runs_movebench_in_the_shared_names(tmp_path):
    """Also --movebench-before (an earlier build beside this one, here the same
    binary): it is run each round with the same options, gives every kernel an
    after / before ratio and is never taken as a peer."""
    out = tmp_path / "cmp"
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "mem_compare.py"),
            "--movebench",
            str(binary_path()),
            "--movebench-before",
            str(binary_path()),
            "--elements",
            "65536",
            "--repetitions",
            "2",
            "--rounds",
            "1",
            "--threads",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    runs = [
        shlex.split(l)[1:]
        for l in (out / "commands.txt").read_text().splitlines()
        if shlex.split(l)[1] == str(binary_path())
    ]
    assert len(runs) == 2, runs

    def without_json(run):
        at = run.index("--json")
        return run[:at] + run[at + 2 :]

    assert without_json(runs[0]) == without_json(runs[1]), runs  # the same options, each its own --json
    for run in runs:
        assert not not_shared(run[1:]), run
    summary = json.loads((out / "summary.json").read_text())
    assert len(summary["results"]) == 8
    for entry in summary["results"]:
        assert entry["ratio_before"] > 0, entry
        assert entry.get("best_peer") != "movebench_before", entry
    assert "after / before" in (out / "summary.md").read_text()


@pytest.mark.parametrize(
    "benchmark, mode, sizes, expected",
    [
        ("mem", [], "16M", ["--elements", "16M"]),
        ("mem", ["bandwidth"], "16M", ["--elements", "16M"]),
        ("mem", ["seq"], "1K:1M", ["--sizes-elements", "1K:1M"]),
        ("mem", ["tp"], "1K:1M", ["--sizes-elements", "1K:1M"]),
        ("mem", ["latency"], "4K,16M", ["--sizes-bytes", "4K,16M"]),
        ("mem", ["loaded-latency"], "64M", ["--chase-bytes", "64M"]),
        ("link", ["bandwidth"], "64K,1M", ["--sizes-bytes", "64K,1M"]),
        ("stream", [], "4K:1M:x4", ["--sizes-bytes", "4K:1M:x4"]),
        ("p2p", [], "1:64K", ["--sizes-bytes", "1:64K"]),
        ("beff", [], "1M", ["--max-bytes", "1M"]),
        ("coll", ["Allreduce"], "8:64K", ["--min-bytes", "8", "--max-bytes", "64K"]),
        ("coll", [], "1K", ["--min-bytes", "1K", "--max-bytes", "1K"]),
    ],
)
def test_reframe_library_passes_sizes_by_the_shared_names(benchmark, mode, sizes, expected):
    pytest.importorskip("reframe")
    sys.path.insert(0, str(REPO / "contrib" / "reframe"))
    from movebench_lib import size_arguments

    args = size_arguments(benchmark, mode, sizes)
    assert args == expected
    assert not not_shared([benchmark, *mode, *args])


def test_reframe_library_refuses_sizes_it_cannot_pass():
    pytest.importorskip("reframe")
    sys.path.insert(0, str(REPO / "contrib" / "reframe"))
    from movebench_lib import size_arguments

    with pytest.raises(ValueError, match="takes no sizes"):
        size_arguments("run", [], "1K")


def test_reframe_examples_and_docs_use_the_shared_names():
    for path in (
        REPO / "contrib" / "reframe" / "movebench_examples.py",
        REPO / "contrib" / "reframe" / "movebench_lib.py",
        REPO / "docs" / "reframe.md",
    ):
        text = path.read_text()
        # options = ['--repetitions', '5', ...]: every quoted option of an options list
        for listed in re.findall(r"options = \[([^\]]*)\]", text):
            names = [n for n in re.findall(r"'(-[^']*)'", listed)]
            benchmark = re.findall(r"benchmark = '(\w+)'", text[: text.find(listed)])
            assert benchmark, (path, listed)
            assert not not_shared([benchmark[-1], *names]), (path.name, listed)
        for argv in command_lines(text):
            assert not not_shared(argv), (path.name, argv)
