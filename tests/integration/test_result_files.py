"""Result files that cannot lie or be hijacked (docs/reliability.md, "Result files").

A full disk or a read-only folder is an error with its reason and a
non-zero exit, the last complete file stays, no temporary file is left;
a symlink planted at the target or at a temporary name is never followed;
SIGKILL leaves no temporary file behind.
"""

import contextlib
import json
import os
import signal
import subprocess
import time

import pytest

from conftest import binary_path, run_movebench

# A sweep that adds a few hundred records in a second or two.
SWEEP = ["mem", "seq", "--sizes", "1K:400K:+1K", "--point-time", "0.0005", "--samples", "1", "-k", "copy"]


@contextlib.contextmanager
def small_tmpfs(path, size):
    """A tmpfs of `size` at `path` (root only); skips where mounting is not allowed."""
    path.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(folder, leave_bytes):
    """Fills the file system of `folder` up to `leave_bytes` free."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    with open(folder / "filler", "wb") as f:
        f.write(b"\0" * max(0, free - leave_bytes))


def test_full_disk_mid_run_keeps_the_last_file_and_fails(tmp_path):
    with small_tmpfs(tmp_path / "fs", "1M") as fs:
        fill(fs, 96 * 1024)  # room for the first checkpoints, not for the whole sweep
        out = fs / "out.json"
        proc = run_movebench(*SWEEP, "--outdir", tmp_path / "dat", "--json", out, cwd=tmp_path)
        assert proc.returncode not in (0, 2), proc.stderr
        errors = [l for l in proc.stderr.splitlines() if "cannot write the result file" in l]
        assert len(errors) == 1, proc.stderr
        assert "No space left on device" in errors[0]
        doc = json.loads(out.read_text())  # the last complete file, whole
        assert doc["complete"] is False
        assert sorted(p.name for p in fs.iterdir()) == ["filler", "out.json"]


def test_full_disk_at_start_is_a_usage_error_with_the_reason(tmp_path):
    with small_tmpfs(tmp_path / "fs", "256k") as fs:
        fill(fs, 0)
        proc = run_movebench("mem", "-n", "1K", "--json", fs / "out.json", cwd=tmp_path)
        assert proc.returncode == 2
        assert proc.stderr.count("\n") == 1 and "No space left on device" in proc.stderr, proc.stderr
        assert sorted(p.name for p in fs.iterdir()) == ["filler"]


def test_read_only_folder_is_a_usage_error_with_the_reason(tmp_path):
    with small_tmpfs(tmp_path / "fs", "256k") as fs:
        subprocess.run(["mount", "-o", "remount,ro", str(fs)], check=True)
        proc = run_movebench("mem", "-n", "1K", "--json", fs / "out.json", cwd=tmp_path)
        assert proc.returncode == 2
        assert proc.stderr.count("\n") == 1 and "Read-only file system" in proc.stderr, proc.stderr


def test_planted_symlinks_are_never_followed(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (tmp_path / "out.json.tmp").symlink_to(victim)  # the temporary name main used
    (tmp_path / "link.json").symlink_to(victim)
    run_movebench("mem", "-n", "1K", "-r", "2", "--json", tmp_path / "out.json", cwd=tmp_path, check=0)
    run_movebench("mem", "-n", "1K", "-r", "2", "--json", tmp_path / "link.json", cwd=tmp_path, check=0)
    assert victim.read_text() == "precious"
    assert not (tmp_path / "link.json").is_symlink()
    assert json.loads((tmp_path / "link.json").read_text())["complete"] is True
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "out.json", "out.json.tmp", "victim"]


def test_sigkill_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "out.json"
    for delay in (0.3, 0.5, 0.7, 0.9, 1.1):
        proc = subprocess.Popen(
            [str(binary_path()), *SWEEP, "--outdir", str(tmp_path / "dat"), "--json", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=tmp_path,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        json.loads(out.read_text())  # whatever checkpoint it reached, whole
        assert sorted(p.name for p in tmp_path.iterdir()) == ["dat", "out.json"], delay
