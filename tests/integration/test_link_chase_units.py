"""link's chase from each unit of the device in turn (latency.chase_per_unit,
nvbandwidth's host_device_latency_sm chases from every SM): on PoCL, whose
pthread device has a compute unit per worker thread, one entry per compute
unit, every chase validated, and the record's figures exactly those of its
entries; the host backend, which has no units to place a chase on, says so."""

import statistics

import pytest
from linkrun import load, records, run

# Three worker threads: a count of its own, not this machine's CPUs (PoCL
# 3.1's pthread device reports one compute unit per worker thread).
THREE_UNITS = {"POCL_MAX_PTHREAD_COUNT": "3"}
STEPS = 256
SMALL = ["--ring-bytes", "1M", "--steps", str(STEPS), "-c", "3", "--write-bytes", "4", "--roundtrips", "1"]


def latency_ns(entry):
    """A unit's figure from its raw samples, as latency.chase's: (median T(steps) - median T(0)) / steps."""
    return (statistics.median(entry["chase_samples_s"]) - statistics.median(entry["empty_samples_s"])) / STEPS * 1e9


def test_one_entry_per_compute_unit_and_the_figures_are_theirs(tmp_path):
    out = tmp_path / "units.json"
    proc = run("link", "latency", "--backend", "opencl", *SMALL, "--json", out, env=THREE_UNITS, check=0)
    doc = load(out)
    assert doc["validated"] is True and doc["errors"] == {}
    units = doc["link_device"]["compute_units"]
    (rec,) = records(doc, "latency.chase_per_unit")
    p = rec["params"]
    assert p["unit"] == "work-group" and p["units_reported"] == units and p["units_found"] == units
    assert "OpenCL neither says which compute unit runs a work-group" in p["placement"]
    assert [e["unit"] for e in p["units"]] == list(range(units)) and p["unreached"] == []
    resolved = []
    for e in p["units"]:
        assert len(e["chase_samples_s"]) == len(e["empty_samples_s"]) == 3
        assert e["empty_chase_s"] == pytest.approx(statistics.median(e["empty_samples_s"]))
        assert e["resolved"] == (latency_ns(e) > 0)
        if e["resolved"]:
            assert e["latency_ns"] == pytest.approx(latency_ns(e))
            resolved.append((e["latency_ns"], e["unit"]))
        else:
            assert e["latency_ns"] is None  # below the clock's resolution: no figure, never 0 ns
    # samples: the resolved units' figures in seconds, in the units' order
    assert rec["samples"] == pytest.approx([ns * 1e-9 for ns, _ in resolved])
    lines = proc.stdout.splitlines()
    heading = next(i for i, line in enumerate(lines) if "chase from each work-group" in line)
    summary = lines[heading + 1]
    assert summary.startswith(f"{STEPS} dependent words from {units} work-groups: ")
    assert lines[heading + 2] == "", "one line, not one per unit"
    if not resolved:
        assert rec["figures"] == {} and "link.latency.chase_per_unit" not in doc["results"]
        return
    ns = [n for n, _ in resolved]
    f = rec["figures"]
    assert f["latency"]["value"] == pytest.approx(statistics.median(ns))
    assert f["latency"]["stat"] == "median" and f["latency_mean"]["stat"] == "mean"
    assert f["latency_mean"]["value"] == pytest.approx(statistics.mean(ns))
    assert f["latency_min"]["value"] == pytest.approx(min(ns)) and p["fastest_unit"] == min(resolved)[1]
    assert f["latency_max"]["value"] == pytest.approx(max(ns)) and p["slowest_unit"] == max(resolved)[1]
    assert doc["results"]["link.latency.chase_per_unit"]["value"] == pytest.approx(f["latency"]["value"])
    assert f"median {statistics.median(ns):.1f} ns per word" in summary


def test_the_host_backend_says_it_has_no_units_to_place_a_chase_on(tmp_path):
    out = tmp_path / "host.json"
    proc = run("link", "latency", "--backend", "host", *SMALL, "--json", out, check=0)
    assert "(link latency chase per unit skipped: the host backend has no units to place it on)" in proc.stdout
    doc = load(out)
    assert doc["validated"] is True and not records(doc, "latency.chase_per_unit")
    assert records(doc, "latency.chase"), "the chase from the one worker still runs"
