"""A node result (`movebench node`, docs/node.md): its NUMA matrix (every
initiator x every target: read and triad bandwidth, idle latency), its core
matrix (the one-way cache-line latency of each pair of CPUs, per relation),
its devices (each link from each NUMA node, the device's own memory, all at
once) and its findings, each placed on the cells and edges it names. For
`table` (the matrices as a person reads them), the page's heat maps
(nodeplots) and the node map (nodemap). Read from the document's `node`
records, `findings` and `numa_factors`; a malformed one is a ReportError
naming the file. How many endpoints are drawn or printed is bounded here."""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

from .labels import shorten
from .model import BANDWIDTH_UNITS, TIME_UNITS, ReportError
from .render import Table

# The numa part's three kernels: (kernel, figure, unit, what it is, better).
KERNELS = (
    ("sum", "bandwidth", "MB/s", "read bandwidth (sum)", "higher"),
    ("triad", "bandwidth", "MB/s", "triad bandwidth", "higher"),
    ("chase", "latency", "ns", "idle latency (chase)", "lower"),
)
# The devices part's link cases, by the direction node writes (docs/node.md#devices).
DIRECTIONS = (
    ("read", "link.copy.read", "host to device"),
    ("write", "link.copy.write", "device to host"),
    ("duplex", "link.copy.duplex.total", "both ways at once"),
)
LINK_LATENCY = "link.latency.first_word"  # the device reads a word of host memory: the link's latency
RELATIONS = ("smt_sibling", "same_l2", "same_l3", "same_socket", "other_socket")
# Bounds of what a file may make us draw or print: real machines have at
# most a few dozen NUMA nodes and devices; the core matrix is printed whole
# up to TABLE_CPUS (a wider one: its slowest pairs).
MOST_NUMA_NODES = 64
MOST_DEVICES = 64
MOST_CPUS = 1024
TABLE_CPUS = 32
SLOWEST_PAIRS = 20
MOST_PLACED = 256  # findings placed on cells and edges (the rest are listed, up to MOST_LISTED)
MOST_LISTED = 50  # findings listed one by one (page, table notes); a real run has a handful
MARK = "*"  # after a value named in a finding (text and tables; the plots outline the cell too)


@dataclass
class Finding:
    part: str
    figure: str
    endpoint: str
    value: float
    reference: float
    worse_by: float
    unit: str
    text: str


@dataclass
class Device:
    index: int
    name: str
    backend: str


@dataclass
class Node:
    initiators: list = field(default_factory=list)  # NUMA node numbers, in order
    targets: list = field(default_factory=list)
    numa: dict = field(default_factory=dict)  # {(kernel, initiator, target): MB/s or ns}
    factors: list = field(default_factory=list)  # numa_factors as written
    cpus: list = field(default_factory=list)
    pairs: dict = field(default_factory=dict)  # {(cpu a, cpu b): (ns, relation)}, a < b
    devices: list = field(default_factory=list)  # [Device]
    numa_nodes_of_devices: list = field(default_factory=list)  # the NUMA nodes the host buffers were on
    links: dict = field(default_factory=dict)  # {(direction, device, numa node): MB/s}
    link_latency: dict = field(default_factory=dict)  # {(device, numa node): ns of the first word}
    own: dict = field(default_factory=dict)  # {(device, 'copy'|'triad'): MB/s}
    all_at_once: list = field(default_factory=list)  # [(direction, MB/s, sum alone MB/s or None)]
    findings: list = field(default_factory=list)  # [Finding]


def _mb_s(figure: dict) -> float:
    return float(figure["value"]) * BANDWIDTH_UNITS[figure["unit"]] / 1e6


def _ns(figure: dict) -> float:
    return float(figure["value"]) * TIME_UNITS[figure["unit"]] / 1e-9


def _node_number(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not a NUMA node or CPU number: {shorten(value, 40)!r}")
    return value


def _add_numa(node: Node, p: dict, figures: dict):
    kernel = p["kernel"]
    i, t = _node_number(p["initiator"]), _node_number(p["target"])
    for name, figure, _, _, _ in KERNELS:
        if kernel == name and figure in figures:
            node.numa[(kernel, i, t)] = (_mb_s if figure == "bandwidth" else _ns)(figures[figure])
            node.initiators.append(i)
            node.targets.append(t)


def _add_cores(node: Node, p: dict, figures: dict):
    a, b = sorted((_node_number(p["cpu_a"]), _node_number(p["cpu_b"])))
    if "latency" in figures:
        node.pairs[(a, b)] = (_ns(figures["latency"]), str(p.get("relation", "")))
        node.cpus += [a, b]


def _add_device(node: Node, p: dict, figures: dict):
    device, numa, case = p["device"], p.get("numa_node"), str(p.get("case", ""))
    if device == "all":
        if "bandwidth" in figures:
            alone = p.get("sum_alone_mb_s")
            alone = float(alone) if isinstance(alone, (int, float)) and not isinstance(alone, bool) else None
            node.all_at_once.append((str(p.get("direction", "")), _mb_s(figures["bandwidth"]), alone))
        return
    index = _node_number(device)
    if all(d.index != index for d in node.devices):
        node.devices.append(Device(index, str(p.get("device_name", "")), str(p.get("backend", ""))))
    if numa == "device" and case in ("mem.copy", "mem.triad") and "bandwidth" in figures:
        node.own[(index, case[4:])] = _mb_s(figures["bandwidth"])
    if isinstance(numa, bool) or not isinstance(numa, int) or p.get("all_at_once") is not None:
        return  # a device's own share while all ran: the aggregate says it
    pinned_first = p.get("host_memory", "pinned") == "pinned"
    for direction, wanted, _ in DIRECTIONS:
        key = (direction, index, numa)
        if case == wanted and "bandwidth" in figures and (pinned_first or key not in node.links):
            node.links[key] = _mb_s(figures["bandwidth"])
            node.numa_nodes_of_devices.append(numa)
    if case == LINK_LATENCY and "latency" in figures:
        node.link_latency[(index, numa)] = _ns(figures["latency"])


def _finding(f: dict) -> Finding:
    numbers = [float(f[k]) for k in ("value", "reference", "worse_by")]
    return Finding(str(f["part"]), str(f["figure"]), str(f["endpoint"]), *numbers, str(f["unit"]), str(f["text"]))


def node_of(doc: dict, where: str = "") -> Node | None:
    """The node part of a document (its `node` records and findings), or
    None when it has none."""
    records = [r for r in doc.get("timings", []) if r.get("benchmark") == "node"]
    if not records:
        return None
    node = Node()
    adders = {"numa": _add_numa, "cores": _add_cores, "devices": _add_device}
    try:
        for r in records:
            add = adders.get(r["operation"])
            if add:
                add(node, r["params"], r["figures"])
        node.findings = [_finding(f) for f in doc.get("findings", [])]
        node.factors = [dict(f) for f in doc.get("numa_factors", [])]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ReportError(f"{where}: the node records are not as movebench node writes them ({e})") from None
    node.initiators, node.targets = sorted(set(node.initiators)), sorted(set(node.targets))
    node.cpus = sorted(set(node.cpus))
    node.devices.sort(key=lambda d: d.index)
    node.numa_nodes_of_devices = sorted(set(node.numa_nodes_of_devices))
    bounds = (
        (len(set(node.initiators) | set(node.targets)), MOST_NUMA_NODES, "NUMA nodes"),
        (len(node.devices), MOST_DEVICES, "devices"),
        (len(node.cpus), MOST_CPUS, "CPUs in the core matrix"),
    )
    for count, most, what in bounds:
        if count > most:
            raise ReportError(f"{where}: {count} {what}, more than the report shows ({most})")
    return node


def nodes(sources: list) -> list:
    """[(label, Node)] of every document of the sources with node records."""
    return [(s.label, n) for s in sources for p, d in zip(s.paths, s.documents) if (n := node_of(d, str(p)))]


# --- which cells and edges a finding names ----------------------------------------------

_NODE = re.compile(r"node (\d+)(?: -> node (\d+))?")
_CPU = re.compile(r"cpu (\d+)\b")
_DEVICE = re.compile(r"device (\d+)")


def numa_marks(node: Node) -> dict:
    """{(kernel, initiator, target): [Finding]}: each numa finding on its
    cell (a node's local figure on the diagonal, a pair's NUMA factor on the
    pair's cell of the kernel it is of)."""
    out = {}
    for f in node.findings[:MOST_PLACED]:
        m = _NODE.fullmatch(f.endpoint)
        if f.part != "numa" or not m:
            continue
        i = int(m.group(1))
        t = int(m.group(2)) if m.group(2) else i
        kernel = "chase" if "latency" in f.figure else "triad" if "triad" in f.figure else "sum"
        out.setdefault((kernel, i, t), []).append(f)
    return out


def core_marks(node: Node) -> dict:
    """{(cpu a, cpu b): [Finding]}: a CPU named for a relation marks its
    pairs of that relation. A domain's finding (an L3, a socket) names no
    CPU the document places in it: it is listed, not drawn."""
    out, of_cpu = {}, {}
    for (a, b), (_, rel) in node.pairs.items():
        for cpu in (a, b):
            of_cpu.setdefault((cpu, rel), []).append((a, b))
    for f in node.findings[:MOST_PLACED]:
        m = _CPU.match(f.endpoint)
        if f.part != "cores" or not m:
            continue
        for pair in of_cpu.get((int(m.group(1)), f.figure.split(" ", 1)[0]), []):
            out.setdefault(pair, []).append(f)
    return out


def device_marks(node: Node) -> dict:
    """{(direction or 'own', device): [Finding]}: a device named for a
    direction (from its best node, or its own node's mismatch) marks that
    direction's edges; for its own memory, the device itself."""
    out = {}
    for f in node.findings[:MOST_PLACED]:
        m = _DEVICE.fullmatch(f.endpoint)
        if f.part != "devices" or not m:
            continue
        words = f.figure
        what = "own" if "own memory" in words else "write" if words.startswith("device to host") else "read"
        out.setdefault((what, int(m.group(1))), []).append(f)
    return out


def unplaced(node: Node) -> list:
    """The findings no cell or edge shows: a core domain's, all devices at
    once (said in words beside the pictures)."""
    placed = {
        id(f) for marks in (numa_marks(node), core_marks(node), device_marks(node)) for fs in marks.values() for f in fs
    }
    return [f for f in node.findings if id(f) not in placed]


def pair_marks(node: Node) -> dict:
    """{frozenset(a, b): [Finding]}: the NUMA pairs (either way) a finding names."""
    out = {}
    for (_, i, t), fs in numa_marks(node).items():
        if i != t:
            out.setdefault(frozenset((i, t)), []).extend(fs)
    return out


def relation_summary(node: Node) -> list:
    """[(relation, pairs, median, min, max)] in ns, per relation present."""
    by = {}
    for ns, relation in node.pairs.values():
        by.setdefault(relation, []).append(ns)
    order = sorted(by, key=lambda r: (RELATIONS.index(r) if r in RELATIONS else len(RELATIONS), r))
    return [(r, len(by[r]), statistics.median(by[r]), min(by[r]), max(by[r])) for r in order]


def device_label(d: Device) -> str:
    return shorten(f"device {d.index} ({d.backend} {d.name})".replace(" )", ")"), 60)


# --- tables for `table` ---------------------------------------------------------------------


def _cell(value, marked: bool):
    """A matrix cell as text: the number as the tables write numbers, then
    the mark or room for it, so that a column's digits line up."""
    if value is None:
        return "-  "
    number = f"{value:.1f}" if abs(value) >= 100 else f"{value:.3f}" if abs(value) >= 1 else f"{value:.4g}"
    return f"{number} {MARK}" if marked else f"{number}  "


def _aligned(rows: list, columns: list) -> list:
    """Rows whose cells after the first are right-justified to their
    column's width, its name's included (the text table left-justifies text)."""
    widths = [max([len(shorten(columns[c]))] + [len(r[c]) for r in rows]) for c in range(1, len(columns))]
    return [[r[0]] + [v.rjust(w) for v, w in zip(r[1:], widths)] for r in rows]


def _numa_tables(label: str, node: Node) -> list:
    marks = numa_marks(node)
    out = []
    for kernel, _, unit, what, better in KERNELS:
        if not any(k == kernel for k, _, _ in node.numa):
            continue
        rows = [
            [f"node {i}"] + [_cell(node.numa.get((kernel, i, t)), (kernel, i, t) in marks) for t in node.targets]
            for i in node.initiators
        ]
        columns = ["initiator \\ target"] + [f"node {t}" for t in node.targets]
        rows = _aligned(rows, columns)
        notes = [f"{better} is better; -: not measured"]
        if any(k == kernel for k, _, _ in marks):
            notes.append(f"{MARK}: named in a finding (below)")
        out.append(Table(columns, rows, f"{label}: node numa {what} [{unit}]", notes))
    if node.factors:
        rows = [
            [f"node {f.get('initiator')}", f"node {f.get('target')}", f.get("distance"), f.get("of"), f.get("factor")]
            for f in node.factors
        ]
        columns = ["initiator", "target", "distance", "of", "factor"]
        note = "times worse than the initiator's local memory (1: no penalty)"
        out.append(Table(columns, rows, f"{label}: node numa factors", [note]))
    return out


def _core_tables(label: str, node: Node) -> list:
    if not node.pairs:
        return []
    marks = core_marks(node)
    out = []
    if len(node.cpus) <= TABLE_CPUS:
        rows = []
        for a in node.cpus:
            row = [f"cpu {a}"]
            for b in node.cpus:
                key = (min(a, b), max(a, b))
                row.append(_cell(node.pairs[key][0] if key in node.pairs else None, key in marks))
            rows.append(row)
        columns = ["cpu"] + [str(c) for c in node.cpus]
        rows = _aligned(rows, columns)
        notes = ["one way: half the round trip, the median of the pair's blocks; lower is better; -: not measured"]
        if marks:
            notes.append(f"{MARK}: a CPU named in a finding, on its pairs of the finding's relation (below)")
        out.append(Table(columns, rows, f"{label}: node core matrix [ns]", notes))
    else:
        slowest = sorted(node.pairs.items(), key=lambda kv: -kv[1][0])[:SLOWEST_PAIRS]
        rows = [[f"cpu {a}", f"cpu {b}", rel, _cell(ns, (a, b) in marks)] for (a, b), (ns, rel) in slowest]
        note = f"{len(node.cpus)} CPUs, {len(node.pairs)} pairs: the slowest {len(rows)} (the page draws them all)"
        out.append(Table(["cpu a", "cpu b", "relation", "latency [ns]"], rows, f"{label}: node core pairs", [note]))
    rows = [[r, n, med, lo, hi] for r, n, med, lo, hi in relation_summary(node)]
    columns = ["relation", "pairs", "median [ns]", "min [ns]", "max [ns]"]
    out.append(Table(columns, rows, f"{label}: node core latency per relation"))
    return out


def _device_tables(label: str, node: Node) -> list:
    if not node.devices:
        return []
    marks = device_marks(node)
    out = []
    columns = ["device \\ host memory on"] + [f"node {n}" for n in node.numa_nodes_of_devices]
    for direction, _, words in DIRECTIONS:
        if not any(k[0] == direction for k in node.links):
            continue
        rows = [
            [device_label(d)]
            + [
                _cell(node.links.get((direction, d.index, n)), (direction, d.index) in marks)
                for n in node.numa_nodes_of_devices
            ]
            for d in node.devices
        ]
        out.append(Table(columns, _aligned(rows, columns), f"{label}: node devices {words} [MB/s]"))
    if node.link_latency:
        rows = [
            [device_label(d)] + [_cell(node.link_latency.get((d.index, n)), False) for n in node.numa_nodes_of_devices]
            for d in node.devices
        ]
        note = "the device's first word read from host memory (link's latency.first_word)"
        out.append(Table(columns, _aligned(rows, columns), f"{label}: node devices latency [ns]", [note]))
    if node.own:
        rows = [
            [device_label(d)]
            + [_cell(node.own.get((d.index, k)), ("own", d.index) in marks) for k in ("copy", "triad")]
            for d in node.devices
        ]
        columns = ["device", "copy [MB/s]", "triad [MB/s]"]
        out.append(Table(columns, _aligned(rows, columns), f"{label}: node devices own memory"))
    if node.all_at_once:
        contended = {f.figure for f in node.findings if f.part == "devices" and f.endpoint == "all devices"}
        words = {d: w for d, _, w in DIRECTIONS}
        rows = [
            [direction, _cell(mb_s, f"all at once, {words.get(direction)}" in contended), _cell(alone, False)]
            for direction, mb_s, alone in node.all_at_once
        ]
        columns = ["direction", "all at once [MB/s]", "each alone, summed [MB/s]"]
        rows = _aligned(rows, columns)
        out.append(Table(columns, rows, f"{label}: node devices all at once"))
    return out


def node_tables(label: str, node: Node) -> list:
    """The node's matrices as `table` prints them (rows initiators, columns
    targets, as Intel MLC's; the core matrix as c2clat's), then its findings."""
    out = _numa_tables(label, node) + _core_tables(label, node) + _device_tables(label, node)
    listed = node.findings[:MOST_LISTED]
    rows = [[f.part, f.endpoint, f.figure, f.value, f.reference, f"{100 * f.worse_by:.0f}%", f.unit] for f in listed]
    columns = ["part", "endpoint", "figure", "value", "reference", "worse by", "unit"]
    notes = [shorten(f.text) for f in listed]
    if len(node.findings) > len(listed):
        notes.append(f"and {len(node.findings) - len(listed)} more (the result file lists them all)")
    if not rows:
        columns, rows = ["findings"], [["none: no endpoint worse than its siblings or its peak"]]
    out.append(Table(columns, rows, f"{label}: node findings: {len(node.findings)}", notes))
    return out
