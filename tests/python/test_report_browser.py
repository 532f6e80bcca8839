"""Issue 19, tested as a person sees it: headless Chromium renders the page
of the real full-suite result (and of a hostile one) at 1400x900. A probe
script, added to a copy of the page only (the page itself has none), writes
what the layout engine measured into the DOM, which --dump-dom returns: the
summary table in the first screen, no element wider than the viewport
(sections closed and open), every SVG with a title."""

import json
import re
import subprocess

import pytest

from reportkit import GPU_SUITE, SUITE, chromium, png_size, report, suite_page, with_facts

WIDTH, HEIGHT = 1400, 900

PROBE = """<script>
function overflowing() {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')].filter(e => {
    if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > width + 1;
  }).map(e => e.tagName + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().right));
}
const table = document.getElementById('summary').getBoundingClientRect();
const closed = overflowing();
document.querySelectorAll('details').forEach(d => d.open = true);
const opened = overflowing();
const titles = [...document.querySelectorAll('svg')].map(s => (s.querySelector(':scope > title') || {}).textContent || '');
const probe = document.createElement('pre');
probe.id = 'probe';
probe.textContent = JSON.stringify({width: document.documentElement.clientWidth, top: table.top,
  bottom: table.bottom, closed, opened, titles, pageWidth: document.documentElement.scrollWidth});
document.body.appendChild(probe);
</script>"""


def browser_flags(tmp_path):
    browser = chromium()
    if not browser:
        pytest.skip("no chromium: install the Debian package chromium (MOVEBENCH_EXTRA_PACKAGES=chromium make test)")
    return [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        f"--window-size={WIDTH},{HEIGHT}",
    ]


def page(tmp_path, *files):
    out = tmp_path / "r.html"
    code, _, err = report("html", *files, "-o", out)
    assert code == 0, err
    return out


def measured(tmp_path, html) -> dict:
    probed = tmp_path / "probed.html"
    probed.write_text(html.read_text().replace("</body>", PROBE + "</body>"))
    dom = subprocess.run(
        browser_flags(tmp_path) + ["--virtual-time-budget=5000", "--dump-dom", probed.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r"<pre id=\"probe\">(.*?)</pre>", dom.stdout, re.S)
    assert found, dom.stderr[-2000:]
    return json.loads(
        found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    )


def check_layout(seen: dict):
    assert seen["width"] == WIDTH
    assert 0 <= seen["top"] and seen["bottom"] <= HEIGHT, f"summary table not in the first screen: {seen}"
    assert not seen["closed"] and not seen["opened"], f"wider than the viewport: {seen['closed'] + seen['opened']}"
    assert seen["pageWidth"] <= WIDTH
    assert seen["titles"] and all(len(t) > 10 for t in seen["titles"]), seen["titles"]


def test_real_suite_first_screen(tmp_path):
    html = suite_page()
    check_layout(measured(tmp_path, html))
    shot = tmp_path / "shot.png"
    subprocess.run(browser_flags(tmp_path) + [f"--screenshot={shot}", html.as_uri()], capture_output=True, timeout=120)
    assert png_size(shot) == (WIDTH, HEIGHT)
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)[:, :, :3]
    assert pixels.std() > 0.05, "the screenshot is blank"
    header = (abs(pixels[:, :, 0] - 0xEE / 255) < 0.01) & (abs(pixels[:, :, 2] - 1.0) < 0.01)
    assert header.sum() > 200, "no summary table in the first screen"


def test_suite_with_facts_and_a_comparison(tmp_path):
    facts = with_facts(SUITE, tmp_path / "facts.json")
    check_layout(measured(tmp_path, page(tmp_path, SUITE, facts)))


def test_real_gpu_run_first_screen(tmp_path):
    """The H200 run: its longer device names and the node picture's four
    boxes still fit the viewport, the summary in the first screen."""
    check_layout(measured(tmp_path, page(tmp_path, GPU_SUITE)))


def test_node_map_and_heat_maps_fit(tmp_path):
    """A made-up node result (three NUMA nodes, two devices, findings:
    tests/python/nodedocs.py) beside the real suite: its node map and heat
    maps fit the viewport, closed and open, each titled."""
    from nodedocs import made_up, write

    node = write(made_up(), tmp_path, "node")
    seen = measured(tmp_path, page(tmp_path, SUITE, node))
    check_layout(seen)
    assert any("NUMA nodes and devices" in t for t in seen["titles"]) and any(
        "core matrix" in t for t in seen["titles"]
    )


def test_hostile_names_render_as_text(tmp_path):
    """Tags in names, the hostname, the CPU model, verdict reasons and
    device names: the browser shows them as text, no element is made."""
    evil = "<img src=x onerror=alert(1)><svg onload=alert(2)><script>alert(3)</script>"

    def change(doc):
        doc["host"]["hostname"] = "h" + evil
        doc["host"]["cpu_model"] = "c" + evil
        doc["verdicts"][0]["reasons"] = ["r" + evil]
        doc["verdicts"][0]["path"] = "p" + evil
        doc["facts"]["pcie"][0]["name"] = "d" + evil
        doc["timings"][0]["operation"] = "o" + evil

    from reportkit import edited

    hostile = edited(with_facts(SUITE, tmp_path / "f.json"), tmp_path / "evil.json", change)
    html = page(tmp_path, hostile)
    dom = subprocess.run(
        browser_flags(tmp_path) + ["--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    assert "onerror" not in re.sub(r"&lt;.*?&gt;", "", dom)
    assert "<script" not in dom and "<img" not in dom
    assert dom.count("&lt;script&gt;alert(3)&lt;/script&gt;") >= 4
