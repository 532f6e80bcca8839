"""One row per figure of a result document: what the store keeps of it
(docs/history.md). Every figure of every timing record, and every headline
figure of `results` with its peak fraction and its path's verdict. The
document is read the way every subcommand reads it (model.py: the variant of
a record's parameters, the noise of a figure; facts.py: peaks and verdicts);
nothing here parses it a second way."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from . import facts
from .model import figure_noise, variant_text
from .vocabulary import meaning


def document_hash(doc: dict) -> str:
    """The identity of a document: the SHA-256 of its canonical JSON (keys
    sorted, no spaces), so that the same result stored twice, however its
    file was laid out, is one document."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_time(text) -> dt.datetime | None:
    """A document's UTC time ('2026-11-26T15:10:35Z') as a naive UTC datetime
    (both SQLite and PostgreSQL keep it so), or None where it is not one."""
    if not isinstance(text, str) or not text:
        return None
    try:
        when = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is not None:
        when = when.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return when


def document_row(doc: dict, sha256: str, path: str) -> dict:
    """The documents table's row: the facts of the run, the whole document beside them."""
    return {
        "sha256": sha256,
        "path": path,
        "hostname": doc["host"]["hostname"],
        "benchmark": doc["benchmark"],
        "name": doc["name"],
        "time": parse_time(doc["execution_time"]),
        "git_commit": doc["git_commit"],
        "version": doc["version"],
        "schema_version": doc["schema_version"],
        "complete": doc.get("complete") is not False,
        "validated": doc.get("validated") is True,
        "document": doc,
    }


def _unit_of(params: dict) -> str | None:
    """The rank or fleet unit a record measured: 'unit' (fleet), else 'rank';
    for a pair, both joined ('0,2')."""
    for name in ("unit", "rank", "units", "ranks"):
        value = params.get(name)
        if isinstance(value, list):
            return ",".join(map(str, value))
        if value is not None and not isinstance(value, dict):
            return str(value)
    return None


def _record_rows(doc: dict, common: dict) -> list:
    rows = []
    version = doc["schema_version"]
    for record in doc["timings"]:
        params = record["params"]
        host = params.get("host") if isinstance(params.get("host"), str) else common["host"]
        base = dict(
            common,
            host=host,
            rank=_unit_of(params),
            kind="record",
            benchmark=record["benchmark"],
            operation=record["operation"],
            bytes=record["bytes"],
            variant=variant_text(params, record["benchmark"]),
            params=params,
        )
        for name, fig in record["figures"].items():
            sense = meaning(name, record, version)
            rows.append(
                dict(
                    base,
                    figure=name,
                    value=fig["value"],
                    unit=fig["unit"],
                    stat=sense.stat,
                    better=sense.better,
                    noise=figure_noise(record, name, version),
                    peak_fraction=None,
                    verdict=None,
                )
            )
    return rows


def _better_v1(figure: dict) -> str:
    """Version 1 said no direction (nor, in `results`, the statistic): rates
    are better higher, the rest lower (vocabulary.meaning_v1)."""
    return "higher" if figure["unit"].endswith("/s") else "lower"


def _result_rows(doc: dict, common: dict) -> list:
    """The headline figures: `results` keys are dotted names whose first word
    is the benchmark (mem.triad.2t); the verdict is its path's, if any."""
    verdicts = {v.figure: v.verdict for v in facts.verdicts_of(doc)}
    rows = []
    for name, fig in doc["results"].items():
        benchmark, _, operation = name.partition(".")
        peak = facts.peak_of(fig)
        rows.append(
            dict(
                common,
                rank=None,
                kind="result",
                benchmark=benchmark,
                operation=operation,
                bytes=None,
                variant="",
                params=None,
                figure=name,
                value=fig["value"],
                unit=fig["unit"],
                stat=fig.get("stat"),
                better=fig.get("better") or _better_v1(fig),
                noise=None,
                peak_fraction=peak.fraction if peak else None,
                verdict=verdicts.get(name),
            )
        )
    return rows


def figure_rows(doc: dict) -> list:
    """The figures table's rows of one (checked) document, without its id."""
    common = {
        "time": parse_time(doc.get("execution_time")),
        "host": doc["host"]["hostname"],
        "git_commit": doc.get("git_commit", ""),
        "version": doc.get("version", ""),
    }
    return _record_rows(doc, common) + _result_rows(doc, common)
