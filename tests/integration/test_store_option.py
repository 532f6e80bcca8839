"""`--store URL` on every command (docs/history.md): the result document goes
into the store through movebench-report's `store add` (the one code path
into the database) as well as to --json, into a real SQLite file and a real
PostgreSQL server that the tests start (tests/conftest.py: postgres). A
store that fails keeps the JSON whole: one line on stderr naming the file,
exit 1. What is asserted is what the mechanism guarantees on any machine:
the rows are those of the file, nothing about how fast it ran."""

import json
import sqlite3

import pytest
from net_mpi import built_with_mpi, load, needs_mpirun
from test_fleet import SMALL, fleet, report
from test_verdicts import SUITE_TIMEOUT

from conftest import load_result, run_movebench
from movebench_report.figurerows import document_hash, figure_rows

MEM = ["mem", "-n", "16K", "-r", "2", "-t", "1", "-k", "copy,triad", "-q"]
SECRET = "s3cret-not-recorded"


def rows(url: str, sql: str) -> list:
    """The rows of a query, SQLite or PostgreSQL (as the store reads them: SQLAlchemy)."""
    import sqlalchemy as sa

    from movebench_report import store

    engine = sa.create_engine(store.store_url(url))
    try:
        with engine.connect() as connection:
            return [tuple(r) for r in connection.execute(sa.text(sql))]
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'results.sqlite'}"
    return request.getfixturevalue("postgres").new_database()


def test_a_command_stores_its_result_and_writes_its_json(store_url, tmp_path):
    out = tmp_path / "mem.json"
    proc = run_movebench(*MEM, "--json", out, "--store", store_url, check=0)
    assert proc.stderr == ""
    doc = load_result(out)
    [(sha256, path, complete)] = rows(store_url, "SELECT sha256, path, complete FROM documents")
    assert sha256 == document_hash(doc) and path == str(out) and complete
    assert rows(store_url, "SELECT COUNT(*) FROM figures") == [(len(figure_rows(doc)),)]
    heads = rows(store_url, "SELECT figure FROM figures WHERE kind = 'result' ORDER BY figure")
    assert [f for (f,) in heads] == sorted(doc["results"])


def test_without_json_the_document_is_kept_until_stored(tmp_path):
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    run_movebench(*MEM, "--store", url, env=env, check=0)
    [(path, document)] = rows(url, "SELECT path, document FROM documents")
    assert path.startswith(str(tmp_path / "data" / "movebench" / "pending" / "mem-"))
    assert json.loads(document)["benchmark"] == "mem"
    assert list((tmp_path / "data" / "movebench" / "pending").iterdir()) == []  # stored, so removed


@pytest.mark.parametrize(
    "url, says",
    [
        ("sqlite:///{tmp}/nowhere/results.sqlite", "does not exist"),
        (f"postgresql://bench:{SECRET}@/movebench?host={{tmp}}/no-server", "bench:***@/movebench"),
        ("mysql://bench@db/results", "the store is SQLite"),
    ],
)
def test_a_store_that_fails_keeps_the_json(tmp_path, url, says):
    out = tmp_path / "mem.json"
    proc = run_movebench(*MEM, "--json", out, "--store", url.format(tmp=tmp_path), check=1)
    [line] = proc.stderr.splitlines()
    assert line.startswith("movebench mem: error: cannot store the result: ") and says in line, line
    assert line.endswith(f"(the result is kept in {out})") and SECRET not in line
    doc = load_result(out)  # whole and valid
    assert doc["complete"] and doc["validated"] and not doc["errors"]
    assert SECRET not in out.read_text()  # the command line keeps no password
    assert "--store" in doc["command_line"]


def test_without_json_a_failed_store_says_where_the_document_is(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    url = f"postgresql://bench:{SECRET}@/movebench?host={tmp_path}/no-server"
    proc = run_movebench(*MEM, f"--store={url}", env=env, check=1)
    [line] = proc.stderr.splitlines()
    kept = line.rsplit("(the result is kept in ", 1)[1].rstrip(")")
    doc = load_result(kept)
    assert doc["benchmark"] == "mem" and doc["complete"] and SECRET not in json.dumps(doc)
    assert f"--store=postgresql://bench:***@/movebench?host={tmp_path}/no-server" in doc["command_line"]


def test_no_report_tool_is_a_usage_error_before_anything_is_measured(tmp_path):
    out = tmp_path / "mem.json"
    env = {"MOVEBENCH_REPORT": str(tmp_path / "nowhere" / "movebench-report")}
    proc = run_movebench(*MEM, "--json", out, "--store", tmp_path / "s.sqlite", env=env, check=2)
    [line] = proc.stderr.splitlines()
    assert line.startswith("movebench mem: error: --store needs movebench-report") and proc.stdout == ""
    assert not out.exists()


def test_the_suite_stores_one_document(suite_run):
    """`movebench run`: its one document (every benchmark's records, the headline
    figures with their verdicts). The run test_verdicts.py reads (suite_run)."""
    proc, out = suite_run("mem", timeout=SUITE_TIMEOUT, store=True)
    db = out.with_suffix(".sqlite")
    assert proc.returncode in (0, 1), proc.stderr  # 1: a path's verdict may fail a check on a loaded machine
    assert "cannot store" not in proc.stderr
    doc = load_result(out)
    with sqlite3.connect(db) as connection:
        [(benchmark,)] = connection.execute("SELECT benchmark FROM documents").fetchall()
        heads = connection.execute("SELECT COUNT(*) FROM figures WHERE kind = 'result'").fetchone()[0]
    assert benchmark == "run" and heads == len(doc["results"]) > 0


@needs_mpirun
def test_fleet_stores_each_unit_under_its_own_number(tmp_path):
    """Rank 0 writes and stores the one document; the store keeps each unit's figures under its unit."""
    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    out, db = tmp_path / "fleet.json", tmp_path / "results.sqlite"
    proc = fleet(tmp_path, 2, "--per", "rank", *SMALL, "--json", out, "--store", db)
    assert proc.returncode == 0, report(proc)
    doc = load(out)
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM documents").fetchone()[0] == 1
        units = {r for (r,) in connection.execute("SELECT DISTINCT rank FROM figures WHERE rank IS NOT NULL")}
    assert {"0", "1"} <= units and doc["benchmark"] == "fleet"
