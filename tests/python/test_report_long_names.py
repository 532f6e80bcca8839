"""Issue 28: no input makes a report command run long. A malformed or hostile
file may hold names of any length (operation names, hosts, units, params
keys and values, facts, reasons); matplotlib took 80 s to lay out one label
of 100 000 characters. Every subcommand is run on real committed results
and on copies whose strings are 100 000 characters long (every kind of
string the schema lets be long, a few of each), and must finish within a
bound made of the real file's own time on this machine (5 times it, plus
2 s), cleanly (exit 0, 2 or 3, no traceback), and show no string of the
file longer than labels.MAX_TEXT where a person reads it."""

import json
import pathlib
import time

import pytest

from conftest import REPO
from movebench_report.labels import MAX_TEXT, shorten
from movebench_report.model import validator
from reportkit import PEER_SAMPLES, report, with_facts

LONG = 100_000
COPIES = 3  # long strings per place in the document (a place: its path with list indices left out)
KEYED = ("params", "results", "errors", "settings")  # objects whose keys are names from the file
RESULTS = REPO / "tests" / "data" / "results"
REAL = {
    "mem": RESULTS / "v2" / "mem.json",
    "fleet": RESULTS / "fleet-after.json",
    "link": RESULTS / "v2" / "link.json",
    "v1": RESULTS / "v1" / "mem.json",
}


def lengthen(doc):
    """The document with the first COPIES strings of each place, and the
    keys of named objects (params, results ...), made LONG characters long
    ('x's appended: a name's pattern still holds); where the schema refuses
    a long string (a unit of an enumeration), that string is left as it was."""
    seen = {}

    def walk(value, place):
        if isinstance(value, dict):
            keyed = place.endswith(KEYED)
            out = {}
            for k, v in value.items():
                name = k + "x" * LONG if keyed and _count(seen, place + "/{}") else k
                out[name] = walk(v, f"{place}/{k}" if not keyed else place + "/{}")
            return out
        if isinstance(value, list):
            return [walk(v, place + "/*") for v in value]
        if isinstance(value, str) and _count(seen, place):
            return value + "x" * LONG
        return value

    long = walk(doc, "")
    for _ in range(3):  # an enumeration's value (a unit) made long: the real value back
        for error in _leaves(validator().iter_errors(long)):
            path, value = list(error.absolute_path), error.instance
            items = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ()
            for where, item in [([], value)] + [([k], v) for k, v in items]:  # the value, or what it holds
                if isinstance(item, str) and len(item) > LONG:
                    _put(long, path + where, item[:-LONG])
    assert not list(validator().iter_errors(long)), "the long copy is no result document"
    return long


def _leaves(errors):
    """The innermost errors (those under anyOf's), where a value is named."""
    for error in errors:
        yield error
        yield from _leaves(error.context or [])


def _count(seen: dict, place: str) -> bool:
    seen[place] = seen.get(place, 0) + 1
    return seen[place] <= COPIES


def _put(doc, path: list, value):
    for step in path[:-1]:
        doc = doc[step]
    doc[path[-1]] = value


def commands(path: pathlib.Path, other: pathlib.Path, out: pathlib.Path) -> dict:
    """Every subcommand of `movebench-report --help` on one file."""
    return {
        "table": ["table", path],
        "table markdown": ["table", path, "--format", "markdown"],
        "table latency": ["table", path, "--view", "latency"],
        "compare": ["compare", other, path, "--plot", out / "ratio.png"],
        "scaling": ["scaling", path],
        "plot": ["plot", path, "-o", out / "p.png", "--dpi", "20"],
        "plot svg": ["plot", path, "-o", out / "p.svg"],
        "html": ["html", path, "-o", out / "p.html"],
        "import": ["import", path],
    }


def timed(args) -> tuple:
    start = time.monotonic()
    code, text, err = report(*args)
    return time.monotonic() - start, code, text, err


def shown_text(args, text: str) -> str:
    """What a person reads of a run: stdout, or the written page or SVG."""
    written = [pathlib.Path(a) for a in args if str(a).endswith((".html", ".svg"))]
    return text + "".join(p.read_text() for p in written if p.exists())


@pytest.mark.parametrize("name", sorted(REAL))
def test_long_names_take_no_longer_than_real_ones(tmp_path, name):
    real = tmp_path / "real.json"
    with_facts(REAL[name], real) if name in ("mem", "link") else real.write_text(REAL[name].read_text())
    hostile = tmp_path / "long.json"
    hostile.write_text(json.dumps(lengthen(json.loads(real.read_text()))))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for what, args in commands(real, real, tmp_path / "a").items():
        seconds, real_code, _, err = timed(args)
        assert real_code in (0, 2, 3) and "Traceback" not in err, f"{what} on the real file: {err}"
        long_args = commands(hostile, real, tmp_path / "b")[what]
        long_seconds, code, text, err = timed(long_args)
        where = f"{name}: {what}: {long_seconds:.1f} s against {seconds:.1f} s on the real file"
        assert code in (0, 2, 3) and "Traceback" not in err and "internal error" not in err, f"{where}: {err}"
        assert code == real_code, f"{where}: exit {code}, the real file's {real_code}: {err}"  # drawn as the real one
        assert long_seconds <= 5 * seconds + 2, where
        if what not in ("import",) and not what.startswith("compare"):  # import and compare name what they refuse
            shown = shown_text(long_args, text)
            at = shown.find("x" * (MAX_TEXT + 1))
            assert at < 0, f"{where}: a long string shown whole: {shown[max(0, at - 150) : at + 20]!r}"


def test_a_long_line_in_a_peer_output_is_no_slower(tmp_path):
    sample = PEER_SAMPLES / "osu_allreduce.txt"
    lines = sample.read_text().splitlines(keepends=True)
    seconds = timed(["import", sample])[0]
    hostile = tmp_path / "osu_allreduce.txt"
    hostile.write_text(lines[0].rstrip("\n") + " " + "x" * LONG + "\n" + "".join(lines[1:]))
    long_seconds, code, _, err = timed(["import", hostile])
    assert code in (0, 2) and "Traceback" not in err, err
    assert long_seconds <= 5 * seconds + 2, f"{long_seconds:.1f} s against {seconds:.1f} s"


def test_shorten_keeps_a_real_name_and_cuts_a_long_one():
    assert shorten("copy.duplex.read host_memory=pinned") == "copy.duplex.read host_memory=pinned"
    cut = shorten("x" * LONG)
    assert len(cut) == MAX_TEXT and cut.endswith("…")
    assert shorten(12345) == "12345" and len(shorten("y" * 100, 10)) == 10
