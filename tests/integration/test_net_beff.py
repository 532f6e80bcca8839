"""movebench beff under mpirun: both definitions, odd rank counts, checks."""

import re

import pytest
from net_mpi import assert_validation_skipped, load, movebench_errors, mpirun, needs_mpirun, ok

pytestmark = needs_mpirun
SMALL_HPCC = ["--max-size", "8K", "--random-patterns", "2", "--repetitions", "2", "--loop-length", "50"]
# --time-budget 0: HPCC FPGA's fixed loop lengths, the schedule uncut (the default cuts them to 5 ms).
SMALL_FPGA = ["-u", "64", "-l", "8", "-o", "4", "-d", "2", "-m", "10", "-n", "2", "--time-budget", "0"]
ROW = re.compile(r"^ {0,19}(\d+)   +(\d+)   +(\S+e[-+]\d+)   +(\S+e[-+]\d+)$")


def fpga_rows(stdout):
    lines = stdout.splitlines()
    head = next(i for i, l in enumerate(lines) if l.split() == ["MSize", "looplength", "transfer", "B/s"])
    rows = []
    for line in lines[head + 1 :]:
        m = ROW.match(line)
        if not m:
            break
        rows.append((int(m[1]), int(m[2]), float(m[3]), float(m[4])))
    return rows


def test_both_definitions_labelled_with_json(tmp_path):
    out = tmp_path / "beff.json"
    proc, _ = mpirun(2, "beff", *SMALL_HPCC, *SMALL_FPGA, "--json", out)
    ok(proc)
    assert "# b_eff, HPCC definition (Rabenseifner), 2 ranks, L_max 8192 B" in proc.stdout
    assert "# b_eff, HPCC FPGA definition, 2 ranks" in proc.stdout
    hpcc = re.search(r"^b_eff \(HPCC\) = (\S+) B/s = (\S+) B/s per process \(2 ranks\)$", proc.stdout, re.M)
    fpga = re.search(r"^b_eff = (\S+) B/s$", proc.stdout, re.M)
    assert hpcc and fpga
    assert float(hpcc[2]) == pytest.approx(float(hpcc[1]) / 2, rel=1e-4)
    assert "ping-pong ranks 0-1: latency (1 B)" in proc.stdout
    rows = fpga_rows(proc.stdout)
    assert [r[0] for r in rows] == [2**e for e in range(11)]
    # HPCC FPGA's schedule: 64 up to 2^4, then less by (64-8)/2 = 28 a step, never below 8.
    assert [r[1] for r in rows] == [64] * 5 + [36, 8, 8, 8, 8, 8]
    mean = sum(r[3] for r in rows) / len(rows)
    assert float(fpga[1]) == pytest.approx(mean, rel=1e-4)
    doc = load(out)
    assert doc["validated"] is True
    res = doc["results"]
    assert res["beff.hpcc.b_eff"]["value"] == pytest.approx(float(hpcc[1]), rel=1e-4)
    assert res["beff.fpga.b_eff"]["value"] == pytest.approx(float(fpga[1]), rel=1e-4)
    hpcc_records = [t for t in doc["timings"] if t["operation"] == "hpcc"]
    # 21 sizes would need L_max above 4 KiB: 13 + 8 steps to 8K (some equal sizes merge)
    patterns = {t["params"]["pattern"] for t in hpcc_records}
    assert patterns == {"ring-2", "random-1", "random-2"}
    # b_eff = geometric mean of the ring and random averages
    ring, rnd = res["beff.hpcc.ring_average"]["value"], res["beff.hpcc.random_average"]["value"]
    assert res["beff.hpcc.b_eff"]["value"] == pytest.approx((ring * rnd) ** 0.5, rel=1e-9)


def test_three_ranks_fpga_bandwidth_formula():
    proc, _ = mpirun(3, "beff", "--definition", "fpga", *SMALL_FPGA)
    ok(proc)
    rows = fpga_rows(proc.stdout)
    assert rows
    for size, ll, seconds, bw in rows:
        # ranks * 2 channels * size * loop length / the slowest rank's best time
        assert bw == pytest.approx(3 * 2 * size * ll / seconds, rel=1e-3)


def test_four_ranks_hpcc_rings_of_two_and_four(tmp_path):
    out = tmp_path / "b4.json"
    proc, _ = mpirun(4, "beff", "--definition", "hpcc", *SMALL_HPCC[2:], "--max-size", "64", "--json", out)
    ok(proc)
    doc = load(out)
    assert {t["params"]["pattern"] for t in doc["timings"]} == {"ring-2", "ring-4", "random-1", "random-2"}
    assert doc["validated"] is True


def test_wrong_byte_fails(tmp_path):
    out = tmp_path / "bad.json"
    proc, _ = mpirun(2, "beff", "--definition", "fpga", *SMALL_FPGA, "--fail-for-test", "corrupt", "--json", out)
    assert proc.returncode == 1
    assert any("validation failed" in l for l in movebench_errors(proc.stderr, "beff"))
    assert load(out)["validated"] is False


def test_test_mode_prints_the_schedule_only():
    proc, _ = mpirun(2, "beff", "--test")
    ok(proc)
    assert "transfer" not in proc.stdout and "b_eff =" not in proc.stdout
    lengths = [int(l.split()[1]) for l in proc.stdout.splitlines() if re.match(r"^ +\d+ +\d+$", l)]
    assert lengths[0] == 65536 and lengths[12] == 56211 and lengths[-1] == 256  # HPCC FPGA's defaults


def test_time_budget_bounds_the_fpga_loop_lengths(tmp_path):
    """The default run once ran past 400 s on a busy 2-core VM, HPCC FPGA's 65536
    exchanges a loop with 10 repetitions (issue 20): a tiny --time-budget keeps
    every size at least one exchange and few, and every repetition."""
    out = tmp_path / "budget.json"
    proc, _ = mpirun(
        2, "beff", "--definition", "fpga", "-m", "12", "-n", "3", "--time-budget", "0.00001", "--json", out
    )
    ok(proc)
    doc = load(out)
    assert doc["settings"]["beff"]["time_budget_s"] == 0.00001
    fpga = [t for t in doc["timings"] if t["operation"] == "fpga"]
    assert len(fpga) == 13
    for t in fpga:
        assert 1 <= t["params"]["looplength"] <= 100 < t["params"]["scheduled_looplength"], t["params"]
        assert len(t["samples"]) == 3
    rows = fpga_rows(proc.stdout)
    assert [r[1] for r in rows] == [t["params"]["looplength"] for t in fpga]


def test_help_states_the_default_budget_and_its_cost():
    """What --help says the default run costs (docs/beff.md has the figures)."""
    proc, _ = mpirun(1, "beff", "--help")
    budget = re.search(r"--time-budget,--target-time FLOAT=([\d.]+)", proc.stdout)
    assert budget and float(budget[1]) == 0.005, proc.stdout
    assert re.search(r"0: fpga's schedule uncut", proc.stdout), proc.stdout
    assert re.search(r"The default run \(2 ranks, both definitions\) took \d+ s", proc.stdout), proc.stdout


def test_time_budget_zero_keeps_the_upstream_schedule(tmp_path):
    out = tmp_path / "zero.json"
    ok(
        mpirun(
            2,
            "beff",
            "--definition",
            "fpga",
            "-u",
            "300",
            "-l",
            "20",
            "-m",
            "4",
            "-n",
            "1",
            "--time-budget",
            "0",
            "--json",
            out,
        )[0]
    )
    fpga = [t for t in load(out)["timings"] if t["operation"] == "fpga"]
    assert [t["params"]["looplength"] for t in fpga] == [300] * 5


@pytest.mark.parametrize(
    "args, words", [(["-l", "10", "-u", "5"], "-l is above -u"), (["--definition", "nope"], "definition")]
)
def test_bad_options_exit_2_with_one_line(args, words):
    proc, _ = mpirun(2, "beff", *args)
    assert proc.returncode == 2
    errors = movebench_errors(proc.stderr, "beff")
    assert len(errors) == 1 and words in errors[0]


def test_parse_errors_too_come_from_rank_0_only():
    proc, _ = mpirun(2, "beff", "--max-size", "1K", "--max-size", "2K")
    assert proc.returncode == 2
    assert len(movebench_errors(proc.stderr, "beff")) == 1


def test_skip_validation_records_the_skip_with_its_reason(tmp_path):
    out = tmp_path / "skip.json"
    proc, _ = mpirun(2, "beff", "--definition", "fpga", *SMALL_FPGA, "--skip-validation", "--json", out)
    doc = assert_validation_skipped(proc, out, "beff", "--skip-validation")
    assert doc["settings"]["beff"]["validation"] == "none" and doc["timings"]
