"""Shared fixtures: the binary under test, running it, and the result schema."""

import json
import os
import pathlib
import subprocess

import jsonschema
import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
SCHEMA = json.loads((REPO / "docs" / "result.schema.json").read_text())


def binary_path() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("MOVEBENCH_BIN", REPO / "build" / "release" / "movebench"))
    if not path.exists():
        pytest.exit(f"movebench binary not found at {path}: build first or set MOVEBENCH_BIN", returncode=2)
    return path


@pytest.fixture(scope="session")
def movebench() -> pathlib.Path:
    return binary_path()


def run_movebench(*args, timeout=120, check=None, env=None, **kwargs):
    """Runs the binary; `check` is the expected exit code (None: any)."""
    full_env = dict(os.environ, **(env or {}))
    proc = subprocess.run(
        [str(binary_path()), *map(str, args)], capture_output=True, text=True, timeout=timeout, env=full_env, **kwargs
    )
    if check is not None:
        assert proc.returncode == check, (
            f"exit {proc.returncode}, wanted {check}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
        )
    return proc


@pytest.fixture(scope="session")
def suite_run(tmp_path_factory):
    """`movebench run --only ONLY` measured once per session (and binary:
    MOVEBENCH_BIN is one per pytest run) for every test that only reads what
    it printed and wrote: (proc, path of its --json). A suite run takes up to
    a minute here, and several tests ask the same one (docs/reliability.md,
    "Time of make test"). Any exit code is kept: each test checks its own."""
    runs = {}

    def run(only, env=None, timeout=150):
        key = (only, tuple(sorted((env or {}).items())))
        if key not in runs:
            out = tmp_path_factory.mktemp("suite") / "run.json"
            runs[key] = (run_movebench("run", "--only", only, "--json", out, env=env, timeout=timeout), out)
        return runs[key]

    return run


def validate_result(doc):
    """Raises jsonschema.ValidationError when doc is not a valid result
    document, AssertionError when a version 2 figure breaks a rule of the
    vocabulary the schema cannot say (docs/results.md)."""
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    if doc["schema_version"] >= 2:
        for where, name, fig in figures_of(doc):
            check_vocabulary(fig, f"{where} {name}")
    return doc


def figures_of(doc):
    """(where, name, figure) of every figure of a document: the records' and the headline results."""
    for i, rec in enumerate(doc["timings"]):
        for name, fig in rec["figures"].items():
            yield f"timings/{i} ({rec['benchmark']} {rec['operation']})", name, fig
    for name, fig in doc["results"].items():
        yield "results", name, fig


def check_vocabulary(fig, where):
    """Higher is better for a rate, lower for a time; a bus factor only on bus bytes."""
    if fig["unit"].endswith("/s"):
        assert fig["better"] == "higher", where
    if fig["unit"] == "ns":
        assert fig["better"] == "lower" and fig["of"] == "time", where
    accounting = fig.get("accounting")
    if accounting and accounting["bytes"] != "bus":
        assert accounting["factor"] == 1, where


def load_result(path):
    return validate_result(json.loads(pathlib.Path(path).read_text()))


def pytest_configure(config):
    config.addinivalue_line("markers", "no_mpi_build: applies only to a movebench built without MPI")


def pytest_collection_modifyitems(config, items):
    """Tests for a build without MPI are deselected (not applicable, not
    skipped) when the binary under test has MPI."""
    marked = [item for item in items if item.get_closest_marker("no_mpi_build")]
    if not marked:
        return
    listing = subprocess.run([str(binary_path()), "--list"], capture_output=True, text=True).stdout
    if "coll.allreduce" in listing:
        config.hook.pytest_deselected(items=marked)
        items[:] = [item for item in items if item not in marked]
