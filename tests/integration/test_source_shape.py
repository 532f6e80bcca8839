"""The shape the code keeps (issues 20 and 28; docs/architecture.md): no
function over 60 lines in the C++ and CUDA sources, the unit tests, and the
Python (the report tool, the bench scripts, the tests, contrib). Measured by
lizard (PyPI), which counts a function's lines from its signature to its
closing brace (C++) or its last line (Python). A .cu file is read as C++
(lizard knows no CUDA by its extension; the kernels' launch syntax sits in
the host functions' bodies, which it counts as lines all the same). Python
is measured as `ruff format` lays it out (ruff.toml), which puts each
argument of a call that does not fit 120 columns on its own line, and has the
same bound as C++; a test's table of cases goes in a constant, not in the
function's body."""

import pathlib

import lizard

from conftest import REPO

MOST_LINES = 60
CXX = (".cpp", ".hpp", ".cu")
PYTHON_FOLDERS = ("python", "bench", "tests", "contrib")


def measured(path: pathlib.Path) -> list:
    """lizard's functions of one file; a .cu file is read as C++."""
    name = str(path.with_suffix(".cpp")) if path.suffix == ".cu" else str(path)
    return lizard.analyze_file.analyze_source_code(name, path.read_text()).function_list


def sources():
    for folder in ("src", "tests/unit", "bench"):
        yield from (p for p in sorted((REPO / folder).rglob("*")) if p.suffix in CXX)
    for folder in PYTHON_FOLDERS:
        yield from (p for p in sorted((REPO / folder).rglob("*.py")) if ".venv" not in p.parts)


def functions():
    for path in sources():
        for fn in measured(path):
            yield path.relative_to(REPO), fn


def test_no_function_is_over_60_lines():
    long = [
        f"{path}:{fn.start_line} {fn.long_name} ({fn.length} lines)"
        for path, fn in functions()
        if fn.length > MOST_LINES
    ]
    assert not long, f"functions over {MOST_LINES} lines:\n" + "\n".join(long)


def test_every_kind_of_source_is_measured():
    kinds = {p.suffix for p in sources()}
    assert {".cpp", ".hpp", ".cu", ".py"} <= kinds, kinds


def test_the_count_sees_a_long_function(tmp_path):
    # The measure itself: a function of 61 lines, signature to closing brace
    # (or last line), is found; one of 60 is not; in C++, CUDA and Python.
    for total, found in ((60, False), (61, True)):
        body = "\n".join("  x += 1;" for _ in range(total - 3))
        kernel = "\n".join("  x[0] += 1;" for _ in range(total - 4))
        python = "\n".join("    x += 1" for _ in range(total - 2))
        cases = {
            "f.cpp": f"int f() {{\n  int x = 0;\n{body}\n}}\n",
            "k.cu": f"__global__ void k(int* x) {{\n  int i = threadIdx.x;\n{kernel}\n  x[i] = 0;\n}}\n"
            "void launch(int* x) { k<<<1, 32>>>(x); }\n",
            "f.py": f"def f():\n    x = 0\n{python}\n",
        }
        for name, text in cases.items():
            source = tmp_path / name
            source.write_text(text)
            length = measured(source)[0].length
            assert length == total and (length > MOST_LINES) == found, (name, length)
