"""movebench-report on node results (issue 27, what is shown): `table`
prints the NUMA matrices (rows initiators, columns targets), the core
matrix and the devices' links, then the findings; the page draws each
matrix as a heat map, every cell with its value and the cells a finding
names outlined (id finding-...) and their values ending in '*', and the
node map, every NUMA node and device a box and every path measured an
edge labelled with its figures, red where a finding names it. On the real
results committed (this VM's one NUMA node with one and with two PoCL
devices, the H200's) and on one made up from them with three NUMA nodes
and a finding of each kind (tests/python/nodedocs.py). Labels from a
hostile file are bounded. A few seconds each."""

import re
import time

import pytest
from nodedocs import GRID, H200, POCL2, VM, load, made_up, write

from movebench_report import node as nodemodel
from movebench_report.canvas import cell_text
from movebench_report.labels import MAX_TEXT
from reportkit import report

LONG = 100_000


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("node")
    return {
        "made-up": write(made_up(), folder, "made-up"),
        "h200": write(load(H200), folder, "h200"),
        "vm": VM,
        "pocl2": POCL2,
    }


@pytest.fixture(scope="module")
def made_up_page(files, tmp_path_factory):
    out = tmp_path_factory.mktemp("page") / "node.html"
    code, _, err = report("html", files["made-up"], "-o", out)
    assert code == 0, err
    return out.read_text()


def block(out: str, title: str) -> list:
    """The lines of one table of `table`'s text, its title first."""
    return out[out.index(title) :].split("\n\n")[0].splitlines()


def cells(line: str) -> list:
    return re.split(r"\s{2,}", line.strip())


def svg_text(page: str, ident: str) -> str:
    """The text matplotlib wrote in the group with this id."""
    found = re.search(rf'<g id="{re.escape(ident)}">.*?<text[^>]*>([^<]*)</text>', page, re.S)
    assert found, f"no {ident} with a text"
    return found.group(1)


def test_table_prints_each_numa_matrix_with_its_findings_marked(files):
    code, out, err = report("table", files["made-up"], "-b", "node")
    assert code == 0, err
    for index, title in ((0, "read bandwidth (sum) [MB/s]"), (1, "triad"), (2, "idle latency")):
        lines = block(out, f"made-up: node numa {title}")
        assert cells(lines[1]) == ["initiator \\ target", "node 0", "node 1", "node 2"]
        for i in (0, 1):
            row = cells(lines[2 + i])
            assert row[0] == f"node {i}"
            for t in (0, 1, 2):
                assert float(row[1 + t].rstrip(" *")) == pytest.approx(GRID[(i, t)][index], rel=1e-4)
    # The DRAM-peak finding on node 1's local triad, the NUMA factor's on 0 -> 2's latency: those cells only.
    assert cells(block(out, "made-up: node numa triad")[3])[2].endswith("*")
    latency = block(out, "made-up: node numa idle latency")
    assert cells(latency[2])[3].endswith("*")
    assert sum(c.endswith("*") for line in latency[2:4] for c in cells(line)) == 1
    assert "node 0     node 0        10" in out  # the numa factors, with their SLIT distance
    findings = block(out, "made-up: node findings: 6")
    assert sum(line.startswith(("numa ", "cores ", "devices ")) for line in findings) == 6


def test_table_prints_the_core_matrix_and_devices(files):
    code, out, err = report("table", files["made-up"], "-b", "node")
    assert code == 0, err
    core = block(out, "made-up: node core matrix [ns]")
    assert cells(core[1]) == ["cpu", "0", "1", "2", "3"]
    assert cells(core[5]) == ["cpu 3", "400.0 *", "400.0 *", "400.0 *", "-"]  # cpu 3's same_l3 finding
    assert cells(core[2])[2] == "201.0"
    host_to_device = block(out, "made-up: node devices host to device [MB/s]")
    assert cells(host_to_device[3])[1].endswith("*") and not cells(host_to_device[2])[1].endswith("*")
    assert "read" in block(out, "made-up: node devices all at once")[2]


def test_table_of_real_results(files):
    """The H200's: its one NUMA cell, its 16 CPUs' 120 pairs, its GPU; the
    values those of the records."""
    doc = load(H200)
    code, out, err = report("table", files["h200"], "-b", "node")
    assert code == 0, err
    record = next(r for r in doc["timings"] if r["operation"] == "numa" and r["params"]["kernel"] == "sum")
    row = cells(block(out, "h200: node numa read bandwidth")[2])
    assert float(row[1]) == pytest.approx(record["figures"]["bandwidth"]["value"], abs=0.06)
    core = block(out, "h200: node core matrix [ns]")
    assert len(core) >= 2 + 16 and cells(core[2])[1] == "-"
    pair = next(r for r in doc["timings"] if r["operation"] == "cores")
    a, b = pair["params"]["cpu_a"], pair["params"]["cpu_b"]
    assert float(cells(core[2 + a])[1 + b]) == pytest.approx(pair["figures"]["latency"]["value"], abs=0.06)
    assert "device 0 (cuda NVIDIA H200)" in block(out, "h200: node devices host to device")[2]
    assert "none: no endpoint worse" in out
    # Two PoCL devices: a row each, and all at once both ways.
    code, out, err = report("table", files["pocl2"], "-b", "node")
    assert code == 0, err
    assert len(block(out, "node-pocl2: node devices device to host")) == 4
    assert len(block(out, "node-pocl2: node devices all at once")) == 4


def test_heat_maps_hold_every_cell_and_mark_the_findings(made_up_page):
    for kernel, index in (("sum", 0), ("triad", 1), ("chase", 2)):
        for (i, t), values in GRID.items():
            value = values[index] / (1e3 if index < 2 else 1)  # GB/s, ns
            text = svg_text(made_up_page, f"value-numa-{kernel}-{i}-{t}")
            assert f'id="cell-numa-{kernel}-{i}-{t}"' in made_up_page
            marked = (kernel, i, t) in (("triad", 1, 1), ("chase", 0, 2))
            assert text == cell_text(value) + ("*" if marked else ""), (kernel, i, t, text)
            assert (f'id="finding-numa-{kernel}-{i}-{t}"' in made_up_page) == marked
    # cpu 3's same_l3 finding: its three pairs, both halves of the matrix.
    outlined = set(re.findall(r'id="finding-cores-(\d)-(\d)"', made_up_page))
    assert outlined == {(a, b) for a in "0123" for b in "0123" if a != b and "3" in (a, b)}
    assert svg_text(made_up_page, "value-cores-0-1") == "201"
    # device 1's host to device finding, from both NUMA nodes; its device to host not.
    assert set(re.findall(r'id="finding-devices-(\w+)-(\d)-(\d)"', made_up_page)) == {
        ("read", "1", "0"),
        ("read", "1", "1"),
    }
    for title in ("NUMA matrix", "core matrix", "links from each NUMA node"):
        assert re.search(rf"<title>[^<]*{title}", made_up_page), title


def test_node_map_edges_carry_the_values_and_the_findings(made_up_page):
    edges = dict(re.findall(r"<g id='((?:numa|device)-edge-[\d-]+)'( class='finding')?>", made_up_page))
    assert edges == {
        "numa-edge-0-1": "",
        "numa-edge-0-2": " class='finding'",  # its latency's NUMA factor
        "numa-edge-1-2": "",
        "device-edge-0-0": "",
        "device-edge-0-1": "",
        "device-edge-1-0": " class='finding'",  # device 1's host to device
        "device-edge-1-1": " class='finding'",
    }
    label = re.search(r"<g id='numa-edge-0-1'>.*?</g>", made_up_page).group(0)
    assert "node 0 to node 1: read 40 GB/s, triad 35 GB/s, 140 ns" in label
    assert "node 1 to node 0: read 41 GB/s, triad 36 GB/s, 141 ns" in label
    assert "FINDING node 0 to node 2: read 20 GB/s, triad 18 GB/s, 300 ns" in made_up_page
    pocl = load(POCL2)
    h2d = next(
        r for r in pocl["timings"] if r["params"].get("case") == "link.copy.read" and r["params"].get("device") == 0
    )
    gbs = f"{h2d['figures']['bandwidth']['value'] / 1e3:.3g} GB/s"
    assert f"device 0: H2D {gbs}" in re.search(r"<g id='device-edge-0-0'>.*?</g>", made_up_page).group(0)
    # node 1's local triad finding: its box; the memory-only node; the findings no edge shows, in words.
    assert "<g id='numa-node-1' class='finding'>" in made_up_page and "NUMA node 2 (memory only)" in made_up_page
    assert "FINDING: cores: L3 1 same_l3" in made_up_page and "FINDING: devices: all at once" in made_up_page
    # The summary answers first: every finding, before the node map.
    summary = made_up_page[: made_up_page.index("<h2>The node</h2>")]
    assert summary.count("<li class='bad'>") == 6


def test_real_maps(files, tmp_path):
    for name, devices in (("pocl2", 2), ("h200", 1)):
        out = tmp_path / f"{name}.html"
        code, _, err = report("html", files[name], "-o", out)
        assert code == 0, err
        page = out.read_text()
        assert len(re.findall(r"<g id='device-(\d+)'>", page)) == devices, name
        assert len(re.findall(r"<g id='device-edge-\d+-0'>", page)) == devices, name
        assert "class='finding'" not in page and "<li class='bad'>" not in page  # no finding in these runs
    # The H200's core matrix: all 240 cells of 16 CPUs, each its pair's value.
    doc = load(H200)
    page = (tmp_path / "h200.html").read_text()
    assert len(re.findall(r'id="cell-cores-\d+-\d+"', page)) == 256
    for r in doc["timings"]:
        if r["operation"] == "cores":
            a, b = r["params"]["cpu_a"], r["params"]["cpu_b"]
            assert svg_text(page, f"value-cores-{b}-{a}") == cell_text(r["figures"]["latency"]["value"])


def lengthened(doc: dict) -> dict:
    """Every name node's records and findings hold made LONG characters long."""
    doc["host"]["hostname"] += "x" * LONG
    for r in doc["timings"]:
        for key in ("device_name", "backend", "relation", "placement"):
            if key in r["params"]:
                r["params"][key] += "x" * LONG
    for f in doc["findings"]:
        f.update({k: f[k] + "x" * LONG for k in ("text", "figure", "part", "unit", "endpoint")})
    for f in doc["numa_factors"]:
        f["of"] += "x" * LONG
    for n in doc["facts"]["memory_tiers"]["nodes"]:
        n["kind"] += "x" * LONG
    return doc


def test_long_names_are_bounded(files, tmp_path):
    """A made-up node whose every name (device, backend, relation, findings'
    words, memory kind) is 100 000 characters: table and html as fast as on
    the real-sized file, and no long name shown whole."""
    path = write(lengthened(made_up()), tmp_path, "long")
    for args in (["table", "-b", "node"], ["html", "-o", tmp_path / "p.html"]):
        start = time.monotonic()
        code, _, err = report(args[0], files["made-up"], *args[1:])
        seconds = time.monotonic() - start
        assert code == 0, err
        start = time.monotonic()
        code, out, err = report(args[0], path, *args[1:])
        long_seconds = time.monotonic() - start
        assert code == 0 and "Traceback" not in err, err
        assert long_seconds <= 5 * seconds + 2, f"{args[0]}: {long_seconds:.1f} s against {seconds:.1f} s"
        shown = out + ((tmp_path / "p.html").read_text() if args[0] == "html" else "")
        assert "x" * (MAX_TEXT + 1) not in shown, args[0]
        assert "x" * 20 in shown, args[0]  # the names are shown, cut


def test_bad_node_records_are_one_line(tmp_path):
    doc = made_up()
    next(r for r in doc["timings"] if r["operation"] == "numa")["params"]["initiator"] = "zero"
    code, _, err = report("table", write(doc, tmp_path, "bad"), "-b", "node")
    assert code == 2 and "the node records are not as movebench node writes them" in err and err.count("\n") == 1
    doc = made_up()
    doc["timings"] += [
        dict(doc["timings"][0], params=dict(doc["timings"][0]["params"], target=t)) for t in range(100, 200)
    ]
    code, _, err = report("table", write(doc, tmp_path, "wide"), "-b", "node")
    assert code == 2 and f"more than the report shows ({nodemodel.MOST_NUMA_NODES})" in err
