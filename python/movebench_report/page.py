"""`html`: one self-contained page (plots as base64 PNG, inline CSS, no
scripts) with the host facts, settings, validation state, tables and, for two
or more sources, the comparison of each against the first. Every string that
comes from a result file goes through html.escape."""
from __future__ import annotations

import base64
import json
from html import escape

from . import plots
from .compare import compare, compare_table
from .model import Filter, ReportError
from .render import to_html
from .tables import merged_table

STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:80em}
table{border-collapse:collapse;margin:.5em 0;font-size:.85em}
td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}
td:nth-child(-n+3){text-align:left}
th{background:#eef}caption{text-align:left;font-weight:bold;padding:4px 0}
.bad{color:#b00;font-weight:bold}.ok{color:#070;font-weight:bold}
pre{background:#f6f6f6;padding:.5em;max-height:20em;overflow:auto;font-size:.8em}
img{max-width:100%;border:1px solid #ddd}"""

HOST_FACTS = ("hostname", "cpu_model", "logical_cpus", "cores", "packages", "numa_nodes", "memory_bytes", "os",
              "kernel")


def _facts_table(rows: list) -> str:
    body = "".join(f"<tr><th>{escape(str(k))}</th><td>{escape(str(v))}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _validation(doc: dict) -> str:
    if doc["validated"]:
        state = "<span class='ok'>validated</span>"
    elif doc.get("validation_skipped"):
        state = f"<span>validation skipped: {escape(doc['validation_skipped'])}</span>"
    else:
        state = "<span class='bad'>NOT validated</span>"
    complete = "" if doc["complete"] else " <span class='bad'>incomplete run</span>"
    errors = "".join(f"<li class='bad'>{escape(k)}: {escape(v)}</li>" for k, v in doc["errors"].items())
    return f"<p>{state}{complete}</p>" + (f"<ul>{errors}</ul>" if errors else "")


def _document_section(label: str, path, doc: dict) -> str:
    host = doc["host"]
    facts = [(k, host[k]) for k in HOST_FACTS if k in host]
    facts += [(f"L{c['level']} cache", f"{c['bytes']} B x {c['instances']}") for c in host.get("caches", [])]
    run = [("file", path), ("name", doc["name"]), ("version", doc["version"]), ("git commit", doc["git_commit"]),
           ("executed", doc["execution_time"]), ("device", doc["device"]),
           ("command line", " ".join(doc["command_line"])), ("compiler", doc["build"]["compiler"])]
    settings = json.dumps(doc["settings"], indent=1, sort_keys=True)
    headline = [(name, f"{r['value']:.6g} {r['unit']}") for name, r in sorted(doc["results"].items())]
    return (f"<h2>{escape(label)}</h2>{_validation(doc)}<h3>Headline results</h3>{_facts_table(headline)}"
            f"<h3>Run</h3>{_facts_table(run)}"
            f"<h3>Host</h3>{_facts_table(facts)}<h3>Settings</h3><pre>{escape(settings)}</pre>")


def _image(fig, alt: str) -> str:
    data = base64.b64encode(plots.png_bytes(fig)).decode("ascii")
    return f"<img alt='{escape(alt)}' src='data:image/png;base64,{data}'>"


def _tables(sources: list, filt: Filter) -> str:
    parts = []
    for view in plots.VIEWS:
        try:
            parts.append(to_html(merged_table(sources, filt, view)))
        except ReportError:
            continue  # this view has no figures: leave it out
    return "".join(parts)


def _comparisons(sources: list, filt: Filter, threshold: float) -> str:
    parts = []
    for other in sources[1:]:
        pair = [sources[0], other]
        for view in plots.VIEWS:
            try:
                verdicts = compare(pair, filt, view, threshold)
                image = _image(plots.ratio_figure(verdicts, view, (pair[0].label, other.label)), f"ratio plot {view}")
            except ReportError:
                continue  # nothing in common in this view, or too much to draw
            parts.append(to_html(compare_table(pair, verdicts, view, threshold)))
            parts.append(image)
    return "<h2>Comparison</h2>" + "".join(parts) if parts else ""


def build_page(sources: list, filt: Filter, threshold: float, title: str) -> str:
    plot = _image(plots.figure_for(sources, filt), "size against bandwidth and latency")
    sections = "".join(_document_section(s.label, p, d) for s in sources for p, d in zip(s.paths, s.documents))
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>"
            f"<h2>Plots</h2>{plot}<h2>Results</h2>{_tables(sources, filt)}"
            f"{_comparisons(sources, filt, threshold)}{sections}</body></html>\n")
