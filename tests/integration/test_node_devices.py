"""movebench node's devices part on real devices: PoCL offers two OpenCL CPU
devices with POCL_DEVICES="pthread pthread" (the only devices here), each
measured with the host memory on every NUMA node this machine has, in its
own memory, and both at once (docs/node.md#devices)."""

import pathlib

import pytest

from conftest import load_result, run_movebench

TWO_POCL = {"POCL_DEVICES": "pthread pthread"}


def numa_nodes():
    root = pathlib.Path("/sys/devices/system/node")
    nodes = sorted(int(p.name[4:]) for p in root.glob("node[0-9]*"))
    return nodes or [0]


def device_records(doc, **params):
    out = []
    for t in doc["timings"]:
        if t["benchmark"] != "node" or t["operation"] != "devices":
            continue
        if all(t["params"].get(k) == v for k, v in params.items()):
            out.append(t)
    return out


@pytest.fixture(scope="module")
def two_devices(tmp_path_factory):
    """One short run on both PoCL devices, shared by the tests that read it."""
    out = tmp_path_factory.mktemp("node") / "node.json"
    proc = run_movebench(
        "node",
        "--parts",
        "devices",
        "--device-bytes",
        "64K",
        "--time-budget",
        "4",
        "--json",
        out,
        env=TWO_POCL,
        timeout=400,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc, load_result(out)


def test_every_device_on_every_numa_node(two_devices):
    _, doc = two_devices
    assert doc["validated"] is True
    for device in (0, 1):
        for node in numa_nodes():
            mine = device_records(doc, device=device, numa_node=node)
            cases = {t["params"]["case"] for t in mine}
            for case in ("link.copy.read", "link.copy.write", "link.copy.duplex.total", "link.latency.first_word"):
                assert case in cases, (device, node, sorted(cases))
            directions = {t["params"]["direction"] for t in mine}
            assert {"read", "write", "duplex"} <= directions
            assert all(t["params"]["placement"] == f"every sampled page on NUMA node {node}" for t in mine)
        own = device_records(doc, device=device, numa_node="device")
        assert {t["params"]["case"] for t in own} == {"mem.copy", "mem.triad"}


def test_results_per_device_kept_apart(two_devices):
    _, doc = two_devices
    for device in (0, 1):
        alone = [t for t in device_records(doc, device=device) if "all_at_once" not in t["params"]]
        # Every record of a device names that device alone, and a device's
        # measurement is never under the other's name.
        assert alone and all(t["params"]["device"] == device for t in alone)
        # One record per NUMA node and case: the two devices' figures are
        # not merged into one.
        reads = [t for t in alone if t["params"]["case"] == "link.copy.read"]
        assert sorted(t["params"]["numa_node"] for t in reads) == numa_nodes()


def test_all_at_once_against_each_alone(two_devices):
    proc, doc = two_devices
    for direction in ("read", "write"):
        (whole,) = device_records(doc, device="all", direction=direction)
        assert whole["params"]["devices"] == 2
        assert whole["figures"]["bandwidth"]["value"] > 0 and whole["params"]["sum_alone_mb_s"] > 0
        together = device_records(doc, direction=direction, all_at_once=2)
        assert sorted(t["params"]["device"] for t in together) == [0, 1]
        assert f"All devices at once, {'host to device' if direction == 'read' else 'device to host'}" in proc.stdout


def test_no_bus_id_is_unknown_not_a_mismatch(two_devices):
    proc, doc = two_devices
    # PoCL's CPU devices have no PCI bus id: their NUMA node is unknown,
    # which is never a mismatch.
    assert "its own NUMA node unknown: unknown, the device tells no NUMA node" in proc.stdout
    assert not any("own NUMA node" in f["figure"] for f in doc.get("findings", []))


def test_matrices_printed(two_devices):
    proc, _ = two_devices
    for title in (
        "Devices, host to device (read), MB/s",
        "Devices, device to host (write), MB/s",
        "Devices, both ways at once (duplex), MB/s",
        "Devices, the first word read from host memory, ns",
        "Devices, their own memory (mem), MB/s",
    ):
        assert title in proc.stdout
    assert "device 0" in proc.stdout and "device 1" in proc.stdout


@pytest.mark.parametrize("devices", ["2", "0,7"])
def test_devices_out_of_range(devices):
    proc = run_movebench("node", "--parts", "devices", "--devices", devices, env=TWO_POCL, check=2)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--devices: no device" in lines[0] and "(0 to 1)" in lines[0], proc.stderr
