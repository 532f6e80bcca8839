"""The screenshots of docs/report.md: the first screen (1400x900) of the page
for this machine's full-suite run, a 2-file comparison, an imported OSU +
STREAM + nvbandwidth set (all real outputs), a real run on an H200 and a
made-up node result (its map and heat maps), made
by headless Chromium and reduced to a small
palette (ImageMagick's convert, where it is there).

    .venv/bin/python tests/python/screenshots.py RUN.json OTHER_RUN.json docs/"""

import pathlib
import subprocess
import sys
import tempfile

sys.path[:0] = [str(pathlib.Path(__file__).parent), str(pathlib.Path(__file__).parents[1])]
from reportkit import GPU_SUITE, PEER_SAMPLES, chromium, report, with_facts  # noqa: E402


def shoot(html: pathlib.Path, png: pathlib.Path, scratch: pathlib.Path, height: int = 900):
    flags = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={scratch / 'profile'}",
        f"--window-size=1400,{height}",
    ]
    subprocess.run(flags + [f"--screenshot={png}", html.as_uri()], capture_output=True, timeout=120, check=True)
    smaller(png)


def smaller(png: pathlib.Path):
    """Fewer colours, RGB without alpha: the PNG compresses to a fraction and
    a page of text and flat plots loses nothing a reader sees (no pngquant
    or ImageMagick needed)."""
    import matplotlib.image
    import numpy as np

    pixels = matplotlib.image.imread(png)[:, :, :3]
    levels = np.round(pixels * 15) / 15  # 16 levels per channel
    matplotlib.image.imsave(png, levels, format="png")


def page(scratch: pathlib.Path, name: str, *args) -> pathlib.Path:
    out = scratch / f"{name}.html"
    code, _, err = report("html", *args, "-o", out)
    assert code == 0, err
    return out


def imported(scratch: pathlib.Path) -> list:
    inputs = [
        PEER_SAMPLES / "osu_latency.txt",
        PEER_SAMPLES / "osu_bw.txt",
        PEER_SAMPLES / "stream-mccalpin-1t.txt",
        PEER_SAMPLES / "nvbandwidth-h200.txt",
    ]
    code, _, err = report("import", *inputs, "--outdir", scratch)
    assert code == 0, err
    return [scratch / f"{p.stem}.json" for p in inputs]


def main(run: str, other: str, docs: str):
    scratch, docs = pathlib.Path(tempfile.mkdtemp(prefix="movebench-shots-")), pathlib.Path(docs)
    shoot(page(scratch, "run", run, "--title", "movebench report: this machine"), docs / "report-run.png", scratch)
    shoot(
        page(scratch, "compare", run, other, "--title", "movebench report: two runs"),
        docs / "report-compare.png",
        scratch,
    )
    shoot(
        page(scratch, "imported", *imported(scratch), "--title", "movebench report: OSU, STREAM, nvbandwidth"),
        docs / "report-imported.png",
        scratch,
    )
    shoot(
        page(scratch, "gpu", GPU_SUITE, "--title", "movebench report: a run on an H200"),
        docs / "report-gpu-node.png",
        scratch,
    )
    facts = with_facts(run, scratch / "run-with-facts.json")  # the hand-made facts layer fixture
    shoot(
        page(scratch, "facts", facts, "--title", "movebench report: with facts and verdicts (hand-made)"),
        docs / "report-facts.png",
        scratch,
    )
    opened = scratch / "open.html"  # one drill-down section open: what a plot looks like
    opened.write_text((scratch / "run.html").read_text().replace("<details>", "<details open>", 1))
    shoot(opened, docs / "report-drilldown.png", scratch, 1800)
    node_shot(scratch, docs)


def node_shot(scratch: pathlib.Path, docs: pathlib.Path):
    """The made-up node result (three NUMA nodes, two devices, a finding of
    each kind: nodedocs.py): its findings, node map and heat maps."""
    from nodedocs import made_up, write

    html = page(
        scratch, "node", write(made_up(), scratch, "node"), "--title", "movebench report: a node result (made up)"
    )
    opened = scratch / "node-open.html"
    opened.write_text(html.read_text().replace("<details>", "<details open>", 1))
    shoot(opened, docs / "report-node.png", scratch, 1900)


if __name__ == "__main__":
    main(*sys.argv[1:4])
