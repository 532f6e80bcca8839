"""docs/performance.md's GPU tables are rebuilt from the committed outputs of the
GPU jobs (tests/data/gpu/<date>-<device>/, and the peers' and results' files a
section names): a figure in those tables that no committed file holds fails.
No binary is needed; the tables are read as text (bench/gpu_tables.py)."""

import functools
import re
import sys
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
import gpu_tables  # noqa: E402

PAGE = REPO / "docs" / "performance.md"
# A figure: a number standing alone (not part of a word, a size such as 512M,
# a range a..b or a bus id), with at least this many significant digits; the
# smaller ones (counts, sizes, 2^29) are the commands', not the measurements'.
FIGURE = re.compile(r"(?<![\w.^-])\d+(?:\.\d+)?(?![\w.])")
LEAST_DIGITS = 3
DATA = re.compile(r"tests/data/[\w./-]+[\w/]")


def significant_digits(token):
    return len(token.replace(".", "").lstrip("0"))


def figures(text):
    return [t for t in FIGURE.findall(text) if significant_digits(t) >= LEAST_DIGITS]


@functools.cache
def held(paths):
    """The numbers the files under `paths` (a tuple) hold, and their roundings by places."""
    return gpu_tables.held_numbers(paths), {}


def is_held(token, numbers):
    """True when some number the files hold, rounded as the page rounds the figure, is it."""
    exact, rounded = numbers
    places = len(token.split(".")[1]) if "." in token else 0
    if places not in rounded:
        rounded[places] = {round(x, places) for x in exact}
    return float(token) in rounded[places]


def gpu_sections(text):
    """{heading: body} of each section about a GPU (an H200 in its heading)."""
    parts = re.split(r"^(#{2,4} .*)$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2) if "H200" in parts[i]}


def table_rows(body):
    """Each table row as its cells, the header and the rule left out."""
    rows = [line for line in body.splitlines() if line.startswith("|")]
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows if not set(r) <= set("|- ")]


def sources(body):
    """The committed files and folders a section names (tests/data/...); a job's run
    folder named (tests/data/gpu/<job>/run1) stands for the job's folder, all its runs."""
    paths = {REPO / m.rstrip(".,") for m in DATA.findall(body)}
    paths = {p.parent if p.name.startswith("run") and p.parent.parent.name == "gpu" else p for p in paths}
    return sorted(p for p in paths if p.exists())


def unheld(body):
    """The figures of a section's tables that none of the files it names holds (the
    tables bench/gpu_tables.py makes are checked by making them again, below)."""
    for table in rebuilt_tables(body):
        body = body.replace(table, "")
    numbers = held(tuple(sources(body)))
    return [(cells[0], t) for cells in table_rows(body) for t in figures(" | ".join(cells)) if not is_held(t, numbers)]


def test_every_figure_of_the_gpu_tables_is_held_by_a_committed_file():
    sections = gpu_sections(PAGE.read_text())
    assert len(sections) >= 2, list(sections)
    for heading, body in sections.items():
        if not table_rows(body):
            continue
        assert sources(body), f"{heading}: its tables name no committed file"
        assert unheld(body) == [], heading


def test_each_runs_figure_is_held_by_that_runs_own_files():
    """A row of a table whose header says (run1, run2) gives run1's figure first and
    run2's second: each is held by its own run's folder."""
    for heading, body in gpu_sections(PAGE.read_text()).items():
        rows = table_rows(body)
        if not rows or "(run1, run2)" not in rows[0][0]:
            continue
        folders = [p for p in sources(body) if p.is_dir()]
        runs = {run: held(tuple(f / run for f in folders if (f / run).is_dir())) for run in ("run1", "run2")}
        checked = 0
        for cells in rows[1:]:
            parts = cells[1].split(", ")
            if len(parts) != 2:
                continue
            for run, part in zip(("run1", "run2"), parts):
                for t in figures(part):
                    assert is_held(t, runs[run]), (heading, cells[0], run, t)
                    checked += 1
        assert checked >= 10, heading


def rebuilt_tables(text):
    """The output of every `bench/gpu_tables.py babelstream ...` the text names, made
    here from the committed files it names."""
    tables = []
    for args in re.findall(r"`bench/gpu_tables\.py babelstream ([^`]+)`", text):
        paths = [REPO / a for a in args.split()]
        docs = [gpu_tables.json.loads(gpu_tables.read_text(p)) for p in paths[1:]]
        tables.append(gpu_tables.babelstream_table(gpu_tables.read_text(paths[0]), docs))
    return tables


def test_the_babelstream_tables_are_gpu_tables_output():
    """Every `bench/gpu_tables.py babelstream ...` the page names is followed by that
    command's output, rebuilt here: its figures (calls in us, ratios) are derived,
    so they are checked by making them again, not by finding them in a file."""
    text = PAGE.read_text()
    tables = rebuilt_tables(text)
    assert tables
    for table in tables:
        assert table in text, table


def test_a_figure_no_file_holds_is_found(tmp_path):
    """The check itself: a made-up figure in a section's table is named, one
    the file holds (as rounded on the page) is not."""
    data = tmp_path / "run.out"
    data.write_text("Copy: 4211412.86 MB/s, first word 1152 ns, 199.74 ns\n")
    body = f"Files: {data}\n\n| figure | value |\n| --- | --- |\n| copy | 4211413 MB/s, 199.7 ns |\n| x | 4211414 |\n"
    numbers = (gpu_tables.held_numbers([data]), {})
    found = [t for cells in table_rows(body) for t in figures(" | ".join(cells)) if not is_held(t, numbers)]
    assert found == ["4211414"]


@pytest.mark.parametrize("token,digits", [("55263", 5), ("0.875", 3), ("37.0", 3), ("2", 1), ("0000", 0)])
def test_significant_digits(token, digits):
    assert significant_digits(token) == digits


def test_the_tables_own_files_are_committed():
    """The folders the job writes into are in the repository, not elsewhere."""
    for body in gpu_sections(PAGE.read_text()).values():
        for p in sources(body):
            assert Path(p).resolve().is_relative_to(REPO / "tests" / "data")
