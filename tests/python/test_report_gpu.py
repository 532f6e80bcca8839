"""Issue 19 on a real GPU run (tests/data/results/run-h200.json: an H200 on
PCIe Gen5 x16, its facts and a link verdict): the summary rows name the link
as the benchmark does, the node picture puts the measured copies on the
GPU's PCIe link against its peak; and on the hand-made 2-socket facts, the
picture's DRAM agrees with the summary (each socket its own peak, the
all-socket figure against the whole). Pure Python, no binary, no browser:
well under a second."""

import json
import re

import pytest

from movebench_report import nodesvg, pageplots
from movebench_report.facts import dram_of, links_of
from movebench_report.model import load_sources
from movebench_report.summary import rows_of, value_text
from reportkit import GPU_SUITE, SUITE, with_facts


@pytest.fixture(scope="module")
def gpu():
    return json.loads(GPU_SUITE.read_text())


def test_link_rows_name_the_device_and_the_verdict_says_its_measure(gpu):
    rows = {r.figure: r for r in rows_of(gpu)}
    verdict = gpu["verdicts"][0]
    h2d = rows[verdict["figure"]]
    assert h2d.path == f"link:{gpu['device']} H2D" and h2d.verdict == verdict["verdict"]
    assert h2d.fraction == pytest.approx(verdict["value"] / verdict["peak"])
    assert (
        h2d.reasons[0] == f"{100 * h2d.fraction:.0f}% of peak, under the normal band "
        f"(from {100 * verdict['band']['normal_from']:.0f}%)"
    )
    assert h2d.reasons[1:] == verdict["reasons"]
    links = [r for r in rows.values() if r.path.startswith("link:")]
    assert {r.path for r in links} == {f"link:{gpu['device']} {d}" for d in ("H2D", "D2H", "duplex")}


def test_the_gpu_sits_on_its_pcie_link_with_the_copies_against_its_peak(gpu):
    svg = nodesvg.node_svg(gpu)
    gpu_link = next(link for link in links_of(gpu["facts"]) if link.kind == "gpu")
    assert f">{gpu['device']}<" in svg and f"PCIe {gpu_link.trained()}" in svg
    assert f"link peak {gpu_link.peak / 1e9:.3g} GB/s per direction" in svg
    links = [r for r in rows_of(gpu) if r.path.startswith("link:")]
    for row in links:  # each direction's label: measured = fraction of the peak, in its band's colour
        label = (
            f"{row.path.rsplit(' ', 1)[1]}: {value_text(row.value, row.unit)} = "
            f"{100 * row.fraction:.0f}% of {value_text(row.peak, row.unit)}"
        )
        assert re.search(f"fill='{nodesvg.colour(row.fraction)}'[^>]*>{re.escape(label)}<", svg), label
    assert "no PCIe facts" not in svg, "the copies belong on the GPU's own PCIe box"
    assert svg.count("<rect") == 2 + len(gpu["facts"]["pcie"])  # DRAM, CPU, one box per PCIe device
    edge = nodesvg.colour(min(r.fraction for r in links))
    assert f"stroke='{edge}' stroke-width='5'" in svg
    # the NIC and its PCIe function are one box, not two
    nic = gpu["facts"]["nics"][0]
    assert svg.count(f">{nic['name']}") == 1 and svg.count("Ethernet controller") == 1


def test_dram_per_socket_in_the_boxes_and_the_whole_on_the_edge(tmp_path):
    doc = json.loads(with_facts(SUITE, tmp_path / "facts.json").read_text())
    dram = dram_of(doc["facts"])
    row = next(r for r in rows_of(doc) if r.path == "dram")
    svg = nodesvg.node_svg(doc)
    text = " ".join(re.findall(r">([^<]*)</text>", svg))  # the boxes' lines, wrapped or not
    sockets = len(dram.sockets)
    assert sockets > 1 and f"DRAM socket {sockets - 1}:" in text
    for number, peak, channels in dram.sockets:
        assert f"peak {peak / 1e9:.3g} GB/s (socket {number}), {channels}" in text
    # the whole node's peak: the summary's, and the sum of the sockets'
    assert row.peak * 1e6 == pytest.approx(dram.peak) == pytest.approx(sum(p for _, p, _ in dram.sockets))
    label = (
        f"dram: {value_text(row.value, row.unit)} = {100 * row.fraction:.0f}% of "
        f"{value_text(row.peak, row.unit)} (all {sockets} sockets)"
    )
    assert label in text and text.count(label) == 1
    assert f"peak {value_text(row.peak, row.unit)} (socket" not in text  # no socket claims the whole


def test_no_panel_mixes_byte_accountings(gpu, tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(gpu))
    points = [p for p in load_sources([path])[0].points() if p.benchmark == "link" and p.bandwidth]
    series = [s for s in pageplots.series_of(points, "bandwidth") if s.is_sweep]
    panels = pageplots.panels_of(series)
    assert len({s.accounting for s in series}) > 1, "the run holds one- and two-direction figures"
    for panel in panels:
        assert len({s.accounting for s in panel}) == 1, [s.label for s in panel]
        assert len(panel) <= pageplots.MAX_SERIES
    both = [p for p in panels if "both directions" in p[0].accounting]
    assert both and all(s.operation.endswith(".total") for p in both for s in p)
    assert "(application bytes, both directions)" in pageplots._panel_title(both[0], True)
