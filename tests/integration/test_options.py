"""One vocabulary of options (docs/options.md): the shared long names in every
command's --help with the same meaning, the upstream tools' short forms and
today's older names still taken (the same option, the same settings), and the
upstream tools' example command lines run unchanged through movebench."""

import json
import os
import re

import pytest
from net_mpi import built_with_mpi, mpirun, needs_mpirun, ok

from conftest import REPO, load_result, run_movebench

MEM = ["mem", "mem bandwidth", "mem seq", "mem tp", "mem latency", "mem loaded-latency"]
LINK = ["link", "link all", "link bandwidth", "link latency"]
MPI = ["beff", "coll", "p2p"]
EVERY = MEM + LINK + ["stream"] + MPI + ["fleet", "run", "facts", "node"]

# concept: (shared long name, how its help starts (the meaning), where it must be)
VOCABULARY = {
    "timed repetitions": ("--repetitions", "Timed repetitions", MEM + LINK + ["stream"] + MPI + ["fleet"]),
    "sizes in bytes": ("--sizes-bytes", "Sizes in bytes", ["mem seq", "mem tp", "mem latency", "stream", "p2p"] + LINK),
    "sizes in elements": ("--sizes-elements", "Sizes in elements", ["mem seq", "mem tp"]),
    "smallest size": ("--min-bytes", "Smallest size in bytes", ["coll"]),
    "largest size": ("--max-bytes", "Largest size in bytes", ["coll", "beff"]),
    "time budget": (
        "--time-budget",
        "Time budget in seconds",
        ["mem seq", "mem tp", "mem latency", "mem loaded-latency", "coll", "beff", "node"] + LINK,
    ),
    "threads": ("--threads", "Threads", MEM),
    "validation off": ("--skip-validation", "Skip validation", MPI),
    "validation of every iteration": ("--check-every", "Validate every iteration", MPI),
    "watchdog": ("--timeout", "Watchdog in seconds", LINK + ["stream"] + MPI + ["fleet"]),
    "random seed": ("--seed", "Random seed", ["mem latency", "mem loaded-latency", "beff", "fleet", "node"]),
    "output": ("--json", "Result document", EVERY),
}

# (where, upstream short form or older name, the shared long name it is an alias of)
ALIASES = [
    ("mem", "-r", "--repetitions"),
    ("mem", "-t", "--threads"),
    ("mem", "--point-time", "--time-budget"),
    ("link", "-c", "--repetitions"),
    ("link", "--count", "--repetitions"),
    ("link", "--sizes", "--sizes-bytes"),
    ("stream", "--iterations", "--repetitions"),
    ("stream", "--sweep", "--sizes-bytes"),
    ("coll", "-i", "--repetitions"),
    ("coll", "-b", "--min-bytes"),
    ("coll", "-e", "--max-bytes"),
    ("coll", "-C", "--check-every"),
    ("coll", "--step-timeout", "--timeout"),
    ("p2p", "-i", "--repetitions"),
    ("p2p", "--iterations", "--repetitions"),
    ("p2p", "-m", "--sizes-bytes"),
    ("p2p", "--sizes", "--sizes-bytes"),
    ("p2p", "-C", "--check-every"),
    ("p2p", "--step-timeout", "--timeout"),
    ("beff", "--max-size", "--max-bytes"),
    ("beff", "--target-time", "--time-budget"),
    ("beff", "-C", "--check-every"),
    ("beff", "--step-timeout", "--timeout"),
    ("link", "--roundtrips", "--roundtrip-repetitions"),
]


def subcommands():
    section = run_movebench("--help", check=0).stdout.split("Subcommands:")[1]
    return re.findall(r"^\s+([a-z0-9]+)\s", section, re.M)


def help_text(place):
    return run_movebench(*place.split(), "--help", check=0).stdout


HELP_COLUMN = 30  # CLI11's: descriptions start there, or on the next line after a longer name


def options(text):
    """{name: (all names of its option, its description)} from CLI11's --help."""
    out = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^  (-\S+)", line)
        if not m:
            continue
        names = m[1].split(",")
        after = lines[i + 1] if i + 1 < len(lines) else ""
        next_line = after.startswith(" " * HELP_COLUMN) and after.strip()
        description = after.strip() if next_line else line[HELP_COLUMN:].strip()
        for name in names:
            out[name] = (names, description)
    return out


def needs_place(place):
    if place.split()[0] in MPI + ["fleet"] and not built_with_mpi():
        pytest.skip("this movebench was built without MPI: its MPI commands take no options")


def test_the_table_covers_every_command_and_mode():
    assert sorted(subcommands()) == sorted({p.split()[0] for p in EVERY})
    for command, places in (("mem", MEM), ("link", LINK)):
        modes = re.search(r"^\s+mode TEXT:\{([a-z,-]+)\}", help_text(command), re.M)
        assert modes, command
        assert sorted(f"{command} {m}" for m in modes[1].split(",")) == sorted(p for p in places if " " in p)


@pytest.mark.parametrize("place", EVERY)
def test_help_names_the_shared_options_with_their_meaning(place):
    needs_place(place)
    found = options(help_text(place))
    for concept, (name, meaning, places) in VOCABULARY.items():
        if place not in places:
            continue
        assert name in found, f"{place} --help has no {name} ({concept})"
        names, description = found[name]
        # The shared name is the option's first long name: CLI11's messages and the docs show it.
        assert [n for n in names if n.startswith("--")][0] == name, (place, names)
        assert description.startswith(meaning), (place, name, description)


@pytest.mark.parametrize("place", EVERY)
def test_q_is_the_short_form_of_quiet(place):
    """`movebench mem -q` was refused ("The following argument was not
    expected"); -q is --quiet in every command, and no command gives -q to
    another option (no upstream short form of coll or p2p is -q)."""
    needs_place(place)
    names, _ = options(help_text(place))["--quiet"]
    assert names == ["-q", "--quiet"], (place, names)


def test_q_is_taken(tmp_path):
    run_movebench("mem", "-n", "16K", "-r", "2", "--threads", "1", "-q", "--json", tmp_path / "q.json", check=0)


@pytest.mark.parametrize("place", EVERY)
def test_every_count_of_timed_repetitions_is_named_by_the_pattern(place):
    """--repetitions, or --<probe>-repetitions for a probe with a count of its
    own (link's round trip): never a name of its own such as --roundtrips."""
    needs_place(place)
    found = options(help_text(place))
    counts = {
        [n for n in names if n.startswith("--")][0]
        for names, description in found.values()
        if description.startswith("Timed repetitions")
    }
    for name in counts:
        assert re.fullmatch(r"--([a-z]+-)?repetitions", name), (place, name)
    if place.startswith("link"):
        assert counts == {"--repetitions", "--roundtrip-repetitions"}, counts


@pytest.mark.parametrize(
    "args,spelling",
    [
        # mem checked -r and --samples by hand, with a message of its own; now
        # core/repetitions' one message, as link and stream (their lines here for
        # comparison).
        (["mem", "-r", "0"], "--repetitions (-r)"),
        (["mem", "seq", "--repetitions", "1000001"], "--repetitions (-r)"),
        (["mem", "latency", "--samples", "0"], "--samples"),
        (["link", "--backend", "host", "-c", "0"], "--repetitions (-c, --count)"),
        (["stream", "--backend", "host", "--repetitions", "0"], "--repetitions (--iterations)"),
    ],
)
def test_a_count_out_of_range_is_the_one_repetitions_message(args, spelling, tmp_path):
    proc = run_movebench(*args, cwd=tmp_path)
    value = args[-1]
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"movebench {args[0]}: error: invalid {spelling} '{value}': 1 to 1000000 (see --help)"
    ], proc.stderr


def test_mem_records_its_count_under_its_keys(tmp_path):
    out = tmp_path / "mem.json"
    run_movebench("mem", "-n", "1K", "-r", "3", "-t", "1", "-k", "copy", "-q", "--json", out, check=0)
    assert load_result(out)["settings"]["mem"]["repetitions"] == 3
    run_movebench(
        "mem",
        "seq",
        "--sizes-elements",
        "1K",
        "--time-budget",
        "0.01",
        "-r",
        "2",
        "-k",
        "copy",
        "-q",
        "--json",
        out,
        check=0,
    )
    assert load_result(out)["settings"]["mem"]["samples"] == 2


@pytest.mark.parametrize("place,alias,name", ALIASES)
def test_upstream_short_forms_and_older_names_are_the_same_option(place, alias, name):
    needs_place(place)
    found = options(help_text(place))
    assert alias in found and alias in found[name][0], (place, alias, found.get(name))


def settings(args, tmp_path, name, command):
    out = tmp_path / f"{name}.json"
    run_movebench(*args, "--json", out, check=0, timeout=120, cwd=tmp_path)  # mem seq writes dat/ there
    return load_result(out)["settings"][command]


@pytest.mark.parametrize(
    "older,shared",
    [
        (
            [
                "mem",
                "seq",
                "--sizes",
                "1K,2K",
                "--point-time",
                "0.01",
                "--samples",
                "2",
                "-k",
                "copy",
                "--outdir",
                "dat",
            ],
            [
                "mem",
                "seq",
                "--sizes-elements",
                "1K,2K",
                "--time-budget",
                "0.01",
                "--repetitions",
                "2",
                "-k",
                "copy",
                "--outdir",
                "dat",
            ],
        ),
        (
            ["mem", "seq", "--sizes", "1K", "--point-time", "0.01", "-k", "copy", "--outdir", "dat"],
            ["mem", "seq", "--sizes-bytes", "8K", "--time-budget", "0.01", "-k", "copy", "--outdir", "dat"],
        ),
        (
            ["mem", "latency", "--sizes", "16K", "--stride", "128", "--tlb-window", "4K", "--point-time", "0.01"],
            [
                "mem",
                "latency",
                "--sizes-bytes",
                "16K",
                "--stride-bytes",
                "128",
                "--tlb-window-bytes",
                "4K",
                "--time-budget",
                "0.01",
            ],
        ),
        (
            ["mem", "-n", "16K", "-r", "2", "-t", "1", "-k", "copy", "--align", "128"],
            ["mem", "-n", "16K", "--repetitions", "2", "--threads", "1", "-k", "copy", "--align-bytes", "128"],
        ),
        (
            [
                "link",
                "bandwidth",
                "--backend",
                "host",
                "--sizes",
                "4K,8K",
                "--count",
                "2",
                "--paths",
                "copy",
                "--directions",
                "read",
            ],
            [
                "link",
                "bandwidth",
                "--backend",
                "host",
                "--sizes-bytes",
                "4K,8K",
                "--repetitions",
                "2",
                "--paths",
                "copy",
                "--directions",
                "read",
            ],
        ),
        (
            ["link", "latency", "--backend", "host", "-c", "2", "--roundtrip-sizes", "64", "--roundtrips", "3"],
            [
                "link",
                "latency",
                "--backend",
                "host",
                "--repetitions",
                "2",
                "--roundtrip-sizes-bytes",
                "64",
                "--roundtrip-repetitions",
                "3",
            ],
        ),
        (
            [
                "stream",
                "--backend",
                "host",
                "--designs",
                "chunked",
                "--chunks",
                "4",
                "--chunk-count",
                "256",
                "--iterations",
                "2",
                "--sweep",
                "1K,4K",
            ],
            [
                "stream",
                "--backend",
                "host",
                "--designs",
                "chunked",
                "--chunks",
                "4",
                "--chunk-elements",
                "256",
                "--repetitions",
                "2",
                "--sizes-bytes",
                "1K,4K",
            ],
        ),
    ],
)
def test_older_names_and_shared_names_give_the_same_run(older, shared, tmp_path):
    command = older[0]
    before = settings(older, tmp_path, "older", command)
    after = settings(shared, tmp_path, "shared", command)
    for s in (before, after):
        s.pop("calibration", None)  # measured, so different each run
        s.pop("placement", None)
    assert before == after


def test_sizes_are_given_once_and_in_the_unit_the_mode_takes(tmp_path):
    for args in (
        ["mem", "seq", "--sizes", "1K", "--sizes-elements", "1K"],
        ["mem", "latency", "--sizes-elements", "1K"],
        ["mem", "seq", "--sizes-bytes", "12"],
    ):  # not whole doubles
        proc = run_movebench(*args, cwd=tmp_path, check=2)
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@needs_mpirun
def test_older_names_of_the_mpi_commands_still_work(tmp_path):
    def mpi_settings(name, *args):
        out = tmp_path / f"{name}.json"
        ok(mpirun(2, *args, "--json", out)[0])
        return json.loads(out.read_text())["settings"]

    assert mpi_settings(
        "p2p-older", "p2p", "--sizes", "8,64", "--iterations", "5", "--step-timeout", "30"
    ) == mpi_settings("p2p-shared", "p2p", "--sizes-bytes", "8,64", "--repetitions", "5", "--timeout", "30")
    assert mpi_settings("coll-older", "coll", "-b", "8", "-e", "64", "-t", "2000", "Allreduce") == mpi_settings(
        "coll-shared", "coll", "--min-bytes", "8", "--max-bytes", "64", "--time-budget", "0.002", "Allreduce"
    )
    # beff's --repetitions is both definitions' count; HPCC FPGA's -n stays the fpga one's
    # (-n is fpga's, refused with --definition hpcc alone: --test records the settings only).
    hpcc = ["beff", "--definition", "hpcc", "--random-patterns", "1", "--loop-length", "20"]
    older = mpi_settings("beff-older", *hpcc, "--max-size", "1K", "--target-time", "0.001", "--repetitions", "2")
    shared = mpi_settings("beff-shared", *hpcc, "--max-bytes", "1K", "--time-budget", "0.001", "--repetitions", "2")
    assert older == shared and older["beff"]["hpcc"]["repetitions"] == 2
    given = mpi_settings("beff-n", "beff", "--test", "--max-bytes", "1K", "--repetitions", "2", "-n", "3")["beff"]
    assert (given["hpcc"]["repetitions"], given["fpga"]["repetitions"]) == (2, 3)
    both = mpi_settings("beff-both", *hpcc, "--max-bytes", "1K", "--repetitions", "2")["beff"]
    assert both["hpcc"]["repetitions"] == 2 == both["fpga"]["repetitions"]


# The upstream tools' example command lines, from their READMEs (the copies in
# /work/shared/seeds) and OSU's --help, as docs/options.md lists them: the
# tool's name becomes the movebench command, its arguments stay as written.
MPIBENCH = [  # mpiBench's README, "Examples" and "Example output"
    (2, []),
    (2, ["Alltoall", "Allreduce", "Barrier"]),
    (2, ["-b", "32", "-e", "256", "-i", "100", "Alltoall"]),
    (2, ["-e", "2K", "-t", "100000", "Gather"]),
    (4, ["-b", "32", "-e", "256", "-i", "1000", "Alltoall"]),
]
OSU = [  # OSU Micro-Benchmarks' --help: "-m 128", "-m 2:128", "-m 2:"; -i, -x, -W and their long names
    ("latency", ["-m", "128"]),
    ("latency", ["-m", "2:128", "-i", "100", "-x", "10"]),
    ("bw", ["-m", "2:128", "-W", "16"]),
    ("bibw", ["--message-size", "1024:1024", "--iterations", "20", "--warmup", "2", "--window-size", "8"]),
    ("latency", ["-m", "2:", "-i", "4", "-x", "1"]),
]
# HPCC FPGA b_eff's README: "./Network_intel -f path_to_kernel.aocx", "mpirun -n 2
# ./fnet -f path_to_kernel.aocx", and the options of its -h. The sizes and loop
# lengths of a small build (its DEFAULT_MAX_MESSAGE_SIZE and DEFAULT_*_LOOP_LENGTH
# are build settings) follow the line.
HPCC_FPGA_SMALL_BUILD = ["-m", "8", "-u", "64", "-l", "1"]
HPCC_FPGA = [
    ["-f", "path_to_kernel.aocx"],
    ["-f", "path_to_kernel.aocx", "-n", "3", "--skip-validation", "-o", "4", "-d", "2", "--min-size", "2"],
]


@needs_mpirun
@pytest.mark.parametrize("np,args", MPIBENCH)
def test_mpibench_command_lines_run_unchanged(np, args):
    proc, _ = mpirun(np, "coll", *args, oversubscribe=True, timeout=180)
    ok(proc)
    lines = proc.stdout.splitlines()
    assert lines[0] == "START mpiBench v1.5" and lines[-1] == "END mpiBench"
    rows = [l for l in lines if "\tBytes:\t" in l]
    wanted = {a for a in args if a[0].isupper()} or {"Barrier", "Bcast", "Alltoall", "Gather", "Allreduce"}
    assert wanted <= {r.split("\t")[0].strip() for r in rows}


@needs_mpirun
@pytest.mark.parametrize("test,args", OSU)
def test_osu_command_lines_run_unchanged(test, args):
    proc, _ = mpirun(2, "p2p", "--tests", test, *args)
    ok(proc)
    sizes = [int(l.split()[0]) for l in proc.stdout.splitlines() if re.match(r"^\d+ +\d+\.\d\d$", l)]
    m = args[args.index("-m") + 1] if "-m" in args else args[args.index("--message-size") + 1]
    low, _, high = m.rpartition(":")
    # movebench's -m N is N alone (OSU's would be 1..N: docs/options.md); MIN: goes up to OSU's 4M.
    assert sizes[0] == int(low or high) and sizes[-1] == (int(high) if high else 4 << 20), sizes


@needs_mpirun
@pytest.mark.parametrize("args", HPCC_FPGA)
def test_hpcc_fpga_beff_command_lines_run_unchanged(args, tmp_path):
    out = tmp_path / "beff.json"
    proc, _ = mpirun(2, "beff", "--definition", "fpga", *args, *HPCC_FPGA_SMALL_BUILD, "--json", out)
    ok(proc)
    assert re.search(r"^b_eff = \S+ B/s", proc.stdout, re.M), proc.stdout
    assert "-f path_to_kernel.aocx ignored" in proc.stderr
    doc = load_result(out)
    assert doc["settings"]["beff"]["fpga"]["repetitions"] == (3 if "-n" in args else 10)
    assert ("validation_skipped" in doc) == ("--skip-validation" in args)


# TheBandwidthBenchmark's README: "./bwBench-<TOOLCHAIN> [mode]", "seq", "tp";
# its array size is a build setting (config.mk SIZE), so the size of a small
# build follows the line, and a short time per point for the sweeps.
@pytest.mark.parametrize("args", [[], ["seq"], ["tp"]])
def test_thebandwidthbenchmark_command_lines_run_unchanged(args, tmp_path):
    small_build = ["-n", "4K", "--time-budget", "0.002"] if args else ["-n", "64K", "-r", "2"]
    proc = run_movebench("mem", *args, *small_build, cwd=tmp_path, check=0, timeout=120)
    assert "Solution Validates" in proc.stdout or list((tmp_path / "dat").glob("*.dat")), proc.stdout
    if args:
        assert len(list((tmp_path / "dat").glob("*.dat"))) == 8  # one data file per kernel, as TheBandwidthBenchmark


def test_options_page_lists_every_shared_name_and_is_linked():
    page = (REPO / "docs" / "options.md").read_text()
    for concept, (name, _meaning, _) in VOCABULARY.items():
        assert f"`{name}`" in page, concept
    for doc in ("README.md", "docs/mem.md", "docs/link.md", "docs/stream.md", "docs/coll.md", "docs/beff.md"):
        assert "options.md" in (REPO / doc).read_text(), doc


# ---- defaults: --help prints each from the constant the command uses ----


def flat_help(place):
    """--help as one line (CLI11 wraps a long option's description)."""
    return " ".join(help_text(place).split())


# What CLI11 prints after an option's type: its set ("TEXT:{auto,on,off}")
# or range ("UINT:FLOAT in [8 - 1.07374e+09]").
CHECK = r"(?::(?:\{[^}]*\}|[A-Z]+ in \[[^\]]*\]|\S+))?"


def shown_default(flat, option):
    """The default CLI11 prints after an option's type: '--stride-bytes,--stride UINT=64' gives '64'."""
    m = re.search(rf"(?:^| |,){re.escape(option)}(?:,-[-\w]+)* [A-Z]+{CHECK}=(\S+) ", flat)
    assert m, (option, flat)
    return m[1]


def stated_default(flat, pattern):
    """A default the description states, found by `pattern` (its group 1)."""
    m = re.search(pattern, flat)
    assert m, (pattern, flat)
    return m[1]


def test_mem_help_defaults_are_what_a_bandwidth_run_uses(tmp_path):
    """Each default --help shows is the value a run without the option
    records in settings.mem: the help takes it from the same constant."""
    flat = flat_help("mem bandwidth")
    out = tmp_path / "mem.json"
    run_movebench("mem", "-n", "1K", "-t", "1", "-k", "copy", "-q", "--json", out, check=0)
    s = load_result(out)["settings"]["mem"]
    assert s["repetitions"] == int(stated_default(flat, r"NTIMES, default (\d+)\)"))
    assert s["alignment"] == int(shown_default(flat, "--align-bytes"))
    for option, key in [("--type", "type"), ("--unit", "unit"), ("--nt-stores", "nt_stores"), ("--shape", "shape")]:
        assert s[key] == shown_default(flat, option), option
    assert s["backend"] == stated_default(flat, r"Where the arrays live: (\w+) \(default")


def test_mem_help_defaults_are_what_a_loaded_latency_run_uses(tmp_path):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("loaded-latency needs two CPUs")
    flat = flat_help("mem loaded-latency")
    out = tmp_path / "loaded.json"
    # -n: arrays above the default chunk, so that it is not cut to one array
    run_movebench("mem", "loaded-latency", "-t", "2", "-n", "64K", "--chase-bytes", "1M", "-q", "--json", out, check=0)
    s = load_result(out)["settings"]["mem"]
    assert s["chunk_bytes"] == parse_size(shown_default(flat, "--chunk-bytes"))
    delays = stated_default(flat, r"--delays TEXT .*?\(default: ([\w,]+)\)").split(",")
    assert s["delays"] == [-1 if d == "idle" else int(d) for d in delays]
    assert stated_default(flat, r" (\w+) for none \(default") == delays[0] == "idle"
    assert s["samples"] == int(stated_default(flat, r"loaded-latency: samples per point \(default (\d+)\)"))
    assert s["point_time"] == float(shown_default(flat, "--time-budget"))
    assert s["stride"] == int(shown_default(flat, "--stride-bytes"))
    assert s["seed"] == int(shown_default(flat, "--seed"))
    assert s["load_kernel"] == stated_default(flat, r"loaded-latency: the one load kernel \(default: (\w+)\)")


def parse_size(text):
    """movebench's sizes (core/sizes.hpp): a whole number, K/M/G/T binary."""
    m = re.fullmatch(r"(\d+)([KMGT]?)", text)
    assert m, text
    return int(m[1]) << (10 * " KMGT".index(m[2] or " "))


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def test_the_mem_page_states_the_defaults_help_prints():
    """docs/mem.md's options table has a default column: every number and
    size --help prints as a default (CLI11's =VALUE, or the description's
    "default: ..." and "default N") is in that option's cell (a small count
    may be spelled out), so a default changed in the code and not in the
    docs fails here."""
    flat = flat_help("mem")
    page = (REPO / "docs" / "mem.md").read_text()
    rows = re.findall(r"^\| `(-[^`]*)`[^|]*\| ([^|]*) \|", page, re.M)
    assert len(rows) > 20
    checked = 0
    for names, cell in rows:
        option = [n for n in re.findall(r"--[a-z0-9-]+", names)][0]
        m = re.search(
            rf"(?:^| |,){re.escape(option)}(?:,-[-\w]+)* [A-Z]+{CHECK}(?:=(\S+))? (.*?)(?= -{{1,2}}[a-z]|$)", flat
        )
        if not m:
            continue
        said = (m[1] or "") + " " + " ".join(re.findall(r"default:? ([^;)]*)", m[2]))
        for number in re.findall(r"\b\d+(?:\.\d+)?[KMGT]?\b", said):
            spelled = NUMBER_WORDS[int(number)] if number.isdigit() and int(number) < len(NUMBER_WORDS) else number
            assert re.search(rf"(?<![\w.])({number}|{spelled})(?![\w.])", cell), (option, number, cell)
            checked += 1
    assert checked >= 10, checked


def test_the_fleet_page_states_the_defaults_help_prints():
    """docs/fleet.md spells out the outlier rule's defaults, the pairs'
    window and ping-pong message; --help prints them from FleetOptions and
    fleet_options.hpp."""
    needs_place("fleet")
    flat = flat_help("fleet")
    page = " ".join((REPO / "docs" / "fleet.md").read_text().split())
    k, floor = shown_default(flat, "--outlier-k"), shown_default(flat, "--outlier-floor")
    assert f"k = --outlier-k ({k}), floor = --outlier-floor ({floor})" in page
    window = stated_default(flat, r"Windows of (\d+) messages per pair")
    assert f"windows of {window} messages" in page
    ping = stated_default(flat, r"Ping-pongs \((\d+) bytes\) per pair")
    assert f"({ping}-byte ping-pong" in page
