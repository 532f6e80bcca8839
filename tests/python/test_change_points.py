"""The binary's change-point segmentation (src/core/change_points) is PELT's
answer: ruptures, the report tool's change-point library, finds the same
boundaries on the fixtures the C++ side is tested on (tests/data/change_points.json;
tests/unit/test_change_points.cpp). A change to either that the other does
not follow fails."""

import json

import numpy as np
import pytest
import ruptures

from conftest import REPO

FIXTURES = json.loads((REPO / "tests" / "data" / "change_points.json").read_text())


@pytest.mark.parametrize("case", FIXTURES["cases"], ids=lambda c: c["why"])
def test_ruptures_finds_the_fixture_boundaries(case):
    signal = np.array(case["y"]).reshape(-1, 1)
    found = ruptures.Pelt(model="l2", min_size=1, jump=1).fit(signal).predict(pen=case["penalty"])
    assert found[:-1] == case["bounds"]
