"""`import`: the text outputs of other tools into movebench result documents.

Each format has a detect(text) and a parse(text, path); detection goes in the
order below (the most specific first). Files are read as text and matched with
regular expressions (JSON with json.loads): nothing in them is executed."""

from __future__ import annotations

import pathlib

from ..model import ReportError, read_text
from . import babelstream, hpcc, imb, mpibench, nvbandwidth, osu, stream
from .common import FormatError

FORMATS = {
    "hpcc-beff": (hpcc.detect, hpcc.parse),
    "mpibench": (mpibench.detect, mpibench.parse),
    "osu": (osu.detect, osu.parse),
    "imb": (imb.detect, imb.parse),
    "stream": (stream.detect_stream, stream.parse_stream),
    "bwbench": (stream.detect_bwbench, stream.parse_bwbench),
    "nvbandwidth": (nvbandwidth.detect, nvbandwidth.parse),
    "babelstream": (babelstream.detect, babelstream.parse),
}


def detect(text: str):
    return next((name for name, (found, _) in FORMATS.items() if found(text)), None)


def import_file(path, fmt: str | None = None) -> dict:
    path = pathlib.Path(path)
    text = read_text(path)
    if not text.strip():
        raise ReportError(f"{path}: empty file")
    fmt = fmt or detect(text)
    if fmt is None:
        raise ReportError(f"{path}: not output of a tool import knows ({', '.join(FORMATS)})")
    # The importers' front door: whatever a parser meets that its format does
    # not allow (a value out of range, a shape it does not know, another
    # tool's output under --format) is one line naming the file and format.
    try:
        return FORMATS[fmt][1](text, path)
    except FormatError as e:
        raise ReportError(f"{path}: not valid {fmt} output: {e}") from None
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, StopIteration, RecursionError) as e:
        raise ReportError(f"{path}: not valid {fmt} output ({type(e).__name__}: {str(e)[:120]})") from None
