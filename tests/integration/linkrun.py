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
