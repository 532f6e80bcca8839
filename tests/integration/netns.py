"""Hosts modelled as network namespaces, for the tests that need real
separate machines on one: each "host" is a namespace with its own host
name (unshare --uts), and every two hosts are joined by their own veth pair
on their own /24 (a full mesh), so one link between two hosts can be slowed
(tc tbf on both ends) without touching any other. Open MPI starts the
remote ranks through an rsh agent that enters the host's namespace; its TCP
transport (btl tcp, no shared memory) carries the messages.

Skipped where the movebench under test has no MPI, is not Open MPI's
(the agent is an Open MPI option), or the machine does not allow
namespaces (root, iproute2's ip and tc, util-linux's unshare)."""

import contextlib
import itertools
import os
import shutil
import subprocess
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from net_mpi import MPI_FAMILY, MPIRUN, ROOT_ENV, built_with_mpi

from conftest import binary_path

NET = "10.231"  # link k between two hosts is NET.k.0/24, the lower host .1


def sh(*cmd, check=True):
    return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=30)


@dataclass
class Fleet:
    """The namespaces, each host's addresses, and the veth pair of every link."""

    tag: str
    names: list  # host names, mbhost1..N
    ns: list  # namespace per host
    address: dict = field(default_factory=dict)  # host index -> its addresses
    links: dict = field(default_factory=dict)  # (i, j) -> (veth in i, veth in j)
    agent: Path = None

    def slow_link(self, i, j, rate, burst="256kb"):
        """A tbf rate limit on both ends of the link between hosts i and j
        (this kernel has no netem). burst: what passes at full speed after a
        pause (default: a few 64 KiB messages' worth), latency: how long a
        packet may queue before tbf drops it (TCP resends)."""
        for host, dev in zip((i, j), self.links[(min(i, j), max(i, j))]):
            sh(
                "tc",
                "-n",
                self.ns[host],
                "qdisc",
                "add",
                "dev",
                dev,
                "root",
                "tbf",
                "rate",
                rate,
                "burst",
                burst,
                "latency",
                "400ms",
            )

    def mpirun(self, ranks_per_host, *args, timeout=120):
        """mpirun from host 0, `ranks_per_host` ranks on each host, over TCP."""
        hosts = ",".join(f"{self.address[h][0]}:{ranks_per_host}" for h in range(len(self.ns)))
        cmd = " ".join(
            [
                MPIRUN,
                "--host",
                hosts,
                "-np",
                str(ranks_per_host * len(self.ns)),
                "--oversubscribe",
                "--bind-to",
                "none",
                "--mca",
                "plm_rsh_agent",
                str(self.agent),
                "--mca",
                "btl",
                "tcp,self",
                "--mca",
                "btl_tcp_if_include",
                f"{NET}.0.0/16",
                "--mca",
                "oob_tcp_if_include",
                f"{NET}.0.0/16",
                str(binary_path()),
                *map(str, args),
            ]
        )
        return subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                self.ns[0],
                "unshare",
                "--uts",
                "sh",
                "-c",
                f"hostname {self.names[0]}; exec {cmd}",
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=dict(os.environ, **ROOT_ENV),
        )


def missing():
    """Why this machine cannot build the namespaces, or None."""
    if MPIRUN is None or MPI_FAMILY != "openmpi":
        return "needs Open MPI's mpirun (its rsh agent starts the remote ranks)"
    if not built_with_mpi():
        return "this movebench was built without MPI"
    if os.geteuid() != 0 or not all(map(shutil.which, ("ip", "tc", "unshare"))):
        return "network namespaces need root, ip and tc (iproute2) and unshare"
    return None


def _build(f, hosts):
    for n in f.ns:
        sh("ip", "netns", "add", n)
    for k, (i, j) in enumerate(itertools.combinations(range(hosts), 2)):
        veth = (f"mb{f.tag}{i}{j}a", f"mb{f.tag}{i}{j}b")
        sh("ip", "link", "add", veth[0], "type", "veth", "peer", "name", veth[1])
        for end, host in enumerate((i, j)):
            address = f"{NET}.{k}.{end + 1}"
            sh("ip", "link", "set", veth[end], "netns", f.ns[host])
            sh("ip", "-n", f.ns[host], "addr", "add", f"{address}/24", "dev", veth[end])
            sh("ip", "-n", f.ns[host], "link", "set", veth[end], "up")
            f.address.setdefault(host, []).append(address)
        f.links[(i, j)] = veth
    for n in f.ns:
        sh("ip", "-n", n, "link", "set", "lo", "up")
    _route_over_own_links(f)


def _route_over_own_links(f):
    # Open MPI's TCP transport tries every address of a peer (and stripes
    # over them), so each host reaches all of another's addresses, and only
    # over the link the two share: the traffic of a pair is that link's.
    for (i, j), veth in f.links.items():
        for me, peer, dev in ((i, j, veth[0]), (j, i, veth[1])):
            shared = {a.rsplit(".", 1)[0] for a in f.address[me]}
            for address in f.address[peer]:
                if address.rsplit(".", 1)[0] not in shared:
                    sh("ip", "-n", f.ns[me], "route", "add", f"{address}/32", "dev", dev)


def _write_agent(f, folder):
    # mpirun starts each remote daemon through this "rsh": into the host's
    # namespace (known by any of its addresses), with its own host name.
    cases = "".join(f"  {'|'.join(f.address[h])}) ns={f.ns[h]}; hn={f.names[h]};;\n" for h in range(len(f.ns)))
    f.agent = Path(folder) / "agent.sh"
    f.agent.write_text(
        "#!/bin/sh\nhost=$1; shift\ncase $host in\n" + cases + "  *) exit 5;;\nesac\n"
        'exec ip netns exec $ns unshare --uts sh -c "hostname $hn; $*"\n'
    )
    f.agent.chmod(0o755)


@contextlib.contextmanager
def hosts(count, folder):
    """`count` hosts as namespaces in a full mesh; always removed after."""
    why = missing()
    if why:
        pytest.skip(why)
    tag = uuid.uuid4().hex[:4]
    f = Fleet(tag, [f"mbhost{h + 1}" for h in range(count)], [f"mb{tag}h{h}" for h in range(count)])
    try:
        try:
            _build(f, count)
        except (subprocess.CalledProcessError, OSError) as e:
            pytest.skip(f"this machine does not allow network namespaces here: {getattr(e, 'stderr', e)}".strip())
        _write_agent(f, folder)
        yield f
    finally:
        for n in f.ns:
            sh("ip", "netns", "del", n, check=False)
        for i, j in itertools.combinations(range(count), 2):  # one left behind by a failed move
            sh("ip", "link", "del", f"mb{tag}{i}{j}a", check=False)
