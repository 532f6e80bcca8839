"""The live progress line, seen in a real terminal (tmux): it shows on a
terminal for a run longer than two seconds, is gone when the run ends, and
is never drawn with stderr redirected or with --quiet."""

import shutil
import subprocess
import time
import uuid

import pytest

from conftest import binary_path

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (scripts/setup.sh installs it)")

# About 4 s: 12 sizes at 0.3 s each, well past the 2 s before the line shows.
SWEEP = "mem seq --sizes 1K:2M:x2 -k triad --point-time 0.3"
PROGRESS = "| mem seq Triad N="


class Terminal:
    """One tmux server of its own (its own socket), one 160x50 window."""

    def __init__(self, cwd):
        self.socket = f"movebench-test-{uuid.uuid4().hex[:8]}"
        self.cwd = cwd
        self.tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "50", "-c", str(cwd), "env PS1='$ ' bash --norc")

    def tmux(self, *args):
        return subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True, timeout=30, check=True)

    def type(self, line):
        self.tmux("send-keys", "-t", "t", line, "Enter")

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "t").stdout

    def watch(self, done, timeout=60):
        """Screens every 0.1 s until `done` shows; returns them all."""
        seen = []
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            seen.append(self.screen())
            if done in seen[-1]:
                return seen
            time.sleep(0.1)
        raise AssertionError(f"'{done}' never showed; last screen:\n{seen[-1]}")

    def close(self):
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def terminal(tmp_path):
    t = Terminal(tmp_path)
    yield t
    t.close()


def run_in(terminal, args, marker):
    terminal.type(f"{binary_path()} {args}; echo {marker} $?")
    return terminal.watch(f"{marker} 0")


def test_progress_line_on_a_terminal(terminal):
    screens = run_in(terminal, SWEEP, "END-TTY")
    live = [line for s in screens for line in s.splitlines() if PROGRESS in line]
    assert live, "no progress line while the sweep ran:\n" + screens[-1]
    # What runs, step i of n, elapsed, and (after the first step) what is left.
    assert any("/12 | 0:0" in line and "elapsed" in line for line in live), live
    assert any("left" in line for line in live), live
    # The line is erased at the end: the final screen has the table, not it.
    final = screens[-1]
    assert PROGRESS not in final, final
    assert "Solution Validates" in final
    rows = [line for line in final.splitlines() if line.strip().startswith(("1024 ", "2097152 "))]
    assert len(rows) == 2 and all("KiB" in r or "MiB" in r for r in rows), final


def test_no_progress_when_stderr_is_not_a_terminal(terminal, tmp_path):
    screens = run_in(terminal, f"{SWEEP} 2>{tmp_path}/stderr.txt", "END-REDIRECTED")
    assert not any(PROGRESS in s for s in screens)
    err = (tmp_path / "stderr.txt").read_text()
    assert "\r" not in err and "\x1b" not in err and "elapsed" not in err, repr(err)


@pytest.mark.parametrize("flag", ["--quiet", "-q"])  # -q was refused once (issue 20)
def test_no_progress_with_quiet(terminal, flag):
    screens = run_in(terminal, f"{SWEEP} {flag}", "END-QUIET")
    assert not any(PROGRESS in s or "elapsed" in s for s in screens)
    assert "Solution Validates" in screens[-1]


def test_suite_names_each_benchmark_with_its_place(suite_run):
    """Not on a terminal: no live line, but each benchmark's start says i of n.
    The run test_suite_mpi.py compares with (suite_run: measured once)."""
    proc, _ = suite_run("link", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "movebench run: link (1 of 1, 0:00 elapsed)" in proc.stderr
    assert "\r" not in proc.stderr and "\x1b" not in proc.stderr
