"""The latency distributions a record keeps (docs/results.md, "Distributions"):
its HdrHistogram in HdrHistogram's V2 compressed encoding, decoded here with
the standard library (zlib, struct: about forty lines, so the installed
report needs no C extension; the tests hold it against HdrHistogram's own
Python port), and `plot --distributions`: one percentile plot per
benchmark and operation (small multiples, at most MAX_SERIES records per
axes), the latency against the percentile on a "nines" axis (90, 99, 99.9 %
equally apart), so a tail shows as the line's rise at the right."""

from __future__ import annotations

import base64
import binascii
import math
import struct
import zlib
from dataclasses import dataclass

from .labels import shorten
from .model import Filter, ReportError, format_size, names, select
from .pageplots import MAX_SERIES

COMPRESSED_COOKIE = 0x1C849304  # | 0x10: the word size, ignored as HdrHistogram does
ENCODING_COOKIE = 0x1C849303
HEADER = struct.Struct(">iiiiqqd")  # cookie, payload length, index offset, digits, lowest, highest, ratio
PS = 1e-12  # the histogram's unit (`hdr.unit`), in seconds


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


def _nines(share: float, total: int) -> float:
    """The x of a cumulative share: -log10(1 - share), the last sample at
    half a sample beyond the one before (it has no 1 - share)."""
    return -math.log10(max(1 - share, 0.5 / total))


def _series_label(point, several_sources: bool) -> str:
    parts = [format_size(point.bytes)] + ([point.variant] if point.variant else [])
    return shorten(" ".join(parts) + (f" ({point.source})" if several_sources else ""))


def _panels(sources: list, filt: Filter) -> list:
    """[(title, [(label, record)])] per benchmark and operation, MAX_SERIES a panel."""
    groups = {}
    for s in sources:
        for p in select(s.points(), filt, "latency"):
            if (p.record.get("distribution") or {}).get("count"):
                groups.setdefault(f"{p.benchmark} {p.operation}", []).append(p)
    several = len(sources) > 1
    out = []
    for title, points in sorted(groups.items()):
        lines = [(_series_label(p, several), p.record) for p in sorted(points, key=lambda p: (p.source, p.bytes))]
        for i in range(0, len(lines), MAX_SERIES):
            out.append(
                (title + (f" ({i // MAX_SERIES + 1})" if len(lines) > MAX_SERIES else ""), lines[i : i + MAX_SERIES])
            )
    return out


TICKS = ((0, "0"), (1, "90"), (2, "99"), (3, "99.9"), (4, "99.99"))


def _draw(ax, title: str, lines: list):
    unit, div = ("us", 1e-6) if max(max(curve(r)[0]) for _, r in lines) >= 1e-5 else ("ns", 1e-9)
    top = 0
    for i, (label, record) in enumerate(lines):
        seconds, shares = curve(record)
        xs = [_nines(s, record["distribution"]["count"]) for s in shares]
        top = max(top, xs[-1])
        ax.step(xs, [s / div for s in seconds], where="post", color=f"C{i % 10}", label=label)
    ticks = [t for t in TICKS if t[0] <= max(top, 2)]
    ax.set_xticks([t for t, _ in ticks], [text for _, text in ticks])
    ax.set_xlabel("percentile [%]", fontsize=8)
    ax.set_ylabel(f"latency [{unit}]", fontsize=8)
    event = shorten(lines[0][1]["distribution"]["event"])
    ax.set_title(f"{shorten(title)}: one sample per {event}", fontsize=8)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6)


def figure_for(sources: list, filt: Filter, max_panels: int):
    """One figure: a percentile plot per benchmark and operation."""
    from .canvas import plt

    panels = _panels(sources, filt)
    if not panels:
        raise ReportError(f"{names(sources)}: no record with a latency distribution left after filtering")
    if len(panels) > max_panels:
        raise ReportError(
            f"{names(sources)}: {len(panels)} panels is more than one plot holds ({max_panels}): "
            "choose with -b, --op or --sizes"
        )
    cols = min(2, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.2 * rows), squeeze=False)
    for ax, (title, lines) in zip(axes.flat, panels):
        try:
            _draw(ax, title, lines)
        except ValueError as e:
            plt.close(fig)
            raise ReportError(f"{names(sources)}: {title}: its distribution's histogram: {e}") from None
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig
