"""Shared fixtures: the binary under test, running it, and the result schema."""

import contextlib
import json
import os
import pathlib
import pwd
import shutil
import subprocess
import tempfile
import time

import jsonschema
import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
SCHEMA = json.loads((REPO / "docs" / "result.schema.json").read_text())
# The schema is checked against its metaschema once, here (a broken schema
# stops the session); jsonschema.validate() checked it again at every
# document, most of a small document's validation time (docs/reliability.md,
# "Time of make test").
jsonschema.Draft202012Validator.check_schema(SCHEMA)
RESULT_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


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


def ahead_of_other_work():
    """For subprocess's preexec_fn: the child at nice -20 where this user may
    raise its priority (root), so that other CPU-bound work on a shared
    machine gets only slivers of its core: what a test measures is then the
    memory or the network, not another process's scheduler slices (and the
    cache contents they leave). Elsewhere the child runs as it would."""
    with contextlib.suppress(PermissionError):
        os.setpriority(os.PRIO_PROCESS, 0, -20)


def interrupted_once_measuring(command, out, sig):
    """`movebench COMMAND -r 1000000 --json OUT` sent `sig` once it has
    measured rounds: (exit code, stdout). When that is, is measured here and
    now: the same command with two repetitions (start-up, calibration, the
    warm-up round and two more, validation) took T seconds, so the long run
    has begun its rounds by about T; the signal comes at 3T, room for the
    long run's calibration to take three times as long (at 2T, one run in
    about ten here at load 18 had measured only two rounds). A fixed 5 s wait
    signalled during the calibration at that load, and on a quiet machine
    measured thousands of rounds, which the run then replays to validate
    them (docs/reliability.md, "Time of make test")."""
    start = time.monotonic()
    run_movebench(*command, "-r", "2", check=0)
    seconds = time.monotonic() - start
    proc = subprocess.Popen(
        [str(binary_path()), *map(str, command), "-r", "1000000", "--json", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3 * seconds)
    proc.send_signal(sig)
    stdout, _ = proc.communicate(timeout=60)
    return proc.returncode, stdout


@pytest.fixture(scope="session")
def suite_run(tmp_path_factory):
    """`movebench run --only ONLY` measured once per session (and binary:
    MOVEBENCH_BIN is one per pytest run) for every test that only reads what
    it printed and wrote: (proc, path of its --json). A suite run takes up to
    a minute here, and several tests ask the same one (docs/reliability.md,
    "Time of make test"). Any exit code is kept: each test checks its own.
    With `store`, the run also stores its document (--store) in the SQLite
    file beside it, out.with_suffix(".sqlite")."""
    runs = {}

    def run(only, env=None, timeout=150, store=False):
        key = (only, tuple(sorted((env or {}).items())), store)
        if key not in runs:
            out = tmp_path_factory.mktemp("suite") / "run.json"
            extra = ["--store", out.with_suffix(".sqlite")] if store else []
            runs[key] = (run_movebench("run", "--only", only, "--json", out, *extra, env=env, timeout=timeout), out)
        return runs[key]

    return run


def validate_result(doc):
    """Raises jsonschema.ValidationError when doc is not a valid result
    document, AssertionError when a version 2 figure breaks a rule of the
    vocabulary the schema cannot say (docs/results.md)."""
    error = jsonschema.exceptions.best_match(RESULT_VALIDATOR.iter_errors(doc))  # as jsonschema.validate() picks it
    if error is not None:
        raise error
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


class PostgresCluster:
    """A throwaway PostgreSQL cluster (Debian's postgresql) in a temporary
    folder, listening only on a unix socket there, trusting local users (it
    is reachable only through that folder). PostgreSQL refuses to run as
    root: under root it runs as `nobody` (runuser), the folder given to it."""

    def __init__(self, bindir: pathlib.Path):
        self.bindir = bindir
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="movebench-pg-"))
        self.data = self.folder / "data"
        self.as_user = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            os.chown(self.folder, pwd.getpwnam("nobody").pw_uid, -1)
        self.databases = 0

    def _run(self, tool: str, *args, timeout=60):
        subprocess.run(
            [*self.as_user, str(self.bindir / tool), *args],
            cwd=self.folder,
            check=True,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def start(self):
        self._run("initdb", "-D", self.data, "-U", "movebench", "-A", "trust", "--no-sync", "-E", "UTF8")
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c max_connections=40"
        self._run(
            "pg_ctl", "-D", self.data, "-l", self.folder / "log", "-o", options, "-w", "-t", "60", "start", timeout=90
        )

    def stop(self):
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "-t", "30", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://movebench@/{database}?host={self.folder}"

    def new_database(self) -> str:
        """The URL of a new, empty database of this cluster."""
        import psycopg

        self.databases += 1
        name = f"store{self.databases}"
        with psycopg.connect(
            host=str(self.folder), user="movebench", dbname="postgres", autocommit=True, connect_timeout=10
        ) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def postgres_bindir():
    """The newest installed PostgreSQL's programs (Debian keeps them in
    /usr/lib/postgresql/VERSION/bin), or None."""
    found = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return pathlib.Path(initdb).parent if initdb else None


@pytest.fixture(scope="session")
def postgres():
    """One PostgreSQL cluster for the session (tests/python/test_store.py):
    each test asks it for a new database. Skips where PostgreSQL is not
    installed (make test's set-up installs it: MOVEBENCH_EXTRA_PACKAGES)."""
    bindir = postgres_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (Debian's postgresql; as root: apt-get install -y postgresql)")
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
    except subprocess.CalledProcessError as e:
        log = cluster.folder / "log"
        why = f"{e.stderr.strip()} {log.read_text() if log.exists() else ''}"
        cluster.stop()
        raise RuntimeError(f"PostgreSQL did not start: {why}") from None
    yield cluster
    cluster.stop()
