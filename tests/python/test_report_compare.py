"""`compare`: ratio B/A with the noise of both, and the exit code CI gates on."""

import json

from reportkit import edited, png_size, report, report_json, results, scale_timings


def verdicts(*args):
    rows = report_json("compare", *args, expect=(0, 3))["rows"]
    return {(r["operation"], r["bytes"]): r["verdict"] for r in rows}


def test_a_run_against_itself_is_never_slower():
    a = results()["a"]
    code, out, err = report("compare", a, a)
    assert code == 0, err
    rows = report_json("compare", a, a)["rows"]  # exit 0 asserted inside
    assert len(rows) == 8 and all(r["B/A"] == 1.0 and r["verdict"] in ("~", "") for r in rows)


def steady(tmp_path, name="a"):
    return edited(results()[name], tmp_path / f"{name}.json", scale_timings(1.0))


def test_twice_as_slow_exits_3_and_is_marked(tmp_path):
    slow = edited(results()["a"], tmp_path / "slow.json", scale_timings(2.0))
    code, out, _ = report("compare", steady(tmp_path), slow, "--threshold", "0.1")
    assert code == 3
    assert "SLOWER" in out
    rows = report_json("compare", steady(tmp_path), slow, expect=(3,))["rows"]
    assert all(abs(r["B/A"] - 0.5) < 1e-9 and r["verdict"] == "SLOWER" for r in rows)


def test_faster_b_passes(tmp_path):
    fast = edited(results()["a"], tmp_path / "fast.json", scale_timings(0.5))
    code, out, _ = report("compare", steady(tmp_path), fast)
    assert code == 0 and "faster" in out and "SLOWER" not in out


def test_a_slow_down_under_the_threshold_passes(tmp_path):
    slower = edited(results()["a"], tmp_path / "slower.json", scale_timings(1.04))
    code, out, _ = report("compare", steady(tmp_path), slower, "--threshold", "0.05")
    assert code == 0 and "SLOWER" not in out


def test_a_small_difference_inside_the_noise_is_marked(tmp_path):
    def noisy(factor):
        def change(doc):
            for rec in doc["timings"]:
                rec["samples"] = [1.0, 1.2, 1.4, 1.6, 1.8]  # +-20 % around the median
                rec["figures"]["bandwidth"]["value"] = 1000.0 * factor

        return change

    a = edited(results()["a"], tmp_path / "na.json", noisy(1.0))
    b = edited(results()["a"], tmp_path / "nb.json", noisy(0.9))  # 10 % slower, inside 2 x 11 % noise
    code, _, _ = report("compare", a, b, "--threshold", "0.05")
    assert code == 0
    assert set(verdicts(a, b).values()) == {"~"}


def test_latency_view_smaller_is_better(tmp_path):
    slow = edited(results()["lat"], tmp_path / "slowlat.json", scale_timings(3.0))
    code, out, _ = report("compare", steady(tmp_path, "lat"), slow, "--view", "latency")
    assert code == 3 and "SLOWER" in out
    code, _, _ = report("compare", slow, steady(tmp_path, "lat"), "--view", "latency")
    assert code == 0


def test_data_groups_like_crunch(tmp_path):
    slow1 = edited(results()["a"], tmp_path / "s1.json", scale_timings(2.0))
    slow2 = edited(results()["a"], tmp_path / "s2.json", scale_timings(2.1))
    old2 = edited(results()["a"], tmp_path / "o2.json", scale_timings(1.02))
    code, out, err = report("compare", "-data", "OLD", steady(tmp_path), old2, "-data", "NEW", slow1, slow2)
    assert code == 3, err
    assert "OLD [MB/s]" in out and "NEW [MB/s]" in out


def test_ratio_plot(tmp_path):
    out = tmp_path / "ratio.png"
    code, _, err = report("compare", results()["a"], results()["b"], "--plot", out)
    assert code in (0, 3), err
    assert png_size(out) == (700, 420)


def test_nothing_in_common_is_exit_2():
    code, _, err = report("compare", results()["a"], results()["lat"])
    assert code == 2 and "share no operation" in err and len(err.strip().splitlines()) == 1


def test_compare_needs_two_data_sets():
    code, _, err = report("compare", results()["a"])
    assert code == 2 and "two data sets" in err


def test_table_json_is_plain_json():
    rows = report_json("compare", results()["a"], results()["b"], expect=(0, 3))["rows"]
    json.dumps(rows)  # numbers and strings only
    assert {"B/A", "verdict", "a ±%", "b ±%"} <= rows[0].keys()
