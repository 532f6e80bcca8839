"""movebench fleet on one machine modelling a fleet (--per rank): a rank
slowed by a cgroup CPU quota is named and no other; a link slowed by tc
between network namespaces is named as its pair, no node; nothing slowed names
nothing; the result document; bad input; under the tests' real Slurm.
Open MPI and MPICH (MOVEBENCH_MPI_FAMILY), as the other MPI tests."""

import functools
import json
import os
import re
import subprocess
import time

import cgroup_quota
import netns
import pytest
from net_mpi import MPI_FAMILY, MPIRUN, ROOT_ENV, built_with_mpi, load, needs_mpirun

from conftest import binary_path

pytestmark = needs_mpirun

# Small and short: two cores shared by every test and build on the machine.
# Their load comes and goes within milliseconds and moves one unit's memory
# bandwidth by up to 3x here (measured: 2300 to 8000 MB/s between the four
# ranks of a calm run), so the floor is raised from the 10% default to 75%:
# the quota'd rank is 10 to 20 times slower and still stands out.
SMALL = [
    "--array-bytes",
    "16M",
    "--chase-bytes",
    "4M",
    "--repetitions",
    "9",
    "--outlier-floor",
    "75%",
    "--message-bytes",
    "64K",
    "--latency-iterations",
    "20000",
    "--bandwidth-iterations",
    "50",
    "--timeout",
    "120",
    # The pairs' turns together (src/fleet/fleet_logic.hpp, pair_counts):
    # each turn has 2.2 s, and 20000 ping-pongs of 1 to 5 us (at a load of
    # 8 from other work) take 0.02 to 0.1 s of a repeat's 0.37; beside
    # two CPU hogs a round trip took 3 ms and 20000 of them outlasted the
    # 120 s watchdog (docs/reliability.md, session 14): there each repeat
    # runs what fits its share, and the result says how many.
    "--time-budget",
    "20",
]
SLOW_RANK = 2
# The quota'd rank (cgroup_quota.py says what a quota guarantees). fleet
# runs each memory round at least kMemRoundSeconds on each of the unit's
# threads, sized by CPU time (src/fleet/fleet_options.hpp): ROUND_CPU of
# CPU, stopped whenever it has used the allowance measured here, so each of
# its rounds lasts at least (ROUND_CPU - allowance) / share. Its share is
# set BELOW times under the least share of a CPU a thread, free or pinned,
# gets on this machine right before the run: its peers, measured in the
# same turns under the same load, run their rounds BELOW x (1 - allowance
# / ROUND_CPU) times faster or more, as far as the load is a share of the
# CPUs. It is not only that: a team's two threads are pinned, each call
# waits for both, and a pinned thread waits for its CPU up to 50 to 70 ms
# at load 19 here (measured), so its peers' calls of 1.2 ms took 12 to 60
# ms; BELOW is 16, not 8, for that. Not asserted: the latency. The chase
# retakes a sample that saw a context switch (src/mem/latency.cpp), so a
# sample that fits between two stops is kept and reads the memory, not the
# quota.
BELOW = 16
ROUND_CPU_PER_THREAD = 0.03  # kMemRoundSeconds
# The quota'd rank needs its CPU over the quota's share, BELOW times as long
# as its peers or more: three rounds, not nine (its best of three is as
# slow), and memory only (a ping-pong with it advances only while both
# ranks are on a CPU at once: at load 20 a pairs' warm-up of SMALL's 20000
# round trips outlasted its 120 s --timeout; its pairs, when measured, are
# blamed on it as a node named by its memory: tests/unit/test_fleet_logic.cpp
# and fleet_verdict). The rule by the floor alone (k 0), as the slowed
# link's test below: with 4 units k x MAD exceeds the median itself once
# the calm units' best rounds spread by more than about 14% (1.4826 x 5 x
# MAD), and a bandwidth cannot be worse than the median by more than the
# median (a run at load 20: copy 2697, 2337 and 29510 MB/s, the quota'd
# rank 86, named by nothing at k 5). What is asserted is the bandwidths:
# the latency is named or not by the load (a calm unit's chase read 16 to
# 18 ns in one run and 420 ns in the next at load 18, its ring in cache or
# not), which no floor that names a 4x bandwidth keeps out.
BANDWIDTHS = ("mem.copy", "mem.triad")
SLOWED = [
    *SMALL[: SMALL.index("--repetitions") + 1],
    "3",
    *SMALL[SMALL.index("--repetitions") + 2 : SMALL.index("--outlier-floor") + 1],
    "75%",
    *SMALL[SMALL.index("--outlier-floor") + 2 :],
    "--outlier-k",
    "0",
    "--skip-pairs",
]
# Not yet reliable under a heavy load (issue 28, docs/reliability.md, "Tests
# that slow a unit on any CPU"): at load 18 to 20 on this 2-core machine the
# calm units' calls, whose two pinned threads each wait up to 50 to 70 ms for
# their CPU, take 10 to 50 times their quiet time, more than the quota's
# share below the load's predicts, and the quota'd rank stood out by 5x to
# 30x. They run and pytest reports XFAIL or XPASS (`--runxfail` shows the
# failure); a failure does not fail make test.
QUOTA_NOT_YET_UNDER_LOAD = pytest.mark.xfail(
    strict=False,
    reason="the load on a shared machine can slow the calm units as much as the quota (issue 28, docs/reliability.md)",
)


def unit_threads():
    """The threads fleet gives a unit (--per rank, unbound: every allowed CPU)."""
    return len(os.sched_getaffinity(0))


@functools.cache
def measured_allowance():
    """The most CPU a unit's threads get between two stops of a quota
    (measured once per session), checked small beside a round's CPU."""
    threads = unit_threads()
    allowance = cgroup_quota.allowance(threads)
    round_cpu = ROUND_CPU_PER_THREAD * threads
    assert allowance <= round_cpu / 4, (
        f"a quota here lets {allowance * 1e3:.1f} ms of CPU run between stops, over a quarter of a memory "
        f"round's {round_cpu * 1e3:.0f} ms: a round would not be slowed {BELOW}x"
    )
    return allowance


def slow_quota(earlier=1.0):
    """The quota for the slowed rank: the least per period, BELOW times
    under the load's share now or `earlier` (cgroup_quota.below_the_load)."""
    measured_allowance()
    return cgroup_quota.below_the_load(unit_threads(), BELOW, earlier)


DRAIN = re.compile(
    r'^scontrol update nodename=(\S+) state=drain reason="movebench: (\S+) (\S+) (\S+) vs median (\S+) (\S+)"$'
)


def fleet_job(tmp_path, np, *args, slow_procs=None):
    """The command line and environment of a fleet job of `np` ranks (rank
    SLOW_RANK moved into the cgroup of `slow_procs`, when given)."""
    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    cmd = [MPIRUN, "-np", str(np)]
    if MPI_FAMILY == "openmpi":
        cmd += ["--oversubscribe", "--bind-to", "none"]
    cmd += [str(cgroup_quota.rank_wrapper(tmp_path, binary_path())), "fleet", *map(str, args)]
    env = dict(os.environ, **ROOT_ENV, SLOW_RANK=str(SLOW_RANK))
    if slow_procs:
        env["SLOW_PROCS"] = str(slow_procs)
        # Open MPI passes only OMPI_* and what -x names; hydra passes all.
        if MPI_FAMILY == "openmpi":
            cmd[1:1] = ["-x", "SLOW_PROCS", "-x", "SLOW_RANK"]
    return cmd, env


def fleet(tmp_path, np, *args, slow_procs=None, timeout=240):
    cmd, env = fleet_job(tmp_path, np, *args, slow_procs=slow_procs)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def named(doc):
    """The ranks the outliers name as nodes, and the pairs named as links."""
    nodes = {o["rank"] for o in doc["outliers"] if o["kind"] == "node"}
    links = {tuple(o["pair"]["ranks"]) for o in doc["outliers"] if o["kind"] == "link"}
    return nodes, links


def again_in_text(stdout):
    """The units the text says were measured again (--per rank: unit = rank)."""
    lines = [l for l in stdout.splitlines() if l.startswith("# measured again after the pairs")]
    assert len(lines) <= 1, stdout
    return [int(u) for u in lines[0].split(": unit ")[1].split()] if lines else []


def report(proc):
    return f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"


@pytest.mark.skipif(cgroup_quota.missing() is not None, reason=str(cgroup_quota.missing()))
@QUOTA_NOT_YET_UNDER_LOAD
def test_a_rank_slowed_by_a_cpu_quota_is_named_and_no_other(tmp_path):
    out = tmp_path / "fleet.json"
    share, period_us = slow_quota()
    with cgroup_quota.quota(share, period_us) as procs:
        proc = fleet(tmp_path, 4, "--per", "rank", *SLOWED, "--fail-on-outlier", "--json", out, slow_procs=procs)
    why = f"quota {share:.2%} of a CPU per {period_us} us\n" + report(proc)
    assert proc.returncode == 1, why  # --fail-on-outlier: an outlier was named
    doc = load(out)
    by_bandwidth = {o["rank"] for o in doc["outliers"] if o["kind"] == "node" and o["figure"] in BANDWIDTHS}
    assert by_bandwidth == {SLOW_RANK}, why
    slow = [o for o in doc["outliers"] if o["rank"] == SLOW_RANK]
    # Named by both bandwidths, which every round of it shows.
    assert set(BANDWIDTHS) <= {o["figure"] for o in slow}, why
    for o in slow:
        assert o["worse_by"] > 0.1 and o["value"] != o["median"] and o["host"]
    # The text ends with the outliers, then one drain line for the slow node's host.
    lines = proc.stdout.strip().splitlines()
    drains = [l for l in lines if l.startswith("scontrol ")]
    assert len(drains) == 1 and DRAIN.match(drains[0]), proc.stdout
    assert DRAIN.match(drains[0])[1] == slow[0]["host"]
    assert lines[-1] == drains[0]
    assert sum(l.startswith("OUTLIER node ") and f" rank {SLOW_RANK}:" in l for l in lines) == len(slow)
    # Suspect after the first pass, it was measured again, slow again.
    again = [u["rank"] for u in doc["fleet"]["units"] if u.get("measured_again")]
    assert SLOW_RANK in again, report(proc)
    assert SLOW_RANK in again_in_text(proc.stdout), proc.stdout


def fleet_lifting_the_quota(tmp_path, out, procs, when):
    """fleet() as a running job: the quota comes off as soon as rank 0's
    file says a step after the memory rounds began (one whose name starts
    with one of `when`; fleet.in_progress, written as each step begins),
    or anything later."""
    cmd, env = fleet_job(tmp_path, 4, "--per", "rank", *SLOWED, "--fail-on-outlier", "--json", out, slow_procs=procs)
    job = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lifted_at = None
    deadline = time.monotonic() + 240
    while job.poll() is None and lifted_at is None and time.monotonic() < deadline:
        try:
            step = json.loads(out.read_text())["fleet"].get("in_progress", "")
        except (OSError, ValueError, KeyError, TypeError):
            step = ""
        if step.startswith(when) or "(suspects again)" in step or step == "facts":
            cgroup_quota.lift(procs)
            lifted_at = step
        time.sleep(0.05)
    try:
        stdout, stderr = job.communicate(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        job.kill()
        stdout, stderr = job.communicate()
    return subprocess.CompletedProcess(cmd, job.returncode, stdout, stderr), lifted_at


@pytest.mark.skipif(cgroup_quota.missing() is not None, reason=str(cgroup_quota.missing()))
@QUOTA_NOT_YET_UNDER_LOAD
def test_a_rank_slowed_in_the_first_pass_only_is_measured_again_and_not_named(tmp_path):
    """A burst of other work on one node during the memory pass (here: rank
    2 under a CPU quota far below the load's share through the memory
    rounds, lifted as the latency samples begin) makes it a suspect; it is
    measured again (after the pairs, when there are pairs), fast by then,
    and named by no bandwidth (nor is any other unit; the latency is the
    load's, SLOWED says why). The lift must land before the second pass: the
    latency samples and the check, a few hundred ms at least, against the
    test's 50 ms polls."""
    out = tmp_path / "fleet.json"
    with cgroup_quota.quota(*slow_quota()) as procs:
        proc, lifted_at = fleet_lifting_the_quota(tmp_path, out, procs, ("latency sample", "memory check"))
    assert lifted_at, "the quota was never lifted: " + report(proc)
    assert "again" not in lifted_at and lifted_at != "facts", f"lifted too late, at {lifted_at!r}: " + report(proc)
    doc = load(out)
    why = f"lifted at {lifted_at!r}\n" + report(proc)
    assert doc["complete"] is True and proc.returncode == (1 if doc["outliers"] else 0), why
    assert not [o for o in doc["outliers"] if o["figure"] in BANDWIDTHS], why
    units = {u["rank"]: u for u in doc["fleet"]["units"]}
    assert units[SLOW_RANK].get("measured_again") is True, report(proc)
    assert SLOW_RANK in again_in_text(proc.stdout), proc.stdout
    # Every round of both passes is in its records: twice the repetitions.
    triad = [t for t in doc["timings"] if t["operation"] == "triad" and t["params"]["rank"] == SLOW_RANK]
    assert len(triad) == 1 and len(triad[0]["samples"]) == 2 * int(SLOWED[SLOWED.index("--repetitions") + 1]), triad


def named_things(doc):
    """What a run named: (node, rank, figure) and (link, ranks, figure)."""
    return {
        (o["kind"], o["rank"] if o["kind"] == "node" else tuple(o["pair"]["ranks"]), o["figure"])
        for o in doc["outliers"]
    }


def test_nothing_slowed_names_nothing_on_five_runs(tmp_path):
    """Nothing slowed: five runs, and noise is not a slow node. On these two
    shared cores a calm run names something now and then (docs/fleet.md,
    "Open": under MPICH on 2026-11-27, 2 of 16 calm runs in four `make
    test`s: a unit's chase latency 185% worse with the binary before the
    memory suspects were measured again, a pair's latency 0.58 against
    0.10 us, slow in its three measurements at once). What is slow is slow in
    every run, noise moves from run to run: the test fails when a node or
    link is named in two runs in a row, or when four of the five name
    anything (a rule that names noise names it in most runs). A run that
    names nothing says so in full (exit 0, `outliers: 0`, no drain line)."""
    named = []
    for run in range(5):
        out = tmp_path / f"calm{run}.json"
        proc = fleet(tmp_path, 4, "--per", "rank", *SMALL, "--fail-on-outlier", "--json", out)
        doc = load(out)
        assert doc["complete"] is True and "outliers" in doc, f"run {run}: the job did not end: " + report(proc)
        named.append(named_things(doc))
        if named[-1]:
            assert proc.returncode == 1, f"run {run}: --fail-on-outlier with an outlier named: " + report(proc)
        else:
            assert proc.returncode == 0, f"run {run}: " + report(proc)
            assert "outliers: 0" in proc.stdout and "scontrol" not in proc.stdout, f"run {run}: " + report(proc)
        if run > 0:
            assert not named[-1] & named[-2], f"runs {run - 1} and {run} both name {named[-1] & named[-2]}: " + report(
                proc
            )
    assert sum(bool(n) for n in named) < 4, f"four or more of five calm runs named something: {named}"


def test_the_result_holds_every_unit_pair_and_the_whole(tmp_path):
    out = tmp_path / "fleet.json"
    proc = fleet(tmp_path, 4, "--per", "rank", *SMALL, "--json", out)
    assert proc.returncode == 0, report(proc)
    doc = load(out)
    fleet_doc = doc["fleet"]
    assert fleet_doc["per"] == "rank"
    assert [u["rank"] for u in fleet_doc["units"]] == [0, 1, 2, 3]
    assert all(
        u["host"] and u["figures"]["mem.triad"] > 0 and u["figures"]["mem.latency"] > 0 for u in fleet_doc["units"]
    )
    # Each unit's machine, as its rank's facts layer reads it.
    assert all(u["facts"]["cpu"]["model"] and u["facts"]["cpu"]["model"] != "unknown" for u in fleet_doc["units"])
    # Four units: the ring's two rounds and the one matching left: all six pairs, once each.
    pairs = sorted(tuple(p["units"]) for p in fleet_doc["pairs"])
    assert pairs == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert all(p["figures"]["p2p.bw"] > 0 and p["figures"]["p2p.latency"] > 0 for p in fleet_doc["pairs"])
    whole = fleet_doc["whole"]
    triads = [u["figures"]["mem.triad"] for u in fleet_doc["units"]]
    assert whole["mem.triad"]["sum"] == pytest.approx(sum(triads))
    assert whole["mem.triad"]["min"] == min(triads) and whole["mem.triad"]["max"] == max(triads)
    assert whole["bisection"]["pairs"] == 2 and whole["bisection"]["total"] > 0
    # What each pair ran: as asked, or fewer where --time-budget cut it,
    # and then the text says so; each record's seconds with its count.
    asked = [int(SMALL[SMALL.index(o) + 1]) for o in ("--latency-iterations", "--bandwidth-iterations")]
    ran = [[p["latency_iterations"], p["bandwidth_iterations"]] for p in fleet_doc["pairs"]]
    assert all(10 <= t <= asked[0] and 1 <= w <= asked[1] for t, w in ran), ran
    if any(r != asked for r in ran):
        assert "# cut to fit --time-budget: " in proc.stdout, proc.stdout
    iters = {
        (t["operation"], tuple(t["params"]["units"])): t["params"]["iters"]
        for t in doc["timings"]
        if "units" in t["params"]
    }
    assert [
        [iters["pair_latency", tuple(p["units"])], iters["pair_bw", tuple(p["units"])]] for p in fleet_doc["pairs"]
    ] == ran
    assert {"fleet.mem.triad.sum", "fleet.bisection"} <= set(doc["results"])
    assert doc["validated"] is True and doc["complete"] is True
    assert {t["operation"] for t in doc["timings"]} == {
        "copy",
        "triad",
        "latency",
        "pair_latency",
        "pair_bw",
        "bisection_pair",
    }


def with_values(args, values):
    """`args` with each option of `values` given its value there instead."""
    out = list(args)
    for name, value in values.items():
        out[out.index(name) + 1] = value
    return out


def test_a_time_budget_too_small_cuts_every_pair_and_says_so(tmp_path):
    """A --time-budget far under anything a ping-pong or a window takes: each
    pair's repeat runs the fewest that still time something (10 ping-pongs,
    one window; src/fleet/fleet_logic.hpp, pair_counts), whatever the CPU.
    The result says what each pair ran, its records hold it, its figures
    are of it, and the text says the pairs were cut."""
    out = tmp_path / "fleet.json"
    small = {"--array-bytes": "1M", "--chase-bytes": "64K", "--repetitions": "1", "--time-budget": "0.000001"}
    proc = fleet(tmp_path, 4, "--per", "rank", *with_values(SMALL, small), "--json", out)
    assert proc.returncode == 0, report(proc)
    doc = load(out)
    pairs = doc["fleet"]["pairs"]
    assert len(pairs) == 6 and all(p["latency_iterations"] == 10 and p["bandwidth_iterations"] == 1 for p in pairs)
    assert (
        "# cut to fit --time-budget: 6 of 6 pairs ran fewer ping-pongs than the 20000 asked (fewest 10); 8 of 8 pairs "
        "and bisection pairs fewer windows than the 50 asked (fewest 1)\n"
    ) in proc.stdout
    message = 64 * 1024
    for t in doc["timings"]:
        if t["operation"] == "pair_latency":
            assert t["params"]["iters"] == 10
            assert t["figures"]["latency"]["value"] == pytest.approx(t["samples"][0] / 20 * 1e9, rel=1e-6), t
        if t["operation"] in ("pair_bw", "bisection_pair"):
            assert t["params"]["iters"] == 1 and t["params"]["window"] == 16
            both = 2 if t["operation"] == "bisection_pair" else 1
            rate = both * message * 16 / t["samples"][0] / 1e6  # MB/s
            assert t["figures"]["bandwidth"]["value"] == pytest.approx(rate, rel=1e-6), t


def test_per_host_is_one_unit_on_one_machine(tmp_path):
    out = tmp_path / "fleet.json"
    proc = fleet(tmp_path, 2, *SMALL, "--json", out)
    assert proc.returncode == 0, report(proc)
    doc = load(out)
    assert doc["fleet"]["per"] == "host"
    assert len(doc["fleet"]["units"]) == 1 and doc["fleet"]["units"][0]["ranks"] == [0, 1]
    assert doc["fleet"]["pairs"] == [] and doc["outliers"] == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--per", "node"], "invalid --per 'node': host or rank"),
        (["--outlier-floor", "ten"], "invalid --outlier-floor 'ten'"),
        (["--outlier-k", "-1"], "invalid --outlier-k '-1'"),
        (["--rounds", "-2"], "invalid --rounds '-2'"),
        (["--repetitions", "0"], "invalid --repetitions '0'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    proc = fleet(tmp_path, 2, *args, timeout=60)
    assert proc.returncode == 2, report(proc)
    mine = [l for l in proc.stderr.splitlines() if l.startswith("movebench fleet: ")]
    assert len(mine) == 1 and message in mine[0], proc.stderr


@pytest.mark.skipif(
    __import__("slurm_cluster").missing() is not None, reason=str(__import__("slurm_cluster").missing())
)
def test_srun_four_ranks_under_real_slurm(tmp_path_factory, tmp_path):
    import slurm_cluster

    if not built_with_mpi():
        pytest.skip("this movebench was built without MPI")
    srun_mpi = {"openmpi": "pmix", "mpich": "pmi2"}[MPI_FAMILY]  # as test_slurm.py
    with slurm_cluster.cluster(tmp_path_factory.mktemp("slurm")) as env:
        # -O: four tasks on a node of two CPUs. -O alone allocates the job one
        # CPU (overcommit: cpus per task per node, not per task) and
        # task/affinity keeps every task on it even with --cpu-bind=none; -c
        # with the node's CPUs gives them all. On one CPU a ping-pong costs a
        # scheduler time slice per message while the peer spins in its
        # progress loop: 12 ms a round trip measured with MPICH (which never
        # yields), so the 20000 of the first pair never ended. Unbound, and
        # Open MPI told to yield when idle, as mpirun --oversubscribe tells it.
        env = dict(env, OMPI_MCA_mpi_yield_when_idle="1")
        cmd = [
            "srun",
            f"--mpi={srun_mpi}",
            "-n",
            "4",
            "-O",
            "-c",
            str(os.cpu_count() or 1),
            "--cpu-bind=none",
            "--kill-on-bad-exit=1",
            "--time=5",
            f"--chdir={tmp_path}",
            str(binary_path()),
            "fleet",
            "--per",
            "rank",
            *SMALL,
            "--json",
            "out.json",
        ]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, report(proc)
    doc = load(tmp_path / "out.json")
    assert doc["mpi"]["ranks"] == 4 and doc["mpi"]["launcher"] == "yes" and doc["mpi"]["family"] == MPI_FAMILY
    assert [u["rank"] for u in doc["fleet"]["units"]] == [0, 1, 2, 3]
    assert len(doc["fleet"]["pairs"]) == 6 and doc["validated"] is True


# Four hosts (network namespaces, one rank each) joined by one veth pair
# per two hosts (tests/integration/netns.py); the link between hosts 1 and 2
# is limited by tc tbf. Its pair must be named as a link, and no node:
# hosts 1 and 2 have two other pairs each, at full speed. Over TCP at a
# load of 15 on two cores the unslowed pairs spread from 344 to 3165 MB/s
# (one run: a MAD of 516 MB/s around a median of 822), and the four "hosts"
# measure their memory at once on two cores (triad 572 to 18842 MB/s), so
# k x MAD would hide even a 100x slower link and the 75% floor names
# contended memory (a node named by its memory takes the blame for its slow
# pairs): k = 0 and a 97% floor, a pair is named under 3% of the median
# bandwidth, and only if it stays there when measured again. What the load
# leaves the pairs is measured first (LINK_CALM: the ring's four pairs, the
# one to be slowed among them) and the link's rate set to RATE_SHARE of the
# slowest of them: beside two CPU hogs the unslowed pairs' median fell to
# 118 MB/s and a fixed 50 Mbit/s (6 MB/s) link was no longer under 3% of it
# (docs/reliability.md, session 14). 16 KiB messages (windows of 256 KiB),
# a burst of a quarter of a window and a small memory part (not asserted),
# so that the slowed pair's windows take about a second at the slowest rate
# and the test seconds.
LINK = [
    "--array-bytes",
    "4M",
    "--chase-bytes",
    "1M",
    "--repetitions",
    "3",
    "--message-bytes",
    "16K",
    "--latency-iterations",
    "1000",
    "--bandwidth-iterations",
    "4",
    "--timeout",
    "120",
    "--time-budget",
    "10",
    "--outlier-k",
    "0",
    "--outlier-floor",
    "97%",
]
LINK_CALM = [
    *LINK[LINK.index("--message-bytes") :],
    *("--array-bytes", "1M", "--chase-bytes", "64K", "--repetitions", "1", "--rounds", "0"),
]
# A third of the 3% the floor names against the median, and against the
# slowest unslowed pair, not the median; at least 1 Mbit/s.
RATE_SHARE = 0.01
LEAST_RATE_KBIT = 1000


def link_rate_kbit(hosts, tmp_path):
    """RATE_SHARE of the slowest pair's bandwidth in a calm run now, in kbit/s."""
    proc = hosts.mpirun(1, "fleet", "--per", "host", *LINK_CALM, "--json", tmp_path / "calm.json", timeout=120)
    assert proc.returncode == 0, report(proc)
    pairs = load(tmp_path / "calm.json")["fleet"]["pairs"]
    assert len(pairs) == 4 and [1, 2] in [p["units"] for p in pairs], report(proc)
    slowest_mbs = min(p["figures"]["p2p.bw"] for p in pairs)
    return max(LEAST_RATE_KBIT, int(slowest_mbs * 8e3 * RATE_SHARE)), slowest_mbs


@pytest.mark.skipif(netns.missing() is not None, reason=str(netns.missing()))
def test_a_link_slowed_by_tc_is_named_as_its_pair_and_no_node(tmp_path):
    with netns.hosts(4, tmp_path) as hosts:
        rate_kbit, calm_mbs = link_rate_kbit(hosts, tmp_path)
        hosts.slow_link(1, 2, f"{rate_kbit}kbit", burst="64kb")
        proc = hosts.mpirun(1, "fleet", "--per", "host", *LINK, "--json", tmp_path / "fleet.json", timeout=180)
    why = f"link at {rate_kbit} kbit/s, the slowest calm pair {calm_mbs:.0f} MB/s\n" + report(proc)
    assert proc.returncode == 0, why
    doc = load(tmp_path / "fleet.json")
    assert [u["host"] for u in doc["fleet"]["units"]] == ["mbhost1", "mbhost2", "mbhost3", "mbhost4"]
    # The four "hosts" share two cores for their memory figures (measured at
    # once, as hosts are): those may name any of them. The pairs' bandwidth
    # must name the one link and no node. Not asserted: the latency, which
    # tbf does not slow and the load may (beside two CPU hogs a pair's best
    # 8-byte ping-pong read 18 to 70 us, and a host two of whose three
    # pairs read over 1.97 times the median was named by p2p.latency).
    by_bw = [o for o in doc["outliers"] if o["figure"] == "p2p.bw"]
    assert len(by_bw) == 1 and by_bw[0]["kind"] == "link", why
    assert by_bw[0]["pair"]["ranks"] == [1, 2] and by_bw[0]["pair"]["hosts"] == ["mbhost2", "mbhost3"]
    slow = next(p for p in doc["fleet"]["pairs"] if p["units"] == [1, 2])
    others = [p["figures"]["p2p.bw"] for p in doc["fleet"]["pairs"] if p["units"] != [1, 2]]
    assert slow["figures"]["p2p.bw"] * 5 < min(others), why
    lines = proc.stdout.splitlines()
    assert sum(l.startswith("OUTLIER link host mbhost2 rank 1 <-> host mbhost3 rank 2: p2p.bw ") for l in lines) == 1
    assert not any(l.startswith("OUTLIER node ") and ": p2p.bw " in l for l in lines), proc.stdout
