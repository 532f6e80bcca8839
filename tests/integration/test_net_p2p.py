"""movebench p2p under mpirun: OSU's table style, chosen ranks, checks."""

import re

import pytest
from net_mpi import assert_validation_skipped, env_args, load, movebench_errors, mpirun, needs_mpirun, ok
from step_naming import assert_named_by_the_rule, assert_printed

from movebench_report.steps import causes_of, step_causes

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


def _eager_run(tmp_path, name, env=None):
    """A short p2p latency sweep (1 KiB .. 64 KiB: seven sizes, a sweep) with ENV set for every rank."""
    out = tmp_path / f"{name}.json"
    launcher = [a for k, v in (env or {}).items() for a in env_args(k, v)]
    proc, _ = mpirun(2, *launcher, "p2p", "--tests", "latency", "-m", "1K:64K", "-i", "20", "-x", "2",
                     "--json", out, launcher_args=bool(launcher))  # fmt: skip
    ok(proc)
    return proc, load(out)


def test_the_eager_limit_read_through_mpi_t_follows_the_librarys_setting_and_names_its_step(tmp_path):
    """The eager limit MPI_T gives (mpi.eager_limits) is the library's own
    setting: set four times higher through the environment the library reads
    (Open MPI's OMPI_MCA_<variable>, MPICH's MPIR_CVAR_<variable> as named), it
    is read back so, and a step across it is named after it first (before a
    cache or the page size at the same distance). This short sweep (one size
    per octave) need not show the step (the next test sweeps densely for it);
    every step found is named by the rule."""
    _, doc = _eager_run(tmp_path, "default")
    limits = doc["mpi"]["eager_limits"]
    library = doc["mpi"]["library"]
    if "MPICH Device:" in library:
        device = library.split("MPICH Device:")[1].split()[0].lower()
        other = "_ch3_" if device.startswith("ch4") else "_ch4_"
        assert not any(other in e["name"].lower() for e in limits), "another device's variables are not this one's"
    if not limits:
        pytest.skip(f"this MPI has no eager limit readable through MPI_T ({library.splitlines()[0]})")
    # Open MPI's shared-memory transport's own limit where there is one (two ranks of one node use it).
    [first] = [e for e in limits if re.fullmatch(r"btl_(vader|sm)_eager_limit", e["name"])] or limits[:1]
    raised = 4 * first["bytes"]
    variable = first["name"] if first["name"].startswith("MPIR_CVAR_") else f"OMPI_MCA_{first['name']}"
    proc, moved = _eager_run(tmp_path, "raised", {variable: raised})
    assert {"name": first["name"], "bytes": raised} in moved["mpi"]["eager_limits"], moved["mpi"]["eager_limits"]
    [sweep] = [s for s in moved["steps"] if s["benchmark"] == "p2p" and s["figure"] == "latency"]
    assert_named_by_the_rule(moved, sweep)
    assert_printed(proc.stdout, sweep, "# ")
    # A step from half the raised limit up to it is named after it.
    fit = causes_of(raised / 2, raised, step_causes(moved, "p2p", False))
    assert fit[0].startswith(f"eager limit ({first['name']} = "), fit


def test_the_switch_at_the_shared_memory_eager_limit_is_found_and_named_after_it(tmp_path):
    """Above the eager limit a message waits for its receiver (a rendezvous:
    at least one more round trip before the data moves), so a latency sweep
    at two sizes per octave around the shared-memory transport's own limit
    (MPI_T's, as read) steps up where it sits, and the step found (on the
    mean, the swept figure) is named after that limit. On a shared machine a
    preempted point can hide it, so the ranks run ahead of other work (nice
    -20: beside two CPU hogs their round trips were scheduler slices, 2.7 ms,
    and the step fell elsewhere in three sweeps) and up to three sweeps."""
    _, doc = _eager_run(tmp_path, "limits")
    shared = [e for e in doc["mpi"]["eager_limits"] if re.fullmatch(r"btl_(vader|sm)_eager_limit", e["name"])]
    if not shared:
        pytest.skip(f"no shared-memory eager limit readable through MPI_T ({doc['mpi']['library'].splitlines()[0]})")
    limit = shared[0]["bytes"]
    sizes = ",".join(str(round(limit * 2 ** (i / 2))) for i in range(-8, 9))  # limit/16 .. 16 x limit
    for attempt in range(3):
        out = tmp_path / f"sweep{attempt}.json"
        proc, _ = mpirun(
            2, "p2p", "--tests", "latency", "-m", sizes, "-i", "200", "-x", "20", "--json", out, first=True
        )
        ok(proc)
        moved = load(out)
        [sweep] = [s for s in moved["steps"] if s["benchmark"] == "p2p" and s["figure"] == "latency"]
        at = [s for s in sweep["steps"] if s["size_before"] < limit <= s["size"]]
        if at:
            break
    assert at, f"no step across {limit} B in three sweeps: {sweep}"
    assert at[0]["ratio"] > 1 and at[0]["cause"].startswith(f"eager limit ({shared[0]['name']} = "), at[0]
    assert_named_by_the_rule(moved, sweep)
