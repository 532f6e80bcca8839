"""The read side of the facts layer (issue 18: `movebench facts`): a figure's
theoretical `peak`, the document's `verdicts` and its `facts` (CPU, DRAM,
PCIe links, NICs, settings). Every key is optional: a document written
before `movebench facts` has none of them, and a fact the C++ side could
not read says "status": "unknown" and "why". Nothing here guesses a figure:
what is absent is None, and the page says "unknown" with the reason.

Keys read (docs/report.md, "Keys the page reads"):
  figure.peak = {value, unit, source, fraction}
  verdicts[] = {path, figure, value, unit, peak, fraction, verdict, reasons[], band{normal_from, source}}
  facts = {cpu{model, sockets, ...}, dram{status, why, peak_bytes_per_second, sockets[], faults[]},
           pcie[]{bus_id, kind, name, numa_node, speed_gts, width, max_speed_gts, max_width,
                  peak_bytes_per_second, degraded, why},
           nics[]{name, kind, rate_bits_per_second, peak_bytes_per_second}, settings{}, warnings[],
           origin{part: {machine: this|file|none, option, file, why}}}"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

VERDICTS = ("normal", "low", "degraded", "unknown")
NO_PEAK = "no peak recorded (result written before movebench facts)"


def _number(value) -> float | None:
    """A finite number, or None (bool is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


@dataclass
class Peak:
    """A figure's theoretical peak in the figure's own unit."""

    value: float
    unit: str
    source: str
    fraction: float | None


def peak_why(figure) -> str:
    """Why a figure has no peak, where its `peak` says ({"status": "unknown"|"none", "why"})."""
    return _text(_dict(_dict(figure).get("peak")).get("why"))


def peak_of(figure) -> Peak | None:
    """The `peak` of a figure (results or a record's figures), or None."""
    peak = _dict(_dict(figure).get("peak"))
    value = _number(peak.get("value"))
    if value is None or value <= 0:
        return None
    unit = _text(peak.get("unit")) or _text(_dict(figure).get("unit"))
    fraction = _number(peak.get("fraction"))
    measured = _number(_dict(figure).get("value"))
    if fraction is None and measured is not None and unit == _dict(figure).get("unit"):
        fraction = measured / value  # the writer left it out: the same division it would make
    return Peak(value, unit, _text(peak.get("source")), fraction)


@dataclass
class Verdict:
    """One path's answer: its headline figure against its peak, and why."""

    path: str
    figure: str
    value: float | None
    unit: str
    peak: float | None
    fraction: float | None
    verdict: str
    reasons: list = field(default_factory=list)
    normal_from: float | None = None
    band_source: str = ""
    peak_source: str = ""


def verdict_of(entry) -> Verdict | None:
    """One entry of `verdicts`, or None where it names no path."""
    entry = _dict(entry)
    path = _text(entry.get("path"))
    if not path:
        return None
    word = _text(entry.get("verdict"))
    band = _dict(entry.get("band"))
    reasons = [r for r in _list(entry.get("reasons")) if isinstance(r, str)]
    peak = entry.get("peak")
    peak_value = _number(peak.get("value")) if isinstance(peak, dict) else _number(peak)
    return Verdict(
        path,
        _text(entry.get("figure")),
        _number(entry.get("value")),
        _text(entry.get("unit")),
        peak_value,
        _number(entry.get("fraction")),
        word if word in VERDICTS else "unknown",
        reasons,
        _number(band.get("normal_from")),
        _text(band.get("source")),
        _text(peak.get("source")) if isinstance(peak, dict) else _text(entry.get("peak_source")),
    )


def verdicts_of(doc: dict) -> list:
    return [v for v in map(verdict_of, _list(doc.get("verdicts"))) if v is not None]


@dataclass
class Link:
    """A PCIe device (accelerator, NIC) on its link."""

    bus_id: str
    kind: str
    name: str
    numa_node: int | None
    speed_gts: float | None
    width: int | None
    max_speed_gts: float | None
    max_width: int | None
    peak: float | None  # bytes per second per direction
    degraded: bool
    why: str

    def trained(self) -> str:
        """'16 GT/s x16' and, where below what it could, 'of 32 GT/s x16'."""
        now = _link_text(self.speed_gts, self.width)
        best = _link_text(self.max_speed_gts, self.max_width)
        return now if not best or best == now else f"{now} (max {best})"


def _link_text(speed, width) -> str:
    if speed is None and width is None:
        return ""
    return (
        f"{speed:g} GT/s x{width}"
        if speed is not None and width is not None
        else f"{speed:g} GT/s"
        if speed is not None
        else f"x{width}"
    )


def _int(value) -> int | None:
    number = _number(value)
    return int(number) if number is not None else None


def links_of(facts: dict) -> list:
    out = []
    for item in _list(facts.get("pcie")):
        item = _dict(item)
        out.append(
            Link(
                _text(item.get("bus_id")),
                _text(item.get("kind")),
                _text(item.get("name")),
                _int(item.get("numa_node")),
                _number(item.get("speed_gts")),
                _int(item.get("width")),
                _number(item.get("max_speed_gts")),
                _int(item.get("max_width")),
                _number(item.get("peak_bytes_per_second")),
                item.get("degraded") is True,
                _text(item.get("why")),
            )
        )
    return out


def measured_link(doc: dict):
    """The PCIe link the link benchmark ran over: the one at the link
    device's bus id, else the first that is no NIC (None where the facts
    list none)."""
    links = links_of(_dict(doc.get("facts")))
    bus = _dict(doc.get("link_device")).get("bus_id")
    return next((link for link in links if bus and link.bus_id == bus), None) or next(
        (link for link in links if link.kind != "nic"), None
    )


@dataclass
class Nic:
    name: str
    kind: str
    rate_bits: float | None
    peak: float | None  # bytes per second
    bus_id: str = ""  # the PCIe function it sits on, where the facts say


def nics_of(facts: dict) -> list:
    return [
        Nic(
            _text(n.get("name")),
            _text(n.get("kind")),
            _number(n.get("rate_bits_per_second")),
            _number(n.get("peak_bytes_per_second")),
            _text(n.get("bus_id")),
        )
        for n in map(_dict, _list(facts.get("nics")))
    ]


@dataclass
class Dram:
    """DRAM as the facts layer read it: known with a peak, or unknown and why."""

    known: bool
    why: str
    peak: float | None  # bytes per second, all sockets
    sockets: list  # [(socket number or None, peak or None, 'populated/total channels' text)]
    faults: list  # texts


def dram_of(facts: dict) -> Dram | None:
    dram = facts.get("dram")
    if not isinstance(dram, dict):
        return None
    sockets = []
    for s in map(_dict, _list(dram.get("sockets"))):
        used, total = _int(s.get("channels_populated")), _int(s.get("channels_total"))
        channels = f"{used} of {total} channels" if used is not None and total is not None else ""
        sockets.append((_int(s.get("socket")), _number(s.get("peak_bytes_per_second")), channels))
    faults = [_text(f.get("text")) if isinstance(f, dict) else _text(f) for f in _list(dram.get("faults"))]
    peak = _number(dram.get("peak_bytes_per_second"))
    known = dram.get("status") == "known" or (dram.get("status") is None and peak is not None)
    return Dram(known, _text(dram.get("why")), peak, sockets, [f for f in faults if f])


def facts_of(doc: dict) -> dict:
    """The document's `facts` object ({} when absent)."""
    return _dict(doc.get("facts"))


def warnings_of(doc: dict) -> list:
    facts = facts_of(doc)
    out = [w for w in _list(facts.get("warnings")) if isinstance(w, str)]
    for _name, setting in _dict(facts.get("settings")).items():
        warning = _dict(setting).get("warning")
        if isinstance(warning, str) and warning and warning not in out:
            out.append(warning)
    return out


# The parts of the facts, as `origin` names them, and their names in words.
PARTS = {
    "cpu": "CPU",
    "dram": "DRAM",
    "pcie": "PCIe",
    "accelerators": "accelerators",
    "nics": "NICs",
    "memory_tiers": "memory tiers",
    "settings": "settings",
}


def origin_of(facts: dict, part: str) -> dict:
    """Whose machine one part describes: {"machine": "this"|"file"|"none", ...};
    {} where the document does not say (written before `origin`)."""
    origin = _dict(_dict(facts.get("origin")).get(part))
    return origin if origin.get("machine") in ("this", "file", "none") else {}


def from_file(facts: dict, part: str) -> str:
    """'--dmidecode FILE' where the part was read from a file given, else ''."""
    origin = origin_of(facts, part)
    if origin.get("machine") != "file":
        return ""
    return f"{_text(origin.get('option'))} {_text(origin.get('file'))}".strip()


def not_in_file(facts: dict, part: str) -> bool:
    """Whether files were given and none of them tells this part."""
    return origin_of(facts, part).get("machine") == "none"


def whose_facts_text(facts: dict) -> str:
    """Whose facts these are, in one line, where files gave them: 'facts of
    the machine --dmidecode F describes: CPU, DRAM; not in the file: PCIe,
    ...'; '' where every part is the machine's movebench ran on (or the
    document does not say)."""
    files, missing = {}, []
    for part, words in PARTS.items():
        if from_file(facts, part):
            files.setdefault(from_file(facts, part), []).append(words)
        elif not_in_file(facts, part):
            missing.append(words)
    if not files and not missing:
        return ""
    said = [f"facts of the machine {given} describes: {', '.join(parts)}" for given, parts in files.items()]
    if missing:
        said.append(f"not in the file: {', '.join(missing)}")
    return "; ".join(said)
