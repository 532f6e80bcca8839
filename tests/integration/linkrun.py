"""What the link and stream tests share beyond conftest: the backends every
mode runs on here, and picking records out of a result document."""

from conftest import load_result as load  # noqa: F401  (re-exported for the tests)
from conftest import run_movebench as run  # noqa: F401

BACKENDS = ["host", "opencl"]  # cuda compiles in CI but has no device there
# The host memory kinds each backend offers (in its order), and those its
# kernel path runs on.
KINDS = {"host": ["pageable", "pinned"], "opencl": ["pageable", "pinned", "mapped", "registered"]}
KERNEL_KINDS = {"host": {"pageable", "pinned"}, "opencl": {"mapped", "registered"}}
BACKEND_KINDS = [(b, k) for b in BACKENDS for k in KINDS[b]]


def records(doc, operation):
    return [t for t in doc["timings"] if t["operation"] == operation]


def run_interrupted(*args, json_path, timeout_s=60):
    """Runs movebench with --json json_path and sends SIGINT once the
    incrementally written result holds a first measurement (so a slow
    start-up, such as PoCL building its kernels, cannot make the test
    interrupt nothing). Returns (returncode, stdout)."""
    import json
    import signal
    import subprocess
    import time

    from conftest import binary_path

    proc = subprocess.Popen(
        [str(binary_path()), *map(str, args), "--json", str(json_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if json.loads(json_path.read_text()).get("timings"):
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=timeout_s)
    return proc.returncode, stdout


def assert_kept_after_interrupt(doc):
    """What an interrupted run must leave in its result document."""
    assert doc["complete"] is False
    assert "interrupted" in doc["errors"]
    assert len(doc["timings"]) >= 1, "what was measured before the signal is kept"
    assert doc["validated"] is True, "and it was validated"
