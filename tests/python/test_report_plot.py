"""`plot`: valid PNG of the expected pixel size and parseable SVG."""
import xml.etree.ElementTree as ET

from reportkit import imported, png_size, report, results


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
    assert "copy threads=1" in text and "triad threads=1" in text


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
