"""The smallest real multi-node run: two network namespaces joined by a
veth pair, each a "host" with its own name, and Open MPI's TCP transport
between them (no shared memory), as tests/integration/netns.py builds them.
Skipped where namespaces are not allowed."""

import netns
import pytest
from net_mpi import MPIBENCH_LINE


@pytest.fixture(scope="module")
def two_hosts(tmp_path_factory):
    with netns.hosts(2, tmp_path_factory.mktemp("netns")) as fleet:
        yield fleet


def test_coll_between_two_hosts_over_tcp(two_hosts):
    proc = two_hosts.mpirun(1, "coll", "-e", "1K", "-i", "5", "Allreduce", "Alltoall")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "0 : mbhost1" in lines and "1 : mbhost2" in lines
    rows = [MPIBENCH_LINE.match(l) for l in lines if "\tBytes:\t" in l]
    assert rows and all(rows) and all(r["ranks"] == "2" for r in rows)


def test_beff_between_two_hosts_over_tcp(two_hosts):
    proc = two_hosts.mpirun(
        1,
        "beff",
        "--max-size",
        "4K",
        "--random-patterns",
        "1",
        "--repetitions",
        "1",
        "--loop-length",
        "10",
        "-u",
        "16",
        "-l",
        "4",
        "-m",
        "12",
        "-n",
        "1",
    )
    assert proc.returncode == 0, proc.stderr
    assert "b_eff (HPCC) = " in proc.stdout and "\nb_eff = " in proc.stdout
