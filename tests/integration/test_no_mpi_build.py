"""A build without MPI (the aarch64 build of make aarch64 is one): the MPI
commands answer in one line with exit 77. Against a binary with MPI these
tests do not apply and are deselected (tests/conftest.py), not skipped."""

import pytest

from conftest import run_movebench

pytestmark = pytest.mark.no_mpi_build


@pytest.mark.parametrize("command", ["beff", "coll", "p2p"])
def test_a_build_without_mpi_says_so_in_one_line(command):
    proc = run_movebench(command, "-e", "8", check=77)
    assert proc.stderr.strip() == (
        f"movebench {command}: this build has no MPI (rebuild with MPI installed and -DMOVEBENCH_WITH_MPI=ON)"
    )
