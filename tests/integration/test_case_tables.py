"""The tables of cases (issue 20: one row per case) drive --list, the
result keys and the docs: what --list prints for link and coll is what their
docs name, row for row, so the three cannot drift."""

import re

import pytest

from conftest import REPO, run_movebench


def listed(prefix):
    return [n for n in run_movebench("--list", check=0).stdout.split() if n.startswith(prefix + ".")]


def test_docs_link_names_every_link_case_in_table_order():
    names = listed("link")
    assert names[0] == "link.copy.read" and names[-1] == "link.roundtrip"
    doc = (REPO / "docs" / "link.md").read_text()
    rows = re.findall(r"^\| `(link\.[a-z_.]+)` \|", doc, re.M)
    assert rows == names


def test_docs_coll_names_every_collective_and_its_bus_factor():
    names = listed("coll")
    if not names:
        pytest.skip("a build without MPI lists no collectives")
    assert len(names) == 12 and names[-1] == "coll.reduce_scatter"
    doc = (REPO / "docs" / "coll.md").read_text()
    section = doc.split("## Operations")[1].split("## Options")[0]
    ops = [m.lower() for m in re.findall(r"^\| ([A-Z][A-Za-z_]+) \|", section, re.M)]
    assert ["coll." + op for op in ops] == names
    factors = doc.split("### Algorithm and bus bandwidth")[1].split("\n\n")[1]  # its table
    for op in ops:
        assert re.search(rf"^\|[^|\n]*\b{op}\b[^|\n]*\|", factors, re.M | re.I), op


def test_link_help_names_every_row():
    """--help's lists of directions, paths, host memory and cases were typed
    by hand beside the table; now they come from it: every --list row is
    named, and every direction and path of a bandwidth row (path.direction)."""
    names = listed("link")
    # CLI11 puts a long option's description on the next line: read as one line
    text = " ".join(run_movebench("link", "--help", check=0).stdout.split())
    cases = re.search(r"Cases \(movebench --list, docs/link\.md\): (.*)$", text).group(1)
    assert cases.split(", ") == names
    directions = re.search(r"--directions TEXT=(\S+) bandwidth: (.*?); comma-separated", text)
    paths = re.search(r"--paths TEXT=(\S+) bandwidth: (.*?); comma-separated", text)
    bandwidth = [n.split(".")[1:] for n in names if re.fullmatch(r"link\.(copy|kernel)\.[a-z]+", n)]
    assert len(bandwidth) == 6
    for path, direction in bandwidth:
        assert direction in directions.group(1).split(",") and re.search(rf"\b{direction} \(", directions.group(2))
        assert path in paths.group(1).split(",") and re.search(rf"\b{path} \(", paths.group(2))
    # the kinds --host-memory takes: the ones its own refusal lists
    refusal = run_movebench("link", "--backend", "host", "--host-memory", "bogus", check=2).stderr
    kinds = re.search(r"unknown host memory kind 'bogus': (.*?) \(see --help\)", refusal).group(1)
    assert f"--host-memory TEXT Host memory kinds, comma-separated: {kinds} (" in text


NUMBER_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
]


def test_the_docs_count_the_mem_kernels_as_the_table_has_them():
    """The count of mem's kernels is the kernel table's: --help and the
    command's summary print it from there; the docs that spell it out in
    words ("the eight kernels", "all eight", "any of the eight") must name
    the same number. docs/performance.md is left out: its results name the
    kernels the binary of their day had."""
    kernels = [n for n in listed("mem") if n not in ("mem.latency", "mem.loaded_latency")]
    count = len(kernels)
    assert count > 1
    helptext = " ".join(run_movebench("mem", "--help", check=0).stdout.split())
    assert f"(the {count} streaming kernels)" in " ".join(run_movebench("--help", check=0).stdout.split())
    assert f"(default: all {count})" in helptext
    words = "|".join(NUMBER_WORDS)
    kernels_after = re.compile(rf"\b({words})\s+(?:streaming\s+|`movebench mem`\s+)?kernels\b", re.I)
    # mem's own page also says "all eight" and "any of the eight" of its kernels
    all_of = re.compile(rf"\b(?:all|any of the)\s+({words})\b(?!\s+\w)", re.I)
    said = {}
    for page, patterns in [
        ("README.md", [kernels_after]),
        ("docs/mem.md", [kernels_after, all_of]),
        ("docs/architecture.md", [kernels_after]),
    ]:
        text = (REPO / page).read_text()
        said[page] = [m.group(1).lower() for p in patterns for m in p.finditer(text)]
    assert any(said.values()), "the docs no longer spell the count out: this test can go"
    for page, words_said in said.items():
        assert set(words_said) <= {NUMBER_WORDS[count]}, (page, words_said, count)
