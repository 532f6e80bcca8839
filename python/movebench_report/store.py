"""The result store (docs/history.md): SQLite by default (one file, no
server), PostgreSQL by URL for a site whose nodes share one; one code path
through SQLAlchemy, the schema brought to its head revision by the Alembic
migrations kept in this package whenever a store is opened.

Writers lose nothing when many store at once (a fleet's nodes): a document
is identified by its hash, inserted with ON CONFLICT DO NOTHING on the
unique hash (both dialects say it the same way), its figures in the same
transaction. SQLite: write-ahead log, a bounded busy timeout, and every
write transaction BEGIN IMMEDIATE (the write lock taken first, so two
writers never deadlock on upgrading a read lock); PostgreSQL: the unique
constraint settles a race, and migrations take an advisory lock. A
transaction that still meets a lock is tried again, a bounded number of
times: no wait is unbounded."""

from __future__ import annotations

import datetime as dt
import os
import pathlib
import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.pool import NullPool

from .figurerows import document_hash, document_row, figure_rows
from .model import ReportError
from .storeschema import documents, figures

STORE_ENV = "MOVEBENCH_STORE"
BACKENDS = ("sqlite", "postgresql")
INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}
MIGRATIONS = pathlib.Path(__file__).parent / "migrations"
BUSY_SECONDS = 20  # SQLite: how long one statement waits for another writer's lock
CONNECT_SECONDS = 10  # PostgreSQL: how long a connection may take
LOCK_MILLISECONDS = 60000  # PostgreSQL: how long a statement waits for a lock
ATTEMPTS = 4  # a write transaction that met a lock: tried this many times in all
MIGRATION_LOCK = 0x6D6F7665  # PostgreSQL advisory lock key of the migrations ("move")


def default_location() -> pathlib.Path:
    """$XDG_DATA_HOME/movebench/results.sqlite (~/.local/share by default)."""
    data = os.environ.get("XDG_DATA_HOME") or str(pathlib.Path.home() / ".local" / "share")
    return pathlib.Path(data) / "movebench" / "results.sqlite"


def _sqlite_url(text: str, default: bool) -> sa.URL:
    path = pathlib.Path(text).expanduser().absolute()
    if default:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ReportError(f"store {path}: cannot create its folder ({e.strerror or e})") from None
    elif path.is_dir():
        raise ReportError(f"--store {text}: a folder, not a database file")
    elif not path.parent.is_dir():
        raise ReportError(f"--store {text}: folder {path.parent} does not exist")
    return sa.URL.create("sqlite", database=str(path))


def store_url(text: str | None) -> sa.URL:
    """The store asked for: --store, else $MOVEBENCH_STORE, else the default
    file. A plain path is a SQLite file; a URL is sqlite:///FILE or
    postgresql://[user[:password]@]host[:port]/database (or ?host=SOCKET_FOLDER)."""
    given = text or os.environ.get(STORE_ENV)
    if not given:
        return _sqlite_url(str(default_location()), default=True)
    if "://" not in given:
        return _sqlite_url(given, default=False)
    try:
        url = sa.make_url(given)
    except sa.exc.ArgumentError:
        raise ReportError(f"--store {given!r}: not a database URL") from None
    backend = {"postgres": "postgresql"}.get(url.get_backend_name(), url.get_backend_name())
    if backend not in BACKENDS:
        raise ReportError(
            f"--store {url.render_as_string()}: a {backend} database; the store is SQLite "
            "(a file, or sqlite:///FILE) or PostgreSQL (postgresql://...)"
        )
    if backend == "postgresql":
        url = url.set(drivername="postgresql+psycopg")  # the driver the package installs
    elif url.database:
        return _sqlite_url(url.database, default=False)
    else:
        raise ReportError(f"--store {given}: an SQLite store is a file (sqlite:///FILE)")
    return url


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    engine = sa.create_engine(url, poolclass=NullPool, connect_args={"timeout": BUSY_SECONDS})

    @sa.event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # the driver begins nothing; on_begin below does
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_SECONDS * 1000}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def on_begin(connection):
        reading = connection.get_execution_options().get("readonly")
        connection.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")

    return engine


def _postgresql_engine(url: sa.URL) -> sa.Engine:
    return sa.create_engine(
        url,
        poolclass=NullPool,
        connect_args={"connect_timeout": CONNECT_SECONDS, "options": f"-c lock_timeout={LOCK_MILLISECONDS}"},
    )


def _transient(error: sa.exc.OperationalError) -> bool:
    """A lock met (SQLite busy, PostgreSQL deadlock or serialization): worth another try."""
    sqlstate = getattr(error.orig, "sqlstate", None)
    return sqlstate in ("40001", "40P01", "55P03") or "locked" in str(error.orig) or "busy" in str(error.orig)


def where_of(url: sa.URL) -> str:
    return url.database if url.get_backend_name() == "sqlite" else url.render_as_string(hide_password=True)


def _first_line(error: Exception) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@dataclass
class Stored:
    """What became of one document: its run id, and whether this call added it."""

    path: str
    run: int
    added: bool
    figures: int


class Store:
    """An open store: `with Store(url) as store:`. Opening brings the schema
    to the head revision (under a lock: many writers may open a new store at
    once)."""

    def __init__(self, url: sa.URL):
        self.url = url
        self.where = where_of(url)
        backend = url.get_backend_name()
        self.engine = _sqlite_engine(url) if backend == "sqlite" else _postgresql_engine(url)
        self.insert = INSERTS[backend]
        self._retrying(self._migrate)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.engine.dispose()

    def _retrying(self, work):
        """work(connection) in one write transaction, tried again (at most
        ATTEMPTS in all, a growing pause between) when it met a lock; a
        database that cannot be reached is one line naming the store."""
        for attempt in range(ATTEMPTS):
            try:
                with self.engine.begin() as connection:
                    return work(connection)
            except sa.exc.OperationalError as e:
                if attempt + 1 < ATTEMPTS and _transient(e):
                    time.sleep(0.1 * 2**attempt)
                    continue
                raise ReportError(f"store {self.where}: {_first_line(e)}") from None
            except sa.exc.DBAPIError as e:
                raise ReportError(f"store {self.where}: {_first_line(e)}") from None

    def _migrate(self, connection):
        from alembic import command
        from alembic.config import Config

        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")

    def add(self, doc: dict, path: str) -> Stored:
        """Stores one checked document and its figures in one transaction;
        a document already there (the same hash) adds nothing."""
        sha256 = document_hash(doc)
        row = dict(document_row(doc, sha256, path), stored_at=dt.datetime.now(dt.timezone.utc).replace(tzinfo=None))
        rows = figure_rows(doc)

        def work(connection):
            statement = self.insert(documents).values(**row).on_conflict_do_nothing(index_elements=["sha256"])
            run = connection.execute(statement.returning(documents.c.id)).scalar_one_or_none()
            if run is None:
                run = connection.execute(sa.select(documents.c.id).where(documents.c.sha256 == sha256)).scalar_one()
                return Stored(path, run, False, 0)
            if rows:
                connection.execute(sa.insert(figures), [dict(r, document_id=run) for r in rows])
            return Stored(path, run, True, len(rows))

        return self._retrying(work)

    def reading(self):
        """A connection for queries (SQLite: a plain BEGIN, no write lock)."""
        return self.engine.connect().execution_options(readonly=True)

    def series_rows(self, host: str | None = None, figure: str | None = None) -> list:
        """The rows of the series history reads, oldest run first: the headline
        figures, or every figure named `figure` (a headline name such as
        mem.triad.1t, or a record's figure such as bandwidth); of one host, or all."""
        f = figures
        query = sa.select(
            f.c.host,
            f.c.rank,
            f.c.benchmark,
            f.c.operation,
            f.c.variant,
            f.c.bytes,
            f.c.figure,
            f.c.unit,
            f.c.better,
            f.c.value,
            f.c.noise,
            f.c.time,
            f.c.document_id,
            f.c.git_commit,
            f.c.peak_fraction,
            f.c.verdict,
        )
        query = query.where(f.c.figure == figure) if figure else query.where(f.c.kind == "result")
        if host:
            query = query.where(f.c.host == host)
        with self.reading() as connection:
            return connection.execute(query.order_by(f.c.time, f.c.document_id)).all()

    def document(self, run: int) -> dict:
        """The whole stored document of a run."""
        with self.reading() as connection:
            return connection.execute(sa.select(documents.c.document).where(documents.c.id == run)).scalar_one()


def add_files(url: sa.URL, paths: list) -> list:
    """Every file read and checked first (a file that is no valid result
    stops the command before anything is stored), then each stored."""
    from .model import load_document

    loaded = [(str(pathlib.Path(p).absolute()), load_document(p)) for p in paths]
    with Store(url) as store:
        return [store.add(doc, path) for path, doc in loaded]
