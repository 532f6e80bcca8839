"""What the side-by-side scripts in bench/ share: one run of a tool, bounded
and recorded (its command in commands.txt, its output in raw/), the order of
a round's runs (rotated by one every round, so no tool always runs first or
right after another), and the summary of a figure over rounds."""

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
from pathlib import Path


class Failed(Exception):
    """One run that failed or printed no figure: recorded, the comparison goes on."""


class OneLineParser(argparse.ArgumentParser):
    """Bad input is one line on stderr and exit status 2 (the project's rule),
    not argparse's usage block before the error."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def run_job(job, args, prog):
    """Makes the output folder (one that cannot be made is bad input: one
    line, exit 2) and runs the job; a write that fails on the way is one
    line and exit 1, not a traceback."""
    try:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"{prog}: error: --out '{args.out}': {e.strerror}", file=sys.stderr)
        return 2
    try:
        return job(args).go()
    except OSError as e:
        print(f"{prog}: error: writing the results in {args.out}: {e}", file=sys.stderr)
        return 1


def positive(text):
    """argparse type: a count of 1 or more."""
    if not re.fullmatch(r"[1-9][0-9]*", text):
        raise argparse.ArgumentTypeError(f"must be a positive integer, got '{text}'")
    return int(text)


def load_average():
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def stats(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "runs": len(xs), "samples": xs}


def rotated(units, round_index):
    """A round's runs: the same list, started one further along each round."""
    return [units[(i + round_index) % len(units)] for i in range(len(units))]


class Runner:
    """Runs commands with a time bound, keeping each output in OUT/raw/NAME and
    each command line in OUT/commands.txt."""

    def __init__(self, out, timeout, env=None):
        self.out = Path(out)
        self.timeout = timeout
        self.env = dict(env if env is not None else os.environ)
        (self.out / "raw").mkdir(parents=True, exist_ok=True)
        self.commands = open(self.out / "commands.txt", "w")

    def run(self, name, command, env_extra=None):
        env = dict(self.env, **(env_extra or {}))
        prefix = "".join(f"{k}={v} " for k, v in (env_extra or {}).items())
        self.commands.write(f"{prefix}{shlex.join(command)}\n")
        self.commands.flush()
        try:
            # A tool may print bytes that are not UTF-8: kept, replaced, never a traceback.
            p = subprocess.run(
                command,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
                timeout=self.timeout,
            )
        except subprocess.TimeoutExpired as e:
            out = e.stdout or ""
            (self.out / "raw" / name).write_text(out if isinstance(out, str) else out.decode(errors="replace"))
            raise Failed(f"timed out after {self.timeout} s") from None
        except OSError as e:
            raise Failed(f"could not start {command[0]}: {e.strerror}") from None
        (self.out / "raw" / name).write_text(p.stdout)
        if p.returncode != 0:
            raise Failed(f"exit status {p.returncode}: {p.stdout.strip().splitlines()[-1:]}")
        return p.stdout
