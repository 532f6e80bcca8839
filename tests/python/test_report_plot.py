"""`plot`: valid PNG of the expected pixel size and parseable SVG, drawn as
the page draws its plots (pageplots: at most 8 series per axes)."""

import re
import xml.etree.ElementTree as ET

from movebench_report import pageplots
from movebench_report.model import load_sources
from reportkit import GPU_SUITE, edited, imported, png_size, report, results

SVG = "{http://www.w3.org/2000/svg}"


def series_per_axes(svg) -> list:
    """Per axes of a plot's SVG, its series: the <g id='series-...'> groups
    pageplots gives each line (grid, ticks, peaks and caches are others)."""
    axes = [g for g in ET.parse(svg).getroot().iter(SVG + "g") if (g.get("id") or "").startswith("axes_")]
    return [sum(1 for d in g.iter(SVG + "g") if (d.get("id") or "").startswith("series-")) for g in axes]


def test_png_two_panels(tmp_path):
    out = tmp_path / "p.png"
    code, _, err = report("plot", results()["seq"], results()["lat"], "-o", out)
    assert code == 0, err
    assert png_size(out) == (1280, 420)  # bandwidth and latency panels side by side, 100 dpi


def test_svg_with_cache_lines_and_every_kernel(tmp_path):
    out = tmp_path / "p.svg"
    code, _, err = report("plot", results()["seq"], "--view", "bandwidth", "-o", out)
    assert code == 0, err
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg") and root.get("width") == "460.8pt"
    text = out.read_text()
    assert "L1 " in text and "L2 " in text  # the host's caches as vertical lines
    assert "copy" in text and "triad" in text
    assert series_per_axes(out) == [2]  # copy and triad, one sweep each


def test_comparison_and_combined(tmp_path):
    out = tmp_path / "c.png"
    code, _, err = report("plot", results()["a"], results()["b"], "--combined", "--view", "bandwidth", "-o", out)
    assert code == 0, err
    assert png_size(out) == (640, 420)
    svg = tmp_path / "c.svg"
    report("plot", results()["a"], results()["b"], "--view", "bandwidth", "-o", svg)
    assert "(a)" in svg.read_text() and "(b)" in svg.read_text()  # one line per run


def test_per_array_axis(tmp_path):
    out = tmp_path / "a.svg"
    code, _, err = report("plot", results()["seq"], "--per-array", "--view", "bandwidth", "-o", out)
    assert code == 0, err
    assert "bytes per array" in out.read_text()


def test_imported_collectives(tmp_path):
    out = tmp_path / "m.png"
    code, _, err = report("plot", imported()["mpibench-np2-default"], "--op", "allreduce,bcast", "-o", out)
    assert code == 0, err
    assert png_size(out) == (1280, 420)


def test_bad_suffix_and_empty_selection(tmp_path):
    code, _, err = report("plot", results()["a"], "-o", tmp_path / "x.gif")
    assert code == 2 and "x.gif" in err
    code, _, err = report("plot", results()["a"], "--op", "nosuch", "-o", tmp_path / "x.png")
    assert code == 2 and "nothing to plot" in err
    assert not (tmp_path / "x.png").exists()


def test_a_device_sweep_marks_the_device_caches_not_the_hosts(tmp_path):
    """A seq sweep in device memory (mem --backend cuda) carries the device's
    caches under mem_device; the plot marks those (an H100's 50 MB L2), not
    the host's L1/L2 of the same document."""
    import json

    doc = json.loads(results()["seq"].read_text())
    assert any(c["level"] == 1 for c in doc["host"]["caches"])
    doc["mem_device"] = {"backend": "cuda", "caches": [{"level": 2, "bytes": 50 * 2**20, "instances": 1}]}
    path = tmp_path / "device-seq.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "d.svg"
    code, _, err = report("plot", path, "--view", "bandwidth", "-o", out)
    assert code == 0, err
    text = out.read_text()
    assert "L2 50 MiB" in text and "L1 " not in text


def test_a_gpu_run_plots_as_the_page_at_most_8_series_per_axes(tmp_path):
    """The H200 run's 40 link sweeps: the same panels as the page, each at
    most 8 series, the PCIe peak dashed (twice it on both-direction sums)."""
    out = tmp_path / "gpu.svg"
    code, _, err = report("plot", GPU_SUITE, "-b", "link", "--view", "bandwidth", "-o", out)
    assert code == 0, err
    counts = series_per_axes(out)
    assert counts and max(counts) <= pageplots.MAX_SERIES and sum(counts) >= 40
    points = [p for p in load_sources([GPU_SUITE])[0].points() if p.benchmark == "link" and p.bandwidth]
    sweeps = [s for s in pageplots.series_of(points, "bandwidth") if s.is_sweep]
    assert counts == [len(panel) for panel in pageplots.panels_of(sweeps)]  # the page's panels
    text = out.read_text()
    assert "PCIe peak, 32 GT/s x16 per direction" in text and "x 2 directions" in text


def test_two_files_never_share_a_line(tmp_path):
    """A comparison: each file's sweep its own series (labelled with the file), never one line through both."""
    other = tmp_path / "other.json"
    other.write_text(results()["seq"].read_text())
    out = tmp_path / "ab.svg"
    code, _, err = report("plot", results()["seq"], other, "--view", "bandwidth", "-o", out)
    assert code == 0, err
    assert series_per_axes(out) == [4]
    assert "copy (other)" in out.read_text() and "(sweep 2)" not in out.read_text()


def test_recorded_steps_marked_with_their_causes(tmp_path):
    """The document's `steps` (the binary's, docs/results.md#steps): each
    shaded on its sweep's axes and labelled with its ratio and cause; another
    figure's steps are not drawn; a sweep of one memory kind (link's) says which."""

    def with_steps(doc):
        step = {"from": 1.5, "to": 4.5, "size_before": 32768, "size": 262144, "ratio": 3.0, "also": []}
        doc["steps"] = [
            {"benchmark": "mem", "operation": "latency", "figure": "latency", "unit": "ns", "points": 3,
             "noise": 0.01, "floor_ratio": 1.1, "steps": [dict(step, cause="L1 cache (32.00 KiB)")]},
            {"benchmark": "mem", "operation": "latency", "figure": "bandwidth", "unit": "MB/s", "points": 3,
             "noise": 0.01, "floor_ratio": 1.1, "steps": [dict(step, cause="not this figure's")]},
            {"benchmark": "mem", "operation": "latency", "figure": "latency", "unit": "ns", "points": 3,
             "noise": 0.01, "floor_ratio": 1.1, "memory": "pinned", "steps": [dict(step, ratio=2.0, cause="unexplained")]},
        ]  # fmt: skip

    src = edited(results()["lat"], tmp_path / "lat.json", with_steps)
    out = tmp_path / "s.svg"
    code, _, err = report("plot", src, "--view", "latency", "-o", out)
    assert code == 0, err
    text = out.read_text()
    assert "x3 L1 cache (32.00 KiB)" in text and "pinned: x2 unexplained" in text
    # The two sweeps' steps over one span: their labels side by side, not one over the other.
    at = {
        label: re.search(rf'<text [^>]*transform="translate\(([^)]*)\)[^>]*>[^<]*{re.escape(label)}', text)
        for label in ("x3 L1 cache", "pinned: x2 unexplained")
    }
    assert all(at.values()) and len({m[1] for m in at.values()}) == 2, at
    assert "not this figure" not in text
    plain = tmp_path / "plain.svg"
    report("plot", results()["lat"], "--view", "latency", "-o", plain)
    assert "x3 L1 cache" not in plain.read_text()
