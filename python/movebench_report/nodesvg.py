"""A picture of the node, drawn from the document's own facts: each package
(socket) with its caches, its DRAM, and each accelerator and NIC on its
PCIe link; on each edge the figure measured there against its peak,
coloured by the fraction reached and said in words too (colour is never the
only carrier). Hand-written SVG: every string from the file is shortened (labels.shorten)
and escaped."""

from __future__ import annotations

import textwrap
from html import escape

from .facts import dram_of, facts_of, from_file, links_of, measured_link, nics_of, not_in_file
from .labels import shorten
from .model import format_size
from .summary import Row, device_name, rows_of, value_text

# Fraction of the peak -> colour; the legend says the same in words.
BANDS = (
    (0.75, "#2a7d2a", "75% of peak or more"),
    (0.5, "#c98a00", "50-75% of peak"),
    (0.0, "#c0392b", "under 50% of peak"),
)
UNKNOWN = ("#888888", "no peak known")
UNMEASURED = ("#b8b8c0", "nothing measured on it")
BOX_W, BOX_H, GAP = 240, 96, 28
LEFT, MIDDLE, RIGHT = 10, 500, 960
WIDTH = RIGHT + BOX_W + 10


def colour(fraction) -> str:
    if fraction is None:
        return UNKNOWN[0]
    return next(c for low, c, _ in BANDS if fraction >= low)


def svg_text(x, y, text, size=12, weight="normal", anchor="start", fill="#222") -> str:
    # A white halo under the letters keeps a label readable where it crosses a line.
    return (
        f"<text x='{x}' y='{y}' font-size='{size}' font-weight='{weight}' text-anchor='{anchor}' "
        f"fill='{fill}' stroke='white' stroke-width='3' paint-order='stroke'>{escape(shorten(text))}</text>"
    )


def _box(x, y, lines, fill="#f4f6fb") -> str:
    lines = fit_lines(lines)
    h = max(BOX_H, 18 * len(lines) + 10)
    out = [f"<rect x='{x}' y='{y}' width='{BOX_W}' height='{h}' rx='6' fill='{fill}' stroke='#556'/>"]
    for i, line in enumerate(lines):
        out.append(svg_text(x + 8, y + 20 + 18 * i, line, 13 if i == 0 else 11, "bold" if i == 0 else "normal"))
    return "".join(out)


MOST_LINES = 6  # what a box holds inside one row's pitch


def fit_lines(lines: list, most: int = 40) -> list:
    """Box text fits its box: the name line is cut, the others wrapped, and
    the box holds at most MOST_LINES (the whole text is in the summary
    table and the host facts)."""
    out = [shorten(lines[0], most - 10)] if lines else []  # the name line is bold and larger
    for line in lines[1:]:
        out += textwrap.wrap(shorten(line), most) or [""]
    return out[: MOST_LINES - 1] + [shorten(" ".join(out[MOST_LINES - 1 :]), most)] if len(out) > MOST_LINES else out


def measured_text(row: Row, scope: str = "") -> str:
    """'41.2 GB/s = 81% of 51.2 GB/s' or '95 ns' (no peak); with a scope,
    the peak is said to be the scope's ('of 333 GB/s (all 2 sockets)')."""
    value = _human(row.value, row.unit)
    if row.peak is None or row.fraction is None:
        return f"{value} (peak unknown)"
    return f"{value} = {100 * row.fraction:.0f}% of {_human(row.peak, row.unit)}" + (f" ({scope})" if scope else "")


_human = value_text


def _edge(x1, y1, x2, y2, rows: list, scope: str = "", labelled: bool = True, elbow=None) -> str:
    """A line between two boxes, coloured by the lowest fraction of its rows,
    with one label line per row above it (`scope` says what the figure
    spans where the edge is not all of it: 'all 2 sockets'); a thin grey
    line where nothing was measured on it. With `elbow` (an x), the line
    turns there, so that its last stretch is level and its labels sit above
    it, clear of the line."""
    corners = f"{x1},{y1} {x2},{y2}" if elbow is None else f"{x1},{y1} {elbow},{y1} {elbow},{y2} {x2},{y2}"
    if not rows:
        return f"<polyline points='{corners}' fill='none' stroke='{UNMEASURED[0]}' stroke-width='2'/>"
    fractions = [r.fraction for r in rows if r.fraction is not None]
    fraction = min(fractions) if fractions else None
    dash = "" if fraction is not None else " stroke-dasharray='6 4'"
    out = [f"<polyline points='{corners}' fill='none' stroke='{colour(fraction)}' stroke-width='5'{dash}/>"]
    for i, row in enumerate(rows if labelled else []):
        # Labels stacked above the edge's far end: edges from one box fan
        # out, so labels there never sit on one another.
        # a link row by its direction (the box names the device), a memory row by its path
        name = row.path.rsplit(" ", 1)[-1] if row.path.startswith("link:") else row.path
        label = f"{name}: {measured_text(row, scope)}"
        out.append(
            svg_text(
                x2 - 6,
                y2 - 8 - 14 * (len(rows) - 1 - i),
                label,
                10,
                anchor="end",
                fill=colour(row.fraction) if row.fraction is not None else "#333",
            )
        )
    return "".join(out)


def _cache_lines(host: dict) -> list:
    seen, lines = set(), []
    for c in sorted(host.get("caches", []), key=lambda c: c["level"]):
        if c["level"] not in seen and c["bytes"]:
            seen.add(c["level"])
            lines.append(f"L{c['level']} {format_size(c['bytes'])} x {c['instances']}")
    return [" ".join(lines[:2]), " ".join(lines[2:])] if len(lines) > 2 else [" ".join(lines)] if lines else []


def _packages(doc: dict) -> int:
    """Sockets: the facts layer's count where it has one (hwloc's), else the host record's."""
    sockets = facts_of(doc).get("cpu", {}).get("sockets") if isinstance(facts_of(doc).get("cpu"), dict) else None
    if isinstance(sockets, int) and not isinstance(sockets, bool) and 1 <= sockets <= 64:
        return sockets
    return max(1, int(doc["host"].get("packages") or 1))


def recorded(host: dict) -> bool:
    """Whether the document says anything of its host (an import does not)."""
    return bool(host.get("hostname") or host.get("cpu_model") or host.get("memory_bytes"))


def _dram_lines(doc: dict, socket: int, packages: int) -> list:
    """One socket's DRAM: its share of the memory and its own peak (the
    whole node's peak is on the edge label, with the figure measured across
    all sockets)."""
    host, dram = doc["host"], dram_of(facts_of(doc))
    if not_in_file(facts_of(doc), "dram"):
        return ["DRAM not in the file", "(the facts are of the files given)"]
    if not recorded(host) and dram is None:
        return ["DRAM not recorded"]
    size = format_size(host.get("memory_bytes", 0) // packages)
    lines = [f"DRAM socket {socket}: {size}" if packages > 1 else f"DRAM {size}"]
    if packages > 1:
        lines.append(f"(1/{packages} of {format_size(host.get('memory_bytes', 0))} in all)")
    if from_file(facts_of(doc), "dram"):  # another machine's DIMMs: this host's memory size is not theirs
        lines = [f"DRAM socket {socket}" if packages > 1 else "DRAM", f"from {from_file(facts_of(doc), 'dram')}"]
    if dram is None:
        return lines + ["peak unknown (no facts)"]
    if not dram.known:
        return lines + [f"peak unknown: {dram.why or 'not read'}"]
    for number, peak, channels in dram.sockets:
        if number in (socket, None) and peak:
            own = f" (socket {socket})" if packages > 1 else ""
            lines.append(f"peak {_human(peak, 'B/s')}{own}, {channels}".rstrip(", "))
    if len(lines) == (2 if packages > 1 else 1) and dram.peak:
        lines.append(f"peak {_human(dram.peak, 'B/s')} (all sockets; none per socket)")
    return lines + [
        f"fault: {f}"
        for f in dram.faults[:2]
        if packages == 1 or f"socket {socket}" in f or ("socket" not in f and socket == 0)
    ]


def _devices(doc: dict, rows: list) -> list:
    """[(box lines, package index, rows on its edge)] for each accelerator and
    NIC: the link rows on the link they ran over (the link device's bus id),
    the network rows on the first NIC; a NIC that is also a PCIe function
    is one box."""
    facts = facts_of(doc)
    link_rows = [r for r in rows if r.path.startswith("link:")]
    net_rows = [r for r in rows if r.path.startswith("network")]
    links, nics = links_of(facts), nics_of(facts)
    measured = measured_link(doc)
    out = []
    for link in links:
        nic = next((n for n in nics if _same(n, link)), None)
        edge = net_rows if link.kind == "nic" else link_rows if link == measured else []
        out.append(
            (
                _link_lines(doc, link, nic),
                _node_package(link.numa_node, doc),
                edge if edge and not _drawn(out, edge) else [],
            )
        )
    for nic in nics:
        if any(_same(nic, link) for link in links):
            continue
        out.append(
            (
                [nic.name or "NIC", f"{nic.kind or 'network'} {_rate(nic)}"],
                0,
                net_rows if not _drawn(out, net_rows) else [],
            )
        )
    if link_rows and not _drawn(out, link_rows):
        name = link_rows[0].path[5:].rsplit(" ", 1)[0] or "device"  # 'link:NVIDIA H200 H2D': the device
        words = (
            ["host backend: no device", "(copies in RAM by a worker thread)"]
            if name == "host"
            else [name, "accelerator (no PCIe facts)"]
        )
        out.append((words, 0, link_rows))
    if net_rows and not _drawn(out, net_rows):
        out.append((["network (MPI ranks)", "no NIC facts recorded"], 0, net_rows))
    return out


def _same(nic, link) -> bool:
    """Whether a NIC of the facts is that PCIe function (its bus id, else its name)."""
    return bool(nic.bus_id and nic.bus_id == link.bus_id) or bool(nic.name and nic.name == link.name)


def _rate(nic) -> str:
    return f"{nic.rate_bits / 1e9:g} Gbit/s" if nic.rate_bits else "rate unknown"


def _link_lines(doc: dict, link, nic) -> list:
    """A device's box: its name (the benchmark's name for the link device,
    the interface's for a NIC), kind and bus id, the PCIe link and its peak."""
    name = device_name(doc, link.bus_id) if link.bus_id else link.name
    if nic is not None:
        name = f"{nic.name} ({link.name})" if nic.name and link.name and nic.name != link.name else nic.name or name
    lines = [
        name or "device",
        f"{link.kind or 'PCIe'} {link.bus_id}".strip(),
        f"PCIe {link.trained()}" if link.trained() else "PCIe link unknown",
    ]
    if from_file(facts_of(doc), "pcie"):
        lines.append(f"from {from_file(facts_of(doc), 'pcie')}")
    if link.peak:
        lines.append(f"link peak {_human(link.peak, 'B/s')} per direction")
    if nic is not None:
        lines.append(f"{nic.kind or 'network'} {_rate(nic)}")
    if link.degraded:
        lines.append(f"DEGRADED: {link.why}" if link.why else "DEGRADED link")
    return lines


def _drawn(devices: list, rows: list) -> bool:
    return any(r in edge for _, _, edge in devices for r in rows)


def _node_package(numa_node, doc: dict) -> int:
    """The package a NUMA node belongs to: nodes spread evenly over packages."""
    packages, nodes = _packages(doc), max(1, int(doc["host"].get("numa_nodes") or 1))
    if numa_node is None or numa_node < 0:
        return 0
    return min(packages - 1, numa_node * packages // nodes)


def node_svg(doc: dict, rows: list | None = None) -> str:
    """The SVG element of one document's node (its facts, and the summary
    rows given, by default its own), with a <title> and a text alternative
    (the <desc>), sized to what it holds."""
    host = doc["host"]
    rows = rows_of(doc) if rows is None else rows
    packages = _packages(doc)
    scope = f"all {packages} sockets" if packages > 1 else ""
    mem_rows = [r for r in rows if r.path in ("dram", "dram latency")]
    devices = _devices(doc, rows)
    rows_needed = max(packages, len(devices))
    labels = max([len(mem_rows)] + [len(edge) for _, _, edge in devices])
    pitch = BOX_H + GAP + 14 * labels
    top = 20 + 14 * labels
    height = top + pitch * rows_needed + 40
    parts = []
    cpu = [
        host.get("cpu_model", ""),
        f"{host.get('cores', '?')} cores, "
        f"{host.get('logical_cpus', '?')} CPUs, {host.get('numa_nodes', '?')} NUMA node(s) in all",
    ]
    if not recorded(host):  # an import: the other tool printed nothing of the host
        cpu = ["host not recorded", "(an imported output: the tool", "printed no CPU or memory facts)"]
    file_cpu = _file_cpu(facts_of(doc))  # read from a file: not this host's CPU, nor its caches
    cpu, model, caches = (
        (file_cpu, file_cpu[0], []) if file_cpu else (cpu, host.get("cpu_model", ""), _cache_lines(host))
    )
    for p in range(packages):
        cpu[0] = f"Package {p}: {model}" if packages > 1 else cpu[0]
        y = top + p * pitch
        parts.append(_box(MIDDLE, y, cpu + caches if p == 0 else cpu[:1] + caches))
        parts.append(_box(LEFT, y, _dram_lines(doc, p, packages), "#eef7ee"))
        # DRAM is measured by all threads across every socket: each socket's
        # edge carries that figure's colour, labelled once against the whole
        # node's peak (the boxes hold each socket's own)
        parts.append(_edge(LEFT + BOX_W, y + BOX_H / 2, MIDDLE, y + BOX_H / 2, mem_rows, scope, labelled=p == 0))
    for i, (lines, package, edge_rows) in enumerate(devices):
        y = top + i * pitch
        parts.append(_box(RIGHT, y, lines, "#fbf4ec"))
        py = top + package * pitch + BOX_H / 2
        parts.append(_edge(MIDDLE + BOX_W, py, RIGHT, y + BOX_H / 2, edge_rows, elbow=MIDDLE + BOX_W + 12 + 6 * i))
    parts.append(_legend(height - 24))
    title = f"The node {shorten(host.get('hostname', ''))}: sockets, memory and devices, measured against peak"
    desc = (
        "; ".join(f"{shorten(r.path)}: {measured_text(r, scope if r in mem_rows else '')}" for r in rows)
        or "no headline figures"
    )
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' role='img' width='{WIDTH}' height='{height}' "
        f"viewBox='0 0 {WIDTH} {height}' font-family='sans-serif'><title>{escape(title)}</title>"
        f"<desc>{escape(desc)}</desc>{''.join(parts)}</svg>"
    )


def _file_cpu(facts: dict) -> list:
    """The CPU box of facts read from files (`movebench facts --dmidecode`):
    the file's CPU, or that no file tells it; [] for this machine's."""
    if not_in_file(facts, "cpu"):
        return ["CPU not in the file", "(the facts are of the files given)"]
    if not from_file(facts, "cpu"):
        return []
    model = facts.get("cpu", {}).get("model") if isinstance(facts.get("cpu"), dict) else None
    return [model if isinstance(model, str) and model else "CPU", f"from {from_file(facts, 'cpu')}"]


def _legend(y) -> str:
    parts, x = [svg_text(LEFT, y + 4, "edge colour:", 11, "bold")], LEFT + 80
    for c, text in [(c, t) for _, c, t in BANDS] + [UNKNOWN, UNMEASURED]:
        dash = " stroke-dasharray='6 4'" if c == UNKNOWN[0] else ""
        wide = 2 if c == UNMEASURED[0] else 5
        parts.append(f"<line x1='{x}' y1='{y}' x2='{x + 28}' y2='{y}' stroke='{c}' stroke-width='{wide}'{dash}/>")
        parts.append(svg_text(x + 34, y + 4, text, 11))
        x += 44 + 7 * len(text)
    return "".join(parts)
