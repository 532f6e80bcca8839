"""`html`: one self-contained page (inline CSS and SVG, no scripts, nothing
fetched) that answers first: the summary of every path measured with its
verdict (a fleet's or node result's findings first), then a picture of the
node (and a node result's map), then per benchmark a collapsed section
with its plots and tables, then the run facts. Every string that comes from
a result file goes through shown(): shortened (labels.shorten) and escaped
(matplotlib escapes its SVG text, pageplots shortens its labels)."""

from __future__ import annotations

import json
from html import escape

from . import distributions, fleet, node, pageplots
from .compare import MARKS, compare, compare_table
from .facts import facts_of, warnings_of, whose_facts_text
from .labels import shorten
from .model import Filter, ReportError
from .nodemap import node_map_svg
from .nodesvg import node_svg
from .render import to_html
from .summary import (
    document_facts,
    fraction_text,
    is_imported,
    origin_text,
    reason_text,
    rows_of,
    side_by_side,
    source_rows,
    value_text,
)
from .tables import merged_table

STYLE = """body{font-family:sans-serif;margin:1em 1.5em;max-width:86em}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:.8em 0 .3em}
table{border-collapse:collapse;margin:.4em 0;font-size:.85em}
td,th{border:1px solid #bbb;padding:2px 6px;text-align:right;vertical-align:top}
td:nth-child(-n+3),th{text-align:left}
th{background:#eef}caption{text-align:left;font-weight:bold;padding:4px 0}
.wide{overflow-x:auto;max-width:100%}
.bad{color:#b00;font-weight:bold}.ok{color:#070;font-weight:bold}
.v-normal,.v-low,.v-degraded,.v-unknown{text-align:left}.v-normal{background:#e3f4e3}.v-low{background:#fff1cc}.v-degraded{background:#f9d6d2}.v-unknown{background:#eee}
.reason{text-align:left;max-width:30em}.origin{font-size:.85em;color:#333;margin:.1em 0}
pre{background:#f6f6f6;padding:.5em;max-height:20em;overflow:auto;font-size:.8em;white-space:pre-wrap}
svg{max-width:100%;height:auto}figure{margin:.3em 0}details{margin:.4em 0;border:1px solid #ccd;padding:.2em .6em}
summary{cursor:pointer;font-weight:bold}.note{font-size:.8em;color:#444;margin:.2em 0}
@media print{details{border:none}}"""

HOST_FACTS = (
    "hostname",
    "cpu_model",
    "logical_cpus",
    "cores",
    "packages",
    "numa_nodes",
    "memory_bytes",
    "os",
    "kernel",
)


def shown(value) -> str:
    """A string from a file as the page shows it: shortened, then escaped."""
    return escape(shorten(value))


def anchor(bench: str) -> str:
    """The id of a benchmark's section (names from the file: only safe characters, shortened)."""
    return "bench-" + "".join(c if c.isalnum() else "-" for c in shorten(bench))


def _facts_table(rows: list) -> str:
    body = "".join(f"<tr><th>{shown(k)}</th><td>{escape(str(v))}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _validation(doc: dict) -> str:
    if doc["validated"]:
        state = "<span class='ok'>validated</span>"
    elif doc.get("validation_skipped"):
        state = f"<span>validation skipped: {shown(doc['validation_skipped'])}</span>"
    else:
        state = "<span class='bad'>NOT validated</span>"
    complete = "" if doc["complete"] else " <span class='bad'>incomplete run</span>"
    errors = "".join(f"<li class='bad'>{shown(k)}: {shown(v)}</li>" for k, v in doc["errors"].items())
    return f"<p>{state}{complete}</p>" + (f"<ul>{errors}</ul>" if errors else "")


def _document_section(label: str, path, doc: dict) -> str:
    host = doc["host"]
    facts = [(k, shorten(host[k])) for k in HOST_FACTS if k in host]
    facts += [(f"L{c['level']} cache", f"{c['bytes']} B x {c['instances']}") for c in host.get("caches", [])]
    run = [
        ("file", path),
        ("name", shorten(doc["name"])),
        ("version", shorten(doc["version"])),
        ("git commit", shorten(doc["git_commit"])),
        ("executed", shorten(doc["execution_time"])),
        ("device", shorten(doc["device"])),
        ("command line", " ".join(map(shorten, doc["command_line"]))),
        ("compiler", shorten(doc["build"]["compiler"])),
    ]
    settings = json.dumps(_shortened(doc["settings"]), indent=1, sort_keys=True)
    headline = [(shorten(name), f"{r['value']:.6g} {shorten(r['unit'])}") for name, r in sorted(doc["results"].items())]
    return (
        f"<details><summary>{shown(label)}: run, host and settings</summary>{_validation(doc)}"
        f"<h3>Headline results</h3>{_facts_table(headline)}<h3>Run</h3>{_facts_table(run)}"
        f"<h3>Host</h3>{_facts_table(facts)}<h3>Settings</h3><pre>{escape(settings)}</pre></details>"
    )


def _shortened(value):
    """A JSON value with every key and string in it shortened (its nesting is bounded: model.MAX_DEPTH)."""
    if isinstance(value, dict):
        return {shorten(k): _shortened(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shortened(v) for v in value]
    return shorten(value) if isinstance(value, str) else value


def _verdict_cell(verdict: str) -> str:
    return f"<td class='v-{shown(verdict)}'>{shown(verdict)}</td>"


def _summary_one(sources: list) -> str:
    """One row per path of every source, with a source column where several."""
    several = len(sources) > 1
    head = "".join(
        f"<th>{h}</th>"
        for h in (["file"] if several else [])
        + ["path", "figure", "measured", "peak", "of peak", "verdict", "reason", "details"]
    )
    body = []
    for s, r in [(source, row) for source in sources for row in source_rows(source)]:
        link = f"<a href='#{anchor(r.benchmark)}'>{shown(r.benchmark)} details</a>"
        first = f"<td>{shown(s.label)}</td>" if several else ""
        body.append(
            f"<tr>{first}<td>{shown(r.path)}</td><td>{shown(r.what)}</td><td>{shown(value_text(r.value, r.unit))}"
            f"</td><td>{shown(value_text(r.peak, r.unit))}</td><td>{shown(fraction_text(r))}</td>"
            f"{_verdict_cell(r.verdict)}<td class='reason'>{escape(reason_text(r))}</td><td>{link}</td></tr>"
        )
    if not body:  # a fleet or node result's answer stands above instead
        return (
            ""
            if fleet.fleets(sources) or node.nodes(sources)
            else "<p>No headline figure in this file: see the sections below.</p>"
        )
    return f"<div class='wide'><table id='summary'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"


def _summary_side(sources: list, threshold: float) -> str:
    labels = [s.label for s in sources]
    head = "<th>path</th><th>figure</th>" + "".join(f"<th>{shown(label)}</th>" for label in labels)
    head += "".join(f"<th>{shown(label)} / {shown(labels[0])}</th>" for label in labels[1:]) + "<th>details</th>"
    body = []
    for side in side_by_side(sources, threshold):
        first = next(r for r in side.rows if r)
        cells = "".join(
            f"<td>{shown(value_text(r.value, r.unit)) if r else '-'}"
            f"{' (' + shown(fraction_text(r)) + ' of peak)' if r and r.fraction is not None else ''}"
            f"</td>"
            for r in side.rows
        )
        for judged in side.judged:
            if judged is None:
                cells += "<td>-</td>"
            else:
                ratio, verdict = judged
                mark = "bad" if verdict == "slower" else ""
                cells += f"<td class='{mark}'>{ratio:.3f} {shown(MARKS[verdict] or verdict)}</td>"
        link = f"<a href='#{anchor(first.benchmark)}'>{shown(first.benchmark)} details</a>"
        body.append(f"<tr><td>{shown(side.path)}</td><td>{shown(first.what)}</td>{cells}<td>{link}</td></tr>")
    note = (
        f"<p class='note'>Ratio of each file to {shown(labels[0])} (higher is better for a "
        f"bandwidth, lower for a latency); ~: inside the noise of both; SLOWER: worse by more than "
        f"{100 * threshold:g}% and outside the noise (the compare command's rule).</p>"
    )
    return (
        f"<div class='wide'><table id='summary'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}"
        f"</tbody></table></div>{note}"
    )


def _origins(sources: list) -> str:
    """Where the rows come from, one line per host, CPU and commit (a suite
    split over files is one line): its files and their dates."""
    groups = {}
    for s in sources:
        for d in s.documents:
            f = document_facts(d)
            imported = is_imported(d)
            key = (f["host"], f["cpu"], f["commit"][:10], imported)
            labels, dates = groups.setdefault(key, ([], []))
            labels.append(s.label)
            dates.append(f["date"])
    lines = []
    for (host, cpu, commit, imported), (labels, dates) in groups.items():
        dates = sorted(d for d in dates if d)
        when = dates[0] if dates and dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}" if dates else ""
        when = f"imported {when} (host, CPU and date of the measurement not recorded)" if imported else when
        words = [
            f"host {shorten(host)}" if host else "",
            shorten(cpu),
            when,
            f"commit {shorten(commit)}" if commit else "",
        ]
        lines.append(f"{', '.join(dict.fromkeys(labels))}: " + ", ".join(w for w in words if w))
    warnings = dict.fromkeys(w for s in sources for d in s.documents for w in warnings_of(d))
    lines += [f"warning: {shorten(w)}" for w in warnings]
    return "".join(f"<p class='origin'>{escape(line)}</p>" for line in lines)


def _shared_paths(sources: list, threshold: float) -> bool:
    """Whether two sources measured one path: then the rows go side by side."""
    return any(sum(r is not None for r in side.rows) > 1 for side in side_by_side(sources, threshold))


def _fleet_answer(sources: list) -> str:
    """A fleet result's answer before the rows: per file its units and
    pairs, then every outlier, then what got slower than its baseline."""
    parts = []
    for label, f in fleet.fleets(sources):
        items = "".join(f"<li class='bad'>{escape(line)}</li>" for line in fleet.answer_lines(f))
        parts.append(
            f"<p><b>fleet {shown(label)}</b>: {escape(fleet.headline(f))} "
            f"(<a href='#{anchor('fleet')}'>strip plots and tables</a>)</p>" + (f"<ul>{items}</ul>" if items else "")
        )
    return f"<div id='fleet'>{''.join(parts)}</div>" if parts else ""


def _node_answer(sources: list) -> str:
    """A node result's findings before the rows: per file how many, then
    each in red, with a link to the heat maps."""
    parts = []
    for label, result in node.nodes(sources):
        items = "".join(f"<li class='bad'>{shown(f.text)}</li>" for f in result.findings[: node.MOST_LISTED])
        more = len(result.findings) - node.MOST_LISTED
        items += f"<li>and {more} more (node details)</li>" if more > 0 else ""
        parts.append(
            f"<p><b>node {shown(label)}</b>: {len(result.findings)} finding(s) against siblings and peaks "
            f"(<a href='#{anchor('node')}'>heat maps and tables</a>)</p>" + (f"<ul>{items}</ul>" if items else "")
        )
    return f"<div id='node-findings'>{''.join(parts)}</div>" if parts else ""


def summary_section(sources: list, threshold: float) -> str:
    side = len(sources) > 1 and _shared_paths(sources, threshold)
    table = _summary_side(sources, threshold) if side else _summary_one(sources)
    return (
        f"<section><h2>Summary: one row per path measured</h2>{_origins(sources)}{_fleet_answer(sources)}{_node_answer(sources)}{table}"
        "<p class='note'>verdict: normal, low or degraded against the path's theoretical peak "
        "(movebench facts); unknown where no peak is recorded, with the reason.</p></section>"
    )


def node_section(sources: list, threshold: float) -> str:
    """One picture per source where they are compared, else one per host
    with the rows of all its files (a suite split over files)."""
    if len(sources) > 1 and _shared_paths(sources, threshold):
        groups = [(s.label, s.documents[0], source_rows(s)) for s in sources]
    else:
        hosts = {}
        for s in sources:
            for d in s.documents:
                label, doc, rows = hosts.setdefault(d["host"].get("hostname", ""), (s.label, d, []))
                rows += rows_of(d)
        groups = list(hosts.values())
    pictures = "".join(
        f"<figure>{node_svg(doc, rows)}<figcaption class='note'>{shown(label)}: "
        f"{escape(origin_text(doc))}{_whose(doc)}</figcaption></figure>"
        for label, doc, rows in groups
    )
    return f"<section><h2>The node</h2>{pictures}{_node_maps(sources)}</section>"


def _node_maps(sources: list) -> str:
    """Each node result's map: its NUMA nodes and devices, every path
    measured on its edge, what a finding names in red."""
    maps = []
    for s in sources:
        for path, doc in zip(s.paths, s.documents):
            result = node.node_of(doc, str(path))
            svg = node_map_svg(doc, result) if result else ""
            if svg:
                maps.append(
                    f"<figure>{svg}<figcaption class='note'>{shown(s.label)}: movebench node, "
                    f"{len(result.findings)} finding(s); the matrices as heat maps in "
                    f"<a href='#{anchor('node')}'>node details</a></figcaption></figure>"
                )
    return "".join(maps)


def _whose(doc: dict) -> str:
    """'; facts of the machine --dmidecode F describes: CPU, DRAM; not in the
    file: ...' where files gave the facts (movebench facts --dmidecode,
    --lspci): the host above ran movebench, the facts are not its own."""
    whose = whose_facts_text(facts_of(doc))
    return f"; {shown(whose)}" if whose else ""


def _bench_tables(sources: list, filt: Filter, threshold: float) -> str:
    parts = []
    for view in ("bandwidth", "latency"):
        try:
            parts.append(to_html(merged_table(sources, filt, view)))
        except ReportError:
            continue  # this view has no figures: leave it out
        for other in sources[1:]:
            pair = [sources[0], other]
            try:
                parts.append(to_html(compare_table(pair, compare(pair, filt, view, threshold), view, threshold)))
            except ReportError:
                continue  # nothing in common in this view
    return f"<div class='wide'>{''.join(parts)}</div>"


def _bench_plots(sources: list, filt: Filter) -> dict:
    """{benchmark: html of its plots}, each source's own plots labelled: its
    sweeps (and strips, heat maps), then its latency distributions."""
    out = {}
    for s in sources:
        tails = distributions.page_plots(s, filt)
        drawn = pageplots.benchmark_plots(s, filt)
        for bench in dict.fromkeys([*drawn, *tails]):
            plots = drawn.get(bench, []) + tails.get(bench, [])
            label = f"<p class='note'>{shown(s.label)}</p>" if len(sources) > 1 else ""
            out[bench] = out.get(bench, "") + label + "".join(p.svg for p in plots)
    return out


def _fleet_tables(sources: list) -> str:
    """A fleet result's table per figure across its units and pairs."""
    tables = [to_html(t) for label, f in fleet.fleets(sources) for t in fleet.figure_tables(label, f)]
    return f"<div class='wide'>{''.join(tables)}</div>"


def _node_tables(sources: list) -> str:
    """A node result's matrices and findings, as `table` prints them."""
    tables = [to_html(t) for label, result in node.nodes(sources) for t in node.node_tables(label, result)]
    return f"<div class='wide'>{''.join(tables)}</div>"


def benchmark_sections(sources: list, filt: Filter, threshold: float) -> str:
    benches = list(dict.fromkeys(rec["benchmark"] for s in sources for d in s.documents for rec in d["timings"]))
    benches = [b for b in benches if not filt.benchmarks or b in filt.benchmarks]
    plots = _bench_plots(sources, filt)
    parts = []
    for bench in benches:
        only = Filter([bench], filt.operations, filt.sizes)
        count = sum(rec["benchmark"] == bench for s in sources for d in s.documents for rec in d["timings"])
        parts.append(
            f"<details><summary id='{anchor(bench)}'>{shown(bench)}: plots and tables ({count} records)"
            f"</summary>{plots.get(bench, '<p>No figure to plot.</p>')}"
            f"{_fleet_tables(sources) if bench == 'fleet' else ''}{_node_tables(sources) if bench == 'node' else ''}"
            f"{_bench_tables(sources, only, threshold)}"
            "</details>"
        )
    return f"<section><h2>Per benchmark</h2>{''.join(parts)}</section>"


def build_page(sources: list, filt: Filter, threshold: float, title: str) -> str:
    runs = "".join(_document_section(s.label, p, d) for s in sources for p, d in zip(s.paths, s.documents))
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width'><title>{escape(title)}</title>"
        f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>"
        f"{summary_section(sources, threshold)}{node_section(sources, threshold)}"
        f"{benchmark_sections(sources, filt, threshold)}<section><h2>Runs</h2>{runs}</section></body></html>\n"
    )
