"""Node results for the report's tests: the real ones committed (this VM's
one NUMA node with one and with two PoCL devices, the H200's, gzipped) and
one made up from the real VM's records: two NUMA nodes with CPUs and a
third of memory only, four CPUs, two devices, and a finding of each kind
that movebench node writes (the texts in its own words), so that every
cell, edge and mark can be checked where the development machine has only
one NUMA node and no finding. Made-up figures are never judged."""

import copy
import gzip
import json
import pathlib

from conftest import REPO

RESULTS = REPO / "tests" / "data" / "results"
VM = RESULTS / "node-vm.json"  # movebench node --time-budget 20 (every part, one PoCL device)
POCL2 = RESULTS / "node-pocl2.json"  # POCL_DEVICES="pthread pthread" node --parts devices,cores
H200 = REPO / "tests" / "data" / "gpu" / "2026-11-28-h200" / "run2" / "node.json.gz"

# The made-up node: {(initiator, target): (sum MB/s, triad MB/s, chase ns)}.
GRID = {
    (0, 0): (80000.0, 70000.0, 90.0),
    (0, 1): (40000.0, 35000.0, 140.0),
    (0, 2): (20000.0, 18000.0, 300.0),
    (1, 0): (41000.0, 36000.0, 141.0),
    (1, 1): (50000.0, 30000.0, 95.0),
    (1, 2): (21000.0, 19000.0, 290.0),
}
CPUS = (0, 1, 2, 3)
FINDINGS = [
    {
        "part": "numa",
        "figure": "local triad bandwidth against the DRAM peak",
        "endpoint": "node 1",
        "value": 30000.0,
        "reference": 51200.0,
        "worse_by": 0.414,
        "unit": "MB/s",
        "text": "numa: node 1 local triad 30000 MB/s is 58.6% of its DRAM peak 51200 MB/s, normal from 70% (made up)",
    },
    {
        "part": "numa",
        "figure": "NUMA factor of idle latency (chase) at distance 20",
        "endpoint": "node 0 -> node 2",
        "value": 3.33,
        "reference": 1.5,
        "worse_by": 1.22,
        "unit": "x",
        "text": "numa: node 0 -> node 2 NUMA factor of idle latency (chase) at distance 20 3.33, 122% higher (made up)",
    },
    {
        "part": "cores",
        "figure": "same_l3 latency (cpu median)",
        "endpoint": "cpu 3 (core 3, L3 0, socket 0)",
        "value": 400.0,
        "reference": 200.0,
        "worse_by": 1.0,
        "unit": "ns",
        "text": "cores: cpu 3 (core 3, L3 0, socket 0) same_l3 latency (cpu median) 400, 100% higher (made up)",
    },
    {
        "part": "cores",
        "figure": "same_l3 latency (L3 median)",
        "endpoint": "L3 1",
        "value": 300.0,
        "reference": 200.0,
        "worse_by": 0.5,
        "unit": "ns",
        "text": "cores: L3 1 same_l3 latency (L3 median) 300, 50% higher (made up)",
    },
    {
        "part": "devices",
        "figure": "host to device bandwidth",
        "endpoint": "device 1",
        "value": 482.0,
        "reference": 1840.0,
        "worse_by": 0.74,
        "unit": "MB/s",
        "text": "devices: device 1 host to device bandwidth 482, 74% lower (made up)",
    },
    {
        "part": "devices",
        "figure": "all at once, host to device",
        "endpoint": "all devices",
        "value": 2000.0,
        "reference": 7873.0,
        "worse_by": 0.75,
        "unit": "MB/s",
        "text": "devices: all at once, host to device: 2000 MB/s, 75% below each alone summed (made up)",
    },
]


def load(path: pathlib.Path) -> dict:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return json.load(f)


def made_up() -> dict:
    """The made-up node, from the real VM's and PoCL's records."""
    vm, pocl = load(VM), load(POCL2)
    doc = copy.deepcopy(vm)
    numa = {r["params"]["kernel"]: r for r in vm["timings"] if r["operation"] == "numa"}
    pair = next(r for r in vm["timings"] if r["operation"] == "cores")
    timings = []
    for (i, t), values in GRID.items():
        for kernel, value in zip(("sum", "triad", "chase"), values):
            r = copy.deepcopy(numa[kernel])
            r["params"].update(initiator=i, target=t)
            r["figures"]["latency" if kernel == "chase" else "bandwidth"]["value"] = value
            timings.append(r)
    for a in CPUS:
        for b in CPUS:
            if a < b:
                r = copy.deepcopy(pair)
                r["params"].update(cpu_a=a, cpu_b=b)
                r["figures"]["latency"]["value"] = 400.0 if 3 in (a, b) else 200.0 + 10 * a + b
                timings.append(r)
    for r in pocl["timings"]:
        if r["operation"] == "devices":
            timings.append(r)
            if r["params"].get("numa_node") == 0:  # the same again from node 1
                again = copy.deepcopy(r)
                again["params"]["numa_node"] = 1
                timings.append(again)
    doc["timings"] = timings
    doc["findings"] = copy.deepcopy(FINDINGS)
    doc["numa_factors"] = [
        {
            "initiator": i,
            "target": t,
            "distance": 10 if i == t else 20,
            "of": "idle latency (chase)",
            "factor": v[2] / GRID[(i, i)][2],
        }
        for (i, t), v in GRID.items()
    ]
    doc["host"].update(numa_nodes=3, logical_cpus=4, cores=4, hostname="made-up")
    return doc


def write(doc: dict, folder: pathlib.Path, name: str) -> pathlib.Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path
