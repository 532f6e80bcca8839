"""HPCC FPGA effective bandwidth (b_eff) JSON dump (--dump-json): timings keyed
by the message size exponent, each with its loop length and raw times."""

from __future__ import annotations

from ..model import TIME_UNITS, ReportError, parse_json
from .common import FormatError, bandwidth_figure, count, counted, document, number, record

NAME = "HPCC FPGA b_eff"


def detect(text: str) -> bool:
    head = text.lstrip()[:1]
    return head == "{" and '"effective bandwidth"' in text and '"timings"' in text


def parse(text: str, path):
    doc = parse_json(text, str(path))
    if not isinstance(doc, dict) or not isinstance(doc.get("timings"), dict):
        raise ReportError(f"{path}: HPCC b_eff JSON without a 'timings' object")
    ranks = doc.get("settings", {}).get("MPI Ranks")
    records = []
    try:
        for entry in doc["timings"].values():
            for t in entry["timings"]:
                records.append(size_record(entry, t, ranks))
        tool_results = {
            str(k): {"value": float(v["value"]), "unit": str(v["unit"])} for k, v in doc.get("results", {}).items()
        }
    except (KeyError, TypeError, ValueError) as e:
        raise ReportError(f"{path}: HPCC b_eff JSON with an unexpected shape ({type(e).__name__}: {e})") from None
    # b_eff is the mean over the sizes of maxCalcBW: its counting; any other
    # result the dump may hold stays in the settings as it was written.
    b_eff = tool_results.get("b_eff")
    results = {"b_eff": beff_figure(b_eff["value"])} if b_eff and b_eff["unit"] == "B/s" else {}
    settings = {
        "tool_version": str(doc.get("version", "")),
        "tool_settings": doc.get("settings", {}),
        "tool_git_commit": str(doc.get("git_commit", "")),
        "tool_results": tool_results,
    }
    mpi = doc.get("mpi") or {}
    environment = doc.get("environment") or {}
    if not isinstance(mpi, dict) or not isinstance(environment, dict):
        raise ReportError(f"{path}: HPCC b_eff JSON whose 'mpi' or 'environment' is not an object")
    return document(
        path,
        NAME,
        records,
        settings,
        when=doc.get("execution_time"),
        validated=bool(doc.get("validated")),
        results=results,
        device=str(doc.get("device", "")),
        mpi={"version": mpi.get("version"), "subversion": mpi.get("subversion")} if mpi else None,
        environment={str(k): str(v) for k, v in environment.items()},
    )


def beff_figure(value) -> dict:
    """HPCC FPGA's bandwidth: every rank's messages to both ring neighbours
    over the slowest rank's least time (maxMinCalculationTime), in B/s."""
    return bandwidth_figure(value, "B/s", "min", "time", counted("application", 2))


def size_record(entry: dict, t: dict, ranks) -> dict:
    samples = [number(s["value"]) * TIME_UNITS[s.get("unit", "s")] for s in t["timings"]]
    params = {"looplength": count(t["looplength"]), "max_min_time_s": number(entry["maxMinCalculationTime"])}
    if ranks:
        params["ranks"] = count(ranks)
    figures = {"bandwidth": beff_figure(entry["maxCalcBW"])}
    exponent = count(t["messageSize"])
    if exponent > 62:
        raise FormatError(f"messageSize {exponent}: 2^{exponent} bytes is out of range")
    return record("beff", "fpga", 2**exponent, params, figures, samples)
