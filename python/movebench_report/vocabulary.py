"""What a figure means (docs/results.md, "Vocabulary"): its statistic, what
the statistic is of (the samples' times or their rates), which way is
better, and for a bandwidth which bytes it counts. Version 2 documents say
it in every figure; version 1 documents said only the statistic's name, and
"min" meant the least time (mem) or the least rate (link's bandwidth_min):
meaning_v1 reads them the way each movebench command and importer of
version 1 wrote them."""

from __future__ import annotations

from dataclasses import dataclass

STATS = ("min", "median", "mean", "max", "p50", "p90", "p99", "p99.9")  # pNN: percentiles (distributions, OSU -z)
BEST = {("min", "time"), ("max", "rate")}  # the statistic that is the best sample
WORST = {("max", "time"), ("min", "rate")}

# nccl-tests' bus factor of a collective over n ranks (busbw = algbw * factor).
# A movebench document of version 2 records it in every busbw figure
# (accounting.factor), and that is what the reports read; this copy of
# movebench coll's rows (src/coll/coll_rows.hpp) is only for what carries
# none: version 1 documents and the importers' tools. test_net_coll.py keeps
# the two equal.
BUS_FACTOR = {
    "allreduce": lambda n: 2 * (n - 1) / n,
    "bcast": lambda n: 1.0,
    "reduce": lambda n: 1.0,
    "barrier": lambda n: 1.0,
}


def bus_factor(op: str, ranks: int) -> float:
    return BUS_FACTOR.get(op, lambda n: (n - 1) / n)(ranks)


@dataclass(frozen=True)
class Accounting:
    """Which bytes a bandwidth counts."""

    bytes: str  # application, write_allocate, algorithm, bus
    directions: int = 1  # 2: both directions summed
    factor: float | None = 1.0  # bus: busbw = algbw * factor; None: not known (version 1 without ranks)

    @classmethod
    def of(cls, j: dict) -> Accounting:
        return cls(j["bytes"], int(j["directions"]), float(j["factor"]))

    def text(self) -> str:
        words = {
            "application": "application bytes",
            "write_allocate": "write-allocate bytes",
            "algorithm": "algorithm bytes (algbw)",
        }.get(self.bytes)
        if self.bytes == "bus":
            factor = f"{self.factor:.4g}" if self.factor is not None else "?"
            words = f"bus bytes x{factor} (busbw)"
        return words + (", both directions" if self.directions == 2 else "")


@dataclass(frozen=True)
class Meaning:
    """The vocabulary of one figure; `of` None: a version 1 figure whose
    statistic cannot be placed (not written by a known command)."""

    stat: str
    of: str | None
    better: str  # higher or lower
    accounting: Accounting | None = None

    @property
    def best_of(self) -> bool:
        """The figure is the best sample (a best-of figure)."""
        return (self.stat, self.of) in BEST

    def stat_text(self) -> str:
        if self.of is None:
            return f"{self.stat} (version 1: of times or rates unknown)"
        mark = " (best)" if (self.stat, self.of) in BEST else " (worst)" if (self.stat, self.of) in WORST else ""
        return f"{self.stat} of {self.of}s{mark}"

    def accounting_text(self) -> str:
        return self.accounting.text() if self.accounting else "-"


def meaning(name: str, record: dict, version: int) -> Meaning:
    """The meaning of figure `name` of `record` in a document of `version`."""
    figure = record["figures"][name]
    if version >= 2:
        accounting = figure.get("accounting")
        return Meaning(
            figure["stat"], figure["of"], figure["better"], Accounting.of(accounting) if accounting else None
        )
    return meaning_v1(figure, record, name)


def _is_bandwidth_v1(unit: str) -> bool:
    return unit.endswith("B/s")


def meaning_v1(figure: dict, record: dict, name: str) -> Meaning:
    """A version 1 figure read as its writer meant it. Version 1's writers:
    movebench mem, link, stream, coll, p2p, beff at schema 1, and the
    importers of OSU, IMB, mpiBench, STREAM, TheBandwidthBenchmark, HPCC FPGA
    b_eff and nvbandwidth."""
    unit, stat = figure["unit"], str(figure["stat"])
    bench = record["benchmark"]
    better = "higher" if unit.endswith("/s") else "lower"
    # Version 1's other words: link's "average" (all bytes over all time)
    # and b_eff's "best" (the least time); OSU's p50 is the median.
    stat, of = {"average": ("mean", "time"), "best": ("min", "time"), "p50": ("median", None)}.get(stat, (stat, None))
    if stat not in STATS:
        return Meaning(stat, None, better, _accounting_v1(name, record) if _is_bandwidth_v1(unit) else None)
    if of is None:
        # Of the rates: link's bandwidth_median, _min, _max (hdl_single_engine's
        # per-test rates) and nvbandwidth's median of its trials' rates (both
        # benchmark "link"), stream's mean throughput. Every other figure of
        # version 1 was of the times.
        of_rate = (bench == "link" and _is_bandwidth_v1(unit)) or (bench == "stream" and name == "throughput")
        of = "rate" if of_rate else "time"
    accounting = _accounting_v1(name, record) if _is_bandwidth_v1(unit) else None
    return Meaning(stat, of, better, accounting)


# Operations whose bandwidth version 1 counted in both directions.
BOTH_DIRECTIONS_V1 = {("p2p", "bibw"), ("p2p", "sendrecv"), ("p2p", "exchange"), ("p2p", "biband")}


def _accounting_v1(name: str, record: dict) -> Accounting:
    bench, op = record["benchmark"], record["operation"]
    if "write_allocate" in name:
        return Accounting("write_allocate")
    if name == "algbw":
        return Accounting("algorithm")
    if name == "busbw":
        ranks = record["params"].get("ranks")
        factor = bus_factor(op, ranks) if isinstance(ranks, int) and ranks > 0 else None
        return Accounting("bus", 1, factor)
    both = (bench, op) in BOTH_DIRECTIONS_V1 or bench == "beff" or (bench == "link" and op.endswith(".total"))
    return Accounting("application", 2 if both else 1)
