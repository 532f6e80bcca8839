"""movebench node on a real multi-node NUMA kernel: Debian's kernel booted
under qemu without KVM by virtme-ng (the host's own files in the guest),
with two NUMA nodes of one CPU each and a third node of memory only. One
boot (make numa): the numa part's matrix complete (every initiator x every
target, the memory-only node a target only), every array and chase ring
found by the kernel on the node asked for (the command checks it and fails
otherwise). The binary is one without -march=native (qemu emulates no
AVX-512): make numa gives it the debug preset's, built with ASan and UBSan,
so a sanitizer's report fails the test too. Figures from qemu's emulation
mean nothing and are not judged (docs/node.md)."""

import glob
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

PORTABLE = os.environ.get("MOVEBENCH_PORTABLE_BIN", "")
VNG = pathlib.Path(sys.executable).parent / "vng"
# node 0: CPU 0, node 1: CPU 1, node 2: memory only (qemu -numa node without CPUs)
NODES = ["--numa", "768M,cpus=0", "--numa", "768M,cpus=1", "--numa", "256M"]
BOOT_SECONDS = 900  # about 80 s on a quiet machine without KVM; far longer while other builds run


def kernel():
    found = sorted(glob.glob("/boot/vmlinuz-*"))
    return found[-1] if found else None


def missing():
    if not PORTABLE or not os.access(PORTABLE, os.X_OK):
        return "no portable build (MOVEBENCH_PORTABLE_BIN: make numa builds the debug preset)"
    if not VNG.exists():
        return "virtme-ng is not in the venv (python/requirements.txt)"
    for tool in ("qemu-system-x86_64", "busybox"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (scripts/setup.sh, make numa)"
    if kernel() is None:
        return "no kernel in /boot (linux-image-amd64)"
    return None


@pytest.fixture(scope="module")
def guest_run(tmp_path_factory):
    if why := missing():
        pytest.skip(why)
    out = tmp_path_factory.mktemp("guest")
    script = out / "run.sh"
    script.write_text(
        "#!/bin/sh\n"
        f"{PORTABLE} node --parts numa --array-bytes 8M --time-budget 20 --json {out}/node.json "
        f"> {out}/stdout 2> {out}/stderr\n"
        f"echo $? > {out}/rc\n"
    )
    script.chmod(0o755)
    env = dict(os.environ, PATH=f"{VNG.parent}:{os.environ['PATH']}")
    cmd = [str(VNG), "--disable-kvm", "--run", kernel(), "--cpus", "2", "-m", "1792M", *NODES]
    cmd += ["--rwdir", str(out), "--exec", str(script)]
    boot = subprocess.run(cmd, capture_output=True, text=True, timeout=BOOT_SECONDS, env=env)
    assert (out / "rc").exists(), f"the guest did not run the script\n{boot.stdout[-3000:]}\n{boot.stderr[-3000:]}"
    return out


def test_guest_has_two_cpu_nodes_and_a_memory_only_one(guest_run):
    rc = (guest_run / "rc").read_text().strip()
    stdout, stderr = (guest_run / "stdout").read_text(), (guest_run / "stderr").read_text()
    assert rc == "0", f"rc {rc}\n{stdout}\n{stderr}"
    assert "runtime error:" not in stderr, stderr  # UBSan reports and carries on
    doc = json.loads((guest_run / "node.json").read_text())
    cells = {
        (r["params"]["initiator"], r["params"]["target"], r["params"]["kernel"])
        for r in doc["timings"]
        if r["benchmark"] == "node" and r["operation"] == "numa"
    }
    want = {(i, t, k) for i in (0, 1) for t in (0, 1, 2) for k in ("sum", "triad", "chase")}
    assert cells == want, sorted(cells)
    assert doc["validated"] is True and not doc.get("errors"), doc.get("errors")
    assert "node 2" in stdout and "initiator \\ target" in stdout, stdout


def test_the_numa_factor_is_judged_per_distance(guest_run):
    doc = json.loads((guest_run / "node.json").read_text())
    distances = {(f["initiator"], f["target"]): f["distance"] for f in doc["numa_factors"]}
    # qemu's default SLIT: 10 local, 20 remote
    assert distances[(0, 1)] == 20 and distances[(1, 2)] == 20, distances
