"""movebench p2p under mpirun: OSU's table style, chosen ranks, checks."""

import re

import pytest
from net_mpi import assert_validation_skipped, load, movebench_errors, mpirun, needs_mpirun, ok

pytestmark = needs_mpirun
OSU_ROW = re.compile(r"^(\d+) *(\d+\.\d\d)$")


def tables(stdout):
    """{header line: [(size, value)]} in the order printed."""
    out, current = {}, None
    for line in stdout.splitlines():
        if line.startswith("# Size"):
            current = out.setdefault(f"{len(out)}:{line}", [])
        elif current is not None and OSU_ROW.match(line):
            m = OSU_ROW.match(line)
            assert line == f"{m[1]:<10}{m[2]:>18}"  # OSU's %-10d%18.2f
            current.append((int(m[1]), float(m[2])))
    return out


def test_latency_bw_bibw_in_osu_style(tmp_path):
    out = tmp_path / "p2p.json"
    proc, _ = mpirun(2, "p2p", "-m", "1,1K,64K", "-i", "50", "-x", "5", "--json", out)
    ok(proc)
    t = tables(proc.stdout)
    assert list(t) == [
        "0:# Size       Avg Latency(us)",
        "1:# Size      Bandwidth (MB/s)",
        "2:# Size      Bandwidth (MB/s)",
    ]
    assert all([s for s, _ in rows] == [1, 1024, 65536] for rows in t.values())
    # Printed with two decimals (a 1-byte bandwidth on a loaded machine can print 0.00);
    # the JSON has the full values.
    assert all(v >= 0 for rows in t.values() for _, v in rows)
    doc = load(out)
    assert all(f["value"] > 0 for r in doc["timings"] for f in r["figures"].values())
    assert doc["validated"] is True
    lat = [r for r in doc["timings"] if r["operation"] == "latency"]
    # one-way latency = loop seconds / (2 * iterations), printed in us as OSU, recorded in ns
    assert lat[0]["figures"]["latency"]["value"] == pytest.approx(lat[0]["samples"][0] * 1e9 / 100, rel=1e-9)
    assert lat[0]["figures"]["latency"]["value"] == pytest.approx(
        t["0:# Size       Avg Latency(us)"][0][1] * 1e3, abs=5
    )
    assert doc["results"]["p2p.latency"]["unit"] == "ns"


def test_chosen_ranks_among_three():
    proc, _ = mpirun(3, "p2p", "--ranks", "2,0", "--tests", "latency", "-m", "8", "-i", "20")
    ok(proc)
    assert "ranks 2 and 0" in proc.stdout


def test_an_explicit_negative_warm_up_is_refused():
    """-x -1 was silently OSU's default warm-up (as -i 0 was its default count)."""
    proc, _ = mpirun(2, "p2p", "-m", "1", "-i", "1", "--tests", "latency", "-x", "-1")
    assert proc.returncode == 2
    errors = movebench_errors(proc.stderr, "p2p")
    assert len(errors) == 1 and "invalid -x '-1'" in errors[0], proc.stderr


def test_ranks_beyond_the_job_exit_2_and_leave_no_file(tmp_path):
    out = tmp_path / "p2p.json"
    proc, _ = mpirun(2, "p2p", "--ranks", "0,5", "-m", "8", "-i", "2", "--json", out)
    assert proc.returncode == 2
    errors = movebench_errors(proc.stderr, "p2p")
    assert len(errors) == 1 and "needs at least 6 ranks, this job has 2" in errors[0], proc.stderr
    assert not out.exists()  # a usage error measured nothing: no result file (it used to be left)


def test_wrong_byte_fails():
    proc, _ = mpirun(2, "p2p", "--tests", "bw", "-m", "8", "-i", "2", "--fail-for-test", "corrupt")
    assert proc.returncode == 1


def test_skip_validation_records_the_skip_with_its_reason(tmp_path):
    out = tmp_path / "skip.json"
    proc, _ = mpirun(2, "p2p", "-m", "1,1K", "-i", "10", "-x", "2", "--skip-validation", "--json", out)
    doc = assert_validation_skipped(proc, out, "p2p", "--skip-validation")
    assert doc["settings"]["p2p"]["validation"] == "none" and doc["timings"]
