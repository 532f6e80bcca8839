"""`movebench-report store add` (docs/history.md): the same tests against a
SQLite file and a real PostgreSQL server started for the session
(tests/conftest.py: postgres): store, read back, dedupe, refuse, and many
writers at once. Every document stored is a real result
(tests/data/results), the synthetic ones changed only in host, time and
scale (reportkit.as_run)."""

import datetime as dt
import json
import subprocess

import pytest
import sqlalchemy as sa
from hypothesis import given
from test_report_fuzz import DOCUMENTS, bounded

from movebench_report import store
from reportkit import REPO, VENV_TOOL, as_run, edited, report

RESULTS = REPO / "tests" / "data" / "results"
MEM = RESULTS / "v3" / "mem.json"
GPU_SUITE = RESULTS / "run-h200.json"
FLEET = RESULTS / "fleet-after.json"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """A new, empty store of each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "results.sqlite")
    return request.getfixturevalue("postgres").new_database()


def query(url: str, sql: str, **params) -> list:
    with store.Store(store.store_url(url)) as s, s.reading() as connection:
        return [tuple(row) for row in connection.execute(sa.text(sql), params)]


def figures_in(path) -> int:
    """Every record's figures and every headline figure of a document."""
    doc = json.loads(path.read_text())
    return sum(len(r["figures"]) for r in doc["timings"]) + len(doc["results"])


def test_store_keeps_every_figure_and_the_document(store_url):
    code, out, err = report("store", "add", "--store", store_url, MEM, GPU_SUITE, FLEET)
    assert code == 0, err
    assert out.count("stored as run") == 3, out
    counts = dict(
        query(
            store_url,
            "SELECT d.sha256, count(f.id) FROM documents d JOIN figures f ON f.document_id = d.id GROUP BY d.sha256",
        )
    )
    assert sorted(counts.values()) == sorted(figures_in(p) for p in (MEM, GPU_SUITE, FLEET))
    # The headline figure a verdict names carries it and its peak fraction (run-h200.json's link verdict).
    verdict = json.loads(GPU_SUITE.read_text())["verdicts"][0]
    [(value, fraction, word)] = query(
        store_url,
        "SELECT value, peak_fraction, verdict FROM figures WHERE kind = 'result' AND figure = :f",
        f=verdict["figure"],
    )
    assert (value, word) == (verdict["value"], verdict["verdict"])
    assert fraction == pytest.approx(verdict["fraction"])
    # A fleet unit's figures are its host's and its rank's.
    units = query(
        store_url, "SELECT DISTINCT host, rank FROM figures WHERE benchmark = 'fleet' AND operation = 'triad'"
    )
    assert sorted(units) == [("vm", str(r)) for r in range(4)]
    [(text,)] = query(store_url, "SELECT document FROM documents WHERE path = :p", p=str(MEM))
    assert (json.loads(text) if isinstance(text, str) else text) == json.loads(MEM.read_text())


def test_a_document_stored_twice_adds_nothing(store_url, tmp_path):
    report("store", "add", "--store", store_url, MEM)
    relaid = tmp_path / "relaid.json"  # the same result, laid out otherwise: the same document
    relaid.write_text(json.dumps(json.loads(MEM.read_text()), indent=4, sort_keys=True))
    code, out, err = report("store", "add", "--store", store_url, MEM, relaid)
    assert code == 0, err
    assert out.count("already stored (run 1): nothing added") == 2, out
    assert query(store_url, "SELECT count(*) FROM documents") == [(1,)]
    assert query(store_url, "SELECT count(*) FROM figures") == [(figures_in(MEM),)]


def test_a_file_that_fails_the_schema_is_refused_and_nothing_stored(store_url, tmp_path):
    broken = edited(MEM, tmp_path / "broken.json", lambda doc: doc.pop("timings"))
    code, out, err = report("store", "add", "--store", store_url, MEM, broken)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and str(broken) in err and "not a movebench result document" in err, err
    if store_url.endswith(".sqlite"):
        assert not (tmp_path / "results.sqlite").exists()  # checked before the store was opened
    else:
        assert query(store_url, "SELECT count(*) FROM documents") == [(0,)]


def test_the_migrations_make_the_schema_the_queries_use(store_url):
    """What the Alembic migrations built is what storeschema.py declares."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from movebench_report.storeschema import metadata

    with store.Store(store.store_url(store_url)) as s, s.reading() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []


WRITERS, EACH = 8, 50


def test_many_writers_at_once_lose_nothing(store_url, tmp_path):
    """8 processes storing 50 results each into one new store at once, and
    one result that all 8 store: every result once, every figure once."""
    if not VENV_TOOL.exists():
        pytest.skip(f"{VENV_TOOL} missing: run scripts/setup.sh")
    start = dt.datetime(2026, 1, 1)
    shared = edited(MEM, tmp_path / "shared.json", as_run("shared", start))
    batches = []
    for w in range(WRITERS):
        batches.append(
            [
                edited(
                    MEM, tmp_path / f"w{w}-{i}.json", as_run(f"node{w}", start + dt.timedelta(hours=i), 1 + 0.01 * i)
                )
                for i in range(EACH)
            ]
            + [shared]
        )
    writers = [
        subprocess.Popen(
            [str(VENV_TOOL), "store", "add", "--store", store_url, *map(str, batch)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for batch in batches
    ]
    outputs = [w.communicate(timeout=240) for w in writers]
    assert [w.returncode for w in writers] == [0] * WRITERS, [err for _, err in outputs]
    assert sum(out.count("stored as run") for out, _ in outputs) == WRITERS * EACH + 1
    per_document = query(
        store_url,
        "SELECT d.hostname, d.time, count(f.id) FROM documents d "
        "JOIN figures f ON f.document_id = d.id GROUP BY d.id, d.hostname, d.time",
    )
    assert len(per_document) == WRITERS * EACH + 1
    assert {n for _, _, n in per_document} == {figures_in(MEM)}
    assert len({(host, time) for host, time, _ in per_document}) == WRITERS * EACH + 1


def test_where_the_store_is(tmp_path, monkeypatch):
    """--store, else $MOVEBENCH_STORE, else $XDG_DATA_HOME/movebench/results.sqlite (its folder made)."""
    monkeypatch.delenv("MOVEBENCH_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert report("store", "add", MEM)[0] == 0
    assert (tmp_path / "data" / "movebench" / "results.sqlite").is_file()
    monkeypatch.setenv("MOVEBENCH_STORE", str(tmp_path / "env.sqlite"))
    assert report("store", "add", MEM)[0] == 0
    assert query(str(tmp_path / "env.sqlite"), "SELECT count(*) FROM documents") == [(1,)]


@pytest.mark.parametrize(
    "url, says",
    [
        ("mysql://user@host/db", "a mysql database; the store is SQLite"),
        ("postgresql://movebench@/none?host=/nonexistent", "store postgresql+psycopg://movebench@/none"),
        ("/nonexistent/folder/results.sqlite", "folder /nonexistent/folder does not exist"),
        ("sqlite://", "an SQLite store is a file"),
    ],
)
def test_a_store_that_cannot_be_is_one_line(url, says):
    code, out, err = report("store", "add", "--store", url, MEM)
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err, err


@bounded(8)
@given(DOCUMENTS)
def test_every_document_the_schema_allows_gives_its_rows(doc):
    """The rows are read from any valid document (one the report tool
    accepts), never a traceback: as many figure rows as it has figures."""
    from movebench_report.figurerows import document_hash, document_row, figure_rows
    from movebench_report.model import ReportError, check_document

    try:
        check_document(doc, "generated")
    except ReportError:
        return  # refused with one line, as every subcommand refuses it
    rows = figure_rows(doc)
    assert len(rows) == sum(len(r["figures"]) for r in doc["timings"]) + len(doc["results"])
    assert document_row(doc, document_hash(doc), "generated")["sha256"] == document_hash(json.loads(json.dumps(doc)))
