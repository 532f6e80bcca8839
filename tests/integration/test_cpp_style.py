"""The C++ layout (issue 28): every C++ and CUDA source in git is as
clang-format (Debian's, .clang-format) writes it; scripts/check_format.sh
names each file it would change and how many lines, which the failure shows."""

import subprocess

from conftest import REPO


def test_clang_format_would_change_nothing():
    proc = subprocess.run(["scripts/check_format.sh"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"scripts/check_format.sh:\n{proc.stdout}{proc.stderr}"
    assert "check_format: 0 lines clang-format would change" in proc.stdout, proc.stdout
