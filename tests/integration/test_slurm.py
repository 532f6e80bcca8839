"""movebench under a real Slurm (one node on this machine, slurm_cluster.py):
srun of coll, p2p and beff, and the sbatch script of docs/slurm.md. Runs
against the build named by MOVEBENCH_BIN and MOVEBENCH_MPI_FAMILY (make test
runs it for the Open MPI build and the MPICH one)."""

import subprocess

import pytest
import slurm_cluster
from net_mpi import MPI_FAMILY, built_with_mpi, load

from conftest import REPO, binary_path

# The process-management interface each Debian MPI speaks under srun
# (`srun --mpi=list` offers pmix and pmi2): Open MPI 4.1 was built against
# PMIx only, MPICH 4.0 has its own PMI-2 client and no PMIx.
SRUN_MPI = {"openmpi": "pmix", "mpich": "pmi2"}[MPI_FAMILY]
WRONG_MPI = {"openmpi": "pmi2", "mpich": "pmix"}[MPI_FAMILY]
SBATCH_SCRIPT = REPO / "docs" / "slurm" / "movebench.sbatch"

pytestmark = pytest.mark.skipif(slurm_cluster.missing() is not None, reason=str(slurm_cluster.missing()))


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    if not built_with_mpi():
        pytest.fail("this movebench was built without MPI")
    with slurm_cluster.cluster(tmp_path_factory.mktemp("slurm")) as env:
        yield env


def srun_per_rank_dirs(slurm, tmp_path, args, mpi=SRUN_MPI, timeout=180):
    """`srun -n 2 movebench ARGS --json out.json`, each rank in its own folder
    (tmp_path/<rank>), so a file written by any rank but 0 shows."""
    for rank in ("0", "1"):
        (tmp_path / rank).mkdir()
    # Each task changes into the folder named by its own rank, then becomes movebench.
    shell = 'cd "$SLURM_PROCID" && exec "$@"'
    cmd = [
        "srun",
        f"--mpi={mpi}",
        "-n",
        "2",
        "--kill-on-bad-exit=1",
        "--time=5",
        f"--chdir={tmp_path}",
        "sh",
        "-c",
        shell,
        "sh",
        str(binary_path()),
        *map(str, args),
        "--json",
        "out.json",
    ]
    return subprocess.run(cmd, env=slurm, capture_output=True, text=True, timeout=timeout)


def ok(proc):
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"


@pytest.mark.parametrize(
    "args, benchmark",
    [
        (["coll", "-e", "1K", "-i", "20", "Allreduce", "Bcast", "Alltoall"], "coll"),
        (["p2p", "-m", "1,1K,64K", "-i", "50", "-x", "5"], "p2p"),
        (
            [
                "beff",
                "--max-size",
                "8K",
                "--random-patterns",
                "2",
                "--repetitions",
                "2",
                "--loop-length",
                "50",
                "-u",
                "64",
                "-l",
                "8",
                "-o",
                "4",
                "-d",
                "2",
                "-m",
                "10",
                "-n",
                "2",
            ],
            "beff",
        ),
    ],
    ids=["coll", "p2p", "beff"],
)
def test_srun_two_ranks_rank_0_alone_writes(slurm, tmp_path, args, benchmark):
    proc = srun_per_rank_dirs(slurm, tmp_path, args)
    ok(proc)
    assert not (tmp_path / "1" / "out.json").exists(), "rank 1 wrote a result file"
    doc = load(tmp_path / "0" / "out.json")
    mpi = doc["mpi"]
    assert mpi["ranks"] == 2 and mpi["launcher"] == "yes" and mpi["family"] == MPI_FAMILY
    assert ("Open MPI" if MPI_FAMILY == "openmpi" else "MPICH") in mpi["library"]
    assert doc["validated"] is True and doc["complete"] is True
    timings = [t for t in doc["timings"] if t["benchmark"] == benchmark]
    assert timings and all(s > 0 for t in timings for s in t["samples"])


def test_srun_with_the_other_pmi_fails_without_a_result(slurm, tmp_path):
    """An MPI that does not speak srun's --mpi plugin would start two jobs of
    one rank each; movebench must refuse, not measure each rank against itself."""
    proc = srun_per_rank_dirs(slurm, tmp_path, ["coll", "-e", "64", "-i", "2", "Bcast"], mpi=WRONG_MPI, timeout=120)
    assert proc.returncode != 0
    assert not (tmp_path / "1" / "out.json").exists()
    if MPI_FAMILY == "mpich":
        # MPICH starts as a singleton: movebench's own check speaks, and
        # nothing was measured, so no file is left (exit 2: a set-up error).
        assert "the launcher started 2 processes but MPI sees a job of 1" in proc.stderr, proc.stderr
        assert not (tmp_path / "0" / "out.json").exists()
    else:
        # Open MPI ends the process inside MPI_Init (exit 1); what the exit
        # keeps says that nothing was measured.
        out = tmp_path / "0" / "out.json"
        if out.exists():
            doc = load(out)
            assert doc["complete"] is False and doc["validated"] is False and not doc["timings"]


def test_sbatch_script_of_the_docs_writes_one_result_file(slurm, tmp_path):
    env = dict(slurm, MOVEBENCH=str(binary_path()), MOVEBENCH_SRUN_MPI=SRUN_MPI)
    proc = subprocess.run(
        [
            "sbatch",
            "--wait",
            "--ntasks=2",
            f"--chdir={tmp_path}",
            "--output=job-%j.out",
            str(SBATCH_SCRIPT),
            "--only",
            "coll,p2p",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    job_out = "".join(p.read_text() for p in tmp_path.glob("job-*.out"))
    assert proc.returncode == 0, f"sbatch exit {proc.returncode}\n{proc.stderr}\njob output:\n{job_out}"
    job_id = proc.stdout.split()[-1]
    results = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in results] == [f"movebench-{job_id}.json"], "one result file per job"
    doc = load(results[0])
    assert {"coll", "p2p"} <= {t["benchmark"] for t in doc["timings"]}
    assert doc["mpi"]["ranks"] == 2 and doc["validated"] is True
    assert job_out.count("==== movebench run: summary ====") == 1, "rank 0 speaks for the job"
    assert "validation: PASSED" in job_out


def test_sbatch_script_fails_when_movebench_fails(slurm, tmp_path):
    """The job's exit code is movebench's: a bad option is exit 2 and no result."""
    env = dict(slurm, MOVEBENCH=str(binary_path()), MOVEBENCH_SRUN_MPI=SRUN_MPI)
    proc = subprocess.run(
        [
            "sbatch",
            "--wait",
            "--ntasks=2",
            f"--chdir={tmp_path}",
            "--output=job.out",
            str(SBATCH_SCRIPT),
            "--only",
            "nosuchbenchmark",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr + (tmp_path / "job.out").read_text()
    assert "unknown benchmark 'nosuchbenchmark'" in (tmp_path / "job.out").read_text()
    assert not list(tmp_path.glob("*.json"))
