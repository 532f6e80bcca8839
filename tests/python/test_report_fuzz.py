"""Fuzzing the report tool (Hypothesis): documents generated from
docs/result.schema.json (hypothesis-jsonschema), real result files and real
peer outputs mutated and truncated, fed to every subcommand and every
importer. The promise checked on each: exit 0, 2 or 3 and never a traceback
or an internal error; exit 2 with one line on stderr naming the file or the
option; JSON written is standard JSON (no NaN, no Infinity), and an import
that succeeds writes a valid result document.

Bounded for CI (2 cores): each property has a fixed number of examples, a
per-example deadline and derandomize=True (the same examples every run, so a
failure reproduces), and no example database is written."""

import copy
import json
import pathlib
import re
import tempfile
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from conftest import SCHEMA, validate_result
from reportkit import DATA, report, results, shared_samples

FORMATS = ("hpcc-beff", "mpibench", "osu", "imb", "stream", "bwbench", "nvbandwidth")


def bounded(examples: int):
    return settings(
        max_examples=examples,
        deadline=timedelta(seconds=20),
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )


def _strict(text: str):
    def reject(constant):
        raise AssertionError(f"non-standard JSON constant {constant}")

    return json.loads(text, parse_constant=reject)


def assert_clean(args, code, out, err, names):
    """The promise of the tool for one run; `names`: what an error line may name."""
    where = f"movebench-report {' '.join(map(str, args))[:300]}"
    assert code in (0, 2, 3), f"{where}: exit {code}: {err[-2000:]}"
    assert "Traceback" not in err and "internal error" not in err, f"{where}: {err[-2000:]}"
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, f"{where}: {len(lines)} lines on stderr: {err[:2000]}"
        assert lines[0].startswith("movebench-report: error: "), where
        assert any(str(n) in lines[0] for n in names), f"{where}: names none of {names}: {lines[0]}"
    out.encode("utf-8")  # what a real stdout must take (a lone surrogate would not go)
    if out.lstrip().startswith(("{", "[")):
        _strict(out)


def scratch() -> pathlib.Path:
    return pathlib.Path(tempfile.mkdtemp(prefix="movebench-report-fuzz-"))


def run_every_subcommand(path: pathlib.Path, partner: pathlib.Path, heavy: bool):
    """table, compare, scaling (and plot, html when `heavy`) on one file."""
    out = path.parent
    runs = [
        ["table", path, "--format", "json"],
        ["table", path, "--view", "latency", "--format", "json"],
        ["compare", partner, path, "--format", "json"],
        ["scaling", path, "--format", "json"],
        ["import", path],
    ]
    if heavy:
        runs += [["plot", path, "-o", out / "p.png", "--dpi", "20"], ["html", path, "-o", out / "p.html"]]
    for args in runs:
        code, text, err = report(*args)
        assert_clean(args, code, text, err, [path])


def small(schema: dict) -> dict:
    """The schema with a bound on free objects, arrays and strings: every
    document it allows the real one allows too, and hypothesis-jsonschema
    makes one in a fraction of a second instead of seconds."""
    schema = copy.deepcopy(schema)
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            types = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
            if "object" in types:
                node.setdefault("maxProperties", len(node.get("required", [])) + 2)
            if "array" in types:
                node.setdefault("maxItems", 4)
            if "string" in types and "pattern" not in node:
                node.setdefault("maxLength", 12)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return schema


DOCUMENTS = from_schema(small(SCHEMA))


# Documents the schema allows, written by no movebench command: the tool must
# answer each cleanly (most have nothing to show: exit 2 naming the file).
@bounded(40)
@given(DOCUMENTS)
def test_schema_documents_every_subcommand(doc):
    folder = scratch()
    path = folder / "generated.json"
    path.write_text(json.dumps(doc))
    run_every_subcommand(path, results()["a"], heavy=False)


@bounded(8)
@given(DOCUMENTS)
def test_schema_documents_plot_and_html(doc):
    folder = scratch()
    path = folder / "generated.json"
    path.write_text(json.dumps(doc))
    for args in (["plot", path, "-o", folder / "p.svg"], ["html", path, "-o", folder / "p.html"]):
        code, text, err = report(*args)
        assert_clean(args, code, text, err, [path])


# Hostile values to put anywhere in a document: out-of-range numbers written as
# JSON text (1e400 reads as infinity, 10^400 as a huge integer), wrong types,
# deep nesting.
HOSTILE_TEXT = st.sampled_from(
    [
        "1e400",
        "-1e400",
        "1" + "0" * 400,
        "NaN",
        "Infinity",
        "1e-400",
        "-1",
        "0",
        "null",
        "true",
        '"x"',
        "[]",
        "{}",
        "[" * 300 + "]" * 300,
        '{"a":' * 200 + "1" + "}" * 200,
        "9223372036854775808",
        "1e29",
        "2.5",
    ]
)


def _nodes(doc, path=()):
    """Every (path, value) of a document."""
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _nodes(v, path + (i,))


MARK = "\u0000MUTATED\u0000"


@st.composite
def mutated_document(draw):
    """A real result file with one to three values replaced by hostile text,
    or keys dropped, or the text truncated."""
    name = draw(st.sampled_from(["a", "scale", "seq", "lat"]))
    doc = json.loads(results()[name].read_text())
    paths = [p for p, _ in _nodes(doc) if p]
    replacements = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = (
                parent[key]
                if isinstance(parent, (dict, list))
                and (isinstance(parent, dict) and key in parent or isinstance(parent, list) and key < len(parent))
                else None
            )
            if parent is None:
                break
        if parent is None or not isinstance(parent, (dict, list)):
            continue
        key = path[-1]
        if isinstance(parent, dict) and key not in parent or isinstance(parent, list) and key >= len(parent):
            continue
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[key]
        else:
            parent[key] = f"{MARK}{len(replacements)}"
            replacements.append(draw(HOSTILE_TEXT))
    text = json.dumps(doc)
    for i, value in enumerate(replacements):
        text = text.replace(json.dumps(f"{MARK}{i}"), value)
    if draw(st.integers(0, 4)) == 0:
        text = text[: draw(st.integers(0, len(text)))]
    return text


@bounded(60)
@given(mutated_document())
def test_mutated_result_files_every_subcommand(text):
    folder = scratch()
    path = folder / "mutated.json"
    path.write_text(text)
    run_every_subcommand(path, results()["b"], heavy=False)


@bounded(12)
@given(mutated_document())
def test_mutated_result_files_plot_and_html(text):
    folder = scratch()
    path = folder / "mutated.json"
    path.write_text(text)
    run_every_subcommand(path, results()["b"], heavy=True)


# Real peer outputs: the hand-written samples here and the real ones in
# ../shared/samples (where present).
PEER_OUTPUTS = (
    sorted(p for p in DATA.iterdir() if p.stem not in ("foreign", "truncated", "facts-verdicts")) + shared_samples()
)
NUMBER = re.compile(r"(?<![\w.])\d+(\.\d+)?([eE][-+]?\d+)?(?![\w.])")
HOSTILE_NUMBERS = st.sampled_from(
    ["1e400", "-1e400", "9" * 400, "99999999999999999999999", "1e-400", "0", "-5", "1e29", "nan", "inf"]
)


@st.composite
def mutated_peer_output(draw):
    """(name, text): a real peer output with numbers replaced by hostile ones,
    lines deleted, duplicated or reversed, bytes changed, or cut short."""
    source = draw(st.sampled_from(PEER_OUTPUTS))
    text = source.read_text()
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["number", "number", "line-del", "line-dup", "line-rev", "char", "cut"]))
        lines = text.splitlines(keepends=True)
        if kind == "number":
            found = list(NUMBER.finditer(text))
            if found:
                m = draw(st.sampled_from(found))
                text = text[: m.start()] + draw(HOSTILE_NUMBERS) + text[m.end() :]
        elif kind.startswith("line") and lines:
            i = draw(st.integers(0, len(lines) - 1))
            lines[i] = {"line-del": "", "line-dup": lines[i] * 2, "line-rev": lines[i][::-1]}[kind]
            text = "".join(lines)
        elif kind == "char" and text:
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + draw(st.characters(codec="utf-8")) + text[i + 1 :]
        elif kind == "cut":
            text = text[: draw(st.integers(0, len(text)))]
    return source.name, text


def check_import(path, args, code, out, err):
    assert_clean(args, code, out, err, [path])
    if code == 0:
        validate_result(_strict(out))


@bounded(150)
@given(mutated_peer_output(), st.sampled_from((None,) + FORMATS))
def test_mutated_peer_outputs_import(sample, fmt):
    name, text = sample
    path = scratch() / name
    path.write_text(text)
    args = ["import", path] + (["--format", fmt] if fmt else [])
    check_import(path, args, *report(*args))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("sample", PEER_OUTPUTS, ids=lambda p: p.stem)
def test_every_format_forced_on_every_peer_output(sample, fmt):
    """`--format X` on another tool's output (e.g. osu on an mpiBench file)."""
    args = ["import", "--format", fmt, sample]
    check_import(sample, args, *report(*args))
