"""Running movebench link/stream in tests: needs only MOVEBENCH_BIN (and checks
the result schema when docs/result.schema.json and jsonschema are there)."""
import json
import os
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("MOVEBENCH_BIN", str(REPO / "build" / "release" / "movebench"))
BACKENDS = ["host", "opencl"]  # cuda compiles in CI but has no device there


def run(*args, check=None, timeout=120):
    proc = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if check is not None:
        assert proc.returncode == check, (
            f"exit {proc.returncode}, wanted {check}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


def load(path):
    doc = json.loads(pathlib.Path(path).read_text())
    schema = REPO / "docs" / "result.schema.json"
    try:
        import jsonschema
    except ImportError:
        return doc
    if schema.exists():
        jsonschema.validate(doc, json.loads(schema.read_text()))
    return doc



def records(doc, operation):
    return [t for t in doc["timings"] if t["operation"] == operation]
