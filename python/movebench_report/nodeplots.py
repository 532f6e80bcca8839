"""A node result's matrices as heat maps (canvas.draw_heatmap): the NUMA
matrix (read and triad bandwidth, idle latency: rows initiators, columns
targets), the core matrix (the one-way latency of each pair of CPUs, both
halves) and the devices' links (rows devices, columns the NUMA node the
host memory was on). The cells a finding names are outlined in red and
their values end in '*'; the text alternative gives every cell of a small
matrix and every finding. Each is a canvas.Plot for the page."""

from __future__ import annotations

from .canvas import Plot, draw_heatmap, plt, svg_of
from .labels import shorten
from .node import DIRECTIONS, KERNELS, MARK, Node, core_marks, device_marks, numa_marks

ALT_CELLS = 64  # cells a text alternative lists one by one; a bigger matrix: its range and findings


def _scale(values: list, unit: str) -> tuple:
    """(unit shown, divisor): GB/s for bandwidths from 10 GB/s, us for latencies from 10 us."""
    top = max(values, default=0)
    if unit == "MB/s" and top >= 1e4:
        return "GB/s", 1e3
    if unit == "ns" and top >= 1e4:
        return "us", 1e3
    return unit, 1.0


def _alt(what: str, rows: list, columns: list, cells: list, unit: str, findings: list) -> str:
    listed = [
        f"{r} to {c}: {v:.4g} {unit}" for r, row in zip(rows, cells) for c, v in zip(columns, row) if v is not None
    ]
    values = [v for row in cells for v in row if v is not None]
    if len(listed) > ALT_CELLS:
        listed = [f"{len(listed)} cells from {min(values):.4g} to {max(values):.4g} {unit}"]
    named = "; ".join(shorten(f.text) for f in findings) or "none"
    return f"{what}: " + "; ".join(listed) + f". Findings: {named}"


def _finish(fig, title: str, alt: str, panels: int) -> Plot:
    fig.suptitle(title, fontsize=9, wrap=True)
    fig.tight_layout()
    return Plot(title, alt, svg_of(fig, title, alt), [1] * panels)


def numa_plot(label: str, node: Node) -> Plot | None:
    """The NUMA matrix: one panel per kernel measured."""
    kernels = [k for k in KERNELS if any(key[0] == k[0] for key in node.numa)]
    if not kernels:
        return None
    marks = numa_marks(node)
    rows = [f"node {i}" for i in node.initiators]
    columns = [f"node {t}" for t in node.targets]
    side = max(2.4, 0.55 * len(columns) + 1.4)
    fig, axes = plt.subplots(
        1, len(kernels), figsize=(side * len(kernels) + 0.6, 0.55 * len(rows) + 1.9), squeeze=False
    )
    alt = []
    for ax, (kernel, _, unit, what, better) in zip(axes[0], kernels):
        raw = [[node.numa.get((kernel, i, t)) for t in node.targets] for i in node.initiators]
        shown_unit, divisor = _scale([v for row in raw for v in row if v is not None], unit)
        cells = [[None if v is None else v / divisor for v in row] for row in raw]
        marked = {
            (r, c) for r, i in enumerate(node.initiators) for c, t in enumerate(node.targets) if (kernel, i, t) in marks
        }
        draw_heatmap(ax, cells, rows, columns, f"numa-{kernel}", shown_unit, better == "higher", marked)
        ax.set_title(what, fontsize=9)
        ax.set_ylabel("initiator (CPUs)", fontsize=7)
        ax.set_xlabel("target (memory)", fontsize=7)
        findings = [f for (k, _, _), fs in marks.items() if k == kernel for f in fs]
        alt.append(_alt(what, rows, columns, cells, shown_unit, findings))
    title = f"{shorten(label)}: NUMA matrix (rows initiators, columns targets; red outline and {MARK}: a finding)"
    return _finish(fig, title, title + ". " + ". ".join(alt), len(kernels))


def cores_plot(label: str, node: Node) -> Plot | None:
    """The core matrix, both halves (a pair's figure in row a column b and
    row b column a), the diagonal empty."""
    if not node.pairs:
        return None
    marks = core_marks(node)
    index = {cpu: i for i, cpu in enumerate(node.cpus)}
    raw = [[None] * len(node.cpus) for _ in node.cpus]
    marked = set()
    for (a, b), (ns, _) in node.pairs.items():
        raw[index[a]][index[b]] = raw[index[b]][index[a]] = ns
        if (a, b) in marks:
            marked |= {(index[a], index[b]), (index[b], index[a])}
    shown_unit, divisor = _scale([ns for ns, _ in node.pairs.values()], "ns")
    cells = [[None if v is None else v / divisor for v in row] for row in raw]
    names = [f"cpu {c}" for c in node.cpus]
    side = min(12.0, max(3.5, 0.42 * len(names) + 1.8))
    fig, ax = plt.subplots(figsize=(side + 1.0, side))
    draw_heatmap(ax, cells, names, names, "cores", shown_unit, False, marked)
    ax.set_title("one-way cache-line latency of each pair (median of its blocks)", fontsize=9)
    findings = [f for fs in marks.values() for f in fs]
    title = f"{shorten(label)}: core matrix, {len(node.cpus)} CPUs, {len(node.pairs)} pairs (red outline and {MARK}: a finding)"
    upper = [[v if c > r else None for c, v in enumerate(row)] for r, row in enumerate(cells)]  # each pair once
    alt = _alt("one-way latency", names, names, upper, shown_unit, findings)
    return _finish(fig, title, title + ". " + alt, 1)


def devices_plot(label: str, node: Node) -> Plot | None:
    """Each direction's link bandwidth: rows devices, columns the NUMA node
    the host memory was on."""
    directions = [d for d in DIRECTIONS if any(k[0] == d[0] for k in node.links)]
    if not directions or not node.numa_nodes_of_devices:
        return None
    marks = device_marks(node)
    rows = [f"device {d.index}" for d in node.devices]  # named in the tables and on the map
    columns = [f"node {n}" for n in node.numa_nodes_of_devices]
    fig, axes = plt.subplots(
        1, len(directions), figsize=(3.2 * len(directions) + 2.5, 0.5 * len(rows) + 1.9), squeeze=False
    )
    alt = []
    for ax, (direction, _, words) in zip(axes[0], directions):
        raw = [[node.links.get((direction, d.index, n)) for n in node.numa_nodes_of_devices] for d in node.devices]
        shown_unit, divisor = _scale([v for row in raw for v in row if v is not None], "MB/s")
        cells = [[None if v is None else v / divisor for v in row] for row in raw]
        marked = {
            (r, c) for r, d in enumerate(node.devices) for c in range(len(columns)) if (direction, d.index) in marks
        }
        draw_heatmap(ax, cells, rows, columns, f"devices-{direction}", shown_unit, True, marked)
        ax.set_title(words, fontsize=9)
        ax.set_xlabel("host memory on", fontsize=7)
        findings = [f for (what, _), fs in marks.items() if what == direction for f in fs]
        alt.append(_alt(words, rows, columns, cells, shown_unit, findings))
    title = f"{shorten(label)}: devices' links from each NUMA node (red outline and {MARK}: a finding)"
    return _finish(fig, title, title + ". " + ". ".join(alt), len(directions))


def node_plots(label: str, node: Node) -> list:
    return [p for p in (numa_plot(label, node), cores_plot(label, node), devices_plot(label, node)) if p]
