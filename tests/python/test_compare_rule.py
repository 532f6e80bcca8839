"""The compare rule on the fixtures the C++ side is tested on too
(tests/data/compare_rule.json; tests/unit/test_compare_rule.cpp): one rule in
two languages, so a change to either that the other does not follow fails."""

import json
import math
from types import SimpleNamespace

import pytest

from conftest import REPO
from movebench_report.compare import judge
from movebench_report.model import sample_spread

FIXTURES = json.loads((REPO / "tests" / "data" / "compare_rule.json").read_text())


@pytest.mark.parametrize("case", FIXTURES["noise"], ids=lambda c: c["why"])
def test_the_noise_of_samples(case):
    got = sample_spread(case["samples"], case["best_of"])
    if case["noise"] is None:
        assert got is None
    else:
        assert got == pytest.approx(case["noise"], abs=1e-12)


@pytest.mark.parametrize("case", FIXTURES["judge"], ids=lambda c: c["why"])
def test_the_verdict_of_two_figures(case):
    a = SimpleNamespace(value=case["a"], spread=case["noise_a"])
    b = SimpleNamespace(value=case["b"], spread=case["noise_b"])
    view = "bandwidth" if case["higher_is_better"] else "latency"
    ratio, verdict = judge(a, b, view, case["threshold"])
    assert verdict == case["verdict"]
    expected = math.inf if case["ratio"] == "inf" else case["ratio"]
    assert ratio == pytest.approx(expected)
