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
