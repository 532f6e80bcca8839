"""`html`: one self-contained page, escaped, seen by a real headless browser."""

import re
import subprocess

import pytest

from reportkit import chromium, edited, png_size, report, results


def page(tmp_path, *files):
    out = tmp_path / "r.html"
    code, _, err = report("html", *files, "-o", out, "--title", "movebench <test>")
    assert code == 0, err
    return out


def test_self_contained_with_plot_tables_and_facts(tmp_path):
    html = page(tmp_path, results()["seq"]).read_text()
    plots = re.findall(r"<svg role='img' class='plot'.*?</svg>", html, re.S)
    assert plots, "the plot is inline SVG"
    assert "<table>" in html and "triad" in html
    assert "validated" in html and "cpu_model" in html and "&quot;point_time&quot;" in html
    assert "Headline results" in html
    assert "movebench &lt;test&gt;" in html
    assert not re.search(r"(src|href)=['\"]?(https?:|//|file:)", html), "nothing is fetched"


def test_every_string_from_a_file_is_escaped(tmp_path):
    def evil(doc):
        doc["host"]["hostname"] = "<script>alert(1)</script>"
        doc["errors"] = {"x<b>": "<img src=x onerror=alert(2)>"}
        doc["validated"] = False
        doc["timings"][0]["operation"] = "<i>copy</i>"

    bad = edited(results()["a"], tmp_path / "evil.json", evil)
    html = page(tmp_path, bad).read_text()
    assert "<script>" not in html and "<img src=x" not in html and "<i>copy" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "NOT validated" in html


def test_comparison_section_for_two_runs(tmp_path):
    html = page(tmp_path, results()["a"], results()["b"]).read_text()
    assert "mem.triad.1t</th><td>" in html  # headline results of each run
    assert "b / a" in html and "B/A" in html  # the summary side by side, the comparison table per benchmark
    assert html.count("class='plot'") >= 2


def test_chromium_renders_the_plot_and_the_table(tmp_path):
    browser = chromium()
    if not browser:
        pytest.skip("no chromium: install the Debian package chromium (MOVEBENCH_EXTRA_PACKAGES=chromium make test)")
    html = page(tmp_path, results()["seq"])
    opened = tmp_path / "open.html"  # the plots are in collapsed sections: open them for the picture
    opened.write_text(html.read_text().replace("<details>", "<details open>"))
    html = opened
    flags = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(flags + ["--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=90)
    assert "<table>" in dom.stdout and "triad" in dom.stdout, dom.stderr[-2000:]
    shot = tmp_path / "shot.png"
    subprocess.run(
        flags + ["--window-size=1280,1400", f"--screenshot={shot}", html.as_uri()], capture_output=True, timeout=90
    )
    assert png_size(shot) == (1280, 1400)
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)[:, :, :3]
    assert pixels.std() > 0.05, "the screenshot is blank"
    # The plot's first line colour (matplotlib C0, #1f77b4) is on screen.
    blue = (
        (abs(pixels[:, :, 0] - 0x1F / 255) < 0.06)
        & (abs(pixels[:, :, 1] - 0x77 / 255) < 0.06)
        & (abs(pixels[:, :, 2] - 0xB4 / 255) < 0.06)
    )
    assert blue.sum() > 100, "no plot in the screenshot"
    # Table headers have the background #eeeeff, which nothing else uses.
    header = (abs(pixels[:, :, 0] - 0xEE / 255) < 0.01) & (abs(pixels[:, :, 2] - 1.0) < 0.01)
    assert header.sum() > 200, "no table in the screenshot"
