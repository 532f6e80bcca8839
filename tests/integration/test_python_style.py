"""The Python's lint and layout (issue 28): `ruff check` and `ruff format
--check` over python/, bench/, tests/ and contrib/ (ruff.toml), from the
venv scripts/setup.sh makes; a finding fails the test with ruff's own lines."""

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

RUFF = Path(sys.executable).parent / "ruff"


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]])
def test_ruff_passes(args):
    assert RUFF.exists(), f"{RUFF} missing: run scripts/setup.sh (python/requirements.txt names ruff)"
    proc = subprocess.run([str(RUFF), *args, "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"ruff {' '.join(args)}:\n{proc.stdout}{proc.stderr}"
