"""What the sweep-step tests hold every recorded step to (docs/results.md,
"Steps"): the naming rule, through the report's mirror of judge/steps
(python/movebench_report/steps.py, held equal to the binary's by
tests/python/test_report_steps.py), and the lines under the tables."""

import pytest

from movebench_report.steps import causes_of, goes_to_the_end, step_causes


def assert_named_by_the_rule(doc, sweep, huge_pages=False):
    """Each step's cause is the nearest cause of the document's facts that fits
    its span (the first that fits where two steps were made one; a last
    level's share only for a step most of the way to where the sweep ends),
    the others that fit are `also`; a step none fits is "unexplained"."""
    causes = step_causes(doc, sweep["benchmark"], huge_pages)
    end = sweep["steps"][-1]["to"] if sweep["steps"] else 1.0
    for s in sweep["steps"]:
        fit = causes_of(s["size_before"], s["size"], causes, goes_to_the_end(s, end))
        if s["cause"] == "unexplained":
            assert fit == [], s
        else:
            assert s["cause"] in fit and set(s["also"]) <= set(fit), s
        assert s["size_before"] < s["size"] and s["ratio"] == pytest.approx(s["to"] / s["from"], rel=1e-6)


def assert_printed(stdout, sweep, prefix=""):
    memory = f", {sweep['memory']} host memory" if "memory" in sweep else ""
    heading = f"{prefix}steps of {sweep['benchmark']} {sweep['operation']} {sweep['figure']}{memory} ("
    assert heading in stdout, stdout
    for s in sweep["steps"]:
        assert s["cause"] in stdout[stdout.index(heading) :]


def two_per_octave(low: int, top: int) -> list:
    """low up to top at powers of two and half way between (mem latency's own default grid)."""
    sizes, p = [], low
    while p <= top:
        sizes.append(p)
        if p * 3 // 2 <= top:
            sizes.append(p * 3 // 2)
        p *= 2
    return sizes
