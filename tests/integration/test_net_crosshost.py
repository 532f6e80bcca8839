"""The smallest real multi-node run: two network namespaces joined by a
veth pair, each a "host" with its own name, and Open MPI's TCP transport
between them (no shared memory). Skipped where namespaces are not allowed."""
import os
import shutil
import subprocess
import uuid

import pytest

from conftest import binary_path
from net_mpi import MPIBENCH_LINE, MPIRUN, ROOT_ENV, built_with_mpi, needs_mpirun

pytestmark = needs_mpirun
SUBNET = "10.231.7"


def sh(*cmd, check=True):
    return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=30)


@pytest.fixture(scope="module")
def two_hosts(tmp_path_factory):
    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    if os.geteuid() != 0 or not shutil.which("ip") or not shutil.which("unshare"):
        pytest.skip("network namespaces need root, ip (iproute2) and unshare")
    tag = uuid.uuid4().hex[:6]
    ns = [f"mb{tag}a", f"mb{tag}b"]
    veth = [f"mb{tag}0", f"mb{tag}1"]
    try:
        for n in ns:
            sh("ip", "netns", "add", n)
        sh("ip", "link", "add", veth[0], "type", "veth", "peer", "name", veth[1])
        for i in (0, 1):
            sh("ip", "link", "set", veth[i], "netns", ns[i])
            sh("ip", "-n", ns[i], "addr", "add", f"{SUBNET}.{i + 1}/24", "dev", veth[i])
            sh("ip", "-n", ns[i], "link", "set", veth[i], "up")
            sh("ip", "-n", ns[i], "link", "set", "lo", "up")
    except (subprocess.CalledProcessError, OSError) as e:
        for n in ns:
            sh("ip", "netns", "del", n, check=False)
        pytest.skip(f"this machine does not allow network namespaces here: {getattr(e, 'stderr', e)}".strip())
    # mpirun starts the remote daemon through this "rsh": into the other
    # namespace, with its own host name.
    agent = tmp_path_factory.mktemp("netns") / "agent.sh"
    agent.write_text("#!/bin/sh\nhost=$1; shift\n"
                     f"case $host in {SUBNET}.1) ns={ns[0]}; hn=mbhost1;; *) ns={ns[1]}; hn=mbhost2;; esac\n"
                     'exec ip netns exec $ns unshare --uts sh -c "hostname $hn; $*"\n')
    agent.chmod(0o755)
    yield ns, agent
    for n in ns:
        sh("ip", "netns", "del", n, check=False)


def run_across(two_hosts, *args):
    ns, agent = two_hosts
    mpirun = " ".join([MPIRUN, "--host", f"{SUBNET}.1:1,{SUBNET}.2:1", "-np", "2",
                       "--mca", "plm_rsh_agent", str(agent), "--mca", "btl", "tcp,self",
                       "--mca", "btl_tcp_if_include", f"{SUBNET}.0/24", "--mca", "oob_tcp_if_include",
                       f"{SUBNET}.0/24", str(binary_path()), *args])
    return subprocess.run(["ip", "netns", "exec", ns[0], "unshare", "--uts", "sh", "-c",
                           f"hostname mbhost1; exec {mpirun}"], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **ROOT_ENV))


def test_coll_between_two_hosts_over_tcp(two_hosts):
    proc = run_across(two_hosts, "coll", "-e", "1K", "-i", "5", "Allreduce", "Alltoall")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "0 : mbhost1" in lines and "1 : mbhost2" in lines
    rows = [MPIBENCH_LINE.match(l) for l in lines if "\tBytes:\t" in l]
    assert rows and all(rows) and all(r["ranks"] == "2" for r in rows)


def test_beff_between_two_hosts_over_tcp(two_hosts):
    proc = run_across(two_hosts, "beff", "--max-size", "4K", "--random-patterns", "1", "--repetitions", "1",
                      "--loop-length", "10", "-u", "16", "-l", "4", "-m", "12", "-n", "1")
    assert proc.returncode == 0, proc.stderr
    assert "b_eff (HPCC) = " in proc.stdout and "\nb_eff = " in proc.stdout
