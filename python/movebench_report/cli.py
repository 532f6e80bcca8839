"""Command line: movebench-report {table,compare,scaling,plot,html,import,store,history,health}.

Exit status: 0 done; 2 a bad argument or input file (one line on stderr
naming the file or the option and what is wrong); 3 compare found B slower
than A beyond the threshold, or history a series slower than its own past;
1 an internal error (one line: a bug to report).

Every argument is checked by its argparse type and every file by
model.read_text/parse_json/check_document (the front doors) before any work;
outputs are checked writable before and written through write_output."""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import stat
import sys

from . import __version__, fleet, importers, node
from .compare import REGRESSION, compare, compare_table
from .model import (
    BANDWIDTH_UNITS,
    VIEWS,
    ByStat,
    Filter,
    ReportError,
    Source,
    labels_for,
    load_document,
    load_sources,
    names,
    parse_size,
    parse_size_range,
)
from .render import FORMATS, render
from .summary import summary_table
from .tables import merged_table, scaling_table
from .vocabulary import STATS

PERCENTILE_STATS = tuple(s for s in STATS if s.startswith("p"))


class OneLineParser(argparse.ArgumentParser):
    """Usage errors in one line, as movebench's own: the error and where to look."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see --help)\n")


def size_arg(text: str) -> int:
    try:
        return parse_size(text)
    except ReportError as e:  # argparse reports ArgumentTypeError as a usage error (exit 2)
        raise argparse.ArgumentTypeError(str(e)) from None


def size_range_arg(text: str) -> tuple:
    try:
        return parse_size_range(text)
    except ReportError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def threshold_arg(text: str) -> float:
    """A relative slow-down: finite, 0 to 100 (0.05 = 5 %)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"'{text}' is not a relative slow-down from 0 to 100 (0.05 = 5 %)")
    return value


def count_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 10000:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number from 1 to 10000")
    return value


def dpi_arg(text: str) -> int:
    from .canvas import DPI_RANGE  # the bounds live with the plot primitives (loads matplotlib)

    low, high = DPI_RANGE
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of pixels per inch from {low} to {high}")
    return value


def output_arg(text: str) -> pathlib.Path:
    """A file to write: its folder must exist and the path must not be a
    folder. Checked when the arguments are read, before any work."""
    path = pathlib.Path(text)
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    if path.is_dir() or text.endswith("/"):
        # "new.json/" names a folder: pathlib drops the slash and wrote a file.
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None  # not there yet: it will be created
    if mode is not None and not stat.S_ISREG(mode):
        # A FIFO would block the write for ever; a device is no result file.
        raise argparse.ArgumentTypeError(f"{text} is not a regular file")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) and not (path.exists() and os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"{text}: cannot write in {folder}")
    return path


def plot_arg(text: str) -> pathlib.Path:
    path = output_arg(text)
    if path.suffix.lower() not in (".png", ".svg"):
        raise argparse.ArgumentTypeError(f"{text}: plot files end in .png or .svg")
    return path


def outdir_arg(text: str) -> pathlib.Path:
    if not text:
        raise argparse.ArgumentTypeError("an empty folder name")
    path = pathlib.Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a folder")
    return path


def _csv(text: str) -> list:
    return [t.strip().lower() for t in text.split(",")]


def name_list_arg(text: str) -> str:
    """A comma-separated list of names: no empty list and no empty item."""
    if any(not t.strip() for t in text.split(",")):
        raise argparse.ArgumentTypeError(f"'{text}': an empty name")
    return text


def name_arg(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name")
    return text


def add_filters(p: argparse.ArgumentParser):
    p.add_argument(
        "-b",
        "--benchmark",
        action="append",
        default=[],
        metavar="NAME",
        type=name_list_arg,
        help="keep these benchmarks (mem, coll, p2p, link, ...); repeat or comma-separate",
    )
    p.add_argument(
        "--op",
        action="append",
        default=[],
        metavar="OPS",
        type=name_list_arg,
        help="keep these operations/kernels, e.g. --op triad,copy or --op Alltoall",
    )
    p.add_argument(
        "--sizes", metavar="MIN:MAX", type=size_range_arg, help="keep sizes in this range, e.g. 4K:1M, 1M:, :64K"
    )


def add_view(p: argparse.ArgumentParser, figure: bool = True):
    p.add_argument(
        "--view",
        choices=VIEWS,
        default="bandwidth",
        help="bandwidth (higher is better) or latency/time (lower is better)",
    )
    p.add_argument("--unit", choices=list(BANDWIDTH_UNITS), help="bandwidth unit (default MB/s)")
    if figure:  # scaling picks its own figure per view
        chosen = p.add_mutually_exclusive_group()
        chosen.add_argument(
            "--figure", type=name_arg, help="use this figure of each record (default: bandwidth/busbw or latency/avg)"
        )
        chosen.add_argument(
            "--stat",
            choices=PERCENTILE_STATS,
            help="use each record's percentile of its latency distribution (latency_p99, or OSU -z's p99): "
            "a tail that got worse while the median did not",
        )


def add_output(p: argparse.ArgumentParser, formats=True):
    if formats:
        p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("-o", "--output", type=output_arg, help="write here instead of stdout")


def add_sources(p: argparse.ArgumentParser, nargs="*"):
    p.add_argument("files", nargs=nargs, type=pathlib.Path, help="movebench result files (JSON)")
    p.add_argument(
        "-data",
        "--data",
        action="append",
        nargs="+",
        metavar="NAME FILES",
        help="a named data set of one or more files (pooled), like crunch_mpiBench -data",
    )


def parser() -> argparse.ArgumentParser:
    top = OneLineParser(prog="movebench-report", description=__doc__.split("\n")[0])
    top.add_argument("--version", action="version", version=f"movebench-report {__version__}")
    sub = top.add_subparsers(dest="command", required=True)
    add_table_parsers(sub)
    add_plot_parser(sub)
    add_page_and_import_parsers(sub)
    add_store_parsers(sub)
    return top


def add_table_parsers(sub):
    """table, compare and scaling: text tables of result files."""
    p = sub.add_parser("table", help="one table from one or many result files (one column per file)")
    add_sources(p, "*")
    add_filters(p)
    add_view(p)
    add_output(p)

    p = sub.add_parser("compare", help="ratio B/A per operation and size, noise marked; exit 3 if B is slower")
    add_sources(p, "*")
    add_filters(p)
    add_view(p)
    add_output(p)
    p.add_argument("--threshold", type=threshold_arg, default=0.05, help="relative slow-down that fails (default 0.05)")
    p.add_argument("--plot", type=plot_arg, help="also write the ratio plot here (.png or .svg)")

    p = sub.add_parser("scaling", help="thread/rank/node-count column table (#nt Init Sum ...)")
    add_sources(p, "*")
    add_filters(p)
    add_view(p, figure=False)
    add_output(p)
    p.add_argument(
        "--by", type=name_arg, help="parameter to scale over (default: threads, ranks or nodes, whichever varies)"
    )
    p.add_argument("--size", type=size_arg, help="use this size (default: the largest of each operation)")


def add_plot_parser(sub):
    p = sub.add_parser(
        "plot",
        help="size vs bandwidth/latency plots (PNG or SVG): the html page's small multiples, at most 8 series per axes",
    )
    add_sources(p, "*")
    add_filters(p)
    p.add_argument("--view", choices=VIEWS + ("both",), default="both")
    p.add_argument("--unit", choices=list(BANDWIDTH_UNITS), help="bandwidth unit (default MB/s)")
    p.add_argument(
        "--combined",
        action="store_true",
        help="every benchmark's sweeps of a view in shared panels (still at most 8 series each)",
    )
    p.add_argument(
        "--per-array",
        action="store_true",
        help="x axis: bytes per array instead of the dataset "
        "(mem records carry the dataset size), like TheBandwidthBenchmark's array-size plot",
    )
    p.add_argument(
        "--distributions",
        action="store_true",
        help="instead: each latency distribution a record keeps (p2p/coll/fleet -z, link, mem latency, stream), "
        "a percentile plot per benchmark and operation",
    )
    p.add_argument("-o", "--output", type=plot_arg, required=True, help="out.png or out.svg")
    p.add_argument(
        "--dpi", type=dpi_arg, default=100, help="PNG pixels per inch, 10 to 1200 (default 100: 640x420 per panel)"
    )


def add_page_and_import_parsers(sub):
    """html (one self-contained page) and import (other tools' outputs)."""
    p = sub.add_parser("html", help="one self-contained HTML page")
    add_sources(p, "*")
    add_filters(p)
    add_output(p, formats=False)
    p.add_argument("--title", type=name_arg, default="movebench report")
    p.add_argument("--threshold", type=threshold_arg, default=0.05)

    p = sub.add_parser("import", help="other tools' outputs into movebench result JSON")
    p.add_argument("files", nargs="+", type=pathlib.Path)
    p.add_argument("--format", choices=list(importers.FORMATS), help="skip detection")
    p.add_argument("-o", "--output", type=output_arg, help="result file (one input only; default stdout)")
    p.add_argument("--outdir", type=outdir_arg, help="write <input stem>.json here for each input")


STORE_HELP = (
    "a SQLite file or a database URL (sqlite:///FILE, postgresql://user@host/db); default "
    "$MOVEBENCH_STORE, else $XDG_DATA_HOME/movebench/results.sqlite"
)


def add_store_parsers(sub):
    p = sub.add_parser("store", help="keep results in a database (SQLite or PostgreSQL): docs/history.md")
    actions = p.add_subparsers(dest="store_command", required=True)
    add = actions.add_parser(
        "add",
        help="store result files: every figure one row, the document beside them; "
        "a file stored before adds nothing; every file is checked before any is stored",
    )
    add.add_argument("files", nargs="+", type=pathlib.Path, help="movebench result files (JSON)")
    add.add_argument("--store", metavar="URL", type=name_arg, help=STORE_HELP)

    p = sub.add_parser(
        "history",
        help="each node's figures over time from the store: the latest run against "
        "its own past, change points (tables; a plot and a page on request); exit 3 if a series got slower",
    )
    p.add_argument("--store", metavar="URL", type=name_arg, help=STORE_HELP)
    p.add_argument("--host", type=name_arg, help="only this host's series")
    p.add_argument(
        "--figure",
        type=name_arg,
        help="the figure to follow: a headline name (mem.triad.1t) or a "
        "record's figure (bandwidth, latency); default: every headline figure",
    )
    p.add_argument("--last", type=count_arg, default=10, help="the past runs the latest is held against (default 10)")
    p.add_argument("--threshold", type=threshold_arg, default=0.05, help="relative slow-down that fails (default 0.05)")
    p.add_argument(
        "--prometheus",
        type=output_arg,
        metavar="FILE",
        help="also write each series' latest figure "
        "and verdicts here in Prometheus' text format (node_exporter's textfile collector)",
    )
    p.add_argument(
        "--plot",
        type=plot_arg,
        metavar="FILE",
        help="also draw the series over time here (.png or .svg): one panel per figure, a line per host "
        "or unit (at most 8 per panel), change points and slower latest runs marked",
    )
    p.add_argument(
        "--html", type=output_arg, metavar="FILE", help="also write the history page here: the tables and the plots"
    )
    p.add_argument("--title", type=name_arg, default="movebench history", help="the page's title (--html)")
    add_output(p)

    p = sub.add_parser(
        "health",
        help="a node health check (Slurm's HealthCheckProgram, NHC): exit 3 with one "
        "line when this node's history or verdicts say it is slow; silent and 0 when not",
    )
    p.add_argument("--store", metavar="URL", type=name_arg, help=STORE_HELP)
    p.add_argument("--host", type=name_arg, help="the node (default: this host's name)")
    p.add_argument("--last", type=count_arg, default=10, help="the past runs the latest is held against (default 10)")
    p.add_argument("--threshold", type=threshold_arg, default=0.05, help="relative slow-down that fails (default 0.05)")


def sources_of(args) -> list:
    """Plain files are one source each; every -data NAME FILES... is one source."""
    sources = load_sources(args.files) if args.files else []
    for group in args.data or []:
        if len(group) < 2:
            raise ReportError(f"-data {group[0]}: give a name and at least one file")
        name, paths = group[0], [pathlib.Path(p) for p in group[1:]]
        if not name.strip():
            raise ReportError(f"-data {name!r}: an empty data-set name")
        sources.append(Source(name, paths, [load_document(p) for p in paths]))
    if not sources:
        raise ReportError("no result files given")
    return sources


def filter_of(args) -> Filter:
    benchmarks = [b for arg in args.benchmark for b in _csv(arg)]
    operations = [o for arg in args.op for o in _csv(arg)]
    sizes = args.sizes or Filter().sizes
    return Filter(benchmarks, operations, sizes)


def chosen_figure(args):
    """What --figure or --stat asks of each record (None: the view's own figure)."""
    return ByStat(args.stat) if getattr(args, "stat", None) else args.figure


def emit(text: str, output, option: str = "-o"):
    """The one way text goes out: a write that fails is an error naming the file."""
    try:
        if output:
            output.write_text(text)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
    except OSError as e:
        raise ReportError(f"{option} {output or 'stdout'}: cannot write ({e.strerror or e})") from None


def cmd_table(args):
    """The verdict lines first (text and Markdown: what a person reads), then
    for a fleet result its answer and a table per figure across its units
    and pairs, for a node result its matrices and findings, then the detail; CSV and JSON stay one table, for programs."""
    sources, filt = sources_of(args), filter_of(args)
    detail = render(merged_table(sources, filt, args.view, args.unit, chosen_figure(args)), args.format)
    first = []
    if args.format in ("text", "markdown"):
        wants_fleet = not filt.benchmarks or "fleet" in filt.benchmarks
        first = [summary_table(sources, filt.benchmarks)]
        if wants_fleet:
            first += [fleet.answer_table(sources)]
            first += [t for label, f in fleet.fleets(sources) for t in fleet.figure_tables(label, f)]
        if not filt.benchmarks or "node" in filt.benchmarks:
            first += [t for label, n in node.nodes(sources) for t in node.node_tables(label, n)]
    emit("".join(render(t, args.format) + "\n" for t in first if t and t.rows) + detail, args.output)


def cmd_compare(args):
    sources = sources_of(args)
    verdicts = compare(sources, filter_of(args), args.view, args.threshold, chosen_figure(args))
    emit(render(compare_table(sources, verdicts, args.view, args.threshold, args.unit), args.format), args.output)
    if args.plot:
        from . import canvas, plots  # matplotlib loads in a second: only where a plot is made

        fig = plots.ratio_figure(verdicts, args.view, (sources[0].label, sources[1].label), names(sources))
        canvas.save(fig, args.plot, option="--plot")
    return REGRESSION if any(v.verdict == "slower" for v in verdicts) else 0


def cmd_scaling(args):
    table = scaling_table(sources_of(args), filter_of(args), args.view, args.by, args.unit, args.size)
    emit(render(table, args.format), args.output)


def cmd_plot(args):
    from . import canvas, plots

    if args.distributions:
        from . import distributions

        fig = distributions.figure_for(sources_of(args), filter_of(args), plots.MAX_PANELS)
        canvas.save(fig, args.output, args.dpi)
        return
    views = VIEWS if args.view == "both" else (args.view,)
    fig = plots.figure_for(sources_of(args), filter_of(args), views, args.combined, args.per_array, args.unit)
    canvas.save(fig, args.output, args.dpi)


def cmd_html(args):
    from .page import build_page

    emit(build_page(sources_of(args), filter_of(args), args.threshold, args.title), args.output)


def cmd_import(args):
    if args.output and len(args.files) > 1:
        raise ReportError("-o takes one input; use --outdir for several")
    if args.outdir:
        try:
            args.outdir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ReportError(f"--outdir {args.outdir}: cannot create ({e.strerror or e})") from None
    for path, label in zip(args.files, labels_for(args.files)):
        # allow_nan=False: what is written is standard JSON (numbers were checked in range before)
        text = json.dumps(importers.import_file(path, args.format), indent=1, allow_nan=False) + "\n"
        if args.outdir:
            emit(text, args.outdir / f"{label.replace('/', '_')}.json", "--outdir")
        else:
            emit(text, args.output)


def cmd_store(args):
    from . import store  # SQLAlchemy loads only where a store is used

    url = store.store_url(args.store)
    lines = []
    for s in store.add_files(url, args.files):
        lines.append(
            f"{s.path}: stored as run {s.run} ({s.figures} figures)"
            if s.added
            else f"{s.path}: already stored (run {s.run}): nothing added"
        )
    emit("".join(line + "\n" for line in lines), None)


def judged_history(args, figure=None) -> list:
    """history.findings of the store's series of args.host (and figure)."""
    from . import history, store

    with store.Store(store.store_url(args.store)) as s:
        series = history.series_of(s.series_rows(args.host, figure))
        if not series:
            asked = "".join(
                [
                    f" of host {args.host!r}" if args.host else "",
                    f" named {figure!r}" if figure else " (headline figures)",
                ]
            )
            raise ReportError(f"store {s.where}: no figures{asked}")
        return history.findings(series, args.last, args.threshold, s.document)


def cmd_history(args):
    """The series of the store, each judged; exit 3 (as compare) when a
    latest run is slower than its own past, or a series' last change point
    was for the worse (the level it is at is a step or drift down)."""
    from . import history

    found = judged_history(args, args.figure)
    if args.prometheus:
        from . import promexport

        promexport.write(found, args.prometheus)
    draw_history(args, found)
    tables = [history.series_table(found), history.latest_table(found, args.last, args.threshold)]
    tables += [history.changes_table(found)] if any(f.changes for f in found) else []
    texts = [render(t, args.format).rstrip("\n") for t in tables]
    # JSON: one document, a list of the tables; the other formats one after the other
    emit("[\n" + ",\n".join(texts) + "\n]\n" if args.format == "json" else "\n\n".join(texts) + "\n", args.output)
    worse = any(f.slower or f.worse_level for f in found)
    return REGRESSION if worse else 0


def draw_history(args, found: list):
    """history's --plot and --html (matplotlib loads only where one is asked for)."""
    if args.plot:
        from . import canvas, historyplot

        canvas.save(historyplot.history_figure(found, "--plot"), args.plot, option="--plot")
    if args.html:
        from . import store
        from .historypage import build_history_page

        where = store.store_url(args.store)
        page = build_history_page(found, args.last, args.threshold, args.title, store.where_of(where))
        emit(page, args.html, "--html")


def cmd_health(args):
    """One node's headline figures: exit 3 with the worst reason on one line
    (the reason fleet's drain lines give, for this node), else silent."""
    import socket

    from . import history

    args.host = args.host or socket.gethostname()
    reasons = history.health_reasons(judged_history(args))
    if not reasons:
        return 0
    more = f" (and {len(reasons) - 1} more)" if len(reasons) > 1 else ""
    emit(f"movebench: {args.host}: {reasons[0]}{more}\n", None)
    return REGRESSION


COMMANDS = {
    "table": cmd_table,
    "compare": cmd_compare,
    "scaling": cmd_scaling,
    "plot": cmd_plot,
    "html": cmd_html,
    "import": cmd_import,
    "store": cmd_store,
    "history": cmd_history,
    "health": cmd_health,
}


def one_line(message) -> str:
    """The message on one line: names from a file (JSON keys, paths) may hold
    line breaks or other control characters; they are shown escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(message))


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args) or 0
    except ReportError as e:
        print(f"movebench-report: error: {one_line(e)}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - a bug, not the input: still one line, never a traceback
        where = e.__traceback__
        while where.tb_next:
            where = where.tb_next
        print(
            f"movebench-report: internal error: {type(e).__name__}: {one_line(str(e)[:200])} (at "
            f"{pathlib.Path(where.tb_frame.f_code.co_filename).name}:{where.tb_lineno}; please report it)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
