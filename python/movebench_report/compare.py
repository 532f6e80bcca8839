"""`compare A B`: the ratio B/A per operation and size, with the noise of both.

A difference is "noise" when it is smaller than the two noise bands together
(each: half the interquartile range of the samples over the median). B is
"slower" when it is worse than A by more than the threshold and outside the
noise; the command then exits with REGRESSION so a CI job can gate on it.
Two figures are compared only when they mean the same (vocabulary.py: the
statistic, of the times or the rates, the bytes counted); a point where they
do not is shown as not compared, and if no point is comparable, that is an
error."""

from __future__ import annotations

from dataclasses import dataclass

from .model import Filter, ReportError, format_size, names
from .render import Table, display_unit
from .tables import DIFFERS, FIGURE_NOTE, pooled_sources, sort_key

REGRESSION = 3


@dataclass
class Verdict:
    key: tuple
    a: float
    b: float
    spread_a: float
    spread_b: float
    ratio: float
    verdict: str
    figure: str = ""  # what both figures are, or how they differ


def judge(a, b, view: str, threshold: float) -> tuple:
    """(ratio B/A, verdict). Bigger is better for bandwidth, smaller for latency."""
    ratio = b.value / a.value if a.value else float("inf")
    gain = ratio - 1 if view == "bandwidth" else 1 / ratio - 1 if ratio else float("inf")
    if abs(ratio - 1) <= a.spread + b.spread:
        return ratio, "noise"
    if gain < -threshold:
        return ratio, "slower"
    if gain > threshold:
        return ratio, "faster"
    return ratio, "same"


def compare(sources: list, filt: Filter, view: str, threshold: float, figure=None) -> list:
    if len(sources) != 2:
        raise ReportError(f"{names(sources)}: compare needs two data sets (files or -data groups), got {len(sources)}")
    (_, a), (_, b) = pooled_sources(sources, filt, view, figure)
    common = sorted(set(a) & set(b), key=sort_key)
    if not common:
        raise ReportError(
            f"{names(sources)}: the two data sets share no operation, size and parameters "
            f"with {view} figures" + (f" named {figure!r} (--figure)" if figure else "")
        )
    out = []
    la, lb = sources[0].label, sources[1].label
    for key in common:
        pa, pb = a[key], b[key]
        if len(pa.meanings) == 1 and pa.meanings == pb.meanings:
            ratio, verdict = judge(pa, pb, view, threshold)
            figure_text = pa.describe(view)
        else:
            ratio, verdict = float("nan"), "differs"
            figure_text = f"{la}: {pa.describe(view)}; {lb}: {pb.describe(view)}"
        out.append(Verdict(key, pa.value, pb.value, pa.spread, pb.spread, ratio, verdict, figure_text))
    if all(v.verdict == "differs" for v in out):
        first = out[0]
        raise ReportError(
            f"{names(sources)}: the two data sets share {len(out)} points with {view} figures, but their "
            f"{DIFFERS} (e.g. {first.key[0]} {first.key[1]} {first.key[3]} B: {first.figure}); "
            "choose figures that match with --figure"
        )
    return out


MARKS = {"noise": "~", "slower": "SLOWER", "faster": "faster", "same": "", "differs": "NOT COMPARED"}


def compare_table(sources: list, verdicts: list, view: str, threshold: float, unit=None) -> Table:
    name, div = display_unit(view, [v.a for v in verdicts], unit)
    la, lb = sources[0].label, sources[1].label
    columns = [
        "benchmark",
        "operation",
        "params",
        "bytes",
        "size",
        "figure",
        f"{la} [{name}]",
        f"{la} ±%",
        f"{lb} [{name}]",
        f"{lb} ±%",
        "B/A",
        "verdict",
    ]
    rows = [
        [
            *v.key,
            format_size(v.key[3]),
            ("DIFFERS: " if v.verdict == "differs" else "") + v.figure,
            v.a / div,
            100 * v.spread_a,
            v.b / div,
            100 * v.spread_b,
            None if v.verdict == "differs" else round(v.ratio, 4),
            MARKS[v.verdict],
        ]
        for v in verdicts
    ]
    slower = sum(v.verdict == "slower" for v in verdicts)
    differ = sum(v.verdict == "differs" for v in verdicts)
    better = "higher" if view == "bandwidth" else "lower"
    notes = [
        f"B/A of {view} ({better} is better); ~: inside the noise of both; "
        f"threshold {100 * threshold:g} %; {slower} of {len(verdicts)} points slower",
        FIGURE_NOTE[view],
    ]
    if differ:
        notes.append(f"NOT COMPARED: {differ} of {len(verdicts)} points, whose {DIFFERS}")
    return Table(columns, rows, f"{lb} (B) against {la} (A)", notes)
