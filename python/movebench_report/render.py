"""One table shape (column names, rows of plain values) and its four renderings:
aligned text, Markdown, CSV and JSON. Every subcommand that prints a table
builds a Table and hands it here. What a person reads (text, Markdown, the
page's HTML) has each cell and column name shortened (labels.shorten: a name
from a file may be as long as the file); CSV and JSON, for programs, carry
every value whole."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field

from .labels import shorten
from .model import BANDWIDTH_UNITS, TIME_UNITS

FORMATS = ("text", "markdown", "csv", "json")


@dataclass
class Table:
    columns: list
    rows: list
    title: str = ""
    notes: list = field(default_factory=list)
    comment_header: bool = False  # '#' before the header line (gnuplot-ready text)


def display_unit(view: str, values: list, wanted: str | None = None) -> tuple:
    """(unit name, divisor from base units): MB/s for bandwidth unless asked,
    for latency the unit that puts the median value between 1 and 1000."""
    if view == "bandwidth":
        unit = wanted or "MB/s"
        if unit not in BANDWIDTH_UNITS:
            raise ValueError(unit)
        return unit, BANDWIDTH_UNITS[unit]
    if wanted:
        return wanted, TIME_UNITS[wanted]
    finite = sorted(v for v in values if v)
    middle = finite[len(finite) // 2] if finite else 1e-6
    for unit in ("ns", "us", "ms"):
        if middle < 1000 * TIME_UNITS[unit]:
            return unit, TIME_UNITS[unit]
    return "s", 1.0


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "-"
        magnitude = abs(value)
        if magnitude >= 100:
            return f"{value:.1f}"
        if magnitude >= 1:
            return f"{value:.3f}"
        return f"{value:.4f}" if magnitude >= 0.001 else f"{value:.3g}"
    return shorten(value)


def to_text(table: Table) -> str:
    cells = [[_cell(v) for v in row] for row in table.rows]
    header = [shorten(c) for c in table.columns]
    if table.comment_header:
        header[0] = "#" + header[0]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(header)]
    numeric = [all(isinstance(r[i], (int, float)) or r[i] is None for r in table.rows) for i in range(len(header))]

    def line(values):
        out = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "  ".join(out).rstrip()

    lines = [table.title] if table.title else []
    lines += [line(header)] + [line(r) for r in cells] + table.notes
    return "\n".join(lines) + "\n"


def to_markdown(table: Table) -> str:
    def esc(text):
        return text.replace("|", "\\|")

    lines = [f"**{esc(table.title)}**", ""] if table.title else []
    lines.append("| " + " | ".join(esc(shorten(c)) for c in table.columns) + " |")
    lines.append("|" + "|".join("---:" if _is_numeric(table, i) else "---" for i in range(len(table.columns))) + "|")
    lines += ["| " + " | ".join(esc(_cell(v)) for v in row) + " |" for row in table.rows]
    lines += [""] + table.notes if table.notes else []
    return "\n".join(lines) + "\n"


def _is_numeric(table: Table, i: int) -> bool:
    return any(isinstance(r[i], (int, float)) for r in table.rows)


def to_csv(table: Table) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.columns)
    for row in table.rows:
        writer.writerow(["" if v is None else _short(v) if isinstance(v, float) else v for v in row])
    return out.getvalue()


def _short(value: float):
    """12 significant digits: drops float noise such as 16600.000000000004."""
    return float(f"{value:.12g}") if math.isfinite(value) else None


def to_json(table: Table) -> str:
    rows = [dict(zip(table.columns, row)) for row in table.rows]
    clean = [{k: (_short(v) if isinstance(v, float) else v) for k, v in r.items()} for r in rows]
    return (
        json.dumps({"title": table.title, "columns": table.columns, "rows": clean, "notes": table.notes}, indent=1)
        + "\n"
    )


def render(table: Table, fmt: str) -> str:
    return {"text": to_text, "markdown": to_markdown, "csv": to_csv, "json": to_json}[fmt](table)


def to_html(table: Table) -> str:
    """An HTML table; every cell is escaped (values come from result files)."""
    from html import escape

    head = "".join(f"<th>{escape(shorten(c))}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(_cell(v))}</td>" for v in row) + "</tr>" for row in table.rows)
    caption = f"<caption>{escape(table.title)}</caption>" if table.title else ""
    notes = "".join(f"<p class='note'>{escape(n)}</p>" for n in table.notes)
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}"
