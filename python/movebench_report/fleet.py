"""A fleet result (`movebench fleet`, docs/fleet.md): every unit's and
pair's figures side by side, the outliers the run named and what got slower
than its --baseline. For `table` (a table per figure across the units or
pairs, the worst first), the page's summary (the fleet's answer, outliers
named first) and its strip plots (one dot per unit or pair, the outliers
labelled). Read from the document's `fleet`, `outliers` and `regressions`;
a malformed one is a ReportError naming the file."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from .labels import shorten
from .model import ReportError
from .render import Table

# (figure, unit, better, of): the figures of `fleet.units[]` and `fleet.pairs[]`.
FIGURES = (
    ("mem.copy", "MB/s", "higher", "units"),
    ("mem.triad", "MB/s", "higher", "units"),
    ("mem.latency", "ns", "lower", "units"),
    ("p2p.latency", "us", "lower", "pairs"),
    ("p2p.bw", "MB/s", "higher", "pairs"),
)
# Only in a run with -z, --percentiles: each pair's P99, judged as the others.
TAIL_FIGURES = (("p2p.latency_p99", "us", "lower", "pairs"),)
# Only in a run with --node: each unit's headlines of movebench node's bounded
# step, as the binary names them (src/node/node_step.hpp, kStepFigures; the
# tests hold the two lists equal).
NODE_FIGURES = (
    ("node.numa.local.sum", "MB/s", "higher", "units"),
    ("node.numa.local.triad", "MB/s", "higher", "units"),
    ("node.numa.local.chase", "ns", "lower", "units"),
    ("node.numa.remote.sum", "MB/s", "higher", "units"),
    ("node.numa.remote.triad", "MB/s", "higher", "units"),
    ("node.numa.remote.chase", "ns", "lower", "units"),
    ("node.cores.smt_sibling", "ns", "lower", "units"),
    ("node.cores.same_l2", "ns", "lower", "units"),
    ("node.cores.same_l3", "ns", "lower", "units"),
    ("node.cores.same_socket", "ns", "lower", "units"),
    ("node.cores.other_socket", "ns", "lower", "units"),
)
ALL_FIGURES = FIGURES + TAIL_FIGURES + NODE_FIGURES


@dataclass
class Member:
    """A unit or a pair: its name ('host vm rank 2', two joined by ' <-> '),
    its key (to match outliers and regressions) and its figures."""

    name: str
    key: tuple
    figures: dict
    again: bool = False  # a unit measured again after the pairs (suspect at first; docs/fleet.md)


@dataclass
class Fleet:
    per: str
    units: list
    pairs: list
    outliers: list  # the document's, as written
    regressions: list
    baseline: dict | None
    failed: list  # `failed_units`: {unit, host, rank, step, reason}; [] in older documents


def _who(host, rank) -> str:
    return f"host {shorten(host)} rank {shorten(rank)}"


def _key(entry: dict) -> tuple:
    """('node', host, rank) or ('link', frozenset of (host, rank)) of an
    outlier, a regression, a unit or a pair."""
    if "pair" in entry or "hosts" in entry:
        pair = entry.get("pair", entry)
        return ("link", frozenset(zip(map(str, pair["hosts"]), pair["ranks"])))
    return ("node", str(entry["host"]), entry["rank"])


def _member(entry: dict) -> Member:
    if "hosts" in entry:
        name = " <-> ".join(_who(h, r) for h, r in zip(entry["hosts"], entry["ranks"]))
    else:
        name = _who(entry["host"], entry["rank"])
    figures = {k: float(v) for k, v in entry["figures"].items() if isinstance(v, (int, float))}
    return Member(name, _key(entry), figures, entry.get("measured_again") is True)


def _named(entry: dict, numbers: tuple) -> dict:
    """An outlier or a regression with its numbers as floats; raises on another shape."""
    _key(entry)
    out = dict(entry, figure=str(entry["figure"]), unit=str(entry["unit"]))
    out.update({n: float(entry[n]) for n in numbers})
    return out


def _failed(entry: dict) -> dict:
    """A failed unit with its fields as strings; raises on another shape."""
    return dict(
        entry, host=str(entry["host"]), step=str(entry["step"]), reason=str(entry["reason"]), rank=entry["rank"]
    )


def fleet_of(doc: dict, where: str = "") -> Fleet | None:
    """The fleet of a document, or None when it is no fleet result."""
    section = doc.get("fleet")
    if section is None:
        return None
    try:
        baseline = doc.get("baseline")
        if baseline is not None and not isinstance(baseline, dict):
            raise TypeError("baseline is not an object")
        return Fleet(
            str(section["per"]),
            [_member(u) for u in section["units"]],
            [_member(p) for p in section.get("pairs", [])],
            [_named(o, ("value", "median", "worse_by")) for o in doc.get("outliers", [])],
            [_named(r, ("before", "now", "ratio")) for r in doc.get("regressions", [])],
            baseline,
            [_failed(f) for f in doc.get("failed_units", [])],
        )
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise ReportError(f"{where}: `fleet` is not as movebench fleet writes it ({type(e).__name__}: {e})") from None


def fleets(sources: list) -> list:
    """[(label, Fleet)] of every fleet document of the sources."""
    return [(s.label, f) for s in sources for p, d in zip(s.paths, s.documents) if (f := fleet_of(d, str(p)))]


def marks(entries: list) -> dict:
    """{(key, figure): entry} of outliers or regressions: whether a member is named for a figure."""
    return {(_key(e), e["figure"]): e for e in entries}


def _worst_first(members: list, figure: str, better: str) -> list:
    have = [m for m in members if figure in m.figures]
    return sorted(have, key=lambda m: m.figures[figure], reverse=better == "lower")


def figure_tables(label: str, fleet: Fleet) -> list:
    """One Table per figure across the units (or pairs), the worst first."""
    outliers, slower = marks(fleet.outliers), marks(fleet.regressions)
    out = []
    for figure, unit, better, of in ALL_FIGURES:
        members = _worst_first(getattr(fleet, of), figure, better)
        if not members:
            continue
        median = statistics.median(m.figures[figure] for m in members)
        columns = ["unit" if of == "units" else "pair", f"{figure} [{unit}]", "of median", "outlier"]
        if fleet.baseline is not None:
            columns += [f"before [{unit}]", "now/before", "since baseline"]
        rows = []
        for m in members:
            value = m.figures[figure]
            row = [
                m.name,
                value,
                f"{100 * value / median:.0f}%" if median else "-",
                "OUTLIER" if (m.key, figure) in outliers else "",
            ]
            if fleet.baseline is not None:
                r = slower.get((m.key, figure))
                row += [r["before"], round(r["ratio"], 4), "SLOWER"] if r else [None, None, ""]
            rows.append(row)
        notes = [f"{better} is better; worst first; median {median:.4g} {unit} over {len(members)} {of}"]
        again = [m.name for m in members if m.again]
        if again:
            notes.append(
                f"measured again after the pairs, the best of both kept (suspect at first): {', '.join(again)}"
            )
        out.append(Table(columns, rows, f"{label}: fleet {figure} per {'unit' if of == 'units' else 'pair'}", notes))
    return out


def _outlier_who(o: dict) -> str:
    if _key(o)[0] == "link":  # as _key reads it (not the kind's text: a file may say anything there)
        return "link " + " <-> ".join(_who(h, r) for h, r in zip(o["pair"]["hosts"], o["pair"]["ranks"]))
    return "node " + _who(o["host"], o["rank"])


def answer_lines(fleet: Fleet) -> list:
    """The fleet's answer, outliers named first, then what got slower, then
    the units that failed a step (as movebench fleet's text ends)."""
    lines = [
        f"OUTLIER {_outlier_who(o)}: {shorten(o['figure'])} {o['value']:.4g} {shorten(o['unit'])} vs median "
        f"{o['median']:.4g} {shorten(o['unit'])} ({100 * o['worse_by']:.0f}% worse)"
        for o in fleet.outliers
    ]
    lines += [
        f"SLOWER {_outlier_who(r)}: {shorten(r['figure'])} {r['now']:.4g} {shorten(r['unit'])}, before "
        f"{r['before']:.4g} {shorten(r['unit'])} (now/before {r['ratio']:.3g})"
        for r in fleet.regressions
    ]
    lines += [
        f"FAILED unit {_who(f['host'], f['rank'])} in {shorten(f['step'])}: {shorten(f['reason'])}"
        for f in fleet.failed
    ]
    return lines


def headline(fleet: Fleet) -> str:
    """'4 units (per rank), 6 pairs: 1 outlier; against its baseline (file): 2 slower'."""
    text = (
        f"{len(fleet.units)} units (per {shorten(fleet.per)}), {len(fleet.pairs)} pairs: "
        f"{len(fleet.outliers)} outlier{'' if len(fleet.outliers) == 1 else 's'}"
    )
    if fleet.failed:
        text += f", {len(fleet.failed)} failed"
    if fleet.baseline is not None:
        text += (
            f"; against {shorten(fleet.baseline.get('file', '?'))} ({shorten(fleet.baseline.get('kind', '?'))}): "
            f"{len(fleet.regressions)} slower"
        )
    return text


def answer_table(sources: list) -> Table | None:
    """`table`'s first lines for fleet results: per file its headline, then
    one row per outlier and per regression."""
    rows = []
    for label, fleet in fleets(sources):
        rows.append([label, headline(fleet)])
        rows += [[label, line] for line in answer_lines(fleet)]
    return Table(["source", "fleet"], rows, "fleet: the answer (outliers first)") if rows else None
