"""The shape the code keeps (issue 20; docs/architecture.md): no function over
60 lines in the C++ sources and unit tests. Measured by lizard (PyPI), which
counts a function's lines from its signature to its closing brace; .cu files
are left out (lizard does not read CUDA's launch syntax)."""
import lizard

from conftest import REPO

MOST_LINES = 60


def functions():
    for folder in ("src", "tests/unit", "bench"):
        for path in sorted((REPO / folder).rglob("*")):
            if path.suffix in (".cpp", ".hpp"):
                for fn in lizard.analyze_file(str(path)).function_list:
                    yield path.relative_to(REPO), fn


def test_no_function_is_over_60_lines():
    long = [f"{path}:{fn.start_line} {fn.long_name} ({fn.length} lines)"
            for path, fn in functions() if fn.length > MOST_LINES]
    assert not long, "functions over 60 lines:\n" + "\n".join(long)


def test_the_count_sees_a_long_function(tmp_path):
    # The measure itself: a function of 61 lines, signature to closing brace,
    # is found; one of 60 is not.
    for total, found in ((60, False), (61, True)):
        body = "\n".join("  x += 1;" for _ in range(total - 3))
        source = tmp_path / "f.cpp"
        source.write_text(f"int f() {{\n  int x = 0;\n{body}\n}}\n")
        length = lizard.analyze_file(str(source)).function_list[0].length
        assert length == total and (length > MOST_LINES) == found, length
