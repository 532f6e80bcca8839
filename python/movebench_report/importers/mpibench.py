"""mpiBench: one line per collective and size, avg/min/max over ranks in usec."""

from __future__ import annotations

import re

from .common import collective_bandwidth, count, document, number, record, time_figure

NAME = "mpiBench"
LINE = re.compile(
    r"^(?P<op>\w+)\s+Bytes:\s*(?P<bytes>\d+)\s+Iters:\s*(?P<iters>\d+)\s+Avg:\s*(?P<avg>[\d.eE+-]+)"
    r"\s+Min:\s*(?P<min>[\d.eE+-]+)\s+Max:\s*(?P<max>[\d.eE+-]+)\s+Comm:\s*(?P<comm>\S+)"
    r"\s+Ranks:\s*(?P<ranks>\d+)\s*$"
)
HOST = re.compile(r"^(\d+)\s*:\s*(\S+)\s*$")


def detect(text: str) -> bool:
    return "START mpiBench" in text or any(LINE.match(line) for line in text.splitlines()[:50])


def parse(text: str, path):
    hosts = {}
    records = []
    for line in text.splitlines():
        if m := HOST.match(line):
            hosts[count(m.group(1))] = m.group(2)
        elif m := LINE.match(line.strip()):
            params = {"iters": count(m["iters"]), "comm": m["comm"], "ranks": count(m["ranks"])}
            if len(set(hosts.values())) > 1:  # a node count only where there are several, as movebench coll
                params["nodes"] = len(set(hosts.values()))
            # avg, min and max over the ranks of each rank's time per call
            figures = {k: time_figure(m[k], "us", {"avg": "mean"}.get(k, k)) for k in ("avg", "min", "max")}
            op, size = m["op"].lower(), count(m["bytes"])
            figures.update(collective_bandwidth(op, size, params["ranks"], number(m["max"]) * 1e-6))
            records.append(record("coll", op, size, params, figures))
    version = re.search(r"START mpiBench v(\S+)", text)
    settings = {"tool_version": version.group(1) if version else "", "hosts": sorted(set(hosts.values()))}
    hostname = ",".join(sorted(set(hosts.values())))
    return document(path, NAME, records, settings, complete="END mpiBench" in text, host={"hostname": hostname})
