"""The node map of a node result (`movebench node`): every NUMA node (its
memory, its local figures) and every device as a box, and every path the
run measured between them as an edge labelled with what was measured on
it: between two NUMA nodes the remote read and triad bandwidth and idle
latency each way (left), between a NUMA node and a device the copies host
to device, device to host and both ways with the host memory on that node,
and the device's first word (right). An edge or box a finding names is red
and thick, its label says FINDING (colour is never the only carrier).
Hand-written SVG with nodesvg's primitives; every string from the file is
shortened and escaped. How much is drawn is bounded (node.py, below)."""

from __future__ import annotations

from html import escape
from types import SimpleNamespace

from .labels import shorten
from .model import format_size
from .node import DIRECTIONS, MARK, Node, device_marks, numa_marks, pair_marks, unplaced
from .nodesvg import BOX_W, fit_lines, svg_text
from .summary import value_text

MOST_BOXES = 16  # NUMA nodes or devices drawn as boxes; the rest are said in a line
MOST_EDGE_NODES = 8  # remote edges between every pair up to this many NUMA nodes (28 edges)
MOST_DEVICE_EDGES = 32  # device x NUMA node edges drawn; more: the devices' heat maps hold them
LABEL_W = 460  # room for one edge label (about 85 characters at 10 px)
PORT = 16  # between two edges' ends on one side of a box
LINE = 18
GAP = 26
EDGE = "#4a6fa5"
FINDING = "#c0392b"
WORDS = {"read": "H2D", "write": "D2H", "duplex": "both"}


def _bw(mb_s) -> str:
    return value_text(mb_s, "MB/s")


def _ns(ns) -> str:
    return value_text(ns, "ns")


def _cell_words(node: Node, i: int, t: int) -> str:
    """'read 40.1 GB/s, triad 30.2 GB/s, 140 ns' of the cell initiator i x target t."""
    words = []
    for kernel, name in (("sum", "read"), ("triad", "triad")):
        if (kernel, i, t) in node.numa:
            words.append(f"{name} {_bw(node.numa[(kernel, i, t)])}")
    if ("chase", i, t) in node.numa:
        words.append(_ns(node.numa[("chase", i, t)]))
    return ", ".join(words)


def _device_words(node: Node, d: int, k: int) -> str:
    words = [
        f"{WORDS[direction]} {_bw(node.links[(direction, d, k)])}"
        for direction, _, _ in DIRECTIONS
        if (direction, d, k) in node.links
    ]
    if (d, k) in node.link_latency:
        words.append(f"first word {_ns(node.link_latency[(d, k)])}")
    return ", ".join(words)


def _memory_line(doc: dict, k: int) -> str:
    tiers = doc.get("facts", {}).get("memory_tiers", {}) if isinstance(doc.get("facts"), dict) else {}
    for n in tiers.get("nodes", []) if isinstance(tiers, dict) and isinstance(tiers.get("nodes"), list) else []:
        if isinstance(n, dict) and n.get("node") == k and isinstance(n.get("bytes"), (int, float)):
            kind = shorten(n.get("kind", "memory"), 20)
            return f"{kind.upper() if kind in ('dram', 'hbm', 'cxl') else kind} {format_size(int(n['bytes']))}"
    return ""


def _numa_lines(doc: dict, node: Node, k: int, local: list) -> list:
    memory_only = k in node.targets and k not in node.initiators
    lines = [f"NUMA node {k}" + (" (memory only)" if memory_only else "")]
    if memory := _memory_line(doc, k):
        lines.append(memory)
    if words := _cell_words(node, k, k):
        lines.append(f"local: {words}")
    lines += [f"FINDING: {f.text}" for f in local]
    return lines


def _box(x, y, h, lines, ident: str, marked: bool, fill: str) -> str:
    stroke = f"stroke='{FINDING}' stroke-width='4'" if marked else "stroke='#556'"
    out = [f"<g id='{ident}'{' class=' + chr(39) + 'finding' + chr(39) if marked else ''}>"]
    out.append(f"<rect x='{x}' y='{y}' width='{BOX_W}' height='{h}' rx='6' fill='{fill}' {stroke}/>")
    for n, line in enumerate(fit_lines(lines)):
        colour = FINDING if line.startswith("FINDING") else "#222"
        out.append(
            svg_text(x + 8, y + 20 + LINE * n, line, 13 if n == 0 else 11, "bold" if n == 0 else "normal", fill=colour)
        )
    return "".join(out) + "</g>"


def _edge(ident: str, corners: list, marked: bool, labels: list) -> str:
    """A routed line (its corners), and its labels [(x, y, text, anchor)]."""
    points = " ".join(f"{x},{y}" for x, y in corners)
    colour, wide = (FINDING, 5) if marked else (EDGE, 2.5)
    cls = " class='finding'" if marked else ""
    out = [f"<g id='{ident}'{cls}><polyline points='{points}' fill='none' stroke='{colour}' stroke-width='{wide}'/>"]
    for x, y, text, anchor in labels:
        out.append(
            svg_text(x, y, ("FINDING " if marked else "") + text, 10, anchor=anchor, fill=colour if marked else "#222")
        )
    return "".join(out) + "</g>"


def _layout(node: Node) -> tuple:
    """(NUMA nodes drawn, devices drawn, remote pairs drawn)."""
    numa = sorted(set(node.initiators) | set(node.targets) | set(node.numa_nodes_of_devices))
    pairs = []
    if len(numa) <= MOST_EDGE_NODES:
        for a in numa:
            for b in numa:
                if a < b and any(k[1:] in ((a, b), (b, a)) for k in node.numa):
                    pairs.append((a, b))
    return numa[:MOST_BOXES], node.devices[:MOST_BOXES], pairs


def node_map_svg(doc: dict, node: Node) -> str:
    """The SVG element of a node result's map, with a <title> and a text
    alternative (<desc>) that holds every label; '' where the result has no
    NUMA cell and no device (a core matrix only: its heat map says it)."""
    numa, devices, pairs = _layout(node)
    if not numa and not devices:
        return ""
    g = _geometry(doc, node, numa, devices, pairs)
    parts, said = [], []
    _draw_numa(node, g, parts, said)
    _draw_devices(node, g, parts, said)
    bottom = g.top + g.pitch * max(len(numa), len(devices))
    notes = _notes(node, numa, devices, len(g.measured) - len(g.device_edges))
    for n, (line, bad) in enumerate(notes):
        parts.append(svg_text(10, bottom + 14 + 16 * n, line, 11, fill=FINDING if bad else "#222"))
    said += [line for line, _ in notes]
    width, height = g.width, bottom + 16 * len(notes) + 24
    host = shorten(doc.get("host", {}).get("hostname", ""))
    title = f"The node {host}: NUMA nodes and devices, every path measured (movebench node)"
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' role='img' class='node-map' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}' font-family='sans-serif'><title>{escape(title)}</title>"
        f"<desc>{escape('. '.join(shorten(s) for s in said))}</desc>{''.join(parts)}</svg>"
    )


def _geometry(doc: dict, node: Node, numa: list, devices: list, pairs: list) -> SimpleNamespace:
    """Where the map's boxes and edges go: the boxes' lines and height, the
    column of NUMA nodes (mid), of devices (dev_x), each NUMA node's row, and
    the device edges drawn (none beyond MOST_DEVICE_EDGES)."""
    local = {}
    for (_, i, t), fs in numa_marks(node).items():
        if i == t:
            local.setdefault(i, []).extend(fs)
    by_device = device_marks(node)
    partners = {k: [b if a == k else a for a, b in pairs if k in (a, b)] for k in numa}
    numa_lines = {k: _numa_lines(doc, node, k, local.get(k, [])) for k in numa}
    dev_lines = {
        d.index: [f"device {d.index}", f"{d.backend} {d.name}"]
        + [f"own memory: {w} {_bw(node.own[(d.index, w)])}" for w in ("copy", "triad") if (d.index, w) in node.own]
        + [f"FINDING: {f.text}" for f in by_device.get(("own", d.index), [])]
        for d in devices
    }
    heights = [len(fit_lines(lines)) * LINE + 12 for lines in list(numa_lines.values()) + list(dev_lines.values())]
    heights += [PORT * (len(partners[k]) + 1) for k in numa] + [PORT * (len(devices) + 1), PORT * (len(numa) + 1)]
    box_h = max([96] + heights)
    pitch, top = box_h + GAP, 30
    mid = 10 + (10 * len(pairs) + 20 + LABEL_W if pairs else 0)
    measured = [(d, k) for d in devices for k in numa if _device_words(node, d.index, k)]
    device_edges = measured if len(measured) <= MOST_DEVICE_EDGES else []
    dev_x = mid + BOX_W + 6 + LABEL_W + 10 * len(device_edges) + 20
    return SimpleNamespace(
        numa=numa, devices=devices, pairs=pairs, local=local, by_device=by_device, partners=partners,
        numa_lines=numa_lines, dev_lines=dev_lines, box_h=box_h, pitch=pitch, top=top, mid=mid,
        measured=measured, device_edges=device_edges, dev_x=dev_x,
        width=(dev_x + BOX_W + 10) if devices else mid + BOX_W + 10,
        row={k: top + n * pitch for n, k in enumerate(numa)},
    )  # fmt: skip


def _draw_numa(node: Node, g: SimpleNamespace, parts: list, said: list) -> None:
    """A box per NUMA node and an edge per remote pair measured."""
    for k in g.numa:
        parts.append(_box(g.mid, g.row[k], g.box_h, g.numa_lines[k], f"numa-node-{k}", bool(g.local.get(k)), "#eef2fb"))
        said.append("; ".join(g.numa_lines[k]))
    marked_pairs = pair_marks(node)
    for e, (a, b) in enumerate(g.pairs):
        gx = 10 + 10 * e
        ya = g.row[a] + PORT * (g.partners[a].index(b) + 1)
        yb = g.row[b] + PORT * (g.partners[b].index(a) + 1)
        labels = [
            (g.mid - 6, y - 4, f"node {i} to node {t}: {_cell_words(node, i, t)}", "end")
            for i, t, y in ((a, b, ya), (b, a, yb))
            if _cell_words(node, i, t)
        ]
        marked = frozenset((a, b)) in marked_pairs
        parts.append(_edge(f"numa-edge-{a}-{b}", [(g.mid, ya), (gx, ya), (gx, yb), (g.mid, yb)], marked, labels))
        said += [text for _, _, text, _ in labels]


def _draw_devices(node: Node, g: SimpleNamespace, parts: list, said: list) -> None:
    """A box per device and an edge per NUMA node its links were measured from."""
    for n, d in enumerate(g.devices):
        y = g.top + n * g.pitch
        marked = bool(g.by_device.get(("own", d.index)))
        parts.append(_box(g.dev_x, y, g.box_h, g.dev_lines[d.index], f"device-{d.index}", marked, "#fbf4ec"))
        said.append("; ".join(g.dev_lines[d.index]))
    for e, (d, k) in enumerate(g.device_edges):
        gx = g.mid + BOX_W + 6 + LABEL_W + 10 * e + 10
        yk = g.row[k] + PORT * (g.devices.index(d) + 1)
        yd = g.top + g.devices.index(d) * g.pitch + PORT * (g.numa.index(k) + 1)
        text = f"device {d.index}: {_device_words(node, d.index, k)}"
        marked = any((w, d.index) in g.by_device for w in ("read", "write"))
        corners = [(g.mid + BOX_W, yk), (gx, yk), (gx, yd), (g.dev_x, yd)]
        label = [(g.mid + BOX_W + 6, yk - 4, text, "start")]
        parts.append(_edge(f"device-edge-{d.index}-{k}", corners, marked, label))
        said.append(text)


def _notes(node: Node, numa: list, devices: list, links_left_out: int) -> list:
    """[(line, is a finding)] under the map: all devices at once, findings
    no box or edge shows, what the bounds left out, the legend."""
    lines = []
    contention = [f for f in node.findings if f.part == "devices" and f.endpoint == "all devices"]
    for direction, mb_s, alone in node.all_at_once:
        words = dict((d, w) for d, _, w in DIRECTIONS).get(direction, shorten(direction, 20))
        summed = f" (each alone, summed: {_bw(alone)})" if alone is not None else ""
        lines.append((f"all devices at once, {words}: {_bw(mb_s)}{summed}", False))
    lines += [(f"FINDING: {f.text}", True) for f in unplaced(node) if f not in contention][:8]
    lines += [(f"FINDING: {f.text}", True) for f in contention]
    all_numa = set(node.initiators) | set(node.targets) | set(node.numa_nodes_of_devices)
    if len(all_numa) > len(numa) or len(node.devices) > len(devices):
        lines.append(
            (f"drawn: {len(numa)} of {len(all_numa)} NUMA nodes, {len(devices)} of {len(node.devices)} devices", False)
        )
    if links_left_out:
        lines.append((f"{links_left_out} device links: in the devices' heat maps, not drawn here", False))
    if len(all_numa) > MOST_EDGE_NODES:
        lines.append(
            (f"{len(all_numa)} NUMA nodes: the pairs between them are in the NUMA heat maps, not drawn here", False)
        )
    legend = (
        "edges: blue, measured; red and thick, named in a finding (FINDING); H2D host to device, D2H device to host"
    )
    lines.append((legend + (f"; {MARK} in the heat maps" if node.findings else ""), False))
    return lines
