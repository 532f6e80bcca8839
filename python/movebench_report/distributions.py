"""The latency distributions a record keeps (docs/results.md, "Distributions"):
its HdrHistogram in HdrHistogram's V2 compressed encoding, decoded here with
the standard library (zlib, struct: about forty lines, so the installed
report needs no C extension; the tests hold it against HdrHistogram's own
Python port), and `plot --distributions` and the HTML page's distribution
figures: one percentile plot per benchmark and operation (small multiples,
at most MAX_SERIES records per axes; canvas.draw_percentiles draws each),
the latency against the percentile on a "nines" axis (90, 99, 99.9 %
equally apart), so a tail shows as the line's rise at the right."""

from __future__ import annotations

import base64
import binascii
import math
import struct
import zlib
from dataclasses import dataclass

from .canvas import Plot, draw_percentiles, plt, svg_of
from .labels import shorten
from .model import Filter, ReportError, format_size, names, select
from .pageplots import MAX_SERIES

COMPRESSED_COOKIE = 0x1C849304  # | 0x10: the word size, ignored as HdrHistogram does
ENCODING_COOKIE = 0x1C849303
HEADER = struct.Struct(">iiiiqqd")  # cookie, payload length, index offset, digits, lowest, highest, ratio
PS = 1e-12  # the histogram's unit (`hdr.unit`), in seconds
PAGE_PANELS = 8  # the page's distribution panels per benchmark (plot --distributions: plots.MAX_PANELS)


@dataclass
class Decoded:
    """(value, count) of every bucket that holds samples, in order: the value
    the bucket's highest equivalent (as HdrHistogram reads a percentile), in
    the histogram's integer unit."""

    buckets: list
    total: int

    def percentile(self, percent: float) -> int:
        """HdrHistogram's value at `percent`: nearest rank, max(1, floor(q n + 0.5))."""
        rank = max(1, int(min(max(percent, 0.0), 100.0) * self.total / 100 + 0.5))
        running = 0
        for value, count in self.buckets:
            running += count
            if running >= rank:
                return value
        return 0


def _varints(data: bytes):
    """HdrHistogram's ZigZag LEB128 counts (at most 9 bytes each, the 9th whole)."""
    i = 0
    while i < len(data):
        value, shift = 0, 0
        while True:
            byte = data[i]
            i += 1
            value |= (byte if shift == 56 else byte & 0x7F) << shift
            if byte < 0x80 or shift == 56:
                break
            shift += 7
        yield (value >> 1) ^ -(value & 1)


def decode(text: str) -> Decoded:
    """A histogram of `hdr.histogram` ("HISTF..."); ValueError when it is not one."""
    try:
        raw = base64.b64decode(text, validate=True)
        cookie, length = struct.unpack_from(">ii", raw)
        if cookie & ~0xF0 != COMPRESSED_COOKIE:
            raise ValueError("not HdrHistogram's compressed V2 encoding")
        body = zlib.decompress(raw[8 : 8 + length])
        cookie, payload, _, digits, lowest, _, _ = HEADER.unpack_from(body)
    except (binascii.Error, struct.error, zlib.error) as e:
        raise ValueError(f"not an HdrHistogram ({e})") from None
    if cookie & ~0xF0 != ENCODING_COOKIE or not 1 <= digits <= 5 or lowest < 1:
        raise ValueError("not HdrHistogram's V2 encoding")
    half_magnitude = max(math.ceil(math.log2(2 * 10**digits)) - 1, 0)
    half = 1 << half_magnitude
    unit = int(math.floor(math.log2(lowest)))
    buckets, index, total = [], 0, 0
    for count in _varints(body[HEADER.size : HEADER.size + payload]):
        if count < 0:
            index -= count  # a run of zero counts
            continue
        if count:
            bucket = max((index >> half_magnitude) - 1, 0)
            sub = (index & (half - 1)) + (half if index >= half else 0)
            buckets.append(((sub << (bucket + unit)) + (1 << (bucket + unit)) - 1, count))
            total += count
        index += 1
    return Decoded(buckets, total)


def curve(record: dict) -> tuple:
    """(seconds, fraction of samples at or below) of a record's distribution:
    its buckets' highest values against their cumulative share."""
    decoded = decode(record["distribution"]["hdr"]["histogram"])
    seconds, shares, running = [], [], 0
    for value, count in decoded.buckets:
        running += count
        seconds.append(value * PS)
        shares.append(running / decoded.total)
    return seconds, shares


def _series_label(point, several_sources: bool) -> str:
    parts = [format_size(point.bytes)] + ([point.variant] if point.variant else [])
    return shorten(" ".join(parts) + (f" ({point.source})" if several_sources else ""))


def _panels(sources: list, filt: Filter) -> list:
    """[(benchmark, title, [(label, record)])] per benchmark and operation, MAX_SERIES a panel."""
    groups = {}
    for s in sources:
        for p in select(s.points(), filt, "latency"):
            held = p.record.get("distribution")
            if isinstance(held, dict) and held.get("count"):
                groups.setdefault((p.benchmark, p.operation), []).append(p)
    several = len(sources) > 1
    out = []
    for (bench, op), points in sorted(groups.items()):
        title = f"{bench} {op}"
        lines = [(_series_label(p, several), p.record) for p in sorted(points, key=lambda p: (p.source, p.bytes))]
        for i in range(0, len(lines), MAX_SERIES):
            part = f" ({i // MAX_SERIES + 1})" if len(lines) > MAX_SERIES else ""
            out.append((bench, title + part, lines[i : i + MAX_SERIES]))
    return out


def _draw(ax, title: str, lines: list):
    """One panel: its records' distributions on canvas' percentile axes."""
    curves = [(label, *curve(record), int(record["distribution"]["count"])) for label, record in lines]
    event = shorten(lines[0][1]["distribution"]["event"])
    draw_percentiles(ax, f"{shorten(title)}: one sample per {event}", curves)


def _figure(panels: list, where: str):
    """The panels as small multiples, two columns; a histogram that is no
    histogram (or a distribution not as movebench writes it) is a ReportError."""
    cols = min(2, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.2 * rows), squeeze=False)
    for ax, (_, title, lines) in zip(axes.flat, panels):
        try:
            _draw(ax, title, lines)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            plt.close(fig)
            raise ReportError(f"{where}: {title}: its distribution's histogram: {e}") from None
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    return fig


def figure_for(sources: list, filt: Filter, max_panels: int):
    """One figure: a percentile plot per benchmark and operation."""
    panels = _panels(sources, filt)
    if not panels:
        raise ReportError(f"{names(sources)}: no record with a latency distribution left after filtering")
    if len(panels) > max_panels:
        raise ReportError(
            f"{names(sources)}: {len(panels)} panels is more than one plot holds ({max_panels}): "
            "choose with -b, --op or --sizes"
        )
    fig = _figure(panels, names(sources))
    fig.tight_layout()
    return fig


def _alt_text(title: str, panels: list) -> str:
    """Each record's P50, P99 and largest sample, in words."""
    parts = []
    for _, panel, lines in panels:
        for label, record in lines:
            decoded = decode(record["distribution"]["hdr"]["histogram"])
            p50, p99, top = (decoded.percentile(q) * PS for q in (50, 99, 100))
            parts.append(
                f"{shorten(panel)} {label}: P50 {format_time(p50)}, P99 {format_time(p99)}, "
                f"max {format_time(top)} ({decoded.total} samples)"
            )
    return f"{title}. " + "; ".join(parts)


def format_time(seconds: float) -> str:
    return f"{seconds / 1e-6:.4g} us" if seconds >= 1e-5 else f"{seconds / 1e-9:.4g} ns"


def page_plots(source, filt: Filter) -> dict:
    """{benchmark: [Plot]} of one source for the HTML page: per benchmark
    one figure of its distributions' percentile plots (the panels `plot
    --distributions` draws), at most PAGE_PANELS panels; more are counted
    in the title, and `plot --distributions -b B --op O` draws them."""
    by_bench = {}
    for panel in _panels([source], filt):
        by_bench.setdefault(panel[0], []).append(panel)
    out = {}
    for bench, panels in by_bench.items():
        shown, left = panels[:PAGE_PANELS], len(panels) - PAGE_PANELS
        records = sum(len(lines) for _, _, lines in panels)
        title = f"{shorten(bench)}: latency distributions ({records} records, percentile axis 50/90/99/99.9)"
        if left > 0:
            title += f"; {left} more panels not drawn (plot --distributions -b {shorten(bench)} --op ...)"
        fig = _figure(shown, source.label)
        alt = _alt_text(title, shown)
        fig.suptitle(title, fontsize=11)
        fig.tight_layout()
        out[bench] = [Plot(title, alt, svg_of(fig, title, alt), [len(lines) for _, _, lines in shown])]
    return out
