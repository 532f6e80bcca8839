"""`history --html`: the history page (docs/history.md), built with the
report page's machinery (page.py: its style, shown(), its tables through
render.to_html, its plots as inline SVG through canvas): first the answer
(what is slower, in the words of `health`), then the latest run of every
series against its own past and the change points, then per figure its plot
over time (historyplot) and every run of its series. Self-contained: no
scripts, nothing fetched. Every string from the store is shortened and
escaped (shown(), to_html, the plots' labels)."""

from __future__ import annotations

from html import escape

from . import history, historyplot
from .page import STYLE, shown
from .render import to_html

MAX_REASONS = 50  # the answer's lines; more are counted


def _answer(found: list) -> str:
    """Per host, health's reasons (worst first): a degraded path, a latest
    run slower than its past, a level that is a step or drift down, a low path."""
    hosts = {}
    for f in found:
        hosts.setdefault(f.series.host or "-", []).append(f)
    reasons = [f"{host}: {r}" for host, mine in hosts.items() for r in history.health_reasons(mine)]
    if not reasons:
        return "<p class='ok'>No series is slower than its own past, and none is at a level below an earlier one.</p>"
    items = "".join(f"<li class='bad'>{shown(r)}</li>" for r in reasons[:MAX_REASONS])
    more = f"<p class='note'>and {len(reasons) - MAX_REASONS} more</p>" if len(reasons) > MAX_REASONS else ""
    return f"<p class='bad'>{len(reasons)} reason{'' if len(reasons) == 1 else 's'} to look:</p><ul>{items}</ul>{more}"


def _origin(found: list, where: str) -> str:
    hosts = sorted({f.series.host or "-" for f in found})
    times = sorted(r.time for f in found for r in f.series.runs if r.time is not None)
    runs = len({r.run for f in found for r in f.series.runs})
    span = f", from {history.when_text(times[0])} to {history.when_text(times[-1])}" if times else ""
    shown_hosts = ", ".join(hosts[:20]) + (f" and {len(hosts) - 20} more" if len(hosts) > 20 else "")
    return (
        f"<p class='origin'>store {shown(where)}: {len(found)} series of {len(hosts)} host"
        f"{'' if len(hosts) == 1 else 's'} ({shown(shown_hosts)}), {runs} runs{escape(span)}</p>"
    )


def _figure_sections(found: list) -> str:
    plots, too_many = historyplot.figure_plots(found)
    parts = []
    for name in dict.fromkeys(f.series.name for f in found):
        mine = [f for f in found if f.series.name == name]
        plot = plots.get(name)
        figure = f"<figure>{plot.svg}</figure>" if plot else "<p class='note'>not drawn: see the note above</p>"
        marked = sum(len(f.changes) + f.slower for f in mine)
        parts.append(
            f"<details{' open' if marked else ''}><summary>{shown(name)}: {len(mine)} series, "
            f"{marked} marked</summary>{figure}<div class='wide'>{to_html(history.series_table(mine))}</div>"
            "</details>"
        )
    notes = "".join(f"<p class='note'>{shown(n)}</p>" for n in too_many)
    key = f"<p class='note'>marks: {escape(historyplot.KEY)}</p>"
    return f"<section><h2>Per figure: every series over time</h2>{key}{notes}{''.join(parts)}</section>"


def build_history_page(found: list, last: int, threshold: float, title: str, where: str) -> str:
    """The whole page of history.findings `found` read from the store at `where`."""
    tables = [history.latest_table(found, last, threshold)]
    tables += [history.changes_table(found)] if any(f.changes for f in found) else []
    judged = "".join(f"<div class='wide'>{to_html(t)}</div>" for t in tables)
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width'><title>{escape(title)}</title>"
        f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>{_origin(found, where)}"
        f"<section><h2>Answer</h2>{_answer(found)}</section>"
        f"<section><h2>The latest run against its own past; change points</h2>{judged}</section>"
        f"{_figure_sections(found)}</body></html>\n"
    )
