"""The report tool's answers to the hostile inputs issue 11 names, one by
one (the fuzz tests in test_report_fuzz.py look for more): exit 2 and one
line naming the file or the option, never a traceback; standard JSON out."""

import json
import os
import pathlib
import tempfile

import pytest

from reportkit import DATA, report, results


def one_line(code, err, name):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(name) in lines[0], err
    assert "Traceback" not in err and "internal error" not in err
    return lines[0]


@pytest.fixture
def folder():
    return pathlib.Path(tempfile.mkdtemp(prefix="movebench-report-hostile-"))


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" + "0" * 400, "NaN", "Infinity"])
def test_out_of_range_number_in_a_result(folder, number):
    text = results()["a"].read_text()
    doc = json.loads(text)
    value = json.dumps(doc["timings"][0]["samples"][0])
    path = folder / "r.json"
    path.write_text(text.replace(value, number, 1))
    for cmd in (["table"], ["scaling"], ["compare", results()["b"]]):
        line = one_line(*report(*cmd, path)[::2], path)
        assert "number out of range" in line or "not valid JSON" in line


@pytest.mark.parametrize(
    "text", ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000, "[" * 100000 + "]" * 100000]
)
def test_deep_nesting(folder, text):
    path = folder / "deep.json"
    path.write_text(text)
    assert "nested deeper" in one_line(*report("table", path)[::2], path)


def test_wrong_types_in_parameters(folder):
    doc = json.loads(results()["scale"].read_text())
    doc["timings"][0]["params"]["threads"] = {"a": 1}
    path = folder / "types.json"
    path.write_text(json.dumps(doc))
    assert "params/threads" in one_line(*report("scaling", path)[::2], path)


def test_lone_surrogate_is_refused(folder):
    doc = json.loads(results()["a"].read_text())
    doc["host"]["hostname"] = "\ud800"
    path = folder / "surrogate.json"
    path.write_text(json.dumps(doc))
    assert "not Unicode" in one_line(*report("table", path)[::2], path)


@pytest.mark.parametrize("fmt", ["osu", "imb", "hpcc-beff", "stream", "nvbandwidth"])
def test_format_forced_on_an_mpibench_file(fmt):
    path = DATA / "mpibench-cart.txt"
    one_line(*report("import", "--format", fmt, path)[::2], path)


@pytest.mark.parametrize(
    "sample,number",
    [
        ("osu_bibw.txt", "1e400"),
        ("imb-alltoall-np4.txt", "9" * 400),
        ("bwbench-4t.txt", "1e400"),
        ("mpibench-cart.txt", "1e400"),
    ],
)
def test_import_never_writes_infinity(folder, sample, number):
    text = (DATA / sample).read_text()
    lines = text.splitlines(keepends=True)
    # the last number of the last line with one: a figure, in every format here
    for i in range(len(lines) - 1, -1, -1):
        words = lines[i].split()
        nums = [w for w in words if w.replace(".", "", 1).isdigit() and "." in w]
        if nums:
            lines[i] = lines[i].replace(nums[-1], number, 1)
            break
    path = folder / sample
    path.write_text("".join(lines))
    assert "out of range" in one_line(*report("import", path)[::2], path)


def test_fifo_and_devices_are_not_read(folder):
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    for path in (fifo, pathlib.Path("/dev/zero"), folder):
        assert "not a regular file" in one_line(*report("table", path)[::2], path) or path == folder


def test_a_file_past_the_size_bound_is_not_read(folder):
    path = folder / "sparse.json"
    with open(path, "wb") as f:
        f.truncate(4 * 2**30)  # holes: no disk used
    assert "larger than" in one_line(*report("table", path)[::2], path)


@pytest.mark.parametrize(
    "args,option",
    [
        (["plot", "{a}", "--dpi", "20000", "-o", "{f}/p.png"], "--dpi"),
        (["plot", "{a}", "--dpi", "0", "-o", "{f}/p.png"], "--dpi"),
        (["compare", "{a}", "{a}", "--threshold", "nan"], "--threshold"),
        (["compare", "{a}", "{a}", "--threshold", "-1"], "--threshold"),
        (["table", "{a}", "-o", "{f}/no/such/t.txt"], "-o"),
        (["table", "{a}", "-o", "{f}"], "-o"),
        (["table", "{a}", "-o", "/dev/full"], "-o"),
        (["html", "{a}", "-o", "/proc/version"], "-o"),
        (["compare", "{a}", "{a}", "--plot", "{f}/no/r.png"], "--plot"),
        (["import", DATA / "osu_bibw.txt", "--outdir", "{a}"], "--outdir"),
        (["table", "{a}", "--sizes", "99999999999999999999999T"], "--sizes"),
        (["scaling", "{a}", "--size", "1e400"], "--size"),
        (["table", "{a}", "--figure", "nonexistent"], "--figure"),
    ],
)
def test_bad_arguments(folder, args, option):
    args = [str(a).format(a=results()["a"], f=folder) for a in args]
    one_line(*report(*args)[::2], option)


def test_a_line_break_in_a_named_key_stays_on_one_line(folder):
    # Found by the fuzz test: a results key holding a line break was named in
    # the error, which then took two lines.
    doc = json.loads(results()["a"].read_text())
    doc["results"] = {"\n": {"value": 1e31, "unit": "MB/s"}}
    path = folder / "r.json"
    path.write_text(json.dumps(doc))
    line = one_line(*report("table", path)[::2], path)
    assert "number out of range" in line and "\\n" in line


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" + "0" * 400, "99999999999999999999999"])
def test_hpcc_mpi_facts_are_checked_like_the_rest(folder, number):
    """The b_eff importer copied the dump's `mpi` object after the document
    was checked: 1e400 was an internal error, a huge integer was written."""
    doc = json.loads((DATA / "hpcc-beff.json").read_text())
    assert "mpi" in doc and "version" in doc["mpi"]
    text = json.dumps(doc).replace(f'"version": {json.dumps(doc["mpi"]["version"])}', f'"version": {number}', 1)
    path = folder / "hpcc.json"
    path.write_text(text)
    out = folder / "out.json"
    line = one_line(*report("import", path, "-o", out)[::2], path)
    assert "number out of range" in line and "mpi/version" in line
    assert not out.exists()


def test_compare_with_one_data_set_names_it():
    path = results()["a"]
    one_line(*report("compare", path)[::2], path)


def test_a_fifo_as_output_is_refused_not_waited_on(folder):
    """-o at a FIFO blocked the tool for ever (found by the battery)."""
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    for cmd in (["table"], ["compare", results()["b"]], ["html"]):
        line = one_line(*report(*cmd, results()["a"], "-o", fifo)[::2], "-o")
        assert "not a regular file" in line


@pytest.mark.parametrize(
    "args, option",
    [
        (["table", "--figure", "", "{a}"], "--figure"),
        (["table", "-b", "", "{a}"], "-b"),
        (["table", "--op", "", "{a}"], "--op"),
        (["table", "--op", "triad,", "{a}"], "--op"),
        (["scaling", "--by", "", "{a}"], "--by"),
        # found by the CLI battery rebuilt on 2026-11-23 (Intel): all exit 0 before
        (["html", "--title", "", "{a}"], "--title"),
        (["table", "--data", "", "{a}"], "empty data-set name"),
        (["table", "-data", " ", "{a}"], "empty data-set name"),
        (["scaling", "--figure", "bogus", "{a}"], "--figure"),
    ],
)
def test_empty_names_are_refused(args, option):
    args = [str(results()["a"]) if a == "{a}" else a for a in args]
    one_line(*report(*args)[::2], option)


def test_an_empty_outdir_is_refused():
    one_line(*report("import", "--outdir", "", DATA / "osu_bibw.txt")[::2], "--outdir")


def test_a_trailing_slash_names_a_folder_not_a_file(folder):
    # "-o DIR/new.json/" wrote DIR/new.json (pathlib drops the slash).
    target = pathlib.Path(folder) / "new.json"
    line = one_line(*report("table", results()["a"], "-o", f"{target}/")[::2], "-o")
    assert "is a folder" in line and not target.exists()


def test_html_and_table_show_hostile_facts_and_verdicts_as_text(folder):
    """Issue 19: the summary, the node picture and the plots take strings
    from the facts layer too (CPU model, device and NIC names, verdict
    reasons, paths): each is escaped, in the page and in the SVG inside it."""
    from reportkit import edited, with_facts

    evil = "<svg onload=alert(1)><script>x</script>&amp;"

    def change(doc):
        doc["host"]["hostname"] = evil
        doc["host"]["cpu_model"] = evil
        doc["facts"]["pcie"][0]["name"] = evil
        doc["facts"]["nics"][0]["name"] = evil
        doc["facts"]["dram"]["faults"][0]["text"] = evil
        doc["facts"]["warnings"] = [evil]
        doc["verdicts"][0]["reasons"] = [evil]
        doc["verdicts"][1]["path"] = evil
        doc["timings"][0]["operation"] = evil

    real = pathlib.Path(__file__).parents[1] / "data" / "results" / "v2" / "mem.json"  # committed, real
    path = edited(with_facts(real, folder / "f.json"), folder / "evil.json", change)
    out = folder / "evil.html"
    code, _, err = report("html", path, "-o", out)
    assert code == 0, err
    html = out.read_text()
    assert "<script>x" not in html and "<svg onload" not in html and "&amp;amp;" in html
    assert html.count("&lt;svg onload=alert(1)&gt;") >= 6
    code, text, err = report("table", path)
    assert code == 0 and evil in text  # text output is text: shown as it is
