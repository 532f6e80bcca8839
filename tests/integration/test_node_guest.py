"""movebench node on a real multi-node NUMA kernel: Debian's kernel booted
under qemu without KVM by virtme-ng (the host's own files in the guest),
with three NUMA nodes of one CPU each and a fourth node of memory only. One
boot (make numa) runs:

- the numa part's matrix: complete (every initiator x every target, the
  memory-only node a target only), every array and chase ring found by the
  kernel on the node asked for (the command checks it and fails otherwise);
- the NUMA factors judged per distance.

The sibling runs (node 1's CPU slowed, five runs with nothing slowed) are
run by hand, not here (docs/node.md, "A slow sibling in the guest"): judged
in rounds they named the slowed node and nothing in five unslowed runs, but
each run of the sanitized binary takes a minute or more in qemu.
qemu's figures themselves mean nothing and are not judged against a peak.

The binary is one without -march=native (qemu emulates no AVX-512): make
numa gives it the debug preset's, built with ASan and UBSan, so a
sanitizer's report fails the test too."""

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
# nodes 0-2: CPU 0-2, one each; node 3: memory only (qemu -numa node without CPUs)
# The CPU nodes 768M each: with 384M the sanitized binary (ASan's shadow and
# quarantine) left a CPU node 17 to 21 MiB free and node skipped it as
# smaller than a cell.
NODES = ["--numa", "768M,cpus=0", "--numa", "768M,cpus=1", "--numa", "768M,cpus=2", "--numa", "256M"]
GUEST_MEMORY = "2560M"
BOOT_SECONDS = 1200  # about 2 minutes on a quiet machine without KVM; far longer while other builds run


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


def guest_script(out):
    """The guest's whole work, one shell script: the matrix, its exit code,
    stdout and stderr in `out`. (The sibling runs are run by hand: docs/node.md,
    "A slow sibling in the guest".)"""

    def run(name, args, env=""):
        return (
            f"s=$(date +%s.%N); {env} {PORTABLE} {args} --json {out}/{name}.json "
            f"> {out}/{name}.stdout 2> {out}/{name}.stderr; echo $? > {out}/{name}.rc; "
            f"echo {name} $s $(date +%s.%N) >> {out}/times\n"
        )

    return "#!/bin/sh\n" + run("node", "node --parts numa --array-bytes 8M --time-budget 20") + f"echo 0 > {out}/rc\n"


@pytest.fixture(scope="module")
def guest_run(tmp_path_factory):
    if why := missing():
        pytest.skip(why)
    out = tmp_path_factory.mktemp("guest")
    script = out / "run.sh"
    script.write_text(guest_script(out))
    script.chmod(0o755)
    env = dict(os.environ, PATH=f"{VNG.parent}:{os.environ['PATH']}")
    cmd = [str(VNG), "--disable-kvm", "--run", kernel(), "--cpus", "3", "-m", GUEST_MEMORY, *NODES]
    cmd += ["--rwdir", str(out), "--exec", str(script)]
    boot = subprocess.run(cmd, capture_output=True, text=True, timeout=BOOT_SECONDS, env=env)
    assert (out / "rc").exists(), f"the guest did not run the script\n{boot.stdout[-3000:]}\n{boot.stderr[-3000:]}"
    return out


def finished(guest_run, name):
    """The run's document, once its exit code was 0."""
    rc = (guest_run / f"{name}.rc").read_text().strip()
    stdout, stderr = (guest_run / f"{name}.stdout").read_text(), (guest_run / f"{name}.stderr").read_text()
    assert rc == "0", f"{name}: rc {rc}\n{stdout}\n{stderr}"
    assert "runtime error:" not in stderr, f"{name}: {stderr}"  # UBSan reports and carries on
    return json.loads((guest_run / f"{name}.json").read_text()), stdout, stderr


def test_guest_has_three_cpu_nodes_and_a_memory_only_one(guest_run):
    doc, stdout, _ = finished(guest_run, "node")
    cells = {
        (r["params"]["initiator"], r["params"]["target"], r["params"]["kernel"])
        for r in doc["timings"]
        if r["benchmark"] == "node" and r["operation"] == "numa"
    }
    want = {(i, t, k) for i in (0, 1, 2) for t in (0, 1, 2, 3) for k in ("sum", "triad", "chase")}
    assert cells == want, sorted(cells)
    assert doc["validated"] is True and not doc.get("errors"), doc.get("errors")
    assert "node 3" in stdout and "initiator \\ target" in stdout, stdout


def test_the_numa_factor_is_judged_per_distance(guest_run):
    doc = json.loads((guest_run / "node.json").read_text())
    distances = {(f["initiator"], f["target"]): f["distance"] for f in doc["numa_factors"]}
    # qemu's default SLIT: 10 local, 20 remote
    assert distances[(0, 1)] == 20 and distances[(1, 3)] == 20, distances
