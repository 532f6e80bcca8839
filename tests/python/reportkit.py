"""Helpers of the movebench-report tests: real result files made by the
binary once per session (tiny sizes, cached here), the imported samples, and
ways to run the tool in-process (fast) or as its console script. Not a
conftest.py: tests/conftest.py is the one `from conftest import` must find."""

import contextlib
import functools
import io
import json
import pathlib
import shutil
import struct
import subprocess
import tempfile

import pytest

from conftest import REPO, run_movebench  # tests/conftest.py
from movebench_report import cli

DATA = pathlib.Path(__file__).parent / "data"
PEER_SAMPLES = REPO / "tests" / "data" / "peers"  # real outputs of the peer tools (README there)
VENV_TOOL = REPO / ".venv" / "bin" / "movebench-report"


def _scratch(name: str) -> pathlib.Path:
    return pathlib.Path(tempfile.mkdtemp(prefix=f"movebench-report-{name}-"))


@functools.cache
def results():
    """{name: path} of result files the binary wrote during this run (once per session)."""
    out = _scratch("results")
    runs = {
        "a": ["mem", "-n", "64K", "-r", "5", "--threads", "1"],
        "b": ["mem", "-n", "64K", "-r", "5", "--threads", "1"],
        "scale": ["mem", "-n", "64K", "-r", "3", "--threads", "1,2"],
        "seq": ["mem", "seq", "--sizes", "4K:256K:x4", "--point-time", "0.002", "--kernels", "copy,triad"],
        "lat": ["mem", "latency", "--sizes", "4K:256K:x8", "--point-time", "0.01"],
    }
    paths = {}
    for name, args in runs.items():
        paths[name] = out / f"{name}.json"
        extra = ["--outdir", str(out / "dat")] if name == "seq" else []
        run_movebench(*args, *extra, "--json", paths[name], check=0)
    return paths


def shared_samples() -> list:
    """The real peer tool outputs in tests/data/peers (always there: they are part of the repository)."""
    samples = sorted(PEER_SAMPLES.glob("*.txt"))
    assert samples, f"no real tool outputs in {PEER_SAMPLES}"
    return samples


class Samples(dict):
    """{stem: imported path} of the peer samples and the hand-written ones."""


def imported() -> Samples:
    """Every shared and hand-written sample, imported (once per session)."""
    return _imported(tuple(shared_samples()))


@functools.cache
def _imported(shared):
    out = _scratch("imported")
    inputs = list(shared) + [p for p in sorted(DATA.iterdir()) if p.stem not in BAD_FILES | NOT_TOOL_OUTPUTS]
    code, _, err = report("import", *inputs, "--outdir", out)
    assert code == 0, err
    return Samples({p.stem: p for p in out.glob("*.json")})


# Files in tests/python/data that import must refuse.
BAD_FILES = {"truncated", "foreign"}
# Files in tests/python/data that are no tool's output (the facts-layer fixture).
NOT_TOOL_OUTPUTS = {"facts-verdicts"}


def report(*args):
    """Runs movebench-report in this process: (exit code, stdout, stderr)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            code = cli.main([str(a) for a in args])
        except SystemExit as e:  # argparse usage errors
            code = e.code
    return code, stdout.getvalue(), stderr.getvalue()


def report_json(*args, expect=(0,)):
    """The parsed --format json output; the exit code must be one of `expect`."""
    code, out, err = report(*args, "--format", "json")
    assert code in expect, err
    return json.loads(out)


def png_size(path) -> tuple:
    """(width, height) from the IHDR chunk; asserts the PNG signature."""
    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def edited(src, dst, change):
    """Writes a copy of result document `src` changed by change(doc) to dst."""
    doc = json.loads(pathlib.Path(src).read_text())
    change(doc)
    pathlib.Path(dst).write_text(json.dumps(doc))
    return dst


def scale_timings(factor):
    """A change for edited(): samples made steady (1 % apart from the best, so
    the verdicts do not hang on this machine's noise), then every sample
    `factor` times longer, every figure with a bandwidth unit divided by it and
    with a time unit multiplied."""

    def change(doc):
        for rec in doc["timings"]:
            best = min(rec["samples"])
            rec["samples"] = [best * (1 + 0.01 * i) * factor for i in range(len(rec["samples"]))]
            if rec["stats"]:
                for key in ("min", "median", "mean", "max", "stddev"):
                    rec["stats"][key] *= factor
            for fig in rec["figures"].values():
                fig["value"] *= (1 / factor) if fig["unit"].endswith("/s") else factor

    return change


def chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def run_tool(*args, **kwargs):
    """The installed console script (what users run)."""
    if not VENV_TOOL.exists():
        pytest.skip(f"{VENV_TOOL} missing: run scripts/setup.sh")
    return subprocess.run([str(VENV_TOOL), *map(str, args)], capture_output=True, text=True, timeout=120, **kwargs)


FACTS = DATA / "facts-verdicts.json"  # hand-made facts, peaks and verdicts (issue 18's shapes)


def with_facts(src, dst):
    """A copy of result `src` with the facts layer's additions of FACTS: its
    `facts` and `verdicts`, and each `peak` on the headline figure it names
    (the fraction computed as the C++ side does: value / peak)."""
    extra = json.loads(FACTS.read_text())

    def change(doc):
        doc["facts"], doc["verdicts"] = extra["facts"], extra["verdicts"]
        for key, peak in extra["peaks"].items():
            figure = doc["results"].get(key)
            if figure:
                figure["peak"] = dict(peak, fraction=figure["value"] / peak["value"])
        for verdict in doc["verdicts"]:
            figure = doc["results"].get(verdict["figure"], {})
            verdict["value"] = figure.get("value", 0.0)
            verdict["fraction"] = verdict["value"] / verdict["peak"] if verdict["peak"] else None

    return edited(src, dst, change)


# A real result of the whole default suite (`movebench run`, tests/data/README.md).
SUITE = REPO / "tests" / "data" / "results" / "run.json"
# A real run of the suite on an H200 (facts with its PCIe link, a link verdict: tests/data/README.md).
GPU_SUITE = REPO / "tests" / "data" / "results" / "run-h200.json"


@functools.cache
def suite_page() -> pathlib.Path:
    """The page `movebench-report html` makes of SUITE, made once per session:
    it takes about 12 s here (its plots), and the page and browser tests read
    the same page (docs/reliability.md, "Time of make test"). Read only: a
    test that changes it changes it for the others."""
    out = _scratch("suite-page") / "r.html"
    code, _, err = report("html", SUITE, "-o", out)
    assert code == 0, err
    return out


def as_run(host=None, when=None, factor=1.0):
    """A change for edited(): the document as another run of the same
    command, on `host`, started at `when` (a datetime, UTC), every timing and
    headline figure `factor` times slower (scale_timings; a bandwidth divided
    by it, a time multiplied). What is left is the real document."""

    def change(doc):
        if host is not None:
            doc["host"]["hostname"] = host
        if when is not None:
            doc["execution_time"] = doc["end_time"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
        scale_timings(factor)(doc)
        for fig in doc["results"].values():
            fig["value"] *= (1 / factor) if fig["unit"].endswith("/s") else factor

    return change
