"""The latest figures and verdicts of each node in the Prometheus text
exposition format, for node_exporter's textfile collector (docs/history.md).
Written with prometheus-client (PyPI): metric and label names by
Prometheus' conventions, values in base units (bytes per second, seconds),
the file replaced atomically (written beside it, then renamed)."""

from __future__ import annotations

import calendar

from .model import BANDWIDTH_UNITS, TIME_UNITS, ReportError

VERDICTS = ("normal", "low", "degraded", "unknown")
LABELS = ("host", "rank", "benchmark", "operation", "variant", "bytes", "figure")


def _labels(series) -> dict:
    values = {name: getattr(series, name) for name in LABELS}
    return {k: "" if v is None else str(v) for k, v in values.items()}


def _gauges(registry):
    from prometheus_client import Gauge

    short = ("host", "rank", "figure")
    return {
        "bandwidth": Gauge(
            "movebench_bandwidth_bytes_per_second", "Latest bandwidth of a movebench figure", LABELS, registry=registry
        ),
        "time": Gauge(
            "movebench_time_seconds", "Latest time (latency) of a movebench figure", LABELS, registry=registry
        ),
        "peak": Gauge(
            "movebench_peak_ratio", "Latest figure over its path's theoretical peak", short, registry=registry
        ),
        "verdict": Gauge(
            "movebench_verdict",
            "Latest verdict of a path (1: the verdict it is)",
            short + ("verdict",),
            registry=registry,
        ),
        "ratio": Gauge(
            "movebench_history_latest_to_median_ratio",
            "Latest run over the median of its past runs",
            LABELS,
            registry=registry,
        ),
        "slower": Gauge(
            "movebench_history_slower",
            "1: slower than its own past (latest run or last change point)",
            LABELS,
            registry=registry,
        ),
        "time_of": Gauge(
            "movebench_last_run_timestamp_seconds",
            "Start of the latest run stored for a host",
            ("host",),
            registry=registry,
        ),
    }


def _value(gauges, series, latest, labels):
    """The figure in base units: MB/s and ns in the series (history._common_unit)."""
    if series.unit in BANDWIDTH_UNITS:
        gauges["bandwidth"].labels(**labels).set(latest.value * BANDWIDTH_UNITS[series.unit])
    elif series.unit in TIME_UNITS:
        gauges["time"].labels(**labels).set(latest.value * TIME_UNITS[series.unit])


def write(found: list, path):
    """One file of the latest run of every series of `found` (history.findings)."""
    from prometheus_client import CollectorRegistry, write_to_textfile

    registry = CollectorRegistry()
    gauges = _gauges(registry)
    latest_time = {}
    for f in found:
        series, latest = f.series, f.series.runs[-1]
        labels = _labels(series)
        _value(gauges, series, latest, labels)
        short = {k: labels[k] for k in ("host", "rank", "figure")}
        if latest.peak_fraction is not None:
            gauges["peak"].labels(**short).set(latest.peak_fraction)
        if latest.verdict in VERDICTS:
            for word in VERDICTS:
                gauges["verdict"].labels(**short, verdict=word).set(1 if word == latest.verdict else 0)
        if f.latest:
            gauges["ratio"].labels(**labels).set(f.latest[1])
        gauges["slower"].labels(**labels).set(1 if f.slower or f.worse_level else 0)
        if latest.time is not None:
            latest_time[series.host] = max(latest_time.get(series.host, 0), calendar.timegm(latest.time.timetuple()))
    for host, when in latest_time.items():
        gauges["time_of"].labels(host=host).set(when)
    try:
        write_to_textfile(str(path), registry)
    except OSError as e:
        raise ReportError(f"--prometheus {path}: cannot write ({e.strerror or e})") from None
